"""MPI worker: particles placed exactly on partition and patch boundaries.

usage: write_boundary.py PATH

Group "grid": partition grid GRID_DIMS on an odd domain, particles at every partition box
minimum corner (as lodex computes the boxes: lo + i * (hi - lo) / g) and at the mid-points;
patches omitted. Group "factor": each rank writes one patch (lodex.workloads.patch_of) of a
15x1x1 lattice (lattice index 9 + 3 * rank: not all lattice patches are present), particles at
the patch's minimum corner and inside, partition factor (3,1,1).
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path = sys.argv[1]
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("grid", schema=tu.BOUNDARY_SCHEMA, domain=tu.BOUNDARY_DOMAIN,
                            partition_grid=tu.BOUNDARY_GRID)
    g.write(step=0, data=tu.boundary_grid_data(rank, size))
    f = ds.define_particles("factor", schema=tu.BOUNDARY_SCHEMA, domain=tu.BOUNDARY_DOMAIN, partition=(3, 1, 1))
    data, patch = tu.boundary_factor_data(rank, size)
    f.write(step=0, data=data, patch=patch)
    ds.close()
    if rank == 0:
        tu.emit({"path": path})


if __name__ == "__main__":
    main()
