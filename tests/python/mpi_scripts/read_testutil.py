"""Data generators and brute-force references shared by the read tests (test_read_*.py) and
their MPI workers (read_parallel.py, read_damaged.py). Deterministic: the same arguments give
the same particles in every process. Nothing here imports mpi4py."""

from __future__ import annotations

import math

import numpy as np

UNIT = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
ODD_DOMAIN = ((-1.0, 0.0, 2.0), (3.0, 0.5, 2.25))

SCHEMA_F8 = {"position": ("f8", 3), "id": "u8", "energy": "f4", "vel": ("f4", 3)}
SCHEMA_F4 = {"position": ("f4", 3), "id": "u8", "mass": "f8", "tag": "i2"}

# Relative centres, widths and weights of the Gaussian blobs of clustered(); the rest of the
# particles are a uniform background.
BLOBS = [((0.30, 0.30, 0.30), 0.06, 0.45),
         ((0.75, 0.62, 0.70), 0.09, 0.25),
         ((0.18, 0.80, 0.42), 0.03, 0.10)]
BACKGROUND = 0.20


def _clip_exclusive(pos: np.ndarray, domain, dtype) -> np.ndarray:
    """Cast to dtype and keep every coordinate in [lo, hi) after the cast."""
    lo = np.asarray(domain[0], dtype=np.float64)
    hi = np.asarray(domain[1], dtype=np.float64)
    out = pos.astype(dtype)
    top = np.nextafter(hi.astype(dtype), lo.astype(dtype))
    while np.any(top.astype(np.float64) >= hi):           # f4 rounding of hi itself
        top = np.nextafter(top, lo.astype(dtype))
    bottom = lo.astype(dtype)
    while np.any(bottom.astype(np.float64) < lo):
        bottom = np.nextafter(bottom, hi.astype(dtype))
    out = np.minimum(np.maximum(out, bottom), top)
    p = out.astype(np.float64)
    assert np.all(p >= lo) and np.all(p < hi)
    return out


def uniform_positions(rng, n: int, domain=UNIT, dtype=np.float64) -> np.ndarray:
    lo = np.asarray(domain[0], dtype=np.float64)
    hi = np.asarray(domain[1], dtype=np.float64)
    return _clip_exclusive(lo + rng.random((n, 3)) * (hi - lo), domain, dtype)


def clustered_positions(rng, n: int, domain=UNIT, dtype=np.float64) -> np.ndarray:
    """3 Gaussian blobs of different weights and widths plus a uniform background, all inside
    the domain (rejection sampling: no piles at the faces)."""
    lo = np.asarray(domain[0], dtype=np.float64)
    hi = np.asarray(domain[1], dtype=np.float64)
    ext = hi - lo
    weights = [w for _, _, w in BLOBS] + [BACKGROUND]
    counts = rng.multinomial(n, np.asarray(weights) / sum(weights))
    parts = []
    for (centre, sigma, _), k in zip(BLOBS, counts[:-1]):
        got = np.zeros((0, 3))
        while len(got) < k:
            u = rng.normal(centre, sigma, size=(2 * (k - len(got)) + 8, 3))
            u = u[np.all((u >= 0) & (u < 1), axis=1)]
            got = np.concatenate([got, u])[:k]
        parts.append(got)
    parts.append(rng.random((counts[-1], 3)))
    u = np.concatenate(parts)
    u = u[rng.permutation(len(u))]
    return _clip_exclusive(lo + u * ext, domain, dtype)


def lattice_positions(domain=UNIT, k: int = 16, dtype=np.float64) -> np.ndarray:
    """Points on a k^3 lattice of the domain (partition faces, brick cell faces and midpoints
    for power-of-two grids)."""
    lo = np.asarray(domain[0], dtype=np.float64)
    hi = np.asarray(domain[1], dtype=np.float64)
    t = np.arange(k) / k
    g = np.stack(np.meshgrid(t, t, t, indexing="ij"), axis=-1).reshape(-1, 3)
    return _clip_exclusive(lo + g * (hi - lo), domain, dtype)


def particles_f8(positions: np.ndarray, seed: int, id_base: int = 0) -> dict:
    """SCHEMA_F8 particles at these positions; ids a random permutation (unique)."""
    n = len(positions)
    rng = np.random.default_rng([seed, 1])
    return {"position": np.ascontiguousarray(positions, dtype=np.float64),
            "id": (np.uint64(id_base) + rng.permutation(n).astype(np.uint64) * np.uint64(7)),
            "energy": rng.random(n).astype(np.float32),
            "vel": rng.standard_normal((n, 3)).astype(np.float32)}


def particles_f4(positions: np.ndarray, seed: int, id_base: int = 0) -> dict:
    n = len(positions)
    rng = np.random.default_rng([seed, 2])
    return {"position": np.ascontiguousarray(positions, dtype=np.float32),
            "id": np.uint64(id_base) + rng.permutation(n).astype(np.uint64),
            "mass": rng.random(n) * 10,
            "tag": rng.integers(-1000, 1000, n).astype(np.int16)}


# ---------------------------------------------------------------------------------------------
# Brute-force references
# ---------------------------------------------------------------------------------------------

def inside(pos: np.ndarray, box) -> np.ndarray:
    """Mask of positions in box (inclusive min, exclusive max), compared in f64 like lodex."""
    p = np.asarray(pos, dtype=np.float64)
    lo = np.asarray(box[0], dtype=np.float64)
    hi = np.asarray(box[1], dtype=np.float64)
    return np.all((p >= lo) & (p < hi), axis=1)


def select(data: dict, mask: np.ndarray) -> dict:
    return {k: v[mask] for k, v in data.items()}


def bounds_meet(bounds: dict, box) -> bool:
    """Whether a file's bounds (max inclusive) may hold particles of box (max exclusive)."""
    for a in range(3):
        lo, hi = bounds["min"][a], bounds["max"][a]
        if not (hi >= box[0][a] and lo < box[1][a] and box[0][a] < box[1][a]):
            return False
    return True


def level_sum(readers: int, P: int, S: float, level: int) -> int:
    """sum_{l <= level} floor(readers * P * S**l), the particles of levels 0..level."""
    return sum(math.floor(readers * P * S ** l) for l in range(level + 1))


def level_size(readers: int, P: int, S: float, level: int) -> int:
    return math.floor(readers * P * S ** level)


def num_levels(n: int, readers: int, P: int, S: float) -> int:
    """The least L with level_sum(L - 1) >= n (1 when n == 0)."""
    if n == 0:
        return 1
    L = 0
    while level_sum(readers, P, S, L) < n:
        L += 1
    return L + 1


def fraction_count(f: float, n: int) -> int:
    """max(1, round(f * n)) with round half away from zero (llround), capped at n."""
    if n == 0:
        return 0
    return min(n, max(1, math.floor(f * n + 0.5)))


def share_ok(count: int, n: int, p: float, sigmas: float = 5.0, slack: float = 3.0) -> bool:
    """|count - n p| within `sigmas` binomial standard deviations (plus a few particles)."""
    sd = math.sqrt(max(n * p * (1 - p), 0.0))
    return abs(count - n * p) <= sigmas * sd + slack


# ---------------------------------------------------------------------------------------------
# Datasets written by several ranks (read_parallel.py / test_read_mpi.py)
# ---------------------------------------------------------------------------------------------

PARALLEL = {
    # 4 writers, partition factor (1,1,1): one file per rank, f4 positions, non-unit domain.
    "w4": dict(ranks=4, n=60000, seed=44, domain=ODD_DOMAIN, f4=True, mode="factor", dims=(1, 1, 1),
               lod={"brick_target": 128}),
    # 8 writers, partition grid (4,2,2): 16 files, f8 positions, unit domain.
    "w8": dict(ranks=8, n=100000, seed=88, domain=UNIT, f4=False, mode="grid", dims=(4, 2, 2),
               lod={"brick_target": 128, "seed": 3}),
}


def parallel_schema(kind: str) -> dict:
    return SCHEMA_F4 if PARALLEL[kind]["f4"] else SCHEMA_F8


def parallel_data(kind: str) -> dict:
    """Every particle of a PARALLEL dataset (clustered, ids unique)."""
    spec = PARALLEL[kind]
    rng = np.random.default_rng(spec["seed"])
    dtype = np.float32 if spec["f4"] else np.float64
    pos = clustered_positions(rng, spec["n"], spec["domain"], dtype)
    make = particles_f4 if spec["f4"] else particles_f8
    return make(pos, seed=spec["seed"], id_base=1000)


def parallel_rank_data(kind: str, rank: int, size: int):
    """(data, patch) of one writer rank: the particles inside its patch."""
    from lodex.workloads import patch_of, rank_grid
    spec = PARALLEL[kind]
    patch = patch_of(rank, rank_grid(size), spec["domain"])
    data = parallel_data(kind)
    return select(data, inside(data["position"], patch)), patch


# The query box of the parallel reads, relative to the domain (a blob and a partition face).
PARALLEL_BOX_REL = ((0.1, 0.2, 0.15), (0.62, 0.9, 0.8))


def parallel_box(kind: str):
    lo = np.asarray(PARALLEL[kind]["domain"][0], dtype=np.float64)
    ext = np.asarray(PARALLEL[kind]["domain"][1], dtype=np.float64) - lo
    return (tuple(float(v) for v in lo + np.asarray(PARALLEL_BOX_REL[0]) * ext),
            tuple(float(v) for v in lo + np.asarray(PARALLEL_BOX_REL[1]) * ext))


PARALLEL_LEVEL = 4
PARALLEL_FRACTION = 0.05


def parallel_variants() -> list[str]:
    """Names 'box|mode|split' of the reads read_parallel.py runs on every dataset."""
    out = []
    for box in ("all", "box"):
        for mode in ("full", "level", "level_r1", "fraction", "refine"):
            for split in ("spatial", "bytes"):
                out.append(f"{box}|{mode}|{split}")
    return out
