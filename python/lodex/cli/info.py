"""``lodex info``: the particle groups, grids and series of a dataset (:mod:`lodex.summary`)."""

from __future__ import annotations

import argparse
import json
import sys

import lodex

from ..summary import describe, print_description


def _info(args: argparse.Namespace) -> int:
    out = describe(lodex.open(args.path))
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print_description(out, args.files)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("info", help="list particle groups, grids and series: schemas, steps and files")
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--files", action="store_true", help="also list every file: particle files' boxes and "
                                                        "counts, grid steps' block files, series windows")
    p.set_defaults(func=_info)
