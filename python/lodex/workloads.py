"""Synthetic particle workloads for the demo, tests and benchmarks."""

from __future__ import annotations

import numpy as np

# The paper's Uintah workload (§5.1): position(3), stress(9), density, volume, id as f8 and
# type as f4: 15 f8 values and 1 f4 per particle, 124 bytes.
UINTAH_SCHEMA = {
    "position": ("f8", 3),
    "stress": ("f8", 9),
    "density": "f8",
    "volume": "f8",
    "id": "f8",
    "type": "f4",
}


def rank_grid(size: int) -> tuple[int, int, int]:
    """A near-cubic (nx, ny, nz) factorisation of ``size`` with nx >= ny >= nz."""
    best = (size, 1, 1)
    for nz in range(1, size + 1):
        if size % nz:
            continue
        for ny in range(nz, size // nz + 1):
            if (size // nz) % ny:
                continue
            nx = size // (ny * nz)
            if nx < ny:
                continue
            if max(nx, ny, nz) < max(best):
                best = (nx, ny, nz)
    return best


def patch_of(rank: int, grid: tuple[int, int, int],
             domain=((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))):
    """Rank's patch in an x-fastest regular decomposition of ``domain``."""
    nx, ny, nz = grid
    idx = (rank % nx, (rank // nx) % ny, rank // (nx * ny))
    lo, hi = domain
    size = [(hi[a] - lo[a]) / grid[a] for a in range(3)]
    pmin = tuple(lo[a] + idx[a] * size[a] for a in range(3))
    pmax = tuple(hi[a] if idx[a] + 1 == grid[a] else lo[a] + (idx[a] + 1) * size[a] for a in range(3))
    return pmin, pmax


def uintah(rank: int, n: int, patch, seed: int = 0, step: int = 0) -> dict[str, np.ndarray]:
    """``n`` particles uniformly inside ``patch`` with the Uintah schema; ids are unique over
    ranks and steps (rank * 2^32 + i, as f8 like Uintah does)."""
    rng = np.random.default_rng([seed, step, rank])
    lo = np.asarray(patch[0])
    hi = np.asarray(patch[1])
    pos = lo + rng.random((n, 3)) * (hi - lo)
    pos = np.minimum(pos, np.nextafter(hi, lo))   # keep the exclusive max exclusive
    return {
        "position": pos,
        "stress": rng.standard_normal((n, 9)),
        "density": rng.random(n) + 1.0,
        "volume": rng.random(n) * 1e-6,
        "id": (np.float64(rank) * 2**32 + np.arange(n, dtype=np.float64)),
        "type": rng.integers(0, 4, n).astype(np.float32),
    }
