"""Damaged datasets: every kind of damage is reported as lodex.FormatError (NotFoundError for a
deleted file) naming the damaged file, and undamaged steps stay readable value for value."""

from __future__ import annotations

import json
import os
import shutil
import struct

import numpy as np
import pytest

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8", "vel": ("f4", 3)}
GROUP = "p"
STEPS = [0, 1, 2]
DAMAGED = 1
N = 5000


def make(step: int) -> dict:
    rng = np.random.default_rng([3, step])
    return {"position": rng.random((N, 3)), "energy": rng.random(N).astype(np.float32),
            "id": np.arange(N, dtype=np.int64) + 10 * N * step,
            "vel": rng.standard_normal((N, 3)).astype(np.float32)}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("corrupt") / "base.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)),
                                lod={"brick_target": 64})   # several bricks -> many segments
        for s in STEPS:
            g.write(step=s, data=make(s))
    return path


def data_file(path: str, step: int = DAMAGED) -> str:
    return os.path.join(tu.step_dir(path, GROUP, step), "p000000.lpd")


def meta_file(path: str, step: int = DAMAGED) -> str:
    return os.path.join(tu.step_dir(path, GROUP, step), "spatial.lsm")


def flip(path: str, offset: int) -> None:
    tu.flip_byte(path, offset, 0x10)


def others_intact(path: str) -> None:
    g = lodex.open(path).particles[GROUP]
    assert g.steps == STEPS
    for s in STEPS:
        if s != DAMAGED:
            tu.assert_same_particles(g.read(s), make(s), SCHEMA)


def read_fails(path: str, exc, names: str, step: int = DAMAGED):
    g = lodex.open(path).particles[GROUP]
    with pytest.raises(exc) as ei:
        g.read(step)
    assert names in str(ei.value), f"error does not name {names!r}: {ei.value}"
    return ei.value


def test_pristine_reads(pristine):
    g = lodex.open(pristine).particles[GROUP]
    for s in STEPS:
        tu.assert_same_particles(g.read(s), make(s), SCHEMA)


@pytest.mark.parametrize("cut", [1, 100, 5000, None])
def test_truncated_data_file(copy, cut):
    f = data_file(copy)
    size = os.path.getsize(f)
    new = 64 if cut is None else size - cut   # None: shorter than the 128-byte header
    with open(f, "r+b") as fh:
        fh.truncate(new)
    read_fails(copy, lodex.FormatError, f)
    others_intact(copy)


def test_appended_junk(copy):
    f = data_file(copy)
    with open(f, "ab") as fh:
        fh.write(b"\0" * 64)
    read_fails(copy, lodex.FormatError, f)
    others_intact(copy)


@pytest.mark.parametrize("field,where", [("energy", "first"), ("energy", "middle"),
                                         ("position", "middle"), ("vel", "last"), ("id", "last")])
def test_flipped_column_byte(copy, field, where):
    f = data_file(copy)
    h = tu.parse_particle_file(f)
    col = next(c for c in h["fields"] if c["name"] == field)
    off = col["offset"] + {"first": 0, "middle": col["bytes"] // 2, "last": col["bytes"] - 1}[where]
    flip(f, off)
    err = read_fails(copy, lodex.FormatError, f)
    assert f"'{field}'" in str(err)
    # the other fields of the damaged file still pass their checksums
    g = lodex.open(copy).particles[GROUP]
    other = [k for k in SCHEMA if k != field]
    got = g.read(DAMAGED, fields=other)
    want = make(DAMAGED)
    if "id" in got:
        order_g, order_w = np.argsort(got["id"]), np.argsort(want["id"])
        for k in other:
            assert np.array_equal(got[k][order_g], want[k][order_w])
    else:
        assert np.array_equal(np.sort(got["energy"]), np.sort(want["energy"]))
    others_intact(copy)


@pytest.mark.parametrize("offset", [0, 8, 12, 16, 24, 36, 40, 88, 100, 112, 120, 127])
def test_flipped_header_byte(copy, offset):
    f = data_file(copy)
    flip(f, offset)
    read_fails(copy, lodex.FormatError, f)
    others_intact(copy)


@pytest.mark.parametrize("where", ["field_table", "level_ends", "segment_starts", "segment_checksums",
                                   "table_checksum"])
def test_flipped_table_byte(copy, where):
    f = data_file(copy)
    h = tu.parse_particle_file(f)
    nl, nseg = h["num_levels"], h["num_levels"] * h["num_bricks"]
    t0 = 128 + 64 * h["num_fields"]
    off = {"field_table": 128 + 33,
           "level_ends": t0 + 8 * (nl - 1),
           "segment_starts": t0 + 8 * nl + 8 * (nseg // 2),
           "segment_checksums": t0 + 8 * nl + 8 * (nseg + 1) + 8 * nseg,
           "table_checksum": h["tables_end"] - 3}[where]
    flip(f, off)
    read_fails(copy, lodex.FormatError, f)
    others_intact(copy)


def test_forged_header_with_valid_checksum(copy):
    """A header changed AND re-checksummed still fails: the metadata records the head checksum."""
    f = data_file(copy)
    with open(f, "r+b") as fh:
        raw = bytearray(fh.read(128))
        struct.pack_into("<Q", raw, 88, struct.unpack_from("<Q", raw, 88)[0] ^ 1)   # the seed
        struct.pack_into("<Q", raw, 120, tu.xxh3(raw[:120]))
        fh.seek(0)
        fh.write(raw)
    read_fails(copy, lodex.FormatError, f)
    others_intact(copy)


def test_data_file_swapped_with_other_step(copy):
    shutil.copyfile(data_file(copy, 0), data_file(copy))
    read_fails(copy, lodex.FormatError, data_file(copy))
    others_intact(copy)


def test_deleted_data_file(copy):
    os.remove(data_file(copy))
    read_fails(copy, (lodex.NotFoundError, lodex.FormatError), data_file(copy))
    others_intact(copy)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("which", ["data", "metadata", "manifest"])
def test_fifo_in_place_of_a_file(copy, which):
    """A FIFO where a file should be is a FormatError at once: opening it used to wait forever
    for a writer. The file system stays as it was (the FIFO is not replaced or removed)."""
    target = {"data": data_file(copy), "metadata": meta_file(copy),
              "manifest": os.path.join(copy, "manifest.json")}[which]
    os.remove(target)
    os.mkfifo(target)
    with pytest.raises(lodex.FormatError, match="not a regular file") as ei:
        lodex.open(copy).particles[GROUP].read(DAMAGED)
    assert target in str(ei.value)
    assert os.path.exists(target) and not os.path.isfile(target)
    if which != "manifest":
        others_intact(copy)


def test_deleted_spatial_metadata(copy):
    os.remove(meta_file(copy))
    read_fails(copy, (lodex.NotFoundError, lodex.FormatError), meta_file(copy))
    g = lodex.open(copy).particles[GROUP]
    with pytest.raises((lodex.NotFoundError, lodex.FormatError)) as ei:
        g.files(DAMAGED)
    assert meta_file(copy) in str(ei.value)
    others_intact(copy)


@pytest.mark.parametrize("where", ["magic", "count", "end"])
def test_flipped_spatial_metadata_byte(copy, where):
    m = meta_file(copy)
    size = os.path.getsize(m)
    flip(m, {"magic": 0, "count": 40 + 168, "end": size - 1}[where])
    read_fails(copy, lodex.FormatError, m)
    with pytest.raises(lodex.FormatError):
        lodex.open(copy).particles[GROUP].files(DAMAGED)
    others_intact(copy)


def test_truncated_spatial_metadata(copy):
    m = meta_file(copy)
    with open(m, "r+b") as fh:
        fh.truncate(os.path.getsize(m) - 16)
    read_fails(copy, lodex.FormatError, m)
    others_intact(copy)


# ---------------------------------------------------------------------------------------------
# manifest.json
# ---------------------------------------------------------------------------------------------

def manifest(path):
    return os.path.join(path, "manifest.json")


def rewrite_manifest(path, fn):
    with open(manifest(path)) as fh:
        doc = json.load(fh)
    fn(doc)
    with open(manifest(path), "w") as fh:
        json.dump(doc, fh)


def open_fails(path, exc=lodex.FormatError):
    with pytest.raises(exc) as ei:
        lodex.open(path)
    assert "manifest.json" in str(ei.value), str(ei.value)
    return ei.value


@pytest.mark.parametrize("text", ["{", "", "not json at all", "[]", "{\"format\": \"lodex\"}",
                                  "{\"format\": \"other\", \"format_version\": 1, \"groups\": {}}"])
def test_manifest_invalid(copy, text):
    with open(manifest(copy), "w") as fh:
        fh.write(text)
    open_fails(copy)
    with pytest.raises(lodex.FormatError):
        lodex.open(copy, mode="a")


@pytest.mark.parametrize("literal", ["1e400", "-1e400", "1" * 400, "-" + "9" * 30])
def test_manifest_number_overflow_names_file_and_key(copy, literal):
    """A number that fits neither a double nor a 64-bit integer is a FormatError naming the file
    and the key it belongs to (it was an InternalError with the JSON library's message alone)."""
    with open(manifest(copy)) as fh:
        text = fh.read()
    key = '"particles":'
    at = text.index(key, text.index('"steps"')) + len(key)
    end = at + len(text[at:]) - len(text[at:].lstrip())
    stop = end
    while text[stop] not in ",}":
        stop += 1
    with open(manifest(copy), "w") as fh:
        fh.write(text[:end] + literal + text[stop:])
    err = open_fails(copy)
    assert "key 'particles'" in str(err) or "/particles: " in str(err), str(err)


@pytest.mark.parametrize("version", [0, 2, 99, -1, "1"])
def test_manifest_wrong_format_version(copy, version):
    rewrite_manifest(copy, lambda d: d.__setitem__("format_version", version))
    err = open_fails(copy)
    assert "format_version" in str(err)


def test_manifest_deleted(copy):
    os.remove(manifest(copy))
    open_fails(copy, (lodex.FormatError, lodex.NotFoundError))


@pytest.mark.parametrize("mutate", ["dtype", "components", "directory_escape", "steps_order",
                                    "negative_step", "domain_empty", "partition_mode"])
def test_manifest_bad_values(copy, mutate):
    def fn(d):
        g = d["groups"][GROUP]
        if mutate == "dtype":
            g["schema"][1]["dtype"] = "f16"
        elif mutate == "components":
            g["schema"][0]["components"] = 0
        elif mutate == "directory_escape":
            g["steps"][0]["directory"] = "../elsewhere"
        elif mutate == "steps_order":
            g["steps"][0], g["steps"][1] = g["steps"][1], g["steps"][0]
        elif mutate == "negative_step":
            g["steps"][0]["step"] = -5
        elif mutate == "domain_empty":
            g["domain"][1][0] = g["domain"][0][0]
        elif mutate == "partition_mode":
            g["partition"]["mode"] = "cubes"
    rewrite_manifest(copy, fn)
    open_fails(copy)


def test_manifest_particle_count_disagrees_with_metadata(copy):
    """The manifest's record of one step no longer matches its spatial metadata: reading that
    step fails, the others still read."""
    rewrite_manifest(copy, lambda d: d["groups"][GROUP]["steps"][DAMAGED].__setitem__(
        "particles", N + 1))
    read_fails(copy, lodex.FormatError, meta_file(copy))
    others_intact(copy)


def test_spatial_metadata_size_as_documented(pristine):
    """docs/formats/particles.md: 40-byte header, R records of 192 + 16K bytes, 8-byte checksum
    (the document said 200 + 16K)."""
    g = lodex.open(pristine).particles[GROUP]
    comps = sum(c for _, c in (((d, 1) if isinstance(d, str) else d) for d in SCHEMA.values()))
    for s in STEPS:
        files = g.files(s)
        size = os.path.getsize(meta_file(pristine, s))
        assert size == 40 + len(files) * (192 + 16 * comps) + 8, (s, size, len(files), comps)
