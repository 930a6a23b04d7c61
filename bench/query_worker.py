"""MPI worker of bench/query.py: writes the VPIC-like workload collectively and builds bitmap
indexes collectively; prints one JSON line (write and build statistics)."""

from __future__ import annotations

import argparse
import json
import time

from mpi4py import MPI

import lodex
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, vpic


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("action", choices=["write", "index"])
    ap.add_argument("path")
    ap.add_argument("--particles", type=int, default=0, help="per rank (write)")
    ap.add_argument("--fields", default="energy,position")
    ap.add_argument("--precision", type=int)
    ap.add_argument("--bins", type=int)
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    out = {"ranks": comm.size}
    if args.action == "write":
        data, patch = vpic(comm.rank, comm.size, args.particles, seed=7)
        ds = lodex.create(args.path, comm=comm)
        p = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition=(1, 1, 1))
        comm.Barrier()
        t = time.perf_counter()
        p.write(0, data=data, patch=patch)
        comm.Barrier()
        out["write_s"] = time.perf_counter() - t
        out["profile"] = dict(p.profile)
        ds.close()
    else:
        ds = lodex.open(args.path, mode="a", comm=comm)
        p = ds.particles["electrons"]
        comm.Barrier()
        t = time.perf_counter()
        st = p.build_index(fields=args.fields.split(","), precision=args.precision, bins=args.bins)
        comm.Barrier()
        out["build_s"] = time.perf_counter() - t
        out["stats"] = dict(st)
        ds.close()
    if comm.rank == 0:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
