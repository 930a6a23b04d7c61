"""Periodic and automatic domains written by several ranks (test_domains.py).

usage: domains_mpi.py OUTDIR MODE PARTITION
  MODE "periodic": a domain periodic on every axis; each rank's atoms lie up to 0.1 box lengths
        outside every face (and some exactly on the minimum and the maximum), as an MD code's
        atoms between re-neighbourings. Steps 0..2.
  MODE "npt": domain="auto"; the box breathes (scaled by 1 + 0.3 sin(step)) over steps 0..9,
        growing and shrinking, as an NPT run or an expanding outflow.
  PARTITION "one" (the default partition), "grid" (partition_grid (2, 2, 1)) or "adaptive";
        with "grid", every rank also passes its patch (a slab), which its atoms leave.
Every rank saves what it wrote as OUTDIR/in-<step>-<rank>.npz; rank 0 prints one result line."""

from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
LO = np.array([-1.0, 2.0, 0.0])
HI = np.array([3.0, 4.5, 16.795961])
SCHEMA = {"position": ("f8", 3), "id": ("i8", 1), "v": ("f4", 1)}


def atoms(step: int, lo, hi, spill: float) -> dict:
    rng = np.random.default_rng(1000 * step + rank)
    n = 3000 + 17 * rank
    size_ = hi - lo
    pos = lo + rng.uniform(-spill, 1 + spill, size=(n, 3)) * size_
    pos[0] = lo          # exactly on the minimum
    pos[1] = hi          # exactly on the maximum
    pos[2] = lo - size_ * spill   # the farthest out, on every axis
    ids = (rank * 100000 + np.arange(n)).astype(np.int64)
    return {"position": pos, "id": ids, "v": rng.random(n, dtype=np.float32)}


def slab(lo, hi):
    edges = np.linspace(lo[0], hi[0], size + 1)
    return ((edges[rank], lo[1], lo[2]), (edges[rank + 1], hi[1], hi[2]))


def partition_kw(partition: str) -> dict:
    return {"one": {}, "grid": {"partition_grid": (2, 2, 1)},
            "adaptive": {"partition": "adaptive", "particles_per_file": 2500}}[partition]


def main(outdir: str, mode: str, partition: str) -> None:
    path = os.path.join(outdir, "run.lodex")
    ds = lodex.create(path, comm=comm)
    if mode == "periodic":
        g = ds.define_particles("atoms", SCHEMA, domain=(tuple(LO), tuple(HI)), periodic=True,
                                **partition_kw(partition))
        steps = range(3)
    else:
        g = ds.define_particles("atoms", SCHEMA, domain="auto", **partition_kw(partition))
        steps = range(10)
    for step in steps:
        s = 1 + 0.3 * np.sin(step) if mode == "npt" else 1.0
        centre = (LO + HI) / 2
        lo, hi = centre + (LO - centre) * s, centre + (HI - centre) * s
        data = atoms(step, lo, hi, 0.1 if mode == "periodic" else 0.0)
        np.savez(os.path.join(outdir, f"in-{step}-{rank}.npz"), **data)
        patch = slab(lo, hi) if partition == "grid" and mode == "periodic" else None
        before = data["position"].copy()
        g.write(step, patch, data)
        assert np.array_equal(data["position"], before), "the caller's positions were changed"
    ds.close()
    if rank == 0:
        tu.emit({"path": path, "steps": list(steps)})


if __name__ == "__main__":
    main(*sys.argv[1:4])
