"""``lodex paraview-plugin [--loader FILE]``: where lodex's ParaView reader plugin is (docs/paraview.md)."""

from __future__ import annotations


def add_parser(sub) -> None:
    from ..paraview import add_arguments, run

    p = sub.add_parser("paraview-plugin", help="print the path of the ParaView reader plugin (load it with "
                                               "LoadPlugin or Tools > Manage Plugins; docs/paraview.md)")
    add_arguments(p)
    p.set_defaults(func=run)
