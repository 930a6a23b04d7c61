"""One MPI run of the particle write benchmark (launched by particle_write.py under mpiexec).

For each partition factor that fits this rank count's decomposition, and with and without
fsync, it times in interleaved repetitions: lodex's collective write (the default: a partition's
ranks on one node write its file together; and the paper's single aggregator per partition with
point-to-point messages, exchange="p2p"), raw file per process
(IOR-like: each rank writes the same bytes to its own file), one shared file through MPI-IO
(collective Write_at_all and independent Write_at), h5py one file per rank (a dataset per
field, h5py's defaults) and ADIOS2 BP5 one engine per rank (PyPI's adios2 wheel has no MPI, so
each rank writes its own BP5 dataset, a variable per field, in ADIOS2's default configuration;
with fsync every file of it is fsynced after the engine closes, as ADIOS2 has no such call).
Rank 0 prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics

import adios2
import h5py
import numpy as np
from mpi4py import MPI

import lodex
from bench_common import DECOMPOSITION, remove_collectively, timed, write_file
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

FACTORS = [(1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = DECOMPOSITION.get(size)
    if grid is None:
        raise SystemExit(f"no decomposition for {size} ranks; use 1, 2, 4 or 8")
    patch = patch_of(rank, grid)
    data = uintah(rank, args.particles, patch)
    raw = b"".join(np.ascontiguousarray(data[k]).tobytes() for k in UINTAH_SCHEMA)
    bytes_per_rank = len(raw)
    total_bytes = comm.allreduce(bytes_per_rank)
    base = os.path.join(args.dir, f"np{size}")
    if rank == 0:
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
    comm.Barrier()

    results = []
    for factor in FACTORS:
        if any(g % f for g, f in zip(grid, factor)):
            continue
        for fsync in (False, True):
            times = {"lodex": [], "lodex_p2p": [], "raw_fpp": [], "mpiio_shared": [], "mpiio_independent": [],
                     "h5py_fpp": [], "adios2_fpp": []}
            profiles, profiles_p2p = [], []

            def raw_fpp(i):
                write_file(os.path.join(base, f"raw-{rank}-{i}.bin"), raw, fsync)

            def mpiio(i, collective=True):
                name = f"shared-{i}.bin" if collective else f"indep-{i}.bin"
                fh = MPI.File.Open(comm, os.path.join(base, name), MPI.MODE_WRONLY | MPI.MODE_CREATE)
                (fh.Write_at_all if collective else fh.Write_at)(rank * bytes_per_rank, raw)
                if fsync:
                    fh.Sync()
                fh.Close()

            def h5py_fpp(i):   # what a user of h5py writes: one file per rank, a dataset per field
                with h5py.File(os.path.join(base, f"h5-{rank}-{i}.h5"), "w") as f:
                    for k in UINTAH_SCHEMA:
                        f.create_dataset(k, data=data[k])
                    f.flush()
                    if fsync:
                        os.fsync(f.id.get_vfd_handle())

            def adios2_fpp(i):   # ADIOS2 BP5, one engine (and dataset directory) per rank
                path = os.path.join(base, f"adios-{rank}-{i}.bp")
                with adios2.Stream(path, "w") as s:
                    s.begin_step()
                    for k in UINTAH_SCHEMA:
                        a = np.ascontiguousarray(data[k])
                        s.write(k, a, list(a.shape), [0] * a.ndim, list(a.shape))
                    s.end_step()
                if fsync:
                    for name in os.listdir(path):
                        fd = os.open(os.path.join(path, name), os.O_RDONLY)
                        os.fsync(fd)
                        os.close(fd)

            def cleanup(path):
                remove_collectively(comm, path)

            # One dataset per method, written step after step as a simulation does (so lodex's
            # buffers are reused), with an untimed warm-up step. Each timed step's files are
            # deleted right after it (untimed), like the baselines' outputs: every method writes
            # into an equally empty file system.
            groups = {}
            for exchange in ("node", "p2p"):
                path = os.path.join(base, f"{exchange}.lodex")
                ds = lodex.create(path, comm=comm, fsync=fsync, exchange=exchange)
                g = ds.define_particles("uintah", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)),
                                        partition=factor)
                groups[exchange] = (ds, g, path)
                g.write(step=0, data=data, patch=patch)
                cleanup(os.path.join(path, "uintah", "step-000000000"))

            def lodex_write(i, exchange, profs):
                ds, g, path = groups[exchange]
                t = timed(comm, lambda: g.write(step=i + 1, data=data, patch=patch))
                profs.append(g.profile)
                cleanup(os.path.join(path, "uintah", f"step-{i + 1:09d}"))
                return t

            for i in range(args.repeats):
                times["raw_fpp"].append(timed(comm, lambda: raw_fpp(i)))
                os.remove(os.path.join(base, f"raw-{rank}-{i}.bin"))
                times["lodex"].append(lodex_write(i, "node", profiles))
                times["mpiio_shared"].append(timed(comm, lambda: mpiio(i)))
                cleanup(os.path.join(base, f"shared-{i}.bin"))
                times["lodex_p2p"].append(lodex_write(i, "p2p", profiles_p2p))
                times["mpiio_independent"].append(timed(comm, lambda: mpiio(i, collective=False)))
                cleanup(os.path.join(base, f"indep-{i}.bin"))
                times["h5py_fpp"].append(timed(comm, lambda: h5py_fpp(i)))
                os.remove(os.path.join(base, f"h5-{rank}-{i}.h5"))
                times["adios2_fpp"].append(timed(comm, lambda: adios2_fpp(i)))
                shutil.rmtree(os.path.join(base, f"adios-{rank}-{i}.bp"))
            for ds, _, path in groups.values():
                ds.close()
                cleanup(path)
            files = profiles[-1]["files"]
            med = {k: statistics.median(v) for k, v in times.items()}
            phases = {ph: statistics.median(p["phases"][ph]["max_s"] for p in profiles)
                      for ph in lodex.WriteProfile.PHASES}
            phases_p2p = {ph: statistics.median(p["phases"][ph]["max_s"] for p in profiles_p2p)
                          for ph in lodex.WriteProfile.PHASES}
            results.append({
                "ranks": size, "decomposition": grid, "partition": factor, "fsync": fsync,
                "lodex_path": sorted({p["path"] for p in profiles}),
                "files": {"lodex": files, "lodex_p2p": files, "raw_fpp": size, "mpiio_shared": 1,
                          "mpiio_independent": 1, "h5py_fpp": size, "adios2_fpp": size},
                "median_s": med,
                "throughput_gib_s": {k: total_bytes / v / 2**30 for k, v in med.items()},
                "lodex_vs_raw_throughput": med["raw_fpp"] / med["lodex"],
                "lodex_vs_mpiio_throughput": med["mpiio_shared"] / med["lodex"],
                "lodex_vs_best_shared_mpiio": min(med["mpiio_shared"], med["mpiio_independent"]) / med["lodex"],
                "lodex_vs_adios2_throughput": med["adios2_fpp"] / med["lodex"],
                "min_s": {k: min(v) for k, v in times.items()},
                "max_s": {k: max(v) for k, v in times.items()},
                "lodex_p2p_vs_raw_throughput": med["raw_fpp"] / med["lodex_p2p"],
                "lodex_phase_median_max_s": phases,
                "lodex_p2p_phase_median_max_s": phases_p2p,
                "lodex_bytes_on_disk_per_step": profiles[-1]["bytes"],
            })
    if rank == 0:
        print(json.dumps({"ranks": size, "particles_per_rank": args.particles,
                          "bytes_per_rank": bytes_per_rank, "repeats": args.repeats, "results": results}))
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
