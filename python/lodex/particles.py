"""Particle groups: writes, reads at a level of detail, refinements, bitmap indexes and value
queries (``Dataset.define_particles``, ``Dataset.particles``), over the C++ core (``lodex._lodex``)."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence

import numpy as np

from ._args import Box, _box, _count, _field_names, _step, _write_fields
from . import _lodex
from ._collective import _collective_input, _join_read, _truncate
from ._deprecation import keyword_options, old_order
from .errors import Error, InvalidArgumentError
from .buffers import StepBuffers
from .pending import PendingWrite, WriteProfile
from .h5part import export_h5part
from .tables import Particles, columns, pandas_module



LEVEL_P, LEVEL_S = 32, 2   # the level sizes of reads by default: level l holds floor(P * S**l) per reader


def level_total(level: int) -> int:
    """The particles of levels 0..level of a read by one reader at the default level sizes (at
    most; fewer when the box holds fewer): sum of P * S**l, so ``read(step, box, level=L)`` is the
    prefix ``read(step, box, level=0, P=level_total(L))`` of the box's sample order."""
    return LEVEL_P * (LEVEL_S ** (level + 1) - 1)

class ParticleGroup:
    """A named set of particles with a fixed schema, written step by step."""

    def __init__(self, dataset: Any, core: Any):
        self._dataset = dataset
        self._core = core
        self._stats: dict = {}
        self._last_views: Any = None   # the last step's buffers (ParticleGroup.buffers)

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

    @old_order(lambda self, step, data, patch=None, *, index=None, wait=True, copy=True: None,
               lambda args, kw: len(args) > 2 and (isinstance(args[2], Mapping) or "patch" in kw),
               "ParticleGroup.write(step, data, patch)",
               "ParticleGroup.write(step, patch, data), patch None for the whole domain (or keywords)")
    def write(self, step: int, patch: Box | None = None, data: Mapping[str, Any] | None = None, *,
              index: Sequence[str] | Mapping[str, Any] | None = None, wait: bool = True,
              copy: bool = True) -> "PendingWrite | None":
        """Collective: write this rank's particles as one step: ``write(step, patch, data)``
        (``write(step, data=data)`` without a patch). ``data`` maps every schema field
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
        with _collective_input(self._core.write, _lodex.ParticleWrite, "write arguments"):
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
        self._core.write(_lodex.ParticleWrite(step=step, fields=fields, patch=pb, wait=bool(wait), copy=bool(copy)))
        if not wait:
            return PendingWrite(self, step, None if copy else fields)
        if index is not None:
            self.build_index(steps=[step], **index)
        return None

    def buffers(self, step: int, patch: Box | None, count: int, *,
                positions: str = "interleaved") -> StepBuffers:
        """Collective, like :meth:`write`: opens ``step`` for zero-copy input and returns this
        rank's :class:`StepBuffers`, numpy arrays of ``count`` rows per field to fill in place;
        leaving a ``with`` block commits them (or :meth:`StepBuffers.commit`)::

            with group.buffers(step, patch, n) as b:
                b["position"][:] = ...        # (n, 3); positions="components": (3, n)
                b["mass"][:] = ...

        The files are those of ``write(step, patch, data)`` with the same rows. ``patch``: as in
        :meth:`write` (this rank's box; None for the whole domain where write allows it). Where
        the step can be planned before its particles exist (a fixed domain without periodic
        axes, a factor or grid partition, a patch from every rank with particles, each in one
        partition), it is planned here and a rank whose particles go to a writer on its node
        fills that writer's shared-memory window directly (:attr:`StepBuffers.in_window`): the
        write copies nothing of them. Elsewhere the arrays are this rank's memory, written as by
        :meth:`write`. ``positions="components"``: the positions as three arrays, x, y and z
        (structure of arrays), interleaved by the write. The particles must lie inside
        ``patch`` (checked at the commit, on every rank). While the buffers are open, the
        group's writes are refused; the dataset's close discards buffers never committed.
        Arrays kept after the commit read zeros and alias nothing (:class:`StepBuffers`)."""
        with _collective_input(self._core.open_buffers, _lodex.ParticleBuffers, "buffers arguments"):
            step = _step(step)
            pb = None if patch is None else _box(patch, "patch")
            count = _count(count, "count", 0, 2**32 - 1)
            if positions not in ("interleaved", "components"):
                raise InvalidArgumentError(f"positions must be 'interleaved' or 'components', got {positions!r}")
        views = self._core.open_buffers(_lodex.ParticleBuffers(step=step, count=count, patch=pb, positions=positions))
        if self._last_views is not None:   # its unreachable mappings, for rows in the same memory
            views.adopt(self._last_views)
        self._last_views = views
        return StepBuffers(self, views, step, count, positions == "components")

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

    @keyword_options(2, ("precision", "bins", "steps"), "ParticleGroup.build_index")
    def build_index(self, fields: Sequence[str] | None = None, *, precision: int | None = None,
                    bins: int | None = None, steps: Sequence[int] | None = None) -> "IndexBuildStats":
        """Collective over the dataset's communicator (mode "a"): bitmap indexes (Byna et al. 2012
        §II-B) of ``fields`` (default: all) for ``steps`` (default: every committed step), one
        index file per data file and field beside it. Binning: ``precision=d`` (default 3) puts
        bin edges on numbers of d significant digits, so comparisons with constants of at most d
        digits need no candidate check; ``bins=B`` makes B equal-weight bins instead. Files are
        spread over the ranks and each rank's threads pull them from a shared pool
        (``LODEX_INDEX_THREADS`` sets the threads per rank). Re-indexing a field replaces it.
        Returns the build's statistics (bytes, rows, phase times)."""
        with _collective_input(self._core.build_index, _lodex.IndexBuild, "index arguments"):
            fields = _field_names(fields)
            if precision is not None and bins is not None:
                raise InvalidArgumentError("give either precision (precision binning) or bins (equal-weight bins)")
            if bins is not None:
                binning, param = "equal_weight", _count(bins, "bins", 1, 2**32 - 1)
            else:
                binning, param = "precision", 3 if precision is None else _count(precision, "precision", 0, 2**32 - 1)
            if isinstance(steps, (int, np.integer)):
                steps = [steps]
            steps_ = [] if steps is None else [_step(s) for s in steps]
            if steps is not None and not steps_:
                raise InvalidArgumentError("steps is empty; give None for every step")
        request = _lodex.IndexBuild(fields=list(fields or []), binning=binning, param=param, steps=steps_)
        return IndexBuildStats(json.loads(self._core.build_index(request)))

    @old_order(lambda self, query, step, box=None, level=None, fields=None, *, count_only=False, use_index=True,
               readers=None, P=None, S=None, comm=None: None,
               lambda args, kw: len(args) > 1 and (isinstance(args[1], str) or "step" in kw),
               "ParticleGroup.query(query, step, ...)", "ParticleGroup.query(step, query, box, ...)")
    def query(self, step: int, query: str, box: Box | None = None, *, level: int | None = None,
              fields: Sequence[str] | None = None, count_only: bool = False, use_index: bool = True,
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
            _join_read(self._core.query, _lodex.ParticleQuery, e, comm)
            raise
        out = self._core.query(_lodex.ParticleQuery(
            step=step, text=query, box=box_, level=level, readers=readers_, P=P_, S=S_, fields=list(fields or []),
            rows=not count_only, use_index=bool(use_index), comm=comm))
        return QueryResult(out, list(fields or []), self.schema)

    def sample_difference(self, step: int, box: Box, take: int, held: Sequence = (), *,
                          fields: Sequence[str] | None = None, S: float | None = None,
                          count_sample: bool = False) -> "QueryResult":
        """The first ``take`` particles of ``box``'s sample order (``read(step, box, level=0,
        P=take, S=S)`` by one reader) less those of the ``held`` samples, each ``(box, take)`` or
        ``(box, take, clip)`` (only its particles inside ``clip``: min inclusive, max exclusive),
        matched by data file and row: what a viewer holding those samples lacks of the new one
        (``lodex serve``'s zoom, docs/serve.md). As a :class:`QueryResult` (rows per file in
        file order, ascending; ``fields``' data, default none), the same as a query every
        particle of the box passes at that level less the held samples' queries. Only the
        positions that decide (bricks on a box's face, clip boxes) and the answer's fields are
        read. ``count_sample``: also set the result's ``sample`` to the number of particles of
        the box's sample before the held ones are taken out (reads every face brick's positions;
        otherwise ``sample`` is None). Local: no communicator, each rank may call it alone."""
        step = _step(step)
        box_, fields_, _, _, S_, _ = self._request(box, fields, True, None, None, S, "spatial")
        if box_ is None:
            raise InvalidArgumentError("a sample difference needs a box")
        take_ = _count(take, "take", 1, 2**62)
        if isinstance(held, (str, bytes)) or not isinstance(held, Sequence):
            raise InvalidArgumentError(f"held must be a sequence of (box, take[, clip]), got {held!r}")
        held_ = []
        for i, h in enumerate(held):
            if not isinstance(h, (tuple, list)) or len(h) not in (2, 3):
                raise InvalidArgumentError(f"held[{i}] must be (box, take) or (box, take, clip), got {h!r}")
            clip = h[2] if len(h) == 3 else None
            held_.append((_box(h[0], f"held[{i}]'s box"), _count(h[1], f"held[{i}]'s take", 1, 2**62),
                          None if clip is None else _box(clip, f"held[{i}]'s clip")))
        out = self._core.sample_difference(step, box_, take_, held=held_, fields=fields_, S=S_,
                                           count_sample=bool(count_sample))
        result = QueryResult(out, fields_, self.schema)
        result.sample = out["sample"]
        return result

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
            _join_read(self._core.read, _lodex.ParticleRead, e, comm)
            raise
        out = self._core.read(_lodex.ParticleRead(step=step, box=box_, fields=fields_, level=level, fraction=fraction,
                                                  readers=readers_, P=P_, S=S_, split=split_, comm=comm))
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
            _join_read(self._core.refine, _lodex.ParticleRead, e, comm)
            raise
        return Refinement(self, self._core.refine(_lodex.ParticleRead(
            step=step, box=box_, fields=fields_, readers=readers_, P=P_, S=S_, split=split_, comm=comm)))

    @old_order(lambda self, step, readers, box=None: None,
               lambda args, kw: len(args) > 2 and isinstance(args[2], (int, np.integer)) and not isinstance(args[2],
                                                                                                            bool),
               "ParticleGroup.spatial_split(step, readers, box)", "ParticleGroup.spatial_split(step, box, readers=n)")
    def spatial_split(self, step: int, box: Box | None = None, *, readers: int) -> list[Box]:
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
        P_ = LEVEL_P if P is None else _count(P, "P", 1, 2**62)
        if S is None:
            S_ = float(LEVEL_S)
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

    @keyword_options(2, ("format", "steps", "fields"), "ParticleGroup.export")
    def export(self, out: str | os.PathLike, *, format: str = "h5part", steps: int | Sequence[int] | None = None,
               fields: Sequence[str] | None = None, overwrite: bool = False, max_bytes: int = 1 << 30,
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
        files = np.concatenate([np.full(len(r), name, dtype=object) for name, r in self.rows.items()]) \
            if self.rows else np.empty(0, dtype=object)
        rows = np.concatenate(list(self.rows.values())) if self.rows else np.empty(0, dtype=np.uint64)
        return pandas_module().DataFrame({"file": files, "row": rows, **columns(self.data)})

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
