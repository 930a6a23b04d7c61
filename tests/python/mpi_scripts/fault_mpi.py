"""Fault injection on several ranks (test_fault_injection.py): `create PATH` writes step 0 of a
particle group, a grid and a series; `append PATH` writes step 1 of each under whatever fault
LODEX_FAULT arms (on the rank it names) and prints, on rank 0, every rank's outcome."""

from __future__ import annotations

import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
mode, path = sys.argv[1], sys.argv[2]
SCHEMA = {"position": ("f8", 3), "energy": "f4"}
GRID = (8, 6, 3 * size)


def particles(step: int) -> dict:
    rng = np.random.default_rng([13, step, rank])
    pos = rng.random((700, 3))
    pos[:, 2] = (rank + pos[:, 2]) / size
    return {"position": pos, "energy": rng.random(700).astype(np.float32)}


def grid(step: int) -> np.ndarray:
    return np.full((3, GRID[1], GRID[0]), 100 * step + rank, dtype=np.float32)


def write_step(ds, step: int) -> None:
    p = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(1, 1, 2))
    p.write(step=step, data=particles(step), patch=((0, 0, rank / size), (1, 1, (rank + 1) / size)))
    ds.define_grid("g", dims=GRID, dtype="f4", bits_per_block=4, blocks_per_file=2).write(
        step, ((0, 0, 3 * rank), (GRID[0], GRID[1], 3 * rank + 3)), grid(step))


if mode == "create":
    with lodex.create(path, comm=comm) as ds:
        write_step(ds, 0)
    if rank == 0:
        tu.emit({"ok": True})
else:
    outcome = None
    try:
        ds = lodex.open(path, "a", comm=comm, fsync=True)
        try:
            write_step(ds, 1)
        finally:
            ds.close()
    except lodex.Error as e:
        outcome = [type(e).__name__, str(e)]
    outcomes = comm.gather(outcome, root=0)
    if rank == 0:
        tu.emit({"outcomes": outcomes})
