"""Checks shared by the grid test suites (test_grid_write.py, test_grid_partitions.py): bit-exact
array comparison, OpenVisus reads shaped like lodex's, directory snapshots, IDX block tables."""

from __future__ import annotations

import os
import struct

import numpy as np


def bits(a: np.ndarray) -> np.ndarray:
    """Raw bytes as unsigned integers of the same width (bit-exact compare: NaN, -0.0)."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def assert_same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype} != {want.dtype}"
    assert got.shape == want.shape, f"{what}: shape {got.shape} != {want.shape}"
    g, w = bits(got), bits(want)
    if not np.array_equal(g, w):
        bad = np.argwhere(g != w)
        raise AssertionError(f"{what}: {len(bad)} of {g.size} values differ, first at {bad[0].tolist()}: "
                             f"got {got[tuple(bad[0])]!r}, want {want[tuple(bad[0])]!r}")


def ov_read(db, step: int, field: str, r: int | None, box, nd: int) -> np.ndarray | None:
    """OpenVisus's read, shaped like lodex's ((z, y, x[, c]) / (y, x[, c])); None when OpenVisus
    refuses a query that holds no sample at that resolution."""
    kw = dict(time=step, field=db.getField(field))
    if r is not None:
        kw["max_resolution"] = r
    if box is not None:
        for a, key in enumerate("xyz"[:nd]):
            kw[key] = [box[0][a], box[1][a]]
    try:
        return db.read(**kw)
    except Exception as e:   # noqa: BLE001
        if "cannot find a good end_resolution" in str(e):
            return None
        raise


def reshape_like(a: np.ndarray, want: np.ndarray) -> np.ndarray:
    """OpenVisus drops (or keeps) axes of extent 1 differently from numpy slicing; only those
    axes may differ, never the order or extent of the others."""
    def squeezed(shape):
        return tuple(d for d in shape if d != 1)
    if a.shape != want.shape and a.size == want.size and squeezed(a.shape) == squeezed(want.shape):
        return a.reshape(want.shape)
    return a


def tree(root: str) -> dict[str, bytes]:
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def table_entries(raw: bytes, fields: int, bpf: int) -> list[tuple[int, ...]]:
    """The ten big-endian uint32 of every block entry of an IDX v6 binary file."""
    return [struct.unpack_from(">10I", raw, 40 + 40 * i) for i in range(fields * bpf)]
