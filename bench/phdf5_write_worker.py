"""Parallel HDF5 baseline of the particle write benchmark, under the system's own MPI.

particle_write.py launches it with Debian's python3 under Debian's OpenMPI (`mpirun.openmpi`),
where Debian's `python3-h5py-mpi` (h5py on libhdf5-openmpi) works; lodex runs under its own
MPICH, so the two are compared through each one's ratio to raw file per process under its own
MPI. With and without fsync it times, in interleaved repetitions:

- parallel HDF5: all ranks write one shared file (h5py's `mpio` driver), a dataset per field of
  the schema with every rank's particles one after another in rank order, each rank writing its
  slice collectively (`dset.collective`); h5py's and HDF5's defaults otherwise. With fsync the
  file is flushed before it is closed (HDF5's MPI-IO driver then calls `MPI_File_sync`);
- raw file per process: each rank writes the same bytes to its own file (`os.write`), as in
  particle_write_worker.py.

Timing is particle_write_worker.py's: between two barriers (the slowest rank), each method's
files removed (untimed) before the next. The particles are the driver's: `--inputs` holds
`rank-<r>.npz` per rank, checked against `--schema` (JSON, field -> dtype or [dtype, width]),
so this process needs neither lodex nor its Python. Rank 0 prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys

import h5py
import numpy as np
from mpi4py import MPI

from bench_common import timed, write_file

METHODS = ("raw_fpp", "phdf5_collective")


def field_spec(name: str, spec) -> tuple[np.dtype, tuple[int, ...]]:
    """(dtype, per-particle shape) of one schema entry: "f8" or ["f8", 3]."""
    if isinstance(spec, str):
        return np.dtype(spec), ()
    if isinstance(spec, list) and len(spec) == 2 and isinstance(spec[1], int) and spec[1] > 0:
        return np.dtype(spec[0]), (spec[1],)
    raise SystemExit(f"schema field {name!r}: expected a dtype or [dtype, width], got {spec!r}")


def load_particles(inputs: str, rank: int, schema: dict) -> dict[str, np.ndarray]:
    """This rank's arrays, each checked against its schema entry; all fields the same length."""
    path = os.path.join(inputs, f"rank-{rank}.npz")
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    if sorted(data) != sorted(schema):
        raise SystemExit(f"{path}: fields {sorted(data)} differ from the schema's {sorted(schema)}")
    counts = set()
    for name, spec in schema.items():
        dtype, tail = field_spec(name, spec)
        a = data[name]
        if a.dtype != dtype or a.shape[1:] != tail:
            raise SystemExit(f"{path}: field {name!r} is {a.dtype} {a.shape}, the schema says {dtype} (n,)+{tail}")
        counts.add(a.shape[0])
    if len(counts) != 1:
        raise SystemExit(f"{path}: fields have different particle counts {sorted(counts)}")
    return data


def write_phdf5(path: str, comm, schema: dict, data: dict, offset: int, total: int, fsync: bool) -> None:
    """One shared file, a dataset per field, this rank's slice written collectively."""
    n = len(next(iter(data.values())))
    with h5py.File(path, "w", driver="mpio", comm=comm) as f:
        for name, spec in schema.items():
            dtype, tail = field_spec(name, spec)
            dset = f.create_dataset(name, shape=(total, *tail), dtype=dtype)
            with dset.collective:
                dset[offset:offset + n] = data[name]
        if fsync:
            f.flush()


def run(args, comm) -> dict:
    rank, size = comm.rank, comm.size
    schema = json.loads(args.schema)
    data = load_particles(args.inputs, rank, schema)
    n = len(next(iter(data.values())))
    counts = comm.allgather(n)
    offset, total = sum(counts[:rank]), sum(counts)
    raw = b"".join(np.ascontiguousarray(data[k]).tobytes() for k in schema)
    total_bytes = comm.allreduce(len(raw))
    base = os.path.join(args.dir, f"phdf5-np{size}")
    if rank == 0:
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
    comm.Barrier()

    def remove_shared(path):
        comm.Barrier()
        if rank == 0:
            os.remove(path)
        comm.Barrier()

    results = []
    for fsync in (False, True):
        times = {m: [] for m in METHODS}
        for i in range(args.repeats):
            last = args.keep and fsync and i == args.repeats - 1
            raw_path = os.path.join(base, f"raw-{rank}-{i}.bin")
            times["raw_fpp"].append(timed(comm, lambda: write_file(raw_path, raw, fsync)))
            if not last:
                os.remove(raw_path)
            h5_path = os.path.join(base, f"shared-{i}.h5")
            times["phdf5_collective"].append(
                timed(comm, lambda: write_phdf5(h5_path, comm, schema, data, offset, total, fsync)))
            if not last:
                remove_shared(h5_path)
        med = {k: statistics.median(v) for k, v in times.items()}
        results.append({
            "ranks": size, "fsync": fsync, "files": {"raw_fpp": size, "phdf5_collective": 1},
            "median_s": med, "min_s": {k: min(v) for k, v in times.items()},
            "max_s": {k: max(v) for k, v in times.items()},
            "throughput_gib_s": {k: total_bytes / v / 2**30 for k, v in med.items()},
            "phdf5_vs_raw": med["raw_fpp"] / med["phdf5_collective"],
        })
    if rank == 0 and not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return {"ranks": size, "particles_per_rank": n, "bytes_per_rank": len(raw), "repeats": args.repeats,
            "mpi": MPI.Get_library_version().replace("\x00", "").splitlines()[0].strip(), "h5py": h5py.version.version,
            "hdf5": h5py.version.hdf5_version, "numpy": np.__version__, "results": results}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True, help="where to write (a folder phdf5-np<ranks> in it)")
    ap.add_argument("--inputs", required=True, help="folder of rank-<r>.npz, one per rank")
    ap.add_argument("--schema", required=True, help='JSON: {"field": "f8" or ["f8", 3], ...}')
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the last fsync repetition's files")
    args = ap.parse_args()
    try:
        if not h5py.get_config().mpi:   # Debian's h5py falls back to its serial build silently
            raise SystemExit("h5py here has no MPI: run under mpirun.openmpi with python3-h5py-mpi installed")
        if args.repeats < 1:
            raise SystemExit("--repeats must be >= 1")
        out = run(args, MPI.COMM_WORLD)
    except SystemExit as e:   # one rank's bad input must end the job, not leave the others waiting
        sys.stderr.write(f"phdf5_write_worker rank {MPI.COMM_WORLD.rank}: {e}\n")
        sys.stderr.flush()
        MPI.COMM_WORLD.Abort(2)
    if MPI.COMM_WORLD.rank == 0:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
