"""A truncate to be killed (test_truncate.py): `truncate_kill.py PATH AFTER` opens PATH to append
(collectively under mpiexec) and truncates every group after AFTER, printing "done" (rank 0) if
it lives. The kill comes from the fault hook armed by LODEX_FAULT=<op>:<n>:kill[:<rank>]: that
rank dies with SIGKILL just before its n-th file operation of that kind."""

from __future__ import annotations

import os
import sys


def main() -> None:
    path, after = sys.argv[1], int(sys.argv[2])
    comm = None
    if "PMI_RANK" in os.environ:
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
    import lodex
    ds = lodex.open(path, "a", comm=comm)
    removed = ds.truncate(after)
    ds.close()
    if comm is None or comm.rank == 0:
        print("done", sum(len(s) for s in removed.values()), flush=True)


if __name__ == "__main__":
    main()
