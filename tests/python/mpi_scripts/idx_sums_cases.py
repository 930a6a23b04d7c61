"""The grids test_idx_checksums.py writes (serially and on several ranks) and damages."""

from __future__ import annotations

import numpy as np

DIMS = (12, 10, 9)          # not powers of two: partial blocks at the edges
STEPS = (0, 3)
GRIDS = {   # name -> Dataset.grid arguments
    "raw": dict(fields={"p": "f4", "id": "i8"}, bits_per_block=5, blocks_per_file=4),
    "zip": dict(fields={"p": "f4", "id": "i8"}, bits_per_block=5, blocks_per_file=4, compression="zip"),
    "parts": dict(fields={"p": "f4", "id": "i8"}, bits_per_block=4, blocks_per_file=4, partitions=2,
                  index_space="local", bitmask="V210210210210"),   # partitions z < 8 and z >= 8
}


def field(name: str, step: int) -> np.ndarray:
    z, y, x = np.meshgrid(*(np.arange(d) for d in DIMS[::-1]), indexing="ij")
    v = (x + 100 * y + 10000 * z + 7 * step).astype(np.float64)
    return np.sin(v).astype(np.float32) if name == "p" else (v.astype(np.int64) * 3 + 1)


def slab(rank: int, size: int):
    """This rank's z-slab (empty boxes for ranks past the grid's planes)."""
    z = np.linspace(0, DIMS[2], size + 1).astype(int)
    return (0, 0, int(z[rank])), (DIMS[0], DIMS[1], int(z[rank + 1]))


def parts_box(rank: int):
    """Three ranks' boxes inside the two partitions (z < 8 and z >= 8) of grid "parts"."""
    z = (0, 4, 8, DIMS[2])
    return (0, 0, z[rank]), (DIMS[0], DIMS[1], z[rank + 1])


def grids(size: int) -> dict:
    """The grids a write by `size` ranks makes (partitions need a box per partition: 3 ranks)."""
    return {n: kw for n, kw in GRIDS.items() if n != "parts" or size == 3}


def write_all(ds, rank: int, size: int) -> None:
    for name, kw in grids(size).items():
        lo, hi = parts_box(rank) if name == "parts" else slab(rank, size)
        g = ds.define_grid(name, dims=DIMS, **kw)
        for step in STEPS:
            g.write(step, (lo, hi), {f: field(f, step)[lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]] for f in kw["fields"]})
