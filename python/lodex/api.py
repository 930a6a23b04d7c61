"""The Python API: datasets and particle groups over the C++ core (``lodex._lodex``)."""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any, Mapping, Sequence

import numpy as np

from . import _lodex
from .tables import Particles, columns
from .errors import AlreadyExistsError, Error, InvalidArgumentError, code_of, join_read

Box = tuple[tuple[float, float, float], tuple[float, float, float]]

@contextlib.contextmanager
def _collective_input(join, what: str):
    """Checks of one rank's arguments to a collective call: a failure must still reach the
    collective, or the other ranks would wait for this one forever. ``join(code, message)`` makes
    the collective call with the error as its input error (``error=`` of the core call; its other
    arguments are not looked at), so every rank raises the same error, this one included."""
    try:
        yield
    except Error as e:
        join(code_of(e), str(e))
        raise
    except (TypeError, ValueError, OverflowError) as e:
        join(1, f"cannot use the {what}: {e}")
        raise


def _native(a: np.ndarray) -> np.ndarray:
    """The array in native byte order and C order (a copy only when needed)."""
    if a.dtype.byteorder not in "=|":
        a = a.astype(a.dtype.newbyteorder("="))
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def _write_fields(data: Mapping[str, Any]) -> list[tuple[str, np.ndarray]]:
    """(name, array) per field of a write. A tuple or list of numpy arrays is a field given one
    array per component (positions as x, y, z arrays): "name/x", "name/y", "name/z" for up to
    three components, "name/0", "name/1", ... beyond; the engine interleaves them itself."""
    fields = []
    for name, value in data.items():
        name = str(name)
        if isinstance(value, (tuple, list)) and value and all(isinstance(v, np.ndarray) for v in value):
            labels = "xyz" if len(value) <= 3 else [str(i) for i in range(len(value))]
            fields += [(f"{name}/{c}", _native(v)) for c, v in zip(labels, value)]
        else:
            fields.append((name, _native(np.asarray(value))))
    return fields


DEFAULT_LOD = {"scale": 2, "level0_max": 256, "brick_target": 0, "seed": 0}   # brick_target 0: sized for the data


def _box(value: Any, what: str) -> tuple[list[float], list[float]]:
    try:
        lo, hi = value
        lo = [float(v) for v in lo]
        hi = [float(v) for v in hi]
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{what} must be ((x0, y0, z0), (x1, y1, z1)), got {value!r}") from None
    if len(lo) != 3 or len(hi) != 3:
        raise InvalidArgumentError(f"{what} must have 3 coordinates per corner, got {value!r}")
    return lo, hi


def _count(value: Any, what: str, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not least <= value <= most:
        raise InvalidArgumentError(f"{what} must be an integer in [{least}, {most}], got {value!r}")
    return int(value)


def _step(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -2**63 <= value < 2**63:
        raise InvalidArgumentError(f"step must be an integer, got {value!r}")
    return int(value)


def _after(value: Any) -> int:
    """The ``after`` of a truncate: a step (the steps up to it stay), or -1 (every step goes)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -2**63 <= value < 2**63:
        raise InvalidArgumentError(f"after must be a step (an integer; -1 removes every step), got {value!r}")
    return int(value)


def _truncate(core: Any, after: Any) -> list[tuple[str, str, list[int]]]:
    """Collective: ``core.truncate`` (a group's or the dataset's) with its argument checked on
    every rank; (group, kind, removed steps) per group."""
    with _collective_input(lambda code, message: core.truncate(-1, error=(code, message)), "truncate arguments"):
        after = _after(after)
    return [(name, kind, list(steps)) for name, kind, steps in core.truncate(after)]


def _field_names(fields: Any) -> list[str] | None:
    """A list of field names (a single name becomes a list of one), or None."""
    if isinstance(fields, str):
        return [fields]
    if fields is not None and (not isinstance(fields, (list, tuple)) or
                               not all(isinstance(f, str) for f in fields)):
        raise InvalidArgumentError(f"fields must be a list of field names, got {fields!r}")
    return None if fields is None else list(fields)


def _periodic(value: Any) -> tuple[bool, bool, bool]:
    if value is None:
        return (False, False, False)
    if isinstance(value, (bool, np.bool_)):
        return (bool(value),) * 3
    try:
        axes = tuple(value)
    except TypeError:
        axes = ()
    if len(axes) != 3 or not all(isinstance(a, (bool, np.bool_)) for a in axes):
        raise InvalidArgumentError(f"periodic must be a bool or 3 bools (x, y, z), got {value!r}")
    return tuple(bool(a) for a in axes)


def _partition_spec(partition, partition_grid, particles_per_file, file_bytes,
                    fields: list[tuple[str, str, int]] | None) -> tuple[str, list[int], int]:
    """(mode, dims, particles per file) of a group definition: ``partition=(Px, Py, Pz)`` (factor),
    ``partition_grid=(gx, gy, gz)``, ``partition="adaptive"`` with exactly one of
    ``particles_per_file`` and ``file_bytes`` (bytes per file, over the rows of ``fields``), or
    nothing (one partition for the whole domain: right for serial writers)."""
    if partition is not None and partition_grid is not None:
        raise InvalidArgumentError("give either partition (a factor) or partition_grid")
    if isinstance(partition, str):
        if partition != "adaptive":
            raise InvalidArgumentError(
                f"partition must be 'adaptive' or 3 positive integers (a factor), got {partition!r}")
        if (particles_per_file is None) == (file_bytes is None):
            raise InvalidArgumentError("partition='adaptive' needs exactly one of particles_per_file "
                                       "and file_bytes (the target size of each file)")
        if particles_per_file is not None:
            return "adaptive", [1, 1, 1], _count(particles_per_file, "particles_per_file", 1, 2**63 - 1)
        size = _count(file_bytes, "file_bytes", 1, 2**63 - 1)
        if fields is None:
            raise InvalidArgumentError("file_bytes needs the group's schema; give particles_per_file")
        row = 0
        for _, dtype, comps in fields:
            try:
                row += np.dtype(dtype).itemsize * comps
            except TypeError:
                raise InvalidArgumentError(f"unknown dtype {dtype!r}") from None
        return "adaptive", [1, 1, 1], max(1, size // row)
    if particles_per_file is not None or file_bytes is not None:
        raise InvalidArgumentError("particles_per_file and file_bytes go with partition='adaptive'")
    if partition is not None:
        mode, dims = "factor", partition
    else:
        mode, dims = "grid", partition_grid if partition_grid is not None else (1, 1, 1)
    if isinstance(dims, str) or len(tuple(dims)) != 3:
        raise InvalidArgumentError(f"partition must be 3 positive integers, got {dims!r}")
    dims = tuple(dims)
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1 for d in dims):
        raise InvalidArgumentError(f"partition must be 3 positive integers, got {dims!r}")
    return mode, [int(d) for d in dims], 0


def _schema(schema: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    if not isinstance(schema, Mapping) or not schema:
        raise InvalidArgumentError(
            "schema must be a non-empty dict like {'position': ('f8', 3), 'energy': 'f4'}")
    fields = []
    for name, spec in schema.items():
        if isinstance(spec, str):
            dtype, comps = spec, 1
        else:
            try:
                dtype, comps = spec
            except (TypeError, ValueError):
                raise InvalidArgumentError(
                    f"field {name!r}: expected a dtype string or (dtype, components), "
                    f"got {spec!r}") from None
        try:   # numpy spellings ("float64", np.float64, np.dtype) to lodex's short codes
            dtype = np.dtype(dtype).str.lstrip("<>|=")
        except TypeError:
            pass   # not a dtype numpy knows: the core names the problem
        if not isinstance(comps, (int, np.integer)) or isinstance(comps, bool) or comps < 1:
            raise InvalidArgumentError(f"field {name!r}: components must be a positive integer")
        fields.append((str(name), str(dtype), int(comps)))
    return fields


class WriteProfile(dict):
    """Per-phase timings of the last collective write, reduced over ranks (seconds). ``phases``
    are this rank's wall time in each step of the write; ``threads`` the busy time of helper
    threads that overlap them (``order``: the level-of-detail order computed while particles
    arrive; ``writer``: the write-behind thread that writes one chunk while the next is prepared).
    ``plan_reused``: the step reused the previous step's aggregation plan (factor and grid
    partitions, every rank's patch and whether it holds particles unchanged). ``path``: how the
    particles reached the files: "node" (the ranks of a partition on one node wrote its file
    together, each a slice), "p2p" or "shm" (one writer per file)."""

    PHASES = ("check", "agree", "plan", "exchange", "reorder", "file_write", "commit")

    def to_json(self, **kw) -> str:
        return json.dumps(self, **kw)

    @property
    def throughput(self) -> float:
        """Bytes written per second of the slowest rank's end-to-end time."""
        return self["bytes"] / self["total_s"] if self.get("total_s") else 0.0

    def __str__(self) -> str:
        if not self:
            return "no write yet"
        lines = [
            f"step {self['step']}: {self['particles']:,} particles, {self['files']} files, "
            f"{self['bytes'] / 2**20:.2f} MiB in {self['total_s'] * 1e3:.2f} ms "
            f"({self.throughput / 2**30:.2f} GiB/s) on {self['ranks']} ranks, "
            f"{self['aggregators']} aggregators, {'aligned' if self['aligned'] else 'non-aligned'}"
            f"{', fsync' if self['fsync'] else ''}{', plan reused' if self.get('plan_reused') else ''}"
            f"{', path ' + self['path'] if self.get('path') else ''}",
            f"  {'phase':<18}{'min ms':>10}{'mean ms':>10}{'max ms':>10}",
        ]
        for name, t in self["phases"].items():
            lines.append(f"  {name:<18}{t['min_s'] * 1e3:>10.3f}{t['mean_s'] * 1e3:>10.3f}"
                         f"{t['max_s'] * 1e3:>10.3f}")
        for name, t in self.get("threads", {}).items():
            lines.append(f"  {name + ' thread':<18}{t['min_s'] * 1e3:>10.3f}{t['mean_s'] * 1e3:>10.3f}"
                         f"{t['max_s'] * 1e3:>10.3f}")
        return "\n".join(lines)


class PendingWrite:
    """An asynchronous step (``ParticleGroup.write``, ``Grid.write`` or ``Series.write`` with
    ``wait=False``): its files are written on a helper thread; it commits at the group's next
    collective call. A series step that completed no window is done at once."""

    def __init__(self, group: Any, step: int, keep: Any = None):
        self._group = group
        self.step = step
        self._keep = keep   # the caller's arrays of a copy=False step, alive until it is done

    def done(self) -> bool:
        """Local: whether this rank finished the step's files (it still commits at the next
        collective call)."""
        core = self._group._core
        return core.pending_step != self.step or core.pending_done

    def wait(self) -> WriteProfile:
        """Collective over the dataset's ranks: completes and commits the step (if no later call
        did already) and returns the group's profile; the step's error is raised on every rank."""
        try:
            if self._group._core.pending_step == self.step:
                self._group._core.wait_pending()
        finally:
            self._keep = None
        return self._group.profile

    def __repr__(self) -> str:
        return f"<lodex.PendingWrite step={self.step} {'done' if self.done() else 'writing'}>"


class ParticleGroup:
    """A named set of particles with a fixed schema, written step by step."""

    def __init__(self, dataset: "Dataset", core: Any):
        self._dataset = dataset
        self._core = core
        self._stats: dict = {}

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def schema(self) -> dict[str, tuple[str, int]]:
        return {n: (d, c) for n, d, c in self._core.schema}

    @property
    def domain(self) -> Box:
        """The box every particle lies in, its maximum inclusive; for ``domain="auto"`` the union
        of the steps' domains (all zero before the first step)."""
        lo, hi = self._core.domain
        if not all(np.isfinite(lo + hi)):   # an automatic domain without steps
            return ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
        return lo, hi

    @property
    def periodic(self) -> tuple[bool, bool, bool]:
        """Which axes are periodic (positions wrapped into the domain on write)."""
        return tuple(self._core.periodic)

    @property
    def auto_domain(self) -> bool:
        """Whether each step has its own domain, the bounds of its particles (``domain="auto"``)."""
        return bool(self._core.auto_domain)

    def step_domain(self, step: int) -> Box:
        """The domain step ``step`` was written in: the group's, or the step's own for ``domain="auto"``."""
        return self._core.step_domain(_step(step))

    @property
    def partition(self) -> tuple[str, tuple[int, int, int]]:
        """("factor", (Px, Py, Pz)), ("grid", (gx, gy, gz)) or ("adaptive", (1, 1, 1))."""
        mode, dims, _ = self._core.partition
        return mode, dims

    @property
    def particles_per_file(self) -> int | None:
        """The adaptive scheme's target particles per file (None for the other schemes)."""
        mode, _, target = self._core.partition
        return int(target) if mode == "adaptive" else None

    @property
    def steps(self) -> list[int]:
        return list(self._core.steps)

    def write(self, step: int, data: Mapping[str, Any], patch: Box | None = None, *,
              index: Sequence[str] | Mapping[str, Any] | None = None, wait: bool = True,
              copy: bool = True) -> "PendingWrite | None":
        """Collective: write this rank's particles as one step. ``data`` maps every schema field
        to an array of shape (n,) or (n, components) with the schema's dtype, or, for a field of
        several components, to one array of shape (n,) per component: ``"position": (x, y, z)``,
        or keys ``"position/x"``, ``"position/y"``, ``"position/z"`` (``"name/0"``, ``"name/1"``,
        ... for any field); such fields are interleaved by the write itself. ``patch`` is this
        rank's box of the domain decomposition (inclusive min, exclusive max). A partition factor
        needs it on every rank of a parallel write (the patches must tile a regular lattice, which
        the particles' bounding boxes do not), and every particle inside it; a serial write (no
        communicator, or one rank) may omit it: its patch is the whole domain. With
        ``partition_grid`` or ``partition="adaptive"`` it may be omitted, and the particles'
        bounding box is used; given, it is a hint, grown to hold particles that left it.
        ``index``: build bitmap indexes of the step right after it commits — a list of fields, or
        a dict of :meth:`build_index` arguments (``{"fields": [...], "precision": 3}``).

        ``wait=False`` makes the step asynchronous: the call returns once the particles have
        reached the ranks that write them (with ``copy=True``, the default, what stays on this
        rank is copied first, so the arrays may be reused at once; with ``copy=False`` they must
        stay unchanged until the step is done, as with ``MPI_Isend``), and the level-of-detail
        order, the checksums and the file writes run on a helper thread while the caller computes.
        It returns a :class:`PendingWrite`. The step commits at the group's next collective call
        (the next ``write``, ``PendingWrite.wait()``, ``build_index`` or the dataset's
        ``close``); one step is in flight at a time, so the next write first completes this one.
        An error of the pending step (a full disk) is raised there, on every rank, and the step
        is not committed."""
        with _collective_input(lambda code, message: self._core.write(-1, [], None, error=(code, message)),
                               "write arguments"):
            if not isinstance(data, Mapping):
                raise InvalidArgumentError("data must be a dict of field name -> numpy array")
            fields = _write_fields(data)
            pb = None if patch is None else _box(patch, "patch")
            step = _step(step)
            if index is not None and not isinstance(index, Mapping):
                index = {"fields": index}
            if index is not None:
                unknown = set(index) - {"fields", "precision", "bins"}
                if unknown:
                    raise InvalidArgumentError(f"unknown index settings {sorted(unknown)}; "
                                               "known: fields, precision, bins")
                if not wait:
                    raise InvalidArgumentError("index= needs the step committed: with wait=False, call "
                                               "build_index after PendingWrite.wait()")
        self._core.write(step, fields, pb, wait=bool(wait), copy=bool(copy))
        if not wait:
            return PendingWrite(self, step, None if copy else fields)
        if index is not None:
            self.build_index(steps=[step], **index)
        return None

    def truncate(self, after: int) -> list[int]:
        """Collective (mode "a"): remove every committed step after ``after`` (the steps up to it
        stay; a step that was never written works too; -1 removes every step) with its files and
        bitmap indexes, so that a simulation restarted from the checkpoint of step ``after`` can
        write the later steps again. A pending asynchronous step is completed first. Atomic: a
        writer killed during it leaves the steps before or after it, never a mix. Returns the
        steps removed (ascending). Every rank must pass the same ``after``; a negative one other
        than -1, a dataset open for reading or ranks disagreeing are InvalidArgumentErrors, with
        nothing removed."""
        return _truncate(self._core, after)[0][2]

    def build_index(self, fields: Sequence[str] | None = None, precision: int | None = None,
                    bins: int | None = None, steps: Sequence[int] | None = None) -> "IndexBuildStats":
        """Collective over the dataset's communicator (mode "a"): bitmap indexes (Byna et al. 2012
        §II-B) of ``fields`` (default: all) for ``steps`` (default: every committed step), one
        index file per data file and field beside it. Binning: ``precision=d`` (default 3) puts
        bin edges on numbers of d significant digits, so comparisons with constants of at most d
        digits need no candidate check; ``bins=B`` makes B equal-weight bins instead. Files are
        spread over the ranks and each rank's threads pull them from a shared pool
        (``LODEX_INDEX_THREADS`` sets the threads per rank). Re-indexing a field replaces it.
        Returns the build's statistics (bytes, rows, phase times)."""
        with _collective_input(lambda code, message: self._core.build_index([], "precision", 3, [], error=(code, message)),
                               "index arguments"):
            fields = _field_names(fields)
            if precision is not None and bins is not None:
                raise InvalidArgumentError("give either precision (precision binning) or bins (equal-weight bins)")
            if bins is not None:
                binning, param = "equal_weight", _count(bins, "bins", 1, 2**32 - 1)
            else:
                binning, param = "precision", 3 if precision is None else _count(precision, "precision", 0, 2**32 - 1)
            steps_ = [] if steps is None else [_step(s) for s in ([steps] if isinstance(steps, (int, np.integer)) else steps)]
            if steps is not None and not steps_:
                raise InvalidArgumentError("steps is empty; give None for every step")
        return IndexBuildStats(json.loads(self._core.build_index(list(fields or []), binning, param, steps_)))

    def query(self, query: str, step: int, box: Box | None = None, level: int | None = None,
              fields: Sequence[str] | None = None, *, count_only: bool = False, use_index: bool = True,
              readers: int | None = None, P: int | None = None, S: float | None = None,
              comm: Any = None) -> "QueryResult":
        """The particles of ``step`` matching ``query`` (Byna et al. 2012 §IV-B), e.g.
        ``"energy > 1.3 && 157.654 < x < 162.441"``: comparisons ``< <= > >= == !=`` of a field or
        component (``energy``, ``x``, ``position[0]``) with a number, ``&&``, ``||``, ``!``,
        parentheses and chained ranges. ``box``: only particles inside it; ``level``: only the
        particles of levels 0..level of detail, exactly those ``read(step, box, level=level,
        readers=readers, P=P, S=S)`` returns (the same defaults: readers = the size of ``comm``,
        or 1), so a query at a level is that read filtered (docs/reads.md). ``fields``: fields of
        the matches to return as numpy arrays (default none). Bitmap indexes are used where the
        step has them; comparisons on fields without one are checked by a scan, and
        :attr:`QueryResult.notes` says so. ``count_only``: skip row ids and data.
        ``comm``: collective; the files are shared among the ranks, each gets its files' matches,
        and ``count`` is the total."""
        try:
            step = _step(step)
            if not isinstance(query, str):
                raise InvalidArgumentError(f"query must be a string, got {query!r}")
            box_, fields, readers_, P_, S_, _ = self._request(box, fields, level is not None, readers, P, S, "spatial")
            if level is not None:
                level = _count(level, "level", 0, 2**32 - 1)
            if count_only and fields:
                raise InvalidArgumentError("count_only returns no data; drop fields or count_only")
        except Error as e:
            join_read(lambda err: self._core.query(0, "", None, None, 1, 1, 2.0, [], False, True, comm,
                                                          error=err), e, comm)
            raise
        out = self._core.query(step, query, box_, level, readers_, P_, S_, list(fields or []), not count_only,
                               bool(use_index), comm)
        return QueryResult(out, list(fields or []), self.schema)

    @property
    def profile(self) -> WriteProfile:
        """Timings of this rank's last write (reduced over ranks; identical on every rank)."""
        p = json.loads(self._core.profile_json)
        if p.get("step", -1) < 0:
            return WriteProfile()
        return WriteProfile(p)

    def read(self, step: int, box: Box | None = None, fields: Sequence[str] | None = None, *,
             level: int | None = None, fraction: float | None = None, readers: int | None = None,
             P: int | None = None, S: float | None = None, comm: Any = None,
             split: str = "spatial") -> "Particles":
        """Particles of one step as a dict of numpy arrays (field -> (n,) or (n, components)).

        ``box``: ((x0, y0, z0), (x1, y1, z1)), inclusive min, exclusive max; None reads everything.
        ``fields``: the fields to return (default all); only their columns are read.
        ``level``: the paper's level of detail: levels 0..level of a read by ``readers``
        processes (default: the size of ``comm``, or 1), level l holding at most
        readers * P * S**l particles (P = 32, S = 2 by default). ``fraction``: about that share
        of the particles (0 < fraction <= 1). Both are fair samples: every region keeps its
        share of the particles, and a larger level or fraction returns a superset.
        ``comm``: an mpi4py communicator; the read is then collective and returns this rank's
        disjoint part (``split="spatial"``: the particles of one sub-box of the query per rank;
        ``split="bytes"``: equal shares of the bytes to read). Costs: :attr:`last_read_stats`."""
        try:
            step = _step(step)
            box_, fields_, readers_, P_, S_, split_ = self._request(box, fields, level is not None,
                                                                    readers, P, S, split)
            if level is not None:
                level = _count(level, "level", 0, 2**32 - 1)
            if fraction is not None:
                if isinstance(fraction, bool) or not isinstance(fraction, (int, float, np.floating, np.integer)):
                    raise InvalidArgumentError(f"fraction must be a number in (0, 1], got {fraction!r}")
                fraction = float(fraction)
        except Error as e:
            join_read(lambda err: self._core.read(0, None, [], None, None, 1, 1, 2.0, "spatial", comm,
                                                         error=err), e, comm)
            raise
        out = self._core.read(step, box_, fields_, level, fraction, readers_, P_, S_, split_, comm)
        self._stats = self._core.last_read_stats
        return Particles(out)

    def refine(self, step: int, box: Box | None = None, fields: Sequence[str] | None = None, *,
               readers: int | None = None, P: int | None = None, S: float | None = None,
               comm: Any = None, split: str = "spatial") -> "Refinement":
        """Progressive refinement: an iterator over the levels of :meth:`read` (coarse to fine)
        that yields only the particles new at each level, as dicts of numpy arrays. All levels
        together are exactly ``read(step, box, fields)``, no particle twice. With ``comm`` every
        step of the iteration is collective."""
        try:
            step = _step(step)
            box_, fields_, readers_, P_, S_, split_ = self._request(box, fields, True, readers, P, S, split)
        except Error as e:
            join_read(lambda err: self._core.refine(0, None, [], 1, 1, 2.0, "spatial", comm, error=err), e, comm)
            raise
        return Refinement(self, self._core.refine(step, box_, fields_, readers_, P_, S_, split_, comm))

    def spatial_split(self, step: int, readers: int, box: Box | None = None) -> list[Box]:
        """The box each of ``readers`` ranks gets from ``read(step, box, comm=...)`` with
        ``split="spatial"`` (rank r: item r), from the spatial metadata alone; infinite faces
        where the query is unbounded."""
        return self._core.spatial_split(_step(step), None if box is None else _box(box, "box"),
                                        _count(readers, "readers", 1, 2**32 - 1))

    @staticmethod
    def _request(box, fields, lod: bool, readers, P, S, split) -> tuple:
        fields = _field_names(fields)
        box_ = None if box is None else _box(box, "box")
        if not lod and (readers is not None or P is not None or S is not None):
            raise InvalidArgumentError("readers, P and S set the levels of a level read or a refinement; "
                                       "give a level (or use refine)")
        readers_ = 0 if readers is None else _count(readers, "readers", 1, 2**62)
        P_ = 32 if P is None else _count(P, "P", 1, 2**62)
        if S is None:
            S_ = 2.0
        elif isinstance(S, bool) or not isinstance(S, (int, float, np.integer, np.floating)):
            raise InvalidArgumentError(f"S must be a number above 1, got {S!r}")
        else:
            S_ = float(S)
        if split not in ("spatial", "bytes"):
            raise InvalidArgumentError(f"split must be 'spatial' or 'bytes', got {split!r}")
        return box_, list(fields or []), readers_, P_, S_, split

    def indexes(self, step: int) -> list[dict]:
        """The bitmap indexes of a committed step: one dict per indexed field (field, binning,
        precision or bins, bytes of its index files)."""
        return list(self._core.indexes(_step(step)))

    def files(self, step: int) -> list[dict]:
        """The spatial metadata of a step: one dict per data file (box, bounds, count, ...)."""
        return self._core.metadata(int(step))

    EXPORT_FORMATS = ("h5part",)

    def export(self, out: str | os.PathLike, format: str = "h5part", steps: int | Sequence[int] | None = None,
               fields: Sequence[str] | None = None, *, overwrite: bool = False, max_bytes: int = 1 << 30,
               comm: Any = None, progress: Any = None) -> dict:
        """Write steps of this group to a file of another format (docs/h5part.md). ``format``:
        "h5part" (:func:`lodex.h5part.export_h5part`, needs h5py). ``steps``: None (all), a step or
        a list; ``fields``: None (all) or a list. At most one step in memory (a step above
        ``max_bytes`` is read in spatial pieces); written to a temporary file renamed onto
        ``out``; an existing ``out`` needs ``overwrite=True``. With ``comm`` (collective) rank 0
        writes alone. ``progress(done, total)``: called after each step. Returns {"steps",
        "particles", "bytes", "seconds", ...}."""
        if format not in self.EXPORT_FORMATS:
            raise InvalidArgumentError(f"unknown export format {format!r}; known: {', '.join(self.EXPORT_FORMATS)}")
        from .h5part import export_h5part
        return export_h5part(self, out, steps, fields, overwrite=overwrite, max_bytes=max_bytes, comm=comm,
                             progress=progress)

    @property
    def last_read_stats(self) -> dict:
        """What this rank's last read (or refinement step) cost: files_opened, bytes_read
        (metadata, file heads and columns), bytes_returned, particles, requests, seconds, ..."""
        return dict(self._stats)

    def __repr__(self) -> str:
        return f"<lodex.ParticleGroup {self.name!r} steps={self.steps}>"


class IndexBuildStats(dict):
    """What a collective index build did: steps, files, indexes (files written), rows (values
    indexed), column_bytes and index_bytes (summed over ranks), and the slowest rank's seconds
    per phase (read_s, bin_s, encode_s, write_s) and in all (seconds)."""

    @property
    def bits_per_row(self) -> float:
        """Index bits per indexed value (one row of one component)."""
        return 8 * self["index_bytes"] / self["rows"] if self.get("rows") else 0.0

    @property
    def size_ratio(self) -> float:
        """Index bytes / bytes of the indexed columns."""
        return self["index_bytes"] / self["column_bytes"] if self.get("column_bytes") else 0.0


class QueryResult:
    """The answer of :meth:`ParticleGroup.query`. ``count``: matches over all ranks;
    ``rows``: {data file name: ascending row ids (uint64)} of this rank's files; ``data``:
    {field: numpy array} of those rows, file after file in the order of ``rows``; ``notes``:
    what was scanned instead of answered from an index, and why; ``stats``: costs."""

    def __init__(self, raw: dict, fields: list[str], schema: dict):
        self.count: int = int(raw["count"])
        self.local_count: int = int(raw["local_count"])
        self.rows: dict[str, np.ndarray] = {name: rows.astype(np.uint64) for name, rows in raw["files"]}
        data = dict(raw["data"])
        for f in fields:   # a field with no match still comes back, empty
            if f not in data:
                dtype, comps = schema[f]
                data[f] = np.empty((0,) if comps == 1 else (0, comps), dtype=dtype)
        self.data: dict[str, np.ndarray] = {f: data[f] for f in fields}
        self.notes: list[str] = list(raw["notes"])
        self.stats: dict = dict(raw["stats"])

    def to_pandas(self) -> Any:
        """This rank's matches as a pandas DataFrame: columns ``file`` and ``row`` (which data
        file and row each match is), then the requested fields (vector fields one column per
        component, as :meth:`Particles.to_pandas`). Needs pandas (``lodex[pandas]``)."""
        from .tables import _pandas
        files = np.concatenate([np.full(len(r), name, dtype=object) for name, r in self.rows.items()]) \
            if self.rows else np.empty(0, dtype=object)
        rows = np.concatenate(list(self.rows.values())) if self.rows else np.empty(0, dtype=np.uint64)
        return _pandas().DataFrame({"file": files, "row": rows, **columns(self.data)})

    @property
    def used_index(self) -> bool:
        """Whether every file read was answered from bitmaps (with candidate checks), none scanned."""
        return self.stats["files_scanned"] == 0

    def __len__(self) -> int:
        return self.local_count

    def __repr__(self) -> str:
        return (f"<lodex.QueryResult count={self.count} files={len(self.rows)} "
                f"fields={list(self.data)} notes={len(self.notes)}>")


class Refinement:
    """Iterator over the levels of a read, coarse to fine; each item holds only the particles
    new at that level. ``levels``: how many there are; ``level``: the next one."""

    def __init__(self, group: ParticleGroup, core: Any):
        self._group = group
        self._core = core

    @property
    def levels(self) -> int:
        return self._core.levels

    @property
    def level(self) -> int:
        return self._core.next_level

    @property
    def last_read_stats(self) -> dict:
        return dict(self._core.last_read_stats)

    def __iter__(self) -> "Refinement":
        return self

    def __next__(self) -> "Particles":
        if self._core.done:
            raise StopIteration
        out = self._core.next()
        self._group._stats = self._core.last_read_stats
        return Particles(out)

    def __len__(self) -> int:
        return self._core.levels - self._core.next_level

    def __repr__(self) -> str:
        return f"<lodex.Refinement level {self.level} of {self.levels}>"


class Dataset:
    """A lodex dataset directory. Use :func:`create` or :func:`open`."""

    def __init__(self, core: Any, comm: Any):
        self._core = core
        self._comm = comm
        self._groups: dict[str, ParticleGroup] = {}

    @property
    def path(self) -> str:
        return self._core.path

    @property
    def groups(self) -> list[str]:
        return list(self._core.particle_group_names())

    def particles(self, name: str, schema: Mapping[str, Any] | None = None,
                  domain: Box | str | None = None, partition: Sequence[int] | str | None = None,
                  partition_grid: Sequence[int] | None = None,
                  lod: Mapping[str, int] | None = None, *,
                  particles_per_file: int | None = None,
                  file_bytes: int | None = None,
                  periodic: bool | Sequence[bool] | None = None) -> ParticleGroup:
        """The particle group ``name``. With a schema (collective): create it, or check that the
        existing group matches. ``partition=(Px, Py, Pz)`` is the aggregation partition factor
        relative to the ranks' patches; ``partition_grid=(gx, gy, gz)`` instead cuts the domain
        into a fixed grid independent of the patches; ``partition="adaptive"`` cuts it by a k-d
        tree over where the particles are, into files of about ``particles_per_file`` particles
        (or ``file_bytes`` bytes of columns) each, the files' aggregators spread over the ranks
        (several files per rank when there are more files than ranks; docs/adaptive.md). With none, the whole domain is one partition (one file per step: right
        for a serial writer, a bottleneck for many ranks).

        ``domain``: the box ``((x0, y0, z0), (x1, y1, z1))`` every particle lies in, its maximum
        included; a particle outside it is an error. ``periodic=(True, True, False)`` (or one bool
        for every axis) makes axes periodic: positions are wrapped into ``[min, max)`` on write
        (the maximum maps to the minimum), and a read box may reach past the domain on those axes
        to get the wrapped images. ``domain="auto"``: no fixed box; each step's domain is the
        bounding box of its particles (:meth:`ParticleGroup.step_domain`), for shrinking or
        expanding systems (docs/writes.md, "Domains")."""
        if schema is None:
            if (domain is not None or partition is not None or partition_grid is not None
                    or particles_per_file is not None or file_bytes is not None or periodic is not None):
                raise InvalidArgumentError("domain, periodic and partition need a schema")
            core = self._core.particles(name)
        else:
            with _collective_input(lambda code, message: self._core.define_particles(
                    name, [], (0.0,) * 3, (1.0,) * 3, "factor", (1, 1, 1), 0, 2, 1, 0, 0, error=(code, message)),
                    "group definition"):
                args, kw = self._definition(schema, domain, partition, partition_grid, lod,
                                            particles_per_file, file_bytes, periodic)
            core = self._core.define_particles(name, *args, **kw)
        if name not in self._groups:
            self._groups[name] = ParticleGroup(self, core)
        return self._groups[name]

    @staticmethod
    def _definition(schema, domain, partition, partition_grid, lod, particles_per_file=None,
                    file_bytes=None, periodic=None) -> tuple[tuple, dict]:
        if domain is None:
            raise InvalidArgumentError('a new particle group needs a domain (a box, or "auto")')
        auto = isinstance(domain, str)
        if auto and domain != "auto":
            raise InvalidArgumentError(f'domain must be a box ((x0, y0, z0), (x1, y1, z1)) or "auto", got {domain!r}')
        lo, hi = ([0.0] * 3, [1.0] * 3) if auto else _box(domain, "domain")
        fields = _schema(schema)
        mode, dims, target = _partition_spec(partition, partition_grid, particles_per_file, file_bytes, fields)
        opts = dict(DEFAULT_LOD)
        for k, v in (lod or {}).items():
            if k not in opts:
                raise InvalidArgumentError(f"unknown lod setting {k!r}; known: {sorted(opts)}")
            opts[k] = int(v)
        return ((fields, lo, hi, mode, dims, target, opts["scale"], opts["level0_max"], opts["brick_target"],
                 opts["seed"]), {"periodic": _periodic(periodic), "auto_domain": auto})

    def import_h5part(self, path: str | os.PathLike, name: str, **kw) -> ParticleGroup:
        """Import the H5Part file ``path`` into the particle group ``name`` (collective over this
        dataset's communicator; mode "a" or a new dataset). Keywords: domain, steps, partition,
        partition_grid, particles_per_file, index, progress (see :func:`lodex.h5part.import_h5part`)."""
        from .h5part import import_h5part
        kw.setdefault("comm", self._comm)
        return import_h5part(path, self, name, **kw)

    @property
    def grids(self) -> list[str]:
        return list(self._core.grid_names())

    def grid(self, name: str, dims: Sequence[int] | None = None, dtype: Any = None, components: int = 1,
             bitmask: str | None = None, bits_per_block: int | None = None, blocks_per_file: int = 256,
             aggregation: str = "localized", partitions: int = 1, compression: str | None = None, *,
             fields: Mapping[str, Any] | None = None, index_space: str = "global"):
        """The grid variable ``name``: an IDX dataset (``<name>.idx``) OpenVisus opens. With dims
        (collective): define it, or check that the existing one matches. ``dims=(x, y[, z])``;
        one field ``dtype`` x ``components`` named like the grid, or several with
        ``fields={"p": "f8", "u": ("f8", 3)}``. ``bitmask`` (the indexing template) default:
        derived at the first write from how the ranks' boxes are laid out (rank-conforming,
        Kumar et al. 2017 §III-B). ``bits_per_block`` default 15 (or the whole grid if smaller);
        ``aggregation``: "localized" (each file's aggregator inside the file's group of ranks)
        or "uniform"; ``compression``: None or "zip". ``partitions`` (a power of two, Kumar et al. 2017
        §IV): the first log2(partitions) template characters split the grid into boxes, each
        rank's box inside one, each aggregated by its own ranks; ``index_space="global"`` keeps
        one IDX dataset (the coarse blocks partitions share are merged), ``"local"`` writes one
        IDX dataset per partition (``Grid.idx_paths``) that lodex reads as one grid."""
        from .grids import Grid, define_grid
        if dims is None and dtype is None and fields is None:
            core = self._core.grid(name)
        else:
            core = define_grid(self, name, dims, dtype, components, bitmask, bits_per_block, blocks_per_file,
                               aggregation, partitions, compression, fields, index_space)
        return Grid(self, core)

    @property
    def series_names(self) -> list[str]:
        return list(self._core.series_names())

    def series(self, name: str, dims: Sequence[int] | None = None, variables: Mapping[str, Any] | None = None,
               memory_budget: int | None = None, d_tar: int | None = None, d_sar: int | None = None, *,
               bw_io: float | None = None, cc: float | None = None, ts: float | None = None,
               calibration: Any = None, max_window_steps: int | None = None,
               max_window_seconds: float | None = None):
        """The series ``name`` (Tian et al. 2013, STAR; docs/series.md): variables of a regular grid
        ``dims=(x, y, z)`` written every step, ``variables={"T": ("f4", 3), "PS": ("f4", 2)}``
        (3-D: (z, y, x); 2-D: (y, x)). With dims and variables (collective): define it, or check
        that the existing one matches. Each rank keeps d_tar steps in memory (temporal
        aggregation) and groups of 2^n neighbouring ranks merge their chunks over d_sar levels
        (spatial aggregation). Both follow from OptSize = bw_io x (cc + ts) and
        ``memory_budget`` (bytes per rank, default 256 MiB) unless forced.

        ``bw_io`` (bytes/s of one storage target), ``cc`` (s, the communication cost unit) and
        ``ts`` (s per request) default to Lustre-like 500e6, 1e-3 and 5e-3. ``calibration``
        replaces all three by measured values: a :class:`lodex.Calibration` (from
        :func:`lodex.calibrate`), a mapping with bw_io, cc and ts, or the path of a calibration
        saved by ``Calibration.save`` or ``lodex calibrate --out``; giving it with any of bw_io,
        cc or ts is an InvalidArgumentError.

        What a crash of the writer can lose is bounded: a window holds at most
        ``max_window_steps`` steps (default 32; d_tar is capped there), and a window whose first
        step is ``max_window_seconds`` old (default 600; ``math.inf``: no bound) is written at the
        next write, full or not. The plan (``d_tar``, ``d_sar``) is fixed and visible from the
        first write on; ``buffered_steps`` lists what is not on disk yet. Every rank must pass the
        same values."""
        from .series import Series, define_series, join_definition
        if dims is None and variables is None:
            if any(x is not None for x in (memory_budget, d_tar, d_sar, bw_io, cc, ts, calibration,
                                           max_window_steps, max_window_seconds)):
                raise InvalidArgumentError("memory_budget, d_tar, d_sar, bw_io, cc, ts, calibration and the "
                                           "window bounds need dims and variables")
            core = self._core.series(name)
        else:
            if calibration is not None:
                from .calibrate import settings_of
                with _collective_input(join_definition(self._core, name), "series calibration"):
                    given = [k for k, v in (("bw_io", bw_io), ("cc", cc), ("ts", ts)) if v is not None]
                    if given:
                        raise InvalidArgumentError(f"give calibration or {', '.join(given)}, not both "
                                                   "(the calibration sets bw_io, cc and ts)")
                    cal = settings_of(calibration)
                bw_io, cc, ts = cal["bw_io"], cal["cc"], cal["ts"]
            bw_io = 500e6 if bw_io is None else bw_io
            cc = 1e-3 if cc is None else cc
            ts = 5e-3 if ts is None else ts
            core = define_series(self, name, dims, variables, memory_budget, d_tar, d_sar, bw_io, cc, ts,
                                 max_window_steps, max_window_seconds)
        cache = self.__dict__.setdefault("_series", {})
        if name not in cache:
            cache[name] = Series(self, core)
        return cache[name]

    def truncate(self, after: int) -> dict[str, list[int]]:
        """Collective (mode "a"): ``truncate(after)`` of every particle group, grid and series of
        the dataset at once (one atomic manifest replace): restart a simulation from the
        checkpoint of step ``after``. Returns the steps removed per group. A series whose window
        holds steps on both sides of ``after`` refuses it (InvalidArgumentError naming the window
        and the steps a truncate may keep), and then nothing is removed from any group."""
        return {name: steps for name, _kind, steps in _truncate(self._core, after)}

    def close(self) -> None:
        """Collective in write modes: series write their buffered steps first. Committed steps are
        already durable; close only ends use."""
        self._core.close()

    def __enter__(self) -> "Dataset":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<lodex.Dataset {self.path!r} groups={self.groups} grids={self.grids} series={self.series_names}>"


def _exchange(exchange: str | None) -> str:
    return exchange if exchange is not None else os.environ.get("LODEX_EXCHANGE", "node")


def create(path: str | os.PathLike, comm: Any = None, fsync: bool = False,
           exchange: str | None = None, allow_outside: bool = False) -> Dataset:
    """Create a new dataset (collective over ``comm``; serial when ``comm`` is None).
    Raises AlreadyExistsError if ``path`` exists. The dataset is held by this writer's lock until
    closed (as ``open(mode="a")``). ``fsync=True`` makes every committed step
    durable on disk before the write returns. ``exchange``: how particles reach their files:
    "node" (default: the ranks of a partition on one node copy their particles into an MPI-3
    shared-memory window and write its file together, each a slice; where no partition has two
    writers on a node, as "p2p"), "p2p" (non-blocking point-to-point messages to one aggregator
    per partition, which writes the file alone, as in the paper) or "shm" (that one aggregator,
    same-node ranks copying into its shared window); the files' bytes are the same with every
    method. The LODEX_EXCHANGE environment variable sets the default. ``allow_outside=True``: reads may open files whose real location, symbolic
    links resolved, is outside the dataset's directory (by default such a file is a FormatError;
    see docs/reliability.md)."""
    try:
        core = _lodex.Dataset.create(os.fspath(path), comm, fsync, _exchange(exchange), bool(allow_outside))
    except AlreadyExistsError as e:
        raise AlreadyExistsError(f"{e}; to add steps to it, open it with lodex.open({os.fspath(path)!r}, "
                                 f"mode=\"a\"){_serial_under_mpiexec_hint(comm)}") from None
    return Dataset(core, comm)


def _serial_under_mpiexec_hint(comm: Any) -> str:
    """A hint for the processes of an mpiexec run that each called create without comm=: every
    one of them but the first finds the dataset the first one made."""
    if comm is not None:
        return ""
    for var in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"):
        size = os.environ.get(var, "")
        if size.isdigit() and int(size) > 1:
            return (f". This process is one of {size} started by mpiexec and passed no comm=, so each process "
                    f"tried to create the dataset on its own: pass comm=MPI.COMM_WORLD (from mpi4py import MPI)")
    return ""


def open(path: str | os.PathLike, mode: str = "r", comm: Any = None, fsync: bool = False,
         exchange: str | None = None, allow_outside: bool = False) -> Dataset:  # noqa: A001 - mirrors builtins.open
    """Open a dataset: ``mode="r"`` to read (no MPI needed), ``mode="a"`` to append steps
    (collective over ``comm``; ``fsync``, ``exchange`` and ``allow_outside`` as in :func:`create`).
    Appending takes the dataset's writer lock (``lodex.lock``, held until :meth:`Dataset.close`,
    the dataset's release or the process's normal exit): while another process holds it, every
    rank raises AlreadyExistsError naming its host:pid and since when; a lock left by a dead
    process of this host is taken over, one of another host is removed with ``lodex unlock``.
    A commit finding that another writer replaced the manifest since is refused the same way.
    Reading never locks (docs/reliability.md, "Writer lock")."""
    return Dataset(_lodex.Dataset.open(os.fspath(path), mode, comm, fsync, _exchange(exchange), bool(allow_outside)),
                   comm)


