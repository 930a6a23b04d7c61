"""MPI worker: rank 0 opens a dataset with MPI_COMM_WORLD, every other rank with MPI_COMM_SELF
(a mistake MPI cannot see), for test_mismatched_args.py. Run with a short LODEX_JOIN_TIMEOUT:
rank 0 must get MPIError naming the wait instead of waiting forever; the others, alone in their
communicator, open the dataset.

usage: mismatched_comm.py DATASET OUTDIR

Each rank writes OUTDIR/rank-R.json (["ok"] or ["error", class, message, seconds]) and leaves
(once rank 0's file is there) without MPI_Finalize: rank 0's duplicate of MPI_COMM_WORLD can never complete, and a later
collective on MPI_COMM_WORLD would match it.
"""

import json
import os
import sys
import time

from mpi4py import MPI

import lodex


def main() -> None:
    path, outdir = sys.argv[1], sys.argv[2]
    rank = MPI.COMM_WORLD.rank
    comm = MPI.COMM_WORLD if rank == 0 else MPI.COMM_SELF
    t0 = time.monotonic()
    try:
        lodex.open(path, comm=comm).close()
        out = ["ok"]
    except Exception as e:   # noqa: BLE001 - reported to the test
        out = ["error", type(e).__name__, str(e), time.monotonic() - t0]
    with open(os.path.join(outdir, f"rank-{rank}.json.tmp"), "w") as f:
        json.dump(out, f)
    os.rename(os.path.join(outdir, f"rank-{rank}.json.tmp"), os.path.join(outdir, f"rank-{rank}.json"))
    # The first rank to leave ends the job: every rank waits for rank 0's answer (a file, since
    # no collective on MPI_COMM_WORLD can be trusted any more).
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(outdir, "rank-0.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
