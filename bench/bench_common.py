"""What the benchmark drivers share: running an MPI worker that prints its JSON result as the
last line of stdout, and a record of the machine and versions a result was measured on."""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import time

MPIEXEC = os.path.join(sys.prefix, "bin", "mpiexec")
HERE = os.path.dirname(os.path.abspath(__file__))


def find_bench_binary(name: str) -> str | None:
    """A C++ micro benchmark of the Release build (make build puts it in build/py; never the
    sanitizer build), or None when there is no build tree."""
    import glob
    hits = [p for p in glob.glob(os.path.join(HERE, "..", "build", "*", "bench", name)) if "asan" not in p]
    preferred = [p for p in hits if os.sep + "py" + os.sep in p]
    return (preferred or sorted(hits, key=os.path.getmtime) or [None])[-1]

# The system's own MPI stack (Debian's OpenMPI, python3, and python3-h5py-mpi built on it), for
# baselines a user of the distribution runs (bench/phdf5_write_worker.py). lodex never uses it.
DEBIAN_MPIRUN = "/usr/bin/mpirun.openmpi"
DEBIAN_PYTHON = "/usr/bin/python3"

# Rank grid of the particle benchmarks' patch decomposition, by rank count.
DECOMPOSITION = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2)}


def timed(comm, fn) -> float:
    """Seconds of fn() on the slowest rank of comm (mpi4py): between two barriers."""
    comm.Barrier()
    t0 = time.perf_counter()
    fn()
    comm.Barrier()
    return time.perf_counter() - t0


def write_file(path: str, data: bytes, fsync: bool) -> None:
    """What a rank of a file-per-process code does (IOR-like): create, write all, fsync if asked."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    if fsync:
        os.fsync(fd)
    os.close(fd)


def debian_mpi_job(n: int, script: str, args: list[str]) -> tuple[list[str], dict]:
    """Command and environment running ``script`` with Debian's python3 on ``n`` ranks of Debian's
    OpenMPI: none of the venv's paths leak in (its MPICH, numpy or h5py), and OpenMPI may run as
    root and put more ranks than cores on this machine."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LD_LIBRARY_PATH", "LD_PRELOAD")
           and not k.startswith(("MPICH_", "MPIR_", "PMI_", "HYDRA_"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    return [DEBIAN_MPIRUN, "-n", str(n), DEBIAN_PYTHON, script, *args], env


def run_json(cmd: list[str], timeout: float, env: dict | None = None) -> dict:
    """Run a worker; its result is the last line of stdout. Stderr is shown on failure."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-4000:] + p.stderr[-8000:])
        raise SystemExit(f"worker failed ({p.returncode}): {' '.join(cmd)}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    out["_wall_s"] = time.perf_counter() - t0
    return out


def environment(work: str) -> dict:
    env = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "work_dir": work,
        "loadavg_start": os.getloadavg(),
    }
    try:
        with open("/proc/meminfo") as f:
            env["mem_total_kib"] = int(f.readline().split()[1])
    except (OSError, ValueError, IndexError):
        pass
    try:
        import numpy
        import lodex
        from mpi4py import MPI
        env.update(numpy=numpy.__version__, lodex=lodex.__version__,
                   mpi=MPI.Get_library_version().splitlines()[0].strip())
    except Exception as e:   # noqa: BLE001 - informational only
        env["versions_error"] = repr(e)
    return env
