"""The ``lodex`` command line: ``lodex info``, ``lodex read``, ``lodex index``, ``lodex query``,
``lodex truncate``, ``lodex export``, ``lodex import``, ``lodex calibrate``, ``lodex advise``, ``lodex demo``,
``lodex serve``, ``lodex render``, ``lodex paraview-plugin``: one module per command (its
``add_parser(sub)`` defines its arguments and the function that runs it); this module parses the
command line and reports a lodex error in one line."""

from __future__ import annotations

import argparse
import sys

from .. import __version__, errors
from . import (advise, calibrate, demo, export, import_, index, info, paraview, query, read, render, serve, truncate,
               unlock)
from ._common import _as_flags, _mpi_rank

# In the order of `lodex --help`.
COMMANDS = (info, read, index, query, truncate, unlock, export, import_, calibrate, advise, demo, serve,
            paraview, render)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="lodex", description="lodex: parallel I/O for simulation output. A dataset holds particle groups "
        "(level of detail, box reads, bitmap-index value queries), grids (multiresolution IDX, readable by "
        "OpenVisus) and series (STAR time series); these commands inspect, read, index, query, export and "
        "import them, and draw pictures of them.")
    parser.add_argument("--version", action="version", version=f"lodex {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    argv = list(sys.argv[1:] if argv is None else argv)
    # "--box -1,0,0:1,1,1": argparse would take the negative value for an option; glue it on.
    for i in range(len(argv) - 1):
        if argv[i] in ("--box", "--domain") and argv[i + 1].startswith("-"):
            argv[i:i + 2] = [f"{argv[i]}={argv[i + 1]}"]
            break
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except errors.Error as e:
        if _mpi_rank() == 0:   # under mpiexec every rank has the same error: say it once
            print(f"lodex {args.command}: {type(e).__name__}: {_as_flags(str(e))}", file=sys.stderr)
        return 2


def _version() -> str:
    return __version__


if __name__ == "__main__":
    sys.exit(main())
