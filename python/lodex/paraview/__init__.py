"""lodex in ParaView (docs/paraview.md): a ParaView Python plugin with readers for particle groups,
grids (and any IDX file) and series, which read with lodex in a child process of lodex's Python.

``plugin_path()`` is the file to load in ParaView (Tools > Manage Plugins > Load New, or
``LoadPlugin(path, ns=globals())`` in pvpython); ``write_loader(path)`` writes a script that
loads it from ParaView's Python with nothing else to set (``paraview --script=path``).
``python -m lodex.paraview [--loader FILE]`` and ``lodex paraview-plugin [--loader FILE]`` do
both from the command line. The plugin file imports only ParaView, VTK, numpy and the standard
library: it runs in ParaView's Python, which need not be able to import lodex.
"""

from __future__ import annotations

import argparse
import os
import sys

from .._files import replace_whole
from ..errors import Error, InvalidArgumentError

_LOADER = '''\
"""Loads lodex's ParaView reader plugin (written by `lodex paraview-plugin --loader`).
Run it with `paraview --script=THIS_FILE`, from ParaView's Python Shell (Run Script), or in
pvpython with exec(open(THIS_FILE).read())."""
import inspect
import os

# ParaView 5.11's Python plugin loader imports inspect.getargspec, which Python 3.11 removed
# (Debian 12's ParaView): the same function under its new name.
if not hasattr(inspect, "getargspec"):
    inspect.getargspec = inspect.getfullargspec
os.environ.setdefault("LODEX_PYTHON", {python!r})   # the Python that runs lodex's reads

from paraview.simple import LoadPlugin

LoadPlugin({plugin!r}, ns=globals())
'''


def plugin_path() -> str:
    """The absolute path of the ParaView plugin file (lodex_reader.py)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "lodex_reader.py")


def write_loader(path: str | os.PathLike) -> str:
    """Write a script that loads the plugin into ParaView, with this Python as LODEX_PYTHON (unless
    the environment sets it) and the alias Debian 12's ParaView 5.11 needs on Python 3.11.
    Returns the path. The script is written beside ``path`` and renamed onto it."""
    try:
        out = os.fspath(path)
    except TypeError:
        raise InvalidArgumentError(f"the loader path must be a path, got {path!r}") from None
    if not out or os.path.isdir(out):
        raise InvalidArgumentError(f"the loader path must name a file, got {out!r}")
    replace_whole(out, lambda f: f.write(_LOADER.format(python=sys.executable, plugin=plugin_path())),
                  f"the ParaView loader {out}", text=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lodex.paraview",
                                     description="print the path of lodex's ParaView reader plugin")
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except Error as e:
        print(f"python -m lodex.paraview: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--loader", metavar="FILE", help="also write a script that loads the plugin "
                        "(paraview --script=FILE); needs no environment variable")


def run(args: argparse.Namespace) -> int:
    print(plugin_path())
    if args.loader:
        print(f"wrote {write_loader(args.loader)}: paraview --script={args.loader}", file=sys.stderr)
    return 0
