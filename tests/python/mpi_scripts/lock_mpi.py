"""MPI worker: open a dataset for append on every rank (rank 0 takes the writer lock), write a
step, and report what every rank saw: its error class and message, or the step it wrote.

usage: lock_mpi.py PATH STEP
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    path, step = sys.argv[1], int(sys.argv[2])
    out = {"rank": comm.rank, "error": None}
    try:
        with lodex.open(path, mode="a", comm=comm) as ds:
            data, patch = tu.append_data(comm.rank, comm.size, step)
            ds.particles["p"].write(step=step, data=data, patch=patch)
            out["steps"] = ds.particles["p"].steps
    except lodex.Error as e:
        out["error"] = type(e).__name__
        out["message"] = str(e)
    outs = comm.gather(out)
    if comm.rank == 0:
        tu.emit({"outs": outs})


if __name__ == "__main__":
    main()
