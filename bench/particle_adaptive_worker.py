"""MPI worker of bench/particle_adaptive.py: writes every uneven generator with the adaptive and
the fixed scheme, interleaved over repetitions, and prints one JSON line on rank 0.

    mpiexec -n 8 python bench/particle_adaptive_worker.py --dir D --particles N --repeats K
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
from lodex.workloads import GENERATORS, UNEVEN_SCHEMA, patch_of, rank_grid, uneven_rank

DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--particles", type=int, required=True, help="total over all ranks")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--generators", default=",".join(GENERATORS))
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    R = comm.size
    grid = rank_grid(R)
    patch = patch_of(comm.rank, grid, DOMAIN)
    n = args.particles
    gens = args.generators.split(",")
    target = -(-n // R)                        # adaptive: one file per rank's worth of particles
    schemes = {"adaptive": dict(partition="adaptive", particles_per_file=target),
               "fixed": dict(partition=(1, 1, 1))}   # the uniform scheme: one partition per patch
    data = {k: uneven_rank(k, n, patch, seed=11, domain=DOMAIN) for k in gens}
    rank_counts = {k: comm.gather(len(data[k]["id"]), root=0) for k in gens}
    keys = [(k, s) for k in gens for s in schemes]
    groups, paths = {}, {}
    for key in keys:
        paths[key] = os.path.join(args.dir, f"{key[0]}-{key[1]}.lodex")
        if comm.rank == 0 and os.path.exists(paths[key]):
            shutil.rmtree(paths[key])
        comm.Barrier()
        ds = lodex.create(paths[key], comm=comm)
        groups[key] = (ds, ds.define_particles("p", schema=UNEVEN_SCHEMA, domain=DOMAIN, **schemes[key[1]]))
    times = {key: [] for key in keys}
    profiles = {key: [] for key in keys}
    files = {}

    def drop_data_files(key, step):
        # Keeps the disk at one step per dataset: the step's metadata stays (files(step) still
        # lists it), its data files go, and the writeback of earlier steps is over (sync).
        if comm.rank == 0:
            if key not in files:
                files[key] = [f["count"] for f in lodex.open(paths[key]).particles["p"].files(step)]
            for f in glob.glob(os.path.join(paths[key], "**", "*.lpd"), recursive=True):
                os.remove(f)
            os.sync()
        comm.Barrier()

    # Step 0 of every dataset is a warm-up (untimed): a simulation writes step after step, and
    # the writer's scratch buffers are reused from the second write on.
    for key in keys:
        groups[key][1].write(0, data=data[key[0]], patch=patch)
        drop_data_files(key, 0)
    for rep in range(args.repeats):
        order = keys[rep % len(keys):] + keys[:rep % len(keys)]   # rotate the order every repetition
        for key in order:
            g = groups[key][1]
            comm.Barrier()
            t0 = time.perf_counter()
            g.write(rep + 1, data=data[key[0]], patch=patch)
            comm.Barrier()
            times[key].append(time.perf_counter() - t0)
            if comm.rank == 0:   # per-phase times, max over ranks
                profiles[key].append({name: t["max_s"] for name, t in g.profile["phases"].items()})
            drop_data_files(key, rep + 1)
    for ds, _ in groups.values():
        ds.close()
    if comm.rank != 0:
        return
    results = []
    for (k, s), ts in times.items():
        counts = np.array(files[k, s], dtype=np.int64)
        assert int(counts.sum()) == n, (k, s, int(counts.sum()), n)
        planned = R                                  # both schemes plan one partition per rank here
        results.append({
            "generator": k, "scheme": s, "times_s": ts, "median_s": float(np.median(ts)),
            "files": len(counts), "planned_partitions": planned,
            "counts": counts.tolist(),
            "imbalance": float(counts.max() / (n / planned)) if len(counts) else 0.0,
            "imbalance_over_files": float(counts.max() / counts.mean()) if len(counts) else 0.0,
            "rank_counts": rank_counts[k],
            "phase_max_s_median": {ph: float(np.median([p[ph] for p in profiles[k, s]]))
                                   for ph in (profiles[k, s][0] if profiles[k, s] else {})},
        })
    print(json.dumps({"ranks": R, "grid": grid, "particles": n, "repeats": args.repeats, "results": results}))


if __name__ == "__main__":
    main()
