"""MPI worker: write every round-trip case (lodex_testutil.ROUNDTRIP_CASES) for the world size.

usage: write_roundtrip.py OUTDIR [CASE ...]

Each case goes to OUTDIR/<case>.lodex, group "uintah". Rank 0 prints one result line with, per
case, the profile of every step (and whether it was identical on every rank) and the steps each
rank's group reports after the writes. The pytest side regenerates the data and checks it.
"""

import os
import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    outdir = sys.argv[1]
    cases = sys.argv[2:] or tu.ROUNDTRIP_CASES
    result = {"size": size, "cases": {}}
    for case in cases:
        spec = tu.case_spec(case, size)
        path = os.path.join(outdir, f"{case}.lodex")
        ds = lodex.create(path, comm=comm)
        kw = {"partition": spec["dims"]} if spec["mode"] == "factor" else {"partition_grid": spec["dims"]}
        g = ds.define_particles("uintah", schema=UINTAH_SCHEMA, domain=spec["domain"], lod=spec.get("lod"), **kw)
        profiles = {}
        same = {}
        for step in spec["steps"]:
            data, patch = tu.case_rank_data(case, size, rank, step)
            g.write(step=step, data=data, patch=patch)
            prof = dict(g.profile)
            allp = comm.gather(prof, root=0)
            if rank == 0:
                profiles[str(step)] = prof
                same[str(step)] = all(p == prof for p in allp)
                profiles[str(step)]["_str"] = str(g.profile)
                profiles[str(step)]["_json"] = g.profile.to_json()
        steps_per_rank = comm.gather(list(g.steps), root=0)
        ds.close()
        if rank == 0:
            result["cases"][case] = {"path": path, "profiles": profiles, "profile_same": same,
                                     "steps_per_rank": steps_per_rank}
    comm.Barrier()
    if rank == 0:
        tu.emit(result)


if __name__ == "__main__":
    main()
