"""The C and C++ files follow .clang-format: scripts/format-code --check (clang-format 19, which
`make test`'s set-up installs) finds nothing to change. `scripts/format-code` fixes what it
names."""

from __future__ import annotations

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_c_and_cpp_files_are_formatted():
    r = subprocess.run(["bash", os.path.join(ROOT, "scripts", "format-code"), "--check"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    # clang-format reports "file:line:col: error: code should be clang-formatted" per change:
    # the files, once each, make the failure a list to fix.
    named = sorted({line.split(":")[0] for line in r.stderr.splitlines()
                    if "code should be clang-formatted" in line})
    assert r.returncode == 0, ("run scripts/format-code; these files differ from .clang-format:\n"
                               + "\n".join(named) if named else r.stderr)
