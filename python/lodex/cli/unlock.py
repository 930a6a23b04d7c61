"""``lodex unlock``: remove the writer lock a writer that is gone left behind."""

from __future__ import annotations

import argparse
import os

from .. import _lodex, errors
from ._common import _print_json


def _unlock(args: argparse.Namespace) -> int:
    if not os.path.isdir(args.path):
        raise errors.NotFoundError(f"no lodex dataset at '{args.path}'")
    removed = _lodex._unlock(args.path, args.force)
    if args.json:
        _print_json(None, {"path": args.path, "removed": removed})
    elif removed is None:
        print(f"{args.path}: no writer lock")
    else:
        print(f"{args.path}: removed the writer lock of {removed['host']}:{removed['pid']} "
              f"since {removed['since']} (lodex {removed['lodex_version']})")
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("unlock", help="remove the writer lock a writer that is gone left behind (a dead "
                                       "process of this host; --force for one of another host)")
    p.add_argument("path")
    p.add_argument("--force", action="store_true", help="remove it even if its holder may be alive (a holder on "
                                                        "another host cannot be checked): only when sure it is gone")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_unlock)
