"""IDX grids (OpenVisus's format). ``Dataset.define_grid`` defines a grid variable of a lodex dataset,
written collectively by MPI ranks (each its box) as an IDX dataset beside the manifest;
``lodex.open_idx`` reads any IDX dataset, written by OpenVisus, PIDX or lodex. Reads run on one
process without MPI or on n ranks, each getting a disjoint slab, and refine coarse to fine."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping

import numpy as np

from . import _lodex
from ._args import _native, _schema, _step
from ._collective import _collective_input, _join_read, _truncate
from ._deprecation import keyword_options
from .errors import InvalidArgumentError
from .pending import PendingWrite
from .xarray_grid import grid_to_xarray


class IdxGrid:
    """An IDX dataset opened for reading. Arrays come back like OpenVisus's ``db.read()``:
    numpy (z, y, x[, c]) for 3-D grids, (y, x[, c]) for 2-D."""

    def __init__(self, core):
        self._core = core
        self.last_read_stats: dict = {}
        self.last_read_box = None

    @property
    def idx_path(self) -> str:
        return self._core.path

    @property
    def fields(self) -> dict[str, tuple[str, int]]:
        return {n: (d, c) for n, d, c in self._core.fields}

    @property
    def dims(self) -> tuple[int, ...]:
        lo, hi = self._core.box
        return tuple(int(hi[a] - lo[a] + 1) for a in range(self._core.ndims))

    @property
    def box(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Logic box, x first: (min, max) with max exclusive."""
        lo, hi = self._core.box
        n = self._core.ndims
        return tuple(int(v) for v in lo[:n]), tuple(int(v) + 1 for v in hi[:n])

    @property
    def bitmask(self) -> str:
        return self._core.bitmask

    @property
    def max_resolution(self) -> int:
        return self._core.max_resolution

    @property
    def bits_per_block(self) -> int:
        return self._core.bits_per_block

    @property
    def blocks_per_file(self) -> int:
        return self._core.blocks_per_file

    @keyword_options(3, ("resolution", "field", "comm"), "IdxGrid.read")
    def read(self, step: int = 0, box: Any = None, *, resolution: int | None = None,
             field: str | None = None, comm: Any = None) -> np.ndarray:
        """The samples of ``field`` (default: the first) at time ``step`` inside ``box``
        (((x0, y0[, z0]), (x1, y1[, z1])), min inclusive, max exclusive, logic coordinates;
        default the whole grid) at ``resolution`` (0..max_resolution, default full): the
        strided samples of IDX levels 0..resolution, as OpenVisus's read(max_resolution=r).
        With an mpi4py ``comm``, each rank gets a disjoint slab of the answer, cut along the
        slowest axis on the resolution's lattice; ``last_read_box`` says which."""
        return _read(self, self, step, box, resolution, field, comm)

    @keyword_options(3, ("field", "start"), "IdxGrid.refine")
    def refine(self, step: int = 0, box: Any = None, *, field: str | None = None,
               start: int | None = None) -> "GridRefinement":
        """Progressive refinement: the box at resolution ``start``, then at every finer resolution up
        to full, coarse to fine. Default start: the levels of the first block (one block read), but
        at least three levels below full, so that the first array is coarse (an eighth of the samples
        or fewer) even when one block holds the whole grid."""
        return GridRefinement(self, step, box, field, start)

    @keyword_options(3, ("resolution", "field"), "IdxGrid.to_xarray")
    def to_xarray(self, step: int = 0, box: Any = None, *, resolution: int | None = None,
                  field: str | None = None) -> Any:
        """``read`` as an ``xarray.DataArray`` (dims z, y, x, and component for a vector field) with
        the logic positions of the samples as coordinates (needs ``lodex[xarray]``)."""
        return grid_to_xarray(self, step, box, resolution, field)

    def __repr__(self) -> str:
        return f"<lodex.IdxGrid {self.idx_path!r} dims={self.dims} fields={list(self.fields)}>"


def _resolution(resolution: Any) -> int | None:
    if resolution is None:
        return None
    if isinstance(resolution, bool) or not isinstance(resolution, (int, np.integer)):
        raise InvalidArgumentError(f"resolution must be an integer, got {resolution!r}")
    if not 0 <= resolution < 2**31:
        raise InvalidArgumentError(f"resolution {resolution} is outside 0..max_resolution")
    return int(resolution)


# Spacing of resolution r's samples along an axis (levels r+1.. are missing): the C++ lattice
# that reads use (layout/grid_read_plan.hpp), for tests' oracles.
_lattice_stride = _lodex.lattice_stride


def _read(target, grid, step, box, resolution, field, comm) -> np.ndarray:
    """A read of ``grid`` (IdxGrid or Grid) by this process, or this rank's slab of a read
    collective over ``comm``, planned, read and agreed on by the C++ core: an error on any rank
    is raised on every rank (the lowest failing rank's, prefixed "rank r: "). ``target`` gets
    ``last_read_box`` and ``last_read_stats``."""
    core = grid._core
    try:
        step = _step(step)
        res = _resolution(resolution)
        core_box = None if box is None else _grid_box(box, len(grid.dims))
        if field is None:
            field = next(iter(grid.fields))
        elif not isinstance(field, str):
            raise TypeError(f"field must be a name, got {field!r}")
    except Exception as e:   # noqa: BLE001 - the other ranks are in the collective read: abort it
        _join_read(core.read, _lodex.GridRead, e, comm)
        raise
    arr, stats, (lo, hi) = core.read(_lodex.GridRead(field=field, step=step, box=core_box, resolution=res, comm=comm))
    nd = len(grid.dims)
    target.last_read_box = (tuple(lo[:nd]), tuple(hi[:nd]))
    target.last_read_stats = dict(stats)
    return arr


# Levels below full resolution where a refinement starts at the latest: each level halves the
# samples, so three levels are an eighth of them (a 3-D grid at half its resolution per axis).
_REFINE_DEPTH = 3


def default_start(bits_per_block: int, max_resolution: int) -> int:
    """Where a refinement starts unless asked: the levels of the first block (they cost one block
    read), but at least _REFINE_DEPTH levels below full, so that a grid whose first block holds
    all of it still comes coarse first."""
    return max(0, min(bits_per_block, max_resolution - _REFINE_DEPTH))


class GridRefinement:
    """Iterator over one box of a grid at increasing resolution (numpy arrays, coarse to fine).
    ``resolution`` is the resolution of the array last returned. Each step reads its
    resolution's blocks, so all steps together read about twice what the finest alone does."""

    def __init__(self, grid, step, box, field, start):
        self._grid = grid
        self._args = (_step(step), box, field)
        maxr = grid.max_resolution
        first = default_start(grid.bits_per_block, maxr) if start is None else _resolution(start)
        if not 0 <= first <= maxr:
            raise InvalidArgumentError(f"start must be a resolution in 0..{maxr}, got {start!r}")
        self._next = first
        self.resolution: int | None = None
        self.last_read_stats: dict = {}

    def __len__(self) -> int:
        return self._grid.max_resolution + 1 - self._next

    def __iter__(self) -> "GridRefinement":
        return self

    def __next__(self) -> np.ndarray:
        if self._next > self._grid.max_resolution:
            raise StopIteration
        step, box, field = self._args
        arr = _read(self, self._grid, step, box, self._next, field, None)
        self.resolution = self._next
        self._next += 1
        return arr


class Grid:
    """A grid variable of a lodex dataset: an IDX dataset (``idx_path``) with one field named
    like the grid, or several (``fields=``). ``write`` is collective; reads need no MPI."""

    def __init__(self, dataset, core):
        self._dataset = dataset
        self._core = core
        self.last_read_stats: dict = {}
        self.last_read_box = None

    @property
    def name(self) -> str:
        return self._core.name

    @property
    def idx_path(self) -> str:
        """The .idx file OpenVisus opens (it exists once a step is written). A grid written in
        the local index space has one per partition instead: see ``idx_paths``."""
        return self._core.idx_path

    @property
    def idx_paths(self) -> list[str]:
        """Every .idx file of the grid: ``[idx_path]``, or in the local index space one per
        partition holding samples (known once the first write has fixed the template)."""
        if self._split:
            return [p[3] for p in self._core.part_datasets]
        return [self._core.idx_path]

    @property
    def part_boxes(self) -> list[tuple[tuple[int, ...], tuple[int, ...], str]]:
        """Local index space: (lo, hi, idx path) of each partition's dataset, in grid coordinates."""
        nd = self._meta["ndims"]
        return [(tuple(lo[:nd]), tuple(hi[:nd]), path) for _, lo, hi, path in self._core.part_datasets]

    @property
    def partitions(self) -> int:
        return self._meta["partitions"]

    @property
    def index_space(self) -> str:
        return self._meta["index_space"]

    @property
    def _split(self) -> bool:
        m = self._meta
        return m["index_space"] == "local" and m["partitions"] > 1

    def _check_step(self, step: int) -> None:
        """NotFound unless ``step`` is committed and its IDX dataset(s) open."""
        if self._split:
            self._core.open_parts(_step(step))
        else:
            self._core.open_step(_step(step))

    @property
    def steps(self) -> list[int]:
        return list(self._core.steps)

    @property
    def _meta(self) -> dict:
        return self._core.meta

    @property
    def dims(self) -> tuple[int, ...]:
        m = self._meta
        return tuple(int(v) for v in m["dims"][:m["ndims"]])

    @property
    def fields(self) -> dict[str, tuple[str, int]]:
        return {n: (d, c) for n, d, c in self._meta["fields"]}

    @property
    def bitmask(self) -> str:
        """The indexing template ("" until the first write derives it from the rank layout)."""
        return self._meta["bitmask"]

    @property
    def bits_per_block(self) -> int:
        return self._meta["bits_per_block"]

    @property
    def blocks_per_file(self) -> int:
        return self._meta["blocks_per_file"]

    @property
    def aggregation(self) -> str:
        return self._meta["aggregation"]

    @property
    def compression(self) -> str | None:
        c = self._meta["compression"]
        return None if c == "none" else c

    @property
    def max_resolution(self) -> int:
        b = self.bitmask
        return len(b) - 1 if b else 0

    def truncate(self, after: int) -> list[int]:
        """Collective (mode "a"): remove every committed step after ``after`` (-1: every step),
        its IDX blocks and checksums; the ``.idx`` time range then ends at the last step kept
        (no step left: the ``.idx`` is removed until the next write). As
        :meth:`ParticleGroup.truncate`: atomic, the same ``after`` on every rank; returns the
        steps removed."""
        return _truncate(self._core, after)[0][2]

    def write(self, step: int, box: Any, data: Any, *, wait: bool = True, copy: bool = True):
        """Collective: this rank's ``box`` (((x0, y0, z0), (x1, y1, z1)), max exclusive; 2-D grids
        may give two coordinates) of the grid at ``step``. ``data``: a numpy array of shape
        (z1-z0, y1-y0, x1-x0[, components]) — (y, x[, c]) for 2-D — or a dict of them, one per
        field. Ranks' boxes must tile the grid; a rank without data passes an empty box.

        ``wait=False`` makes the step asynchronous and returns a :class:`lodex.PendingWrite`: the
        exchanges (restructure, hz encoding, aggregation, compression) run in the call, so the
        arrays are never read after it returns, whatever ``copy`` says (a grid step is always
        encoded into the grid's own buffers); the block files and their checksums are written on
        a helper thread while the caller computes. The step commits at the grid's next collective
        call (the next ``write``, ``PendingWrite.wait()``, ``truncate`` or the dataset's
        ``close``); one step is in flight at a time. An error of the pending step (a full disk) is
        raised there, on every rank, and the step is not committed."""
        with _collective_input(self._core.write, _lodex.GridWrite, "write arguments"):
            step = _step(step)
            m = self._meta
            nd = m["ndims"]
            lo, hi = _grid_box(box, nd)
            only = list(self.fields)[0] if len(self.fields) == 1 else None   # a bare array: the one field
            arrays = data if isinstance(data, Mapping) else {only: data}
            if None in arrays:
                raise InvalidArgumentError(
                    f"grid {self.name!r} has fields {list(self.fields)}: pass data as a dict of them")
            shape = tuple(max(0, hi[a] - lo[a]) for a in reversed(range(nd)))
            fields = []
            for name, arr in arrays.items():
                if name not in self.fields:
                    raise InvalidArgumentError(f"grid {self.name!r} has no field {name!r} "
                                               f"(fields: {list(self.fields)})")
                dtype, comps = self.fields[name]
                a = _native(np.asarray(arr))
                want = shape + ((comps,) if comps > 1 else ())
                if a.shape != want and not (comps == 1 and a.shape == shape + (1,)):
                    raise InvalidArgumentError(
                        f"field {name!r} has shape {a.shape}; box {(tuple(lo[:nd]), tuple(hi[:nd]))} "
                        f"needs {want}")
                if a.dtype != np.dtype(dtype):
                    raise InvalidArgumentError(f"field {name!r} is {a.dtype}; the grid stores {dtype}")
                fields.append((str(name), a, int(comps)))
        self._core.write(_lodex.GridWrite(step=step, lo=lo, hi=hi, fields=fields, wait=bool(wait)))
        if not wait:
            return PendingWrite(self, step)
        return None

    @property
    def profile(self) -> dict:
        """Timings of the last write (reduced over ranks), with a per-level breakdown."""
        p = json.loads(self._core.profile_json)
        return {} if p.get("step", -1) < 0 else p

    @keyword_options(3, ("resolution", "field", "comm"), "Grid.read")
    def read(self, step: int = 0, box: Any = None, *, resolution: int | None = None,
             field: str | None = None, comm: Any = None) -> np.ndarray:
        """As :meth:`IdxGrid.read`, for a committed step of this grid (either index space)."""
        return _read(self, self, step, box, resolution, field, comm)

    @keyword_options(3, ("field", "start"), "Grid.refine")
    def refine(self, step: int = 0, box: Any = None, *, field: str | None = None,
               start: int | None = None) -> GridRefinement:
        """As :meth:`IdxGrid.refine`, for a committed step of this grid."""
        self._check_step(step)
        return GridRefinement(self, step, box, field, start)

    @keyword_options(3, ("resolution", "field"), "Grid.to_xarray")
    def to_xarray(self, step: int = 0, box: Any = None, *, resolution: int | None = None,
                  field: str | None = None) -> Any:
        """As :meth:`IdxGrid.to_xarray`, for a committed step of this grid."""
        return grid_to_xarray(self, step, box, resolution, field)

    def __repr__(self) -> str:
        return f"<lodex.Grid {self.name!r} dims={self.dims} fields={list(self.fields)} steps={self.steps}>"


def _grid_fields(name: str, dtype: Any, components: int, fields: Mapping[str, Any] | None):
    if fields is not None:
        if dtype is not None:
            raise InvalidArgumentError("give either dtype (one field named like the grid) or fields")
        return _schema(fields)
    if dtype is None:
        raise InvalidArgumentError("a new grid needs a dtype (or fields=)")
    return _schema({name: (dtype, components)})


def define_grid(dataset, name, dims, dtype, components, bitmask, bits_per_block, blocks_per_file,
                aggregation, partitions, compression, fields, index_space="global") -> Any:
    """The arguments of Dataset.define_grid checked and turned into a core definition (collective)."""
    with _collective_input(dataset._core.define_grid, _lodex.GridDefinition, "grid definition"):
        if dims is None:
            raise InvalidArgumentError("a new grid needs dims=(x, y[, z])")
        try:
            d = [int(v) for v in dims]
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"dims must be 1 to 3 positive integers, got {dims!r}") from None
        if not 1 <= len(d) <= 3 or any(not 1 <= v <= 2**40 for v in d):
            raise InvalidArgumentError(f"dims must be 1 to 3 integers in 1..2^40, got {dims!r}")
        nd = len(d)
        specs = _grid_fields(name, dtype, components, fields)
        if compression not in (None, "zip"):
            raise InvalidArgumentError(f"compression must be None or 'zip', got {compression!r}")
        if aggregation not in ("uniform", "localized"):
            raise InvalidArgumentError(f"aggregation must be 'uniform' or 'localized', got {aggregation!r}")
        bpb = 0 if bits_per_block is None else int(bits_per_block)
        if bits_per_block is not None and not 1 <= bpb <= 31:
            raise InvalidArgumentError(f"bits_per_block must be an integer in 1..31, got {bits_per_block!r}")
        bpf = int(blocks_per_file)
        if not 1 <= bpf < 2**40:
            raise InvalidArgumentError(f"blocks_per_file must be an integer in 1..2^40, got {blocks_per_file!r}")
        parts = int(partitions)
        if not 1 <= parts < 2**31 or parts & (parts - 1):
            raise InvalidArgumentError(f"partitions must be a power of two (1, 2, 4, ...), got {partitions!r}")
        if index_space not in ("global", "local"):
            raise InvalidArgumentError(f"index_space must be 'global' or 'local', got {index_space!r}")
    return dataset._core.define_grid(_lodex.GridDefinition(
        name=name, dims=d + [1] * (3 - nd), ndims=nd, fields=specs, bitmask=bitmask or "", bits_per_block=bpb,
        blocks_per_file=bpf, aggregation=aggregation, partitions=parts, index_space=index_space,
        zip=compression == "zip"))


def _grid_box(box: Any, ndims: int):
    try:
        lo, hi = box
        lo = [int(v) for v in lo]
        hi = [int(v) for v in hi]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"box must be ((x0, y0, z0), (x1, y1, z1)) of integers, got {box!r}") from None
    if len(lo) != len(hi) or not ndims <= len(lo) <= 3:
        raise InvalidArgumentError(f"box must have {ndims} coordinates per corner for this grid, got {box!r}")
    if any(not -2**62 <= v < 2**62 for v in lo + hi):
        raise InvalidArgumentError(f"box coordinates must be below 2^62 in magnitude, got {box!r}")
    if any(h < l for l, h in zip(lo, hi)):
        raise InvalidArgumentError(f"box {box!r} has max < min")
    lo += [0] * (3 - len(lo))
    hi += [1] * (3 - len(hi))
    return [lo, hi]


def write_idx(path: str, data: Any, *, ndims: int | None = None, bitmask: str | None = None,
              bits_per_block: int = 16, blocks_per_file: int = -1, compression: str | None = None,
              time: tuple[int, int, str] | None = None, step: int = 0) -> int:
    """Writes a whole grid, serially, in OpenVisus's layout (byte-identical to OpenVisus for the same
    data and parameters). ``data``: a numpy array (z, y, x[, c]) — or (y, x[, c]) — or a dict of
    them, one per field, all of one grid. ``ndims``: the grid's axes (default: the array's; give
    it for vector fields, whose last axis is the components). ``bitmask`` default: OpenVisus's
    guess; ``compression``: None or "zip"; ``time=(first, last, "time_%02d/")`` with ``step``
    writes one step of a time series. Returns the bytes written."""
    arrays = data if isinstance(data, dict) else {"data": data}
    if not arrays:
        raise InvalidArgumentError("write_idx needs at least one field")
    first = np.asarray(next(iter(arrays.values())))
    nd = first.ndim if ndims is None else int(ndims)
    if not 1 <= nd <= 3 or first.ndim < nd:
        raise InvalidArgumentError(f"ndims must be 1..3 and at most the array's {first.ndim} axes, got {ndims!r}")
    grid_shape = first.shape[:nd]
    dims = [int(v) for v in grid_shape[::-1]] + [1] * (3 - nd)
    fields = []
    for name, arr in arrays.items():
        a = _native(np.asarray(arr))
        if a.shape[:nd] != grid_shape:
            raise InvalidArgumentError(f"field {name!r} has shape {a.shape}; the grid is {grid_shape}")
        comps = int(np.prod(a.shape[nd:], dtype=np.int64))
        fields.append((str(name), a.dtype.str.lstrip("<>|="), comps, a))
    if compression not in (None, "zip"):
        raise InvalidArgumentError(f"compression must be None or 'zip', got {compression!r}")
    t = None if time is None else (str(time[0]), str(time[1]), str(time[2]))
    return _lodex.write_idx(str(path), dims=dims, ndims=nd, fields=fields, bitmask=bitmask or "",
                            bits_per_block=int(bits_per_block), blocks_per_file=int(blocks_per_file),
                            zip=compression == "zip", time=t, step=_step(step))


def open_idx(path: str | os.PathLike, allow_outside: bool = False) -> IdxGrid:
    """Opens the IDX dataset whose text header is ``path`` (a .idx file) for reading.

    Its block files are found by the header's ``(filename_template)`` (and ``(time)`` pattern),
    resolved against the .idx file's own directory. Reads open only files whose real location,
    symbolic links resolved, lies in that directory tree: a template or link leading elsewhere is
    a FormatError. ``allow_outside=True`` follows them, for datasets laid out so on purpose."""
    return IdxGrid(_lodex.open_idx(os.fspath(path), bool(allow_outside)))


__all__ = ["Grid", "GridRefinement", "IdxGrid", "open_idx", "write_idx"]
