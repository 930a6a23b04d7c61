"""A read across many small windows: what a series read spends per window beyond its data.

8 ranks (4 x 2 boxes of a 32 x 16 x 4 grid) write 265 variables (80 3-D, 185 2-D, f4; GEOS-5's
counts) for 200 steps with d_tar = 1 and d_sar = 0 (200 window files of 8 chunks per variable);
then one process reads one sample of variable v100 across every step, warm, each time with a
fresh lodex.open, and prints the best of --repeats.

    .venv/bin/python bench/series_windows.py [--repeats 5] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import MPIEXEC  # noqa: E402

import lodex  # noqa: E402

DIMS, STEPS, RANKS = (32, 16, 4), 200, 8
VARIABLES = {f"v{i}": ("f4", 3 if i < 80 else 2) for i in range(265)}


def write(path: str) -> None:
    """Under mpiexec -n 8: every rank's 8 x 8 x 4 box of every variable, every step."""
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    ds = lodex.create(path, comm=comm)
    s = ds.define_series("g", dims=DIMS, variables=VARIABLES, d_tar=1, d_sar=0)
    i, j = comm.rank % 4, comm.rank // 4
    lo, hi = (8 * i, 8 * j, 0), (8 * i + 8, 8 * j + 8, DIMS[2])
    for t in range(STEPS):
        s.write(t, (lo, hi), {n: np.full((4, 8, 8) if nd == 3 else (8, 8), t, np.float32)
                              for n, (_, nd) in VARIABLES.items()})
    ds.close()


def read(path: str, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats + 1):   # the first run warms the page cache
        t = time.perf_counter()
        s = lodex.open(path).series["g"]
        a = s.read(variable="v100", steps=range(STEPS), box=((3, 3, 0), (4, 4, 1)))
        best = min(best, time.perf_counter() - t)
    if not np.array_equal(a.ravel(), np.arange(STEPS, dtype=np.float32)):
        raise SystemExit("wrong data")
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--write", help=argparse.SUPPRESS)   # the MPI job's own entry
    args = ap.parse_args()
    if args.write:
        write(args.write)
        return
    work = args.dir or tempfile.mkdtemp(prefix="lodex-series-windows-")
    path = os.path.join(work, "w.lodex")
    shutil.rmtree(path, ignore_errors=True)
    try:
        subprocess.run([MPIEXEC, "-n", str(RANKS), sys.executable, __file__, "--write", path], check=True, timeout=600)
        print(f"{STEPS} windows x {len(VARIABLES)} variables x {RANKS} chunks: a point across every step, "
              f"warm, best of {args.repeats}: {read(path, args.repeats) * 1e3:.1f} ms")
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
