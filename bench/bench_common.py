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


def timed(comm, fn) -> float:
    """Seconds of fn() on the slowest rank of comm (mpi4py): between two barriers."""
    comm.Barrier()
    t0 = time.perf_counter()
    fn()
    comm.Barrier()
    return time.perf_counter() - t0


def run_json(cmd: list[str], timeout: float) -> dict:
    """Run a worker; its result is the last line of stdout. Stderr is shown on failure."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
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
