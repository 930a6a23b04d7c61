"""``lodex import``: an H5Part file or an openPMD species imported into a particle group (under
mpiexec: in parallel)."""

from __future__ import annotations

import argparse
import shutil


from .. import errors
from ..dataset import create_or_append
from ..openpmd.cli import import_command
from ._common import (_parse_domain, _parse_ints, _parse_steps, _print_json, _progress, _reporter, _steps_summary,
                      _world_if_mpi)


def _import(args: argparse.Namespace) -> int:
    comm = _world_if_mpi()
    domain = _parse_domain(args.domain) if args.domain else None
    grid = _parse_ints(args.partition_grid, "--partition-grid", 3) if args.partition_grid else None
    steps = _import_steps(args.steps) if args.steps else None
    index = [f for f in args.index.split(",") if f] if args.index else None
    ds, created = create_or_append(args.path, comm)
    try:
        before = set(ds.particles[args.group].steps) if args.group in list(ds.particles) else set()
        with _progress(args, comm, None, f"importing {args.input}") as bar:
            if args.format == "openpmd":   # lodex.openpmd (docs/openpmd.md)
                g = import_command(args, ds, domain, steps, grid, index, _reporter(bar))
            else:
                g = ds.import_h5part(args.input, args.group, domain=domain, steps=steps, partition_grid=grid,
                                     particles_per_file=args.particles_per_file,
                                     partition="adaptive" if args.particles_per_file is not None else None,
                                     index=index, progress=_reporter(bar))
        imported = sorted(set(g.steps) - before)
        count = sum(sum(rec["count"] for rec in g.files(s)) for s in imported)
        ds.close()
    except errors.Error:
        empty = created and not list(ds.particles)
        ds.close()
        if empty:   # a dataset this command created and nothing went into: leave nothing behind
            if comm is not None:
                comm.Barrier()
            if comm is None or comm.rank == 0:
                shutil.rmtree(args.path, ignore_errors=True)
        raise
    if args.json:
        _print_json(comm, {"steps": imported, "particles": count, "input": args.input, "path": args.path,
                           "group": args.group, "domain": [list(g.domain[0]), list(g.domain[1])]})
    elif comm is None or comm.rank == 0:
        lo, hi = g.domain
        print(f"imported {_steps_summary(imported)}, {count:,} particles, from {args.input} into "
              f"'{args.group}' of {args.path} (domain {lo} - {hi})")
    return 0


def _import_steps(text: str) -> list[int]:
    """--steps of an import: the H5Part file's steps, given as a list or a range a:b (b excluded)."""
    spec = _parse_steps(text)
    if isinstance(spec, list):
        return spec
    if spec[0] is None or spec[1] is None:
        raise errors.InvalidArgumentError(f"--steps of an import needs both ends of a range (a:b), got {text!r}")
    return list(range(spec[0], spec[1]))


def add_parser(sub) -> None:
    p = sub.add_parser("import", help="import an H5Part file into a particle group (under mpiexec: "
                                       "in parallel)")
    p.add_argument("input", help="the H5Part file, or the openPMD series (--format openpmd; group: its species)")
    p.add_argument("--format", default="h5part", choices=("h5part", "openpmd"), help="input format")
    p.add_argument("path", help="the dataset (created if missing)")
    p.add_argument("group")
    p.add_argument("--domain", help="x0,y0,z0,x1,y1,z1 (default: stored by lodex export, else the "
                                    "particles' bounds)")
    p.add_argument("--steps", help="steps to import: 3, 0,2,5 or 0:30 (default all)")
    part = p.add_mutually_exclusive_group()
    part.add_argument("--partition-grid", help="gx,gy,gz: cut the domain into this grid of files")
    part.add_argument("--particles-per-file", type=int, help="adaptive partition with about this many "
                                                             "particles per file")
    p.add_argument("--index", help="comma-separated fields to build bitmap indexes of")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_import)
