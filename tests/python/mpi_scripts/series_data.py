"""The series test workload, shared by the MPI workers and the tests: a small GEOS-like grid with
odd extents (so decompositions do not divide evenly), its read patterns, and the numpy oracle."""

import numpy as np

from lodex.workloads import Geos

GEOS = Geos(dims=(23, 14, 5), n2d=3, n3d=2, steps=7)


def full(name: str, steps) -> np.ndarray:
    """The whole variable at `steps`, (step, z, y, x) or (step, y, x)."""
    return np.stack([GEOS.field(name, t) for t in steps])


def expected(name: str, steps, box) -> np.ndarray:
    """What Series.read(steps, box, name) must return (steps: an int, a list or None = all)."""
    single = isinstance(steps, int)
    a = full(name, [steps] if single else (range(GEOS.steps) if steps is None else steps))
    if box is not None:
        (x0, y0, *z0), (x1, y1, *z1) = box
        a = a[..., y0:y1, x0:x1]
        if GEOS.ndim(name) == 3 and z0:
            a = a[:, z0[0]:z1[0]]
    return a[0] if single else a


def PATTERNS(steps):
    """(variable, steps, box) of the paper's read patterns (§IV-A-C) and a few edge cases."""
    X, Y, Z = GEOS.dims
    all_steps = list(steps)
    mid = all_steps[len(all_steps) // 2]
    return [
        ("T", None, None),                                     # full variable, every step
        ("PS", None, None),
        ("T", mid, ((0, 0, 2), (X, Y, 3))),                    # xy plane at one step
        ("T", mid, ((0, 7, 0), (X, 8, Z))),                    # xz plane
        ("T", mid, ((11, 0, 0), (12, Y, Z))),                  # yz plane
        ("T", all_steps, ((0, 7, 0), (X, 8, Z))),              # xz plane across every step
        ("T", all_steps, ((11, 0, 0), (12, Y, Z))),            # yz plane across every step
        ("T", all_steps, ((11, 7, 0), (12, 8, Z))),            # vertical line across every step
        ("T", all_steps, ((0, 7, 2), (X, 8, 3))),              # x line across every step
        ("PS", all_steps, ((5, 3), (6, 4))),                   # one point's time series
        ("T", all_steps[1:5], ((4, 3, 1), (19, 12, 4))),       # sub-volume, some steps
        ("V2D002", all_steps[::-2], ((2, 1), (21, 13))),       # 2-D, steps in descending order
        ("V3D001", mid, None),
    ]
