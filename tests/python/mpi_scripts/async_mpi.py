"""Asynchronous particle steps (test_async.py).

usage: async_mpi.py write OUTDIR      every rank writes steps 0..5 of the same particles twice:
                                      async.lodex with write(..., wait=False) (even steps copy=True,
                                      their arrays zeroed right after the call; odd steps
                                      copy=False, arrays kept) and sync.lodex with write()
       async_mpi.py fault PATH        one asynchronous step (step 1) under LODEX_FAULT, then a
                                      collective call that commits it; prints every rank's outcome

Rank 0 prints one result line."""

from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
GRID = rank_grid(size)
PARTITION = GRID   # every rank's patch into one partition: node-cooperative where ranks share a node
STEPS = 6


def data(step: int) -> dict:
    return {k: np.array(v) for k, v in uintah(rank + 100 * step, 3000 + 37 * rank + 11 * step,
                                               patch_of(rank, GRID), seed=5).items()}


def write(outdir: str) -> None:
    result = {"profiles": [], "pending": []}
    a = lodex.create(os.path.join(outdir, "async.lodex"), comm=comm)
    s = lodex.create(os.path.join(outdir, "sync.lodex"), comm=comm)
    ga = a.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=PARTITION)
    gs = s.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=PARTITION)
    last = None
    for step in range(STEPS):
        d = data(step)
        copy = step % 2 == 0
        p = ga.write(step, patch_of(rank, GRID), d, wait=False, copy=copy)
        if copy:
            for v in d.values():
                v[...] = 0   # the caller reuses its arrays at once
        result["pending"].append([p.step, ga.steps == list(range(step))])   # not committed yet
        if step == 3:
            result["profile_copy"] = dict(ga.profile)   # step 2's (copy=True), committed by this write
            prof = p.wait()   # collective, commits step 3
            result["profiles"].append(dict(prof))
            result["steps_after_wait"] = ga.steps
        last = p
        gs.write(step, patch_of(rank, GRID), data(step))
    a.close()   # commits the last pending step
    s.close()
    result["last_done"] = last.done()
    if rank == 0:
        tu.emit(result)


def fault(path: str) -> None:
    outcome = None
    ds = lodex.open(path, "a", comm=comm)
    g = ds.particles["u"]
    try:
        p = g.write(1, patch_of(rank, GRID), data(1), wait=False)
        p.wait()
    except lodex.Error as e:
        outcome = [type(e).__name__, str(e)]
    try:
        ds.close()
    except lodex.Error as e:
        outcome = outcome or [type(e).__name__, str(e)]
    outcomes = comm.gather(outcome, root=0)
    if rank == 0:
        tu.emit({"outcomes": outcomes})


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "create":
        with lodex.create(sys.argv[2], comm=comm) as ds:
            ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)),
                                partition=PARTITION).write(0, patch_of(rank, GRID), data(0))
        if rank == 0:
            tu.emit({"ok": True})
    else:
        fault(sys.argv[2])
