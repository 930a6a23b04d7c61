"""Where a particle step's time goes on an oversubscribed node: the wall time and the CPU time
(user + system, summed over ranks, getrusage around the call) of one step for lodex's two paths
(node-cooperative, the default, and one aggregator per partition, exchange="p2p"), one shared
MPI-IO file (Write_at_all) and raw file per process, interleaved, each step's output removed
(untimed) before the next; plus lodex's per-phase times (slowest rank) and helper-thread times.
When the CPU time of a method over the cores exceeds its wall time elsewhere, the cores are the
bound, not the file system.

    .venv/bin/mpiexec -n 8 .venv/bin/python bench/write_cpu_worker.py [--partition 2,2,2] [--repeats 9]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import tempfile
import time

import numpy as np
from mpi4py import MPI

import lodex
from bench_common import DECOMPOSITION, remove_collectively
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--partition", default="2,2,2")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = DECOMPOSITION[size]
    factor = tuple(int(x) for x in args.partition.split(","))
    base = comm.bcast(tempfile.mkdtemp(prefix="lodex-cpu-", dir=args.dir) if rank == 0 else None)
    patch = patch_of(rank, grid)
    data = uintah(rank, args.particles, patch)
    raw = b"".join(np.ascontiguousarray(data[k]).tobytes() for k in UINTAH_SCHEMA)

    def measured(fn):
        comm.Barrier()
        r0, t0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        fn()
        t1, r1 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        comm.Barrier()
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        return comm.allreduce(t1 - t0, op=MPI.MAX), comm.allreduce(cpu)

    def remove(path):
        remove_collectively(comm, path)

    groups = {}
    for ex in ("node", "p2p"):
        ds = lodex.create(os.path.join(base, f"{ex}.lodex"), comm=comm, exchange=ex)
        g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=factor)
        g.write(0, patch, data)   # warm-up
        remove(os.path.join(base, f"{ex}.lodex", "u", "step-000000000"))
        groups[ex] = (ds, g)
    wall = {m: [] for m in ("lodex_node", "lodex_p2p", "mpiio_shared", "raw_fpp")}
    cpu = {m: [] for m in wall}
    profiles = {"node": [], "p2p": []}
    for i in range(1, args.repeats + 1):
        for ex in ("node", "p2p"):
            ds, g = groups[ex]
            w, c = measured(lambda: g.write(i, patch, data))
            wall[f"lodex_{ex}"].append(w)
            cpu[f"lodex_{ex}"].append(c)
            profiles[ex].append(g.profile)
            remove(os.path.join(base, f"{ex}.lodex", "u", f"step-{i:09d}"))

        def mpiio():
            fh = MPI.File.Open(comm, os.path.join(base, "shared.bin"), MPI.MODE_WRONLY | MPI.MODE_CREATE)
            fh.Write_at_all(rank * len(raw), raw)
            fh.Close()

        w, c = measured(mpiio)
        wall["mpiio_shared"].append(w)
        cpu["mpiio_shared"].append(c)
        remove(os.path.join(base, "shared.bin"))

        def raw_fpp():
            fd = os.open(os.path.join(base, f"raw-{rank}.bin"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.write(fd, raw)
            os.close(fd)

        w, c = measured(raw_fpp)
        wall["raw_fpp"].append(w)
        cpu["raw_fpp"].append(c)
        os.remove(os.path.join(base, f"raw-{rank}.bin"))
    for ds, _ in groups.values():
        ds.close()
    if rank == 0:
        shutil.rmtree(base, ignore_errors=True)
        med = lambda v: statistics.median(v)   # noqa: E731
        print(json.dumps({
            "ranks": size, "partition": factor, "repeats": args.repeats, "cores": os.cpu_count(),
            "wall_ms": {m: {"median": med(v) * 1e3, "min": min(v) * 1e3, "max": max(v) * 1e3} for m, v in wall.items()},
            "cpu_ms_all_ranks": {m: {"median": med(v) * 1e3, "min": min(v) * 1e3, "max": max(v) * 1e3}
                                 for m, v in cpu.items()},
            "paths": {ex: sorted({p["path"] for p in ps}) for ex, ps in profiles.items()},
            "phases_ms": {ex: {ph: med([p["phases"][ph]["max_s"] for p in ps]) * 1e3
                               for ph in lodex.WriteProfile.PHASES}
                          for ex, ps in profiles.items()},
            "threads_ms": {ex: {t: med([p["threads"][t]["max_s"] for p in ps if t in p["threads"]]) * 1e3
                                for t in ("order", "writer") if any(t in p["threads"] for p in ps)}
                           for ex, ps in profiles.items()},
        }, indent=1))


if __name__ == "__main__":
    main()
