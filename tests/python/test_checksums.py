"""An independent oracle of the on-disk format: data files, spatial metadata and manifest are
decoded with struct (layouts in src/format/particle_file.cpp and spatial_metadata.cpp),
every checksum is recomputed with the `xxhash` package (XXH3-64), and the level-of-detail
structure is checked against its definition (src/layout/lod_order.hpp)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from conftest import run_mpi
from lodex.workloads import UINTAH_SCHEMA, uintah

DEFAULT_LOD = {"scale": 2, "level0_max": 256, "brick_target": 0, "seed": 0}


def brick_bits_for(n: int, lod: dict, row_bytes: int) -> int:
    """The format's rule (docs/formats/particles.md): a positive brick_target fixes the particles
    per brick; 0 sizes bricks for the data (a table of L x 8^b + 1 starts within 1/32 of the row
    bytes, at least 64 particles per brick, at most level0_max bricks)."""
    levels = len(tu.expected_level_ends(n, lod["scale"], lod["level0_max"]))
    b = 0
    while b < 10:
        bricks = 8 ** (b + 1)
        if lod["brick_target"] > 0:
            fits = bricks * lod["brick_target"] <= n
        else:
            fits = ((levels * bricks + 1) * 8 * 32 <= n * row_bytes and bricks * 64 <= n
                    and bricks <= lod["level0_max"])
        if not fits:
            break
        b += 1
    return b


def field_specs(schema: dict):
    return [(k, v, 1) if isinstance(v, str) else (k, v[0], v[1]) for k, v in schema.items()]


def verify_file(path: str, rec: dict, schema: dict, lod: dict, n_levels_min: int = 1) -> dict:
    """Check one data file against its metadata record; returns its columns."""
    h = tu.parse_particle_file(path)
    raw = h["raw"]
    specs = field_specs(schema)
    nf = len(specs)
    n = h["n"]
    # fixed header
    assert h["magic"] == b"LDXPART\0"
    assert h["version"] == 1 and h["header_bytes"] == 128
    assert h["header_checksum"] == tu.xxh3(raw[:120]), "header checksum"
    assert n == rec["count"]
    assert h["num_fields"] == nf
    assert h["tables_offset"] == 128
    nb = 1 << (3 * h["brick_bits"])
    nseg = h["num_levels"] * nb
    assert h["tables_bytes"] == nf * 64 + h["num_levels"] * 8 + (nseg + 1) * 8 + nf * nseg * 8 + 8
    assert h["tables_end"] == 128 + h["tables_bytes"]
    assert h["table_checksum"] == tu.xxh3(raw[128:h["tables_end"] - 8]), "table checksum"
    assert rec["head_checksum"] == tu.xxh3(raw[:h["tables_end"]]), "metadata head checksum"
    assert rec["file_bytes"] == len(raw)
    # field table and columns
    at = -(-h["tables_end"] // 64) * 64
    assert h["data_offset"] == h["fields"][0]["offset"]
    for (name, dt, comps), f in zip(specs, h["fields"]):
        assert (f["name"], f["dtype"], f["components"]) == (name, dt, comps)
        assert f["reserved"] == 0 and f["pad"] == b"\0\0\0"
        assert f["raw_name"] == name.encode().ljust(32, b"\0")   # NUL-padded
        assert f["offset"] == at and f["offset"] % 64 == 0, (name, f["offset"], at)
        assert f["bytes"] == n * tu.DTYPE_SIZES[dt] * comps
        at = -(-(f["offset"] + f["bytes"]) // 64) * 64
    last = h["fields"][-1]
    assert len(raw) == last["offset"] + last["bytes"]
    # alignment gaps are zero (files are reproducible)
    gap_start = h["tables_end"]
    for f in h["fields"]:
        assert raw[gap_start:f["offset"]] == b"\0" * (f["offset"] - gap_start)
        gap_start = f["offset"] + f["bytes"]
    # levels: c_{L-1} = N, c_{k-1} = ceil(c_k / S) until <= B0
    assert h["level_scale"] == lod["scale"]
    assert h["level_ends"] == tu.expected_level_ends(n, lod["scale"], lod["level0_max"])
    assert h["num_levels"] >= n_levels_min
    # bricks: by brick_target, or sized for the data; on the partition box
    row_bytes = sum(tu.DTYPE_SIZES[dt] * comps for _, dt, comps in specs)
    assert h["brick_bits"] == brick_bits_for(n, lod, row_bytes)
    assert h["brick_box"] == (tuple(rec["partition_box"]["min"]), tuple(rec["partition_box"]["max"]))
    starts = h["segment_starts"]
    assert starts[0] == 0 and starts[-1] == n
    assert all(a <= b for a, b in zip(starts, starts[1:]))
    for k, end in enumerate(h["level_ends"]):
        assert starts[(k + 1) * nb] == end
    # every segment checksum matches its column bytes
    for fi, f in enumerate(h["fields"]):
        rb = f["bytes"] // n if n else 0
        col = raw[f["offset"]:f["offset"] + f["bytes"]]
        for s in range(nseg):
            a, b = starts[s], starts[s + 1]
            assert h["segment_checksums"][fi * nseg + s] == tu.xxh3(col[a * rb:b * rb]), \
                (f["name"], "segment", s)
    # each (level, brick) segment's positions fall in that brick of the brick box
    pos = h["columns"]["position"].astype(np.float64)
    cells = tu.brick_cells(pos, h["brick_box"], h["brick_bits"])
    keys = tu.morton3(cells[:, 0], cells[:, 1], cells[:, 2], h["brick_bits"])
    for k in range(h["num_levels"]):
        for m in range(nb):
            a, b = starts[k * nb + m], starts[k * nb + m + 1]
            assert np.all(keys[a:b] == m), ("level", k, "brick", m)
    lo = np.asarray(h["brick_box"][0])
    hi = np.asarray(h["brick_box"][1])
    assert np.all(pos >= lo) and np.all(pos < hi)
    return h["columns"]


def verify_step(path: str, group: str, step: int, schema: dict, lod: dict, want: dict,
                n_levels_min: int = 1) -> list:
    g = lodex.open(path).particles[group]
    files = g.files(step)
    sdir = tu.step_dir(path, group, step)
    # spatial metadata, decoded independently
    lsm = os.path.join(sdir, "spatial.lsm")
    meta = tu.parse_spatial_metadata(lsm)
    ncomp = sum(c for _, _, c in field_specs(schema))
    assert meta["magic"] == b"LDXSMETA" and meta["version"] == 1 and meta["reserved"] == 0
    assert [r["partition"] for r in meta["records"]] == sorted(r["partition"] for r in meta["records"])
    assert meta["num_files"] == len(files) and meta["num_components"] == ncomp
    assert meta["step"] == step and meta["total"] == sum(f["count"] for f in files) == len(want["id"])
    assert meta["end"] + 8 == len(meta["raw"])
    assert meta["checksum"] == tu.xxh3(meta["raw"][:-8])
    for r, f in zip(meta["records"], files):
        assert r["file"] == f["file"] and r["partition"] == f["partition"]
        assert r["aggregator_rank"] == f["aggregator_rank"] and r["count"] == f["count"]
        assert r["file_bytes"] == f["file_bytes"] and r["head_checksum"] == f["head_checksum"]
        assert r["partition_box"] == (f["partition_box"]["min"], f["partition_box"]["max"])
        assert r["bounds"] == (f["bounds"]["min"], f["bounds"]["max"])
        assert r["min"] == f["min"] and r["max"] == f["max"]
    # manifest record of the step
    with open(os.path.join(path, "manifest.json")) as fh:
        man = json.load(fh)
    srec = next(s for s in man["groups"][group]["steps"] if s["step"] == step)
    assert srec["metadata_checksum"] == tu.xxh3(meta["raw"])
    assert srec["particles"] == len(want["id"]) and srec["files"] == len(files)
    assert srec["bytes"] == sum(f["file_bytes"] for f in files) + len(meta["raw"])
    assert srec["directory"] == f"{group}/step-{step:09d}"
    # every data file
    cols = {k: [] for k in schema}
    for f in files:
        c = verify_file(os.path.join(sdir, f["file"]), f, schema, lod, n_levels_min)
        for k in schema:
            cols[k].append(c[k])
    got = {k: np.concatenate(v) if v else want[k][:0] for k, v in cols.items()}
    tu.assert_same_particles(got, want, schema)
    return files


def test_single_file_default_lod(tmp_path):
    path = str(tmp_path / "d.lodex")
    data = uintah(0, 20000, ((0, 0, 0), (1, 1, 1)), seed=1)
    with lodex.create(path) as ds:
        ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1))).write(0, data=data)
    verify_step(path, "u", 0, UINTAH_SCHEMA, DEFAULT_LOD, data, n_levels_min=7)


@pytest.mark.parametrize("lod", [{"brick_target": 64}, {"brick_target": 1, "seed": 99}, {"brick_target": 0},
                                 {"brick_target": 0, "level0_max": 4000, "scale": 3},
                                 {"scale": 5, "level0_max": 10, "brick_target": 300},
                                 {"scale": 2, "level0_max": 1, "brick_target": 4096}])
def test_bricks_and_levels(tmp_path, lod):
    path = str(tmp_path / "d.lodex")
    domain = ((-2.0, 10.0, 0.0), (2.0, 11.0, 0.001))
    data = uintah(0, 5000, domain, seed=2)
    full = {**DEFAULT_LOD, **lod}
    with lodex.create(path) as ds:
        ds.define_particles("u", schema=UINTAH_SCHEMA, domain=domain, lod=lod).write(0, data=data)
    verify_step(path, "u", 0, UINTAH_SCHEMA, full, data, n_levels_min=2)


def test_f4_positions_and_all_dtypes(tmp_path):
    path = str(tmp_path / "d.lodex")
    dom = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    data = tu.mixed(0, 3000, dom)
    lod = {"brick_target": 16}
    with lodex.create(path) as ds:
        ds.define_particles("m", schema=tu.MIXED_SCHEMA, domain=dom, lod=lod).write(0, data=data)
    verify_step(path, "m", 0, tu.MIXED_SCHEMA, {**DEFAULT_LOD, **lod}, data, n_levels_min=2)


def test_small_files(tmp_path):
    """1 particle (one level, no bricks) and an empty step (no files)."""
    path = str(tmp_path / "d.lodex")
    dom = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    one = uintah(0, 1, dom, seed=4)
    none = uintah(0, 0, dom, seed=4)
    with lodex.create(path) as ds:
        g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=dom)
        g.write(0, data=one)
        g.write(1, data=none)
    files = verify_step(path, "u", 0, UINTAH_SCHEMA, DEFAULT_LOD, one)
    assert len(files) == 1
    assert verify_step(path, "u", 1, UINTAH_SCHEMA, DEFAULT_LOD, none) == []


def test_identical_input_gives_identical_files(tmp_path):
    """Files are byte-for-byte reproducible (seeded order, zeroed gaps)."""
    dom = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    data = uintah(0, 4000, dom, seed=6)
    blobs = []
    for name in ("a", "b"):
        path = str(tmp_path / f"{name}.lodex")
        with lodex.create(path) as ds:
            ds.define_particles("u", schema=UINTAH_SCHEMA, domain=dom, lod={"brick_target": 100}).write(3, data=data)
        with open(os.path.join(tu.step_dir(path, "u", 3), "p000000.lpd"), "rb") as fh:
            blobs.append(fh.read())
    assert blobs[0] == blobs[1]


def test_multi_rank_partitions(tmp_path):
    """4 ranks: several partitions per step, brick boxes are partition boxes, level scale 3."""
    n = 4
    res = run_mpi(n, "write_lod.py", str(tmp_path / "lod.lodex"), timeout=120)
    path = res["path"]
    for name, spec in tu.lod_groups(n).items():
        lod = {**DEFAULT_LOD, **spec["lod"]}
        for step in spec["steps"]:
            want = tu.concat([tu.lod_rank_data(name, n, r, step)[0] for r in range(n)], UINTAH_SCHEMA)
            files = verify_step(path, name, step, UINTAH_SCHEMA, lod, want, n_levels_min=2)
            assert len(files) > 1
            assert any(f["partition_box"]["min"] != tuple(spec["domain"][0]) for f in files)


def test_brick_boundaries_follow_the_documented_rule(tmp_path):
    """Particles exactly on (and one ulp around) brick boundaries are filed in the brick that
    docs/formats/particles.md assigns them: cell = floor((p - min) * (2^b / (max - min)))."""
    path = str(tmp_path / "d.lodex")
    dom = ((-5.3, 0.0, 0.0), (17.9, 1.0, 1.0))
    bits, n = 4, 5000                         # brick_target 1: 8^4 <= 5000 < 8^5 -> b = 4
    ext = dom[1][0] - dom[0][0]
    xs = []
    for k in range(1, 16):
        x = dom[0][0] + k * ext / 16
        xs += [x, np.nextafter(x, -np.inf), np.nextafter(x, np.inf)]
    rng = np.random.default_rng(8)
    data = uintah(0, n, dom, seed=8)
    data["position"][:len(xs), 0] = xs
    data["position"][:len(xs), 1:] = rng.random((len(xs), 2))
    with lodex.create(path) as ds:
        ds.define_particles("u", schema=UINTAH_SCHEMA, domain=dom, lod={"brick_target": 1}).write(0, data=data)
    f = lodex.open(path).particles["u"].files(0)[0]
    h = tu.parse_particle_file(os.path.join(tu.step_dir(path, "u", 0), f["file"]))
    assert h["brick_bits"] == bits
    pos = h["columns"]["position"]
    cells = tu.brick_cells(pos, h["brick_box"], bits)
    keys = tu.morton3(cells[:, 0], cells[:, 1], cells[:, 2], bits)
    nb, starts = h["num_bricks"], h["segment_starts"]
    stored = np.empty(n, dtype=np.int64)
    for s in range(len(starts) - 1):
        stored[starts[s]:starts[s + 1]] = s % nb
    wrong = np.nonzero(keys != stored)[0]
    assert len(wrong) == 0, (f"{len(wrong)} particles in the wrong brick; first x = {pos[wrong[0], 0]!r} "
                             f"stored in brick {stored[wrong[0]]}, documented rule gives {keys[wrong[0]]}")


def test_nan_only_component_gets_nan_bounds(tmp_path):
    """Non-position NaNs are skipped in the metadata min/max; a component with only NaN gets NaN."""
    path = str(tmp_path / "d.lodex")
    schema = {"position": ("f8", 3), "v": ("f4", 2), "w": "f8"}
    n = 100
    rng = np.random.default_rng(3)
    v = rng.random((n, 2)).astype(np.float32)
    v[:, 1] = np.nan
    v[::3, 0] = np.nan
    w = rng.standard_normal(n)
    data = {"position": rng.random((n, 3)), "v": v, "w": w}
    with lodex.create(path) as ds:
        ds.define_particles("u", schema=schema, domain=((0, 0, 0), (1, 1, 1))).write(0, data=data)
    f = lodex.open(path).particles["u"].files(0)[0]
    assert f["min"][3] == float(np.nanmin(v[:, 0])) and f["max"][3] == float(np.nanmax(v[:, 0]))
    assert np.isnan(f["min"][4]) and np.isnan(f["max"][4])
    assert f["min"][5] == w.min() and f["max"][5] == w.max()
    tu.assert_same_particles(lodex.open(path).particles["u"].read(0), data, schema, key="w")
