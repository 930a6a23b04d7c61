"""Writes one step of N VPIC-like electrons (lodex.workloads.vpic) with every rank of
MPI.COMM_WORLD, for bench/plot.py: the dataset, and beside it each rank's positions as a raw .npy
file (the baseline's input). Each rank builds its share in chunks of about 10^6 particles (the
chunks are the workload's "ranks" of a finer decomposition) into preallocated columns, so the
memory peak is the step itself. Rank 0 prints one JSON line: particles, bytes, seconds, the
largest resident set of any rank."""

from __future__ import annotations

import json
import os
import resource
import sys
import time

import numpy as np
from mpi4py import MPI

import lodex
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, vpic

CHUNK = 1 << 20


def _empty(spec, n: int) -> np.ndarray:
    dtype, comps = (spec, 1) if isinstance(spec, str) else spec
    return np.empty((n, comps) if comps > 1 else n, dtype=dtype)


def columns(rank: int, size: int, n: int) -> dict[str, np.ndarray]:
    """This rank's n particles: chunks k of a decomposition into size * per_rank workload ranks."""
    per_rank = max(1, -(-n // CHUNK))
    out = {k: _empty(spec, n) for k, spec in VPIC_SCHEMA.items()}
    at = 0
    for j in range(per_rank):
        m = n // per_rank + (1 if j < n % per_rank else 0)
        part, _ = vpic(rank * per_rank + j, size * per_rank, m, seed=1)
        for k in out:
            out[k][at:at + m] = part[k]
        at += m
    return out


def main(path: str, total: int) -> None:
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    n = total // size + (1 if rank < total % size else 0)
    t0 = time.perf_counter()
    data = columns(rank, size, n)
    np.save(os.path.join(os.path.dirname(path), f"positions_{rank}.npy"), data["position"])
    gen_s = time.perf_counter() - t0
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition_grid=(4, 4, 2))
    comm.Barrier()
    t0 = time.perf_counter()
    g.write(0, data=data)
    comm.Barrier()
    write_s = time.perf_counter() - t0
    ds.close()
    rss = comm.gather(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, root=0)
    if rank == 0:
        files = [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]
        print(json.dumps({"particles": total, "ranks": size, "generate_s": gen_s, "write_s": write_s,
                          "bytes": sum(os.path.getsize(f) for f in files), "files": len(files),
                          "max_rss_kib_per_rank": max(rss), "max_rss_kib_sum": sum(rss)}))


if __name__ == "__main__":
    main(sys.argv[1], int(float(sys.argv[2])))
