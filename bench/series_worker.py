"""MPI worker of bench/series.py: one layout of the GEOS-5-like series written by every rank;
prints one JSON line on rank 0.

    mpiexec -n R python bench/series_worker.py --path P --d-tar auto|N --d-sar auto|N
        [--steps 30] [--dims 144 91 48] [--n2d 48] [--n3d 16] [--calibration cal.json]
    mpiexec -n R python bench/series_worker.py --path P --hdf5 [--steps ...]   # the peer

With --hdf5 the series is written as GEOS-5 writes its NetCDF-4 output (Tian et al. 2013 §II-A): every
step gathered to rank 0 (one MPI Gatherv per variable) and written by it as one HDF5 file per
step, each variable one dataset with h5py's defaults (contiguous, uncompressed: how netCDF-4
stores a fixed-size variable).

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
import sys
import time

import numpy as np
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


def write_hdf5(path: str, comm, g: Geos, local: list) -> dict:
    """The peer's write (module docstring): the slowest rank's time from a barrier to rank 0's
    last file closed."""
    import h5py
    me = comm.rank
    boxes = comm.gather(local[0][0], root=0)   # every step: the same boxes
    counts = {}
    if me == 0:
        os.makedirs(path)
        for name in g.names:
            nz = g.dims[2] if g.ndim(name) == 3 else 1
            counts[name] = [(hi[0] - lo[0]) * (hi[1] - lo[1]) * nz for lo, hi in boxes]
    comm.Barrier()
    t0 = time.perf_counter()
    for step, (_, data) in enumerate(local):
        whole = {}
        for name in g.names:
            mine = np.ascontiguousarray(data[name])
            if me != 0:
                comm.Gatherv(mine, None, root=0)
                continue
            flat = np.empty(sum(counts[name]), mine.dtype)
            comm.Gatherv(mine, (flat, counts[name]), root=0)
            lead = (g.dims[2],) if g.ndim(name) == 3 else ()
            out = np.empty(lead + (g.dims[1], g.dims[0]), mine.dtype)
            at = 0
            for (lo, hi), n in zip(boxes, counts[name]):
                block = out[..., lo[1]:hi[1], lo[0]:hi[0]]
                block[...] = flat[at:at + n].reshape(block.shape)
                at += n
            whole[name] = out
        if me == 0:
            with h5py.File(os.path.join(path, f"step_{step:04d}.h5"), "w") as f:
                for name, a in whole.items():
                    f.create_dataset(name, data=a)
    write_s = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
    return {"write_s": write_s, "define_s": 0.0, "meta": {"d_tar": 1, "d_sar": "-"},
            "profile": {"phase_sum_max_s": {}}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--path", required=True, help="the dataset to create (must not exist)")
    ap.add_argument("--d-tar", type=auto_or_int)
    ap.add_argument("--d-sar", type=auto_or_int)
    ap.add_argument("--hdf5", action="store_true", help="write the peer's layout (HDF5 file per step) instead")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--dims", type=int, nargs=3, default=(144, 91, 48))
    ap.add_argument("--n2d", type=int, default=48)
    ap.add_argument("--n3d", type=int, default=16)
    ap.add_argument("--calibration", default=None,
                    help="a saved lodex calibration: bw_io, cc and ts for the coordination (default: settings)")
    args = ap.parse_args()
    if not args.hdf5 and ("--d-tar" not in sys.argv or "--d-sar" not in sys.argv):
        ap.error("a lodex layout needs --d-tar and --d-sar (auto or a number)")
    comm = MPI.COMM_WORLD
    ranks, me = comm.size, comm.rank
    g = Geos(dims=args.dims, n2d=args.n2d, n3d=args.n3d, steps=args.steps)
    local = [g.local(me, ranks, step) for step in range(args.steps)]
    if args.hdf5:
        r = write_hdf5(args.path, comm, g, local)
        if me == 0:
            files, nbytes = files_on_disk(args.path)
            print(json.dumps({"ranks": ranks, "decomposition": g.decomposition(ranks), "steps": args.steps,
                              "data_bytes": g.step_bytes() * args.steps, "files": files, "bytes_on_disk": nbytes,
                              **r}))
        return

    comm.Barrier()
    t0 = time.perf_counter()
    ds = lodex.create(args.path, comm=comm)
    s = ds.define_series("geos", dims=g.dims, variables=g.variables(), d_tar=args.d_tar, d_sar=args.d_sar,
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
        meta = lodex.open(args.path).series["geos"].meta
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
