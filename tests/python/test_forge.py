"""The forge test (docs/reliability.md): every header and table field of the particle formats set
to extreme values, one at a time, with every checksum above it recomputed to match (the data
file's header and table checksums, the metadata record's copy of the data file's head, the
metadata file's checksum and the manifest's record of it; the bitmap index's header and component
table checksums; the series window's header checksum). Then a battery of reads (a whole step, a
box, a level, value queries with and without the index, the other step) must each raise a typed
lodex error or return exactly what the unforged dataset returned.

One class of forgery cannot be caught without reading a file the reader has no other reason to
read: a record's component range narrowed so that a value query prunes the whole file (or counts
it whole) without reading it. Where the step indexes the field, the query compares such a
record's range with the file's bitmap index (a separate file) and raises; for a field without an
index, or a query with use_index=False, nothing else holds the range. Those outcomes (a
non-indexed component's range, or the query without its index) are counted apart
(`pruned_by_forged_range`), and the test checks that every silent difference is of that class
and nothing else.

The Roaring bitmaps of an index are forged inside too (test_forged_roaring_containers): fourteen
kinds of invalid container, checksums recomputed; every query answers as numpy does over the data,
with a note that the index was skipped.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import struct

import numpy as np
import pytest

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
N = 2500


def data(step: int) -> dict:
    rng = np.random.default_rng([23, step])
    return {"position": rng.random((N, 3)), "energy": rng.random(N).astype(np.float32),
            "id": np.arange(N, dtype=np.int64) + 10**6 * step}


def by_id(d: dict) -> dict:
    o = np.argsort(d["id"], kind="stable")
    return {k: np.asarray(v)[o] for k, v in d.items()}


BATTERY = {
    "read": lambda g: by_id(g.read(1)),
    "box": lambda g: by_id(g.read(1, box=((0.1, 0.2, 0.0), (0.6, 0.9, 0.7)))),
    "level": lambda g: by_id(g.read(1, level=1)),
    "query": lambda g: g.query(1, "energy < 0.5").count,
    "query_box": lambda g: sorted(g.query(1, "energy > 0.2 && x < 0.7", fields=["id"]).data["id"].tolist()),
    "scan": lambda g: g.query(1, "energy < 0.5 || id > 1000600", use_index=False).count,
    "step0": lambda g: by_id(g.read(0)),
}
QUERIES = {"query", "query_box", "scan"}


def equal(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a)
    return a == b


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("forge") / "f.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1),
                                lod={"brick_target": 64})
        for s in (0, 1):
            g.write(step=s, data=data(s))
        g.build_index(fields=["energy"])
    g = lodex.open(path).particles["p"]
    want = {k: f(g) for k, f in BATTERY.items()}
    return path, want


# ------------------------------------------------------------------------------- resealing

def reseal_metadata(path: str, raw: bytearray) -> None:
    """The metadata file's checksum and the manifest's record of it."""
    sd = tu.step_dir(path, "p", 1)
    struct.pack_into("<Q", raw, len(raw) - 8, tu.xxh3(raw[:-8]))
    with open(os.path.join(sd, "spatial.lsm"), "wb") as fh:
        fh.write(raw)
    mp = os.path.join(path, "manifest.json")
    with open(mp) as fh:
        m = json.load(fh)
    for s in m["groups"]["p"]["steps"]:
        if s["step"] == 1:
            s["metadata_checksum"] = tu.xxh3(raw)
    with open(mp, "w") as fh:
        json.dump(m, fh)


def forge_data_file(path: str, offset: int, fmt: str, value) -> None:
    """Field `fmt` at `offset` of record 0's data file, its checksums, the record's head checksum."""
    sd = tu.step_dir(path, "p", 1)
    meta = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))
    fp = os.path.join(sd, meta["records"][0]["file"])
    parsed = tu.parse_particle_file(fp)
    h = bytearray(parsed["raw"])
    struct.pack_into(fmt, h, offset, value)
    end = parsed["tables_end"]
    struct.pack_into("<Q", h, 120, tu.xxh3(h[:120]))
    struct.pack_into("<Q", h, end - 8, tu.xxh3(h[128:end - 8]))
    with open(fp, "wb") as fh:
        fh.write(h)
    raw = bytearray(meta["raw"])
    struct.pack_into("<Q", raw, 40 + 184, tu.xxh3(h[:end]))
    reseal_metadata(path, raw)


def forge_metadata(path: str, offset: int, fmt: str, value) -> None:
    sd = tu.step_dir(path, "p", 1)
    raw = bytearray(tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))["raw"])
    struct.pack_into(fmt, raw, offset, value)
    reseal_metadata(path, raw)


def forge_index(path: str, offset: int, fmt: str, value) -> None:
    """A field of record 0's energy index: the header checksum and the component table's."""
    sd = tu.step_dir(path, "p", 1)
    stem = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))["records"][0]["file"].rsplit(".", 1)[0]
    ip = os.path.join(sd, f"{stem}.energy.lbx")
    raw = bytearray(open(ip, "rb").read())
    comps = struct.unpack_from("<I", raw, 24)[0]
    struct.pack_into(fmt, raw, offset, value)
    struct.pack_into("<Q", raw, 120, tu.xxh3(raw[:120]))
    table_end = 128 + 64 * comps
    struct.pack_into("<Q", raw, table_end, tu.xxh3(raw[128:table_end]))
    with open(ip, "wb") as fh:
        fh.write(raw)


# ------------------------------------------------------------------------------- the fields

U32 = [0, 1, 2, 7, 2**31, 2**32 - 1]
U64 = [0, 1, 2**31, 2**32, 2**63, 2**64 - 1]
F64 = [0.0, -0.0, -1.0, 0.5, 2.0, 1e308, -1e308, math.inf, -math.inf, math.nan]


def fields_data_file(parsed) -> list:
    """(name, offset, fmt, values) of every header and table field of a data file."""
    out = [("version", 8, "<I", U32), ("header_bytes", 12, "<I", U32), ("N", 16, "<Q", U64),
           ("F", 24, "<I", U32), ("L", 28, "<I", U32), ("brick_bits", 32, "<I", U32 + [11]),
           ("scale", 36, "<I", U32), ("seed", 88, "<Q", U64), ("tables_offset", 96, "<Q", U64),
           ("tables_bytes", 104, "<Q", U64), ("data_offset", 112, "<Q", U64)]
    out += [(f"brick_box[{i}]", 40 + 8 * i, "<d", F64) for i in range(6)]
    at = 128
    for f in range(parsed["num_fields"]):
        base = at + 64 * f
        out += [(f"field{f}.dtype", base + 32, "<B", [0, 3, 10, 11, 255]),
                (f"field{f}.components", base + 36, "<I", U32),
                (f"field{f}.offset", base + 40, "<Q", U64), (f"field{f}.bytes", base + 48, "<Q", U64),
                (f"field{f}.name0", base, "<B", [0, ord("/"), ord("x")])]
    at += 64 * parsed["num_fields"]
    L = parsed["num_levels"]
    for k in range(L):
        out.append((f"level_end[{k}]", at + 8 * k, "<Q", U64))
    at += 8 * L
    nseg = L * parsed["num_bricks"]
    for s in sorted({0, 1, nseg // 2, nseg - 1, nseg}):
        out.append((f"segment_start[{s}]", at + 8 * s, "<Q", U64))
    return out


def fields_metadata(meta) -> list:
    out = [("version", 8, "<I", U32), ("R", 12, "<I", U32), ("K", 16, "<I", U32), ("reserved", 20, "<I", U32),
           ("step", 24, "<q", [0, -1, 2, 2**62]), ("total", 32, "<Q", U64)]
    at = 40
    out += [("rec.name0", at, "<B", [0, ord("/"), ord(".")]), ("rec.partition", at + 64, "<I", U32),
            ("rec.aggregator", at + 68, "<i", [-1, 0, 5, 2**31 - 1])]
    out += [(f"rec.partition_box[{i}]", at + 72 + 8 * i, "<d", F64) for i in range(6)]
    out += [(f"rec.bounds[{i}]", at + 120 + 8 * i, "<d", F64) for i in range(6)]
    out += [("rec.count", at + 168, "<Q", U64), ("rec.file_bytes", at + 176, "<Q", U64)]
    out += [(f"rec.range[{c}].{m}", at + 192 + 16 * c + 8 * j, "<d", F64)
            for c in range(meta["num_components"]) for j, m in enumerate(("min", "max"))]
    return out


def fields_index() -> list:
    out = [("version", 8, "<I", U32), ("header_bytes", 12, "<I", U32), ("N", 16, "<Q", U64), ("C", 24, "<I", U32),
           ("dtype", 28, "<B", [0, 2, 11, 255]), ("binning", 29, "<B", [0, 2, 3, 255]),
           ("digits", 32, "<I", U32), ("head_checksum", 40, "<Q", [0, 1]), ("name0", 48, "<B", [0, ord("x")]),
           ("table_offset", 80, "<Q", U64), ("table_bytes", 88, "<Q", U64), ("file_bytes", 96, "<Q", U64)]
    base = 128
    out += [("comp.B", base, "<Q", U64), ("comp.nan_rows", base + 8, "<Q", U64),
            ("comp.min", base + 16, "<d", F64), ("comp.max", base + 24, "<d", F64),
            ("comp.bin_table_offset", base + 32, "<Q", U64), ("comp.bitmaps_offset", base + 48, "<Q", U64),
            ("comp.bitmaps_bytes", base + 56, "<Q", U64)]
    return out


def run_battery(path: str, want: dict, battery: dict = BATTERY,
                opener=lambda path: lodex.open(path).particles["p"]) -> dict:
    """{battery item: 'exact' | 'error' | 'silent'} (an InternalError or other exception fails).
    Each item is called on ``opener(path)``."""
    out = {}
    for k, f in battery.items():
        try:
            got = f(opener(path))
        except lodex.InternalError as e:
            raise AssertionError(f"{k}: InternalError: {e}") from e
        except lodex.Error:
            out[k] = "error"
            continue
        out[k] = "exact" if equal(got, want[k]) else "silent"
    return out


INDEXED_COMPONENTS = {3}   # energy (components: x, y, z, energy, id)


def narrows_range(name: str, value: float, meta_before, item: str) -> bool:
    """Whether a forged component range excludes values the file holds (pruning a query) where no
    index holds the range to compare with (a component without one, or the query not using it)."""
    if not name.startswith("rec.range"):
        return False
    c = int(name[len("rec.range["):name.index("]")])
    if c in INDEXED_COMPONENTS and item != "scan":
        return False
    lo, hi = meta_before["records"][0]["min"][c], meta_before["records"][0]["max"][c]
    if name.endswith("min"):
        return not (value <= lo) or math.isnan(value)
    return not (value >= hi) or math.isnan(value)


@pytest.mark.parametrize("kind", ["data_file", "metadata", "index"])
def test_every_field_forged_to_extremes(pristine, tmp_path, kind):
    path, want = pristine
    sd = tu.step_dir(path, "p", 1)
    meta = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))
    if kind == "data_file":
        data_file = tu.parse_particle_file(os.path.join(sd, meta["records"][0]["file"]))
        fields, forge = fields_data_file(data_file), forge_data_file
    elif kind == "metadata":
        fields, forge = fields_metadata(meta), forge_metadata
    else:
        fields, forge = fields_index(), forge_index
    tally = {"exact": 0, "error": 0, "pruned_by_forged_range": 0}
    silent = []
    for name, offset, fmt, values in fields:
        for v in values:
            work = str(tmp_path / "w")
            shutil.copytree(path, work)
            forge(work, offset, fmt, v)
            for item, result in run_battery(work, want).items():
                if result == "silent" and item in QUERIES and narrows_range(name, v, meta, item):
                    result = "pruned_by_forged_range"
                elif result == "silent":
                    silent.append((name, v, item))
                tally[result] = tally.get(result, 0) + 1
            shutil.rmtree(work)
    print(f"{kind}: {len(fields)} fields, {tally}")
    assert not silent, silent[:20]
    assert tally["error"] > 0 or kind == "index"   # a damaged index is left for a scan: exact answers


# ------------------------------------------------------------------------------- series windows

SDIMS = (7, 6, 5)


def svalues(step: int) -> np.ndarray:
    return (np.arange(np.prod(SDIMS), dtype=np.float32).reshape(SDIMS[::-1]) * 0.5 + step)


SBATTERY = {
    "all": lambda s: s.read(variable="T"),
    "box": lambda s: s.read([1, 2], variable="T", box=((1, 2, 0), (5, 6, 3))),
    "step": lambda s: s.read(3, variable="T"),
    "plane": lambda s: s.read([0, 3], variable="PS"),
}


@pytest.fixture(scope="module")
def series_pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("forge_s") / "s.lodex")
    with lodex.create(path) as ds:
        s = ds.define_series("s", dims=SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=4, d_sar=0)
        for t in range(4):
            s.write(t, ((0, 0, 0), SDIMS), {"T": svalues(t), "PS": svalues(t)[0] * 2})
    s = lodex.open(path).series["s"]
    return path, {k: f(s) for k, f in SBATTERY.items()}


def window_file(path: str) -> str:
    d = os.path.join(path, "s")
    (name,) = [f for f in os.listdir(d) if f.endswith(".lsw")]
    return os.path.join(d, name)


def forge_window(path: str, offset: int, fmt: str, value) -> None:
    fp = window_file(path)
    raw = bytearray(open(fp, "rb").read())
    V, C = struct.unpack_from("<II", raw, 60)
    struct.pack_into(fmt, raw, offset, value)
    struct.pack_into("<Q", raw, 120, tu.xxh3(raw[:120]))
    end = 128 + 24 * V * C
    struct.pack_into("<Q", raw, end, tu.xxh3(raw[128:end]))
    with open(fp, "wb") as fh:
        fh.write(raw)


def fields_window(raw: bytes) -> list:
    V, C = struct.unpack_from("<II", raw, 60)
    out = [("version", 8, "<I", U32), ("header_bytes", 12, "<I", U32), ("name0", 16, "<B", [0, ord("x")]),
           ("first_step", 48, "<Q", U64), ("S", 56, "<I", U32), ("V", 60, "<I", U32), ("C", 64, "<I", U32),
           ("B", 68, "<I", U32 + [512, 8192]), ("chunk_table_bytes", 72, "<Q", U64), ("data_offset", 80, "<Q", U64),
           ("file_bytes", 88, "<Q", U64), ("P", 96, "<Q", U64), ("K", 104, "<Q", U64)]
    for e in sorted({0, V * C - 1}):
        base = 128 + 24 * e
        out += [(f"chunk{e}.offset", base, "<Q", U64), (f"chunk{e}.bytes", base + 8, "<Q", U64),
                (f"chunk{e}.planes", base + 16, "<I", U32)]
    return out


def test_every_series_window_field_forged_to_extremes(series_pristine, tmp_path):
    path, want = series_pristine
    tally = {"exact": 0, "error": 0}
    silent = []
    for name, offset, fmt, values in fields_window(open(window_file(path), "rb").read()):
        for v in values:
            work = str(tmp_path / "w")
            shutil.copytree(path, work)
            forge_window(work, offset, fmt, v)
            for item, result in run_battery(work, want, SBATTERY, lambda p: lodex.open(p).series["s"]).items():
                if result == "silent":
                    silent.append((name, v, item))
                else:
                    tally[result] += 1
            shutil.rmtree(work)
    print(f"series window: {tally}")
    assert not silent, silent[:20]
    assert tally["error"] > 0


# ------------------------------------------------------------------------------- manifest and .idx

@pytest.fixture(scope="module")
def mixed_pristine(tmp_path_factory):
    """Particles, a grid and a series in one dataset, with what every read returns."""
    path = str(tmp_path_factory.mktemp("forge_m") / "m.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1))
        for s in (0, 1):
            g.write(step=s, data=data(s))
        ds.define_grid("g", dims=(9, 7, 5), dtype="f4", bits_per_block=4, blocks_per_file=2).write(
            0, ((0, 0, 0), (9, 7, 5)), np.arange(315, dtype=np.float32).reshape(5, 7, 9))
        s = ds.define_series("s", dims=SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2, d_sar=0)
        for t in range(2):
            s.write(t, ((0, 0, 0), SDIMS), {"T": svalues(t), "PS": svalues(t)[0] * 2})
    return path, {k: f(path) for k, f in MIXED.items()}


MIXED = {
    "particles": lambda p: by_id(lodex.open(p).particles["p"].read(1)),
    "particles_box": lambda p: by_id(lodex.open(p).particles["p"].read(0, box=((0, 0, 0), (0.5, 1, 1)))),
    "grid": lambda p: lodex.open(p).grids["g"].read(0),
    "grid_coarse": lambda p: lodex.open(p).grids["g"].read(0, resolution=3),
    "series": lambda p: lodex.open(p).series["s"].read(variable="T"),
}
EXTREME_NUMBERS = [0, 1, -1, 7, 2**31, 2**53 + 1, 2**63, 1e300, -1e300, 0.5]
EXTREME_STRINGS = ["", "x", "../x", "/etc/passwd", "f9", "zip", "V" + "0" * 70]


def leaves(node, path=()):
    """(path, value) of every number and string of a JSON tree (booleans apart)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from leaves(v, path + (i,))
    elif not isinstance(node, bool):
        yield path, node


def set_leaf(tree, path, value):
    for k in path[:-1]:
        tree = tree[k]
    tree[path[-1]] = value


def mixed_outcome(path: str, want: dict) -> dict:
    """The mixed battery: each item reads the dataset at ``path`` itself."""
    return run_battery(path, want, MIXED, opener=lambda p: p)


def test_every_manifest_field_forged_to_extremes(mixed_pristine, tmp_path):
    """The manifest has no checksum (a forger edits it freely): every number and string in it set
    to extreme values in turn; every read is a typed error or exactly the unforged answer."""
    path, want = mixed_pristine
    manifest = json.load(open(os.path.join(path, "manifest.json")))
    tally = {"exact": 0, "error": 0}
    silent = []
    fields = list(leaves(manifest))
    for where, old in fields:
        for v in (EXTREME_NUMBERS if isinstance(old, (int, float)) else EXTREME_STRINGS):
            if v == old:
                continue
            work = str(tmp_path / "w")
            shutil.copytree(path, work)
            m = json.loads(json.dumps(manifest))
            set_leaf(m, where, v)
            with open(os.path.join(work, "manifest.json"), "w") as fh:
                json.dump(m, fh)
            for item, result in mixed_outcome(work, want).items():
                if result == "silent":
                    silent.append(("/".join(map(str, where)), v, item))
                else:
                    tally[result] += 1
            shutil.rmtree(work)
    print(f"manifest: {len(fields)} fields, {tally}")
    assert not silent, silent[:20]


def test_every_idx_header_field_forged(mixed_pristine, tmp_path):
    """Every line of a dataset grid's .idx header replaced by other values (the header has no
    checksum; the manifest and the block checksums hold what it must say)."""
    path, want = mixed_pristine
    text = open(os.path.join(path, "g.idx")).read()
    lines = text.split("\n")
    tally = {"exact": 0, "error": 0}
    silent = []
    for i, line in enumerate(lines):
        if not line or line.startswith("("):
            continue
        for v in ("0", "-1", "99999999999", line + " 1", "1 2 3 4 5 6", "V012", "./x/%04x.bin", "../g/%04x.bin",
                  "float64", "0 8 0 6 0 4", "time_%02d/"):
            if v == line:
                continue
            work = str(tmp_path / "w")
            shutil.copytree(path, work)
            with open(os.path.join(work, "g.idx"), "w") as fh:
                fh.write("\n".join(lines[:i] + [v] + lines[i + 1:]))
            for item, result in mixed_outcome(work, want).items():
                if result == "silent":
                    silent.append((lines[i - 1] if i else "", v, item))
                else:
                    tally[result] += 1
            shutil.rmtree(work)
    print(f".idx header: {tally}")
    assert not silent, silent[:20]
    assert tally["error"] > 0


# ------------------------------------------------------------------------------- Roaring bitmaps

# The bitmaps of an index forged inside, container by container, with every checksum above them
# recomputed (the bin's bitmap checksum, the bin table's, the component table's). A query must
# answer exactly what numpy computes over the data; where the forged bitmap is invalid it must say
# (a note) that the index was skipped and the data scanned. One file of BN rows (two Roaring
# containers per bin): 'energy' half 0.5 (bitsets) and half uniform (arrays), 'band' x in
# eighths (bitsets and arrays), 'tag' and 'mark' in one bin [0.1, 0.11) but for 1 % of the rows
# (runs between them).
BSCHEMA = {"position": ("f8", 3), "energy": "f4", "band": "f4", "tag": "f4", "mark": "f4", "id": "i8"}
BFIELDS = ("energy", "band", "tag", "mark")
BN = 100_000


def bitmap_data() -> dict:
    rng = np.random.default_rng(35)
    pos = rng.random((BN, 3))
    energy = np.where(rng.random(BN) < 0.5, 0.5, rng.random(BN)).astype(np.float32)
    rare = [np.select([u < 0.005, u < 0.01], [1.0, 2.0],
                      0.1 + 0.009 * u).astype(np.float32) for u in rng.random((2, BN))]
    return {"position": pos, "energy": energy, "band": (np.floor(pos[:, 0] * 8) / 8).astype(np.float32),
            "tag": rare[0], "mark": rare[1], "id": np.arange(BN, dtype=np.int64)}


@pytest.fixture(scope="module")
def bitmap_pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("forge_b") / "b.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=BSCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(1, 1, 1))
        g.write(step=0, data=bitmap_data())
        g.build_index(fields=list(BFIELDS), precision=2)
    return path


def index_path(path: str, field: str) -> str:
    sd = tu.step_dir(path, "p", 0)
    (name,) = [f for f in os.listdir(sd) if f.endswith(f".{field}.lbx")]
    return os.path.join(sd, name)


def index_bins(raw: bytes) -> list:
    """The bins of component 0 of an f4 index: dicts of vmin, vmax, count, raw, at (the entry's
    offset), start and size (the bitmap's bytes)."""
    table, start = struct.unpack_from("<Q", raw, 128 + 32)[0], struct.unpack_from("<Q", raw, 128 + 48)[0]
    nbins = struct.unpack_from("<Q", raw, 128)[0] + 1
    out = []
    for b in range(nbins):
        at = table + 20 * b
        vmin, vmax, count, size, _ = struct.unpack_from("<ffIII", raw, at)
        out.append({"vmin": vmin, "vmax": vmax, "count": count, "raw": bool(size >> 31), "at": at, "start": start,
                    "size": size & 0x7FFFFFFF, "nan": b == nbins - 1})
        start += size & 0x7FFFFFFF
    return out


def reseal_index(raw: bytearray, bin_: dict) -> None:
    """The bin's bitmap checksum, its bin table's and the component table's, recomputed."""
    bm = raw[bin_["start"]:bin_["start"] + bin_["size"]]
    struct.pack_into("<I", raw, bin_["at"] + 16, tu.xxh3(bm) & 0xFFFFFFFF)
    table = struct.unpack_from("<Q", raw, 128 + 32)[0]
    nbins = struct.unpack_from("<Q", raw, 128)[0] + 1
    struct.pack_into("<Q", raw, 128 + 40, tu.xxh3(raw[table:table + 20 * nbins]))
    struct.pack_into("<Q", raw, 128 + 64, tu.xxh3(raw[128:128 + 64]))


def containers(bm: bytes) -> list:
    """A Roaring bitmap's containers (portable format): key, card, kind, and where the key, the
    cardinality, the offset (None) and the data are."""
    cookie = struct.unpack_from("<I", bm, 0)[0]
    if cookie & 0xFFFF == 12347:
        n, flags, at = (cookie >> 16) + 1, bm[4:4 + ((cookie >> 16) + 8) // 8], 4 + ((cookie >> 16) + 8) // 8
        runs = [bool(flags[i // 8] >> (i % 8) & 1) for i in range(n)]
        offsets = n >= 4
    else:
        n, at, runs, offsets = struct.unpack_from("<I", bm, 4)[0], 8, [False] * struct.unpack_from("<I", bm, 4)[0], True
    out = []
    for i in range(n):
        key, card = struct.unpack_from("<HH", bm, at + 4 * i)
        out.append({"key": key, "card": card + 1, "key_at": at + 4 * i,
                    "kind": "run" if runs[i] else "array" if card + 1 <= 4096 else "bitset"})
    at += 4 * n
    for i in range(n):
        out[i]["offset_at"] = at + 4 * i if offsets else None
    at += 4 * n if offsets else 0
    for c in out:
        c["data"] = at
        if c["kind"] == "run":
            c["runs"] = struct.unpack_from("<H", bm, at)[0]
            at += 2 + 4 * c["runs"]
        else:
            at += 8192 if c["kind"] == "bitset" else 2 * c["card"]
    assert at == len(bm)
    return out


def first(cs: list, kind: str, which: int, at_least: int = 1):
    """The which-th container of `kind` with at least `at_least` values (runs for runs), or None."""
    found = [c for c in cs if c["kind"] == kind and c.get("runs", c["card"]) >= at_least]
    return found[which] if which < len(found) else None


def f_bitset_extra_bit(bm, cs, which):
    c = first(cs, "bitset", which)
    if c is None or c["card"] == 65536:
        return None
    words = np.frombuffer(bytes(bm[c["data"]:c["data"] + 8192]), dtype=np.uint8)
    i = int(np.flatnonzero(words != 0xFF)[-1])
    clear = ~int(words[i]) & 0xFF
    bm[c["data"] + i] |= clear & -clear   # its lowest clear bit set
    return bm


def f_bitset_missing_bit(bm, cs, which):
    c = first(cs, "bitset", which)
    if c is None:
        return None
    words = np.frombuffer(bytes(bm[c["data"]:c["data"] + 8192]), dtype=np.uint8)
    i = int(np.flatnonzero(words)[0])
    bm[c["data"] + i] &= int(words[i]) - 1   # its lowest set bit cleared
    return bm


def f_keys_swapped(bm, cs, which):
    if which:
        return None
    if len(cs) < 2:
        return None
    struct.pack_into("<H", bm, cs[0]["key_at"], cs[1]["key"])
    struct.pack_into("<H", bm, cs[1]["key_at"], cs[0]["key"])
    return bm


def f_keys_equal(bm, cs, which):
    if which:
        return None
    if len(cs) < 2:
        return None
    struct.pack_into("<H", bm, cs[1]["key_at"], cs[0]["key"])
    return bm


def f_array_duplicate(bm, cs, which):
    c = first(cs, "array", which, 2)
    if c is None:
        return None
    bm[c["data"] + 2:c["data"] + 4] = bm[c["data"]:c["data"] + 2]
    return bm


def f_array_unsorted(bm, cs, which):
    c = first(cs, "array", which, 2)
    if c is None:
        return None
    a, b = bytes(bm[c["data"]:c["data"] + 2]), bytes(bm[c["data"] + 2:c["data"] + 4])
    bm[c["data"]:c["data"] + 4] = b + a
    return bm


def f_array_card_raised(bm, cs, which):
    c = first(cs, "array", which)
    if c is None:
        return None
    struct.pack_into("<H", bm, c["key_at"] + 2, c["card"])   # cardinality + 1
    return bm


def f_run_past_65535(bm, cs, which):
    c = first(cs, "run", which)
    if c is None:
        return None
    last = c["data"] + 2 + 4 * (c["runs"] - 1)
    start, length = struct.unpack_from("<HH", bm, last)
    start = max(start, 65500)
    struct.pack_into("<HH", bm, last, start, max(length, 65536 - start))   # the last run ends past 65535
    return bm


def f_runs_overlapping(bm, cs, which):
    c = first(cs, "run", which, 2)
    if c is None:
        return None
    s0 = struct.unpack_from("<H", bm, c["data"] + 2)[0]
    struct.pack_into("<H", bm, c["data"] + 6, s0)
    return bm


def f_runs_unsorted(bm, cs, which):
    c = first(cs, "run", which, 2)
    if c is None:
        return None
    a, b = bytes(bm[c["data"] + 2:c["data"] + 6]), bytes(bm[c["data"] + 6:c["data"] + 10])
    bm[c["data"] + 2:c["data"] + 10] = b + a
    return bm


def f_offset_wrong(bm, cs, which):
    if which:
        return None
    c = next((c for c in cs if c["offset_at"] is not None), None)
    if c is None:
        return None
    struct.pack_into("<I", bm, c["offset_at"], struct.unpack_from("<I", bm, c["offset_at"])[0] + 2)
    return bm


def f_run_flag_flipped(bm, cs, which):
    if which:
        return None
    if struct.unpack_from("<I", bm, 0)[0] & 0xFFFF != 12347:
        return None
    bm[4] ^= 1
    return bm


def f_key_past_rows(bm, cs, which):
    if which:
        return None
    struct.pack_into("<H", bm, cs[-1]["key_at"], 0xFFFF)
    return bm


def f_cookie(bm, cs, which):
    if which:
        return None
    struct.pack_into("<I", bm, 0, struct.unpack_from("<I", bm, 0)[0] ^ 0x4)
    return bm


FORGERIES = {name[2:]: f for name, f in globals().items() if name.startswith("f_")}
FOUR_KINDS = {"bitset_extra_bit", "keys_swapped", "array_duplicate", "run_past_65535"}


def bin_queries(field: str, b: dict) -> list:
    """Queries that read bin b (a candidate bin, or its complement's sure bins) with numpy's answer."""
    lo, hi = float(b["vmin"]), float(b["vmax"])
    qs = [f"{field} == {lo!r}", f"{field} != {lo!r}"]
    if lo < hi:
        mid = float(np.float32((lo + hi) / 2))
        qs += [f"{field} < {mid!r}", f"{field} >= {mid!r} && {field} <= {hi!r}"]
    qs.append(f"{field} > {lo!r} || id < 1000")
    return qs


def numpy_ids(d: dict, q: str) -> np.ndarray:
    env = {k: np.asarray(v, dtype=np.float64) for k, v in d.items() if k != "position"}
    env["id"] = d["id"]
    expr = q.replace("&&", "&").replace("||", "|")
    expr = re.sub(r"(\w+ (?:==|!=|<=|>=|<|>) [-+0-9.e]+)", r"(\1)", expr)
    return d["id"][eval(expr, {}, env)]   # noqa: S307 - the test's own query strings


def test_forged_roaring_containers(bitmap_pristine, tmp_path):
    path = str(tmp_path / "b.lodex")
    shutil.copytree(bitmap_pristine, path)
    d = bitmap_data()
    g = lodex.open(path).particles["p"]
    for field in BFIELDS:   # the pristine index: exact, no note
        for b in index_bins(open(index_path(path, field), "rb").read())[:3]:
            for q in bin_queries(field, b):
                r = g.query(0, q, fields=["id"])
                assert np.array_equal(np.sort(r.data["id"]), numpy_ids(d, q)), q
                assert not [n for n in r.notes if "unusable" in n], (q, r.notes)
    tally = {"forged": 0, "queries": 0, "exact": 0, "noted": 0, "wrong": 0}
    kinds = {k: {"forged": 0, "noted": 0} for k in FORGERIES}
    seen = set()
    wrong = []
    for field in BFIELDS:
        ip = index_path(path, field)
        pristine = open(ip, "rb").read()
        bins = [b for b in index_bins(pristine) if b["count"] and not b["raw"]]
        for kind, forge in FORGERIES.items():
            done = 0
            for b, which in ((b, w) for b in bins for w in (0, 1)):
                if done == 8:
                    break
                bm = bytearray(pristine[b["start"]:b["start"] + b["size"]])
                cs = containers(bytes(bm))
                seen.update(c["kind"] for c in cs)
                if forge(bm, cs, which) is None:
                    continue
                done += 1
                raw = bytearray(pristine)
                raw[b["start"]:b["start"] + b["size"]] = bm
                reseal_index(raw, b)
                with open(ip, "wb") as fh:
                    fh.write(raw)
                noted = False
                for q in bin_queries(field, b):
                    try:
                        r = lodex.open(path).particles["p"].query(0, q, fields=["id"])
                    except lodex.Error as e:
                        raise AssertionError(f"{field} {kind}: {q}: {type(e).__name__}: {e}") from e
                    tally["queries"] += 1
                    if not np.array_equal(np.sort(r.data["id"]), numpy_ids(d, q)):
                        tally["wrong"] += 1
                        wrong.append((field, kind, q))
                        continue
                    tally["exact"] += 1
                    if any("bitmap index unusable" in n and f"'{field}'" in n for n in r.notes):
                        noted = True
                tally["forged"] += 1
                tally["noted"] += noted
                kinds[kind]["forged"] += 1
                kinds[kind]["noted"] += noted
            with open(ip, "wb") as fh:
                fh.write(pristine)
    print(f"forged bitmaps: {tally}; by kind: {kinds}")
    assert not wrong, wrong[:20]
    assert seen == {"array", "bitset", "run"}, seen
    assert all(kinds[k]["forged"] >= 4 for k in FOUR_KINDS), kinds
    assert all(v["forged"] > 0 for v in kinds.values()), kinds
    # Every forgery is of an invalid bitmap: each forged index was skipped with a note.
    assert tally["noted"] == tally["forged"], kinds


def test_forged_index_field_name_not_utf8(pristine, tmp_path):
    """An index whose field name holds bytes that are not UTF-8 (checksums recomputed): the query
    skips the index with a note quoting the name escaped; it used to raise UnicodeDecodeError
    (not a lodex error) while converting the note."""
    path, want = pristine
    work = str(tmp_path / "w")
    shutil.copytree(path, work)
    forge_index(work, 51, "<B", 0xA9)
    g = lodex.open(work).particles["p"]
    r = g.query(1, "energy < 0.5")
    assert r.count == want["query"]
    assert any("\\xa9" in n for n in r.notes), r.notes


@pytest.mark.xfail(strict=True, reason="known defect (forge campaign, case 151 of seed 35): a level read "
                   "takes each brick's share by its count over every level, from segment starts of levels "
                   "it does not read; a boundary moved between two bricks of the last level changes the "
                   "particles a level-1 read returns, with no error")
def test_forged_segment_boundary_between_bricks_of_an_unread_level(pristine, tmp_path):
    """The last level's boundary between bricks 6 and 7 moved by two rows (every checksum
    recomputed): a whole read fails the segments' checksums; a level-1 read must fail too or
    return the unforged particles."""
    path, want = pristine
    work = str(tmp_path / "w")
    shutil.copytree(path, work)
    sd = tu.step_dir(work, "p", 1)
    first_file = tu.parse_spatial_metadata(os.path.join(sd, "spatial.lsm"))["records"][0]["file"]
    parsed = tu.parse_particle_file(os.path.join(sd, first_file))
    second_last = f"segment_start[{len(parsed['segment_starts']) - 2}]"
    (name, offset, fmt, _), = [f for f in fields_data_file(parsed) if f[0] == second_last]
    forge_data_file(work, offset, fmt, parsed["segment_starts"][-2] - 2)
    g = lodex.open(work).particles["p"]
    with pytest.raises(lodex.FormatError):
        g.read(1)
    try:
        got = by_id(g.read(1, level=1))
    except lodex.Error:
        return
    assert equal(got, want["level"])
