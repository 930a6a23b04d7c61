"""``lodex export ... --format openpmd`` and ``lodex import ... --format openpmd``: the command
line's parsed arguments to :func:`lodex.openpmd.export` and :func:`lodex.openpmd.import_series`."""

from __future__ import annotations

from ..errors import InvalidArgumentError


def export_command(args, comm, steps, fields, progress) -> dict:
    """``lodex export DATASET GROUP --format openpmd --out series_%T.h5`` (or .bp), ``--meshes
    a,b`` grids and series beside it; or ``lodex export DATASET GRID ...``: a grid or series alone,
    as meshes."""
    from .export import export
    if getattr(args, "max_bytes", None) is not None:
        raise InvalidArgumentError("--max-bytes is H5Part's; an openPMD export holds one lodex file in memory")
    meshes = [n for n in args.meshes.split(",") if n] if getattr(args, "meshes", None) else None
    return export(args.path, args.group, args.out, steps=steps, fields=fields, meshes=meshes,
                  overwrite=args.overwrite, comm=comm, progress=progress)


def import_command(args, dataset, domain, steps, grid, index, progress):
    """``lodex import SERIES DATASET SPECIES --format openpmd``: the species into the group of its name."""
    from .importer import import_series
    return import_series(args.input, dataset, args.group, steps=steps, domain=domain, partition_grid=grid,
                         particles_per_file=args.particles_per_file,
                         partition="adaptive" if args.particles_per_file is not None else None,
                         index=index, progress=progress)
