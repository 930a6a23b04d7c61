"""MPI worker of bench/grid.py: parallel IDX writes against raw file per process of the same
bytes, interleaved over repetitions; prints one JSON line on rank 0.

    mpiexec -n R python bench/grid_write_worker.py --dir D --workload s3d|big --repeats K [--fsync]

Schemes (Kumar et al. 2017 Figure 15): uniform and localized aggregation; localized with blocks per file
tuned to give each rank a file; localized with R partitions (every rank its own partition) in
the global index space (one IDX dataset, shared coarse files merged) and in the local index
space (one IDX dataset per partition). --fsync: every method makes its files durable (lodex
fsync=True; raw: os.fsync) before its time stops.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import time

import numpy as np
from mpi4py import MPI

import lodex

LATTICE = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2)}


def rank_box(rank: int, lattice, dims):
    """Row-major rank lattice (x fastest): this rank's box of the grid."""
    px, py, pz = lattice
    c = (rank % px, rank // px % py, rank // (px * py))
    lo = [dims[a] * c[a] // lattice[a] for a in range(3)]
    hi = [dims[a] * (c[a] + 1) // lattice[a] for a in range(3)]
    return lo, hi


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--workload", choices=("s3d", "big"), required=True)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--schemes", default="localized,uniform,localized-tuned,partitioned,partitioned-local")
    ap.add_argument("--fsync", action="store_true")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    R, me = comm.size, comm.rank
    lat = LATTICE[R]
    if args.workload == "s3d":   # Kumar et al. 2017 §V-B: a 32^3 block of 16 f8 fields per rank
        dims = tuple(32 * lat[a] for a in range(3))
        fields = {f"f{i:02d}": "f8" for i in range(16)}
    else:                        # one 256^3 f4 field over all ranks
        dims = (256, 256, 256)
        fields = {"v": "f4"}
    lo, hi = rank_box(me, lat, dims)
    shape = (hi[2] - lo[2], hi[1] - lo[1], hi[0] - lo[0])
    rng = np.random.default_rng(me)
    data = {n: rng.random(shape).astype(d) for n, d in fields.items()}
    local_bytes = sum(a.nbytes for a in data.values())
    total_samples = dims[0] * dims[1] * dims[2]
    blocks = max(1, total_samples >> 15)
    schemes = {}
    for s in args.schemes.split(","):
        if s == "localized":
            schemes[s] = dict(aggregation="localized")
        elif s == "uniform":
            schemes[s] = dict(aggregation="uniform")
        elif s == "localized-tuned":   # at least one file per rank (the paper tunes files to ranks)
            schemes[s] = dict(aggregation="localized", blocks_per_file=max(1, blocks // R))
        elif s == "partitioned" and R > 1:
            schemes[s] = dict(aggregation="localized", partitions=R)
        elif s == "partitioned-local" and R > 1:
            schemes[s] = dict(aggregation="localized", partitions=R, index_space="local")
    tag = "-fsync" if args.fsync else ""
    paths = {s: os.path.join(args.dir, f"{args.workload}-{R}-{s}{tag}.lodex") for s in schemes}
    raw_dir = os.path.join(args.dir, f"raw-{args.workload}-{R}{tag}")
    if me == 0:
        for p in list(paths.values()) + [raw_dir]:
            shutil.rmtree(p, ignore_errors=True)
        os.makedirs(raw_dir)
    comm.Barrier()
    grids = {}
    for s, kw in schemes.items():
        ds = lodex.create(paths[s], comm=comm, fsync=args.fsync)
        grids[s] = (ds, ds.define_grid("g", dims=dims, fields=fields, **kw))
    times = {k: [] for k in ["raw"] + list(schemes)}
    profiles = {s: [] for s in schemes}
    box = (tuple(lo), tuple(hi))
    for rep in range(args.repeats):
        for key in times:
            comm.Barrier()
            t0 = time.perf_counter()
            if key == "raw":
                with open(os.path.join(raw_dir, f"rank{me:05d}-{rep}.bin"), "wb") as f:
                    for a in data.values():
                        f.write(memoryview(a).cast("B"))
                    if args.fsync:
                        f.flush()
                        os.fsync(f.fileno())
            else:
                grids[key][1].write(rep, box, data if len(fields) > 1 else data["v"])
            dt = time.perf_counter() - t0
            dt = comm.allreduce(dt, op=MPI.MAX)
            times[key].append(dt)
            if key != "raw":
                profiles[key].append(grids[key][1].profile)
            comm.Barrier()
            if me == 0:   # keep the disk at one step: drop what this repetition wrote
                if key == "raw":
                    for f in os.listdir(raw_dir):
                        os.unlink(os.path.join(raw_dir, f))
                else:
                    for d in glob.glob(os.path.join(paths[key], "g", "**", f"time_{rep:06d}"), recursive=True):
                        shutil.rmtree(d, ignore_errors=True)
    for ds, _ in grids.values():
        ds.close()
    if me == 0:
        med = {k: float(np.median(v)) for k, v in times.items()}
        total = local_bytes * R
        out = {
            "workload": args.workload, "ranks": R, "fsync": args.fsync, "schemes": schemes, "dims": dims,
            "fields": len(fields), "bytes": total,
            "median_s": med, "runs_s": times,
            "throughput_mib_s": {k: total / 2**20 / v for k, v in med.items()},
            "ratio_to_raw": {k: med["raw"] / v for k, v in med.items() if k != "raw"},
            "profile_last": {s: p[-1] for s, p in profiles.items()},
            "phase_median_max_s": {s: {ph: float(np.median([p["phases"][ph]["max_s"] for p in ps]))
                                       for ph in ps[-1]["phases"]} for s, ps in profiles.items()},
        }
        print(json.dumps(out))


if __name__ == "__main__":
    main()
