"""Helpers shared by the pytest process and the MPI worker scripts: deterministic workloads
(so the checker regenerates exactly what the writers wrote), the round-trip cases, expected
partitioning, and an independent parser of the on-disk formats (struct + xxhash).

Nothing here imports mpi4py; the workers do that themselves.
"""

from __future__ import annotations

import json
import os
import struct
import sys

import numpy as np

from lodex.workloads import patch_of, rank_grid, uintah

RESULT_MARK = "LODEX_RESULT "


def emit(obj) -> None:
    """Print the result line the pytest side parses (rank 0 only, by convention)."""
    sys.stdout.write(RESULT_MARK + json.dumps(obj) + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------------------------
# Round-trip cases
# ---------------------------------------------------------------------------------------------

UNIT = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
ODD_DOMAIN = ((-1.0, 0.0, 2.0), (3.0, 0.5, 2.25))   # non-unit, different extent per axis

ROUNDTRIP_CASES = ["factor111", "factor_big", "grid_patch", "grid_nopatch", "zeros_factor",
                   "zeros_grid_nopatch"]


def outcome(fn) -> list:
    """["ok", fn()] or [the exception's type name, its message]: what a task reports to the test."""
    try:
        return ["ok", fn()]
    except Exception as e:   # noqa: BLE001 - reported to the test
        return [type(e).__name__, str(e)]


def run_tasks(comm, tasks: list[str], handle) -> None:
    """Runs each task on every rank (``handle(task)`` returns the result key and this rank's
    result; an exception becomes {"exception": [type, message, traceback]}), gathers the results
    at rank 0 and emits them there as one LODEX_RESULT line."""
    import traceback
    results = {}
    for task in tasks:
        key = task
        try:
            key, mine = handle(task)
        except Exception as e:   # noqa: BLE001 - reported to the test
            mine = {"exception": [type(e).__name__, str(e), traceback.format_exc()]}
        allr = comm.gather(mine, root=0)
        if comm.rank == 0:
            results[key] = allr
        comm.Barrier()
    if comm.rank == 0:
        emit(results)


def big_factor(n: int) -> tuple[int, int, int]:
    """A partition factor > 1 along some axis that fits rank_grid(n) (1,1,1 for one rank)."""
    return {1: (1, 1, 1), 2: (2, 1, 1), 3: (3, 1, 1), 4: (2, 1, 1), 8: (2, 1, 2)}.get(
        n, (rank_grid(n)[0], 1, 1))


def case_spec(case: str, n: int) -> dict:
    """Everything that defines a round-trip case; identical in writers and checker."""
    seed = ROUNDTRIP_CASES.index(case) + 11 if case in ROUNDTRIP_CASES else 5
    if case == "factor111":
        return dict(mode="factor", dims=(1, 1, 1), domain=UNIT, give_patch=True, steps=[0, 1], seed=seed)
    if case == "factor_big":
        return dict(mode="factor", dims=big_factor(n), domain=ODD_DOMAIN, give_patch=True, steps=[0, 1],
                    seed=seed)
    if case == "grid_patch":
        return dict(mode="grid", dims=(3, 2, 2), domain=ODD_DOMAIN, give_patch=True, steps=[0, 1], seed=seed)
    if case == "grid_nopatch":
        return dict(mode="grid", dims=(3, 2, 2), domain=UNIT, give_patch=False, steps=[0, 1], seed=seed)
    if case == "zeros_factor":
        return dict(mode="factor", dims=(1, 1, 1), domain=ODD_DOMAIN, give_patch=True, steps=[0, 1, 2],
                    seed=seed)
    if case == "zeros_grid_nopatch":
        return dict(mode="grid", dims=(2, 2, 2), domain=UNIT, give_patch=False, steps=[0, 1], seed=seed)
    if case == "fine_bricks":   # not a round-trip case: more segments than a shared placement takes
        return dict(mode="factor", dims=big_factor(n), domain=ODD_DOMAIN, give_patch=True, steps=[0, 1], seed=seed,
                    lod={"brick_target": 4, "level0_max": 16})
    raise KeyError(case)


def case_count(case: str, n: int, rank: int, step: int) -> int:
    """Particles of ``rank`` in ``step``: varied per rank and step to catch offset mix-ups."""
    base = 300 + 97 * rank + 41 * step
    if case == "zeros_factor":
        if step == 0:
            return 0 if rank % 2 == 1 else base
        if step == 1:
            return base if rank == n - 1 else 0
        return 0                                   # step 2: nobody holds anything
    if case == "zeros_grid_nopatch":
        if step == 0:
            return 0 if rank % 2 == 1 else base
        return 0
    return base


def case_rank_data(case: str, n: int, rank: int, step: int):
    """(data, patch_or_None) of one rank in one step."""
    spec = case_spec(case, n)
    grid = rank_grid(n)
    patch = patch_of(rank, grid, spec["domain"])
    data = uintah(rank, case_count(case, n, rank, step), patch, seed=spec["seed"], step=step)
    return data, (patch if spec["give_patch"] else None)


def case_step_data(case: str, n: int, step: int):
    """Per-rank list of (data, patch_or_None)."""
    return [case_rank_data(case, n, r, step) for r in range(n)]


def concat(datas: list[dict], schema: dict) -> dict:
    return {k: np.concatenate([d[k] for d in datas]) for k in schema}


# ---------------------------------------------------------------------------------------------
# Mixed-dtype schema
# ---------------------------------------------------------------------------------------------

MIXED_SCHEMA = {
    "position": ("f4", 3),
    "a_i1": "i1", "a_u1": "u1", "a_i2": "i2", "a_u2": "u2",
    "a_i4": "i4", "a_u4": "u4", "a_i8": "i8", "id": "u8",
    "vec5": ("f8", 5),
    "odd": "f4",
}


def mixed(rank: int, n: int, patch, step: int = 0) -> dict:
    """Every supported dtype, with the extremes of each integer type, NaN/inf/-0.0 in a float
    field, and u8 ids above 2^53 (unique over ranks)."""
    rng = np.random.default_rng([77, step, rank])
    lo = np.asarray(patch[0], dtype=np.float64)
    hi = np.asarray(patch[1], dtype=np.float64)
    pos = (lo + rng.random((n, 3)) * (hi - lo)).astype(np.float32)
    # f4 rounding may push a coordinate up to hi: keep the exclusive max exclusive.
    top = np.nextafter(hi.astype(np.float32), lo.astype(np.float32))
    pos = np.minimum(pos, top)
    pos = np.maximum(pos, lo.astype(np.float32))
    bad = (pos.astype(np.float64) < lo) | (pos.astype(np.float64) >= hi)
    assert not bad.any(), "f4 positions outside the patch"
    out = {"position": pos}
    for name, dt in (("a_i1", np.int8), ("a_u1", np.uint8), ("a_i2", np.int16), ("a_u2", np.uint16),
                     ("a_i4", np.int32), ("a_u4", np.uint32), ("a_i8", np.int64)):
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
        if n >= 2:
            v[0], v[1] = info.min, info.max
        out[name] = v
    ids = np.uint64(2**63) + np.uint64(rank) * np.uint64(2**40) + np.arange(n, dtype=np.uint64) * np.uint64(3)
    out["id"] = ids
    out["vec5"] = rng.standard_normal((n, 5)) * 1e300
    odd = rng.standard_normal(n).astype(np.float32)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, np.float32(1e-45)], dtype=np.float32)
    k = min(n, len(specials))
    odd[:k] = specials[:k]
    out["odd"] = odd
    return out


# ---------------------------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------------------------

def bits(a: np.ndarray) -> np.ndarray:
    """The raw bytes of an array as unsigned integers of the same width (bit-exact compare)."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def sort_by(data: dict, key: str = "id") -> dict:
    order = np.argsort(data[key], kind="stable")
    return {k: v[order] for k, v in data.items()}


def assert_same_particles(got: dict, want: dict, schema: dict, key: str = "id") -> None:
    """Every value of every field equal bit for bit, after sorting both by ``key``."""
    assert set(got) == set(schema), f"fields {sorted(got)} != schema {sorted(schema)}"
    n = len(want[key])
    for k, spec in schema.items():
        dt, comps = (spec, 1) if isinstance(spec, str) else spec
        assert got[k].dtype == np.dtype(dt), f"{k}: dtype {got[k].dtype} != {dt}"
        shape = (n,) if comps == 1 else (n, comps)
        assert got[k].shape == shape, f"{k}: shape {got[k].shape} != {shape}"
    ids = got[key]
    assert len(np.unique(ids)) == len(ids), "duplicate ids in what was read"
    g = sort_by(got, key)
    w = sort_by(want, key)
    for k in schema:
        gb, wb = bits(g[k]), bits(w[k])
        if not np.array_equal(gb, wb):
            bad = np.argwhere(gb != wb)
            raise AssertionError(f"field {k!r}: {len(bad)} values differ, first at {bad[0].tolist()}: "
                                 f"got {g[k][tuple(bad[0])]!r}, want {w[k][tuple(bad[0])]!r}")


# ---------------------------------------------------------------------------------------------
# Expected partitioning (the rules documented in src/layout/particle_plan.hpp)
# ---------------------------------------------------------------------------------------------

def plan_grid(spec: dict, n: int) -> tuple[int, int, int]:
    if spec["mode"] == "grid":
        return tuple(spec["dims"])
    lat = rank_grid(n)
    assert all(l % d == 0 for l, d in zip(lat, spec["dims"]))
    return tuple(l // d for l, d in zip(lat, spec["dims"]))


def bin_axis(x, lo: float, hi: float, g: int):
    w = (hi - lo) / g
    f = np.floor((np.asarray(x, dtype=np.float64) - lo) / w)
    return np.clip(f, 0, g - 1).astype(np.int64)


def partition_of_positions(pos: np.ndarray, domain, grid) -> np.ndarray:
    lo, hi = domain
    i = bin_axis(pos[:, 0], lo[0], hi[0], grid[0])
    j = bin_axis(pos[:, 1], lo[1], hi[1], grid[1])
    k = bin_axis(pos[:, 2], lo[2], hi[2], grid[2])
    return i + grid[0] * (j + grid[1] * k)


def expected_partition_ids(spec: dict, n: int, per_rank: list) -> list[np.ndarray]:
    """Partition of every particle, per rank (factor: by the rank's lattice patch)."""
    grid = plan_grid(spec, n)
    out = []
    if spec["mode"] == "factor":
        lat = rank_grid(n)
        for r, (d, _patch) in enumerate(per_rank):
            idx = (r % lat[0], (r // lat[0]) % lat[1], r // (lat[0] * lat[1]))
            pi = [idx[a] // spec["dims"][a] for a in range(3)]
            p = pi[0] + grid[0] * (pi[1] + grid[1] * pi[2])
            out.append(np.full(len(d["id"]), p, dtype=np.int64))
    else:
        for d, _patch in per_rank:
            out.append(partition_of_positions(np.asarray(d["position"], dtype=np.float64),
                                               spec["domain"], grid))
    return out


def expected_sends(spec: dict, n: int, per_rank: list) -> list[set]:
    """The partitions each rank sends to (its patch's overlap; empty for ranks without particles)."""
    grid = plan_grid(spec, n)
    lo, hi = spec["domain"]
    parts = expected_partition_ids(spec, n, per_rank)
    out = []
    for r, (d, patch) in enumerate(per_rank):
        if len(d["id"]) == 0:
            out.append(set())
            continue
        if spec["mode"] == "factor":
            out.append({int(parts[r][0])})
            continue
        if patch is None:
            pos = np.asarray(d["position"], dtype=np.float64)
            pmin = pos.min(axis=0)
            pmax = np.nextafter(pos.max(axis=0), np.inf)
        else:
            pmin, pmax = np.asarray(patch[0]), np.asarray(patch[1])
        rng_ = []
        for a in range(3):
            b0 = int(bin_axis(pmin[a], lo[a], hi[a], grid[a]))
            b1 = int(bin_axis(np.nextafter(pmax[a], pmin[a]), lo[a], hi[a], grid[a]))
            rng_.append(range(b0, b1 + 1))
        out.append({i + grid[0] * (j + grid[1] * k) for k in rng_[2] for j in rng_[1] for i in rng_[0]})
    return out


# ---------------------------------------------------------------------------------------------
# Independent on-disk parsers (layouts: src/format/particle_file.cpp, spatial_metadata.cpp)
# ---------------------------------------------------------------------------------------------

HEADER_FMT = "<8sIIQIIII6dQQQQQ"
assert struct.calcsize(HEADER_FMT) == 128
FIELD_FMT = "<32sB3sIQQQ"
assert struct.calcsize(FIELD_FMT) == 64
DTYPE_CODES = {1: "f4", 2: "f8", 3: "i1", 4: "u1", 5: "i2", 6: "u2", 7: "i4", 8: "u4", 9: "i8", 10: "u8"}
DTYPE_SIZES = {"f4": 4, "f8": 8, "i1": 1, "u1": 1, "i2": 2, "u2": 2, "i4": 4, "u4": 4, "i8": 8, "u8": 8}


def xxh3(data) -> int:
    import xxhash
    return xxhash.xxh3_64_intdigest(bytes(data))


def parse_particle_file(path: str) -> dict:
    """Decode a .lpd data file with struct only; raises AssertionError on any inconsistency."""
    with open(path, "rb") as fh:
        raw = fh.read()
    (magic, version, header_bytes, num_particles, num_fields, num_levels, brick_bits, level_scale,
     bx0, by0, bz0, bx1, by1, bz1, seed, tables_offset, tables_bytes, data_offset,
     header_sum) = struct.unpack_from(HEADER_FMT, raw, 0)
    h = dict(raw=raw, magic=magic, version=version, header_bytes=header_bytes, n=num_particles,
             num_fields=num_fields, num_levels=num_levels, brick_bits=brick_bits,
             level_scale=level_scale, brick_box=((bx0, by0, bz0), (bx1, by1, bz1)), seed=seed,
             tables_offset=tables_offset, tables_bytes=tables_bytes, data_offset=data_offset,
             header_checksum=header_sum)
    at = tables_offset
    fields = []
    for _ in range(num_fields):
        name, code, pad, comps, off, nbytes, reserved = struct.unpack_from(FIELD_FMT, raw, at)
        fields.append(dict(name=name.rstrip(b"\0").decode(), dtype=DTYPE_CODES.get(code, f"?{code}"),
                           components=comps, offset=off, bytes=nbytes, reserved=reserved, pad=pad,
                           raw_name=name))
        at += 64
    h["fields"] = fields
    h["level_ends"] = list(struct.unpack_from(f"<{num_levels}Q", raw, at))
    at += 8 * num_levels
    nb = 1 << (3 * brick_bits)
    nseg = num_levels * nb
    h["num_bricks"] = nb
    h["segment_starts"] = list(struct.unpack_from(f"<{nseg + 1}Q", raw, at))
    at += 8 * (nseg + 1)
    h["segment_checksums"] = list(struct.unpack_from(f"<{num_fields * nseg}Q", raw, at))
    at += 8 * num_fields * nseg
    (h["table_checksum"],) = struct.unpack_from("<Q", raw, at)
    at += 8
    h["tables_end"] = at
    h["columns"] = {}
    for f in fields:
        dt = np.dtype("<" + f["dtype"])
        arr = np.frombuffer(raw, dtype=dt, count=num_particles * f["components"], offset=f["offset"])
        h["columns"][f["name"]] = arr.reshape(num_particles, f["components"]) if f["components"] > 1 else arr
    return h


META_HEAD_FMT = "<8sIIIIqQ"
assert struct.calcsize(META_HEAD_FMT) == 40


def parse_spatial_metadata(path: str) -> dict:
    with open(path, "rb") as fh:
        raw = fh.read()
    magic, version, nfiles, ncomp, reserved, step, total = struct.unpack_from(META_HEAD_FMT, raw, 0)
    rec_bytes = 64 + 8 + 96 + 24 + 16 * ncomp
    recs = []
    at = 40
    for _ in range(nfiles):
        raw_name = raw[at:at + 64]
        name = raw_name.rstrip(b"\0").decode()
        assert b"/" not in name.encode() and raw_name == name.encode().ljust(64, b"\0"), raw_name
        part, agg = struct.unpack_from("<Ii", raw, at + 64)
        boxes = struct.unpack_from("<12d", raw, at + 72)
        count, fbytes, hsum = struct.unpack_from("<QQQ", raw, at + 168)
        mm = struct.unpack_from(f"<{2 * ncomp}d", raw, at + 192)
        recs.append(dict(file=name, partition=part, aggregator_rank=agg,
                         partition_box=(boxes[0:3], boxes[3:6]), bounds=(boxes[6:9], boxes[9:12]),
                         count=count, file_bytes=fbytes, head_checksum=hsum,
                         min=list(mm[0::2]), max=list(mm[1::2])))
        at += rec_bytes
    (stored,) = struct.unpack_from("<Q", raw, len(raw) - 8)
    return dict(raw=raw, magic=magic, version=version, num_files=nfiles, num_components=ncomp,
                reserved=reserved,
                step=step, total=total, records=recs, end=at, checksum=stored)


def step_dir(path: str, group: str, step: int) -> str:
    return os.path.join(path, group, f"step-{step:09d}")


def expected_level_ends(n: int, scale: int = 2, level0_max: int = 256) -> list[int]:
    if n == 0:
        return []
    ends = [n]
    c = n
    while c > level0_max:
        c = -(-c // scale)
        ends.append(c)
    return ends[::-1]


def morton3(cx: np.ndarray, cy: np.ndarray, cz: np.ndarray, bits: int) -> np.ndarray:
    key = np.zeros(len(cx), dtype=np.int64)
    for i in range(bits):
        key |= ((cx >> i) & 1) << (3 * i)
        key |= ((cy >> i) & 1) << (3 * i + 1)
        key |= ((cz >> i) & 1) << (3 * i + 2)
    return key


def brick_cells(pos: np.ndarray, box, bits: int) -> np.ndarray:
    """Cell index per axis of each position in the brick box cut into 2^bits cells per axis, as
    docs/formats/particles.md defines it: clamp(floor((p - min) * (2^b / (max - min))), 0, 2^b - 1)."""
    cells = float(1 << bits)
    lo = np.asarray(box[0], dtype=np.float64)
    hi = np.asarray(box[1], dtype=np.float64)
    p = np.asarray(pos, dtype=np.float64)
    f = np.floor((p - lo) * (cells / (hi - lo)))
    return np.clip(f, 0, (1 << bits) - 1).astype(np.int64)


# ---------------------------------------------------------------------------------------------
# Level-of-detail datasets (write_lod.py / test_checksums.py)
# ---------------------------------------------------------------------------------------------

def lod_groups(n: int) -> dict:
    return {
        "g1": dict(mode="grid", dims=(2, 2, 1), domain=ODD_DOMAIN, steps=[0, 3],
                   lod={"brick_target": 32, "seed": 7}),
        "g2": dict(mode="factor", dims=big_factor(n), domain=UNIT, steps=[1],
                   lod={"scale": 3, "level0_max": 100, "brick_target": 8}),
    }


def lod_rank_data(name: str, n: int, rank: int, step: int):
    spec = lod_groups(n)[name]
    patch = patch_of(rank, rank_grid(n), spec["domain"])
    count = 2500 + 100 * rank + 10 * step
    return uintah(rank, count, patch, seed=31 if name == "g1" else 32, step=step), patch


# ---------------------------------------------------------------------------------------------
# Append (append_mpi.py / test_append.py)
# ---------------------------------------------------------------------------------------------

APPEND_SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}


def append_data(rank: int, size: int, step: int):
    """(data, patch) of one rank of a size-rank writer, ids unique over ranks and steps."""
    patch = patch_of(rank, rank_grid(size), UNIT)
    n = 200 + 30 * rank + step
    rng = np.random.default_rng([9, size, step, rank])
    lo, hi = np.asarray(patch[0]), np.asarray(patch[1])
    pos = np.minimum(lo + rng.random((n, 3)) * (hi - lo), np.nextafter(hi, lo))
    return {"position": pos, "energy": rng.random(n).astype(np.float32),
            "id": (step * 1000 + size * 100 + rank) * 100_000 + np.arange(n, dtype=np.int64)}, patch


# ---------------------------------------------------------------------------------------------
# Particles on partition boundaries (write_boundary.py / test_roundtrip_mpi.py)
# ---------------------------------------------------------------------------------------------

BOUNDARY_SCHEMA = {"position": ("f8", 3), "id": "i8"}
BOUNDARY_DOMAIN = ((-1.0, -1.0, -1.0), (3.0, 3.0, 3.0))
BOUNDARY_GRID = (9, 11, 12)
BOUNDARY_LATTICE = (15, 1, 1)   # factor (3,1,1): 5 partitions along x


def _axis_points(lo: float, hi: float, g: int) -> list[float]:
    w = (hi - lo) / g
    pts = []
    for i in range(g):
        pts.append(lo + i * w)                  # the partition box minimum lodex reports
        pts.append(lo + (i + 0.5) * w)          # an interior point
    return pts


def boundary_grid_data(rank: int, size: int) -> dict:
    lo, hi = BOUNDARY_DOMAIN
    xs = _axis_points(lo[0], hi[0], BOUNDARY_GRID[0])
    ys = _axis_points(lo[1], hi[1], BOUNDARY_GRID[1])
    zs = _axis_points(lo[2], hi[2], BOUNDARY_GRID[2])
    pts = np.array([(x, y, z) for x in xs for y in ys for z in zs], dtype=np.float64)
    ids = np.arange(len(pts), dtype=np.int64)
    mine = ids % size == rank
    return {"position": pts[mine], "id": ids[mine]}


def boundary_factor_data(rank: int, size: int):
    idx = (9 + 3 * rank) % BOUNDARY_LATTICE[0]   # patch 9 starts a partition (and rounds low)
    patch = patch_of(idx, BOUNDARY_LATTICE, BOUNDARY_DOMAIN)
    lo, hi = np.asarray(patch[0]), np.asarray(patch[1])
    pts = [lo, lo + (hi - lo) / 2, np.array([lo[0], hi[1] - 1e-9, lo[2]])]
    pos = np.array(pts, dtype=np.float64)
    return {"position": pos, "id": rank * 100 + np.arange(len(pos), dtype=np.int64)}, patch


def flip_byte(path: str, offset: int, mask: int) -> None:
    """Damages one byte of a file in place (XOR with ``mask``)."""
    with open(path, "r+b") as fh:
        fh.seek(offset)
        b = fh.read(1)
        fh.seek(offset)
        fh.write(bytes([b[0] ^ mask]))


def file_digests(root: str) -> dict:
    """sha256 of every particle data file and spatial metadata file under root, by relative path."""
    import hashlib
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith((".lpd", ".lsm")):
                with open(os.path.join(d, f), "rb") as fh:
                    out[os.path.relpath(os.path.join(d, f), root)] = hashlib.sha256(fh.read()).hexdigest()
    return out
