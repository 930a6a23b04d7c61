"""The numbers behind each picture, computed from lodex reads with numpy (no matplotlib): a
particle projection, a grid slice, a series time line and Hovmöller diagram, a field's histogram
and a query's matches. Each returns a :class:`PlotData`; ``lodex.plot`` draws it."""

from __future__ import annotations

import dataclasses
import re
import time
from typing import Any, Mapping, Sequence

import numpy as np

from ..errors import InvalidArgumentError, NotFoundError, UnsupportedError

AXES = "xyz"
# The picture plane of a projection or slice along an axis: (horizontal, vertical) axes.
PLANE = {0: (1, 2), 1: (0, 2), 2: (0, 1)}
# Particles a projection reads unless told otherwise (a level of detail or a fraction): a fair
# sample of about this many, enough for a smooth 512-pixel picture and read in well under a second.
DEFAULT_SAMPLE = 1 << 21
DEFAULT_PIXELS = 512


@dataclasses.dataclass
class PlotData:
    """What a picture draws. ``values``: the image (rows = the vertical axis, bottom first;
    columns = the horizontal axis), the line's values or the histogram's counts. ``x`` and ``y``:
    the horizontal and vertical bin edges of an image; for a line ``x`` holds the steps; for a
    histogram ``x`` holds the bin edges. ``overlay``: a query's matches on the same bins (None
    otherwise). ``stats``: what the reads cost and which sample was taken."""

    kind: str
    values: np.ndarray
    x: np.ndarray
    y: np.ndarray | None = None
    overlay: np.ndarray | None = None
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    label: str = ""
    log: bool = False
    stats: dict = dataclasses.field(default_factory=dict)


def axis_number(axis: Any, what: str = "axis") -> int:
    if axis not in ("x", "y", "z", 0, 1, 2) or isinstance(axis, bool):
        raise InvalidArgumentError(f"{what} must be 'x', 'y' or 'z', got {axis!r}")
    return axis if isinstance(axis, int) else AXES.index(axis)


def with_unit(name: str, units: Mapping[str, str] | None) -> str:
    """``name [unit]`` when ``units`` (a mapping field name -> unit) knows the field, else the name.
    A component ``f[i]`` takes the unit of ``f``; ``x``, ``y``, ``z`` that of ``position``."""
    if not units:
        return name
    base = "position" if name in AXES else name.split("[")[0].removeprefix("|").removesuffix("|")
    unit = units.get(name, units.get(base))
    return f"{name} [{unit}]" if unit else name


def check_units(units: Any) -> Mapping[str, str] | None:
    if units is not None and (not isinstance(units, Mapping)
                              or not all(isinstance(k, str) and isinstance(v, str) for k, v in units.items())):
        raise InvalidArgumentError(f"units must map field names to unit strings, got {units!r}")
    return units


def check_pixels(pixels: Any) -> int:
    if isinstance(pixels, bool) or not isinstance(pixels, (int, np.integer)) or not 1 <= pixels <= 1 << 14:
        raise InvalidArgumentError(f"pixels must be an integer in 1..16384, got {pixels!r}")
    return int(pixels)


# ---------------------------------------------------------------- fields and components

_COMPONENT = re.compile(r"^(\w+)\[(\d+)\]$")


def field_spec(fields: Mapping[str, tuple[str, int]], field: Any, owner: str) -> tuple[str, int | None, str]:
    """(stored field, component or None, label) of a field as plotted: a scalar field by name,
    a component of a vector field as ``name[i]`` (``x``, ``y``, ``z``: the position's), a vector
    field by name alone: its magnitude (labelled ``|name|``)."""
    if not isinstance(field, str):
        raise InvalidArgumentError(f"field must be a name, got {field!r}")
    if field in AXES and "position" in fields and field not in fields:
        return "position", AXES.index(field), field
    m = _COMPONENT.match(field)
    name, comp = (m.group(1), int(m.group(2))) if m else (field, None)
    if name not in fields:
        raise NotFoundError(f"{owner} has no field {name!r} (fields: {', '.join(fields)})")
    comps = fields[name][1]
    if comp is not None and not 0 <= comp < comps:
        raise InvalidArgumentError(f"field {name!r} has {comps} component(s): {field!r} is not one of them")
    if comp is None and comps > 1:
        return name, None, f"|{name}|"
    return name, comp if comps > 1 else None, field


def values_of(a: np.ndarray, comp: int | None) -> np.ndarray:
    """A column as float64 values: the component, or the magnitude of a vector field."""
    if a.ndim == 1 or (a.ndim == 2 and a.shape[1] == 1 and comp is None):
        return a.reshape(len(a)).astype(np.float64)
    if comp is not None:
        return a[:, comp].astype(np.float64)
    return np.linalg.norm(a.astype(np.float64), axis=1)


# ---------------------------------------------------------------- particles

def particle_box(group, box: Any) -> tuple[np.ndarray, np.ndarray]:
    """The box to draw: the group's domain, or ``box`` cut to the domain (a box that misses the
    domain, or is empty, is an error)."""
    from .._args import _box
    dlo, dhi = (np.asarray(c, dtype=np.float64) for c in group.domain)
    if box is None:
        return dlo, dhi
    lo, hi = (np.asarray(c, dtype=np.float64) for c in _box(box, "box"))
    if np.any(~np.isfinite(lo)) or np.any(~np.isfinite(hi)) or np.any(lo >= hi):
        raise InvalidArgumentError(f"box {lo.tolist()} - {hi.tolist()} is empty: every min must be below its max")
    clo, chi = np.maximum(lo, dlo), np.minimum(hi, dhi)
    if np.any(clo >= chi):
        raise InvalidArgumentError(f"box {lo.tolist()} - {hi.tolist()} is outside the domain of particle group "
                                   f"{group.name!r}: {dlo.tolist()} - {dhi.tolist()}")
    return clo, chi


def image_edges(lo: np.ndarray, hi: np.ndarray, axis: int, pixels: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel edges of the projection plane: ``pixels`` along its longer side, square pixels."""
    h, v = PLANE[axis]
    ext = hi - lo
    long = max(ext[h], ext[v])
    nh = max(1, round(pixels * ext[h] / long))
    nv = max(1, round(pixels * ext[v] / long))
    return np.linspace(lo[h], hi[h], nh + 1), np.linspace(lo[v], hi[v], nv + 1)


def _bins(values: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(bin of each value, whether it falls in one) over uniform ``edges``, as numpy.histogram
    counts them (a bin holds [e_i, e_i+1), the last one its right edge too): the bin computed from
    the spacing, then moved by one where rounding put a value beside its edge."""
    n = len(edges) - 1
    inside = (values >= edges[0]) & (values <= edges[-1])
    with np.errstate(invalid="ignore"):   # NaN and infinities: outside, whatever their index
        # in float64 whatever the values' type: float32 arithmetic would be bins off in a small box
        # far from the origin
        i = ((values - edges[0]) * np.float64(n / (edges[-1] - edges[0]))).astype(np.intp)
    np.clip(i, 0, n - 1, out=i)
    i -= values < edges[i]
    i += (values >= edges[i + 1]) & (i < n - 1)
    return i, inside


# Values binned at a time: the temporaries (a few 8-byte arrays of this length) stay in the cache.
_CHUNK = 1 << 20


def histogram_2d(h: np.ndarray, v: np.ndarray, eh: np.ndarray, ev: np.ndarray,
                 weights: np.ndarray | None = None) -> np.ndarray:
    """numpy.histogram2d(h, v, (eh, ev), weights=weights)[0].T for uniform edges, several times
    faster (a bin index per value and one bincount per chunk of values): rows are ``v``'s bins."""
    size = (len(ev) - 1) * (len(eh) - 1)
    counts = np.zeros(size + 1, dtype=np.float64)
    for a in range(0, len(h), _CHUNK):
        ih, in_h = _bins(h[a:a + _CHUNK], eh)
        iv, in_v = _bins(v[a:a + _CHUNK], ev)
        flat = iv * (len(eh) - 1) + ih
        flat[~(in_h & in_v)] = size   # outside the picture: one extra bin, dropped
        w = None if weights is None else weights[a:a + _CHUNK]
        counts += np.bincount(flat, weights=w, minlength=size + 1)
    return counts[:size].reshape(len(ev) - 1, len(eh) - 1)


def estimated_count(group, step: int, lo: np.ndarray, hi: np.ndarray) -> int:
    """Particles of the files whose bounds meet the box (the spatial metadata only): at least the
    particles in the box."""
    n = 0
    for f in group.files(step):
        bmin, bmax = f["bounds"]["min"], f["bounds"]["max"]
        if all(bmin[a] < hi[a] and bmax[a] >= lo[a] for a in range(3)):
            n += int(f["count"])
    return n


def sample_args(group, step: int, lo, hi, level, fraction, sample) -> dict:
    """The read's level of detail: the caller's ``level`` or ``fraction``, else a fraction that
    takes about ``sample`` particles (None: all)."""
    if level is not None and fraction is not None:
        raise InvalidArgumentError("give either level or fraction, not both")
    if level is not None or fraction is not None:
        return {"level": level, "fraction": fraction}
    if sample is None:
        return {}
    if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)) or sample < 1:
        raise InvalidArgumentError(f"sample must be a positive number of particles or None, got {sample!r}")
    n = estimated_count(group, step, lo, hi)
    return {"fraction": sample / n} if n > sample else {}


def _read_box(group, lo, hi):
    """The read box: None when it is the whole domain (no box test on any file)."""
    dlo, dhi = (np.asarray(c, dtype=np.float64) for c in group.domain)
    return None if np.array_equal(lo, dlo) and np.array_equal(hi, dhi) else (tuple(lo), tuple(hi))


def projection(group, step: int, axis: Any = "z", box: Any = None, field: str | None = None, *,
               level: int | None = None, fraction: float | None = None, sample: int | None = DEFAULT_SAMPLE,
               pixels: int = DEFAULT_PIXELS, log: bool | None = None,
               units: Mapping[str, str] | None = None) -> PlotData:
    """Particles of ``step`` inside ``box`` projected along ``axis``: counts per pixel, or the mean
    of ``field`` per pixel (NaN where no particle falls), from a level-of-detail read. ``log``
    None: a log scale for counts (a clustered projection spans decades), linear for a field."""
    ax = axis_number(axis)
    units = check_units(units)
    pixels = check_pixels(pixels)
    lo, hi = particle_box(group, box)
    spec = field_spec(group.schema, field, f"particle group {group.name!r}") if field is not None else None
    lod = sample_args(group, step, lo, hi, level, fraction, sample)
    fields = ["position"] + ([spec[0]] if spec and spec[0] != "position" else [])
    t0 = time.perf_counter()
    data = group.read(step, box=_read_box(group, lo, hi), fields=fields, **lod)
    t1 = time.perf_counter()
    stats = dict(group.last_read_stats, **{k: v for k, v in lod.items() if v is not None})
    eh, ev = image_edges(lo, hi, ax, pixels)
    h, v = PLANE[ax]
    pos = data["position"]
    counts = histogram_2d(pos[:, h], pos[:, v], eh, ev)
    what = (f"{group.name}, step {step}, {stats['particles']:,} particles" + _sample_note(lod)
            + f", projected along {AXES[ax]}")
    out = PlotData("projection", counts, eh, ev, title=what, xlabel=with_unit(AXES[h], units),
                   ylabel=with_unit(AXES[v], units), label="particles per pixel",
                   log=spec is None if log is None else bool(log), stats=stats)
    if spec is not None:
        vals = values_of(data[spec[0]], spec[1])
        sums = histogram_2d(pos[:, h], pos[:, v], eh, ev, weights=vals)
        with np.errstate(invalid="ignore", divide="ignore"):
            out.values = np.where(counts > 0, sums / counts, np.nan)
        out.kind, out.label = "projection_mean", f"mean {with_unit(spec[2], units)}"
    stats.update(read_wall_s=t1 - t0, bin_s=time.perf_counter() - t1)   # wall times of the read and the binning
    return out


def matches_text(n: int) -> str:
    """``1 match``, ``891 matches``."""
    return f"{n:,} match" + ("" if n == 1 else "es")


def _sample_note(lod: dict) -> str:
    if lod.get("level") is not None:
        return f" (level {lod['level']})"
    if lod.get("fraction") is not None and lod["fraction"] < 1:
        return f" (a {lod['fraction']:.3g} sample)"
    return ""


def query_projection(group, step: int, query: str, axis: Any = "z", box: Any = None, **kw) -> PlotData:
    """:func:`projection` of the particles (counts) with the matches of ``query`` (every one, from
    the step's bitmap indexes where it has them) counted on the same pixels as ``overlay``."""
    out = projection(group, step, axis, box, None, **kw)
    lo, hi = particle_box(group, box)
    r = group.query(step, query, box=_read_box(group, lo, hi), fields=["position"])
    h, v = PLANE[axis_number(axis)]
    pos = r.data["position"]
    out.overlay = histogram_2d(pos[:, h], pos[:, v], out.x, out.y)
    out.kind = "query_projection"
    along = AXES[axis_number(axis)]
    out.title = f"{group.name}, step {step}, projected along {along}: {matches_text(r.count)}\n{query}"
    out.stats["matches"] = r.count
    out.stats["query"] = dict(r.stats)
    return out


def histogram(group, step: int, field: str, query: str | None = None, box: Any = None, *, bins: int = 64,
              log: bool = False, units: Mapping[str, str] | None = None, level: int | None = None) -> PlotData:
    """The histogram of ``field`` over every particle of ``step`` in ``box`` (one column read), or
    over levels 0..``level`` of detail; with ``query`` the histogram of its matches (at the same
    level: the sample's particles that pass it) on the same bins as ``overlay``."""
    units = check_units(units)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or not 1 <= bins <= 1 << 16:
        raise InvalidArgumentError(f"bins must be an integer in 1..65536, got {bins!r}")
    name, comp, label = field_spec(group.schema, field, f"particle group {group.name!r}")
    lo, hi = particle_box(group, box)
    rbox = _read_box(group, lo, hi)
    vals = values_of(group.read(step, box=rbox, fields=[name], level=level)[name], comp)
    stats = group.last_read_stats
    vals = vals[np.isfinite(vals)]
    edges = np.histogram_bin_edges(vals, bins=int(bins))
    out = PlotData("histogram", np.histogram(vals, edges)[0], edges, title=f"{group.name}, step {step}: "
                   f"{len(vals):,} particles{_sample_note({'level': level})}", xlabel=with_unit(label, units),
                   ylabel="particles", label="all", log=bool(log), stats=stats)
    if query is not None:
        r = group.query(step, query, box=rbox, level=level, fields=[name])
        out.overlay = np.histogram(values_of(r.data[name], comp), edges)[0]
        out.title += f", {matches_text(r.count)}\n{query}"
        out.stats = dict(stats, matches=r.count, query=dict(r.stats))
    return out


# ---------------------------------------------------------------- grids

def _grid_box(grid, box: Any, nd: int) -> tuple[list[int], list[int]]:
    dims = grid.dims
    if box is None:
        return [0] * nd, list(dims)
    try:
        lo, hi = ([int(v) for v in c] for c in box)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"box must be ((x0, y0[, z0]), (x1, y1[, z1])) integers, got {box!r}") from None
    if len(lo) != nd or len(hi) != nd:
        raise InvalidArgumentError(f"box of a {nd}-D grid needs {nd} coordinates per corner, got {box!r}")
    lo = [max(0, v) for v in lo]
    hi = [min(d, v) for d, v in zip(dims, hi)]
    if any(a >= b for a, b in zip(lo, hi)):
        raise InvalidArgumentError(f"box {box!r} is empty or outside the grid {getattr(grid, 'name', grid.idx_path)!r} "
                                   f"of {' x '.join(map(str, dims))} samples")
    return lo, hi


def grid_slice(grid, step: int = 0, axis: Any = "z", index: int | None = None, box: Any = None, *,
               resolution: int | None = None, field: str | None = None, log: bool = False,
               units: Mapping[str, str] | None = None) -> PlotData:
    """The plane ``index`` (default the middle) across ``axis`` of a 3-D grid (a 2-D grid: the
    whole grid) inside ``box`` at ``resolution``: the samples the grid read returns there. At a
    coarse resolution the plane is the nearest lattice plane at or below ``index``."""
    from ..grids import _lattice_stride
    units = check_units(units)
    nd, ax, (fname, comp, label), lo, hi, res = _slice_request(grid, axis, field, box, resolution)
    stride = [_lattice_stride(grid.bitmask, res, a) for a in range(nd)]
    plane = _plane_index(grid, ax, index, stride, lo, hi) if nd == 3 else None
    if nd == 3:
        lo[ax], hi[ax] = plane, plane + 1
    a = grid.read(step, box=(tuple(lo), tuple(hi)), resolution=res, field=fname)
    stats = dict(grid.last_read_stats, resolution=res)
    img = _squeeze(a, ax, nd, comp)
    if img.size == 0:
        raise InvalidArgumentError(f"the box holds no sample of resolution {res} (every {stride[0]} x {stride[1]}"
                                   f"{f' x {stride[2]}' if nd == 3 else ''}): take a finer resolution or a larger box")
    h, v = PLANE[ax]
    eh, ev = (_lattice_edges(lo[k], stride[k], n) for k, n in ((h, img.shape[1]), (v, img.shape[0])))
    where = f", {AXES[ax]} = {plane}" if nd == 3 else ""
    gname = getattr(grid, "name", None) or grid.idx_path
    title = gname if label == gname else f"{gname} {label}"
    return PlotData("slice", img, eh, ev, title=f"{title}, step {step}{where}, resolution {res} of "
                    f"{grid.max_resolution}", xlabel=with_unit(AXES[h], units), ylabel=with_unit(AXES[v], units),
                    label=with_unit(label, units), log=bool(log), stats=stats)


def _slice_request(grid, axis, field, box, resolution) -> tuple:
    """(dimensions, axis across the plane, (field, component, label), box min, box max, resolution),
    checked."""
    nd = len(grid.dims)
    if nd == 1:
        raise UnsupportedError("a 1-D grid has no plane to draw")
    ax = axis_number(axis) if nd == 3 else 2
    if nd == 2 and axis_number(axis) != 2:
        raise InvalidArgumentError("a 2-D grid is drawn whole: its only plane is across z")
    name = field if field is not None else next(iter(grid.fields))
    spec = field_spec(grid.fields, name, f"grid {getattr(grid, 'name', grid.idx_path)!r}")
    lo, hi = _grid_box(grid, box, nd)
    res = grid.max_resolution if resolution is None else resolution
    if isinstance(res, bool) or not isinstance(res, (int, np.integer)) or not 0 <= res <= grid.max_resolution:
        raise InvalidArgumentError(f"resolution must be an integer in 0..{grid.max_resolution}, got {resolution!r}")
    return nd, ax, spec, lo, hi, int(res)


def _plane_index(grid, ax: int, index: Any, stride: list[int], lo, hi) -> int:
    dims = grid.dims
    i = (lo[ax] + hi[ax]) // 2 if index is None else index   # n // 2 of n planes, as the web viewer
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not lo[ax] <= i < hi[ax]:
        raise InvalidArgumentError(f"index must be an integer in {lo[ax]}..{hi[ax] - 1} (the grid has "
                                   f"{dims[ax]} samples along {AXES[ax]}), got {index!r}")
    return int(i) - int(i) % stride[ax]


def _squeeze(a: np.ndarray, ax: int, nd: int, comp: int | None) -> np.ndarray:
    """The read array (z, y, x[, c]) or (y, x[, c]) as a 2-D image, rows the plane's vertical axis."""
    comps = a.shape[nd] if a.ndim > nd else 1
    if comps > 1:
        a = a[..., comp] if comp is not None else np.linalg.norm(a.astype(np.float64), axis=-1)
    elif a.ndim > nd:
        a = a[..., 0]
    if nd == 3:
        a = np.take(a, 0, axis=2 - ax)
    return a


def _lattice_edges(lo: int, stride: int, n: int) -> np.ndarray:
    """Edges of the cells of n lattice samples from the first multiple of ``stride`` at or after
    ``lo``: sample i covers [c_i, c_i + stride)."""
    first = -(-lo // stride) * stride
    return first + stride * np.arange(n + 1, dtype=np.float64)


# ---------------------------------------------------------------- series

def _series_point(series, variable: str, point: Any) -> list[int]:
    dims = series.dims
    if variable not in series.variables:
        raise NotFoundError(f"series {series.name!r} has no variable {variable!r} "
                            f"(variables: {', '.join(series.variables)})")
    if point is None:
        return [d // 2 for d in dims]
    try:
        p = [int(v) for v in point]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"point must be (x, y[, z]) integers, got {point!r}") from None
    if len(p) == 2:
        p.append(0)
    if len(p) != 3 or any(not 0 <= p[a] < dims[a] for a in range(3)):
        raise InvalidArgumentError(f"point {point!r} is outside the {dims[0]} x {dims[1]} x {dims[2]} grid of "
                                   f"series {series.name!r}")
    if series.variables[variable][1] == 2:
        p[2] = 0
    return p


def _series_steps(series, steps: Any) -> list[int]:
    if steps is None:
        steps = series.steps
    else:
        steps = [steps] if isinstance(steps, (int, np.integer)) else list(steps)
    if not steps:
        raise NotFoundError(f"series {series.name!r} has no flushed steps")
    return [int(s) for s in steps]


def timeline(series, variable: str, point: Sequence[int] | None = None, steps: Any = None, *,
             log: bool = False, units: Mapping[str, str] | None = None) -> PlotData:
    """``variable`` at the grid point ``point`` ((x, y, z); default the middle) over ``steps``
    (default every flushed step)."""
    units = check_units(units)
    p = _series_point(series, variable, point)
    steps = _series_steps(series, steps)
    a = series.read(steps, (tuple(p), tuple(c + 1 for c in p)), variable)
    where = f"({p[0]}, {p[1]})" if series.variables[variable][1] == 2 else f"({p[0]}, {p[1]}, {p[2]})"
    return PlotData("timeline", a.reshape(len(steps)), np.asarray(steps), title=f"{series.name} {variable} at "
                    f"{where}", xlabel="step", ylabel=with_unit(variable, units), label=variable, log=bool(log),
                    stats=series.last_read_stats)


def hovmoller(series, variable: str, axis: Any = "x", point: Sequence[int] | None = None, steps: Any = None, *,
              log: bool = False, units: Mapping[str, str] | None = None) -> PlotData:
    """A time x ``axis`` (Hovmöller) diagram: ``variable`` along the grid line parallel to
    ``axis`` through ``point`` (its ``axis`` coordinate ignored; default the middle), one row per
    step of ``steps``."""
    units = check_units(units)
    ax = axis_number(axis)
    p = _series_point(series, variable, point)
    if ax == 2 and series.variables[variable][1] == 2:
        raise InvalidArgumentError(f"variable {variable!r} is 2-D: it has no z axis to draw")
    steps = _series_steps(series, steps)
    lo, hi = list(p), [c + 1 for c in p]
    lo[ax], hi[ax] = 0, series.dims[ax]
    a = series.read(steps, (tuple(lo), tuple(hi)), variable)
    img = a.reshape(len(steps), series.dims[ax])
    s = np.asarray(steps, dtype=np.float64)
    mid = (s[1:] + s[:-1]) / 2
    ys = np.concatenate([[s[0] - 0.5], mid, [s[-1] + 0.5]]) if len(s) > 1 else np.array([s[0] - 0.5, s[0] + 0.5])
    others = [f"{AXES[k]} = {p[k]}" for k in range(3)
              if k != ax and not (k == 2 and series.variables[variable][1] == 2)]
    return PlotData("hovmoller", img, np.arange(series.dims[ax] + 1, dtype=np.float64), ys,
                    title=f"{series.name} {variable} along {AXES[ax]} at {', '.join(others)}",
                    xlabel=with_unit(AXES[ax], units), ylabel="step", label=with_unit(variable, units),
                    log=bool(log), stats=series.last_read_stats)
