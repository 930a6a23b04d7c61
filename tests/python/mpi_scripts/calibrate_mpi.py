"""MPI worker for test_calibrate.py.

usage:
  calibrate_mpi.py DIR SIZE_MIB

Collective ``lodex.calibrate`` of DIR (every rank must get the same calibration), the same
errors on every rank (a missing directory; bad arguments on the last rank only), then a series
defined with the calibration by every rank, and one the last rank passes a missing calibration
file to. Rank 0 prints one LODEX_RESULT line: each rank's outcome per case and the files left.
"""

import os
import sys

from mpi4py import MPI

import lodex
from lodex_testutil import emit


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    directory, mib = sys.argv[1], int(sys.argv[2])
    last = size - 1
    out = {}

    def case(label, fn):
        try:
            out[label] = fn()
        except lodex.Error as e:
            out[label] = {"error": [type(e).__name__, str(e)]}

    cal = lodex.calibrate(directory, comm, size=mib << 20, repeats=2)
    out["calibration"] = cal.to_dict()
    out["files_after"] = sorted(os.listdir(directory))
    case("missing_directory", lambda: lodex.calibrate(os.path.join(directory, "nope"), comm, size=mib << 20))
    case("bad_repeats_last_rank",
         lambda: lodex.calibrate(directory, comm, size=mib << 20, repeats=0 if rank == last else 1))

    path = os.path.join(directory, "s.lodex")
    ds = lodex.create(path, comm=comm)
    variables = {"T": ("f4", 3)}
    case("series", lambda: dict(ds.define_series("a", dims=(8, 8, 4), variables=variables,
                                                 calibration=cal).meta["settings"]))
    missing = os.path.join(directory, "missing.json")
    case("series_missing_file_last_rank",
         lambda: ds.define_series("b", dims=(8, 8, 4), variables=variables,
                                  calibration=missing if rank == last else cal).meta["settings"])
    names = list(ds.series)
    ds.close()
    out["series_names"] = names

    gathered = comm.gather(out, root=0)
    if rank == 0:
        emit({"ranks": size, "per_rank": gathered, "files_end": sorted(os.listdir(directory))})


if __name__ == "__main__":
    main()
