"""The reads behind each endpoint of ``lodex serve``: parameters in, a :class:`Frame` (binary
arrays and their description) or a JSON-able dict out. Every read goes through lodex's own
Python API on the one dataset the server was started on."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import InvalidArgumentError, NotFoundError
from ..particles import level_total
from .params import MAX_LEVEL, MAX_TAKE, Params

ALIGN = 8


@dataclass
class Frame:
    """A binary response: ``meta`` (JSON) and named arrays; ``stats`` go in a response header."""
    meta: dict
    arrays: list[tuple[str, np.ndarray]]
    stats: dict = field(default_factory=dict)

    def encode(self) -> bytes:
        """uint32 LE header length H, H bytes of UTF-8 JSON header (padded with spaces so 4 + H is
        a multiple of 8), then the data section: each array's raw little-endian bytes, each
        starting at a multiple of 8 (zero padding). The header's ``arrays`` list gives each
        array's name, dtype (numpy spelling, e.g. "<f8"), shape, offset (from the start of the
        data section, i.e. of the body at 4 + H + offset) and nbytes."""
        return b"".join(self.chunks())

    def _layout(self) -> tuple[bytes, list[np.ndarray]]:
        arrays = [(n, np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<"))) for n, a in self.arrays]
        descr, offset = [], 0
        for n, a in arrays:
            descr.append({"name": n, "dtype": a.dtype.str, "shape": list(a.shape),
                          "offset": offset, "nbytes": a.nbytes})
            offset += _pad(a.nbytes)
        head = json.dumps({**self.meta, "arrays": descr}).encode()
        head += b" " * (_pad(4 + len(head)) - 4 - len(head))
        return len(head).to_bytes(4, "little") + head, [a for _, a in arrays]

    @property
    def nbytes(self) -> int:
        """The encoded size, without encoding."""
        head, arrays = self._layout()
        return len(head) + sum(_pad(a.nbytes) for a in arrays)

    def chunks(self, size: int = 1 << 20):
        """The encoding as pieces of at most ``size`` bytes (views of the arrays, not copies), so
        a response is written without a second copy of its data in memory."""
        head, arrays = self._layout()
        yield head
        for a in arrays:
            raw = memoryview(a.reshape(-1).view(np.uint8)) if a.size else memoryview(b"")
            for i in range(0, len(raw), size):
                yield raw[i:i + size]
            if _pad(a.nbytes) > a.nbytes:
                yield b"\0" * (_pad(a.nbytes) - a.nbytes)


def _pad(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def info(ds) -> dict:
    out = {"path": ds.path, "particles": {}, "grids": {}, "series": {}}
    for name in ds.particles:
        g = ds.particles[name]
        steps = []
        for s in g.steps:
            files = g.files(s)
            bounds = [[min(f["bounds"]["min"][a] for f in files) for a in range(3)],
                      [max(f["bounds"]["max"][a] for f in files) for a in range(3)]] if files else None
            steps.append({"step": s, "particles": sum(f["count"] for f in files),
                          "levels": g.refine(s).levels, "bounds": bounds,
                          "indexed": [i["field"] for i in g.indexes(s)],
                          "ranges": _ranges(g.schema, files)})
        out["particles"][name] = {
            "fields": {n: {"dtype": np.dtype(d).str, "components": c} for n, (d, c) in g.schema.items()},
            "domain": [list(g.domain[0]), list(g.domain[1])], "steps": steps}
    for name in ds.grids:
        g = ds.grids[name]
        out["grids"][name] = {
            "dims": list(g.dims), "steps": g.steps, "max_resolution": g.max_resolution,
            "fields": {n: {"dtype": np.dtype(d).str, "components": c} for n, (d, c) in g.fields.items()}}
    for name in ds.series:
        s = ds.series[name]
        out["series"][name] = {
            "dims": list(s.dims), "steps": s.steps,
            "variables": {n: {"dtype": np.dtype(d).str, "ndim": k} for n, (d, k) in s.variables.items()}}
    return out


def _ranges(schema: dict, files: list[dict]) -> dict:
    """{field: {"min": [...], "max": [...]}} per component over a step's files, from the
    per-file minima and maxima of the metadata (columns in schema order, components flattened):
    the step's exact range without reading a particle. A component with no finite value (or a
    step with no file) gives null."""
    out, col = {}, 0
    for name, (_, comps) in schema.items():
        lo, hi = [], []
        for c in range(comps):
            vals = [(f["min"][col + c], f["max"][col + c]) for f in files
                    if f.get("count") and len(f.get("min", ())) > col + c]
            mins = [a for a, _ in vals if a is not None and np.isfinite(a)]
            maxs = [b for _, b in vals if b is not None and np.isfinite(b)]
            lo.append(float(min(mins)) if mins else None)
            hi.append(float(max(maxs)) if maxs else None)
        out[name] = {"min": lo, "max": hi}
        col += comps
    return out


def _group(ds, p: Params):
    g = ds.particles[p.name("group", list(ds.particles), "particle group")]
    step = p.integer("step", required=True)
    if step not in g.steps:
        raise NotFoundError(f"particle group {g.name!r} has no step {step}; steps: {g.steps}")
    return g, step


class Refinements:
    """The last few refinements the server streamed, each positioned after the level it last
    returned: a viewer asks for levels 0, then 1 (from=0), then 2 (from=1), ... of one view, and
    continuing the same refinement reads each level once instead of the levels below it again."""

    def __init__(self, size: int = 8):
        self.size = size
        self._items: dict[tuple, object] = {}

    def take(self, g, step: int, box, fields: list[str], start: int):
        """A refinement of the view whose next level is start + 1, and whether it was kept."""
        key = (g.name, step, box, tuple(fields))
        ref = self._items.pop(key, None)
        if ref is not None and ref.level == start + 1:
            return ref, True
        return g.refine(step, box, fields), False

    def clear(self) -> None:
        self._items.clear()

    def keep(self, g, step: int, box, fields: list[str], ref) -> None:
        if ref.level < ref.levels:
            self._items[(g.name, step, box, tuple(fields))] = ref
            while len(self._items) > self.size:
                self._items.pop(next(iter(self._items)))


def particles(ds, p: Params, cache: Refinements | None = None, levels: BoxLevels | None = None) -> Frame:
    """The particles of a box at ``level`` (levels 0..level), or with ``from`` only the ones new
    in levels from+1..level; ``fields`` (default all; empty: none, only the count). With
    ``take``, ``have`` or ``most``: a sample less what the client holds (:func:`_difference`)."""
    g, step = _group(ds, p)
    box = p.float_box("box")
    wanted = p.names("fields", list(g.schema), "field")
    wanted = list(g.schema) if wanted is None else wanted
    fields = wanted or [_smallest(g.schema)]   # no field: the count, from the cheapest one
    level = p.integer("level", least=0, most=MAX_LEVEL)
    start = p.integer("from", least=-1, most=MAX_LEVEL)
    take, have, most = p.integer("take", least=1, most=MAX_TAKE), p.samples("have"), p.integer("most", least=0)
    p.done()
    if take is not None or have is not None or most is not None:
        return _difference(g, step, box, wanted, _take_of(level, take, start, box), have or [], most,
                           levels if levels is not None else BoxLevels(0))
    cache = cache if cache is not None else Refinements(0)
    ref, kept = cache.take(g, step, box, fields, -1 if start is None else start)
    last = ref.levels - 1
    level = last if level is None else min(level, last)   # past the last level: the whole view
    if start is not None and start >= level:
        raise InvalidArgumentError(f"from ({start}) must be below level ({level})")
    if start is None:
        data = g.read(step, box, fields, level=level)
        stats = g.last_read_stats
    else:
        data, stats = _new_levels(ref, start, level, g.schema, fields)
        cache.keep(g, step, box, fields, ref)
    meta = {"group": g.name, "step": step, "level": level, "from": start, "levels": ref.levels,
            "count": len(data[fields[0]]), "box": box, "continued": kept, "take": level_take(level)}
    return Frame(meta, [(f, data[f]) for f in wanted], stats)


def level_take(level: int) -> int:
    """The sample size T of levels 0..level (:func:`lodex.particles.level_total`), capped at
    MAX_TAKE: ``read(box, level=L)`` is ``read(box, level=0, P=level_take(L))``."""
    return min(level_total(level), MAX_TAKE)


def _take_of(level, take, start, box) -> int:
    if start is not None:
        raise InvalidArgumentError("from goes with level alone; with take, have or most name what is "
                                   "held in have")
    if level is not None and take is not None:
        raise InvalidArgumentError("give level or take, not both")
    if box is None:
        raise InvalidArgumentError("take, have and most need a box")
    return take if take is not None else MAX_TAKE if level is None else level_take(level)


class BoxLevels:
    """The level count of the last few boxes a sample was asked of (a refinement's setup: the
    metadata and the heads), kept for each box's next requests."""

    def __init__(self, size: int = 16):
        self.size = size
        self._levels: dict[tuple, int] = {}

    def levels(self, g, step: int, box) -> int:
        key = (g.name, step, box)
        if key not in self._levels:
            self._levels[key] = g.refine(step, box, [_smallest(g.schema)]).levels
            while len(self._levels) > max(self.size, 1):
                self._levels.pop(next(iter(self._levels)))
        return self._levels[key]

    def clear(self) -> None:
        self._levels.clear()


def _new_sample(g, step: int, box, take: int, have: list, fields: list[str], count_sample: bool = False):
    """``read(step, box, level=0, P=take)`` less the ``have`` samples, by data file and row:
    :meth:`lodex.particles.ParticleGroup.sample_difference` (the planner's rows of each sample;
    only the positions that decide and the answer are read)."""
    return g.sample_difference(step, box, take, have, fields=fields, count_sample=count_sample)


def _difference(g, step: int, box, wanted: list[str], take: int, have: list, most: int | None,
                levels: BoxLevels) -> Frame:
    """``read(step, box, level=0, P=take)`` less the particles of every ``have`` sample (box,
    take, and the clip box of the part held, or None for all of it): what a viewer that already
    drew those samples lacks of the new view, exact (matched by data file and row, so no particle
    is sent twice and none missed), in a value query's order (file after file, rows ascending).
    With ``most``: a take (at most ``take``) whose new particles are at most ``most``
    (:func:`_fitting_take`); the header's ``take`` says which (the client's next ``have``)."""
    r = _new_sample(g, step, box, take, have, wanted, count_sample=True)
    stats = r.stats   # kept when no take fits (r is then None)
    if most is not None and r.count > most:
        take = _fitting_take(g, step, box, take, (r.count, r.sample), have, most)
        r = _new_sample(g, step, box, take, have, wanted, count_sample=True) if take else None
    out = [(f, r.data[f] if r is not None else _empty(g.schema, f)) for f in wanted]
    meta = {"group": g.name, "step": step, "take": take,
            "have": [[list(b[0]), list(b[1]), t, None if c is None else [list(c[0]), list(c[1])]] for b, t, c in have],
            "levels": levels.levels(g, step, box), "count": 0 if r is None else r.count, "box": box,
            "sample": 0 if r is None else r.sample}
    return Frame(meta, out, stats if r is None else r.stats)


def _empty(schema: dict, f: str) -> np.ndarray:
    dtype, comps = schema[f]
    return np.empty((0,) if comps == 1 else (0, comps), dtype=dtype)


def _fitting_take(g, step, box, take, at_take: tuple[int, int], have, most: int) -> int:
    """A take < ``take`` whose new particles (less ``have``) are at most ``most`` (at ``take``,
    ``at_take``: the new particles, over ``most``, and the sample's): searched between the
    largest take of this box already held (0 new) and ``take`` (the new count grows with the
    take: samples are nested), until within 1 % of ``most`` or after 12 counts (row ids alone,
    no data). The first guess models the new count as the box's sample (about proportional to
    the take) less the held particles it meets (about those met at ``take``); then
    interpolation and bisection in turn."""
    hi, (n_hi, s_hi) = take, at_take
    lo = max([t for b, t, c in have if b == box and c is None and t < take], default=0)
    n_lo = 0
    for i in range(12):
        if hi - lo <= 1 or n_lo >= 0.99 * most:
            break
        if i == 0:
            t = int(hi * (most + s_hi - n_hi) / max(s_hi, 1))
        else:
            t = lo + int((hi - lo) * (most - n_lo) / (n_hi - n_lo)) if i % 2 else (lo + hi) // 2
        t = min(max(t, lo + 1), hi - 1)
        n = _new_sample(g, step, box, t, have, []).count
        lo, n_lo, hi, n_hi = (t, n, hi, n_hi) if n <= most else (lo, n_lo, t, n)
    return lo


def _smallest(schema: dict) -> str:
    return min(schema, key=lambda f: np.dtype(schema[f][0]).itemsize * schema[f][1])


def _new_levels(ref, start: int, level: int, schema: dict, fields: list[str]):
    """The particles of levels start+1..level of a refinement (positioned at level 0, or at
    start + 1 when continued; the levels before start + 1 are read and dropped); stats summed
    over every level read."""
    parts: dict[str, list] = {f: [] for f in fields}
    stats: dict = {}
    while ref.level <= level:
        lv = ref.level
        item = next(ref)
        for k, v in ref.last_read_stats.items():   # costs add up; the candidates are the view's
            stats[k] = max(stats.get(k, 0), v) if k == "candidates" else stats.get(k, 0) + v
        if lv > start:
            for f in fields:
                parts[f].append(item[f])
    out = {}
    for f in fields:
        dtype, comps = schema[f]
        empty = np.empty((0,) if comps == 1 else (0, comps), dtype=dtype)
        out[f] = np.concatenate(parts[f]) if parts[f] else empty
    return out, stats


def query(ds, p: Params) -> Frame:
    """The particles matching ``q`` (bitmap indexes where the step has them); ``fields``
    (default all; empty: none, only the count)."""
    g, step = _group(ds, p)
    q = p.text("q", required=True)
    box = p.float_box("box")
    level = p.integer("level", least=0, most=MAX_LEVEL)
    fields = p.names("fields", list(g.schema), "field")
    fields = list(g.schema) if fields is None else fields
    p.done()
    r = g.query(step, q, box, level=level, fields=fields)
    meta = {"group": g.name, "step": step, "q": q, "level": level, "box": box, "count": r.count,
            "used_index": r.used_index, "notes": r.notes}
    return Frame(meta, [(f, r.data[f]) for f in fields], r.stats)


def count(ds, p: Params) -> dict:
    """The exact number of particles matching ``q`` in the box (``query(..., count_only=True)``:
    bitmap indexes where the step has them, no position read), and with ``budget=B`` the level
    a viewer can draw: the finest whose matches are at most B (every level's matches counted the
    same way; the last level, i.e. every match, when the total fits) and its count."""
    g, step = _group(ds, p)
    q = p.text("q", required=True)
    box = p.float_box("box")
    budget = p.integer("budget", least=1, most=2**62)
    p.done()
    t0 = time.perf_counter()
    r = g.query(step, q, box, count_only=True)
    levels = g.refine(step, box, [_smallest(g.schema)]).levels
    out = {"group": g.name, "step": step, "q": q, "box": box, "count": r.count,
           "used_index": r.used_index, "notes": r.notes, "levels": levels, "stats": r.stats}
    if budget is not None:
        out["level"], out["drawn"] = _level_for(g, q, step, box, levels, r.count, budget)
    out["seconds"] = time.perf_counter() - t0
    return out


def _level_for(g, q: str, step: int, box, levels: int, total: int, budget: int) -> tuple[int, int]:
    """(level, matches at it): the finest level whose matches fit the budget, by bisection
    over count-only queries (a level's matches grow with the level: levels are nested)."""
    if total <= budget or levels <= 1:
        return levels - 1, total
    lo, lo_count, hi = 0, g.query(step, q, box, level=0, count_only=True).count, levels - 1   # hi: over budget
    if lo_count > budget:
        return 0, lo_count   # even level 0 is over: the coarsest there is
    while hi - lo > 1:
        mid = (lo + hi) // 2
        n = g.query(step, q, box, level=mid, count_only=True).count
        lo, lo_count, hi = (mid, n, hi) if n <= budget else (lo, lo_count, mid)
    return lo, lo_count


def grid(ds, p: Params) -> Frame:
    """A box of a grid at a resolution (``slice=axis:index`` narrows one axis to one sample)."""
    g = ds.grids[p.name("name", list(ds.grids), "grid")]
    step = p.integer("step", default=g.steps[0] if g.steps else 0)
    if step not in g.steps:
        raise NotFoundError(f"grid {g.name!r} has no step {step}; steps: {g.steps}")
    nd = len(g.dims)
    box = p.int_box("box", nd)
    box = box if box is not None else ([0] * nd, list(g.dims))
    box = _slice(p.text("slice"), box, nd)
    res = p.integer("resolution", least=0, most=g.max_resolution)
    field_ = p.text("field")
    if field_ is not None and field_ not in g.fields:
        raise NotFoundError(f"grid {g.name!r} has no field {field_!r}; fields: {list(g.fields)}")
    p.done()
    a = g.read(step, box, resolution=res, field=field_)
    lo, hi = g.last_read_box
    meta = {"name": g.name, "step": step, "resolution": g.max_resolution if res is None else res,
            "field": field_ or next(iter(g.fields)), "box": [list(lo), list(hi)]}
    return Frame(meta, [("data", a)], g.last_read_stats)


def _slice(spec: str | None, box, nd: int):
    if spec is None:
        return box
    axis, _, index = spec.partition(":")
    axes = "xyz"[:nd]
    if axis not in axes or not index.lstrip("-").isdigit() or len(index) > 19:
        raise InvalidArgumentError(f"slice must be axis:index with axis in {axes!r}, got {spec!r}")
    a, i = axes.index(axis), int(index)
    lo, hi = list(box[0]), list(box[1])
    if not lo[a] <= i < hi[a]:
        raise InvalidArgumentError(f"slice index {i} is outside [{lo[a]}, {hi[a]}) on axis {axis}")
    lo[a], hi[a] = i, i + 1
    return lo, hi


def series(ds, p: Params) -> Frame:
    """A variable of a series at steps (default every flushed step) over a box (x, y, z order)."""
    s = ds.series[p.name("name", list(ds.series), "series")]
    var = p.name("var", list(s.variables), f"variable of series {s.name!r}")
    steps = p.steps("steps")
    steps = s.steps if steps is None else steps
    missing = [t for t in steps if t not in s.steps]
    if missing:
        raise NotFoundError(f"series {s.name!r} has no step(s) {missing[:5]}; steps: {s.steps}")
    box = p.int_box("box", 3)
    p.done()
    meta = {"name": s.name, "var": var, "steps": steps, "box": box}
    empty = _empty_series_box(s, var, steps, box)
    if empty is not None:   # no samples, as a zero-size box of a grid or of particles
        return Frame(meta, [("data", empty)], {})
    a = s.read(steps, box, var)
    return Frame(meta, [("data", a)], s.last_read_stats)


def _empty_series_box(s, var: str, steps: list[int], box):
    """The empty array a box inside the series with no extent on an axis the variable has gives
    (shape (step, z, y, x) or (step, y, x), one extent 0); None for any other box (read, or
    refused by the reader when it is outside)."""
    if box is None:
        return None
    dtype, ndim = s.variables[var]
    axes = range(3 if ndim == 3 else 2)
    inside = all(0 <= lo <= hi <= d for lo, hi, d in zip(box[0], box[1], s.dims))
    if not inside or all(box[1][a] > box[0][a] for a in axes):
        return None
    extents = [box[1][a] - box[0][a] for a in reversed(axes)]
    return np.empty((len(steps), *extents), dtype=np.dtype(dtype).newbyteorder("<"))


def decode(body: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The inverse of :meth:`Frame.encode`: (header, {name: array}), for Python clients."""
    n = int.from_bytes(body[:4], "little")
    head = json.loads(body[4:4 + n])
    base = 4 + n
    arrays = {d["name"]: np.frombuffer(body, dtype=d["dtype"], count=int(np.prod(d["shape"])),
                                       offset=base + d["offset"]).reshape(d["shape"])
              for d in head["arrays"]}
    return head, arrays


def value_range(ds, p: Params) -> dict:
    """min and max of each component of ``field`` over the box at ``level`` (default the last:
    every particle, exact; a coarse level gives the range of that fair sample, cheaply)."""
    g, step = _group(ds, p)
    field_ = p.name("field", list(g.schema), "field")
    box = p.float_box("box")
    level = p.integer("level", least=0, most=MAX_LEVEL)
    p.done()
    levels = g.refine(step, box, [field_]).levels
    level = levels - 1 if level is None else min(level, levels - 1)   # past the last level: every particle
    a = g.read(step, box, [field_], level=level)[field_]
    a = a.reshape(len(a), g.schema[field_][1])   # (0, components) for an empty box
    finite = a.dtype.kind != "f" or bool(np.isfinite(a).all())
    lo = np.nanmin(a, axis=0).tolist() if len(a) else None
    hi = np.nanmax(a, axis=0).tolist() if len(a) else None
    return {"group": g.name, "step": step, "field": field_, "level": level, "levels": levels,
            "exact": level == levels - 1, "count": len(a), "min": lo, "max": hi,
            "all_finite": finite, "stats": g.last_read_stats}
