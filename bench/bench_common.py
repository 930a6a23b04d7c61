"""What the benchmark drivers share: running an MPI worker that prints its JSON result as the
last line of stdout, a record of the machine and versions a result was measured on, evicting
files from the page cache with a check that they left it (cold runs), and the charts' bars."""

from __future__ import annotations

import ctypes
import datetime
import json
import os
import shutil
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

# ADIOS2 built WITH MPI against the venv's MPICH (`make bench-peers`: scripts/build-adios2-mpi.sh),
# installed apart from PyPI's serial adios2 wheel, which stays in the venv: both modules are named
# adios2, so which one `import adios2` gets depends on sys.path (bench/adios2_mpi_check.py).
ADIOS2_MPI_PREFIX = os.path.join(sys.prefix, "opt", "adios2-mpi")


def adios2_mpi_path(prefix: str = ADIOS2_MPI_PREFIX) -> str:
    """The site-packages directory of the MPI-built adios2 module. Put it first on sys.path before
    the process first imports adios2 (``sys.path.insert(0, adios2_mpi_path())``), or give a worker
    ``adios2_mpi_env()``; then ``adios2.is_built_with_mpi`` is True and ``adios2.Adios(comm=...)``
    takes an mpi4py communicator. Raises FileNotFoundError, naming `make bench-peers`, when it is
    not built (the build's stamp file or the module is missing)."""
    site = os.path.join(prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages")
    if not (os.path.isfile(os.path.join(prefix, ".build-ok"))
            and os.path.isfile(os.path.join(site, "adios2", "__init__.py"))):
        raise FileNotFoundError(f"ADIOS2 with MPI is not built in {prefix}: run `make bench-peers` "
                                "(scripts/build-adios2-mpi.sh, about 12 minutes on 2 cores)")
    return site


def adios2_mpi_env(env: dict | None = None) -> dict:
    """A copy of ``env`` (default os.environ) whose PYTHONPATH starts with adios2_mpi_path(), for
    launching a worker (under the venv's mpiexec) that imports the MPI-built adios2."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (adios2_mpi_path(), env.get("PYTHONPATH")) if p)
    return env


def import_adios2_mpi():
    """Imports and returns the MPI-built adios2 module (see adios2_mpi_path); raises RuntimeError
    when this process already imported another adios2 (the serial wheel), which cannot be swapped."""
    site = adios2_mpi_path()
    loaded = sys.modules.get("adios2")
    if loaded is None:
        sys.path.insert(0, site)
        import adios2 as loaded
    if not os.path.realpath(loaded.__file__).startswith(os.path.realpath(site) + os.sep):
        raise RuntimeError(f"adios2 was already imported from {loaded.__file__}, not {site}: "
                           "import the MPI build before anything imports adios2")
    if not loaded.is_built_with_mpi:
        raise RuntimeError(f"{loaded.__file__} is not built with MPI")
    return loaded


# Rank grid of the particle benchmarks' patch decomposition, by rank count.
DECOMPOSITION = {1: (1, 1, 1), 2: (1, 1, 2), 4: (1, 2, 2), 8: (2, 2, 2)}


def timed(comm, fn) -> float:
    """Seconds of fn() on the slowest rank of comm (mpi4py): between two barriers."""
    comm.Barrier()
    t0 = time.perf_counter()
    fn()
    comm.Barrier()
    return time.perf_counter() - t0


def fresh_folder(comm, path: str) -> None:
    """Collective: `path` made empty by rank 0 (removed if it exists, then created)."""
    if comm.rank == 0:
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
    comm.Barrier()


def remove_collectively(comm, path: str) -> None:
    """Collective: rank 0 removes a file or a folder once every rank is done with it (untimed
    cleanup between a benchmark's methods)."""
    comm.Barrier()
    if comm.rank == 0:
        if os.path.isdir(path):
            shutil.rmtree(path, ignore_errors=True)
        elif os.path.exists(path):
            os.remove(path)
    comm.Barrier()


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


# ---------------------------------------------------------------------------------------------
# Page cache: cold runs


class PageCache:
    """Evicts files from the page cache: writes 3 to /proc/sys/vm/drop_caches (whole machine),
    or else posix_fadvise(POSIX_FADV_DONTNEED) on every given file; os.sync() first either way
    (only clean pages can be dropped). mincore() tells how much of a file is resident."""

    def __init__(self, method: str):
        self.method = method
        self.drops = 0
        self._libc = None

    def drop(self, paths) -> None:
        if self.method == "none":
            return
        os.sync()
        if self.method == "drop_caches":
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
        else:
            for p in paths:
                fd = os.open(p, os.O_RDONLY)
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(fd)
        self.drops += 1

    def resident_fraction(self, paths) -> float | None:
        """Share of the files' pages in the page cache (mincore), or None if unavailable."""
        try:
            if self._libc is None:
                libc = ctypes.CDLL(None, use_errno=True)
                libc.mmap.restype = ctypes.c_void_p
                libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_int, ctypes.c_long]
                libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
                libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_ubyte)]
                self._libc = libc
            libc, page = self._libc, os.sysconf("SC_PAGE_SIZE")
            total = resident = 0
            for p in paths:
                size = os.path.getsize(p)
                if size == 0:
                    continue
                fd = os.open(p, os.O_RDONLY)
                try:
                    addr = libc.mmap(None, size, 1, 1, fd, 0)   # PROT_READ, MAP_SHARED
                    if addr in (None, ctypes.c_void_p(-1).value):
                        return None
                    pages = (size + page - 1) // page
                    vec = (ctypes.c_ubyte * pages)()
                    rc = libc.mincore(addr, size, vec)
                    libc.munmap(addr, size)
                    if rc != 0:
                        return None
                    resident += sum(v & 1 for v in vec)
                    total += pages
                finally:
                    os.close(fd)
            return resident / total if total else None
        except (OSError, AttributeError):
            return None


# A cold round is a figure only if at most this share of its files' pages stayed resident.
COLD_RESIDENT_LIMIT = 0.01


class NotColdError(RuntimeError):
    """The files of a cold round were still in the page cache after eviction (or residency could
    not be checked): the round is an error, not a figure."""


def files_under(folder: str) -> list[str]:
    return [os.path.join(r, f) for r, _, fs in os.walk(folder) for f in fs]


def evict(paths, methods=("drop_caches", "fadvise")) -> tuple[str, float]:
    """Evicts the files from the page cache by the first of `methods` this process may use
    ("drop_caches": the whole machine; "fadvise": posix_fadvise(DONTNEED) on each file; "none":
    nothing, which only a test of this check wants) and checks with mincore that they left it.
    Returns the method and the share of the files' pages still resident; raises NotColdError
    when more than COLD_RESIDENT_LIMIT stayed, or when mincore cannot tell."""
    for method in methods:
        cache = PageCache(method)
        try:
            cache.drop(paths)
        except OSError:
            continue
        resident = cache.resident_fraction(paths)
        if resident is None:
            raise NotColdError("the files' residency cannot be measured (mincore failed, or they hold no data): "
                               "the eviction cannot be checked, so no cold figure")
        if resident > COLD_RESIDENT_LIMIT:
            raise NotColdError(f"{resident:.1%} of the files stayed in the page cache after {method}: not cold")
        return method, resident
    raise NotColdError(f"none of {', '.join(methods)} could evict the files: no cold figure")


# ---------------------------------------------------------------------------------------------
# Charts (matplotlib, Agg: no display)


def chart_path(json_path: str) -> str:
    """Where a benchmark's chart goes: next to its JSON, same name, .png."""
    return os.path.splitext(json_path)[0] + ".png"


def figure(rows: int, cols: int, size: tuple[float, float]):
    """A figure and its axes (a rows x cols list of lists), drawn without a display."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    fig = Figure(figsize=size, layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes


def spread(runs) -> tuple[float, float, float]:
    """Median, min and max of a list of timings."""
    import statistics
    return statistics.median(runs), min(runs), max(runs)


def grouped_bars(ax, groups: list[str], series: dict, scale: float = 1.0, log: bool = False) -> None:
    """Bars of each series (label -> one value per group: (median, min, max), drawn with whiskers
    from min to max, or a plain number, or None where it has none) side by side per group,
    values times `scale`."""
    import numpy as np
    width = 0.8 / max(len(series), 1)
    x = np.arange(len(groups))
    for j, (label, vals) in enumerate(series.items()):
        have = [k for k, v in enumerate(vals) if v is not None]
        trio = np.array([vals[k] if isinstance(vals[k], (tuple, list)) else (vals[k],) * 3 for k in have],
                        dtype=float).reshape(-1, 3) * scale
        med, lo, hi = trio.T
        whiskers = {"yerr": [med - lo, hi - med], "capsize": 2, "error_kw": {"lw": 0.8}} if (hi > lo).any() else {}
        ax.bar(x[have] + bar_offset(j, len(series)), med, width, label=label, **whiskers)
    ax.set_xticks(x, groups, rotation=25, ha="right", fontsize=8)
    if log:
        ax.set_yscale("log")


def bar_offset(j: int, n: int) -> float:
    """Where grouped_bars puts the j-th of n series, from its group's centre."""
    return (j - (n - 1) / 2) * 0.8 / max(n, 1)


def goal_marks(ax, ys, label: str, series: int = 0, of: int = 1) -> None:
    """A goal that differs from group to group: a black dash over the `series`-th of `of` bars
    of each group of grouped_bars."""
    ax.scatter([k + bar_offset(series, of) for k in range(len(ys))], ys, marker="_", s=400, color="k",
               zorder=3, label=label)


def goal_line(ax, y: float, label: str) -> None:
    ax.axhline(y, color="k", ls="--", lw=0.9, label=label)


def redraw(json_path: str, chart) -> None:
    """--chart-only: the chart drawn again from a benchmark's saved JSON, without running it."""
    import json
    try:
        with open(json_path) as f:
            results = json.load(f)
    except FileNotFoundError:
        raise SystemExit(f"--chart-only: no results at {json_path}: run the benchmark first") from None
    chart(results, chart_path(json_path))
    print(f"wrote {chart_path(json_path)}")
