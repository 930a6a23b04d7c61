"""One step of a grid as an ``xarray.DataArray`` (``Grid.to_xarray``, ``IdxGrid.to_xarray``),
with the logic positions of the samples as coordinates. xarray (the optional extra
``lodex[xarray]``) is imported when a conversion is asked for; the lazy backend of
``xarray.open_dataset(..., engine="lodex")`` is :mod:`lodex.xarray_backend`."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _lodex
from .errors import require

AXES = ("x", "y", "z")


def lattice_coords(lo: int, hi: int, stride: int) -> np.ndarray:
    """The logic positions k * stride inside [lo, hi): where a read at a resolution has samples."""
    first = -(-lo // stride) * stride
    return np.arange(first, hi, stride, dtype=np.int64)


def grid_to_xarray(grid, step: int, box: Any, resolution: int | None, field: str | None):
    """One step of a grid at a resolution as an xarray.DataArray with sample-position coordinates."""
    xr = require("xarray", "xarray support", "xarray")
    field = next(iter(grid.fields)) if field is None else field
    a = grid.read(step, box=box, resolution=resolution, field=field)
    (lo, hi), nd = grid.last_read_box, len(grid.dims)
    r = grid.max_resolution if resolution is None else int(resolution)
    coords = {AXES[ax]: lattice_coords(lo[ax], hi[ax], int(_lodex.lattice_stride(grid.bitmask, r,
                                                                                 ax))) for ax in range(nd)}
    dims = tuple(reversed(AXES[:nd])) + (("component",) if a.ndim > nd else ())
    return xr.DataArray(a, dims=dims, coords=coords, name=field,
                        attrs={"step": int(step), "resolution": r, "max_resolution": grid.max_resolution})
