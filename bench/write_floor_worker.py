"""The floor of a one-file aggregated particle write on this machine (launched by
particle_write.py under mpiexec, or alone): the parts a partition (2,2,2) step at 8 ranks cannot
avoid, each timed alone in interleaved repetitions, against one shared MPI-IO file of the same
bytes written in the same run.

- exchange: every other rank's columns (Uintah, 32,768 particles per rank) reach rank 0 with
  non-blocking point-to-point messages, the senders waiting politely (sleeping between tests), the
  receiver polling: what any aggregation that moves the bytes to one writer pays;
- one_writer: rank 0 alone writes the step's bytes into one new file with one pwrite: a file has
  one writer (and the file system serializes writers to one file anyway);
- mpiio_shared: every rank writes its own bytes into one shared file with Write_at_all.

Rank 0 prints one JSON object: medians, minima and maxima in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np
from mpi4py import MPI

from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

DECOMPOSITION = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=9)
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    data = uintah(rank, args.particles, patch_of(rank, DECOMPOSITION[size]))
    cols = [np.ascontiguousarray(data[k]).view(np.uint8).reshape(-1) for k in UINTAH_SCHEMA]
    mine = b"".join(c.tobytes() for c in cols)
    pieces = comm.gather(mine, root=0)   # collective: every rank calls it
    step = np.frombuffer(b"".join(pieces), dtype=np.uint8) if rank == 0 else None
    recv = [[np.empty_like(c) for c in cols] for _ in range(size)] if rank == 0 else None
    total = comm.allreduce(len(mine))

    def exchange():
        reqs = []
        if rank == 0:
            for src in range(1, size):
                for f, buf in enumerate(recv[src]):
                    reqs.append(comm.Irecv(buf, source=src, tag=f))
            MPI.Request.Waitall(reqs)
        else:
            reqs = [comm.Isend(c, dest=0, tag=f) for f, c in enumerate(cols)]
            while not MPI.Request.Testall(reqs):
                time.sleep(0.0001)

    def one_writer(i):
        if rank == 0:
            fd = os.open(os.path.join(args.dir, f"one-{i}.bin"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            view = memoryview(step)
            while view:
                view = view[os.write(fd, view):]
            os.close(fd)

    def mpiio(i):
        fh = MPI.File.Open(comm, os.path.join(args.dir, f"shared-{i}.bin"), MPI.MODE_WRONLY | MPI.MODE_CREATE)
        fh.Write_at_all(rank * len(mine), mine)
        fh.Close()

    times = {"exchange": [], "one_writer": [], "mpiio_shared": []}

    def timed(name, fn):
        comm.Barrier()
        t0 = time.perf_counter()
        fn()
        comm.Barrier()
        times[name].append(time.perf_counter() - t0)

    for i in range(args.repeats):
        timed("exchange", exchange)
        timed("one_writer", lambda: one_writer(i))
        timed("mpiio_shared", lambda: mpiio(i))
        comm.Barrier()
        if rank == 0:
            for name in (f"one-{i}.bin", f"shared-{i}.bin"):
                os.remove(os.path.join(args.dir, name))
    if rank == 0:
        out = {k: {"median_s": statistics.median(v), "min_s": min(v), "max_s": max(v)} for k, v in times.items()}
        print(json.dumps({"ranks": size, "bytes": total, "repeats": args.repeats, "floor": out}))


if __name__ == "__main__":
    main()
