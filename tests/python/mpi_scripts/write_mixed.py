"""MPI worker: write the mixed-dtype schema (lodex_testutil.MIXED_SCHEMA), one step, grid mode.

usage: write_mixed.py PATH
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import patch_of, rank_grid


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path = sys.argv[1]
    counts = [[1500, 1, 777][r % 3] + r for r in range(size)]
    patches = [patch_of(r, rank_grid(size)) for r in range(size)]
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("mixed", schema=tu.MIXED_SCHEMA, domain=((0, 0, 0), (1, 1, 1)),
                            partition_grid=(2, 2, 1))
    g.write(step=0, data=tu.mixed(rank, counts[rank], patches[rank]), patch=patches[rank])
    ds.close()
    if rank == 0:
        tu.emit({"path": path, "counts": counts, "patches": patches})


if __name__ == "__main__":
    main()
