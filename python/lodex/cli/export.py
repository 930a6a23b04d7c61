"""``lodex export``: steps of a particle group written to another format (H5Part or openPMD)."""

from __future__ import annotations

import argparse

import lodex

from ..openpmd.cli import export_command
from ._common import _print_json, _progress, _reporter, _select_steps, _steps_summary, _world_if_mpi


def _export(args: argparse.Namespace) -> int:
    comm = _world_if_mpi()   # under mpiexec rank 0 writes alone (serial HDF5)
    what, source = _source(args)
    steps = _select_steps(args.steps, source.steps, f"{what} '{args.group}'") if args.steps else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    kw = {} if args.max_bytes is None else {"max_bytes": args.max_bytes}
    with _progress(args, comm, None, f"exporting '{args.group}'") as bar:
        if args.format == "openpmd":   # lodex.openpmd (docs/openpmd.md)
            st = export_command(args, comm, steps, fields, _reporter(bar))
        else:
            st = source.export(args.out, format=args.format, steps=steps, fields=fields, overwrite=args.overwrite,
                          comm=comm, progress=_reporter(bar), **kw)
    if args.json:
        _print_json(comm, {**dict(st), "out": args.out, "format": args.format})
    elif comm is None or comm.rank == 0:
        held = f"{st['particles']:,} particles" if what == "particle group" else "as meshes"
        print(f"exported {_steps_summary(st['steps'])} of '{args.group}', {held}, "
              f"to {args.out} ({args.format}): {st['bytes']:,} bytes in {st['seconds']:.3f} s")
    return 0


def _source(args: argparse.Namespace):
    """("particle group", the group), or for an openPMD export of a grid or series (meshes alone)
    ("grid" or "series", it)."""
    ds = lodex.open(args.path)
    if args.format == "openpmd" and args.group not in ds.particles:
        if args.group in ds.grids:
            return "grid", ds.grids[args.group]
        if args.group in ds.series:
            return "series", ds.series[args.group]
    if args.format != "openpmd" and args.meshes:
        raise lodex.InvalidArgumentError("--meshes is openPMD's (--format openpmd)")
    return "particle group", ds.particles[args.group]


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write steps of a particle group to another format (H5Part, for "
                                       "VisIt and ParaView; openPMD, also grids and series as meshes)")
    p.add_argument("path")
    p.add_argument("group", help="the particle group (with --format openpmd also a grid or series, "
                                 "exported as meshes alone)")
    p.add_argument("--format", default="h5part",
                   help="output format: h5part (the default) or openpmd (--out series_%%T.h5 or .bp)")
    p.add_argument("--out", required=True, help="the file to write")
    p.add_argument("--steps", help="steps to export: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--fields", help="comma-separated fields to export (default all)")
    p.add_argument("--meshes", help="openpmd: comma-separated grids and series written as meshes in "
                                    "each iteration beside the particles")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    p.add_argument("--max-bytes", type=int, help="read a step larger than this in spatial pieces "
                                                 "(default 1 GiB)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_export)
