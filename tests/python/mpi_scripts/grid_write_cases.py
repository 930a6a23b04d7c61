"""Grid-write cases shared by test_grid_write.py and the grid_write_mpi.py workers: the grids,
their deterministic data (so the checker regenerates exactly what the writers wrote), the rank
decompositions, and the write loop itself (serial with comm=None, or collective).

Nothing here imports mpi4py; the workers do that themselves.
"""

from __future__ import annotations

import zlib

import numpy as np

# name -> definition. "fields": {field: dtype or (dtype, components)}; a single field named like
# the grid is defined with dtype=/components= (the plain form), others with fields=.
CASES = {
    # defaults (derived bitmask, bits_per_block 15 -> one block), three steps with a gap
    "p3": dict(dims=(37, 23, 11), fields={"p3": "f8"}, kw={}, steps=[0, 1, 3], decomp="zslab"),
    # every dtype in one grid, many blocks and files, a lattice
    "multi": dict(dims=(37, 23, 11), fields={"a": "f4", "b": "f8", "c": "i4", "d": "i8", "e": "u1", "f": "u2"},
                  kw=dict(bits_per_block=7, blocks_per_file=8), steps=[0, 2], decomp="lattice"),
    # vectors beside a scalar, uniform aggregation, uneven non-lattice cuts
    "vec": dict(dims=(20, 12, 16), fields={"v": ("f8", 3), "s": "f4"},
                kw=dict(bits_per_block=5, blocks_per_file=3, aggregation="uniform"), steps=[0], decomp="irregular"),
    # zip, two steps
    "zip": dict(dims=(33, 17, 9), fields={"zip": "f4"}, kw=dict(bits_per_block=8, blocks_per_file=4,
                                                                   compression="zip"),
                steps=[0, 1], decomp="zslab"),
    # a custom bitmask, uniform aggregation
    "bm": dict(dims=(13, 16, 7), fields={"bm": "i4"},
               kw=dict(bitmask="V21021021010", bits_per_block=6, blocks_per_file=2, aggregation="uniform"),
               steps=[0], decomp="lattice"),
    # one rank with an empty box; a 2-vector defined with dtype= and components=
    "emp": dict(dims=(24, 18, 10), fields={"emp": ("f8", 2)}, kw=dict(bits_per_block=9, blocks_per_file=2),
                steps=[0, 1], decomp="empty"),
    # 2-D: empty box, i8
    "d2": dict(dims=(45, 30), fields={"d2": "i8"}, kw=dict(bits_per_block=5, blocks_per_file=4),
               steps=[0, 1], decomp="empty"),
    # 2-D: 3-vectors beside u1, zip, uniform aggregation, a lattice
    "d2v": dict(dims=(29, 31), fields={"u": ("f4", 3), "m": "u1"},
                kw=dict(bits_per_block=6, blocks_per_file=2, compression="zip", aggregation="uniform"),
                steps=[0], decomp="lattice"),
    # 2-D irregular, u2, localized
    "d2i": dict(dims=(50, 21), fields={"d2i": "u2"}, kw=dict(bits_per_block=4, blocks_per_file=16),
                steps=[2, 4], decomp="irregular"),   # the first step is not 0
    # larger: default bits_per_block (15) makes several blocks
    "big": dict(dims=(70, 40, 20), fields={"big": "f4"}, kw={}, steps=[0], decomp="zslab"),
    # several fields zipped, a custom bitmask, uniform, irregular
    "zipm": dict(dims=(19, 10, 14), fields={"t": "f8", "q": ("i4", 2)},
                 kw=dict(bitmask="V2102102101020", bits_per_block=6, blocks_per_file=16, compression="zip",
                         aggregation="uniform"),
                 steps=[0, 1], decomp="irregular"),
}

LATTICE = {3: {1: (1, 1, 1), 2: (2, 1, 1), 3: (3, 1, 1), 4: (2, 2, 1), 8: (2, 2, 2)},
           2: {1: (1, 1, 1), 2: (2, 1, 1), 3: (1, 3, 1), 4: (2, 2, 1), 8: (4, 2, 1)}}


def field_specs(name: str) -> dict[str, tuple[str, int]]:
    return {f: ((s, 1) if isinstance(s, str) else (s[0], int(s[1]))) for f, s in CASES[name]["fields"].items()}


def ndims(name: str) -> int:
    return len(CASES[name]["dims"])


def grid_shape(name: str) -> tuple[int, ...]:
    """numpy shape of the grid: (z, y, x) or (y, x)."""
    return tuple(CASES[name]["dims"][::-1])


def random_values(shape: tuple, dtype: str, seed: list) -> np.ndarray:
    """Random values over the dtype's range, with the extremes (integers) or -0.0 / inf / -inf /
    NaN (floats) at a few places."""
    dt = np.dtype(dtype)
    rng = np.random.default_rng(seed)
    if dt.kind == "f":
        a = (rng.standard_normal(shape) * 1000.0).astype(dt)
        flat = a.reshape(-1)
        flat[0], flat[1], flat[2], flat[-1] = -0.0, np.inf, -np.inf, np.nan
    else:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
        flat = a.reshape(-1)
        flat[0], flat[-1] = info.min, info.max
    return a


def full_field(name: str, field: str, step: int) -> np.ndarray:
    """The whole grid of one field at one step (random_values)."""
    dtype, comps = field_specs(name)[field]
    shape = grid_shape(name) + ((comps,) if comps > 1 else ())
    return random_values(shape, dtype, [zlib.crc32(name.encode()), zlib.crc32(field.encode()), step])


def full_data(name: str, step: int) -> dict[str, np.ndarray]:
    return {f: full_field(name, f, step) for f in field_specs(name)}


def _cuts(size: int, parts: int, weights=None) -> list[int]:
    w = list(weights) if weights is not None else [1] * parts
    tot = sum(w)
    acc, out = 0, [0]
    for x in w:
        acc += x
        out.append(size * acc // tot)
    return out


def decompose(decomp: str, dims: tuple[int, ...], n: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The box of every rank (x first, max exclusive) for ``n`` ranks; the boxes tile the grid."""
    nd = len(dims)
    full = (tuple([0] * nd), tuple(dims))

    def box(lo, hi):
        return tuple(int(v) for v in lo[:nd]), tuple(int(v) for v in hi[:nd])

    D = list(dims) + [1] * (3 - nd)
    slow = nd - 1
    if n == 1:
        return [full]
    if decomp == "zslab":
        c = _cuts(D[slow], n)
        out = []
        for r in range(n):
            lo, hi = [0, 0, 0], list(D)
            lo[slow], hi[slow] = c[r], c[r + 1]
            out.append(box(lo, hi))
        return out
    if decomp == "lattice":
        P = LATTICE[nd][n]
        cuts = [_cuts(D[a], P[a]) for a in range(3)]
        out = []
        for r in range(n):   # row-major: x fastest
            i, j, k = r % P[0], (r // P[0]) % P[1], r // (P[0] * P[1])
            idx = (i, j, k)
            out.append(box([cuts[a][idx[a]] for a in range(3)], [cuts[a][idx[a] + 1] for a in range(3)]))
        return out
    if decomp == "irregular":
        if n == 2:   # an uneven cut, numbered right to left
            x = D[0] * 2 // 5
            return [box([x, 0, 0], D), box([0, 0, 0], [x] + D[1:])]
        xa = D[0] // 3 + 1
        pieces = [box([0, 0, 0], [xa] + D[1:])]
        c = _cuts(D[slow], n - 1, weights=[1 + i % 2 for i in range(n - 1)])
        for i in range(n - 1):
            lo, hi = [xa, 0, 0], list(D)
            lo[slow], hi[slow] = c[i], c[i + 1]
            pieces.append(box(lo, hi))
        return pieces[::-1]   # ranks in an order no lattice numbering follows
    if decomp == "empty":
        e = (n - 1) // 2
        rest = decompose("zslab", dims, n - 1)
        empty = (tuple([0] * nd), tuple([0] * nd))
        return rest[:e] + [empty] + rest[e:]
    raise KeyError(decomp)


def rank_boxes(name: str, n: int):
    c = CASES[name]
    return decompose(c["decomp"], c["dims"], n)


def slices(box, nd: int):
    lo, hi = box
    return tuple(slice(lo[a], hi[a]) for a in reversed(range(nd)))


def box_data(name: str, step: int, box) -> dict[str, np.ndarray]:
    """Every field of the grid inside ``box`` (empty arrays of the right shape for an empty box)."""
    nd = ndims(name)
    lo, hi = box
    out = {}
    for f, a in full_data(name, step).items():
        if any(hi[i] <= lo[i] for i in range(nd)):
            shape = tuple(max(0, hi[i] - lo[i]) for i in reversed(range(nd))) + a.shape[nd:]
            out[f] = np.zeros(shape, dtype=a.dtype)
        else:
            out[f] = np.ascontiguousarray(a[slices(box, nd)])
    return out


def define(ds, name: str, **override):
    """Dataset.define_grid(...) for a case (``override`` replaces keywords, for redefinition tests)."""
    c = CASES[name]
    kw = dict(c["kw"])
    kw.update(override)
    specs = c["fields"]
    if list(specs) == [name]:
        dtype, comps = field_specs(name)[name]
        return ds.define_grid(name, dims=c["dims"], dtype=dtype, components=comps, **kw)
    return ds.define_grid(name, dims=c["dims"], fields=specs, **kw)


def write_data(name: str, data: dict):
    """The write argument: the bare array for a single field named like the grid, else the dict."""
    return data[name] if list(CASES[name]["fields"]) == [name] else data


def write_all(path: str, comm, rank: int, n: int, names=None) -> dict:
    """Creates ``path`` and writes every case (all steps) as rank ``rank`` of ``n``; returns
    {case: [profile of each step]} (profiles are reduced over ranks)."""
    import lodex
    ds = lodex.create(path, comm=comm)
    profiles = {}
    for name in names or CASES:
        g = define(ds, name)
        box = rank_boxes(name, n)[rank]
        profiles[name] = []
        for step in CASES[name]["steps"]:
            g.write(step, box=box, data=write_data(name, box_data(name, step, box)))
            profiles[name].append(g.profile)
    ds.close()
    return profiles


# The append step added after reopening in mode "a": (case, step, decomposition used).
APPEND = [("p3", 7, "irregular"), ("d2", 9, "zslab")]


def append_steps(path: str, comm, rank: int, n: int) -> dict:
    """Reopens ``path`` in append mode and adds the APPEND steps with another decomposition than
    the first writes; also tries to redefine a grid with other parameters. Returns the outcome."""
    import lodex
    out = {}
    ds = lodex.open(path, mode="a", comm=comm)
    for name, step, decomp in APPEND:
        g = define(ds, name) if name == "p3" else ds.grids[name]   # same definition / none at all
        box = decompose(decomp, CASES[name]["dims"], n)[rank]
        g.write(step, box=box, data=write_data(name, box_data(name, step, box)))
        out[name] = g.steps
    try:   # the same definitions again (user bitmasks, several fields, zip) are accepted
        for name in ("bm", "zipm", "multi", "d2v"):
            define(ds, name)
        out["same_definition"] = None
    except Exception as e:   # noqa: BLE001
        out["same_definition"] = [type(e).__name__, str(e)]
    try:
        define(ds, "p3", blocks_per_file=CASES["p3"]["kw"].get("blocks_per_file", 256) + 1)
        out["redefine"] = None
    except Exception as e:   # noqa: BLE001 - reported to the test
        out["redefine"] = [type(e).__name__, str(e)]
    try:
        ds.define_grid("zip", dims=(33, 17, 10), dtype="f4", bits_per_block=8, blocks_per_file=4, compression="zip")
        out["redefine_dims"] = None
    except Exception as e:   # noqa: BLE001
        out["redefine_dims"] = [type(e).__name__, str(e)]
    ds.close()
    return out


def all_steps(name: str) -> list[int]:
    extra = [s for c, s, _ in APPEND if c == name]
    return CASES[name]["steps"] + extra


# Collective reads (comm=...) of a written dataset: (case, field, step, box, resolution, api);
# api "grid": Dataset.grids[name].read, "idx": lodex.open_idx(idx_path).read.
PAR_READS = [
    ("multi", "b", 2, None, None, "grid"),
    ("multi", "c", 0, None, 9, "grid"),
    ("multi", "e", 2, ((3, 2, 1), (30, 20, 10)), None, "grid"),
    ("multi", "f", 0, ((5, 0, 2), (37, 23, 9)), 12, "grid"),
    ("multi", "a", 2, None, 11, "idx"),
    ("d2", "d2", 1, None, None, "grid"),
    ("d2", "d2", 0, ((4, 3), (40, 29)), 8, "idx"),
    ("vec", "v", 0, None, None, "grid"),
    ("vec", "v", 0, ((1, 1, 1), (19, 11, 15)), 10, "grid"),
]


def parallel_reads(path: str, comm) -> tuple[dict, list]:
    """Every PAR_READS read of ``path`` with ``comm``: ({str(i): array}, [last_read_box per read])."""
    import lodex
    ds = lodex.open(path)
    arrays, boxes = {}, []
    for i, (name, field, step, box, res, api) in enumerate(PAR_READS):
        g = ds.grids[name] if api == "grid" else lodex.open_idx(ds.grids[name].idx_path)
        a = g.read(step, box=box, resolution=res, field=field, comm=comm)
        arrays[str(i)] = a
        lb = g.last_read_box
        boxes.append(None if lb is None else [list(map(int, lb[0])), list(map(int, lb[1]))])
    return arrays, boxes


# A second writer adds a step to these grids (reopened in mode "a", by another rank count than
# the one that wrote them): (case, decomposition of the new step).
APPEND_MORE = [("multi", "zslab"), ("vec", "lattice"), ("d2i", "zslab")]


def append_more(path: str, comm, rank: int, n: int) -> dict:
    """Adds one step (last + 1) to every APPEND_MORE grid of ``path``; returns their steps."""
    import lodex
    ds = lodex.open(path, mode="a", comm=comm)
    out = {}
    for name, decomp in APPEND_MORE:
        g = ds.grids[name]
        step = g.steps[-1] + 1
        box = decompose(decomp, CASES[name]["dims"], n)[rank]
        g.write(step, box=box, data=write_data(name, box_data(name, step, box)))
        out[name] = g.steps
    ds.close()
    return out


# ---------------------------------------------------------------------------------------------
# Random grids (fuzz): dims, fields, block settings, bitmask and a random tiling over the ranks
# ---------------------------------------------------------------------------------------------

FUZZ_DTYPES = ["f4", "f8", "i4", "i8", "u1", "u2"]
FUZZ_SEEDS = range(24)


def _split(rng, lo, hi, parts: int, nd: int) -> list:
    """Cuts the box [lo, hi) into ``parts`` boxes by random axis-aligned cuts (k-d style)."""
    if parts == 1:
        return [(tuple(lo), tuple(hi))]
    ext = [hi[a] - lo[a] for a in range(nd)]
    axes = [a for a in range(nd) if ext[a] >= 2]
    if not axes:   # cannot cut further: the rest get empty boxes
        return [(tuple(lo), tuple(hi))] + [(tuple([0] * nd), tuple([0] * nd))] * (parts - 1)
    a = int(rng.choice(axes))
    left = int(rng.integers(1, parts))
    c = int(rng.integers(lo[a] + 1, hi[a]))
    hi1, lo2 = list(hi), list(lo)
    hi1[a], lo2[a] = c, c
    return _split(rng, lo, hi1, left, nd) + _split(rng, lo2, hi, parts - left, nd)


def fuzz_spec(seed: int, n: int) -> dict:
    """A random grid written by ``n`` ranks (same on every rank: seeded)."""
    rng = np.random.default_rng([4242, seed])
    nd = int(rng.choice([2, 3]))
    dims = tuple(int(rng.integers(1, 40 if nd == 2 else 24)) for _ in range(nd))
    while int(np.prod(dims)) < 2 * n:
        dims = tuple(d + 3 for d in dims)
    nb = sum(int(np.ceil(np.log2(d))) if d > 1 else 0 for d in dims)
    nfields = int(rng.integers(1, 4))
    fields = {}
    for i in range(nfields):
        dt = str(rng.choice(FUZZ_DTYPES))
        comps = int(rng.choice([1, 1, 2, 3]))
        fields[f"f{i}"] = dt if comps == 1 else (dt, comps)
    kw = dict(bits_per_block=int(rng.integers(max(1, nb - 7), max(1, nb) + 1)),   # <= 128 blocks
              blocks_per_file=int(rng.choice([1, 2, 3, 8, 64])),
              aggregation=str(rng.choice(["uniform", "localized"])))
    if rng.random() < 0.3:
        kw["compression"] = "zip"
    if rng.random() < 0.3:   # a random permutation of the axis bits
        chars = [str(a) for a in range(nd) for _ in range(int(np.ceil(np.log2(dims[a]))) if dims[a] > 1 else 0)]
        if not chars:
            chars = ["0"]
        rng.shuffle(chars)
        kw["bitmask"] = "V" + "".join(chars)
    boxes = _split(rng, [0] * nd, list(dims), n, nd)
    if n > 1 and rng.random() < 0.3:   # one more rank without data
        boxes = _split(rng, [0] * nd, list(dims), n - 1, nd) + [(tuple([0] * nd), tuple([0] * nd))]
    order = rng.permutation(n)
    boxes = [boxes[int(i)] for i in order]
    steps = [0] if rng.random() < 0.6 else [0, int(rng.integers(1, 5))]
    return dict(dims=dims, fields=fields, kw=kw, boxes=boxes, steps=steps, seed=seed)


def fuzz_full(spec: dict, field: str, step: int) -> np.ndarray:
    s = spec["fields"][field]
    dtype, comps = (s, 1) if isinstance(s, str) else s
    dt = np.dtype(dtype)
    shape = tuple(spec["dims"][::-1]) + ((comps,) if comps > 1 else ())
    rng = np.random.default_rng([spec["seed"], int(field[1:]), step])
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 1e3).astype(dt)
    info = np.iinfo(dt)
    return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)


def fuzz_write(path: str, comm, rank: int, n: int, seeds) -> list:
    """Writes fuzz grid ``seed`` as grid "z<seed>" for every seed; returns their specs' bitmasks."""
    import lodex
    ds = lodex.create(path, comm=comm)
    out = []
    for seed in seeds:
        spec = fuzz_spec(seed, n)
        nd = len(spec["dims"])
        g = ds.define_grid(f"z{seed}", dims=spec["dims"], fields=spec["fields"], **spec["kw"])
        box = spec["boxes"][rank]
        for step in spec["steps"]:
            data = {}
            for f in spec["fields"]:
                a = fuzz_full(spec, f, step)
                if any(box[1][i] <= box[0][i] for i in range(nd)):
                    shape = tuple(max(0, box[1][i] - box[0][i]) for i in reversed(range(nd))) + a.shape[nd:]
                    data[f] = np.zeros(shape, a.dtype)
                else:
                    data[f] = np.ascontiguousarray(a[slices(box, nd)])
            g.write(step, box=box, data=data)
        out.append(g.bitmask)
    ds.close()
    return out


def stride(bitmask: str, r: int, axis: int) -> int:
    """Spacing of the resolution-r samples along ``axis``: 2^(how often the axis occurs after r)."""
    return 1 << bitmask[r + 1:].count(str(axis))


def oracle(full: np.ndarray, bitmask: str, r, box, nd: int) -> np.ndarray:
    """What a read of ``box`` at resolution r returns: the samples of the resolution's lattice
    (multiples of the stride on each axis) inside the box, from the numpy original."""
    r = len(bitmask) - 1 if r is None else r
    lo, hi = box if box is not None else ((0,) * nd, full.shape[:nd][::-1])
    sl = []
    for a in reversed(range(nd)):
        s = stride(bitmask, r, a)
        sl.append(slice(-(-lo[a] // s) * s, hi[a], s))
    return full[tuple(sl)]


def fuzz_reads(path: str, comm, n: int) -> list:
    """Random collective reads of every fuzz grid (random step, field, box, resolution): each
    rank checks its slab against numpy; returns [(seed, request, lo, hi, shape, equal)]."""
    import lodex
    ds = lodex.open(path)
    out = []
    for seed in FUZZ_SEEDS:
        spec = fuzz_spec(seed, n)
        g = ds.grids[f"z{seed}"]
        nd = len(spec["dims"])
        rng = np.random.default_rng([777, seed])
        for i in range(3):
            step = int(rng.choice(spec["steps"]))
            field = str(rng.choice(list(spec["fields"])))
            lo = [int(rng.integers(0, d)) for d in spec["dims"]]
            hi = [int(rng.integers(l + 1, d + 1)) for l, d in zip(lo, spec["dims"])]
            box = None if i == 0 else (tuple(lo), tuple(hi))
            r = None if i == 1 else int(rng.integers(0, g.max_resolution + 1))
            a = g.read(step, box=box, resolution=r, field=field, comm=comm)
            blo, bhi = (list(map(int, v)) for v in g.last_read_box)
            full = fuzz_full(spec, field, step)
            if all(bhi[k] > blo[k] for k in range(nd)):
                want = oracle(full, g.bitmask, r, (blo, bhi), nd)
            else:
                want = np.zeros((0,), full.dtype)
            equal = bool(a.dtype == want.dtype and (a.size == want.size == 0 or
                                                   (a.shape == want.shape and a.tobytes() == want.tobytes())))
            out.append([seed, [step, field, box, r], blo, bhi, list(a.shape), equal])
    return out
