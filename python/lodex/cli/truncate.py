"""``lodex truncate``: remove every step after a checkpoint's step (under mpiexec: collective)."""

from __future__ import annotations

import argparse

import lodex

from .. import errors
from ._common import _print_json, _steps_text, _world_if_mpi


def _truncate(args: argparse.Namespace) -> int:
    comm = _world_if_mpi()
    ds = lodex.open(args.path, mode="a", comm=comm)
    if args.group is None:
        target = ds
    elif args.group in list(ds.particles):
        target = ds.particles[args.group]
    elif args.group in ds.grids:
        target = ds.grids[args.group]
    elif args.group in list(ds.series):
        target = ds.series[args.group]
    else:
        raise errors.NotFoundError(
            f"no group '{args.group}' in '{args.path}' (particle groups: {', '.join(list(ds.particles)) or 'none'}; "
            f"grids: {', '.join(ds.grids) or 'none'}; series: {', '.join(ds.series) or 'none'})")
    removed = target.truncate(args.after)
    if args.group is not None:
        removed = {args.group: removed}
    ds.close()
    if args.json:
        _print_json(comm, {"path": args.path, "after": args.after, "removed": removed})
    elif comm is None or comm.rank == 0:
        kinds = {**{n: "particle group" for n in ds.particles}, **{n: "grid" for n in ds.grids},
                 **{n: "series" for n in list(ds.series)}}
        kept = "every step removed" if args.after == -1 else f"steps after {args.after}"
        for name, steps in removed.items():
            what = f"removed {len(steps)} step(s): {_steps_text(steps)}" if steps else "nothing to remove"
            print(f"{kinds.get(name, 'group')} '{name}': {what}")
        print(f"{sum(len(s) for s in removed.values())} step(s) removed ({kept})")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("truncate", help="remove every step after a checkpoint's step, to restart a simulation "
                                         "from it (under mpiexec: collective)")
    p.add_argument("path")
    p.add_argument("--after", type=int, required=True, help="keep the steps up to this one; -1 removes every step")
    p.add_argument("--group", help="only this particle group, grid or series (default: every group at once)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_truncate)
