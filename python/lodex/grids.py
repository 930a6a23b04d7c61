"""IDX grids (OpenVisus's format): ``lodex.open_idx`` reads any IDX dataset, written by OpenVisus,
PIDX or lodex, one process, no MPI. Writing grids in parallel is not built yet."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _lodex
from .api import _native, _step
from .errors import InvalidArgumentError


class IdxGrid:
    """An IDX dataset opened for reading. Arrays come back like OpenVisus's ``db.read()``:
    numpy (z, y, x[, c]) for 3-D grids, (y, x[, c]) for 2-D."""

    def __init__(self, core):
        self._core = core
        self.last_read_stats: dict = {}

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

    def read(self, step: int = 0, box: Any = None, resolution: int | None = None,
             field: str | None = None) -> np.ndarray:
        """The samples of ``field`` (default: the first) at time ``step`` inside ``box``
        (((x0, y0[, z0]), (x1, y1[, z1])), min inclusive, max exclusive, logic coordinates;
        default the whole grid) at ``resolution`` (0..max_resolution, default full): the
        strided samples of IDX levels 0..resolution, as OpenVisus's read(max_resolution=r)."""
        step = _step(step)
        if field is None:
            field = self._core.fields[0][0]
        if resolution is not None and (isinstance(resolution, bool) or not isinstance(resolution, (int, np.integer))):
            raise InvalidArgumentError(f"resolution must be an integer, got {resolution!r}")
        core_box = None
        if box is not None:
            core_box = _grid_box(box, self._core.ndims)
        arr, stats = self._core.read(field, step, core_box, None if resolution is None else int(resolution))
        self.last_read_stats = dict(stats)
        return arr

    def __repr__(self) -> str:
        return f"<lodex.IdxGrid {self.idx_path!r} dims={self.dims} fields={list(self.fields)}>"


def _grid_box(box: Any, ndims: int):
    try:
        lo, hi = box
        lo = [int(v) for v in lo]
        hi = [int(v) for v in hi]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"box must be ((x0, y0, z0), (x1, y1, z1)) of integers, got {box!r}") from None
    if len(lo) != len(hi) or not ndims <= len(lo) <= 3:
        raise InvalidArgumentError(f"box must have {ndims} coordinates per corner for this grid, got {box!r}")
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
    return _lodex.write_idx(str(path), dims, nd, fields, bitmask or "", int(bits_per_block), int(blocks_per_file),
                            compression == "zip", t, _step(step))


def open_idx(path: str) -> IdxGrid:
    """Opens the IDX dataset whose text header is ``path`` (a .idx file) for reading."""
    return IdxGrid(_lodex.open_idx(str(path)))
