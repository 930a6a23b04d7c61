"""`make demo`: the Uintah workload on 4 ranks, read back and checked by the demo itself."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import lodex
from conftest import _env


def assert_pictures(stdout: str, folder, names: list[str]) -> None:
    """The demo drew these pictures beside its kept dataset (real PNGs) and said where."""
    assert f"pictures (lodex.plot) in {folder}: {', '.join(names)}" in stdout, stdout
    for name in names:
        with open(os.path.join(folder, name), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(os.path.join(folder, name)) > 5000


def kept(demo_runs, part: str) -> tuple[str, str]:
    """What the demo's part printed (run once per session by conftest's demo_runs, as `make demo`
    runs it: the commands it suggests are run by tests/python/test_docs_run.py) and its dataset."""
    return demo_runs(part), os.path.join(demo_runs.base, "demo-output", f"{part}.lodex")


def test_demo_four_ranks(demo_runs):
    stdout, out = kept(demo_runs, "uintah")
    assert "MISMATCH" not in stdout
    matches = re.findall(r"read step (\d+): ([\d,]+) particles from (\d+) files.*every value matches", stdout)
    assert [m[0] for m in matches] == ["0", "1"], stdout
    assert all(m[1] == "8,000" for m in matches)
    # the demo's dataset is real: read it here too
    g = lodex.open(out).particles["uintah"]
    assert g.steps == [0, 1]
    assert sum(f["count"] for f in g.files(0)) == 8000
    assert "lodex info" in stdout and "step 1: 8,000 particles" in stdout


def test_demo_default_temporary_output():
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "4", sys.executable, "-m", "lodex.demo",
           "--particles", "2000"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.count("every value matches") == 2
    m = re.search(r"dataset: (\S+)", r.stdout)
    assert m and not os.path.exists(m.group(1)), "the temporary dataset is left behind"


def test_demo_uneven_workload_adaptive(demo_runs):
    stdout, out = kept(demo_runs, "clustered")
    assert stdout.count("every value matches") == 2, stdout
    g = lodex.open(out).particles["clustered"]
    assert g.partition[0] == "adaptive" and g.particles_per_file == 3000
    counts = [f["count"] for f in g.files(0)]
    assert sum(counts) == 12000 and len(counts) == 4
    assert max(counts) <= 1.25 * 3000


def test_demo_vpic_queries(demo_runs):
    """The second half of `make demo`: indexes, a value query by 3 ranks and by one process, each
    checked against numpy by the demo; the H5Part export read back with h5py."""
    stdout, out = kept(demo_runs, "vpic")
    assert "MISMATCH" not in stdout
    counts = re.findall(r"step (\d): \"[^\"]+\": ([\d,]+) of 60,000 electrons \(by 3 ranks: ([\d,]+)\).*matches numpy",
                        stdout)
    assert [c[0] for c in counts] == ["0", "1"], stdout
    assert all(c[1] == c[2] and int(c[1].replace(",", "")) > 0 for c in counts), counts
    assert "read back with h5py: matches" in stdout
    g = lodex.open(out).particles["electrons"]
    assert [i["field"] for i in g.indexes(0)] == ["energy", "position"]
    folder = os.path.dirname(out)
    assert os.path.exists(os.path.join(folder, "electrons.h5part"))
    assert_pictures(stdout, folder, ["vpic-energy.png", "vpic-query.png", "vpic-histogram.png"])


def test_demo_geos_series(demo_runs):
    stdout, out = kept(demo_runs, "geos")
    assert "MISMATCH" not in stdout and stdout.count("matches numpy") == 4, stdout
    assert "series 'geos'  144 x 91 x 48" in stdout
    s = lodex.open(out).series["geos"]
    assert s.steps == list(range(12)) and s.d_sar == 1
    assert_pictures(stdout, os.path.dirname(out), ["geos-timeline.png", "geos-hovmoller.png"])


def test_demo_grid_kept_with_commands_to_try(demo_runs):
    """The grid part of `make demo`: an S3D-like grid by 3 ranks, read back at full and coarse
    resolution and in a box, each checked against numpy by the demo; the dataset is kept, and the
    demo says what to try on it (tests/python/test_docs_run.py runs those commands)."""
    stdout, out = kept(demo_runs, "grid")
    assert stdout.count("matches numpy") == 3 and "MISMATCH" not in stdout
    g = lodex.open(out).grids["flow"]
    assert g.steps == [0, 1] and g.dims == (96, 64, 48)
    assert_pictures(stdout, os.path.dirname(out), ["grid-slice.png"])
    assert "The dataset is kept in demo-output/grid.lodex. Try:" in stdout
    tries = [ln.strip() for ln in stdout.split("Try:")[1].splitlines() if ln.strip().startswith("lodex ")]
    assert len(tries) == 2 and all("demo-output/grid.lodex" in t for t in tries), tries
