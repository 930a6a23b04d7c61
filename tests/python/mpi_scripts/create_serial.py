"""Every rank calls lodex.create(PATH) without comm= (a common first mistake under mpiexec);
rank 0 prints each rank's outcome (None or the error message) for test_bad_input.py."""

from __future__ import annotations

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu

comm = MPI.COMM_WORLD
if comm.rank > 0:
    comm.Barrier()   # rank 0 creates first, so the others find it
outcome = None
try:
    lodex.create(sys.argv[1]).close()
except lodex.AlreadyExistsError as e:
    outcome = str(e)
if comm.rank == 0:
    comm.Barrier()
outcomes = comm.gather(outcome, root=0)
if comm.rank == 0:
    tu.emit({"outcomes": outcomes})
