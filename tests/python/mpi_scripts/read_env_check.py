"""MPI worker: opens DATASET on MPI_COMM_WORLD and reports every rank's error class and whether
the message names LODEX_JOIN_TIMEOUT, for test_mismatched_args.py (run with a malformed value).

usage: read_env_check.py DATASET
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    try:
        lodex.open(sys.argv[1], comm=comm).close()
        out = ["ok", False]
    except Exception as e:   # noqa: BLE001 - reported to the test
        out = [type(e).__name__, "LODEX_JOIN_TIMEOUT" in str(e)]
    errors = comm.gather(out, root=0)
    if comm.rank == 0:
        tu.emit({"errors": errors})


if __name__ == "__main__":
    main()
