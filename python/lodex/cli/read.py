"""``lodex read``: a step of particles (a box, a level of detail, a fraction), of a grid (a box at a
resolution) or a hyperslab of a series variable, summarised, counted or saved (--out)."""

from __future__ import annotations

import argparse
import os

import lodex

from .. import errors
from ..tables import Particles
from ._common import (_array_summary, _check_out, _parse_box, _parse_grid_box, _print_json, _progress, _save,
                      _select_steps, _shows_progress)


def _read(args: argparse.Namespace) -> int:
    import numpy as np

    ds = lodex.open(args.path)
    if args.group in ds.series:
        return _read_series(args, ds.series[args.group])
    if args.variable or args.steps:
        raise errors.InvalidArgumentError(f"'{args.group}' is not a series: VARIABLE and --steps are for series")
    if args.step is None:
        raise errors.InvalidArgumentError("--step is needed")
    if args.group in ds.grids:
        return _read_grid(args, ds.grids[args.group])
    if args.resolution is not None or args.field:
        raise errors.InvalidArgumentError(f"'{args.group}' is not a grid: --resolution and --field are for grids")
    g = ds.particles[args.group]
    box = _parse_box(args.box) if args.box else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    if args.count and fields is None:
        fields = ["position"]   # counting needs no other column
    lod = {k: v for k, v in (("readers", args.readers), ("P", args.P), ("S", args.S)) if v is not None}
    _check_out(args.out, single=fields is not None and len(fields) == 1)
    if args.level is None and args.fraction is None and not lod:
        data, stats = _read_with_progress(args, g, box, fields)
    else:
        data = g.read(args.step, box=box, fields=fields, level=args.level, fraction=args.fraction, **lod)
        stats = g.last_read_stats
    count = stats["particles"]
    if args.out:
        _save(args.out, data, next(iter(data.values())) if len(data) == 1 else None)
    if args.count:
        print(count)
        return 0
    if args.json:
        _print_json(None, {"kind": "particles", "name": args.group, "step": args.step, "box": box,
                           "level": args.level, "fraction": args.fraction, "count": count,
                           "fields": {n: _array_summary(a) for n, a in data.items()}, "stats": dict(stats),
                           "out": args.out})
        return 0
    what = f"step {args.step}" + (f", box {box[0]} - {box[1]}" if box else "") + (
        f", level {args.level}" if args.level is not None else "") + (
        f", fraction {args.fraction}" if args.fraction is not None else "")
    print(f"{count:,} particles ({what})")
    for name, a in data.items():
        if len(a):
            lo = a.min(axis=0)
            hi = a.max(axis=0)
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}  min {np.round(lo, 6).tolist()}  "
                  f"max {np.round(hi, 6).tolist()}")
        else:
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}")
    print(f"read {stats['bytes_read']:,} bytes from {stats['files_opened']} files "
          f"({stats['requests']} requests) for {stats['bytes_returned']:,} bytes returned"
          f" in {stats['seconds'] * 1e3:.2f} ms")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _read_series(args: argparse.Namespace, s) -> int:
    if args.level is not None or args.fraction is not None or args.fields or args.resolution is not None or args.field:
        raise errors.InvalidArgumentError("series reads take VARIABLE, --steps (or --step) and --box")
    if not args.variable:
        raise errors.InvalidArgumentError(f"name the variable of series '{s.name}' to read: one of "
                                          + ", ".join(s.variables))
    if args.step is not None and args.steps:
        raise errors.InvalidArgumentError("give --step or --steps, not both")
    steps = args.step if args.step is not None else (
        _select_steps(args.steps, s.steps, f"series '{s.name}'") if args.steps else None)
    box = _parse_grid_box(args.box) if args.box else None
    _check_out(args.out, single=True)
    a = s.read(steps, box, args.variable)
    st = s.last_read_stats
    if args.out:
        _save(args.out, {args.variable: a}, a)
    if args.count:
        print(a.size)
        return 0
    if args.json:
        _print_json(None, {"kind": "series", "name": s.name, "variable": args.variable, "box": box,
                           **_array_summary(a), "stats": dict(st), "out": args.out})
        return 0
    print(f"series '{s.name}' {args.variable}" + (f", box {box[0]} - {box[1]}" if box else "")
          + f": {a.dtype} {a.shape}")
    if a.size:
        print(f"  min {a.min():.6g}  max {a.max():.6g}  mean {a.mean():.6g}")
    print(f"read {st['bytes_read']:,} bytes from {st['chunks']} chunks of {st['windows']} window files "
          f"({st['requests']} requests) in {st['seconds'] * 1e3:.2f} ms")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _read_grid(args: argparse.Namespace, g) -> int:
    if args.level is not None or args.fraction is not None or args.fields:
        raise errors.InvalidArgumentError("--level, --fraction and --fields are for particles; grids take "
                                          "--resolution and --field")
    box = _parse_grid_box(args.box) if args.box else None
    _check_out(args.out, single=True)
    a = g.read(args.step, box=box, resolution=args.resolution, field=args.field)
    stats = g.last_read_stats
    if args.out:
        _save(args.out, {args.field or next(iter(g.fields)): a}, a)
    if args.count:
        print(a.size)
        return 0
    res = g.max_resolution if args.resolution is None else args.resolution
    if args.json:
        _print_json(None, {"kind": "grid", "name": g.name, "step": args.step, "resolution": res,
                           "max_resolution": g.max_resolution, "box": box, **_array_summary(a),
                           "stats": dict(stats), "out": args.out})
        return 0
    print(f"grid '{g.name}' step {args.step}, resolution {res} of {g.max_resolution}"
          + (f", box {box[0]} - {box[1]}" if box else "") + f": {a.dtype} {a.shape}")
    if a.size:
        print(f"  min {a.min():.6g}  max {a.max():.6g}  mean {a.mean():.6g}")
    print(f"read {stats['bytes_read']:,} bytes in {stats['blocks_read']} blocks from {stats['files_opened']} files")
    if args.out:
        print(f"wrote {args.out}")
    return 0


# A full-resolution read of more than this many bytes (the environment's LODEX_READ_PIECE_BYTES,
# default 64 MiB) shows a progress bar on a terminal: it is read in spatial pieces of about this
# size (disjoint boxes covering the query, so together exactly its particles).
_READ_PIECE_BYTES = 64 << 20


def _read_with_progress(args, g, box, fields) -> tuple[dict, dict]:
    """``g.read(step, box, fields)`` and its stats; in pieces with a progress bar when large."""
    import math

    import numpy as np

    pieces = 1
    if _shows_progress(args, None):   # the estimate reads the step's metadata: only for a bar
        piece = int(os.environ.get("LODEX_READ_PIECE_BYTES", _READ_PIECE_BYTES))
        names = fields or list(g.schema)
        row = sum(np.dtype(d).itemsize * c for n, (d, c) in g.schema.items() if n in names)
        estimate = sum(rec["count"] for rec in g.files(args.step)) * row   # the whole step: an upper bound
        pieces = min(math.ceil(estimate / max(piece, 1)), 4096)
    if pieces < 2:
        data = g.read(args.step, box=box, fields=fields)
        return data, g.last_read_stats
    with _progress(args, None, pieces, f"reading '{args.group}' step {args.step}", unit="piece") as bar:
        parts, stats = [], {}
        for part in g.spatial_split(args.step, box, readers=pieces):
            parts.append(g.read(args.step, box=part, fields=fields))
            for k, v in g.last_read_stats.items():
                stats[k] = stats.get(k, 0) + v
            bar.update(1)
    data = Particles({n: np.concatenate([p[n] for p in parts]) for n in parts[0]})
    return data, stats


def add_parser(sub) -> None:
    p = sub.add_parser("read", help="read a step of particles (a box, a level of detail, a fraction) "
                                     "or of a grid (a box at a resolution), or a hyperslab of a series "
                                     "variable (steps and a box)")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("variable", nargs="?", help="series: the variable to read")
    p.add_argument("--step", type=int, help="the step (particles and grids: required)")
    p.add_argument("--steps", help="series: steps to read: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--box", help="x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max)")
    lod = p.add_mutually_exclusive_group()
    lod.add_argument("--level", type=int, help="levels 0..L of the paper's level-of-detail order")
    lod.add_argument("--fraction", type=float, help="this share of the particles, a fair sample")
    p.add_argument("--readers", type=int, help="n in x(n,l) = n*P*S^l (default 1)")
    p.add_argument("--P", type=int, help="particles per reader in level 0 (default 32)")
    p.add_argument("--S", type=float, help="level scale (default 2)")
    p.add_argument("--fields", help="comma-separated fields to read (default all)")
    p.add_argument("--count", action="store_true", help="print only the number of particles")
    p.add_argument("--out", help="save the result to exactly this file; the format follows the extension: .npz "
                                 "(one array per field) or .npy (grids, series, or particles with one --fields)")
    p.add_argument("--resolution", type=int, help="grids: levels 0..R of the IDX hierarchy (default all)")
    p.add_argument("--field", help="grids: the field to read (default the first)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (a full read of more than 64 MiB "
                                                        "shows one on a terminal)")
    p.set_defaults(func=_read)
