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


# ---------------------------------------------------------------- uneven distributions (§6)

# Fields of the uneven workloads: position, a derived energy and the particle's index in the
# global draw (unique, so a read can be matched to what was written).
UNEVEN_SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "u8"}

# Generators: uniform; occupancy of 100/50/25/12.5 % of the domain as in §6.1 (the domain cut
# into 16^3 regions, a seeded random share of them holds every particle); three Gaussian clusters
# of weights 0.6 / 0.3 / 0.1; a thin sheet (z = 0.5 with sigma 0.002).
GENERATORS = ("uniform", "occupancy50", "occupancy25", "occupancy12", "clustered", "sheet")
_OCCUPANCY = {"uniform": 1.0, "occupancy100": 1.0, "occupancy50": 0.5, "occupancy25": 0.25,
              "occupancy12": 0.125}
_CLUSTERS = (((0.3, 0.3, 0.6), 0.05, 0.6), ((0.7, 0.6, 0.3), 0.08, 0.3), ((0.55, 0.8, 0.8), 0.03, 0.1))
_CHUNK = 1 << 20


def _unit_positions(kind: str, n: int, rng: np.random.Generator, occupied: np.ndarray | None) -> np.ndarray:
    """``n`` positions of the distribution in the unit cube (rejection keeps them inside)."""
    out = np.empty((0, 3))
    while len(out) < n:
        m = n - len(out)
        if kind in _OCCUPANCY:
            cells = occupied[rng.integers(0, len(occupied), m)]
            ijk = np.stack([cells % 16, cells // 16 % 16, cells // 256], axis=1)
            p = (ijk + rng.random((m, 3))) / 16.0
        elif kind == "clustered":
            which = rng.choice(len(_CLUSTERS), m, p=[w for _, _, w in _CLUSTERS])
            centres = np.array([c for c, _, _ in _CLUSTERS])[which]
            sigmas = np.array([s for _, s, _ in _CLUSTERS])[which]
            p = centres + sigmas[:, None] * rng.standard_normal((m, 3))
        elif kind == "sheet":
            p = rng.random((m, 3))
            p[:, 2] = 0.5 + 0.002 * rng.standard_normal(m)
        else:
            raise ValueError(f"unknown generator {kind!r}; known: {', '.join(GENERATORS)}")
        p = p[np.all((p >= 0.0) & (p < 1.0), axis=1)]
        out = np.concatenate([out, p])
    return out[:n]


def uneven(kind: str, n: int, seed: int = 0, domain=((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)),
           start: int = 0, stop: int | None = None) -> np.ndarray:
    """Positions [start, stop) of the global draw of ``n`` particles of generator ``kind`` inside
    ``domain`` (deterministic in seed; drawn in chunks of 2^20, so any range costs only its
    chunks)."""
    if kind not in GENERATORS and kind not in _OCCUPANCY:
        raise ValueError(f"unknown generator {kind!r}; known: {', '.join(GENERATORS)}")
    stop = n if stop is None else min(stop, n)
    occupied = None
    if kind in _OCCUPANCY:
        share = _OCCUPANCY[kind]
        occupied = np.random.default_rng([seed, 7]).permutation(4096)[: int(round(4096 * share))]
    lo = np.asarray(domain[0], float)
    hi = np.asarray(domain[1], float)
    parts = []
    for c0 in range(start // _CHUNK * _CHUNK, stop, _CHUNK):
        c1 = min(c0 + _CHUNK, n)
        unit = _unit_positions(kind, c1 - c0, np.random.default_rng([seed, c0]), occupied)
        parts.append(unit[max(start, c0) - c0: min(stop, c1) - c0])
    unit = np.concatenate(parts) if parts else np.empty((0, 3))
    pos = lo + unit * (hi - lo)
    return np.minimum(pos, np.nextafter(hi, lo))


def uneven_rank(kind: str, n: int, patch, seed: int = 0,
                domain=((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))) -> dict[str, np.ndarray]:
    """The particles of the global draw (``uneven``) inside this rank's ``patch``, with the
    UNEVEN_SCHEMA fields: energy = |position - centre of the domain|^2 and id = index in the
    draw. Every rank scans the whole draw, chunk by chunk (fine for benchmarks and tests)."""
    lo = np.asarray(patch[0], float)
    hi = np.asarray(patch[1], float)
    keep_pos, keep_id = [], []
    for c0 in range(0, n, _CHUNK):
        p = uneven(kind, n, seed, domain, c0, c0 + _CHUNK)
        inside = np.all((p >= lo) & (p < hi), axis=1)
        keep_pos.append(p[inside])
        keep_id.append(np.nonzero(inside)[0].astype(np.uint64) + np.uint64(c0))
    pos = np.concatenate(keep_pos) if keep_pos else np.empty((0, 3))
    centre = 0.5 * (np.asarray(domain[0], float) + np.asarray(domain[1], float))
    return {
        "position": pos,
        "energy": np.sum((pos - centre) ** 2, axis=1).astype(np.float32),
        "id": np.concatenate(keep_id) if keep_id else np.empty(0, np.uint64),
    }


# A VPIC-like plasma workload (Byna et al. 2012 §IV): positions in a 330 x 330 x 132 box, momenta
# (ux, uy, uz) of a thermal population plus a small accelerated population concentrated near the
# current sheet z = 66 (where reconnection happens), charge q, a unique id, and the derived
# kinetic energy gamma - 1 = sqrt(1 + |u|^2) - 1. Everything f4 but the id.
VPIC_DOMAIN = ((0.0, 0.0, 0.0), (330.0, 330.0, 132.0))
VPIC_SCHEMA = {
    "position": ("f4", 3),
    "ux": "f4", "uy": "f4", "uz": "f4",
    "q": "f4",
    "id": "u8",
    "energy": "f4",
}


def vpic(rank: int, size: int, n: int, seed: int = 0, step: int = 0) -> tuple[dict, tuple]:
    """Rank's ``n`` particles of a VPIC-like step and its patch (the ranks tile the domain)."""
    rng = np.random.default_rng([seed, step, rank])
    lo, hi = patch_of(rank, rank_grid(size), VPIC_DOMAIN)
    pos = rng.uniform(lo, hi, size=(n, 3))
    u = rng.normal(0.0, 0.12, size=(n, 3))
    # About 2% accelerated particles, more of them near the sheet: a power-law tail in |u|.
    near = np.abs(pos[:, 2] - 66.0) < 6.0
    hot = rng.random(n) < np.where(near, 0.08, 0.01)
    k = int(hot.sum())
    if k:
        direction = rng.normal(size=(k, 3))
        direction /= np.linalg.norm(direction, axis=1, keepdims=True)
        u[hot] = direction * (0.3 * (1.0 - rng.random(k)) ** (-1.0 / 2.2))[:, None]
    u = u.astype("f4")
    energy = (np.sqrt(1.0 + (u.astype("f8") ** 2).sum(axis=1)) - 1.0).astype("f4")
    data = {
        # Clipped in f4: a value just below the patch's top could round up onto it.
        "position": np.clip(pos.astype("f4"), np.asarray(lo, "f4"),
                            np.nextafter(np.asarray(hi, "f4"), np.float32(-np.inf))),
        "ux": u[:, 0].copy(), "uy": u[:, 1].copy(), "uz": u[:, 2].copy(),
        "q": np.where(rng.random(n) < 0.5, -1.0, 1.0).astype("f4"),
        "id": (np.uint64(rank) << np.uint64(40)) + np.arange(n, dtype="u8"),
        "energy": energy,
    }
    return data, (tuple(lo), tuple(hi))


class Geos:
    """A GEOS-5-like series workload (Tian et al. 2013 §IV): a lon x lat x level grid ``dims=(x, y, z)``
    (144 x 91 x 48 here, 576 x 361 x 48 for the paper's 0.5 degree case), ``n2d`` 2-D variables
    (surface fields, (y, x)) and ``n3d`` 3-D ones ((z, y, x)), written every step by ranks that
    each hold one box of a 2-D decomposition of x and y. Values are smooth analytic functions of
    (variable, step, x, y, z), so any box of any step is generated on its own and a test can
    build the whole array to compare with."""

    def __init__(self, dims=(144, 91, 48), n2d: int = 48, n3d: int = 16, steps: int = 30, dtype: str = "f4"):
        self.dims = tuple(int(d) for d in dims)
        self.n2d, self.n3d, self.steps, self.dtype = int(n2d), int(n3d), int(steps), np.dtype(dtype)
        self.names = [f"V3D{i:03d}" for i in range(self.n3d)] + [f"V2D{i:03d}" for i in range(self.n2d)]
        if self.n3d:
            self.names[0] = "T"
        if self.n2d:
            self.names[self.n3d] = "PS"

    def variables(self) -> dict[str, tuple[str, int]]:
        return {n: (self.dtype.str.lstrip("<>|="), 3 if i < self.n3d else 2) for i, n in enumerate(self.names)}

    def ndim(self, name: str) -> int:
        return 3 if self.names.index(name) < self.n3d else 2

    def decomposition(self, ranks: int) -> tuple[int, int]:
        """(px, py): ranks = px x py cells over x and y, cells as square as the grid allows."""
        best = None
        for py in range(1, ranks + 1):
            if ranks % py:
                continue
            px = ranks // py
            if px > self.dims[0] or py > self.dims[1]:
                continue
            cost = abs(np.log((self.dims[0] / px) / (self.dims[1] / py)))
            if best is None or cost < best[0]:
                best = (cost, px, py)
        if best is None:
            raise ValueError(f"{ranks} ranks cannot split a {self.dims[0]} x {self.dims[1]} grid")
        return best[1], best[2]

    def box(self, rank: int, ranks: int):
        """Rank's box ((x0, y0, 0), (x1, y1, z)), x-fastest over the decomposition's cells."""
        px, py = self.decomposition(ranks)
        i, j = rank % px, rank // px
        x0, x1 = self.dims[0] * i // px, self.dims[0] * (i + 1) // px
        y0, y1 = self.dims[1] * j // py, self.dims[1] * (j + 1) // py
        return (x0, y0, 0), (x1, y1, self.dims[2])

    def field(self, name: str, step: int, box=None) -> np.ndarray:
        """Variable ``name`` at ``step`` over ``box`` (None: the whole grid): (z, y, x) or (y, x)."""
        lo, hi = box if box is not None else ((0, 0, 0), self.dims)
        v = self.names.index(name)
        x = np.arange(lo[0], hi[0], dtype=np.float64)[None, None, :]
        y = np.arange(lo[1], hi[1], dtype=np.float64)[None, :, None]
        lon, lat = 2 * np.pi * x / self.dims[0], np.pi * (y / max(1, self.dims[1] - 1) - 0.5)
        base = (np.sin(lon * (1 + v % 3) + 0.07 * step + 0.3 * v) * np.cos(lat) + 0.01 * v + 1e-4 * x + 1e-3 * y)
        if self.ndim(name) == 2:
            return (base[0] * (1 + 0.001 * step)).astype(self.dtype)
        z = np.arange(lo[2], hi[2], dtype=np.float64)[:, None, None]
        return (base * (1 + z / self.dims[2]) + 0.05 * z).astype(self.dtype)

    def local(self, rank: int, ranks: int, step: int) -> tuple[tuple, dict[str, np.ndarray]]:
        """Rank's box and every variable over it at ``step``: the arguments of ``Series.write``."""
        box = self.box(rank, ranks)
        return box, {n: self.field(n, step, box) for n in self.names}

    def step_bytes(self) -> int:
        """Bytes of one step of every variable over the whole grid."""
        x, y, z = self.dims
        return self.dtype.itemsize * (self.n3d * x * y * z + self.n2d * x * y)
