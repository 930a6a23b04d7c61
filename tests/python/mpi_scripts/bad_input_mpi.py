"""MPI worker: one bad-input case (bad_input_cases.py) with the bad input on one rank only.

usage: bad_input_mpi.py CASE WORKDIR

Rank 0 prints the per-rank outcomes (exception class and message, steps after the failure,
the good retry of step 1).
"""

import sys

from mpi4py import MPI

import bad_input_cases as bic
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    case, workdir = sys.argv[1], sys.argv[2]
    out = bic.run_case(case, workdir, comm)
    allout = comm.gather(out, root=0)
    if comm.rank == 0:
        tu.emit({"ranks": allout})


if __name__ == "__main__":
    main()
