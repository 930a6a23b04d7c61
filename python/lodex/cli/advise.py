"""``lodex advise``: a particle partition factor, series degrees or grid partitions recommended by
the scale model (docs/scale.md)."""

from __future__ import annotations

import argparse

from .. import errors
from ..planning import advise
from ._common import _ints, _print_json


def _advise(args: argparse.Namespace) -> int:
    if args.kind == "series":
        return _advise_series(args)
    if args.kind == "grid":
        return _advise_grid(args)

    if args.particles_per_rank is None:
        raise errors.InvalidArgumentError("--particles-per-rank is required for --kind particles")
    candidates = None
    if args.candidates:
        try:
            candidates = [tuple(int(x) for x in c.split(",")) for c in args.candidates.split(";")]
        except ValueError:
            raise errors.InvalidArgumentError(
                f"--candidates is px,py,pz;px,py,pz;..., got {args.candidates!r}") from None
    a = advise(args.machine, args.ranks, args.particles_per_rank, bytes_per_particle=args.bytes_per_particle,
               candidates=candidates, adaptive=_ints(args.adaptive, "--adaptive"), curve=not args.no_curve)
    if args.json:
        _print_json(None, a)
        return 0
    rec = a["recommended"]
    print(f"{a['description']}")
    print(f"{a['ranks']:,} ranks x {a['particles_per_rank']:,} particles of {a['bytes_per_particle']} bytes "
          f"= {rec['bytes'] / 1e9:,.1f} GB per write")
    print(f"recommended: partition {tuple(rec['partition'])}: {rec['files']:,} files, "
          f"{rec['throughput'] / 1e9:.1f} GB/s predicted ({rec['seconds']:.2f} s, bound by {rec['bottleneck']})")
    ad = rec["adaptive"]
    print(f"  or partition='adaptive' with particles_per_file={ad['particles_per_file']:,}: {ad['files']:,} files, "
          f"{ad['throughput'] / 1e9:.1f} GB/s predicted")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    print(f"  {'layout':<48} {'files':>9} {'GB/s':>7} {'seconds':>8}  bound by")
    for r in a["alternatives"]:
        memory = ("" if r["fits_memory"] else
                  f"  (an aggregator needs {r['aggregator_bytes'] / 2**20:,.0f} MiB: too much)")
        print(f"  {r['label']:<48} {r['files']:>9,} {r['throughput'] / 1e9:7.1f} {r['seconds']:8.2f}  "
              f"{r['bottleneck']}{memory}")
    if "curves" in a:
        sweep = sorted({r for pts in a["curves"].values() for r, _ in pts})
        print("predicted GB/s by ranks:")
        print(f"  {'layout':<14}" + "".join(f"{r:>9,}" for r in sweep))
        for label, pts in a["curves"].items():
            by = dict((r, t) for r, t in pts)
            print(f"  {label:<14}" + "".join(f"{by[r] / 1e9:9.1f}" if r in by else f"{'-':>9}" for r in sweep))
    print("model and its validation: docs/scale.md")
    return 0


def _advise_series(args: argparse.Namespace) -> int:
    dims = _ints(args.dims, "--dims", 3) or (576, 361, 48)
    variables = [("f4", 3)] * args.vars3d + [("f4", 2)] * args.vars2d
    a = advise(args.machine, args.ranks, kind="series", dims=dims, variables=variables, steps=args.steps,
               readers=args.readers, d_tar=_ints(args.d_tar, "--d-tar"), d_sar=_ints(args.d_sar, "--d-sar"))
    if args.json:
        _print_json(None, a)
        return 0
    print(a["description"])
    print(f"{a['ranks']:,} ranks write {a['steps']} steps of {a['variables']} variables over {tuple(a['dims'])} "
          f"({a['step_bytes'] / 1e9:,.2f} GB per step); {a['readers']} readers read them back")
    rec, star, base = a["recommended"], a["star_choice"], a["baseline"]
    print(f"recommended: d_tar={rec['d_tar']}, d_sar={rec['d_sar']}: "
          f"{rec['files']} file{'' if rec['files'] == 1 else 's'} of {rec['file_bytes'] / 1e9:,.2f} GB, "
          f"chunks of {rec['chunk_bytes'] / 1e6:,.2f} MB; write {rec['write_seconds']:.2f} s, "
          f"reads {rec['read_seconds']:.2f} s predicted")
    print(f"  STAR's own choice (OptSize {star['opt_size']:,} bytes): d_tar={star['d_tar']}, d_sar={star['d_sar']}: "
          f"write {star['write_seconds']:.2f} s, reads {star['read_seconds']:.2f} s")
    print(f"  NetCDF-4-like baseline ({base['label']}): write {base['write_seconds']:.2f} s, "
          f"reads {base['read_seconds']:.2f} s")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    queries = list(rec["reads"])
    print(f"  {'d_tar':>5} {'d_sar':>5} {'files':>6} {'write s':>8} " + " ".join(f"{q:>22}" for q in queries))
    for r in a["alternatives"]:
        memory = "" if r["fits_memory"] else "  (buffer does not fit memory)"
        print(f"  {r['d_tar']:>5} {r['d_sar']:>5} {r['files']:>6} {r['write_seconds']:8.2f} "
              + " ".join(f"{r['reads'][q]:22.3f}" for q in queries) + memory)
    print("model and its validation: docs/scale.md")
    return 0


def _advise_grid(args: argparse.Namespace) -> int:
    dims = _ints(args.dims, "--dims", 3) or (1024, 1024, 1024)
    a = advise(args.machine, args.ranks, kind="grid", dims=dims, fields=args.fields, sample_bytes=args.sample_bytes,
               partitions=_ints(args.partitions, "--partitions"))
    if args.json:
        _print_json(None, a)
        return 0
    rec = a["recommended"]
    print(a["description"])
    print(f"{a['ranks']:,} ranks write a {'x'.join(map(str, a['dims']))} grid of {a['fields']} field(s) of "
          f"{a['sample_bytes']} bytes ({rec['bytes'] / 1e9:,.2f} GB per step)")
    print(f"recommended: {rec['partitions']} partition(s), {rec['aggregation']} aggregation: {rec['files']:,} files, "
          f"{rec['throughput'] / 1e9:.1f} GB/s predicted ({rec['seconds']:.2f} s, bound by {rec['bottleneck']})")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    print(f"  {'layout':<40} {'files':>7} {'senders':>8} {'GB/s':>7} {'seconds':>8}  bound by")
    for r in a["alternatives"]:
        print(f"  {r['label']:<40} {r['files']:>7,} {r['senders_per_aggregator']:>8,} {r['throughput'] / 1e9:7.1f} "
              f"{r['seconds']:8.2f}  {r['bottleneck']}")
    print("model and its validation: docs/scale.md")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("advise", help="recommend a particle partition factor, series degrees (d_tar, d_sar) or "
                                       "grid partitions for a machine and scale (the scale model of docs/scale.md "
                                       "driven by lodex's planners)")
    p.add_argument("--kind", choices=("particles", "series", "grid"), default="particles",
                   help="what is written (default particles)")
    p.add_argument("--machine", required=True, help="mira, theta, jaguar, or a saved lodex calibrate result (*.json) "
                                                    "for this machine")
    p.add_argument("--ranks", type=int, required=True, help="ranks writing (a power of two)")
    p.add_argument("--particles-per-rank", type=int, help="particles: required")
    p.add_argument("--bytes-per-particle", type=int, default=124, help="default 124 (the paper's 15 doubles "
                                                                       "and 1 float)")
    p.add_argument("--candidates", help="partition factors to compare, px,py,pz;px,py,pz;... (default the "
                                        "paper's seven)")
    p.add_argument("--adaptive", help="adaptive particles_per_file targets to compare, n,n,... (default the "
                                      "particles of 2, 8 and 32 ranks)")
    p.add_argument("--no-curve", action="store_true", help="skip the curves over rank counts (faster)")
    p.add_argument("--dims", help="series or grid: the grid, x,y,z (series default 576,361,48, GEOS-5 at 0.5 "
                                  "degrees; grid default 1024,1024,1024)")
    p.add_argument("--vars3d", type=int, default=80, help="series: float32 3-D variables (default 80, GEOS-5's)")
    p.add_argument("--vars2d", type=int, default=185, help="series: float32 2-D variables (default 185)")
    p.add_argument("--steps", type=int, default=30, help="series: steps written (default 30)")
    p.add_argument("--readers", type=int, default=16, help="series: ranks reading them back (default 16)")
    p.add_argument("--d-tar", help="series: d_tar candidates, n,n,... (default 1,2,4,8,16,32 up to --steps)")
    p.add_argument("--d-sar", help="series: d_sar candidates, n,n,... (default 0..3 as the decomposition allows)")
    p.add_argument("--fields", type=int, default=1, help="grid: fields (default 1)")
    p.add_argument("--sample-bytes", type=int, default=4, help="grid: bytes per sample (default 4)")
    p.add_argument("--partitions", help="grid: partition counts to compare, n,n,... (default 1..64)")
    p.add_argument("--json", action="store_true", help="print the advice as one JSON object")
    p.set_defaults(func=_advise)
