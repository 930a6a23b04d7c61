"""The peer of bench/series.py: its worker writes the GEOS-5-like series as GEOS-5 writes its
NetCDF-4 output (rank 0 gathers every step and writes one HDF5 file per step, one dataset per
variable), and the benchmark's h5py reader returns what lodex.workloads generated, for every
read pattern the benchmark times."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

from lodex.workloads import Geos

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)

import series   # noqa: E402 (bench is on sys.path now)
from bench_common import MPIEXEC   # noqa: E402

G = Geos(dims=(24, 14, 5), n2d=3, n3d=2, steps=3)


@pytest.fixture(scope="module", params=[2, 3])
def peer(request, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("peer") / "hdf5")
    p = subprocess.run([MPIEXEC, "-n", str(request.param), sys.executable, series.WORKER, "--path", path, "--hdf5",
                        "--steps", str(G.steps), "--dims", *map(str, G.dims), "--n2d", str(G.n2d),
                        "--n3d", str(G.n3d)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    return path, json.loads(p.stdout.strip().splitlines()[-1])


def test_worker_writes_one_hdf5_file_per_step(peer):
    path, out = peer
    assert out["files"] == G.steps and out["write_s"] > 0
    assert out["bytes_on_disk"] >= G.step_bytes() * G.steps
    for t in range(G.steps):
        with h5py.File(os.path.join(path, f"step_{t:04d}.h5"), "r") as f:
            assert sorted(f) == sorted(G.names)
            for name in G.names:
                assert f[name].chunks is None and f[name].compression is None   # h5py's defaults: contiguous
                np.testing.assert_array_equal(f[name][...], G.field(name, t))


def test_reader_returns_every_pattern(peer):
    path, _ = peer
    r = series.Hdf5Steps(path)
    for name, p in series.read_patterns(G).items():
        np.testing.assert_array_equal(r.read(p.var, p.steps, p.box), series.expected(G, p), err_msg=name)
    r.close()


def test_worker_needs_degrees_for_a_lodex_layout(tmp_path):
    p = subprocess.run([sys.executable, series.WORKER, "--path", str(tmp_path / "x")], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode != 0 and "--d-tar and --d-sar" in p.stderr
