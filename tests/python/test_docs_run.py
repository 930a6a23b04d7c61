"""Every Python block of README.md and docs/*.md runs, at 1 and 4 ranks, each in a folder of its
own; every shell command the demo prints at the end of its parts runs on the demo's dataset, and
so does every `lodex ...` line of a shell block that names `demo-output/`.

How a block is run is said by an HTML comment on the line right before its fence (invisible on
GitHub; docs/README.md, "Code blocks"):

    <!-- fragment -->      a sketch that is not runnable alone: only compiled (syntax errors fail)
    <!-- continues -->     runs after the page's previous block, in the same process and folder
    <!-- demo-output -->   reads the datasets `make demo` keeps: runs where demo-output/ holds them
    <!-- ranks: 1 -->      runs at 1 rank only

Markers combine, comma-separated: `<!-- demo-output, ranks: 1 -->`. A block runs as a script whose
line numbers are those of the Markdown file (every other line blank), so a traceback points at the
page's line.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import lodex
from conftest import _env, run_mpi_raw

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MARKERS = ("fragment", "continues", "demo-output", "ranks: 1")
RANKS = (1, 4)


def pages() -> list[str]:
    docs = sorted(f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
    return ["README.md"] + [f"docs/{f}" for f in docs]


def blocks(page: str, lang: str = "python") -> list[dict]:
    """The page's blocks of `lang`: first line of code (1-based), the code, the markers."""
    lines = open(os.path.join(ROOT, page), encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(rf"^(\s*)```{lang}\s*$", lines[i])
        if not m:
            i += 1
            continue
        indent, start = m.group(1), i + 1
        end = start
        while not re.match(rf"^{indent}```\s*$", lines[end]):
            end += 1
        prev = lines[i - 1].strip() if i else ""
        marks = []
        if prev.startswith("<!--") and prev.endswith("-->"):
            marks = [t.strip() for t in prev[4:-3].split(",")]
            unknown = set(marks) - set(MARKERS)
            assert not unknown, f"{page}:{i}: unknown marker(s) {sorted(unknown)}; known: {MARKERS}"
        out.append({"page": page, "line": start + 1, "code": textwrap.dedent("\n".join(lines[start:end])),
                    "marks": marks})
        i = end + 1
    return out


def all_blocks() -> list[dict]:
    return [b for p in pages() for b in blocks(p)]


def chains() -> list[list[dict]]:
    """Runnable blocks grouped: a block marked `continues` joins the previous block of its page."""
    out: list[list[dict]] = []
    for page in pages():
        prev = None
        for b in blocks(page):
            if "fragment" in b["marks"]:
                assert "continues" not in b["marks"], f"{page}:{b['line']}: a fragment does not run"
                prev = None
                continue
            if "continues" in b["marks"]:
                assert prev is not None, f"{page}:{b['line']}: 'continues' after no runnable block"
                prev.append(b)
            else:
                prev = [b]
                out.append(prev)
    return out


def chain_id(chain: list[dict]) -> str:
    return f"{chain[0]['page']}:{chain[0]['line']}"


def script(chain: list[dict]) -> str:
    """The chain's code at its own line numbers of the page, every other line blank."""
    n = max(b["line"] + b["code"].count("\n") for b in chain)
    lines = [""] * n
    for b in chain:
        for k, ln in enumerate(b["code"].split("\n")):
            lines[b["line"] - 1 + k] = ln
    return "\n".join(lines) + "\n"


def test_markers_are_few_and_blocks_are_found():
    """The pages' blocks are found (the parser has not gone blind), most of them run, and every
    fragment still compiles."""
    bl = all_blocks()
    assert len(bl) >= 15, [f"{b['page']}:{b['line']}" for b in bl]
    frags = [b for b in bl if "fragment" in b["marks"]]
    assert len(frags) <= 3, [f"{b['page']}:{b['line']}" for b in frags]
    for b in bl:
        compile(script([b]), f"{b['page']}", "exec")


# ---------------------------------------------------------------------------------------------
# The demo's datasets, written once per session as `make demo` writes them (small sizes)


@pytest.fixture(scope="session")
def demo_output(demo_runs):
    """The folder holding demo-output/ with every part's dataset (the folder `make demo` runs in)."""
    for part in ("uintah", "vpic", "geos", "grid"):
        demo_runs(part)
    return demo_runs.base


def with_demo_output(folder: str, base: str) -> None:
    """demo-output/ in `folder`: hard links to the session's files. lodex replaces the files it
    changes (a manifest, an index) by renaming a new one onto them, never in place, so a block
    that changes a dataset here leaves the session's copy as it was."""
    shutil.copytree(os.path.join(base, "demo-output"), os.path.join(folder, "demo-output"), copy_function=os.link)


# ---------------------------------------------------------------------------------------------
# What some blocks are said to do, checked after they ran (page, a line of the block, check)


def _readme_grids(folder, out, ranks):
    g = lodex.open(os.path.join(folder, "run.lodex")).grids["pressure"]
    assert os.path.exists(g.idx_path) and g.steps == [0]
    a = g.read(0)
    assert a.shape == tuple(g.dims[::-1]) and np.isfinite(a).all()
    assert np.array_equal(lodex.open_idx(os.path.join(folder, "t.idx")).read(0), a)


def _readme_series(folder, out, ranks):
    s = lodex.open(os.path.join(folder, "run.lodex")).series["geos"]
    assert s.steps == list(range(30)) and s.dims == (144, 91, 48)


def _picture(*names):
    def check(folder, out, ranks):
        for name in names:
            path = os.path.join(folder, name)
            assert os.path.getsize(path) > 1000, path
    return check


def _h5part(folder, out, ranks):
    assert os.path.getsize(os.path.join(folder, "e.h5part")) > 0
    ds = lodex.open(os.path.join(folder, "copy.lodex"))
    src = lodex.open(os.path.join(folder, "demo-output", "vpic.lodex")).particles["electrons"]
    for name in ("electrons", "ions"):
        g = ds.particles[name]
        assert g.steps == src.steps
        assert sum(f["count"] for f in g.files(1)) == sum(f["count"] for f in src.files(1))


def _openpmd(folder, out, ranks):
    src = lodex.open(os.path.join(folder, "run.lodex")).particles["electrons"]
    back = lodex.open(os.path.join(folder, "back.lodex")).particles["electrons"]
    assert sorted(os.listdir(folder)).count("run.bp") == 1 and back.steps == src.steps == [0, 10]
    assert os.path.exists(os.path.join(folder, "run_0.h5")) and os.path.exists(os.path.join(folder, "run_10.h5"))
    for s in src.steps:
        a, b = src.read(s), back.read(s)
        ia, ib = np.argsort(a["id"]), np.argsort(b["id"])
        assert np.array_equal(a["position"][ia], b["position"][ib]) and len(ia) == 1000 * ranks
        assert np.allclose(a["momentum"][ia] * 9.1093837e-31 * 299792458.0, b["momentum"][ib], rtol=1e-6)


def _queries(folder, out, ranks):
    g = lodex.open(os.path.join(folder, "demo-output", "vpic.lodex")).particles["electrons"]
    assert {i["field"] for i in g.indexes(0)} >= {"energy", "position"}


def _adaptive(folder, out, ranks):
    g = lodex.open(os.path.join(folder, "run.lodex")).particles["electrons"]
    assert g.partition[0] == "adaptive" and g.particles_per_file == 2_000_000


def _calibration(folder, out, ranks):
    assert lodex.Calibration.load(os.path.join(folder, "cal.json")).bw_io > 0


CHECKS = [
    ("README.md", "\"new particles\")", lambda f, o, r: o.count("new particles") >= r),
    ("README.md", "g = ds.define_grid(\"pressure\"", _readme_grids),
    ("README.md", "s = ds.define_series(\"geos\"", _readme_series),
    ("README.md", "lodex.plot.save(fig, \"energy.svg\")", _picture("energy.svg")),
    ("docs/plot.md", "lp.save(fig, \"energy.png\")", _picture("energy.png")),
    ("docs/h5part.md", "g.export(\"e.h5part\"", _h5part),
    ("docs/queries.md", "p.build_index(", _queries),
    ("docs/openpmd.md", "lodex.openpmd.import_series(\"run_%T.h5\"", _openpmd),
    ("docs/adaptive.md", "partition=\"adaptive\"", _adaptive),
    ("docs/series.md", "cal.save(\"cal.json\")", _calibration),
]


def checks_of(chain: list[dict]) -> list:
    return [fn for page, snippet, fn in CHECKS
            if page == chain[0]["page"] and any(snippet in b["code"] for b in chain)]


def test_every_check_finds_its_block():
    """A check whose block moved away would check nothing: each names exactly one chain."""
    for page, snippet, _ in CHECKS:
        found = [chain_id(c) for c in chains() if c[0]["page"] == page and any(snippet in b["code"] for b in c)]
        assert len(found) == 1, (page, snippet, found)


# ---------------------------------------------------------------------------------------------
# The blocks, run


CASES = [(c, n) for c in chains() for n in RANKS if n == 1 or not any("ranks: 1" in b["marks"] for b in c)]


@pytest.mark.parametrize("chain,ranks", CASES, ids=[f"{chain_id(c)}-{n}ranks" for c, n in CASES])
def test_block_runs(chain, ranks, tmp_path, request):
    folder = str(tmp_path)
    if any("demo-output" in b["marks"] for b in chain):
        with_demo_output(folder, request.getfixturevalue("demo_output"))
    path = os.path.join(folder, re.sub(r"\W", "_", chain_id(chain)) + ".py")
    with open(path, "w") as f:
        f.write(script(chain))
    rc, out, err, timed_out = run_mpi_raw(ranks, path, timeout=240, cwd=folder)
    where = ", ".join(f"{b['page']}:{b['line']}" for b in chain)
    assert not timed_out and rc == 0, (f"the block at {where} on {ranks} ranks: "
                                       f"{'timed out' if timed_out else f'exit {rc}'} (traceback lines are the page's)"
                                       f"\n--- stdout ---\n{out[-3000:]}\n--- stderr ---\n{err[-3000:]}")
    for check in checks_of(chain):
        assert check(folder, out, ranks) is not False, f"{where} on {ranks} ranks: {out[-2000:]}"


# ---------------------------------------------------------------------------------------------
# Shell commands: what the demo prints, and the `lodex` lines of shell blocks on its datasets


def run_command(line: str, cwd: str) -> None:
    """One command as a user types it (a shell, the venv's `lodex` and `python` first on PATH):
    exit code 0, no traceback, and every `--out` file written."""
    r = subprocess.run(["bash", "-c", line], capture_output=True, text=True, timeout=120, env=_env(), cwd=cwd)
    assert r.returncode == 0 and "Traceback" not in r.stdout + r.stderr, \
        f"{line}\nexit {r.returncode}\n--- stdout ---\n{r.stdout[-3000:]}\n--- stderr ---\n{r.stderr[-3000:]}"
    words = shlex.split(line, comments=True)
    for k, w in enumerate(words[:-1]):
        if w == "--out":
            assert os.path.getsize(os.path.join(cwd, words[k + 1])) > 0, (line, words[k + 1])


@pytest.mark.parametrize("part", ["uintah", "clustered", "vpic", "geos", "grid"])
def test_demo_commands_to_try(part, demo_runs, tmp_path):
    """Each part of the demo ends with commands to try on its dataset: all of them run, from the
    folder the demo ran in (where `make demo` leaves demo-output/)."""
    out = demo_runs(part)
    assert "Try:" in out, out[-2000:]
    tries = [ln.strip() for ln in out.split("Try:")[1].splitlines() if ln.startswith("  ") and ln.strip()]
    assert len(tries) >= 2, out[-2000:]
    cwd = str(tmp_path)
    os.symlink(os.path.join(demo_runs.base, "demo-output"), os.path.join(cwd, "demo-output"))
    for line in tries:
        run_command(line, cwd)


def shell_lines() -> list[tuple[str, str]]:
    """(where, command) for every `lodex ...` line of a sh block that names demo-output/."""
    out = []
    for page in pages():
        for b in blocks(page, "sh"):
            for k, ln in enumerate(b["code"].split("\n")):
                if ln.startswith("lodex ") and "demo-output/" in ln:
                    out.append((f"{page}:{b['line'] + k}", ln))
    return out


def test_readme_shell_lines_found():
    """The README's picture commands run on the demo's datasets (so are found below)."""
    readme = [c for w, c in shell_lines() if w.startswith("README.md:")]
    assert sum(c.startswith("lodex render ") for c in readme) >= 5, readme


@pytest.mark.parametrize("where,line", shell_lines(), ids=[w for w, _ in shell_lines()])
def test_shell_line_runs(where, line, demo_output, tmp_path):
    os.symlink(os.path.join(demo_output, "demo-output"), os.path.join(str(tmp_path), "demo-output"))
    run_command(line, str(tmp_path))
