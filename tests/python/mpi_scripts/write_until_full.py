"""MPI worker: on a nearly full file system, write a small step (fits) and then a large one
(does not), and report what every rank saw.

usage: write_until_full.py PATH SMALL_PER_RANK LARGE_PER_RANK
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path, small, large = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    grid = (size, 1, 1)
    patch = patch_of(rank, grid)
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=tu.UNIT, partition=(1, 1, 1))
    g.write(step=0, data=uintah(rank, small, patch, step=0), patch=patch)
    out = {"rank": rank}
    try:
        g.write(step=1, data=uintah(rank, large, patch, step=1), patch=patch)
        out["error"] = None
    except lodex.Error as e:
        out["error"] = type(e).__name__
        out["message"] = str(e)
    out["steps"] = g.steps
    ds.close()
    outs = comm.gather(out)
    if rank == 0:
        tu.emit({"outs": outs})


if __name__ == "__main__":
    main()
