"""The aggregation planner on simulated ranks: what a write by many ranks would do, computed
without MPI or files (lodex's own pure planner, layout/particle_plan.hpp). For benchmarks and
tests at rank counts a workstation cannot run."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import _lodex
from .api import _box, _partition_spec
from .workloads import patch_of


def lattice_patches(grid: Sequence[int], domain=((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))) -> np.ndarray:
    """(R, 6) patches (min xyz, max xyz) of an x-fastest nx x ny x nz lattice of ``domain``: the
    boxes ``lodex.workloads.patch_of`` gives each rank, to the last bit."""
    return np.array([[*lo, *hi] for lo, hi in (patch_of(r, tuple(grid), domain) for r in range(int(np.prod(grid))))],
                    dtype=np.float64)


def lattice_ranks(positions: np.ndarray, grid: Sequence[int], h: int,
                  domain=((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))):
    """Simulated ranks on a lattice holding ``positions``: (rank of each particle, counts per
    rank, (R, h^3) histograms over each rank's patch as a write computes them)."""
    n = np.array([int(g) for g in grid])
    lo = np.asarray(domain[0], float)
    hi = np.asarray(domain[1], float)
    unit = (positions - lo) / (hi - lo)
    ijk = np.minimum((unit * n).astype(np.int64), n - 1)
    rank = ijk[:, 0] + n[0] * (ijk[:, 1] + n[1] * ijk[:, 2])
    R = int(np.prod(n))
    counts = np.bincount(rank, minlength=R).astype(np.uint64)
    within = np.clip((unit * n - ijk) * h, 0, h - 1).astype(np.int64)   # the cell inside the patch
    cell = within[:, 0] + h * (within[:, 1] + h * within[:, 2])
    hist = np.bincount(rank * h**3 + cell, minlength=R * h**3).astype(np.uint32).reshape(R, h**3)
    return rank, counts, hist


def histogram_side(ranks: int) -> int:
    """The histogram side h an adaptive write by ``ranks`` ranks exchanges (16 down to 1)."""
    return int(_lodex.adaptive_histogram_side(ranks))


def plan_write(domain, patches: np.ndarray, counts: np.ndarray, *, partition=None,
               partition_grid=None, particles_per_file: int | None = None,
               histograms: np.ndarray | None = None):
    """The plan a write by ``len(counts)`` ranks would make: ``partition=(Px, Py, Pz)`` (factor),
    ``partition_grid=(gx, gy, gz)`` or ``partition="adaptive"`` with ``particles_per_file``.
    Returns a PlanPreview: num_partitions, num_aggregators, partitions and tiles ((P, 6) arrays),
    aggregators, aligned, seconds (planning time), sends_of(rank), partition_of(positions)."""
    lo, hi = _box(domain, "domain")
    mode, dims, target = _partition_spec(partition, partition_grid, particles_per_file, None, None)
    patches = np.ascontiguousarray(patches, dtype=np.float64)
    counts = np.ascontiguousarray(counts, dtype=np.uint64)
    if histograms is not None:
        histograms = np.ascontiguousarray(histograms, dtype=np.uint32)
    return _lodex.plan_particles(lo, hi, mode, dims, target, patches, counts, histograms)


def advise(machine, ranks: int, particles_per_rank: int, *, bytes_per_particle: int = 124,
           candidates=None, curve: bool = True) -> dict:
    """Recommend a partition factor for a write by ``ranks`` ranks (a power of two) of
    ``particles_per_rank`` particles each on ``machine`` ("mira", "theta", or a lodex.calibrate
    result or its saved path): the scale model (docs/scale.md) driven by this planner's plans.
    Returns ``recommended`` (partition, files, throughput in bytes/s, seconds, bottleneck,
    phases), ``alternatives`` (every candidate factor and the shared-file baseline) and
    ``curves`` (predicted throughput from 512 ranks up to ``ranks`` for each)."""
    from .scale.advisor import advise as _advise
    return _advise(machine, ranks, particles_per_rank, bytes_per_particle=bytes_per_particle,
                   candidates=candidates, curve=curve)
