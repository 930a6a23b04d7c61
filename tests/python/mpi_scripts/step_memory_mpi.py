"""Memory of grid and series steps (test_step_memory.py).

usage: step_memory_mpi.py grid OUTDIR MODE     six steps of one f4 field, each rank a 128 x 128 x 64
                                               z-slab (4 MiB), the grid's default settings (one file);
                                               MODE sync or async (wait=False)
       step_memory_mpi.py series OUTDIR MODE   three windows of d_tar=4 steps of a GEOS-like series
                                               (4 3-D and 16 2-D f4 variables over 144 x 91 x 48 split
                                               over the ranks; d_sar 1 over several ranks)
       step_memory_mpi.py particles OUTDIR MODE EXCHANGE
                                               six steps of 65,536 Uintah particles per rank (7.8 MiB),
                                               one partition of all the ranks (partition factor
                                               rank_grid(size)); MODE sync, async (wait=False) or
                                               nocopy (wait=False, copy=False); EXCHANGE node (the
                                               default path) or p2p (one aggregator receives the rows)

Per rank, per step byte, the largest growth over what the rank held before the first write:
resident anonymous memory after each write ("anon"), and the peak resident set size during each
write ("peak": VmHWM, reset before the write through /proc/self/clear_refs). A step of a grid or a
series of another name (a window of one step) is written first, so that the code and MPI's buffers
for large messages are in place before the baseline (once per process, not a step's memory; that
group keeps its own buffers), and the freed heap is given back to the system (malloc_trim) so that
the measured steps cannot reuse it. Rank 0 prints one result line.

Particles: the node's shared window holds one copy of the partition's rows for all its ranks, and
every writer reads the whole of it, so resident memory would count it once per rank. There the
window counts as its proportional share (Pss_Shmem of /proc/self/smaps_rollup: shared pages divided
among the ranks that touched them), and the rest as private memory: "peak" is the high-water mark
less the resident shared and file pages (the window is kept from step to step, so its pages are
resident throughout a step after the first) plus the window's share, "anon" is RssAnon plus the
window's share after each write. An asynchronous step runs on after its call returns: the
high-water mark is read and reset at every call's start and end, and after the last step's wait,
so each interval between them counts."""

from __future__ import annotations

import ctypes
import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA, Geos, patch_of, rank_grid, uintah

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
SLAB = (128, 128, 64)   # x, y, z per rank: 4 MiB of f4
SERIES_DIMS = (144, 91, 48)
PARTICLES = 65536   # per rank: 7.8 MiB of Uintah rows
UNIT = ((0, 0, 0), (1, 1, 1))


def status_kib() -> dict:
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("RssAnon", "RssFile", "RssShmem", "VmRSS", "VmHWM"):
                out[key] = int(line.split()[1])
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss_Shmem:"):
                out["PssShmem"] = int(line.split()[1])
    return out


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:   # VmHWM := VmRSS (Linux >= 4.0)
        f.write("5")


def grid_step():
    x, y, z = SLAB
    data = np.random.default_rng(rank).random((z, y, x)).astype("f4")
    return (x, y, z * size), ((0, 0, z * rank), (x, y, z * (rank + 1))), data, data.nbytes


def series_step():
    geos = Geos(dims=SERIES_DIMS, n2d=16, n3d=4, steps=1)
    box, data = geos.local(rank, size, 0)
    return geos, box, data, sum(a.nbytes for a in data.values())


def hold_mpi_communicator_block() -> None:
    """Puts MPI's communicator objects in place before the baseline. MPICH preallocates 8 of them
    and allocates the next ones 256 at a time (1,875,968 bytes with MPICH 5.0's ch4 device: 7,328
    bytes each, written as they are linked into its free list), a block it keeps until
    MPI_Finalize. MPI_Win_allocate_shared duplicates the node's communicator, so the window of a
    group's first step may be what needs that block, on some ranks only (a node's first rank holds
    one internal communicator more than the others, and reaches it earlier): once in a process's
    life, whatever its steps, not a step's memory. Duplicates held together and freed take it."""
    held = [comm.Dup() for _ in range(8)]
    for c in held:
        c.Free()


def particle_memory(outdir: str, mode: str, exchange: str) -> None:
    grid = rank_grid(size)
    patch = patch_of(rank, grid)
    data = {k: np.ascontiguousarray(v) for k, v in uintah(rank, PARTICLES, patch, seed=3).items()}
    step_bytes = sum(v.nbytes for v in data.values())
    ds = lodex.create(os.path.join(outdir, f"particles-{mode}-{exchange}.lodex"), comm=comm, exchange=exchange)
    warm = ds.define_particles("warm", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    warm.write(0, patch, data)
    hold_mpi_communicator_block()
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=UNIT, partition=grid)
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    base = status_kib()
    worst = {"anon": 0.0, "peak": 0.0}

    def sample(after_write: bool) -> None:
        now = status_kib()
        share = now["PssShmem"] - base["PssShmem"]   # the windows' share
        private_peak = now["VmHWM"] - now["RssFile"] - now["RssShmem"]
        worst["peak"] = max(worst["peak"], (private_peak - base["RssAnon"] + share) * 1024 / step_bytes)
        if after_write:
            worst["anon"] = max(worst["anon"], (now["RssAnon"] - base["RssAnon"] + share) * 1024 / step_bytes)
        reset_peak()

    reset_peak()
    paths, pending = set(), None
    for step in range(6):
        sample(False)
        if mode == "sync":
            g.write(step, patch, data)
            paths.add(g.profile["path"])
        else:
            pending = g.write(step, patch, data, wait=False, copy=mode == "async")
        sample(True)
    if pending is not None:
        paths.add(pending.wait()["path"])
        sample(True)
    ds.close()
    rows = comm.gather({k: round(v, 3) for k, v in worst.items()})
    if rank == 0:
        tu.emit({"per_rank": rows, "step_bytes": step_bytes, "paths": sorted(paths)})


def main(kind: str, outdir: str, mode: str, exchange: str = "node") -> None:
    if kind == "particles":
        particle_memory(outdir, mode, exchange)
        return
    ds = lodex.create(os.path.join(outdir, f"{kind}-{mode}.lodex"), comm=comm)
    if kind == "grid":
        dims, box, data, step_bytes = grid_step()
        warm = ds.define_grid("warm", dims=dims, dtype="f4")
        warmed = warm.write(0, box, data, wait=mode == "sync")
        g = ds.define_grid("g", dims=dims, dtype="f4")
        steps = 6
    else:
        geos, box, data, step_bytes = series_step()
        d_sar = 1 if size > 1 else 0
        warm = ds.define_series("warm", dims=geos.dims, variables=geos.variables(), d_tar=1, d_sar=d_sar)
        warmed = warm.write(0, box, data, wait=mode == "sync")
        g = ds.define_series("s", dims=geos.dims, variables=geos.variables(), d_tar=4, d_sar=d_sar)
        steps = 12
    if warmed is not None:   # an asynchronous warm-up step (its group's own communicator made)
        warmed.wait()
    ctypes.CDLL("libc.so.6").malloc_trim(0)   # freed heap back to the system: the steps cannot reuse it
    base = status_kib()
    worst = {"anon": 0.0, "peak": 0.0}

    def sample(after_write: bool) -> None:
        now = status_kib()
        if after_write:
            worst["anon"] = max(worst["anon"], (now["RssAnon"] - base["RssAnon"]) * 1024 / step_bytes)
        worst["peak"] = max(worst["peak"], (now["VmHWM"] - base["VmRSS"]) * 1024 / step_bytes)
        reset_peak()

    reset_peak()
    paths, pending = set(), None
    for step in range(steps):
        sample(False)   # what a pending step's helper held since the last call
        pending = g.write(step, box, data, wait=mode == "sync")
        sample(True)
    if pending is not None and mode == "async":
        paths.add(pending.wait().get("async_path"))
        sample(True)
    ds.close()
    rows = comm.gather({k: round(v, 3) for k, v in worst.items()})
    if rank == 0:
        tu.emit({"per_rank": rows, "step_bytes": step_bytes, "paths": sorted(p for p in paths if p)})


if __name__ == "__main__":
    main(*sys.argv[1:5])
