"""``lodex query``: the particles whose values match a query, counted, summarised or saved."""

from __future__ import annotations

import argparse
import sys

import lodex

from ._common import _array_summary, _check_out, _parse_box, _print_json, _save


def _query(args: argparse.Namespace) -> int:
    import numpy as np


    ds = lodex.open(args.path)
    g = ds.particles[args.group]
    box = _parse_box(args.box) if args.box else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else []
    if args.out and not fields:
        fields = list(g.schema)
    _check_out(args.out, single=False)
    r = g.query(args.step, args.query, box=box, level=args.level, fields=fields,
                count_only=args.count and not args.out, use_index=not args.scan)
    if not args.json:
        for note in r.notes:
            print(f"note: {note}", file=sys.stderr)
    if args.out:
        arrays = {f"rows/{name}": rows for name, rows in r.rows.items()}
        arrays.update(r.data)
        _save(args.out, arrays)
    if args.count:
        print(r.count)
        return 0
    if args.json:
        _print_json(None, {"query": args.query, "step": args.step, "box": box, "level": args.level,
                           "count": r.count, "notes": r.notes, "stats": dict(r.stats),
                           "fields": {n: _array_summary(a) for n, a in r.data.items()}, "out": args.out})
        return 0
    s = r.stats
    print(f"{r.count:,} particles match {args.query!r} in step {args.step}"
          + (f", box {box[0]} - {box[1]}" if box else "")
          + (f", level {args.level}" if args.level is not None else ""))
    print(f"  files: {s['files']} ({s['files_pruned']} pruned by the spatial metadata, {s['files_indexed']} "
          f"answered from bitmap indexes, {s['files_scanned']} scanned); {s['rows_checked']:,} candidate rows "
          f"checked; {s['index_bytes']:,} index bytes and {s['data_bytes']:,} data bytes read in "
          f"{s['seconds'] * 1e3:.2f} ms")
    for name, a in r.data.items():
        if len(a):
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}  min {np.round(a.min(axis=0), 6).tolist()}  "
                  f"max {np.round(a.max(axis=0), 6).tolist()}")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("query", help="particles whose values match a query, e.g. \"energy > 1.3 && x < 3\"")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("query")
    p.add_argument("--step", type=int, required=True)
    p.add_argument("--box", help="x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max)")
    p.add_argument("--level", type=int, help="only each file's rows of levels 0..L (a fair sample)")
    p.add_argument("--fields", help="comma-separated fields of the matches to return")
    p.add_argument("--count", action="store_true", help="print only the number of matches")
    p.add_argument("--scan", action="store_true", help="ignore the bitmap indexes (for comparison)")
    p.add_argument("--out", help="save the matches as .npz: rows/<file> row ids and one array per field "
                                 "(all fields unless --fields)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_query)
