"""Series (Tian et al. 2013, STAR): many small 2-D and 3-D variables of a regular grid written every step
by ranks that each hold one box of a 2-D or 3-D domain decomposition, read back as any hyperslab
(steps x z x y x x) by any number of processes. docs/series.md explains the layout."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import numpy as np

from ._args import _native, _step
from . import _lodex
from ._collective import _collective_input, _join_read, _truncate
from ._deprecation import old_order
from .errors import InvalidArgumentError
from .pending import PendingWrite

GridBoxArg = Any   # ((x0, y0, z0), (x1, y1, z1)); for 2-D variables ((x0, y0), (x1, y1)) also


def _int_box(value: Any, what: str, dims: Sequence[int]) -> tuple[list[int], list[int]]:
    """((x0, y0[, z0]), (x1, y1[, z1])) as two 3-lists of ints (a missing z: the whole z range)."""
    try:
        lo, hi = value
        lo = [_int(v, what) for v in lo]
        hi = [_int(v, what) for v in hi]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{what} must be ((x0, y0, z0), (x1, y1, z1)), got {value!r}") from None
    if len(lo) == 2 and len(hi) == 2:
        lo, hi = lo + [0], hi + [int(dims[2])]
    if len(lo) != 3 or len(hi) != 3:
        raise InvalidArgumentError(f"{what} must have 3 coordinates per corner, got {value!r}")
    return lo, hi


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise InvalidArgumentError(f"{what} coordinates must be integers, got {v!r}")
    return int(v)


def _variables(variables: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """{"T": ("f4", 3), "PS": ("f4", 2)} -> [(name, dtype, ndim)]; a bare dtype means 3-D."""
    if not isinstance(variables, Mapping) or not variables:
        raise InvalidArgumentError(f"variables must be a non-empty mapping name -> (dtype, ndim), got {variables!r}")
    out = []
    for name, spec in variables.items():
        if not isinstance(name, str):
            raise InvalidArgumentError(f"variable names must be strings, got {name!r}")
        if isinstance(spec, (tuple, list)):
            if len(spec) != 2:
                raise InvalidArgumentError(f"variable {name!r}: expected (dtype, ndim), got {spec!r}")
            dtype, ndim = spec
        else:
            dtype, ndim = spec, 3
        try:
            dt = np.dtype(dtype)
        except TypeError:
            raise InvalidArgumentError(f"variable {name!r}: {dtype!r} is not a dtype") from None
        if isinstance(ndim, bool) or not isinstance(ndim, (int, np.integer)):
            raise InvalidArgumentError(f"variable {name!r}: ndim must be 2 or 3, got {ndim!r}")
        out.append((name, dt.str.lstrip("<>|=") if dt.kind in "iuf" else str(dt), int(ndim)))
    return out


def _steps(steps: Any, flushed: list[int]) -> tuple[list[int], bool]:
    """The steps asked for, and whether a single step was (its axis is then dropped)."""
    if steps is None:
        return list(flushed), False
    if isinstance(steps, (int, np.integer)) and not isinstance(steps, bool):
        return [int(steps)], True
    if isinstance(steps, slice):
        if steps.step not in (None, 1) and (not isinstance(steps.step, int) or steps.step < 1):
            raise InvalidArgumentError(f"a step slice needs a positive stride, got {steps!r}")
        lo = flushed[0] if steps.start is None and flushed else (steps.start or 0)
        hi = flushed[-1] + 1 if steps.stop is None and flushed else (steps.stop or 0)
        return list(range(lo, hi, steps.step or 1)), False
    try:
        out = [int(s) for s in steps]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"steps must be a step, a range or a list of steps, got {steps!r}") from None
    return out, False


class Series:
    """A series of a dataset: ``ds.define_series(name, dims, variables, ...)`` defines one, ``ds.series[name]``
    opens one."""

    def __init__(self, dataset, core):
        self._dataset = dataset
        self._core = core
        self.last_read_box = None

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def meta(self) -> dict:
        """Definition, decomposition, degrees and windows, as in the manifest."""
        return self._core.meta

    @property
    def dims(self) -> tuple[int, int, int]:
        return tuple(self.meta["dims"])

    @property
    def variables(self) -> dict[str, tuple[str, int]]:
        return dict(self.meta["variables"])

    @property
    def steps(self) -> list[int]:
        """Flushed steps: readable by anyone."""
        return list(self._core.steps)

    @property
    def buffered_steps(self) -> list[int]:
        """Steps this writer holds in memory, not yet flushed."""
        return list(self._core.buffered_steps)

    def _degree(self, key: str) -> int | None:
        """As the manifest records it, or as this writer chose it at its first write (before the
        first window is flushed); None before any write."""
        if key in self.meta:
            return self.meta[key]
        chosen = self._core.planned_choice
        return None if chosen is None else chosen[key]

    @property
    def d_tar(self) -> int | None:
        """Steps per window (temporal aggregation), fixed by the first write."""
        return self._degree("d_tar")

    @property
    def d_sar(self) -> int | None:
        """Levels of spatial aggregation, fixed by the first write."""
        return self._degree("d_sar")

    @property
    def max_window_steps(self) -> int:
        """The most steps a window holds: what a crash of the writer can lose at most."""
        return int(self.meta["settings"]["max_window_steps"])

    @property
    def max_window_seconds(self) -> float:
        """A window is written once its first step is this old, full or not (inf: no bound)."""
        return float(self.meta["settings"]["max_window_seconds"])

    @property
    def profile(self) -> dict:
        """The last write, reduced over ranks (phases: check, agree, plan, buffer, aggregate, file_write,
        commit)."""
        return json.loads(self._core.profile_json)

    def write(self, step: int, box: GridBoxArg, data: Mapping[str, Any], *, wait: bool = True,
              copy: bool = True):
        """Collective: this rank's box ((x0, y0, z0), (x1, y1, z1)) of every variable at ``step``,
        as numpy arrays (z, y, x) for 3-D variables and (y, x) for 2-D ones, of the declared
        dtypes. Steps increase; every rank keeps its box. The write that completes d_tar steps
        writes them to disk; until then they are buffered (``buffered_steps``).

        ``wait=False`` returns a :class:`lodex.PendingWrite`. The step is copied into the
        series' window buffers in the call (the arrays are never read after it, whatever
        ``copy`` says); when it completes a window, the window's aggregation (the exchanges) also
        runs in the call and only its file writes and block checksums run on a helper thread. The
        window commits at the series' next collective call (the next ``write``, ``flush``,
        ``truncate``, ``PendingWrite.wait()`` or the dataset's ``close``); one window is in
        flight at a time. An error of the pending window is raised there, on every rank: nothing
        of it commits, the step that completed it is lost and its earlier steps stay buffered, as
        when a synchronous write fails."""
        items = []
        with _collective_input(self._core.write, _lodex.SeriesWrite, "series write"):
            step = _step(step)
            dims = self.dims
            lo, hi = _int_box(box, "box", dims)
            if any(not 0 <= lo[a] < hi[a] <= dims[a] for a in range(3)):
                raise InvalidArgumentError(f"box {tuple(lo)}..{tuple(hi)} is empty or outside the "
                                           f"{dims[0]} x {dims[1]} x {dims[2]} grid of series {self.name!r}")
            if not isinstance(data, Mapping):
                raise InvalidArgumentError(f"data must be a mapping variable -> array, got {type(data).__name__}")
            variables = self.variables
            for name, arr in data.items():
                if name not in variables:
                    raise InvalidArgumentError(
                        f"series {self.name!r} has no variable {name!r} (variables: {', '.join(variables)})")
                dtype, ndim = variables[name]
                a = np.asarray(arr)
                if a.dtype.newbyteorder("=") != np.dtype(dtype):
                    raise InvalidArgumentError(f"variable {name!r} is {dtype}; got an array of {a.dtype}")
                ext = [hi[i] - lo[i] for i in range(3)]
                want = (ext[2], ext[1], ext[0]) if ndim == 3 else (ext[1], ext[0])
                if a.shape != want:
                    axes = "(z, y, x)" if ndim == 3 else "(y, x)"
                    raise InvalidArgumentError(
                        f"variable {name!r} over the box {tuple(lo)}..{tuple(hi)} is {axes} = {want}; "
                        f"got shape {a.shape}")
                items.append((name, _native(a)))
        self._core.write(_lodex.SeriesWrite(step=step, lo=lo, hi=hi, data=items, wait=bool(wait)))
        if not wait:
            return PendingWrite(self, step)
        return None

    def truncate(self, after: int) -> list[int]:
        """Collective (mode "a"): remove every flushed step after ``after`` (-1: every step) and
        drop the buffered ones after it. A window file holds several steps and is written whole,
        so windows go whole: an ``after`` with steps of one window on both sides of it is an
        InvalidArgumentError naming the window and the steps a truncate may keep (-1 or the last
        step of a window), and nothing is removed. As :meth:`ParticleGroup.truncate`: atomic,
        the same ``after`` on every rank; returns the flushed steps removed."""
        return _truncate(self._core, after)[0][2]

    def flush(self) -> None:
        """Collective: write the buffered steps now (fewer than d_tar). ``Dataset.close`` does it."""
        self._core.flush()

    @old_order(lambda self, var, steps=None, box=None, comm=None, merge_gap=None: None,
               lambda args, kw: len(args) > 1 and (isinstance(args[1], str) or "steps" in kw) or "var" in kw,
               "Series.read(var, steps, box)", "Series.read(steps, box, variable)", rename={"var": "variable"})
    def read(self, steps: Any = None, box: GridBoxArg = None, variable: str | None = None, *, comm: Any = None,
             merge_gap: int | None = None) -> np.ndarray:
        """``read(steps, box, variable)``: ``variable`` at ``steps`` (a step, a range, a list or a
        slice; None: every flushed step) over ``box`` (None: the whole grid). Returns
        (step, z, y, x) for 3-D variables and (step, y, x) for 2-D ones; a single step (an int)
        drops the step axis. With ``comm`` (collective), each rank reads and returns its part: the
        steps split among the ranks when there are at least as many as ranks, else the slowest
        spatial axis (``last_read_box`` says which part).

        Only the 4 KiB blocks holding the rows asked for are read, each verified against its
        checksum. Needed byte ranges at most ``merge_gap`` bytes apart in a file are read as one
        request; None: ``default_merge_gap``, the break-even bw_io x ts of the series' settings."""
        try:
            step_list, single, core_box, gap = self._read_args(variable, steps, box, merge_gap)
        except Exception as e:   # noqa: BLE001 - the other ranks are in the collective read: abort it
            _join_read(self._core.read, _lodex.SeriesRead, e, comm)
            raise
        a, (part_steps, lo, hi) = self._core.read(_lodex.SeriesRead(variable=variable, steps=step_list, box=core_box,
                                                                    merge_gap=gap, comm=comm))
        self._stats = dict(self._core.last_read_stats)
        lo, hi = list(lo), list(hi)
        if self.variables[variable][1] == 2:   # no z axis: the part spans the grid's z, as a box does
            lo[2], hi[2] = 0, self.dims[2]
            a = a[:, 0]
        self.last_read_box = (list(part_steps), tuple(lo), tuple(hi))
        return a[0] if single and len(a) == 1 else a

    def _read_args(self, var, steps, box, merge_gap):
        """read's arguments as the core takes them: (steps, whether a single step was asked for,
        box, merge gap); steps [] means every flushed step. The core checks the rest."""
        if not isinstance(var, str):
            raise InvalidArgumentError(f"variable must be a name (read(steps, box, variable)), got {var!r}")
        if merge_gap is not None and (isinstance(merge_gap, bool) or not isinstance(merge_gap, (int, np.integer))
                                      or not 0 <= merge_gap < 2**64):
            raise InvalidArgumentError(f"merge_gap must be a non-negative number of bytes or None, got {merge_gap!r}")
        step_list, single = ([], False) if steps is None else _steps(steps, self.steps)
        if steps is not None and not step_list:
            raise InvalidArgumentError("no steps asked for")
        core_box = None if box is None else _int_box(box, "box", self.dims)
        # What the core cannot take must fail here, where the other ranks learn of it.
        if any(not -2**63 <= v < 2**63 for v in step_list + ([] if box is None else core_box[0] + core_box[1])):
            raise InvalidArgumentError(f"steps and box coordinates must be 64-bit integers, got {steps!r}, {box!r}")
        return step_list, single, core_box, None if merge_gap is None else int(merge_gap)

    @property
    def default_merge_gap(self) -> int:
        """Bytes: the series' bw_io x ts (a request costs ts, reading a byte 1 / bw_io), at most 1 MiB."""
        return int(self._core.default_merge_gap)

    @property
    def last_read_stats(self) -> dict:
        """What the last read on this rank cost: windows (files opened), chunks, blocks (verified),
        requests (head_requests: window headers and the variable's chunk-table entries;
        checksum_requests: block checksums; the rest data), bytes_read (of which head_bytes,
        checksum_bytes), bytes_returned, merge_gap, seconds."""
        return dict(getattr(self, "_stats", {}))

    def __repr__(self) -> str:
        return f"<lodex.Series {self.name!r} dims={self.dims} variables={len(self.variables)} steps={len(self.steps)}>"


def define_series(dataset, name: str, dims, variables, memory_budget, d_tar, d_sar, bw_io, cc, ts,
                  max_window_steps=None, max_window_seconds=None):
    """The core definition call, its arguments checked first (a failing rank still joins the collective)."""
    core = dataset._core
    with _collective_input(core.define_series, _lodex.SeriesDefinition, "series definition"):
        if dims is None or variables is None:
            raise InvalidArgumentError("a new series needs dims and variables")
        try:
            d = [int(x) for x in dims]
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"dims must be (x, y, z) integers, got {dims!r}") from None
        if len(d) == 2:
            d.append(1)
        if len(d) != 3:
            raise InvalidArgumentError(f"dims must be (x, y, z), got {dims!r}")
        vars_ = _variables(variables)
        budget = 256 << 20 if memory_budget is None else int(memory_budget)
        if budget < 1:
            raise InvalidArgumentError(f"memory_budget must be positive, got {memory_budget!r}")
        dt = 0 if d_tar is None else int(d_tar)
        ds = -1 if d_sar is None else int(d_sar)
        if d_tar is not None and dt < 1:
            raise InvalidArgumentError(f"d_tar must be at least 1 (None: chosen), got {d_tar!r}")
        if d_sar is not None and ds < 0:
            raise InvalidArgumentError(f"d_sar must be at least 0 (None: chosen), got {d_sar!r}")
        mws = 32 if max_window_steps is None else max_window_steps
        if isinstance(mws, bool) or not isinstance(mws, (int, np.integer)) or not 1 <= mws < 2**32:
            raise InvalidArgumentError(f"max_window_steps must be an integer of at least 1, got {max_window_steps!r}")
        mwt = 600.0 if max_window_seconds is None else max_window_seconds
        if isinstance(mwt, bool) or not isinstance(mwt, (int, float, np.integer, np.floating)) or not mwt > 0:
            raise InvalidArgumentError(f"max_window_seconds must be a positive number (math.inf: no bound), "
                                       f"got {max_window_seconds!r}")
    return core.define_series(_lodex.SeriesDefinition(
        name=name, dims=d, variables=vars_, memory_budget=budget, d_tar=dt, d_sar=ds, bw_io=float(bw_io),
        cc=float(cc), ts=float(ts), max_window_steps=int(mws), max_window_seconds=float(mwt)))
