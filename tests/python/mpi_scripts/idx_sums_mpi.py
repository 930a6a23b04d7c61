"""Writes small grids of a dataset with every rank holding a z-slab (raw and zip, the global
index space and local partitions, two steps) for test_idx_checksums.py; rank 0 prints the
dataset's path."""

from __future__ import annotations

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu
import idx_sums_cases as cases

comm = MPI.COMM_WORLD
path = sys.argv[1]
ds = lodex.create(path, comm=comm)
cases.write_all(ds, comm.rank, comm.size)
ds.close()
if comm.rank == 0:
    tu.emit({"path": path})
