"""The reads behind lodex's ParaView reader (docs/paraview.md), run in lodex's own Python.

ParaView's reader plugin (``lodex_reader.py``, loaded into ParaView's Python) starts
``python -m lodex.paraview.worker`` once and keeps it: it writes one JSON request per line to its
stdin and reads each answer from its stdout: one JSON line, then the raw bytes of each array it
lists (``{"meta": {...}, "arrays": [[name, dtype, shape], ...]}``), or one JSON line
``{"error": "<lodex error class>", "message": "..."}``. Anything else the process prints goes
to stderr; it ends when stdin closes. Every request opens the dataset anew. Requests (``"op"``):

- ``particles_info`` / ``particles``: a particle group's fields, steps, domain and the level to
  open at (``default_level``); a read of one step (``level`` (< 0: none), else ``fraction``
  (>= 1: none), ``box``, ``fields``), the position always included, with the step's particles
  and levels.
- ``grid_info`` / ``grid``: a grid's (or an IDX file's) fields and steps, and the image a read
  at ``resolution`` inside ``box`` gives (extent, origin, spacing); the read, one array per field.
- ``series_info`` / ``series``: a series' variables and steps, and the image of one variable
  inside ``box``; the read of one step.

- ``contents``: the names of the dataset's particle groups, grids and series (and the series'
  variables): what the readers offer.

An empty ``name`` (or ``variable``) means the dataset's first object of the kind asked for (the
series' first variable).
"""

from __future__ import annotations

import json
import math
import os
import sys
from typing import Any, BinaryIO

import numpy as np

import lodex
from lodex.errors import Error, InternalError, InvalidArgumentError, NotFoundError
from lodex.particles import level_total

Arrays = list[tuple[str, np.ndarray]]


def _open(path: str):
    """("dataset", Dataset) or ("idx", IdxGrid) for a dataset directory, its manifest.json, or
    an .idx file."""
    if not isinstance(path, str) or not path:
        raise InvalidArgumentError("no file name given: choose a lodex dataset (its directory or "
                                   "manifest.json) or an .idx file")
    if os.path.basename(path) == "manifest.json":
        path = os.path.dirname(path) or "."
    if path.endswith(".idx") and os.path.isfile(path):
        return "idx", lodex.open_idx(path)
    return "dataset", lodex.open(path)


def _pick(kind: str, name: str, names: list[str], where: str) -> str:
    """``name``, or the first of ``names`` (``kind`` in ``where``) when ``name`` is empty."""
    if name:
        return name
    if not names:
        raise NotFoundError(f"{where} holds no {kind}")
    return names[0]


def _box(request: dict) -> Any:
    box = request.get("box")
    if box is None:
        return None
    if len(box) != 6:
        raise InvalidArgumentError(f"box must be 6 numbers (x0, y0, z0, x1, y1, z1), got {box!r}")
    return (tuple(box[:3]), tuple(box[3:]))


# ---------------------------------------------------------------------------------------------
# Particles
# ---------------------------------------------------------------------------------------------

def _group(request: dict):
    path = request.get("path")
    kind, ds = _open(path)
    if kind != "dataset":
        raise InvalidArgumentError(f"{path} is an IDX grid, not a lodex dataset with particles: "
                                   "open it with the lodex grid reader")
    return ds.particles[_pick("particle groups", request.get("name") or "", list(ds.particles), path)]


# The reader opens coarse: at the finest level whose particles stay within this many (about
# 10^5 on a large step), so that a first look at 10^7 or 10^9 particles costs as little as one
# at 10^5.
COARSE_PARTICLES = 200_000


def levels_of(n: int) -> int:
    """How many levels a read of ``n`` particles has: the last is the first that covers them all."""
    level = 0
    while level_total(level) < n:
        level += 1
    return level + 1


def step_particles(g, step: int) -> int:
    """Particles of a step, from the spatial metadata alone."""
    return sum(int(f["count"]) for f in g.files(step))


def default_level(g) -> int:
    """The level a reader opens at: every particle of the largest step when that stays within
    COARSE_PARTICLES, else the finest level that does."""
    largest = max((step_particles(g, s) for s in g.steps), default=0)
    last = levels_of(largest) - 1
    level = 0
    while level < last and level_total(level + 1) <= COARSE_PARTICLES:
        level += 1
    return level


def particles_info(request: dict) -> tuple[dict, Arrays]:
    g = _group(request)
    return {"name": g.name, "fields": {n: [d, c] for n, (d, c) in g.schema.items()}, "steps": g.steps,
            "whole": [list(g.domain[0]), list(g.domain[1])], "default_level": default_level(g)}, []


def particles(request: dict) -> tuple[dict, Arrays]:
    g = _group(request)
    fields = list(request.get("fields") or [])
    if "position" not in fields:
        fields.append("position")
    level = request.get("level")
    level = None if level is None or level < 0 else int(level)
    fraction = request.get("fraction")
    fraction = None if level is not None or fraction is None or fraction >= 1 else float(fraction)
    data = g.read(int(request["step"]), box=_box(request), fields=fields, level=level, fraction=fraction)
    total = step_particles(g, int(request["step"]))
    meta = {"name": g.name, "count": int(len(data["position"])), "stats": dict(g.last_read_stats),
            "step_particles": total, "levels": int(g.last_read_stats.get("levels") or levels_of(total))}
    return meta, [(f, data[f]) for f in fields]


# ---------------------------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------------------------

def _grid(request: dict):
    """(grid, its name, its steps) of a dataset's grid or an .idx file."""
    path = request.get("path")
    kind, obj = _open(path)
    if kind == "idx":
        time = obj._core.time
        steps = [0] if not time else list(range(int(time[0]), int(time[1]) + 1))
        return obj, os.path.basename(path), steps
    name = _pick("grids", request.get("name") or "", obj.grids, path)
    g = obj.grids[name]
    return g, name, g.steps


def _image(grid, resolution: int, box) -> dict:
    """Where the samples of a read at ``resolution`` inside ``box`` lie: VTK's extent, origin and
    spacing (x, y, z; a 2-D grid has z 0..0). The samples are those of the lattice of stride
    2^k along an axis (k: how often the axis appears in the bitmask after ``resolution``)."""
    nd = len(grid.dims)
    whole = getattr(grid, "box", None) or ((0,) * nd, tuple(grid.dims))   # an IdxGrid has a box
    lo, hi = (list(whole[0]), list(whole[1])) if box is None else (list(box[0][:nd]), list(box[1][:nd]))
    stride = [lodex.grids._lattice_stride(grid.bitmask, resolution, a) for a in range(nd)]
    first = [math.ceil(lo[a] / stride[a]) * stride[a] for a in range(nd)]
    counts = [max(0, -(-(hi[a] - first[a]) // stride[a])) for a in range(nd)]
    pad = 3 - nd
    return {"extent": sum(([0, c - 1] for c in counts + [1] * pad), []),
            "origin": [float(v) for v in first + [0] * pad],
            "spacing": [float(v) for v in stride + [1] * pad],
            "shape": counts[::-1]}   # the read's array shape: (z, y, x) or (y, x)


def _resolution(grid, request: dict) -> int:
    r = request.get("resolution")
    return grid.max_resolution if r is None or r < 0 else int(r)


def _grid_box(request: dict, nd: int):
    """The box in sample coordinates (whole numbers), its first ``nd`` axes."""
    box = _box(request)
    if box is None:
        return None
    if any(float(v) != int(v) for corner in box for v in corner):
        raise InvalidArgumentError(f"a grid or series box is in sample coordinates, whole numbers; got {box!r}")
    return tuple(tuple(int(v) for v in corner[:nd]) for corner in box)


def grid_info(request: dict) -> tuple[dict, Arrays]:
    g, name, steps = _grid(request)
    res = _resolution(g, request)
    if res > g.max_resolution:
        raise InvalidArgumentError(f"resolution {res} is outside 0..{g.max_resolution} (the grid's max_resolution)")
    whole = getattr(g, "box", None) or ((0,) * len(g.dims), tuple(g.dims))   # an IdxGrid has a box
    pad = 3 - len(g.dims)   # a 2-D grid: z 0..1
    meta = {"name": name, "fields": {n: [d, c] for n, (d, c) in g.fields.items()}, "steps": steps,
            "whole": [list(whole[0]) + [0] * pad, list(whole[1]) + [1] * pad], "dims": list(g.dims),
            "max_resolution": g.max_resolution, "resolution": res,
            "image": _image(g, res, _grid_box(request, len(g.dims)))}
    return meta, []


def grid(request: dict) -> tuple[dict, Arrays]:
    g, name, _ = _grid(request)
    res = _resolution(g, request)
    box = _grid_box(request, len(g.dims))
    fields = list(request.get("fields") or g.fields)
    arrays = []
    stats = {}
    for f in fields:
        a = g.read(int(request["step"]), box=box, resolution=res, field=f)
        arrays.append((f, a))
        for k, v in g.last_read_stats.items():
            if isinstance(v, (int, float)):
                stats[k] = stats.get(k, 0) + v
    image = _image(g, res, box)
    for f, a in arrays:
        if list(a.shape[:len(g.dims)]) != image["shape"]:
            raise InternalError(f"grid {name!r}: read {f!r} at resolution {res} gave shape {a.shape}, "
                                f"the lattice {image['shape']}")
    return {"name": name, "resolution": res, "image": image, "stats": stats}, arrays


# ---------------------------------------------------------------------------------------------
# Series
# ---------------------------------------------------------------------------------------------

def _series(request: dict):
    path = request.get("path")
    kind, ds = _open(path)
    if kind != "dataset":
        raise InvalidArgumentError(f"{path} is an IDX grid, not a lodex dataset with series")
    s = ds.series[_pick("series", request.get("name") or "", list(ds.series), path)]
    var = _pick("variables", request.get("variable") or "", list(s.variables), f"series {s.name!r}")
    if var not in s.variables:
        raise NotFoundError(f"no variable {var!r} in series {s.name!r} (variables: {', '.join(s.variables)})")
    return s, var


def _series_image(s, var: str, box) -> dict:
    lo, hi = ([0, 0, 0], list(s.dims)) if box is None else (list(box[0]), list(box[1]))
    if s.variables[var][1] == 2:
        lo[2], hi[2] = 0, 1
    counts = [max(0, hi[a] - lo[a]) for a in range(3)]
    return {"extent": sum(([0, c - 1] for c in counts), []), "origin": [float(v) for v in lo],
            "spacing": [1.0, 1.0, 1.0], "shape": counts[::-1]}


def series_info(request: dict) -> tuple[dict, Arrays]:
    s, var = _series(request)
    box = _grid_box(request, 3)
    meta = {"name": s.name, "variable": var, "variables": {n: [d, k] for n, (d, k) in s.variables.items()},
            "steps": s.steps, "dims": list(s.dims), "whole": [[0, 0, 0], list(s.dims)],
            "image": _series_image(s, var, box)}
    return meta, []


def series(request: dict) -> tuple[dict, Arrays]:
    s, var = _series(request)
    box = _grid_box(request, 3)
    a = s.read(int(request["step"]), box, var)
    return {"name": s.name, "variable": var, "image": _series_image(s, var, box),
            "stats": dict(s.last_read_stats)}, [(var, a)]


# ---------------------------------------------------------------------------------------------
# What a dataset holds
# ---------------------------------------------------------------------------------------------

def contents(request: dict) -> tuple[dict, Arrays]:
    """The names a dataset holds: its particle groups, grids and series (with their variables);
    an .idx file is one grid."""
    path = request.get("path")
    kind, obj = _open(path)
    if kind == "idx":
        return {"groups": [], "grids": [os.path.basename(path)], "series": {}, "idx": True}, []
    return {"groups": list(obj.particles), "grids": list(obj.grids), "idx": False,
            "series": {n: list(obj.series[n].variables) for n in obj.series}}, []


OPS = {"contents": contents, "particles_info": particles_info, "particles": particles, "grid_info": grid_info,
       "grid": grid,
       "series_info": series_info, "series": series}


def answer(request: Any) -> tuple[dict, Arrays]:
    if not isinstance(request, dict) or request.get("op") not in OPS:
        raise InvalidArgumentError(f"a request is an object with an op of {', '.join(OPS)}, got {request!r}")
    return OPS[request["op"]](request)


def _send(out: BinaryIO, header: dict, arrays: Arrays) -> None:
    out.write(json.dumps(header).encode() + b"\n")
    for _, a in arrays:
        out.write(np.ascontiguousarray(a).reshape(-1).view(np.uint8).data)
    out.flush()


def _one(out: BinaryIO, line: str) -> None:
    try:
        meta, arrays = answer(json.loads(line))
    except Error as e:
        _send(out, {"error": type(e).__name__, "message": str(e)}, [])
        return
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        _send(out, {"error": "InvalidArgumentError", "message": f"bad request: {type(e).__name__}: {e}"}, [])
        return
    arrays = [(n, np.ascontiguousarray(a)) for n, a in arrays]
    header = {"meta": meta, "arrays": [[n, a.dtype.str, list(a.shape)] for n, a in arrays]}
    _send(out, header, arrays)


def main() -> int:
    """Answer the requests on stdin, one JSON line each, until it closes."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)   # whatever else prints goes to stderr, not into the answers
    for line in sys.stdin:
        if line.strip():
            _one(out, line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
