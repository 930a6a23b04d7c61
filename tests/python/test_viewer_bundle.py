"""The viewer's bundle (python/lodex/serve/viewer/) is committed built, so installing lodex needs no
Node.js: this rebuilds it from viewer/src with the pinned toolchain of viewer/package-lock.json
(`npm ci`, then the package's own build command) in a temporary copy and fails when a committed
file differs: a change to viewer/src without `make viewer` cannot pass."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILT = os.path.join(ROOT, "python", "lodex", "serve", "viewer")


def test_committed_bundle_is_the_build_of_the_sources(tmp_path):
    npm = shutil.which("npm")
    assert npm, "npm (Debian's nodejs and npm, scripts/setup-system.sh) rebuilds the viewer"
    src = tmp_path / "viewer"
    shutil.copytree(os.path.join(ROOT, "viewer"), src, ignore=shutil.ignore_patterns("node_modules"))
    out = tmp_path / "python" / "lodex" / "serve" / "viewer"
    out.mkdir(parents=True)
    env = {**os.environ, "npm_config_update_notifier": "false"}
    for cmd in ([npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"], [npm, "run", "build"]):
        r = subprocess.run(cmd, cwd=src, env=env, capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, (cmd, r.stdout[-2000:], r.stderr[-2000:])
    built = sorted(os.listdir(out))
    assert built == sorted(os.listdir(BUILT)), (built, os.listdir(BUILT))
    stale = [n for n in built if not filecmp.cmp(out / n, os.path.join(BUILT, n), shallow=False)]
    assert not stale, f"{stale} differ from a build of viewer/src: run `make viewer` and commit the result"
