"""A program that ends without closing the dataset it writes (test_unclosed_exit.py).

usage: unclosed_exit_mpi.py PATH close|leave

Writes two steps of a particle group and of a grid with wait=False, and two steps of a series
(d_tar=4: buffered in its window); with "close" closes the dataset, with "leave" ends without
closing it (the steps in flight and the buffered ones are then not committed, and lodex names
them on standard error as the interpreter exits)."""

from __future__ import annotations

import sys

import numpy as np
from mpi4py import MPI

import lodex
from series_data import GEOS

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size


def main(path: str, how: str) -> None:
    ds = lodex.create(path, comm=comm)
    parts = ds.define_particles("p", schema={"position": ("f8", 3), "v": ("f4", 1)}, domain=((0, 0, 0), (1, 1, 1)))
    grid = ds.define_grid("g", dims=(16, 16, 4 * size), dtype="f4")
    series = ds.define_series("s", dims=GEOS.dims, variables=GEOS.variables(), d_tar=4, d_sar=0)
    rng = np.random.default_rng(rank)
    for step in range(2):
        parts.write(step, None, {"position": rng.random((5000, 3)), "v": rng.random(5000).astype("f4")}, wait=False)
        grid.write(step, ((0, 0, 4 * rank), (16, 16, 4 * (rank + 1))), np.full((4, 16, 16), step, "f4"), wait=False)
        box, data = GEOS.local(rank, size, step)
        series.write(step, box, data)
    if how == "close":
        ds.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
