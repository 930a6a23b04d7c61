"""lodex's pure planners on simulated ranks (:mod:`lodex.planners`: what a write or read by many
ranks would do, computed without MPI or files) and the advice of the scale model built on them
(:func:`advise`, :mod:`lodex.scale`). For benchmarks, tests and capacity planning at rank counts
a workstation cannot run."""

from __future__ import annotations

from .planners import (histogram_side, lattice_patches, lattice_ranks, plan_grid, plan_series, plan_write,
                       split_series_read)
from .scale.advisor import advise


__all__ = ["advise", "histogram_side", "lattice_patches", "lattice_ranks", "plan_grid", "plan_series",
           "plan_write", "split_series_read"]
