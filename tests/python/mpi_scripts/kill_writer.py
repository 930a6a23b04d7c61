"""A writer to be killed (test_writer_kill.py): `kill_writer.py PATH STEPS` creates PATH (or appends
to it) and writes steps of a particle group, a grid and a series (d_tar=2) until STEPS steps of
each exist, printing "ready" once set up and "C <kind> <step>" after each write returns (rank 0,
flushed): a committed step must survive any kill after that line. Odd steps are asynchronous
(write(..., wait=False)) and said committed after their wait(): the particles' pending while that
step's grid is written, the grid's while the particles' wait and the series step run, and the
series' (odd steps complete a window) while the grid's wait runs."""

from __future__ import annotations

import os
import sys

import numpy as np

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
GRID = (10, 8, 6)
SERIES = (6, 5, 4)


def particles(step: int, rank: int, size: int) -> dict:
    rng = np.random.default_rng([17, step, rank])
    n = 1500 + 37 * step
    pos = rng.random((n, 3))
    pos[:, 2] = (rank + pos[:, 2]) / size
    return {"position": pos, "energy": rng.random(n).astype(np.float32),
            "id": np.arange(n, dtype=np.int64) + 10**6 * rank + 10**9 * step}


def grid(step: int) -> np.ndarray:
    return np.sin(np.arange(np.prod(GRID), dtype=np.float32).reshape(GRID[::-1]) + step)


def series(step: int) -> np.ndarray:
    return np.arange(np.prod(SERIES), dtype=np.float32).reshape(SERIES[::-1]) + 0.5 * step


def z_range(n: int, rank: int, size: int) -> tuple[int, int]:
    return n * rank // size, n * (rank + 1) // size


def main() -> None:
    path, steps = sys.argv[1], int(sys.argv[2])
    comm = None
    rank, size = 0, 1
    if "PMI_RANK" in os.environ:
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
        rank, size = comm.rank, comm.size
    import lodex
    ds = lodex.open(path, "a", comm=comm) if os.path.exists(path) else lodex.create(path, comm=comm)
    p = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(1, 1, 2))
    g = ds.define_grid("g", dims=GRID, dtype="f4", bits_per_block=5, blocks_per_file=2)
    s = ds.define_series("s", dims=SERIES, variables={"T": ("f4", 3)}, d_tar=2, d_sar=0)
    say = (lambda line: (sys.stdout.write(line + "\n"), sys.stdout.flush())) if rank == 0 else (lambda line: None)
    say("ready")
    z0, z1 = z_range(GRID[2], rank, size)
    s0, s1 = z_range(SERIES[2], rank, size)
    for step in range(steps):
        pending = None
        if step not in p.steps:
            kw = dict(step=step, data=particles(step, rank, size),
                      patch=((0, 0, rank / size), (1, 1, (rank + 1) / size)))
            if step % 2:   # asynchronous: pending while the grid step runs, so kills land there too
                pending = p.write(**kw, wait=False)
            else:
                p.write(**kw)
                say(f"C p {step}")
        grid_pending = series_pending = None
        if step not in g.steps:
            args = (step, ((0, 0, z0), (GRID[0], GRID[1], z1)), grid(step)[z0:z1])
            if step % 2:
                grid_pending = g.write(*args, wait=False)
            else:
                g.write(*args)
                say(f"C g {step}")
        if pending is not None:
            pending.wait()
            say(f"C p {step}")
        flushed = set(s.steps) | set(s.buffered_steps)
        wrote_series = step not in flushed
        if wrote_series:
            args = (step, ((0, 0, s0), (SERIES[0], SERIES[1], s1)), {"T": series(step)[s0:s1]})
            series_pending = s.write(*args, wait=bool(step % 2 == 0))
        if grid_pending is not None:
            grid_pending.wait()
            say(f"C g {step}")
        if series_pending is not None:
            series_pending.wait()
        if wrote_series:
            for t in s.steps:
                say(f"C s {t}")
    ds.close()   # flushes the series' last window
    say("done")


if __name__ == "__main__":
    main()
