"""Zero-copy input from numpy against a write of the caller's arrays (docs/writes.md, "Zero-copy
input"). Run it under MPI:

    mpiexec -n 4 .venv/bin/python bench/buffers_numpy.py [--mib 3.9] [--steps 9] [--out DIR]

Every rank holds the Uintah schema's rows (--mib MiB per rank, in its patch of the domain; one
partition per rank). Each step, alternating the two ways (interleaved, medians over --steps
steps each), a numpy loop computes the rows of the step from a fixed source (one in-place
operation per field: ``np.add(src, step, out=arr)``) and the step is written:

- ``write``:   into this rank's own arrays, then ``ParticleGroup.write`` of them;
- ``buffers``: into ``ParticleGroup.buffers``' arrays, then the commit (leaving the with block).

Reported (rank 0, JSON): per way the median seconds of fill + write (slowest rank), its fill part,
and whether the ranks' buffers lay in the node's shared window."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

import numpy as np
from mpi4py import MPI

import lodex
from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

comm = MPI.COMM_WORLD


def row_bytes() -> int:
    out = 0
    for spec in UINTAH_SCHEMA.values():
        dtype, comps = spec if isinstance(spec, tuple) else (spec, 1)
        out += np.dtype(dtype).itemsize * comps
    return out


def fill(arrays, src: dict, step: int) -> float:
    t0 = time.perf_counter()
    for k, v in src.items():
        np.add(v, np.asarray(step * 1e-9, dtype=v.dtype), out=arrays[k])
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=float, default=3.9)
    ap.add_argument("--steps", type=int, default=9)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    grid = rank_grid(comm.size)
    patch = patch_of(comm.rank, grid)
    n = int(a.mib * 2**20 / row_bytes())
    src = {k: np.array(v) for k, v in uintah(comm.rank, n, patch, seed=1).items()}
    root = comm.bcast(tempfile.mkdtemp(dir=a.out) if comm.rank == 0 else None)
    ds = lodex.create(os.path.join(root, "b.lodex"), comm=comm)
    groups = {w: ds.define_particles(w, schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=grid)
              for w in ("write", "buffers")}
    own = {k: np.empty_like(v) for k, v in src.items()}
    times = {w: [] for w in groups}
    fills = {w: [] for w in groups}
    in_window = []
    for step in range(a.steps + 1):   # step 0 of each: warm-up (window and buffers allocated)
        for way in (("write", "buffers") if step % 2 == 0 else ("buffers", "write")):
            comm.Barrier()
            t0 = time.perf_counter()
            if way == "write":
                f = fill(own, src, step)
                groups[way].write(step, patch, own)
            else:
                with groups[way].buffers(step, patch, n) as b:
                    f = fill(b, src, step)
                    in_window.append(b.in_window)
            t = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
            f = comm.allreduce(f, op=MPI.MAX)
            if step:
                times[way].append(t)
                fills[way].append(f)
    ds.close()
    windows = comm.gather(all(in_window), root=0)
    if comm.rank == 0:
        shutil.rmtree(root, ignore_errors=True)
        med = {w: float(np.median(times[w])) for w in times}
        print(json.dumps({
            "ranks": comm.size, "mib_per_rank": round(n * row_bytes() / 2**20, 2), "particles_per_rank": n,
            "steps": a.steps, "median_s": med, "fill_median_s": {w: float(np.median(fills[w])) for w in fills},
            "buffers_over_write": med["buffers"] / med["write"], "in_window_per_rank": windows,
            "load_average": os.getloadavg()}))


if __name__ == "__main__":
    main()
