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
"""

from __future__ import annotations

import json
import math
import os
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
    "query": lambda g: g.query("energy < 0.5", step=1).count,
    "query_box": lambda g: sorted(g.query("energy > 0.2 && x < 0.7", step=1, fields=["id"]).data["id"].tolist()),
    "scan": lambda g: g.query("energy < 0.5 || id > 1000600", step=1, use_index=False).count,
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
        g = ds.particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1),
                         lod={"brick_target": 64})
        for s in (0, 1):
            g.write(step=s, data=data(s))
        g.build_index(fields=["energy"])
    g = lodex.open(path).particles("p")
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
                opener=lambda path: lodex.open(path).particles("p")) -> dict:
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
        fields, forge = fields_data_file(tu.parse_particle_file(os.path.join(sd, meta["records"][0]["file"]))), forge_data_file
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
    "all": lambda s: s.read("T"),
    "box": lambda s: s.read("T", [1, 2], box=((1, 2, 0), (5, 6, 3))),
    "step": lambda s: s.read("T", 3),
    "plane": lambda s: s.read("PS", [0, 3]),
}


@pytest.fixture(scope="module")
def series_pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("forge_s") / "s.lodex")
    with lodex.create(path) as ds:
        s = ds.series("s", dims=SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=4, d_sar=0)
        for t in range(4):
            s.write(t, ((0, 0, 0), SDIMS), {"T": svalues(t), "PS": svalues(t)[0] * 2})
    s = lodex.open(path).series("s")
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
            for item, result in run_battery(work, want, SBATTERY, lambda p: lodex.open(p).series("s")).items():
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
        g = ds.particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1))
        for s in (0, 1):
            g.write(step=s, data=data(s))
        ds.grid("g", dims=(9, 7, 5), dtype="f4", bits_per_block=4, blocks_per_file=2).write(
            0, ((0, 0, 0), (9, 7, 5)), np.arange(315, dtype=np.float32).reshape(5, 7, 9))
        s = ds.series("s", dims=SDIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2, d_sar=0)
        for t in range(2):
            s.write(t, ((0, 0, 0), SDIMS), {"T": svalues(t), "PS": svalues(t)[0] * 2})
    return path, {k: f(path) for k, f in MIXED.items()}


MIXED = {
    "particles": lambda p: by_id(lodex.open(p).particles("p").read(1)),
    "particles_box": lambda p: by_id(lodex.open(p).particles("p").read(0, box=((0, 0, 0), (0.5, 1, 1)))),
    "grid": lambda p: lodex.open(p).grid("g").read(0),
    "grid_coarse": lambda p: lodex.open(p).grid("g").read(0, resolution=3),
    "series": lambda p: lodex.open(p).series("s").read("T"),
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
