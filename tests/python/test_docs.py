"""The repository's documentation stands alone: every file it names exists, it never points
outside the repository, every paper it cites has a full reference, and the license is declared."""

from __future__ import annotations

import glob
import itertools
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


CITATION = re.compile(r"\b([A-Z][\w-]+) et al\. ((?:19|20)\d\d)\b")


def test_every_cited_paper_has_a_reference():
    """Papers are cited by first author and year ("Kumar et al. 2017 §IV"), in the code as in the
    documentation, and each one cited has its full reference in docs/references.md."""
    refs = open(os.path.join(ROOT, "docs", "references.md"), encoding="utf-8").read()
    cited, numbered = set(), []
    for path in itertools.chain(text_files(), glob.glob(os.path.join(ROOT, "bench", "*.py"))):
        text = open(path, encoding="utf-8", errors="replace").read()
        cited |= set(CITATION.findall(text))
        numbered += [f"{os.path.relpath(path, ROOT)}: {m.group(0)}"
                     for m in re.finditer(r"\b[Pp]apers? \d{3}\b|\[P\d\]", text)]
    assert not numbered, "cite papers by author and year:\n" + "\n".join(numbered)
    assert cited
    for author, year in sorted(cited):
        assert re.search(rf"^\| {author} et al\. {year}\b[^|]*\| [^|]+\*[^*]+\*[^|]+{year}", refs, re.M), \
            f"{author} et al. {year} has no full reference in docs/references.md"


def test_license_declared():
    assert open(os.path.join(ROOT, "LICENSE")).read().startswith("BSD 3-Clause License")
    assert 'license = { file = "LICENSE" }' in open(os.path.join(ROOT, "pyproject.toml")).read()
