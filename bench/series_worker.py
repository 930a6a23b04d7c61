"""MPI worker of bench/series.py: one layout of the GEOS-5-like series written by every rank;
prints one JSON line on rank 0.

    mpiexec -n R python bench/series_worker.py --path P --d-tar auto|N --d-sar auto|N
        [--steps 30] [--dims 144 91 48] [--n2d 48] [--n3d 16] [--calibration cal.json]

Every rank generates its box of every variable for every step before the clock starts; the
time is that of the slowest rank from a barrier to the end of the last write and ds.close()
(which writes the steps still buffered). Reported with it: the dataset's creation and series
definition time (apart), each write's profile summed over the writes (each phase as reduced over
ranks by lodex), the layout STAR chose or was forced to (meta), and the files on disk.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from mpi4py import MPI

import lodex
from lodex.workloads import Geos


def auto_or_int(text: str) -> int | None:
    """'auto' (None: chosen by STAR coordination) or a non-negative integer."""
    return None if text == "auto" else int(text)


def profile_sums(profiles: list[dict]) -> dict:
    """The writes' profiles added up: each phase's slowest-rank and mean time, bytes, flushes."""
    phases = profiles[0]["phases"]
    return {
        "writes": len(profiles),
        "flushes": sum(1 for p in profiles if p["flushed"]),
        "bytes": sum(p["bytes"] for p in profiles),
        "aggregated_bytes": sum(p["aggregated_bytes"] for p in profiles),
        "writers_max": max(p["writers"] for p in profiles),
        "total_s": sum(p["total_s"] for p in profiles),
        "phase_sum_max_s": {ph: sum(p["phases"][ph]["max_s"] for p in profiles) for ph in phases},
        "phase_sum_mean_s": {ph: sum(p["phases"][ph]["mean_s"] for p in profiles) for ph in phases},
    }


def files_on_disk(path: str) -> tuple[int, int]:
    """(files, bytes) under the dataset folder."""
    sizes = [os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path) for f in fs]
    return len(sizes), sum(sizes)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--path", required=True, help="the dataset to create (must not exist)")
    ap.add_argument("--d-tar", type=auto_or_int, required=True)
    ap.add_argument("--d-sar", type=auto_or_int, required=True)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--dims", type=int, nargs=3, default=(144, 91, 48))
    ap.add_argument("--n2d", type=int, default=48)
    ap.add_argument("--n3d", type=int, default=16)
    ap.add_argument("--calibration", default=None,
                    help="a saved lodex calibration: bw_io, cc and ts for the coordination (default: settings)")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    ranks, me = comm.size, comm.rank
    g = Geos(dims=args.dims, n2d=args.n2d, n3d=args.n3d, steps=args.steps)
    local = [g.local(me, ranks, step) for step in range(args.steps)]

    comm.Barrier()
    t0 = time.perf_counter()
    ds = lodex.create(args.path, comm=comm)
    s = ds.series("geos", dims=g.dims, variables=g.variables(), d_tar=args.d_tar, d_sar=args.d_sar,
                  calibration=args.calibration)
    define_s = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)

    profiles = []
    comm.Barrier()
    t0 = time.perf_counter()
    for step, (box, data) in enumerate(local):
        s.write(step, box, data)
        profiles.append(s.profile)
    ds.close()
    write_s = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
    closing = s.profile
    if closing != profiles[-1]:   # close flushed buffered steps: its own profile
        profiles.append(closing)

    if me == 0:
        meta = lodex.open(args.path).series("geos").meta
        files, nbytes = files_on_disk(args.path)
        print(json.dumps({
            "ranks": ranks, "decomposition": g.decomposition(ranks), "steps": args.steps,
            "d_tar_asked": args.d_tar, "d_sar_asked": args.d_sar,
            "write_s": write_s, "define_s": define_s, "data_bytes": g.step_bytes() * args.steps,
            "files": files, "bytes_on_disk": nbytes, "profile": profile_sums(profiles),
            "meta": {k: meta.get(k) for k in ("d_tar", "d_sar", "reason", "chunk_bytes", "opt_size", "cuts")},
            "windows": len(meta["windows"]),
        }))


if __name__ == "__main__":
    main()
