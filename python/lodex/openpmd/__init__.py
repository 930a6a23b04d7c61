"""openPMD export and import (docs/openpmd.md), through openPMD-api.

``lodex.openpmd.export(dataset, group, "series_%T.h5")`` writes a particle group's steps as the
iterations of an openPMD series, its files as ``particlePatches``;
``lodex.openpmd.import_series("series_%T.h5", dataset, "electrons")`` reads a species of any
openPMD series (HDF5 or ADIOS2 BP; file-, group- or variable-based) into a particle group.
openPMD-api is imported only when used: ``pip install 'lodex[openpmd]'``.
"""

from .export import export
from .importer import import_series

__all__ = ["export", "import_series"]
