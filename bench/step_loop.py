"""The time of one kind of step in a loop, for comparing two builds of lodex (run it alternately
with each build's package first on PYTHONPATH). Used for the before/after figures in
docs/writes.md (the writers placing the order together, copy=False leaving the copies to the
helper, zipped grids on the helper, steps in flight under a budget).

    .venv/bin/mpiexec -n 2 .venv/bin/python bench/step_loop.py --mode sync --particles 262144
    .venv/bin/mpiexec -n 8 .venv/bin/python bench/step_loop.py --mode sync --particles 32768 --steps 12
    .venv/bin/mpiexec -n 2 .venv/bin/python bench/step_loop.py --mode nocopy --kernel-iters 100
    .venv/bin/mpiexec -n 2 .venv/bin/python bench/step_loop.py --mode nocopy --kernel-iters 36 --budget-steps 3
    .venv/bin/mpiexec -n 2 .venv/bin/python bench/step_loop.py --kind zipgrid --kernel-iters 5000 --steps 6

Particles: Uintah rows, one partition of all the ranks (2: (1,1,2), 8: (2,2,2)), each rank its
patch; `--mode sync` times each blocking write between barriers (the slowest rank), `async` and
`nocopy` write with wait=False (copy=True or False) after a compute kernel of `--kernel-iters`
numpy updates (one core a rank) and report the call's time (the slowest rank) and the profile's
blocked_s of each completed step. `--kind zipgrid`: a 128 x 128 x 64 f4 slab a rank of a zipped
grid, written with wait=False after the kernel: the call's time, and whether the step before was
written by then on every rank. Steps after the first two count; rank 0 prints one JSON line of
medians (ms) with the loop's time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time

import numpy as np
from mpi4py import MPI

import lodex
from bench_common import DECOMPOSITION
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size


def kernel(state: np.ndarray, iters: int) -> None:
    for _ in range(iters):
        np.multiply(state, 0.999, out=state)
        np.add(state, 0.001, out=state)
        np.sqrt(state, out=state)


def slowest(t0: float) -> float:
    return comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)


def particles(args, path: str) -> dict:
    grid = DECOMPOSITION[size]
    patch = patch_of(rank, grid)
    data = {k: np.ascontiguousarray(v) for k, v in uintah(rank, args.particles, patch, seed=1).items()}
    step_bytes = max(comm.allgather(sum(v.nbytes for v in data.values())))
    budget = int(args.budget_steps * step_bytes) if args.budget_steps else None
    ds = lodex.create(path, comm=comm, max_pending_bytes=budget)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=grid)
    state = np.random.default_rng(rank).random(1 << 18) + 1.0
    calls, blocked, phases, seen = [], [], {}, set()
    for step in range(args.steps):
        if args.mode == "sync":
            comm.Barrier()
            t0 = time.perf_counter()
            g.write(step, patch, data)
            calls.append(slowest(t0))
            prof = g.profile
        else:
            kernel(state, args.kernel_iters)
            t0 = time.perf_counter()
            g.write(step, patch, data, wait=False, copy=args.mode == "async")
            calls.append(slowest(t0))
            prof = g.profile   # the last step a call completed (none, or an earlier one, under a budget)
        if "blocked_s" in prof and prof["step"] >= 2 and prof["step"] not in seen:
            seen.add(prof["step"])
            blocked.append(prof["blocked_s"])
            for k, v in prof["phases"].items():
                phases.setdefault(k, []).append(v["max_s"])
    ds.close()
    return {"call_ms": calls, "blocked_ms": blocked,
            "phases_ms": {k: statistics.median(v) * 1e3 for k, v in phases.items()}}


def zipgrid(args, path: str) -> dict:
    x, y, z = 128, 128, 64
    box = ((0, 0, z * rank), (x, y, z * (rank + 1)))
    rng = np.random.default_rng(rank)
    data = (np.sin(np.linspace(0, 20, x * y * z)).reshape(z, y, x) + 0.01 * rng.random((z, y, x))).astype("f4")
    ds = lodex.create(path, comm=comm)
    g = ds.define_grid("g", dims=(x, y, z * size), dtype="f4", compression="zip")
    state = rng.random(1 << 18) + 1.0
    calls, written, paths, pending = [], [], set(), None
    for step in range(args.steps):
        kernel(state, args.kernel_iters)
        written.append(comm.allreduce(1 if pending is None or pending.done() else 0, op=MPI.MIN) == 1)
        t0 = time.perf_counter()
        pending = g.write(step, box, data, wait=False)
        calls.append(slowest(t0))
        if step > 0:
            paths.add(g.profile["async_path"])
    pending.wait()
    ds.close()
    return {"call_ms": calls, "step_before_written": written[2:], "async_path": sorted(paths)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", choices=("particles", "zipgrid"), default="particles")
    ap.add_argument("--mode", choices=("sync", "async", "nocopy"), default="sync")
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--kernel-iters", type=int, default=100)
    ap.add_argument("--budget-steps", type=float, default=0, help="max_pending_bytes in steps (0: none)")
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    folder = comm.bcast(tempfile.mkdtemp(dir=args.dir) if rank == 0 else None)
    path = os.path.join(folder, "loop.lodex")
    comm.Barrier()
    t0 = time.perf_counter()
    res = particles(args, path) if args.kind == "particles" else zipgrid(args, path)
    loop_s = slowest(t0)
    if rank == 0:
        shutil.rmtree(folder, ignore_errors=True)
        calls = res.pop("call_ms")[2:]
        blocked = res.pop("blocked_ms", [])
        out = {"kind": args.kind, "mode": args.mode, "ranks": size, "loop_s": loop_s,
               "call_ms": statistics.median(calls) * 1e3}
        if blocked:
            out["blocked_ms"] = statistics.median(blocked) * 1e3
        out.update(res)
        print(json.dumps(out))


if __name__ == "__main__":
    main()
