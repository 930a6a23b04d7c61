"""One MPI run of the C API write benchmark (launched by capi_write.py under mpiexec).

The Uintah workload written step after step into three datasets, one through the Python API, one
through the C API of the installed liblodex.so (called with ctypes on the very same numpy
buffers, the communicator passed as its Fortran handle to lodex_dataset_create_f), and one
through the C API's zero-copy input (lodex_particles_buffers: the rows copied from the numpy
arrays into the buffers, which a code computing into them would not do, then
lodex_buffers_commit; the copy's time is reported apart), in interleaved repetitions after an
untimed warm-up step each. Every timed step is bracketed by
barriers and its files deleted afterwards (untimed), so both write into an equally empty file
system. Rank 0 prints one JSON object.
"""

from __future__ import annotations

import argparse
import ctypes as C
import json
import os
import shutil
import statistics
import time

import numpy as np
from mpi4py import MPI

import lodex
from bench_common import timed
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

DECOMPOSITION = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2)}
DTYPES = {"f4": 1, "f8": 2, "i1": 3, "u1": 4, "i2": 5, "u2": 6, "i4": 7, "u4": 8, "i8": 9, "u8": 10}


class FieldDef(C.Structure):
    _fields_ = [("name", C.c_char_p), ("dtype", C.c_int32), ("components", C.c_uint32)]


class FieldData(C.Structure):
    _fields_ = [("name", C.c_char_p), ("dtype", C.c_int32), ("components", C.c_uint32), ("rows", C.c_uint64),
                ("data", C.c_void_p)]


class Partition(C.Structure):
    _fields_ = [("mode", C.c_int32), ("dims", C.c_uint32 * 3), ("particles_per_file", C.c_uint64)]


class WriteProfile(C.Structure):
    _fields_ = [("step", C.c_int64), ("ranks", C.c_int32), ("aggregators", C.c_uint32), ("files", C.c_uint32),
                ("particles", C.c_uint64), ("bytes", C.c_uint64), ("total_s", C.c_double)]


class CApi:
    """The few C calls the benchmark needs, each checked."""

    def __init__(self, path: str):
        self.lib = C.CDLL(path)
        self.lib.lodex_last_error.restype = C.c_char_p
        self.lib.lodex_version.restype = C.c_char_p

    def __call__(self, name: str, *args) -> None:
        rc = getattr(self.lib, name)(*args)
        if rc != 0:
            raise RuntimeError(f"{name}: {self.lib.lodex_last_error().decode()} (status {rc})")


def schema_of(schema: dict) -> list[tuple[str, str, int]]:
    return [(k, v, 1) if isinstance(v, str) else (k, v[0], v[1]) for k, v in schema.items()]


def summary(v: list[float]) -> dict:
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "all": v}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--lib", required=True, help="the installed liblodex.so")
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--partition", default="2,2,2")
    args = ap.parse_args()
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = DECOMPOSITION[size]
    factor = tuple(int(x) for x in args.partition.split(","))
    patch = patch_of(rank, grid)
    data = {k: np.ascontiguousarray(v) for k, v in uintah(rank, args.particles, patch).items()}
    total_bytes = comm.allreduce(sum(a.nbytes for a in data.values()))
    base = os.path.join(args.dir, f"capi-np{size}")
    if rank == 0:
        shutil.rmtree(base, ignore_errors=True)
        os.makedirs(base)
    comm.Barrier()

    def cleanup(path):
        comm.Barrier()
        if rank == 0:
            shutil.rmtree(path, ignore_errors=True)
        comm.Barrier()

    # The Python API.
    py_path = os.path.join(base, "python.lodex")
    ds = lodex.create(py_path, comm=comm)
    g = ds.define_particles("uintah", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=factor)

    # The C API on the same buffers.
    api = CApi(args.lib)
    c_path = os.path.join(base, "c.lodex")
    cds = C.c_void_p()
    api("lodex_dataset_create_f", c_path.encode(), C.c_int(comm.py2f()), C.c_uint(0), C.byref(cds))
    fields = schema_of(UINTAH_SCHEMA)
    defs = (FieldDef * len(fields))(*[FieldDef(n.encode(), DTYPES[d], c) for n, d, c in fields])
    domain = (C.c_double * 6)(0, 0, 0, 1, 1, 1)
    part = Partition(0, (C.c_uint32 * 3)(*factor), 0)
    cg = C.c_void_p()
    api("lodex_particles_define", cds, b"uintah", defs, C.c_size_t(len(fields)), domain, C.byref(part), None,
        C.byref(cg))
    views = (FieldData * len(fields))(*[
        FieldData(n.encode(), DTYPES[d], c, data[n].shape[0], data[n].ctypes.data) for n, d, c in fields])
    cpatch = (C.c_double * 6)(*patch[0], *patch[1])

    def c_write(step):
        api("lodex_particles_write", cg, C.c_int64(step), views, C.c_size_t(len(fields)), cpatch)

    # The C API's zero-copy input, in a dataset of its own.
    b_path = os.path.join(base, "buffers.lodex")
    bds, bg = C.c_void_p(), C.c_void_p()
    api("lodex_dataset_create_f", b_path.encode(), C.c_int(comm.py2f()), C.c_uint(0), C.byref(bds))
    api("lodex_particles_define", bds, b"uintah", defs, C.c_size_t(len(fields)), domain, C.byref(part), None,
        C.byref(bg))
    fill_s, in_window = [], []

    def buffers_write(step):
        b = C.c_void_p()
        n = data[fields[0][0]].shape[0]
        api("lodex_particles_buffers", bg, C.c_int64(step), C.c_uint64(n), cpatch, C.c_uint(0), C.byref(b))
        t0 = time.perf_counter()
        for name, d, c in fields:   # what a code computing into the buffers does not do
            ptr = C.c_void_p()
            api("lodex_buffers_field", b, name.encode(), C.c_int32(DTYPES[d]), C.c_uint32(c), C.byref(ptr))
            C.memmove(ptr, data[name].ctypes.data, data[name].nbytes)
        fill_s.append(time.perf_counter() - t0)
        w = C.c_int()
        api("lodex_buffers_in_window", b, C.byref(w))
        in_window.append(w.value)
        api("lodex_buffers_commit", b)
        api("lodex_buffers_free", b)

    def py_write(step):
        g.write(step=step, data=data, patch=patch)

    times = {"python": [], "c": [], "c_buffers": []}
    profiles = {"python": [], "c": [], "c_buffers": []}
    prof = WriteProfile()
    order = ("python", "c", "c_buffers")
    for step in range(args.repeats + 1):   # step 0: untimed warm-up of each
        for method in order[step % 3:] + order[:step % 3]:
            if method == "c_buffers":
                t = timed(comm, lambda: buffers_write(step))
                api("lodex_particles_profile", bg, C.byref(prof), None)
                profiles["c_buffers"].append(prof.total_s)
                cleanup(os.path.join(b_path, "uintah", f"step-{step:09d}"))
            elif method == "python":
                t = timed(comm, lambda: py_write(step))
                profiles["python"].append(g.profile["total_s"])
                cleanup(os.path.join(py_path, "uintah", f"step-{step:09d}"))
            else:
                t = timed(comm, lambda: c_write(step))
                api("lodex_particles_profile", cg, C.byref(prof), None)
                profiles["c"].append(prof.total_s)
                cleanup(os.path.join(c_path, "uintah", f"step-{step:09d}"))
            if step > 0:
                times[method].append(t)
    ds.close()
    api("lodex_dataset_close", cds)
    api("lodex_dataset_close", bds)
    fill_max = [max(v) for v in zip(*comm.allgather(fill_s[1:]))]   # per step, the slowest rank's copy
    windowed = comm.allreduce(sum(in_window[1:]))
    if rank == 0:
        med = {k: statistics.median(v) for k, v in times.items()}
        print(json.dumps({
            "ranks": size, "decomposition": grid, "partition": factor, "particles_per_rank": args.particles,
            "bytes_per_step": total_bytes, "repeats": args.repeats, "library": args.lib,
            "library_version": api.lib.lodex_version().decode(),
            "seconds": {k: summary(v) for k, v in times.items()},
            "profile_total_s": {k: summary(v[1:]) for k, v in profiles.items()},
            "throughput_gib_s": {k: total_bytes / v / 2**30 for k, v in med.items()},
            "c_over_python_time": med["c"] / med["python"],
            "c_buffers_fill_s": summary(fill_max),
            "c_buffers_ranks_in_window": windowed / args.repeats,
            "c_buffers_over_c_time": med["c_buffers"] / med["c"],
        }))
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
