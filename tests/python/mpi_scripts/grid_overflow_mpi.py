"""MPI worker for test_grid_write.py: one rank passes an empty box whose coordinates do not fit
int64 (the others a good tiling of the grid); every rank must raise InvalidArgumentError.

usage: grid_overflow_mpi.py PATH
Rank 0 prints {"ranks": [[exception class, message] or null per rank]}.
"""

import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    ds = lodex.create(sys.argv[1], comm=comm)
    g = ds.define_grid("g", dims=(4, 4, 4), dtype="f4")
    out = None
    try:
        if comm.rank == 1:
            g.write(0, box=((2**64, 0, 0), (2**64, 4, 4)), data=np.zeros((4, 4, 0), np.float32))
        else:
            g.write(0, box=((0, 0, 0), (4, 4, 4)), data=np.ones((4, 4, 4), np.float32))
    except Exception as e:   # noqa: BLE001 - reported
        out = [type(e).__name__, str(e)]
    allout = comm.gather(out, root=0)
    if comm.rank == 0:
        tu.emit({"ranks": allout})


if __name__ == "__main__":
    main()
