"""Writes fixed particle steps (deterministic inputs) in every partition mode and prints the
sha256 of every data file and spatial metadata file (test_golden_bytes.py compares them with the
bytes lodex wrote before its write pipeline was rebuilt: the files must stay byte-identical)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
out = sys.argv[1]
grid = {1: (1, 1, 1), 3: (1, 1, 3), 8: (2, 2, 2)}[size]


def plain(step, p):
    return uintah(rank + 100 * step, 3000 + 17 * rank, p)


def awkward(step, p):
    """NaN values, both zeros and int64 ids past 2^53: the min/max records' corner cases."""
    d = uintah(rank + 100 * step, 2000 + 5 * rank, p)
    d["density"] = d["density"].copy()
    d["density"][::7] = np.nan
    d["volume"] = d["volume"].copy()
    d["volume"][1::5] = -0.0
    d["volume"][2::5] = 0.0
    d["id"] = d["id"].copy()
    d["id"][::3] = 2**60 + np.arange(len(d["id"][::3]))
    return d


def case(name, data, with_patch=True, **definition):
    path = os.path.join(out, name + ".lodex")
    if rank == 0:
        shutil.rmtree(path, ignore_errors=True)
    comm.Barrier()
    ds = lodex.create(path, comm=comm)
    # The layout of that build: 4,096 particles per brick (the default now sizes bricks for the data).
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), lod={"brick_target": 4096},
                            **definition)
    for step in (0, 5):
        p = patch_of(rank, grid)
        g.write(step=step, data=data(step, p), patch=p if with_patch else None)
    ds.close()


case("factor_all", plain, partition=grid)
case("factor_one", plain, partition=(1, 1, 1))
case("gridmode", awkward, partition_grid=(2, 2, 1))
case("gridmode_nopatch", awkward, with_patch=False, partition_grid=(1, 3, 2))
case("adaptive", awkward, partition="adaptive", particles_per_file=2500)
if rank == 0:
    digests = {}
    for root, _, files in os.walk(out):
        for f in files:
            if f.endswith((".lpd", ".lsm")):
                fp = os.path.join(root, f)
                with open(fp, "rb") as fh:
                    digests[os.path.relpath(fp, out)] = hashlib.sha256(fh.read()).hexdigest()[:16]
    tu.emit(digests)
