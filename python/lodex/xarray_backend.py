"""lodex grids and series in xarray (the optional extra ``lodex[xarray]``).

``xarray.open_dataset("run.lodex", engine="lodex", group="rho")`` opens a grid or a series of a
dataset lazily: one variable per grid field or series variable, dimensions ``step`` and the
spatial axes (``z``, ``y``, ``x``; ``component`` for a vector field), integer coordinates for the
committed steps and the logic positions of the samples. Nothing is read until values are asked
for; then only the selected steps and the bounding box of the selection are read (a grid at the
resolution chosen with ``resolution=``, a series through its spatial-temporal windows).
``Grid.to_xarray`` and ``IdxGrid.to_xarray`` read one step at a resolution eagerly as a
``DataArray``."""

from __future__ import annotations

import os
import threading
from typing import Any, Iterable

import numpy as np

from . import _lodex
from .dataset import open as lodex_open
from .errors import InvalidArgumentError, NotFoundError, require
from .xarray_grid import AXES as _AXES, lattice_coords

xr = require("xarray", "xarray support", "xarray")   # optional: this module is imported only when asked for
from xarray.backends import BackendArray, BackendEntrypoint  # noqa: E402
from xarray.core import indexing  # noqa: E402


def _axis_span(key: Any, n: int) -> tuple[int, int, Any]:
    """A basic index (an int or a slice) of an axis of ``n`` samples: the samples [i0, i1) to read
    (their bounding range) and the index to apply to them."""
    if isinstance(key, (int, np.integer)):
        i = int(key) + (n if key < 0 else 0)
        return i, i + 1, 0
    picked = range(*key.indices(n))
    if not picked:
        return 0, 0, slice(0, 0)
    i0 = min(picked)
    stop = picked.stop - i0
    return i0, max(picked) + 1, slice(picked.start - i0, stop if stop >= 0 else None, picked.step)


class _LodexArray(BackendArray):
    """A lazily read grid field or series variable: shape (steps, [z,] y, x[, components]).
    Subclasses say how one step box is read; reads are serialised by one lock per dataset."""

    def __init__(self, steps: list[int], coords: list[np.ndarray], components: int, dtype: Any,
                 lock: threading.Lock):
        self.steps = steps
        self.coords = coords            # slowest spatial axis first, as the arrays are
        self.components = components
        self.dtype = np.dtype(dtype)
        self.shape = (len(steps), *(len(c) for c in coords)) + ((components,) if components > 1 else ())
        self.lock = lock

    def __getitem__(self, key):
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.BASIC, self._basic)

    def _basic(self, key: tuple) -> np.ndarray:
        step_key, space_key = key[0], key[1:1 + len(self.coords)]
        rest = key[1 + len(self.coords):]
        spans = [_axis_span(k, len(c)) for k, c in zip(space_key, self.coords)]
        steps = self.steps[step_key] if isinstance(step_key, slice) else [self.steps[step_key]]
        if steps and all(i1 > i0 for i0, i1, _ in spans):
            lo = [int(c[i0]) for (i0, _, _), c in zip(spans, self.coords)][::-1]      # x first, as lodex boxes are
            hi = [int(c[i1 - 1]) + 1 for (_, i1, _), c in zip(spans, self.coords)][::-1]
            with self.lock:
                out = self._read(steps, lo, hi)
        else:   # nothing to read: an empty array of the bounding range's shape
            shape = [len(steps)] + [i1 - i0 for i0, i1, _ in spans]
            out = np.empty(shape + ([self.components] if self.components > 1 else []), self.dtype)
        local = tuple(s[2] for s in spans)
        out = out[(slice(None),) + local + tuple(rest)]
        return out[0] if not isinstance(step_key, slice) else out

    def _read(self, steps: list[int], lo: list[int], hi: list[int]) -> np.ndarray:
        raise NotImplementedError


class _GridArray(_LodexArray):
    def __init__(self, grid, field, resolution, coords, lock):
        dtype, components = grid.fields[field]
        super().__init__(list(grid.steps), coords, components, dtype, lock)
        self.grid, self.field, self.resolution = grid, field, resolution

    def _read(self, steps, lo, hi):
        nd = len(self.grid.dims)
        box = (tuple(lo[:nd]), tuple(hi[:nd]))
        return np.stack([self.grid.read(s, box=box, resolution=self.resolution, field=self.field) for s in steps])


class _SeriesArray(_LodexArray):
    def __init__(self, series, var, coords, lock):
        dtype, ndims = series.variables[var]
        super().__init__(list(series.steps), coords, 1, dtype, lock)
        self.series, self.var, self.ndims = series, var, ndims

    def _read(self, steps, lo, hi):
        if self.ndims == 2:   # a 2-D variable spans z = [0, 1) of the box
            lo, hi = lo + [0], hi + [1]
        return np.asarray(self.series.read(list(steps), (tuple(lo), tuple(hi)), self.var))


def _grid_coords(grid, resolution: int | None) -> list[np.ndarray]:
    """Sample positions per axis, slowest first, of the whole grid at ``resolution``."""
    r = grid.max_resolution if resolution is None else resolution
    nd = len(grid.dims)
    lo, hi = grid.box if hasattr(grid, "box") else ((0,) * nd, tuple(grid.dims))   # an IdxGrid has a box
    return [lattice_coords(lo[a], hi[a], int(_lodex.lattice_stride(grid.bitmask, r, a))) for a in reversed(range(nd))]


def _grid_variables(grid, resolution, lock, drop: set[str]) -> dict:
    if resolution is not None and (isinstance(resolution, bool) or not isinstance(resolution, (int, np.integer))
                                   or not 0 <= resolution <= grid.max_resolution):
        raise InvalidArgumentError(f"resolution must be an integer in 0..{grid.max_resolution}, got {resolution!r}")
    coords = _grid_coords(grid, resolution)
    dims = ("step",) + tuple(reversed(_AXES[:len(coords)]))
    out = {}
    for field in grid.fields:
        if field in drop:
            continue
        arr = _GridArray(grid, field, resolution, coords, lock)
        d = dims + (("component",) if arr.components > 1 else ())
        out[field] = xr.Variable(d, indexing.LazilyIndexedArray(arr))
    return out, dims, coords


def _series_variables(series, lock, drop: set[str]) -> tuple[dict, tuple, list]:
    x, y, z = series.dims
    coords = [np.arange(z), np.arange(y), np.arange(x)]
    out = {}
    for var, (_, ndims) in series.variables.items():
        if var in drop:
            continue
        c = coords if ndims == 3 else coords[1:]
        dims = ("step",) + (("z", "y", "x") if ndims == 3 else ("y", "x"))
        out[var] = xr.Variable(dims, indexing.LazilyIndexedArray(_SeriesArray(series, var, c, lock)))
    return out, ("step", "z", "y", "x"), coords


def _pick_group(ds, group: str | None) -> tuple[str, str]:
    """(kind, name) of the grid or series ``group`` names; None: the only one there is."""
    grids, series = list(ds.grids), list(ds.series)
    if group is None:
        if len(grids) + len(series) == 1:
            return ("grid", grids[0]) if grids else ("series", series[0])
        raise InvalidArgumentError(
            f"{ds.path} has {len(grids)} grids and {len(series)} series: pass group=NAME "
            f"(grids: {', '.join(grids) or 'none'}; series: {', '.join(series) or 'none'})")
    if not isinstance(group, str):
        raise InvalidArgumentError(f"group must be a grid or series name, got {group!r}")
    if group in grids:
        return "grid", group
    if group in series:
        return "series", group
    raise NotFoundError(f"no grid or series {group!r} in {ds.path} (grids: {', '.join(grids) or 'none'}; "
                        f"series: {', '.join(series) or 'none'}; particle groups are not opened in xarray)")


def open_lodex(path: str | os.PathLike, group: str | None = None, resolution: int | None = None,
               drop_variables: Iterable[str] | None = None):
    """The xarray.Dataset of grid or series ``group`` of the lodex dataset at ``path``, lazily."""
    ds = lodex_open(path)
    try:
        kind, name = _pick_group(ds, group)
        drop = set(drop_variables or ())
        lock = threading.Lock()
        if kind == "grid":
            obj = ds.grids[name]
            variables, dims, coords = _grid_variables(obj, resolution, lock, drop)
            attrs = {"lodex_kind": "grid", "lodex_name": name, "bitmask": obj.bitmask,
                     "resolution": obj.max_resolution if resolution is None else int(resolution),
                     "max_resolution": obj.max_resolution}
            steps = obj.steps
        else:
            if resolution is not None:
                raise InvalidArgumentError(f"{name!r} is a series: it has no resolutions (resolution= is for grids)")
            obj = ds.series[name]
            variables, dims, coords = _series_variables(obj, lock, drop)
            attrs = {"lodex_kind": "series", "lodex_name": name}
            steps = obj.steps
    except BaseException:
        ds.close()
        raise
    spatial = dict(zip(dims[1:], coords))
    coord_vars = {"step": ("step", np.asarray(steps, dtype=np.int64))}
    coord_vars.update({k: (k, v, {"long_name": f"{k} (logic sample position)"}) for k, v in spatial.items()})
    out = xr.Dataset(variables, coords=coord_vars, attrs=attrs)
    out.set_close(ds.close)
    return out


class LodexBackendEntrypoint(BackendEntrypoint):
    """``xarray.open_dataset(path, engine="lodex", group=NAME, resolution=R)``."""

    description = "lodex grids and series (multiresolution IDX grids, STAR time series)"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "group", "resolution")

    def open_dataset(self, filename_or_obj, *, drop_variables=None, group=None, resolution=None):
        return open_lodex(filename_or_obj, group=group, resolution=resolution, drop_variables=drop_variables)

    def guess_can_open(self, filename_or_obj) -> bool:
        try:
            return os.path.isdir(filename_or_obj) and os.path.isfile(os.path.join(filename_or_obj, "manifest.json"))
        except TypeError:
            return False
