"""``lodex index``: bitmap indexes of particle fields, a step at a time (under mpiexec: in parallel)."""

from __future__ import annotations

import argparse

import lodex

from ._common import _print_json, _progress, _select_steps, _world_if_mpi


def _index(args: argparse.Namespace) -> int:
    comm = _world_if_mpi()
    ds = lodex.open(args.path, mode="a", comm=comm)
    g = ds.particles[args.group]
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    steps = _select_steps(args.steps, g.steps, f"particle group '{args.group}'") if args.steps else list(g.steps)
    st = lodex.IndexBuildStats()
    with _progress(args, comm, len(steps), f"indexing '{args.group}'") as bar:
        for s in steps:   # a step at a time, so that the bar moves; the same indexes as all at once
            one = g.build_index(fields=fields, precision=args.precision, bins=args.bins, steps=[s])
            for k, v in one.items():   # counts, bytes and seconds add up over the steps
                st[k] = st.get(k, 0) + v
            bar.update(1)
    ds.close()
    if args.json:
        _print_json(comm, dict(st))
    elif comm is None or comm.rank == 0:
        print(f"indexed {st['steps']} step(s), {st['files']} files, {st['indexes']} index files: "
              f"{st['index_bytes']:,} bytes for {st['column_bytes']:,} bytes of columns "
              f"({st.size_ratio:.1%}, {st.bits_per_row:.1f} bits per value) in {st['seconds']:.3f} s")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("index", help="build bitmap indexes of particle fields (under mpiexec: in parallel)")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("--fields", help="comma-separated fields to index (default all)")
    binning = p.add_mutually_exclusive_group()
    binning.add_argument("--precision", type=int, help="precision binning: bin edges of this many "
                                                      "significant digits (default 3)")
    binning.add_argument("--bins", type=int, help="equal-weight binning with this many bins")
    p.add_argument("--steps", help="steps to index: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_index)
