"""Grid (IDX) writes at scale (docs/scale.md, "Grids"): the traffic of lodex's grid aggregation
plan (``lodex.planning.plan_grid``, layout/grid_plan.hpp) on simulated ranks, for the model's
equations (1)-(8).

R ranks (a power of two) hold the boxes of an x-fastest lattice of a grid as near a cube as
powers of two allow (the rank lattice of :func:`lodex.scale.traffic.lattice`), so the derived
indexing template conforms to the boxes and no samples move before aggregation (Kumar et al. 2017 §V's
restructuring is empty). The plan gives the files (one per file slot holding a sample, its size
its present blocks x 2^bits_per_block samples x bytes per sample x fields), each unit's (file
x field's) aggregator, and every rank's runs of each unit, sent to the unit's aggregator or, in
a file shared by several partitions, to its partition's collector, which forwards them."""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from ..errors import InvalidArgumentError
from ..planners import plan_grid
from .traffic import Traffic, _traffic, lattice


def grid_boxes(dims: Sequence[int], ranks: int) -> np.ndarray:
    """(R, 6) boxes of the rank lattice over ``dims`` (each axis a multiple of the lattice's)."""
    g = lattice(ranks)
    d = tuple(int(x) for x in dims)
    if len(d) != 3 or any(x < 1 for x in d) or any(x % gi for x, gi in zip(d, g)):
        raise InvalidArgumentError(f"grid dims {dims!r} must be three positive integers divisible by the "
                                   f"{g[0]}x{g[1]}x{g[2]} lattice of {ranks:,} ranks")
    e = np.array(d, dtype=np.int64) // np.array(g, dtype=np.int64)
    r = np.arange(ranks, dtype=np.int64)
    idx = np.stack([r % g[0], (r // g[0]) % g[1], r // (g[0] * g[1])], axis=1)
    return np.concatenate([idx * e, (idx + 1) * e], axis=1)


def grid_traffic(dims: Sequence[int], ranks: int, ranks_per_node: int, *, partitions: int = 1,
                 aggregation: str = "localized", fields: int = 1, sample_bytes: int = 4, bits_per_block: int = 15,
                 blocks_per_file: int = 256) -> Traffic:
    """The traffic of lodex's plan for one step of a grid write (cached per argument set)."""
    for v, what in ((fields, "fields"), (sample_bytes, "sample_bytes"), (partitions, "partitions"),
                    (ranks_per_node, "ranks_per_node"), (blocks_per_file, "blocks_per_file")):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidArgumentError(f"{what} must be a positive integer, got {v!r}")
    return _grid_traffic(tuple(int(x) for x in dims), int(ranks), int(ranks_per_node), int(partitions),
                         str(aggregation), int(fields), int(sample_bytes), int(bits_per_block), int(blocks_per_file))


@functools.lru_cache(maxsize=128)
def _grid_traffic(dims, ranks, rpn, partitions, aggregation, fields, sample_bytes, bpb, bpf) -> Traffic:
    pv = plan_grid(dims, grid_boxes(dims, ranks), bits_per_block=bpb, blocks_per_file=bpf, fields=fields,
                   aggregation=aggregation, partitions=partitions)
    files = np.asarray(pv.files)                    # (F, 2): file, present blocks
    units = np.asarray(pv.units)                    # (U, 3): file, field, aggregator
    sends = np.asarray(pv.sends)                    # (S, 4): unit, from, to, samples
    block = (1 << pv.bits_per_block) * sample_bytes
    blocks_of = dict(zip(files[:, 0].tolist(), files[:, 1].tolist()))
    unit_bytes = np.array([blocks_of[f] * block for f in units[:, 0].tolist()], dtype=np.int64)
    file_bytes = files[:, 1].astype(np.int64) * block * fields
    first = {}
    for f, agg in zip(units[:, 0].tolist(), units[:, 2].tolist()):
        first.setdefault(f, agg)
    file_rank = np.array([first[f] for f in files[:, 0].tolist()], dtype=np.int64)
    senders = np.bincount(sends[:, 0], minlength=units.shape[0]) if sends.size else np.ones(1, np.int64)
    t = _traffic(f"grid, {partitions} partition{'s' if partitions > 1 else ''}, {aggregation}", ranks, rpn,
                 sends[:, 1], sends[:, 2], sends[:, 3] * sample_bytes, file_bytes, file_rank, 0)
    from dataclasses import replace
    return replace(t, write_node=units[:, 2] // rpn, write_bytes=unit_bytes, max_senders=int(senders.max()),
                   opens=int(units.shape[0] - files.shape[0]))
