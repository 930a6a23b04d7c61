"""One MPI run of the particle write benchmark's ADIOS2-with-MPI peer (launched by
particle_write.py under mpiexec, with the MPI build of ADIOS2 first on PYTHONPATH: `make
bench-peers`).

The peer HPC codes use: ADIOS2 BP5 built with MPI against the same MPICH, in its default
configuration (BP5's default aggregation), all ranks writing one dataset collectively on
MPI.COMM_WORLD, one global array variable per field (each rank its block of rows at its offset).
Two ways, both timed: like the other baselines, an engine per timed step (open, one step, close),
so that step's output can be deleted before the next method runs ("adios2_mpi"); and as a
simulation uses it, one engine kept open for all repetitions of a configuration, a step per timed
write, closed untimed at the end ("adios2_mpi_open": its steps accumulate, lodex's and the others'
are deleted). lodex is compared with the faster of the two. With fsync every file of the dataset
is fsynced after the close or the step (ADIOS2 has no such call).

For each partition factor that fits this rank count's decomposition, with and without fsync, in
interleaved repetitions: lodex's collective write (its default path), ADIOS2 BP5 with MPI, and one
shared MPI-IO file (Write_at_all), the link to the main job's table. Rank 0 prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics

import numpy as np
from mpi4py import MPI

from bench_common import DECOMPOSITION, fresh_folder, import_adios2_mpi, remove_collectively, timed

adios2 = import_adios2_mpi()   # before anything else could import the serial wheel

import lodex   # noqa: E402
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah   # noqa: E402

FACTORS = [(1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2)]


def fsync_tree(path: str) -> None:
    for d, _, files in os.walk(path):
        for name in files:
            fd = os.open(os.path.join(d, name), os.O_RDONLY)
            os.fsync(fd)
            os.close(fd)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = DECOMPOSITION[size]
    patch = patch_of(rank, grid)
    data = {k: np.ascontiguousarray(v) for k, v in uintah(rank, args.particles, patch).items()}
    raw = b"".join(data[k].tobytes() for k in UINTAH_SCHEMA)
    counts = comm.allgather(args.particles)
    first, total = sum(counts[:rank]), sum(counts)
    total_bytes = comm.allreduce(len(raw))
    base = os.path.join(args.dir, f"a2np{size}")
    fresh_folder(comm, base)

    def cleanup(path):
        remove_collectively(comm, path)

    def adios2_mpi(i, fsync):
        path = os.path.join(base, f"adios-{i}.bp")
        ad = adios2.Adios(comm=comm)
        io = ad.declare_io("particles")
        io.set_engine("BP5")   # no parameter: ADIOS2's defaults
        var = {k: io.define_variable(k, a, [total, *a.shape[1:]], [first, *[0] * (a.ndim - 1)], list(a.shape))
               for k, a in data.items()}
        engine = io.open(path, adios2.Mode.Write)
        engine.begin_step()
        for k, a in data.items():
            engine.put(var[k], a)
        engine.end_step()
        engine.close()
        if fsync:
            comm.Barrier()
            if rank == 0:
                fsync_tree(path)

    class OpenEngine:
        """ADIOS2 as a simulation uses it: one engine for the run, a step per write (begin_step, a
        put per field, end_step); its steps accumulate in one dataset, closed untimed at the end."""

        def __init__(self, tag, fsync):
            self.path, self.fsync = os.path.join(base, f"adios-open-{tag}.bp"), fsync
            self.adios = adios2.Adios(comm=comm)   # kept: the engine dies with it
            io = self.adios.declare_io(f"open-{tag}")
            io.set_engine("BP5")   # ADIOS2's defaults
            self.var = {k: io.define_variable(k, a, [total, *a.shape[1:]], [first, *[0] * (a.ndim - 1)],
                                              list(a.shape)) for k, a in data.items()}
            self.engine = io.open(self.path, adios2.Mode.Write)

        def step(self):
            self.engine.begin_step()
            for k, a in data.items():
                self.engine.put(self.var[k], a)
            self.engine.end_step()
            if self.fsync:
                comm.Barrier()
                if rank == 0:
                    fsync_tree(self.path)

        def close(self):
            self.engine.close()
            cleanup(self.path)

    def mpiio(i, fsync):
        fh = MPI.File.Open(comm, os.path.join(base, f"shared-{i}.bin"), MPI.MODE_WRONLY | MPI.MODE_CREATE)
        fh.Write_at_all(rank * len(raw), raw)
        if fsync:
            fh.Sync()
        fh.Close()

    results = []
    for factor in FACTORS:
        if any(g % f for g, f in zip(grid, factor)):
            continue
        for fsync in (False, True):
            times = {"lodex": [], "adios2_mpi": [], "adios2_mpi_open": [], "mpiio_shared": []}
            opened = OpenEngine(f"{'x'.join(map(str, factor))}-{int(fsync)}", fsync)
            opened.step()   # warm-up, untimed
            path = os.path.join(base, "lodex.lodex")
            ds = lodex.create(path, comm=comm, fsync=fsync)
            g = ds.define_particles("uintah", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=factor)
            g.write(step=0, data=data, patch=patch)   # warm-up, untimed
            cleanup(os.path.join(path, "uintah", "step-000000000"))
            adios2_mpi(-1, fsync)
            cleanup(os.path.join(base, "adios--1.bp"))
            paths = set()
            for i in range(args.repeats):
                times["lodex"].append(timed(comm, lambda: g.write(step=i + 1, data=data, patch=patch)))
                paths.add(g.profile["path"])
                cleanup(os.path.join(path, "uintah", f"step-{i + 1:09d}"))
                times["adios2_mpi"].append(timed(comm, lambda: adios2_mpi(i, fsync)))
                subfiles = sorted(f for f in os.listdir(os.path.join(base, f"adios-{i}.bp")) if f.startswith("data."))
                cleanup(os.path.join(base, f"adios-{i}.bp"))
                times["adios2_mpi_open"].append(timed(comm, opened.step))
                times["mpiio_shared"].append(timed(comm, lambda: mpiio(i, fsync)))
                cleanup(os.path.join(base, f"shared-{i}.bin"))
            ds.close()
            cleanup(path)
            opened.close()
            med = {k: statistics.median(v) for k, v in times.items()}
            best = min(med["adios2_mpi"], med["adios2_mpi_open"])   # the peer at its faster use
            results.append({
                "ranks": size, "decomposition": grid, "partition": factor, "fsync": fsync,
                "lodex_path": sorted(paths), "adios2_subfiles": len(subfiles),
                "median_s": med, "min_s": {k: min(v) for k, v in times.items()},
                "max_s": {k: max(v) for k, v in times.items()},
                "throughput_gib_s": {k: total_bytes / v / 2**30 for k, v in med.items()},
                "lodex_vs_adios2_mpi": best / med["lodex"],
                "lodex_vs_adios2_mpi_per_step_engine": med["adios2_mpi"] / med["lodex"],
                "lodex_vs_adios2_mpi_open_engine": med["adios2_mpi_open"] / med["lodex"],
                "lodex_vs_mpiio_shared": med["mpiio_shared"] / med["lodex"],
            })
    if rank == 0:
        print(json.dumps({"ranks": size, "particles_per_rank": args.particles, "repeats": args.repeats,
                          "adios2": {"version": adios2.__version__, "mpi": bool(adios2.is_built_with_mpi),
                                     "module": adios2.__file__},
                          "results": results}))
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
