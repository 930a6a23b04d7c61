"""MPI worker: collective reads that may fail (damaged files, bad arguments), for
test_read_errors.py.

usage: read_collective.py CASES.json

CASES.json holds a list of cases {"path", "step", "kw", "rank_kw"}: every rank calls
lodex.open(path).particles["p"].read(step, comm=COMM_WORLD, **kw, **rank_kw.get(str(rank), {}))
(lists stand for tuples in a box). Each rank records, per case, either ["ok", count, sorted ids]
or ["error", class name, message]; rank 0 prints them all.
"""

import json
import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    with open(sys.argv[1]) as fh:
        cases = json.load(fh)
    results = []
    for case in cases:
        kw = dict(case.get("kw", {}))
        kw.update(case.get("rank_kw", {}).get(str(comm.rank), {}))
        try:
            g = lodex.open(case["path"]).particles["p"]
            got = g.read(case["step"], comm=comm, **kw)
            out = ["ok", len(got["id"]), sorted(int(v) for v in got["id"])]
        except Exception as e:   # noqa: BLE001 - reported to the test
            out = ["error", type(e).__name__, str(e)]
        results.append(comm.gather(out, root=0))
    if comm.rank == 0:
        tu.emit({"size": comm.size, "cases": results})


if __name__ == "__main__":
    main()
