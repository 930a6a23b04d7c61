"""Grids shared by the IDX tests: values that identify their position (x + 100 y + 10000 z)."""

from __future__ import annotations

import numpy as np


def f3(n: int = 16, dtype=np.float32) -> np.ndarray:
    """n^3 grid (z, y, x) with value x + 100 y + 10000 z."""
    z, y, x = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    return (x + 100 * y + 10000 * z).astype(dtype)


def u2() -> np.ndarray:
    """32^2 uint8 grid (y, x) with value (7 x + 3 y) mod 256."""
    y, x = np.meshgrid(np.arange(32), np.arange(32), indexing="ij")
    return ((7 * x + 3 * y) % 256).astype(np.uint8)


def npot() -> np.ndarray:
    """A 20 x 12 x 6 (x, y, z) float64 grid: no axis a power of two."""
    z, y, x = np.meshgrid(np.arange(6), np.arange(12), np.arange(20), indexing="ij")
    return x + 100.0 * y + 10000 * z + 0.5
