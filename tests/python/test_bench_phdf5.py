"""The parallel HDF5 baseline of bench/particle_write.py: its worker runs under Debian's OpenMPI
with Debian's MPI-enabled h5py and writes the particles lodex's benchmark writes (read back with
the venv's own h5py and checked against lodex.workloads), rejects input that disagrees with the
schema, and the driver's cross-MPI ratio and goal arithmetic."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)

import particle_write   # noqa: E402 (bench is on sys.path now)
from bench_common import DECOMPOSITION, debian_mpi_job   # noqa: E402

N = 700   # particles per rank


def expected(ranks: int) -> list[dict]:
    return [uintah(r, N, patch_of(r, DECOMPOSITION[ranks])) for r in range(ranks)]


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    work = str(tmp_path_factory.mktemp("phdf5"))
    return work, particle_write.phdf5_job(work, 2, N, repeats=2, keep=True)


def test_worker_writes_the_particles_under_debian_openmpi(job):
    work, out = job
    assert out["mpi"].startswith("Open MPI") and out["hdf5"].startswith("1.10")
    assert (out["ranks"], out["particles_per_rank"], out["bytes_per_rank"]) == (2, N, N * 124)
    base = os.path.join(work, "phdf5-np2")
    want = expected(2)
    with h5py.File(os.path.join(base, "shared-1.h5"), "r") as f:
        assert sorted(f) == sorted(UINTAH_SCHEMA)
        for name in UINTAH_SCHEMA:
            np.testing.assert_array_equal(f[name][...], np.concatenate([w[name] for w in want]))
            assert f[name].dtype == want[0][name].dtype
    for r in range(2):
        with open(os.path.join(base, f"raw-{r}-1.bin"), "rb") as fh:
            assert fh.read() == b"".join(np.ascontiguousarray(want[r][k]).tobytes() for k in UINTAH_SCHEMA)


def test_worker_reports_both_fsync_modes(job):
    _, out = job
    assert [r["fsync"] for r in out["results"]] == [False, True]
    for r in out["results"]:
        med = r["median_s"]
        assert all(r["min_s"][m] <= med[m] <= r["max_s"][m] for m in med) and min(r["min_s"].values()) > 0
        assert r["phdf5_vs_raw"] == pytest.approx(med["raw_fpp"] / med["phdf5_collective"])


def test_worker_rejects_input_that_disagrees_with_the_schema(tmp_path):
    inputs = str(tmp_path / "in")
    particle_write.write_inputs(inputs, 2, 10)
    schema = dict(UINTAH_SCHEMA, id="f4")
    cmd, env = debian_mpi_job(2, os.path.join(BENCH, "phdf5_write_worker.py"),
                              ["--dir", str(tmp_path), "--inputs", inputs, "--schema", json.dumps(schema)])
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and "field 'id' is float64" in p.stderr


def row(ranks, fsync, **median_s):
    return {"ranks": ranks, "fsync": fsync, "median_s": median_s}


def test_goal_compares_ratios_to_raw_under_each_mpi():
    # lodex at a quarter of raw's speed, parallel HDF5 at a tenth: 2.5 x, goal (3 x) missed.
    g = particle_write.phdf5_goal(row(8, False, raw_fpp=0.002, lodex=0.008),
                                  row(8, False, raw_fpp=0.001, phdf5_collective=0.010))
    assert g["lodex_vs_raw"] == pytest.approx(0.25) and g["phdf5_vs_raw"] == pytest.approx(0.1)
    assert g["lodex_vs_phdf5"] == pytest.approx(2.5) and g["goal_lodex_ge_3x_phdf5"] is False
    # Exactly 3 x (0.75 against 0.25) meets it.
    g = particle_write.phdf5_goal(row(2, True, raw_fpp=3.0, lodex=4.0), row(2, True, raw_fpp=1.0, phdf5_collective=4.0))
    assert g["lodex_vs_phdf5"] == 3.0 and g["goal_lodex_ge_3x_phdf5"] is True
    with pytest.raises(ValueError, match="fsync"):
        particle_write.phdf5_goal(row(2, True, raw_fpp=1, lodex=1), row(2, False, raw_fpp=1, phdf5_collective=1))


def test_attach_pairs_each_result_with_the_same_fsync():
    run = {"results": [row(4, f, raw_fpp=1.0, lodex=2.0) for f in (False, True)]}
    phdf5 = {"results": [row(4, False, raw_fpp=1.0, phdf5_collective=8.0),
                         row(4, True, raw_fpp=1.0, phdf5_collective=1.0)]}
    particle_write.attach_phdf5(run, phdf5)
    assert run["phdf5"] is phdf5
    assert [r["phdf5"]["goal_lodex_ge_3x_phdf5"] for r in run["results"]] == [True, False]
