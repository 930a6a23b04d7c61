"""Calibration of the STAR coordination constants (Tian et al. 2013, §III-D; docs/series.md).

OptSize = BW_io x (CC + Ts) chooses how many steps (d_tar) and how many levels of neighbouring
ranks (d_sar) a series aggregates. :func:`calibrate` measures the three on the target file
system instead of taking the Lustre-like defaults:

- **BW_io and Ts** (rank 0): a scratch file of ``size`` bytes in ``directory`` is written and
  fsynced, then read back with requests of growing size (4 KiB .. 16 MiB) at random, aligned,
  non-overlapping offsets, its pages evicted from the page cache (``posix_fadvise``) before each
  request size of each pass. A straight line time = Ts + bytes / BW_io is fitted to the median
  time of each request size: the intercept is Ts, the slope 1 / BW_io.
- **CC**: half the median round trip of a small message between rank 0 and the last rank of
  ``comm``; with one rank, the median time of a small ``MPI.COMM_SELF.Sendrecv`` (no network:
  a lower bound of the real cost unit).

>>> cal = lodex.calibrate("/scratch/run", comm=MPI.COMM_WORLD)
>>> cal.save("cal.json")
>>> ds.define_series("geos", dims, variables, calibration=cal)   # or calibration="cal.json"
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import math
import os
import time
from typing import Any, Callable, Mapping

import numpy as np

from ._files import replace_whole

from ._collective import agreed, idle_barrier
from .errors import FormatError, InvalidArgumentError, IOFailure, NotFoundError

MiB = 1 << 20
MIN_SIZE = MiB
REQUEST_SIZES = (4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20)
MIN_SLOTS = 4             # a request size is measured when the file holds at least 4 of it
REQUESTS_PER_SIZE = 8     # per pass, at distinct offsets
PING_PONG = (50, 500)     # warm-up and timed round trips (or self Sendrecvs)
TS_FLOOR = 1e-6           # Ts when the fit's intercept is not positive (1 us)
WRITE_CHUNK = 4 << 20
FORMAT = "lodex-calibration"
VERSION = 1
SETTINGS = ("bw_io", "cc", "ts")


def _positive(value: Any, what: str, error=InvalidArgumentError) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise error(f"{what} must be a positive number, got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and v > 0):
        raise error(f"{what} must be positive and finite, got {value!r}")
    return v


@dataclasses.dataclass(frozen=True)
class Calibration:
    """What :func:`calibrate` measured: ``bw_io`` (bytes/s of one storage target), ``ts`` (seconds
    per request: the seek and request overhead), ``cc`` (seconds: the communication cost unit), and
    how. ``table`` holds (request bytes, median seconds) per request size; ``cold`` says whether
    the reads missed the page cache (``cold_method`` says how that was ensured or why not)."""

    bw_io: float
    cc: float
    ts: float
    table: tuple[tuple[int, float], ...] = ()
    fit: str = ""
    cold: bool = False
    cold_method: str = ""
    cc_method: str = ""
    ranks: int = 1
    directory: str = ""
    size: int = 0
    repeats: int = 0

    def __post_init__(self):
        for key in SETTINGS:
            object.__setattr__(self, key, _positive(getattr(self, key), key))
        try:
            table = tuple((int(b), float(t)) for b, t in self.table)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"table must be (request bytes, median seconds) pairs, "
                                       f"got {self.table!r}") from None
        object.__setattr__(self, "table", table)
        for key, kind in (("ranks", int), ("size", int), ("repeats", int), ("cold", bool), ("fit", str),
                          ("cold_method", str), ("cc_method", str), ("directory", str)):
            value = getattr(self, key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise InvalidArgumentError(f"{key} must be {kind.__name__}, got {value!r}")

    @property
    def opt_size(self) -> int:
        """OptSize = BW_io x (CC + Ts) in bytes, as the series coordination rounds it."""
        return int(self.bw_io * (self.cc + self.ts))

    def predicted(self, nbytes: float) -> float:
        """Seconds the fitted model gives a read request of ``nbytes``: Ts + nbytes / BW_io."""
        return self.ts + nbytes / self.bw_io

    def settings(self) -> dict[str, float]:
        """``{"bw_io": ..., "cc": ..., "ts": ...}``: the keywords of ``Dataset.define_series``."""
        return {"bw_io": self.bw_io, "cc": self.cc, "ts": self.ts}

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["table"] = [list(row) for row in self.table]
        return {"format": FORMAT, "version": VERSION, **d, "opt_size": self.opt_size}

    def to_json(self, **kw) -> str:
        kw.setdefault("indent", 1)
        return json.dumps(self.to_dict(), **kw)

    def save(self, path: str | os.PathLike) -> None:
        """Write the calibration as JSON (replacing ``path`` whole: a reader never sees half)."""
        path = os.fspath(path)
        replace_whole(path, lambda fh: fh.write(self.to_json() + "\n"), f"the calibration {path}", text=True)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Calibration":
        """A calibration saved by :meth:`save` (or any JSON object with positive bw_io, cc and ts).
        NotFoundError for a missing file, IOFailure for an unreadable one, FormatError naming the
        problem for bad JSON, a missing key or a value that is not a positive number."""
        path = os.fspath(path)
        try:
            with open(path) as fh:
                text = fh.read()
        except FileNotFoundError:
            raise NotFoundError(f"no calibration file {path}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise IOFailure(f"cannot read the calibration file {path}: {getattr(e, 'strerror', None) or e}") from e
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise FormatError(f"calibration file {path} is not valid JSON: {e}") from None
        return cls.from_mapping(d, f"calibration file {path}", FormatError)

    @classmethod
    def from_mapping(cls, d: Any, what: str = "calibration", error=InvalidArgumentError) -> "Calibration":
        """A calibration from a mapping holding at least bw_io, cc and ts (other details are
        optional; unknown keys are ignored). ``error`` is the class raised for bad content."""
        if not isinstance(d, Mapping):
            raise error(f"{what} must be a JSON object / mapping with bw_io, cc and ts, got {type(d).__name__}")
        if d.get("format", FORMAT) != FORMAT:
            raise error(f"{what} is not a lodex calibration (format {d.get('format')!r})")
        missing = [k for k in SETTINGS if k not in d]
        if missing:
            raise error(f"{what} lacks {', '.join(repr(k) for k in missing)} (needs bw_io, cc and ts)")
        for key in SETTINGS:
            _positive(d[key], f"{what}: {key}", error)
        fields = {f.name for f in dataclasses.fields(cls)}
        try:
            return cls(**{k: v for k, v in d.items() if k in fields})
        except (InvalidArgumentError, TypeError, ValueError) as e:
            raise error(f"{what}: {e}") from None

    def __str__(self) -> str:
        return (f"BW_io {self.bw_io / 1e6:.1f} MB/s, Ts {self.ts * 1e3:.4f} ms, CC {self.cc * 1e6:.2f} us: "
                f"OptSize {self.opt_size:,} bytes")


def settings_of(calibration: Any) -> dict[str, float]:
    """bw_io, cc and ts of ``calibration``: a :class:`Calibration`, a mapping with those keys or
    the path of a saved calibration (``Dataset.define_series(..., calibration=...)``)."""
    if isinstance(calibration, Calibration):
        return calibration.settings()
    if isinstance(calibration, Mapping):
        return Calibration.from_mapping(calibration).settings()
    if isinstance(calibration, (str, os.PathLike)):
        return Calibration.load(calibration).settings()
    raise InvalidArgumentError("calibration must be a lodex.Calibration, a mapping with bw_io, cc and ts, "
                               f"or the path of a saved calibration; got {type(calibration).__name__}")


def _check_arguments(directory, size, repeats, seed) -> None:
    if not isinstance(directory, (str, os.PathLike)):
        raise InvalidArgumentError(f"directory must be a path, got {directory!r}")
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < MIN_SIZE:
        raise InvalidArgumentError(f"size must be an integer of at least {MIN_SIZE} bytes (1 MiB), got {size!r}")
    if isinstance(repeats, bool) or not isinstance(repeats, (int, np.integer)) or repeats < 1:
        raise InvalidArgumentError(f"repeats must be an integer of at least 1, got {repeats!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise InvalidArgumentError(f"seed must be a non-negative integer, got {seed!r}")


def _mib(n: int) -> str:
    return f"{n / MiB:.4g} MiB"


def _check_directory(directory: str, size: int) -> None:
    if not os.path.exists(directory):
        raise NotFoundError(f"no directory {directory} to calibrate")
    if not os.path.isdir(directory):
        raise InvalidArgumentError(f"{directory} is not a directory")
    try:
        st = os.statvfs(directory)
    except OSError as e:
        raise IOFailure(f"cannot query the free space of {directory}: {e.strerror or e}") from e
    free = st.f_bavail * st.f_frsize
    if size > free:
        raise InvalidArgumentError(f"a {_mib(size)} scratch file does not fit in {directory}: "
                                   f"{_mib(free)} free; pass a smaller size")


def _write_scratch(path: str, size: int, seed: int) -> None:
    """``size`` random bytes (nothing a file system could compress), fsynced."""
    rng = np.random.default_rng(seed)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError as e:
        raise IOFailure(f"cannot create the calibration scratch file {path}: {e.strerror or e}") from e
    try:
        left = size
        while left:
            view = memoryview(rng.bytes(min(left, WRITE_CHUNK)))
            left -= len(view)
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as e:
        what = "No space left on device" if e.errno == errno.ENOSPC else (e.strerror or str(e))
        raise IOFailure(f"cannot write the {_mib(size)} calibration scratch file {path}: {what}") from e
    finally:
        with contextlib.suppress(OSError):   # after the fsync: nothing left to lose
            os.close(fd)


def _resident_fraction(fd: int, size: int) -> float | None:
    """Share of the file's pages in the page cache (mincore(2)); None when it cannot be told."""
    try:
        import ctypes
        import mmap
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        addr = libc.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr is None or addr == ctypes.c_void_p(-1).value:
            return None
        try:
            pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
            vec = (ctypes.c_ubyte * pages)()
            if libc.mincore(addr, size, vec) != 0:
                return None
            return float((np.frombuffer(vec, np.uint8) & 1).mean())
        finally:
            libc.munmap(addr, size)
    except (OSError, AttributeError, ImportError):
        return None


def _evict(fd: int) -> bool:
    """Drop the file's (clean) pages from the page cache; False when the platform cannot."""
    if not hasattr(os, "posix_fadvise"):
        return False
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        return True
    except OSError:
        return False


def _read_timed(fd: int, buf: memoryview, offset: int) -> float:
    t0 = time.perf_counter()
    n = os.preadv(fd, [buf], offset) if hasattr(os, "preadv") else len(os.pread(fd, len(buf), offset))
    dt = time.perf_counter() - t0
    if n != len(buf):
        raise IOFailure(f"short read of the calibration scratch file: {n} of {len(buf)} bytes at {offset}")
    return dt


def _measure_storage(directory: str, size: int, repeats: int, seed: int,
                     progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Rank 0's part: the scratch file written, read back cold, and the line fitted. ``progress``
    is told (passes done, passes in all) after each request size of each pass."""
    _check_directory(directory, size)
    path = os.path.join(directory, f".lodex-calibrate-{os.getpid()}.tmp")
    try:
        _write_scratch(path, size, seed)
        sizes = [r for r in REQUEST_SIZES if size // r >= MIN_SLOTS]
        done, total = 0, repeats * len(sizes)
        if progress is not None:
            progress(done, total)
        times: dict[int, list[float]] = {r: [] for r in sizes}
        rng = np.random.default_rng(seed + 1)
        buf = memoryview(bytearray(max(sizes)))
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError as e:
            raise IOFailure(f"cannot open the calibration scratch file {path}: {e.strerror or e}") from e
        try:
            if hasattr(os, "posix_fadvise"):   # no read-ahead: each request reads only its bytes
                with contextlib.suppress(OSError):
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
            _read_timed(fd, buf, 0)            # fault the buffer's pages in before any timing
            evicted = _evict(fd)
            resident = _resident_fraction(fd, size) if evicted else None
            if not evicted:
                cold, how = False, "no posix_fadvise here: reads may hit the page cache (warm)"
            elif resident is not None and resident > 0.5:
                cold, how = False, (f"posix_fadvise(POSIX_FADV_DONTNEED) left {resident:.0%} of the pages "
                                    "resident (a memory file system?): warm reads")
            else:
                cold, how = True, ("posix_fadvise(POSIX_FADV_DONTNEED) before each request size of each pass"
                                   + (", checked with mincore" if resident is not None else ""))
            for _ in range(repeats):
                for r in sizes:
                    slots = size // r
                    offsets = rng.choice(slots, min(REQUESTS_PER_SIZE, slots), replace=False) * r
                    _evict(fd)
                    for off in offsets:
                        times[r].append(_read_timed(fd, buf[:r], int(off)))
                    done += 1
                    if progress is not None:
                        progress(done, total)
        except IOFailure:
            raise
        except OSError as e:
            raise IOFailure(f"cannot read the calibration scratch file {path}: {e.strerror or e}") from e
        finally:
            os.close(fd)
    finally:
        with contextlib.suppress(OSError):
            os.remove(path)
    medians = [float(np.median(times[r])) for r in sizes]
    bw_io, ts, fit = _fit(sizes, medians)
    return {"bw_io": bw_io, "ts": ts, "fit": fit, "table": [[r, t] for r, t in zip(sizes, medians)],
            "cold": cold, "cold_method": how, "directory": os.path.abspath(directory), "size": int(size),
            "repeats": int(repeats)}


def _fit(sizes: list[int], medians: list[float]) -> tuple[float, float, str]:
    """time = ts + bytes / bw_io by least squares over the request sizes, each residual relative
    to its time (weights 1 / time), so the small requests that carry Ts count as much as the
    large ones that carry BW_io."""
    x = np.asarray(sizes, dtype=float)
    y = np.asarray(medians, dtype=float)
    slope, intercept = np.polyfit(x, y, 1, w=1.0 / np.maximum(y, 1e-12))
    fit = "least squares of the median times, weighted by 1/time"
    if not (math.isfinite(slope) and slope > 0):
        bw_io = float(x[-1] / y[-1])
        fit += f"; the slope was {slope:.3g} s/byte, so BW_io is the largest request's bytes / time"
    else:
        bw_io = float(1.0 / slope)
    ts = float(intercept)
    if not (math.isfinite(ts) and ts >= TS_FLOOR):
        fit += f"; the intercept was {ts:.3g} s, so Ts is clamped to {TS_FLOOR:g} s"
        ts = TS_FLOOR
    return bw_io, ts, fit


def _cost_unit(comm) -> tuple[float | None, str]:
    """CC on rank 0 (None elsewhere) and how it was measured."""
    from mpi4py import MPI

    warmup, iters = PING_PONG
    buf = np.zeros(8, np.uint8)
    if comm is None or comm.Get_size() == 1:
        out = np.zeros_like(buf)
        times = []
        for i in range(warmup + iters):
            t0 = time.perf_counter()
            MPI.COMM_SELF.Sendrecv(buf, dest=0, sendtag=7, recvbuf=out, source=0, recvtag=7)
            if i >= warmup:
                times.append(time.perf_counter() - t0)
        return float(np.median(times)), (f"one rank: median of {iters} MPI.COMM_SELF.Sendrecv of 8 bytes "
                                         "(no network: a lower bound; calibrate with several ranks, "
                                         "across nodes, for the real unit)")
    rank, peer = comm.Get_rank(), comm.Get_size() - 1
    times = []
    if rank == 0:
        for i in range(warmup + iters):
            t0 = time.perf_counter()
            comm.Send(buf, dest=peer, tag=7)
            comm.Recv(buf, source=peer, tag=7)
            if i >= warmup:
                times.append(time.perf_counter() - t0)
    elif rank == peer:
        for _ in range(warmup + iters):
            comm.Recv(buf, source=0, tag=7)
            comm.Send(buf, dest=0, tag=7)
    idle_barrier(comm)
    how = (f"half the median round trip of {iters} 8-byte messages between rank 0 and rank {peer} "
           f"of {comm.Get_size()}")
    return (float(np.median(times)) / 2 if rank == 0 else None), how


def calibrate(directory: str | os.PathLike, comm: Any = None, *, size: int = 64 << 20, repeats: int = 5,
              seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Calibration:
    """Measure BW_io, Ts and CC (module docstring) with a scratch file of ``size`` bytes (at
    least 1 MiB; default 64 MiB) in ``directory`` — the directory the series will be written to,
    on the same file system — read ``repeats`` times. The scratch file
    (``.lodex-calibrate-<pid>.tmp``) is removed, whatever happens.

    Collective when ``comm`` (mpi4py) has several ranks: rank 0 measures the storage (the others
    wait, sleeping), rank 0 and the last rank the messages, and every rank returns the same
    :class:`Calibration`; an error is raised on every rank. Errors: NotFoundError (no such
    directory), InvalidArgumentError (not a directory, a size below 1 MiB or above the free
    space, repeats < 1), IOFailure (the scratch file cannot be written — a full disk — or read).
    ``progress(done, total)``, when given, is called on the rank measuring as the timed reads go."""
    multi = comm is not None and comm.Get_size() > 1
    if not multi:
        _check_arguments(directory, size, repeats, seed)
        storage = _measure_storage(os.fspath(directory), int(size), int(repeats), int(seed), progress)
        cc, cc_method = _cost_unit(None)
        return Calibration(cc=cc, cc_method=cc_method, ranks=1, **storage)

    agreed(comm, lambda: _check_arguments(directory, size, repeats, seed))
    comm = comm.Dup()   # our messages cannot meet the caller's
    try:
        storage = agreed(comm, lambda: _measure_storage(os.fspath(directory), int(size), int(repeats), int(seed),
                                                  progress), root=0, wait=idle_barrier)
        cc, cc_method = _cost_unit(comm)
        result = agreed(comm, lambda: Calibration(cc=cc, cc_method=cc_method, ranks=comm.Get_size(),
                                                  **storage).to_dict(), root=0, wait=idle_barrier)
    finally:
        comm.Free()
    return Calibration.from_mapping(result)


__all__ = ["Calibration", "calibrate"]
