"""One job of the asynchronous-write benchmark (launched by async_write.py under mpiexec, with the
MPI build of ADIOS2 first on PYTHONPATH when an ADIOS2 method runs).

A simulation loop on every rank: a compute kernel of fixed work (numpy, one core: repeated
elementwise updates of an array of its own, never the particles), then the write of that step's
particles (Uintah, the same on every step), `--steps` times; the files of every step are kept (a
simulation keeps its output), and the job's folder is removed by the driver afterwards. One method
per job, so that each job's peak memory is its own:

  compute             the kernel alone (no write)
  lodex_sync          ParticleGroup.write (blocking)
  lodex_async         write(..., wait=False): the caller gets control back after the exchange;
                      the arrays it passed may be reused at once (what stays on the rank is copied)
  lodex_async_nocopy  write(..., wait=False, copy=False): no copy; the arrays stay unchanged
  mpiio               one shared file per step, MPI_File_write_at_all (blocking)
  adios2              ADIOS2 BP5 built with MPI, its defaults: one engine for the run, a step per
                      iteration (begin_step, a put per field, end_step), closed at the end
  adios2_async        the same with the engine parameter AsyncWrite=On

`--kind` picks the step: `particles` (Uintah, above), `grid` (one f4 field of a 3-D grid,
each rank a z-slab of 128 x 128 x 64 samples, 4 MiB; `Grid.write`) or `series` (a GEOS-like
series, 4 3-D and 16 2-D f4 variables over a 144 x 91 x 48 grid split over the ranks, windows of
d_tar=4 steps; `Series.write`). Grid and series jobs run compute, lodex_sync, lodex_async and
mpiio (the step's bytes of every rank in one shared file per step, as for particles).

`--calibrate` instead times the compute kernel for --kernel-iters iterations (median of 5) and
the blocking lodex write (median of 5), so the driver can size the kernel.

Per rank: loop time (barrier to barrier), the time blocked in I/O calls per step (the write call;
for the last step also the final wait or close), the peak resident memory over what the
process held before the loop (ru_maxrss: shared-memory pages count in every process that touched
them), and the largest proportional set size sampled after each step's write, over the same
(shared pages divided among the processes mapping them). Rank 0 prints one JSON object with the slowest rank's loop
and blocked times and the
largest extra memory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import time

import numpy as np
from mpi4py import MPI

from bench_common import DECOMPOSITION

GRID_SLAB = (128, 128, 64)   # x, y, z samples of one rank's slab
SERIES_DIMS, SERIES_N2D, SERIES_N3D, SERIES_D_TAR = (144, 91, 48), 16, 4, 4

METHODS = ["compute", "lodex_sync", "lodex_async", "lodex_async_nocopy", "mpiio", "adios2", "adios2_async"]


def kernel(state: np.ndarray, iters: int) -> None:
    """Fixed work: `iters` elementwise updates of `state` (numpy ufuncs, one core)."""
    for _ in range(iters):
        np.multiply(state, 0.999, out=state)
        np.add(state, 0.001, out=state)
        np.sqrt(state, out=state)


def rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def pss_kib() -> int:
    """This process's proportional set size now: shared pages divided among the processes that map
    them (Linux, /proc/self/smaps_rollup), so a node's shared window counts once over its ranks."""
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    return 0


class Workload:
    """One kind of step on this rank: its arrays, the group that writes them, and its bytes."""

    def __init__(self, kind: str, particles: int, comm) -> None:
        from lodex.workloads import Geos, UINTAH_SCHEMA, patch_of, uintah
        rank, size = comm.rank, comm.size
        self.kind = kind
        if kind == "particles":
            self.grid = DECOMPOSITION[size]
            self.patch = patch_of(rank, self.grid)
            self.schema = UINTAH_SCHEMA
            self.data = {k: np.ascontiguousarray(v) for k, v in uintah(rank, particles, self.patch).items()}
            self.arrays = [self.data[k] for k in UINTAH_SCHEMA]
        elif kind == "grid":
            x, y, z = GRID_SLAB
            self.dims = (x, y, z * size)
            self.box = ((0, 0, z * rank), (x, y, z * (rank + 1)))
            self.data = np.random.default_rng(rank).random((z, y, x)).astype("f4")
            self.arrays = [self.data]
        else:
            self.geos = Geos(dims=SERIES_DIMS, n2d=SERIES_N2D, n3d=SERIES_N3D, steps=1)
            self.box, self.data = self.geos.local(rank, size, 0)
            self.arrays = list(self.data.values())
        self.step_bytes = sum(a.nbytes for a in self.arrays)

    def define(self, ds):
        if self.kind == "particles":
            return ds.define_particles("u", schema=self.schema, domain=((0, 0, 0), (1, 1, 1)), partition=self.grid)
        if self.kind == "grid":
            return ds.define_grid("g", dims=self.dims, dtype="f4")
        return ds.define_series("geos", dims=self.geos.dims, variables=self.geos.variables(), d_tar=SERIES_D_TAR,
                                d_sar=1)

    def write(self, group, step: int, wait: bool = True, copy: bool = True):
        if self.kind == "particles":
            return group.write(step, self.patch, self.data, wait=wait, copy=copy)
        return group.write(step, self.box, self.data, wait=wait, copy=copy)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--method", choices=METHODS)
    ap.add_argument("--kind", choices=("particles", "grid", "series"), default="particles")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--kernel-iters", type=int, default=100)
    ap.add_argument("--calibrate", action="store_true")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    if args.method in ("adios2", "adios2_async"):
        from bench_common import import_adios2_mpi
        adios2 = import_adios2_mpi()
    import lodex

    work = Workload(args.kind, args.particles, comm)
    step_bytes = work.step_bytes
    state = np.random.default_rng(rank).random(1 << 18) + 1.0   # the kernel's own 2 MiB
    folder = os.path.join(args.dir, f"job-np{size}")
    if rank == 0:
        os.makedirs(folder, exist_ok=True)
    comm.Barrier()

    if args.calibrate:
        ks, ws = [], []
        ds = lodex.create(os.path.join(folder, "cal.lodex"), comm=comm)
        g = work.define(ds)
        steps = 6 * (SERIES_D_TAR if args.kind == "series" else 1)
        for i in range(steps):
            comm.Barrier()
            t = time.perf_counter()
            kernel(state, args.kernel_iters)
            ks.append(comm.allreduce(time.perf_counter() - t, op=MPI.MAX))
            comm.Barrier()
            t = time.perf_counter()
            work.write(g, i)
            ws.append(comm.allreduce(time.perf_counter() - t, op=MPI.MAX))
        ds.close()
        if rank == 0:   # a series: the mean write per step (the windows' writes spread over their steps)
            write_s = statistics.mean(ws[SERIES_D_TAR:]) if args.kind == "series" else statistics.median(ws[1:])
            print(json.dumps({"kernel_s": statistics.median(ks[1:]), "write_s": write_s,
                              "kernel_iters": args.kernel_iters}))
        return

    raw = b"".join(np.ascontiguousarray(a).tobytes() for a in work.arrays)
    offsets = comm.allgather(len(raw))
    if args.kind == "particles":
        fields = list(work.schema)
        counts = comm.allgather(len(work.data["id"]))
        first, total = sum(counts[:rank]), sum(counts)

    ds = g = engine = None
    if args.method.startswith("lodex"):
        ds = lodex.create(os.path.join(folder, "run.lodex"), comm=comm)
        g = work.define(ds)
    elif args.method.startswith("adios2"):
        ad = adios2.Adios(comm=comm)
        io = ad.declare_io("particles")
        io.set_engine("BP5")
        io.set_parameters({"AsyncWrite": "On"} if args.method == "adios2_async" else {})
        var = {k: io.define_variable(k, a, [total, *a.shape[1:]], [first, *[0] * (a.ndim - 1)], list(a.shape))
               for k, a in work.data.items()}
        engine = io.open(os.path.join(folder, "run.bp"), adios2.Mode.Write)

    def write(step: int) -> None:
        if args.method == "compute":
            return
        if args.method == "lodex_sync":
            work.write(g, step)
        elif args.method in ("lodex_async", "lodex_async_nocopy"):
            work.write(g, step, wait=False, copy=args.method == "lodex_async")
        elif args.method == "mpiio":
            fh = MPI.File.Open(comm, os.path.join(folder, f"step-{step}.bin"), MPI.MODE_WRONLY | MPI.MODE_CREATE)
            fh.Write_at_all(sum(offsets[:rank]), raw)
            fh.Close()
        else:
            engine.begin_step()
            for k in fields:
                engine.put(var[k], work.data[k])
            engine.end_step()

    def finish() -> None:
        if ds is not None:
            ds.close()   # commits a pending step
        if engine is not None:
            engine.close()

    base_rss = rss_kib()
    base_pss = pss_kib()
    peak_pss = base_pss
    blocked = []
    comm.Barrier()
    t_loop = time.perf_counter()
    for step in range(args.steps):
        kernel(state, args.kernel_iters)
        t = time.perf_counter()
        write(step)
        if step == args.steps - 1:
            finish()
        blocked.append(time.perf_counter() - t)
        peak_pss = max(peak_pss, pss_kib())   # sampled after each write: a peak seen at step ends
    loop_s = time.perf_counter() - t_loop
    comm.Barrier()
    extra_kib = rss_kib() - base_rss
    loops = comm.gather(loop_s, root=0)
    blocks = comm.gather(blocked, root=0)
    extras = comm.gather(extra_kib, root=0)
    extras_pss = comm.gather(peak_pss - base_pss, root=0)
    if rank == 0:
        per_step = [max(b[i] for b in blocks) for i in range(args.steps)]
        print(json.dumps({
            "method": args.method, "kind": args.kind, "ranks": size, "steps": args.steps,
            "step_bytes_per_rank": step_bytes,
            "kernel_iters": args.kernel_iters, "loop_s": max(loops),
            "blocked_per_step_s": statistics.median(per_step), "blocked_total_s": sum(per_step),
            "blocked_mean_per_step_s": sum(per_step) / len(per_step),
            "blocked_last_step_s": per_step[-1],
            "peak_extra_rss_bytes": max(extras) * 1024,
            "peak_extra_over_step_bytes": max(extras) * 1024 / step_bytes,
            "peak_extra_pss_over_step_bytes": max(extras_pss) * 1024 / step_bytes,
        }))


if __name__ == "__main__":
    main()
