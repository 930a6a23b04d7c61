"""Pictures of lodex data with matplotlib (``pip install lodex[plot]``; docs/plot.md).

Every function reads what it draws with lodex's own reads and returns a :class:`Picture`: a
``matplotlib.figure.Figure`` (object-oriented API, no pyplot state) whose ``data`` attribute, a
:class:`PlotData`, holds the numbers drawn (the image, line or histogram and its bin edges), so
they can be checked or reused. ``save(fig, "x.png")`` writes PNG, SVG or PDF by extension.

>>> ds = lodex.open("run.lodex")
>>> fig = lodex.plot.particles(ds.particles["electrons"], step=0, axis="z", field="energy", log=True)
>>> fig.data.values.shape, fig.data.stats["particles"]
>>> lodex.plot.save(fig, "electrons.png")

lodex records no units; pass ``units={"energy": "MeV", "position": "d_e"}`` to label axes with them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..errors import require

require("matplotlib", "lodex.plot", "plot")   # an optional dependency

from . import _data
from ._data import DEFAULT_PIXELS, DEFAULT_SAMPLE, PlotData
from ._draw import FORMATS, Picture, check_output, draw, save

__all__ = ["FORMATS", "Picture", "PlotData", "check_output", "grid_slice", "histogram", "hovmoller",
           "particles", "query", "save", "timeline"]


def particles(group, step: int, axis: str = "z", box: Any = None, field: str | None = None, *,
              level: int | None = None, fraction: float | None = None, sample: int | None = DEFAULT_SAMPLE,
              pixels: int = DEFAULT_PIXELS, log: bool | None = None,
              units: Mapping[str, str] | None = None) -> Picture:
    """The particles of ``step`` inside ``box`` (((x0, y0, z0), (x1, y1, z1)), default the domain;
    cut to the domain) projected along ``axis`` ("x", "y" or "z") onto ``pixels`` pixels along the
    longer side (square pixels). Without ``field``: particles per pixel; with it: the mean of the
    field per pixel (a scalar field, a component ``"position[2]"``/``"z"``, or a vector field's
    magnitude). The particles are a fair sample: levels 0..``level`` of lodex's level-of-detail
    order, or ``fraction`` of them, else about ``sample`` particles (None: all), so a step of
    10^8 particles draws from a small read. ``log``: a logarithmic colour scale (default: for
    counts, whose clustered projections span decades; not for a field's mean)."""
    return draw(_data.projection(group, step, axis, box, field, level=level, fraction=fraction, sample=sample,
                                 pixels=pixels, log=log, units=units))


def query(group, step: int, query: str, axis: str = "z", box: Any = None, *, level: int | None = None,
          fraction: float | None = None, sample: int | None = DEFAULT_SAMPLE, pixels: int = DEFAULT_PIXELS,
          log: bool = True, units: Mapping[str, str] | None = None) -> Picture:
    """The matches of ``query`` (``ParticleGroup.query`` syntax, e.g. ``"energy > 0.5"``; every
    match) in colour over the projection of all particles (grey, a sample as in :func:`particles`)
    on the same pixels; ``data.values`` are the particles per pixel, ``data.overlay`` the matches."""
    return draw(_data.query_projection(group, step, query, axis, box, level=level, fraction=fraction,
                                       sample=sample, pixels=pixels, log=log, units=units))


def histogram(group, step: int, field: str, query: str | None = None, box: Any = None, *, bins: int = 64,
              log: bool = False, units: Mapping[str, str] | None = None, level: int | None = None) -> Picture:
    """The histogram of ``field`` over every particle of ``step`` in ``box`` (only that column is
    read), or over levels 0..``level`` of detail, with the matches of ``query`` (at the same
    level) highlighted on the same bins (``data.overlay``): what the query selects. ``log``: a
    logarithmic count axis."""
    return draw(_data.histogram(group, step, field, query, box, bins=bins, log=log, units=units, level=level))


def grid_slice(grid, step: int = 0, axis: str = "z", index: int | None = None, box: Any = None, *,
               resolution: int | None = None, field: str | None = None, log: bool = False,
               units: Mapping[str, str] | None = None) -> Picture:
    """A plane of a grid (``Dataset.grid`` or ``lodex.open_idx``) with a colour bar: the samples
    at ``index`` (default the middle) across ``axis`` inside ``box`` (((x0, y0, z0), (x1, y1, z1)),
    integers, max exclusive) at ``resolution`` (default full; coarse resolutions read only their
    IDX levels, and the plane moves to the nearest lattice plane at or below ``index``). A 2-D
    grid is drawn whole. ``field``: default the first; ``name[i]`` a component."""
    return draw(_data.grid_slice(grid, step, axis, index, box, resolution=resolution, field=field, log=log,
                                 units=units))


def timeline(series, variable: str, point: Sequence[int] | None = None, steps: Any = None, *,
             log: bool = False, units: Mapping[str, str] | None = None) -> Picture:
    """A series variable at the grid point ``point`` ((x, y, z), or (x, y) for a 2-D variable;
    default the middle of the grid) over ``steps`` (default every flushed step)."""
    return draw(_data.timeline(series, variable, point, steps, log=log, units=units))


def hovmoller(series, variable: str, axis: str = "x", point: Sequence[int] | None = None, steps: Any = None, *,
              log: bool = False, units: Mapping[str, str] | None = None) -> Picture:
    """A time x ``axis`` (Hovmöller) diagram of a series variable: the grid line along ``axis``
    through ``point`` (its ``axis`` coordinate is ignored; default the middle of the grid), one
    row per step of ``steps`` (default every flushed step)."""
    return draw(_data.hovmoller(series, variable, axis, point, steps, log=log, units=units))
