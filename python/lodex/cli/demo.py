"""``lodex demo``: the particle demo of :mod:`lodex.demo` (run under mpiexec)."""

from __future__ import annotations

import argparse

from ..demo import main as demo_main


def _demo(args: argparse.Namespace) -> int:
    return demo_main(args.output, args.particles)


def add_parser(sub) -> None:
    p = sub.add_parser("demo", help="write and check the paper's workload (run under mpiexec)")
    p.add_argument("--output", default=None, help="dataset path (default: a temporary folder)")
    p.add_argument("--particles", type=int, default=32768, help="particles per rank")
    p.set_defaults(func=_demo)
