"""The repository's documentation stands alone: every file it names exists, it never points
outside the repository, every paper it cites has a full reference, and the license is declared."""

from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def text_files():
    for top in ("README.md", "CHANGELOG.md", "docs", "bench/README.md", "src", "include", "python", "examples",
                "CMakeLists.txt", "Makefile", "scripts"):
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield path
            continue
        for d, _, files in os.walk(path):
            for f in files:
                if f.endswith((".md", ".py", ".cpp", ".hpp", ".h", ".txt", ".sh", ".in", ".f90")):
                    yield os.path.join(d, f)


def test_nothing_points_outside_the_repository():
    bad = []
    for path in text_files():
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            if re.search(r"\.\./shared|ARCHITECTURE\.md|BUILD-NOTES\.md|idx-format\.md|STYLE\.md|peers\.md", line):
                bad.append(f"{os.path.relpath(path, ROOT)}:{n}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_every_docs_path_named_exists():
    missing = []
    for path in text_files():
        if not path.endswith(".md"):
            continue
        for m in re.finditer(r"`?((?:docs|bench|tests|src|include|examples|scripts)/[\w./-]+"
                             r"\.(?:md|py|hpp|cpp|h|sh))`?",
                             open(path, encoding="utf-8").read()):
            if not any(os.path.exists(os.path.join(ROOT, m.group(1) + ext)) for ext in ("", ".in")):   # .in: configured
                missing.append(f"{os.path.relpath(path, ROOT)}: {m.group(1)}")
    assert not missing, "\n".join(missing)


def test_every_cited_paper_has_a_reference():
    refs = open(os.path.join(ROOT, "docs", "references.md"), encoding="utf-8").read()
    cited = set()
    for path in text_files():
        if path.endswith(".md"):
            cited |= set(re.findall(r"paper (\d{3})", open(path, encoding="utf-8").read()))
    assert cited
    for p in sorted(cited):
        assert re.search(rf"\| paper {p} \| [^|]+\*[^*]+\*[^|]+(19|20)\d\d", refs), f"paper {p} has no full reference"


def test_license_declared():
    assert open(os.path.join(ROOT, "LICENSE")).read().startswith("BSD 3-Clause License")
    assert 'license = { file = "LICENSE" }' in open(os.path.join(ROOT, "pyproject.toml")).read()
