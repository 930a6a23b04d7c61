"""MPI worker: a dataset whose files have many levels and bricks, for the on-disk format checks.

usage: write_lod.py PATH

Groups (Uintah schema, lodex_testutil.lod_groups()): "g1" partition grid (2,2,1) with small
bricks and a non-zero seed, two steps; "g2" a partition factor with level scale 3.
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path = sys.argv[1]
    ds = lodex.create(path, comm=comm)
    for name, spec in tu.lod_groups(size).items():
        kw = {"partition": spec["dims"]} if spec["mode"] == "factor" else {"partition_grid": spec["dims"]}
        g = ds.define_particles(name, schema=UINTAH_SCHEMA, domain=spec["domain"], lod=spec["lod"], **kw)
        for step in spec["steps"]:
            data, patch = tu.lod_rank_data(name, size, rank, step)
            g.write(step=step, data=data, patch=patch)
    ds.close()
    if rank == 0:
        tu.emit({"path": path})


if __name__ == "__main__":
    main()
