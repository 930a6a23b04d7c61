"""MPI worker: reopen an existing dataset with mode="a" and append steps.

usage: append_mpi.py PATH GROUP STEP [STEP ...]

Writes lodex_testutil.append_data(...) for each step with patch_of patches; also tries a group
redefinition with a different schema and a rewrite of an existing step (both must fail on every
rank). Rank 0 prints the per-rank outcomes.
"""

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu


def outcome(fn):
    try:
        fn()
        return "ok"
    except Exception as e:   # noqa: BLE001
        return type(e).__name__


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path, group = sys.argv[1], sys.argv[2]
    steps = [int(s) for s in sys.argv[3:]]
    out = {"rank": rank}
    ds = lodex.open(path, mode="a", comm=comm)
    g = ds.particles[group]
    out["steps_before"] = g.steps
    for step in steps:
        data, patch = tu.append_data(rank, size, step)
        g.write(step=step, data=data, patch=patch)
    other = dict(tu.APPEND_SCHEMA, energy="f8")
    out["redefine_other_schema"] = outcome(lambda: ds.define_particles(group, schema=other, domain=tu.UNIT))
    out["redefine_same"] = outcome(lambda: ds.define_particles(group, schema=tu.APPEND_SCHEMA, domain=tu.UNIT,
                                                          partition=(1, 1, 1)))
    first = out["steps_before"][0]
    out["rewrite_existing"] = outcome(lambda: g.write(step=first, data=tu.append_data(rank, size, first)[0],
                                                      patch=tu.append_data(rank, size, first)[1]))
    out["steps_after"] = g.steps
    ds.close()
    allout = comm.gather(out, root=0)
    if rank == 0:
        tu.emit({"ranks": allout})


if __name__ == "__main__":
    main()
