"""Data and checks shared by test_h5part.py, test_h5part_mpi.py and the MPI worker h5part_mpi.py:
the lodex datasets to export (VPIC-like, and a schema of mixed dtypes with empty and one-particle
steps), a hand-written "foreign" H5Part file (no lodex attributes), and comparisons of particle
sets as multisets (rows sorted by every column), dtypes exact.

Importable without mpi4py.
"""

from __future__ import annotations

import h5py
import numpy as np

import lodex
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, vpic

GROUP = "electrons"

# ---------------------------------------------------------------------------------------------
# lodex datasets
# ---------------------------------------------------------------------------------------------

VPIC_STEPS = [0, 1, 2]


def vpic_step(step: int, n: int = 1500) -> dict:
    """Two "ranks" of the VPIC workload, concatenated (particles all over the domain)."""
    parts = [vpic(r, 2, n, seed=3, step=step)[0] for r in range(2)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


MIXED_SCHEMA = {"position": ("f8", 3), "mass": "f8", "kind": "u2", "cell": ("i4", 2), "id": "u8"}
MIXED_DOMAIN = ((-1.0, 0.0, 2.0), (3.0, 0.5, 2.25))
MIXED_COUNTS = {0: 700, 1: 0, 4: 1, 7: 260}   # empty and one-particle steps


def mixed_step(step: int) -> dict:
    n = MIXED_COUNTS[step]
    rng = np.random.default_rng([7, step])
    lo = np.array(MIXED_DOMAIN[0])
    hi = np.array(MIXED_DOMAIN[1])
    pos = lo + rng.random((n, 3)) * (hi - lo)
    if n > 10:   # particles on the domain's min faces and just below its max faces
        pos[:3, 0] = lo[0]
        pos[3:6, 1] = np.nextafter(hi[1], -np.inf)
        pos[6, :] = np.nextafter(hi, -np.inf)
        pos[7:9] = pos[9]   # duplicates
    pos = np.minimum(pos, np.nextafter(hi, -np.inf))
    return {
        "position": pos,
        "mass": rng.standard_normal(n) * 1e-3,
        "kind": rng.integers(0, 65536, n).astype(np.uint16),
        "cell": rng.integers(-2**31, 2**31, (n, 2)).astype(np.int32),
        "id": np.uint64(2**60) + np.arange(n, dtype=np.uint64) * np.uint64(3) + np.uint64(step),
    }


def write_vpic(path: str) -> None:
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition_grid=(2, 2, 1),
                                lod={"level0_max": 64, "brick_target": 64})
        for s in VPIC_STEPS:
            g.write(s, data=vpic_step(s))


def write_mixed(path: str) -> None:
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=MIXED_SCHEMA, domain=MIXED_DOMAIN, partition_grid=(2, 1, 1),
                                lod={"level0_max": 32, "brick_target": 32})
        for s in MIXED_COUNTS:
            g.write(s, data=mixed_step(s))


# ---------------------------------------------------------------------------------------------
# A foreign H5Part file
# ---------------------------------------------------------------------------------------------

FOREIGN_STEPS = [0, 1, 2, 10]   # Step#10 sorts before Step#2 by name
FOREIGN_COUNTS = {0: 400, 1: 0, 2: 1, 10: 333}
FOREIGN_SCHEMA = {"position": ("f8", 3), "E_0": ("f4", 1), "E_1": ("f4", 1), "id": ("i8", 1),
                  "px": ("f4", 1), "py": ("f4", 1), "pz": ("f4", 1)}


def foreign_step(step: int) -> dict:
    """Datasets of one step of the foreign file: x, y, z (f8; the extreme values repeat, so
    particles sit exactly on the derived domain's faces), px, py, pz (f4, pz big-endian), id (i8),
    E_0, E_1 (f4: two scalar fields, not a 2-component field)."""
    n = FOREIGN_COUNTS[step]
    rng = np.random.default_rng([11, step])
    xyz = rng.uniform([-5.0, 10.0, 0.0], [5.0, 20.0, 1e-3], (n, 3))
    if n >= 4:
        xyz[1] = xyz[0]
    out = {"x": xyz[:, 0].copy(), "y": xyz[:, 1].copy(), "z": xyz[:, 2].copy()}
    for i, c in enumerate(("px", "py", "pz")):
        out[c] = rng.standard_normal(n).astype(np.float32)
    out["pz"] = out["pz"].astype(">f4")
    out["id"] = rng.permutation(n).astype(np.int64) - 7
    out["E_0"] = rng.random(n).astype(np.float32)
    out["E_1"] = rng.random(n).astype(np.float32)
    return out


def foreign_extremes() -> tuple[np.ndarray, np.ndarray]:
    """Min and max of x, y, z over every step of the foreign file."""
    pos = np.concatenate([np.stack([foreign_step(s)[c] for c in "xyz"], axis=1) for s in FOREIGN_STEPS])
    return pos.min(axis=0), pos.max(axis=0)


def write_foreign(path: str) -> None:
    with h5py.File(path, "w") as f:
        for s in FOREIGN_STEPS:
            g = f.create_group(f"Step#{s}")
            for name, a in foreign_step(s).items():
                g.create_dataset(name, data=a)


def foreign_as_lodex(step: int) -> dict:
    d = foreign_step(step)
    out = {"position": np.stack([d["x"], d["y"], d["z"]], axis=1)}
    for k in ("E_0", "E_1", "id", "px", "py", "pz"):
        out[k] = d[k].astype(d[k].dtype.newbyteorder("="))
    return out


# ---------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------

def columns(d: dict) -> list[np.ndarray]:
    cols = []
    for k in sorted(d):
        a = d[k]
        cols.extend([a] if a.ndim == 1 else [a[:, i] for i in range(a.shape[1])])
    return cols


def canon(d: dict) -> dict:
    """The rows of ``d`` sorted by all columns (a multiset in a fixed order)."""
    cols = columns(d)
    if not cols or len(cols[0]) == 0:
        return dict(d)
    order = np.lexsort(cols[::-1])
    return {k: v[order] for k, v in d.items()}


def same_particles(a: dict, b: dict) -> str | None:
    """None when ``a`` and ``b`` hold the same fields, dtypes, shapes and rows (in any order),
    else what differs."""
    if sorted(a) != sorted(b):
        return f"fields {sorted(a)} != {sorted(b)}"
    for k in a:
        if a[k].dtype != b[k].dtype or a[k].shape != b[k].shape:
            return f"{k}: {a[k].dtype}{a[k].shape} != {b[k].dtype}{b[k].shape}"
    ca, cb = canon(a), canon(b)
    for k in a:
        if not np.array_equal(ca[k], cb[k], equal_nan=ca[k].dtype.kind == "f"):
            return f"{k}: values differ"
    return None


def h5_group_name(f, step: int) -> str:
    """The name of the step group of lodex step ``step``: the group whose lodex_step attribute is
    ``step``, or, in a file without that attribute (not written by lodex), Step#<step>."""
    named = [k for k in f.keys() if k.startswith("Step#") and "lodex_step" in f[k].attrs]
    if not named:
        return f"Step#{step}"
    hits = [k for k in named if int(f[k].attrs["lodex_step"]) == step]
    assert len(hits) == 1, (step, hits)
    return hits[0]


def h5_step(path: str, step: int) -> dict:
    """The datasets of lodex step ``step`` (h5_group_name) as numpy arrays."""
    with h5py.File(path, "r") as f:
        return {k: v[()] for k, v in f[h5_group_name(f, step)].items()}


def h5_as_lodex(dsets: dict, schema: dict) -> dict:
    """H5Part datasets back to lodex fields by the naming rule alone (x, y, z; name; name_i)."""
    out = {}
    for n, (d, c) in schema.items():
        if n == "position":
            out[n] = np.stack([dsets["x"], dsets["y"], dsets["z"]], axis=1)
        elif c == 1:
            out[n] = dsets[n]
        else:
            out[n] = np.stack([dsets[f"{n}_{i}"] for i in range(c)], axis=1)
    return out


def dataset_names(schema: dict) -> set:
    names = set()
    for n, (d, c) in schema.items():
        if n == "position":
            names |= {"x", "y", "z"}
        elif c == 1:
            names.add(n)
        else:
            names |= {f"{n}_{i}" for i in range(c)}
    return names
