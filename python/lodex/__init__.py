"""lodex: parallel I/O for simulation particles, laid out for box queries and level of detail.

>>> ds = lodex.create("run.lodex", comm=MPI.COMM_WORLD)
>>> g = ds.define_particles("electrons", {"position": ("f8", 3), "energy": "f4"},
...                         domain=((0, 0, 0), (1, 1, 1)), partition=(2, 2, 2))
>>> g.write(0, ((0, 0, 0), (0.5, 0.5, 1)), {"position": pos, "energy": e})   # step, patch, data
>>> lodex.open("run.lodex").particles["electrons"].read(step=0)

Every call takes the step first, then the selection (a patch or box), then the data; options are
keywords. A dataset's groups are mappings: ``ds.particles``, ``ds.grids``, ``ds.series``.
"""

from . import _lodex
from .dataset import Dataset, create, open
from .buffers import StepBuffers
from .particles import IndexBuildStats, ParticleGroup, QueryResult, Refinement
from .pending import PendingWrite, WriteProfile
from .calibrate import Calibration, calibrate
from .grids import Grid, GridRefinement, IdxGrid, open_idx, write_idx
from .h5part import export_h5part, import_h5part
from .series import Series
from .tables import Particles
from .errors import (
    AlreadyExistsError,
    Error,
    FormatError,
    InternalError,
    InvalidArgumentError,
    IOFailure,
    MPIError,
    NotFoundError,
    UnsupportedError,
    MissingDependencyError,
    BY_CODE as _BY_CODE,
)

_lodex._set_error_classes(_BY_CODE)


def __getattr__(name: str):
    """``lodex.plot`` (it imports matplotlib, an optional dependency: lodex[plot]),
    ``lodex.openpmd`` (openPMD-api on first call: lodex[openpmd]) and ``lodex.planning`` on first use."""
    if name in ("plot", "planning", "openpmd"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'lodex' has no attribute {name!r}")
__version__ = _lodex.version()

__all__ = [
    "AlreadyExistsError", "Calibration", "Dataset", "Error", "Grid", "GridRefinement", "FormatError", "IOFailure",
    "IdxGrid", "InternalError",
    "IndexBuildStats", "InvalidArgumentError", "MPIError", "NotFoundError", "ParticleGroup", "PendingWrite",
    "QueryResult", "Refinement",
    "MissingDependencyError", "Particles", "Series", "StepBuffers", "UnsupportedError",
    "WriteProfile", "calibrate", "create", "export_h5part", "import_h5part", "open", "open_idx", "write_idx",
]
