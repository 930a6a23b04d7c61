"""MPI worker for test_sample_difference.py: every rank answers the same sample differences on
its own (the call is local, no communicator) and rank 0 prints every rank's answers, so the test
checks each against the serial oracle.

usage: sample_difference_mpi.py PATH CASES_JSON
CASES_JSON: a list of [box, take, held] (held: a list of [box, take] or [box, take, clip]).
"""

from __future__ import annotations

import json
import sys

from mpi4py import MPI

import lodex
from lodex_testutil import emit


def main() -> None:
    path, cases = sys.argv[1], json.loads(sys.argv[2])
    comm = MPI.COMM_WORLD
    ds = lodex.open(path, comm=comm)
    g = ds.particles["p"]
    mine = []
    for box, take, held in cases:
        r = g.sample_difference(0, box, take, [tuple(h) for h in held], fields=["id"], count_sample=True)
        mine.append({"ids": r.data["id"].tolist(), "rows": {f: v.tolist() for f, v in r.rows.items()},
                     "sample": r.sample})
    every = comm.gather(mine, root=0)
    ds.close()
    if comm.rank == 0:
        emit(every)


if __name__ == "__main__":
    main()
