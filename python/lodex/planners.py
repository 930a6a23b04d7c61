"""lodex's pure planners on simulated ranks: what a write by many ranks would do, computed
without MPI or files — the particle aggregation planner (layout/particle_plan.hpp,
:func:`plan_write`), STAR's series planner and the series reader's requests
(layout/series_plan.hpp, layout/series_read_plan.hpp, :func:`plan_series`,
:func:`split_series_read`) and the grid writer's aggregation plan (layout/grid_plan.hpp,
:func:`plan_grid`). For benchmarks, tests and the scale model (:mod:`lodex.scale`) at rank counts
a workstation cannot run. :mod:`lodex.planning` is the public name of these planners and the
advisor built on them."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from . import _lodex
from ._args import _box, _partition_spec
from .errors import InvalidArgumentError
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
    return _lodex.plan_particles(lo=lo, hi=hi, mode=mode, dims=dims, particles_per_file=target, patches=patches,
                                 counts=counts, histograms=histograms)


def _int_boxes(boxes, what: str = "boxes") -> np.ndarray:
    b = np.ascontiguousarray(boxes, dtype=np.int64)
    if b.ndim != 2 or b.shape[1] != 6:
        raise InvalidArgumentError(f"{what} must be a (ranks, 6) integer array (lo xyz, hi xyz), got shape {b.shape}")
    return b


def plan_series(dims, boxes, variables, *, bw_io: float = 500e6, cc: float = 1e-3, ts: float = 5e-3,
                memory_budget: int = 256 << 20, d_tar: int | None = None, d_sar: int | None = None,
                max_window_steps: int = 32):
    """The STAR plan a series write by ``len(boxes)`` ranks would make (layout/series_plan.hpp),
    without MPI or files: ``dims`` (x, y, z), ``boxes`` an (R, 6) integer array (lo xyz, hi xyz)
    of the ranks' boxes, ``variables`` a list of (dtype, ndim) such as ("f4", 3), and the
    settings of ``Dataset.define_series``. Returns a SeriesPreview: d_tar, d_sar, opt_size,
    chunk_bytes, buffer_bytes, reason, step_bytes, var_step_bytes, cells, max_sar_levels,
    chunks ((C, 6) boxes in file order), chunk_of_rank, aggregator(v, level, rank),
    senders(v, level, rank), window_head(steps) (every chunk's offset, bytes and planes) and
    window_read(v, window_steps, steps, box, merge_gap, max_request=0) (the reader's requests)."""
    return _lodex.plan_series(dims=tuple(int(d) for d in dims), boxes=_int_boxes(boxes),
                              variables=[(str(t), int(n)) for t, n in variables], bw_io=float(bw_io), cc=float(cc),
                              ts=float(ts), memory_budget=int(memory_budget), d_tar=0 if d_tar is None else int(d_tar),
                              d_sar=-1 if d_sar is None else int(d_sar), max_window_steps=int(max_window_steps))


def split_series_read(steps, box, ndim: int, rank: int, size: int):
    """Rank ``rank`` of ``size``'s share of a collective series read (layout/series_read_plan.hpp):
    (its steps, its box as (lo xyz, hi xyz))."""
    lo, hi = box
    return _lodex.split_series_read(steps=[int(s) for s in steps], box=(*map(int, lo), *map(int, hi)),
                                    ndim=int(ndim), rank=int(rank), size=int(size))


def plan_grid(dims, boxes, *, ndims: int = 3, bitmask: str = "", bits_per_block: int = 15,
              blocks_per_file: int = 256, fields: int = 1, aggregation: str = "localized", partitions: int = 1):
    """The aggregation plan a grid write by ``len(boxes)`` ranks would make (layout/grid_plan.hpp),
    without MPI or files. Returns a GridPreview: bitmask, partition_bits, brick_bits,
    bits_per_block, file_samples, rank_partitions, partition_boxes ((P, 6)), files ((F, 2):
    file, present blocks), units ((U, 3): file, field, aggregator) and sends ((S, 4): unit, from
    rank, to rank, samples; a partition's collector forwarding to the aggregator is a row too)."""
    return _lodex.plan_grid(dims=tuple(int(d) for d in dims), ndims=int(ndims), boxes=_int_boxes(boxes),
                            bitmask=str(bitmask), bits_per_block=int(bits_per_block),
                            blocks_per_file=int(blocks_per_file), fields=int(fields), aggregation=str(aggregation),
                            partitions=int(partitions))
