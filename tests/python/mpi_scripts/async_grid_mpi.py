"""Asynchronous grid and series steps (test_async.py).

usage: async_grid_mpi.py write OUTDIR     every rank writes the same grids (grid_write_cases: p3, zip,
                                          emp, multi) and a series (series_data.GEOS, d_tar=2)
                                          twice: async.lodex with write(..., wait=False), the arrays
                                          overwritten right after each call, and sync.lodex with
                                          write()
       async_grid_mpi.py create PATH      grid "multi" step 0 (many files: every rank writes some) and
                                          series "geos" (d_sar=0) and "geos_sar" (d_sar=1) steps 0, 1
                                          (one window)
       async_grid_mpi.py grid PATH        grid step 1 with wait=False, then a synchronous step 2
                                          (the next call: it commits step 1 first)
       async_grid_mpi.py series PATH      series steps k, k+1 (k the next step; k+1 completes a
                                          window) with wait=False, then a synchronous step k+2
       async_grid_mpi.py series_sar PATH  the same for series "geos_sar" (d_sar=1: its window is
                                          aggregated between ranks)

The last two run under LODEX_FAULT and print where each rank's error was raised. Rank 0 prints one
result line."""

from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import grid_write_cases as gc
import lodex_testutil as tu
from series_data import GEOS

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
GRIDS = ["p3", "zip", "emp", "multi"]
FAULT_GRID = "multi"


def write(outdir: str) -> None:
    result = {"grids": {}, "series": []}
    a = lodex.create(os.path.join(outdir, "async.lodex"), comm=comm)
    s = lodex.create(os.path.join(outdir, "sync.lodex"), comm=comm)
    for name in GRIDS:
        ga, gs = gc.define(a, name), gc.define(s, name)
        box = gc.rank_boxes(name, size)[rank]
        steps = gc.CASES[name]["steps"]
        rows = []
        for step in steps:
            d = gc.box_data(name, step, box)
            before = ga.steps
            p = ga.write(step, box, gc.write_data(name, d), wait=False)
            for v in d.values():
                v[...] = 0   # the caller reuses its arrays at once: the step must not see it
            rows.append({"step": p.step, "committed_before": before, "committed_at_return": ga.steps,
                         "pending": isinstance(p, lodex.PendingWrite)})
            if step == steps[0]:
                prof = p.wait()   # collective: commits the step
                rows[-1]["after_wait"] = ga.steps
                rows[-1]["profile"] = {k: prof[k] for k in ("step", "blocked_s", "total_s", "bytes", "async_path")}
                rows[-1]["done"] = p.done()
            gs.write(step, box, gc.write_data(name, gc.box_data(name, step, box)))
        result["grids"][name] = rows
    sa = a.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=2, d_sar=1 if size > 1 else 0)
    ss = s.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=2, d_sar=1 if size > 1 else 0)
    for t in range(5):
        box, data = GEOS.local(rank, size, t)
        data = {k: np.array(v) for k, v in data.items()}
        p = sa.write(t, box, data, wait=False)
        for v in data.values():
            v[...] = -7
        row = {"step": p.step, "flushed_at_return": sa.steps, "buffered": sa.buffered_steps}
        if t == 1:
            prof = p.wait()
            row["after_wait"] = sa.steps
            row["profile"] = {k: prof[k] for k in ("step", "blocked_s", "flushed", "window_steps", "async_path")}
        result["series"].append(row)
        box, data = GEOS.local(rank, size, t)
        ss.write(t, box, data)
    a.close()   # commits the last pending steps and flushes step 4
    s.close()
    if rank == 0:
        tu.emit(result)


def create(path: str) -> None:
    with lodex.create(path, comm=comm) as ds:
        g = gc.define(ds, FAULT_GRID)
        box = gc.rank_boxes(FAULT_GRID, size)[rank]
        g.write(0, box, gc.write_data(FAULT_GRID, gc.box_data(FAULT_GRID, 0, box)))
        s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=2, d_sar=0)
        sar = ds.define_series("geos_sar", dims=GEOS.dims, variables=GEOS.variables(), d_tar=2, d_sar=1)
        for t in (0, 1):
            s.write(t, *GEOS.local(rank, size, t))
            sar.write(t, *GEOS.local(rank, size, t))
    if rank == 0:
        tu.emit({"ok": True})


def outcomes_of(steps) -> list:
    """Runs each (label, fn) in order; the first error ends it: [label, error type, message]."""
    for label, fn in steps:
        try:
            fn()
        except lodex.Error as e:
            return [label, type(e).__name__, str(e)]
    return None


def fault(path: str, kind: str) -> None:
    ds = lodex.open(path, "a", comm=comm)
    if kind == "grid":
        g = ds.grids[FAULT_GRID]
        box = gc.rank_boxes(FAULT_GRID, size)[rank]
        arg = lambda step: gc.write_data(FAULT_GRID, gc.box_data(FAULT_GRID, step, box))   # noqa: E731
        first = g.steps[-1] + 1
        outcome = outcomes_of([("call", lambda: g.write(first, box, arg(first), wait=False)),
                               ("next", lambda: g.write(first + 1, box, arg(first + 1)))])
    else:
        s = ds.series["geos_sar" if kind == "series_sar" else "geos"]
        k = s.steps[-1] + 1
        outcome = outcomes_of([("call", lambda: s.write(k, *GEOS.local(rank, size, k), wait=False)),
                               ("call", lambda: s.write(k + 1, *GEOS.local(rank, size, k + 1), wait=False)),
                               ("next", lambda: s.write(k + 2, *GEOS.local(rank, size, k + 2)))])
    try:
        ds.close()
    except lodex.Error as e:
        outcome = outcome or ["close", type(e).__name__, str(e)]
    outcomes = comm.gather(outcome, root=0)
    if rank == 0:
        tu.emit({"outcomes": outcomes})


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2])
    elif sys.argv[1] == "create":
        create(sys.argv[2])
    else:
        fault(sys.argv[2], sys.argv[1])
