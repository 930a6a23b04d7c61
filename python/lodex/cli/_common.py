"""What the commands of the ``lodex`` command line share: parsing boxes, steps and integers,
saving --out files, progress bars, JSON output, the MPI world under mpiexec and the wording of
errors as flags."""

from __future__ import annotations

import json
import os
import sys

from .. import errors
from .._files import replace_whole
from ..summary import steps_summary as _steps_summary

_OUT_FORMATS = {".npy": "one numpy array", ".npz": "numpy arrays by name"}


def _check_out(path: str | None, single: bool) -> None:
    """Refuses an --out whose extension names no format this result can be saved as, before reading."""
    if path is None:
        return
    ext = os.path.splitext(path)[1].lower()
    allowed = [".npy", ".npz"] if single else [".npz"]
    if ext not in allowed:
        raise errors.InvalidArgumentError(
            f"--out {path!r}: the format follows the extension; this result can be saved as "
            + " or ".join(f"{e} ({_OUT_FORMATS[e]})" for e in allowed))


def _save(path: str, arrays: dict, single=None) -> None:
    """Writes exactly ``path`` (.npy: ``single``; .npz: ``arrays``) through a temporary file beside
    it, renamed into place: an unwritable --out is an IOFailure and leaves no partial file."""
    import numpy as np


    def write(f):
        if os.path.splitext(path)[1].lower() == ".npy":
            np.save(f, single)
        else:
            np.savez(f, **arrays)
    replace_whole(path, write, f"--out {path!r}")


def _parse_box(text: str):
    try:
        lo, hi = text.split(":")
        lo = tuple(float(v) for v in lo.split(","))
        hi = tuple(float(v) for v in hi.split(","))
        if len(lo) != 3 or len(hi) != 3:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--box must look like x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max), got {text!r}") from None
    return lo, hi


def _parse_grid_box(text: str):
    try:
        lo, hi = text.split(":")
        lo = tuple(int(v) for v in lo.split(","))
        hi = tuple(int(v) for v in hi.split(","))
        if len(lo) != len(hi) or not 1 <= len(lo) <= 3:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--box of a grid must look like x0,y0,z0:x1,y1,z1 (integers, max exclusive), got {text!r}") from None
    return lo, hi


def _steps_text(steps: list[int]) -> str:
    """Ascending steps as runs: "0-4, 7, 9-12"."""
    runs: list[list[int]] = []
    for s in steps:
        if runs and s == runs[-1][1] + 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _progress(args, comm, total: int | None, what: str, unit: str = "step"):
    """A progress bar on stderr (tqdm) while a long command works through `total` items: only on
    a terminal, on rank 0, and not with --quiet."""
    from tqdm import tqdm
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=not _shows_progress(args, comm),
                leave=False)


def _shows_progress(args, comm) -> bool:
    """Whether this rank draws progress bars: on a terminal, rank 0, without --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty() and (comm is None or comm.rank == 0)


def _reporter(bar):
    """A ``progress(done, total)`` callback that moves ``bar``."""
    def report(done: int, total: int) -> None:
        if bar.total != total:   # known once the work starts: shown at once
            bar.total = total
            bar.refresh()
        bar.update(done - bar.n)
    return report


def _world_if_mpi():
    """MPI.COMM_WORLD when started by mpiexec with several ranks, else None (serial)."""
    import os
    if not any(k in os.environ for k in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")):
        return None
    from mpi4py import MPI
    return MPI.COMM_WORLD if MPI.COMM_WORLD.size > 1 else None


def _parse_steps(text: str) -> list[int] | tuple[int | None, int | None]:
    """"3" or "0,2,5": those steps (a list); "0:30", "10:" or ":30": the range [a, b) (a tuple),
    which _select_steps turns into the committed steps inside it."""
    try:
        if ":" in text:
            a, b = text.split(":")
            return (int(a) if a.strip() else None, int(b) if b.strip() else None)
        steps = [int(s) for s in text.split(",") if s]
        if not steps:
            raise ValueError
        return steps
    except ValueError:
        raise errors.InvalidArgumentError(f"--steps must look like 3, 0,2,5, 0:30 (every committed step from 0 "
                                          f"up to but not including 30), 10: or :30; got {text!r}") from None


def _select_steps(text: str, committed: list[int], what: str) -> list[int]:
    """--steps against the committed steps of `what`: a list as given (a missing step is the
    reader's error), a range as the committed steps inside it (none: an error listing them)."""
    spec = _parse_steps(text)
    if isinstance(spec, list):
        return spec
    lo, hi = spec
    chosen = [s for s in committed if (lo is None or s >= lo) and (hi is None or s < hi)]
    if not chosen:
        raise errors.NotFoundError(f"{what} has no committed step in --steps {text} "
                                   f"(its steps: {_steps_summary(list(committed))})")
    return chosen


def _parse_ints(text: str, what: str, n: int) -> tuple[int, ...]:
    try:
        v = tuple(int(x) for x in text.split(","))
        if len(v) != n:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(f"{what} must be {n} comma-separated integers, got {text!r}") from None
    return v


def _parse_domain(text: str):
    try:
        v = [float(x) for x in text.replace(":", ",").split(",")]
        if len(v) != 6:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--domain must look like x0,y0,z0,x1,y1,z1 (inclusive min, exclusive max), got {text!r}") from None
    return tuple(v[:3]), tuple(v[3:])


def _array_summary(a) -> dict:
    """dtype, shape and (when not empty) per-component min, max of an array, for --json."""
    import numpy as np
    out = {"dtype": str(a.dtype), "shape": list(a.shape)}
    if a.size:
        axis = 0 if a.ndim == 2 and a.dtype.names is None and a.shape[1] <= 16 else None
        out["min"] = np.asarray(np.nanmin(a, axis=axis) if a.dtype.kind == "f" else a.min(axis=axis)).tolist()
        out["max"] = np.asarray(np.nanmax(a, axis=axis) if a.dtype.kind == "f" else a.max(axis=axis)).tolist()
    return out


def _print_json(comm, obj: dict) -> None:
    """One JSON object on stdout (rank 0 only under mpiexec)."""
    if comm is None or comm.rank == 0:
        json.dump(obj, sys.stdout, indent=1, default=_json_default)
        print()


def _json_default(v):
    import numpy as np
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    raise TypeError(f"{type(v).__name__} is not JSON")


def _ints(text: str | None, what: str, n: int | None = None) -> list[int] | None:
    if text is None:
        return None
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise errors.InvalidArgumentError(f"{what} is comma-separated integers, got {text!r}") from None
    if n is not None and len(out) != n:
        raise errors.InvalidArgumentError(f"{what} takes {n} integers, got {text!r}")
    return out


def _mpi_rank() -> int:
    """This process's rank when started by mpiexec, else 0."""
    for var in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return 0


# The Python API's advice, as the command line's flags.
_FLAG_ADVICE = [
    ("partition_grid=(gx, gy, gz) or partition='adaptive' with particles_per_file",
     "--partition-grid gx,gy,gz or --particles-per-file N"),
    ("partition_grid=(gx, gy, gz)", "--partition-grid gx,gy,gz"),
    ("particles_per_file", "--particles-per-file"),
    ("with steps=...", "with --steps"),
    ("steps=...", "--steps"),
]


def _as_flags(message: str) -> str:
    for python, flags in _FLAG_ADVICE:
        message = message.replace(python, flags)
    return message
