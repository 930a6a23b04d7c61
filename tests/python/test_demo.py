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


def test_demo_four_ranks(tmp_path):
    out = str(tmp_path / "demo.lodex")
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "4", sys.executable, "-m", "lodex.demo",
           "--particles", "2000", "--output", out]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert "MISMATCH" not in r.stdout
    matches = re.findall(r"read step (\d+): ([\d,]+) particles from (\d+) files.*every value matches", r.stdout)
    assert [m[0] for m in matches] == ["0", "1"], r.stdout
    assert all(m[1] == "8,000" for m in matches)
    # the demo's dataset is real: read it here too
    import lodex
    g = lodex.open(out).particles("uintah")
    assert g.steps == [0, 1]
    assert sum(f["count"] for f in g.files(0)) == 8000
    assert "lodex info" in r.stdout and "step 1: 8,000 particles" in r.stdout


def test_demo_default_temporary_output():
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "4", sys.executable, "-m", "lodex.demo",
           "--particles", "2000"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.count("every value matches") == 2
    m = re.search(r"dataset: (\S+)", r.stdout)
    assert m and not os.path.exists(m.group(1)), "the temporary dataset is left behind"


def test_demo_uneven_workload_adaptive(tmp_path):
    out = str(tmp_path / "clustered.lodex")
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "4", sys.executable, "-m", "lodex.demo",
           "--particles", "3000", "--workload", "clustered", "--output", out]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.count("every value matches") == 2, r.stdout
    import lodex
    g = lodex.open(out).particles("clustered")
    assert g.partition[0] == "adaptive" and g.particles_per_file == 3000
    counts = [f["count"] for f in g.files(0)]
    assert sum(counts) == 12000 and len(counts) == 4
    assert max(counts) <= 1.25 * 3000


def test_demo_vpic_queries(tmp_path):
    """The second half of `make demo`: indexes, a value query by 3 ranks and by one process, each
    checked against numpy by the demo; the H5Part export read back with h5py."""
    out = str(tmp_path / "vpic.lodex")
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "3", sys.executable, "-m", "lodex.demo",
           "--particles", "20000", "--workload", "vpic", "--output", out]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert "MISMATCH" not in r.stdout
    counts = re.findall(r"step (\d): \"[^\"]+\": ([\d,]+) of 60,000 electrons \(by 3 ranks: ([\d,]+)\).*matches numpy",
                        r.stdout)
    assert [c[0] for c in counts] == ["0", "1"], r.stdout
    assert all(c[1] == c[2] and int(c[1].replace(",", "")) > 0 for c in counts), counts
    assert "read back with h5py: matches" in r.stdout
    import lodex
    g = lodex.open(out).particles("electrons")
    assert [i["field"] for i in g.indexes(0)] == ["energy", "position"]
    assert os.path.exists(str(tmp_path / "electrons.h5part"))
    assert_pictures(r.stdout, tmp_path, ["vpic-energy.png", "vpic-query.png", "vpic-histogram.png"])


def test_demo_geos_series(tmp_path):
    out = str(tmp_path / "geos.lodex")
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "4", sys.executable, "-m", "lodex.demo",
           "--workload", "geos", "--output", out]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert "MISMATCH" not in r.stdout and r.stdout.count("matches numpy") == 4, r.stdout
    assert "series 'geos'  144 x 91 x 48" in r.stdout
    import lodex
    s = lodex.open(out).series("geos")
    assert s.steps == list(range(12)) and s.d_sar == 1
    assert_pictures(r.stdout, tmp_path, ["geos-timeline.png", "geos-hovmoller.png"])


def test_demo_grid_kept_with_commands_to_try(tmp_path):
    """The grid part of `make demo`: an S3D-like grid by 3 ranks, read back at full and coarse
    resolution and in a box, each checked against numpy by the demo; the dataset is kept and the
    commands it suggests work on it."""
    out = str(tmp_path / "grid.lodex")
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "3", sys.executable, "-m", "lodex.demo",
           "--workload", "grid", "--output", out]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=_env())
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    assert r.stdout.count("matches numpy") == 3 and "MISMATCH" not in r.stdout
    g = lodex.open(out).grid("flow")
    assert g.steps == [0, 1] and g.dims == (96, 64, 48)
    assert_pictures(r.stdout, tmp_path, ["grid-slice.png"])
    assert f"The dataset is kept in {out}. Try:" in r.stdout
    tries = [ln.strip() for ln in r.stdout.split("Try:")[1].splitlines() if ln.strip().startswith("lodex ")]
    assert len(tries) == 2
    for line in tries:
        args = line.split()[1:]
        res = subprocess.run([sys.executable, "-m", "lodex.cli", *args], capture_output=True, text=True,
                             timeout=60, env=_env(), cwd=str(tmp_path))
        assert res.returncode == 0, (line, res.stderr)
