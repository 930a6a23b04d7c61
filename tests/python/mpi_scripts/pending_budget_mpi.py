"""Memory of particle writes and the budget of asynchronous steps in flight (test_pending_budget.py).

usage: pending_budget_mpi.py memory OUTDIR MODE   six steps of 65,536 Uintah particles per rank
                                                  (MODE sync, async or nocopy); per rank the largest
                                                  growth after a write of anonymous memory and of
                                                  the proportional set size (the node's shared
                                                  window divided among its ranks), per step byte
       pending_budget_mpi.py budget OUTDIR        groups whose steps differ in size from rank to
                                                  rank, written with wait=False under budgets: what
                                                  is pending and committed after each call
       pending_budget_mpi.py fault PATH           (under LODEX_FAULT) groups a and b of a new
                                                  dataset PATH, a budget of 1.5 steps: a's step 0
                                                  with wait=False, then b's step 0, which completes
                                                  a's first; where each rank's error was raised

       pending_budget_mpi.py differ PATH          rank 0 creates PATH without a budget, the others
                                                  with one: where each rank's error was raised
       pending_budget_mpi.py inflight_fault PATH  (under LODEX_FAULT) steps 0-2 in flight at once, then
                                                  close: where each rank's error was raised, the
                                                  steps committed, then close again and step 5
       pending_budget_mpi.py inflight OUTDIR      one group, a budget of 3.5 steps: steps 0-2 in
                                                  flight at once, step 1's wait, steps 3-5, then a
                                                  budget far above: at most kMaxStepsInFlight; the
                                                  same steps written blocking into sync.lodex

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
UNIT = ((0, 0, 0), (1, 1, 1))


def status_kib() -> dict:
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                out["anon"] = int(line.split()[1])
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                out["pss"] = int(line.split()[1])
    return out


def particles(step: int, n: int) -> dict:
    grid = rank_grid(size)
    return {k: np.ascontiguousarray(v) for k, v in uintah(rank + 100 * step, n, patch_of(rank, grid), seed=3).items()}


def memory(outdir: str, mode: str) -> None:
    grid = rank_grid(size)
    data = particles(0, 65536)
    step_bytes = sum(v.nbytes for v in data.values())
    ds = lodex.create(os.path.join(outdir, f"mem-{mode}.lodex"), comm=comm)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    base = status_kib()
    worst = {"anon": 0.0, "pss": 0.0}
    paths = set()
    for step in range(6):
        if mode == "sync":
            g.write(step, data, patch_of(rank, grid))
            paths.add(g.profile["path"])
        else:
            g.write(step, data, patch_of(rank, grid), wait=False, copy=mode == "async")
        now = status_kib()
        for k in worst:
            worst[k] = max(worst[k], (now[k] - base[k]) * 1024 / step_bytes)
    ds.close()
    rows = comm.gather(worst)
    paths = comm.gather(sorted(paths))
    if rank == 0:
        tu.emit({"per_rank": rows, "paths": paths[0]})


def budget(outdir: str) -> None:
    grid = rank_grid(size)
    n = 2000 + 1000 * rank                       # the last rank's steps are the largest
    sizes = comm.allgather(sum(v.nbytes for v in particles(0, n).values()))
    big = max(sizes)
    out = {"sizes": sizes}

    def group(ds, name):
        return ds.define_particles(name, schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)

    # No budget: one step per group, every group's in flight at once.
    ds = lodex.create(os.path.join(outdir, "none.lodex"), comm=comm)
    a, b = group(ds, "a"), group(ds, "b")
    a.write(0, particles(0, n), patch_of(rank, grid), wait=False)
    b.write(0, particles(1, n), patch_of(rank, grid), wait=False)
    out["none"] = {"pending_bytes": comm.allgather(ds.pending_bytes), "a_steps": a.steps, "b_steps": b.steps}
    ds.close()

    # Two steps of the largest rank fit, three do not: the third write completes the oldest first.
    ds = lodex.create(os.path.join(outdir, "two.lodex"), comm=comm, max_pending_bytes=2 * big + big // 2)
    a, b, c = group(ds, "a"), group(ds, "b"), group(ds, "c")
    rows = []
    for g, s in ((a, 0), (b, 0), (c, 0), (a, 1)):
        g.write(s, particles(s, n), patch_of(rank, grid), wait=False)
        rows.append({"pending_bytes": comm.allgather(ds.pending_bytes),
                     "steps": {x: h.steps for x, h in zip("abc", (a, b, c))}})
    out["two"] = rows
    ds.close()

    # A budget only the last rank's step exceeds: every rank writes that step within the call.
    ds = lodex.create(os.path.join(outdir, "small.lodex"), comm=comm, max_pending_bytes=big - 1)
    a = group(ds, "a")
    p = a.write(0, particles(0, n), patch_of(rank, grid), wait=False)
    prof = p.wait()
    out["small"] = {"done": comm.allgather(p.done()), "steps": a.steps, "pending_bytes": ds.pending_bytes,
                    "blocked_is_total": prof["blocked_s"] == prof["total_s"]}
    ds.close()
    if rank == 0:
        tu.emit(out)


def budgeted(path: str, steps: float, names: tuple[str, ...]):
    """A new dataset at PATH whose budget holds `steps` steps of 3,000 particles of the largest
    rank, its groups `names`, and one step's particles: (ds, groups, particles)."""
    grid = rank_grid(size)
    d = particles(0, 3000)
    step = max(comm.allgather(sum(v.nbytes for v in d.values())))
    ds = lodex.create(path, comm=comm, max_pending_bytes=int(steps * step))
    groups = [ds.define_particles(x, schema=UINTAH_SCHEMA, domain=UNIT, partition=grid) for x in names]
    return ds, groups, d


def fault(path: str) -> None:
    grid = rank_grid(size)
    ds, (a, b), d = budgeted(path, 1.5, ("a", "b"))
    outcome = None
    a.write(0, d, patch_of(rank, grid), wait=False)   # fails on its helper thread: raised later
    try:
        b.write(0, d, patch_of(rank, grid), wait=False)
        outcome = ["returned"]
    except lodex.Error as e:
        outcome = [type(e).__name__, str(e)]
    pending = ds.pending_bytes
    ds.close()
    outcomes = comm.gather(outcome)
    if rank == 0:
        tu.emit({"outcomes": outcomes, "pending_after": pending})


def differ(path: str) -> None:
    grid = rank_grid(size)
    outcome = None
    try:
        ds = lodex.create(path, comm=comm, max_pending_bytes=None if rank == 0 else 1 << 30)
        g = ds.define_particles("a", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
        g.write(0, particles(0, 100), patch_of(rank, grid), wait=False)
        ds.close()
    except lodex.Error as e:
        outcome = [type(e).__name__, str(e)]
    outcomes = comm.gather(outcome)
    if rank == 0:
        tu.emit({"outcomes": outcomes})


def inflight(outdir: str) -> None:
    grid = rank_grid(size)
    n = 3000 + 500 * rank
    step = max(comm.allgather(sum(v.nbytes for v in particles(0, n).values())))
    out = {"rows": []}
    ds = lodex.create(os.path.join(outdir, "async.lodex"), comm=comm, max_pending_bytes=3 * step + step // 2)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    pending = {}

    def row(what):
        out["rows"].append({"after": what, "steps": g.steps, "pending_bytes": max(comm.allgather(ds.pending_bytes)),
                            "pending_step": g._core.pending_step})

    for s in range(3):
        pending[s] = g.write(s, patch_of(rank, grid), particles(s, n), wait=False)
        row(f"write {s}")
    while not all(comm.allgather(pending[0].done() and pending[1].done())):   # local, each step its own
        pass
    out["done_0_1"] = comm.allgather(pending[0].done() and pending[1].done())
    out["committed_before_wait"] = g.steps   # written is not committed
    pending[1].wait()                                    # commits 0 and 1, not 2
    row("wait 1")
    for s in range(3, 6):
        pending[s] = g.write(s, patch_of(rank, grid), particles(s, n), wait=False)
        row(f"write {s}")
    ds.close()
    ds = lodex.create(os.path.join(outdir, "many.lodex"), comm=comm, max_pending_bytes=1 << 40)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    most = 0
    for s in range(7):
        g.write(s, patch_of(rank, grid), particles(s, n), wait=False)
        most = max(most, max(comm.allgather(ds.pending_bytes)))
    out["most_in_flight"] = most // step if most % step == 0 else most / step
    out["many_steps_before_close"] = g.steps
    ds.close()
    ds = lodex.create(os.path.join(outdir, "sync.lodex"), comm=comm)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    for s in range(6):
        g.write(s, patch_of(rank, grid), particles(s, n))
    ds.close()
    if rank == 0:
        tu.emit(out)


def inflight_fault(path: str) -> None:
    grid = rank_grid(size)
    ds, (g,), _ = budgeted(path, 3.5, ("u",))
    for s in range(3):
        g.write(s, patch_of(rank, grid), particles(s, 3000), wait=False)
    out = {}
    try:
        ds.close()
        outcome = ["closed"]
    except lodex.Error as e:
        outcome = [type(e).__name__, str(e)]
    out["outcomes"] = comm.gather(outcome)
    out["steps_after_error"] = g.steps
    ds.close()   # nothing left pending: it closes
    ds = lodex.open(path, mode="a", comm=comm)
    g = ds.particles["u"]
    out["steps_reopened"] = g.steps
    g.write(5, patch_of(rank, grid), particles(5, 3000))
    out["steps_appended"] = g.steps
    ds.close()
    if rank == 0:
        tu.emit(out)


if __name__ == "__main__":
    if sys.argv[1] == "inflight_fault":
        inflight_fault(sys.argv[2])
    elif sys.argv[1] == "inflight":
        inflight(sys.argv[2])
    elif sys.argv[1] == "memory":
        memory(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "fault":
        fault(sys.argv[2])
    elif sys.argv[1] == "differ":
        differ(sys.argv[2])
    else:
        budget(sys.argv[2])
