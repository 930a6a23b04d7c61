"""Forged particle descriptions: a field of a data file header or of a spatial metadata record
set to another value with every checksum recomputed to match (the data file's header and table
checksums, the record's head checksum, the metadata file's checksum, the manifest's record of it).
Checksums cannot catch these; the cross-checks between the copies lodex keeps must: each read
raises a FormatError naming the file instead of returning fewer particles."""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
N = 3000
HEADER_BOX_AT = 40   # the data file header's brick box: 6 f8 (docs/formats/particles.md)


def data(step: int) -> dict:
    rng = np.random.default_rng([5, step])
    return {"position": rng.random((N, 3)), "energy": rng.random(N).astype(np.float32),
            "id": np.arange(N, dtype=np.int64)}


@pytest.fixture
def dataset(tmp_path):
    path = str(tmp_path / "f.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1),
                                lod={"brick_target": 64})
        for s in (0, 1):
            g.write(step=s, data=data(s))
    return path


def reseal(path: str, step: int, record: int, data_file: bytes | None = None, record_bytes=None) -> None:
    """Writes a forged data file and/or record, and recomputes every checksum above them."""
    sd = tu.step_dir(path, "p", step)
    meta_path = os.path.join(sd, "spatial.lsm")
    meta = tu.parse_spatial_metadata(meta_path)
    raw = bytearray(meta["raw"])
    rec_bytes = 64 + 8 + 96 + 24 + 16 * meta["num_components"]
    at = 40 + record * rec_bytes
    if data_file is not None:
        fp = os.path.join(sd, meta["records"][record]["file"])
        h = bytearray(data_file)
        struct.pack_into("<Q", h, 120, tu.xxh3(h[:120]))   # header checksum
        parsed_end = tu.parse_particle_file(fp)["tables_end"]
        struct.pack_into("<Q", h, parsed_end - 8, tu.xxh3(h[128:parsed_end - 8]))   # table checksum
        with open(fp, "wb") as fh:
            fh.write(h)
        struct.pack_into("<Q", raw, at + 168 + 16, tu.xxh3(h[:parsed_end]))   # the record's head checksum
    if record_bytes is not None:
        record_bytes(raw, at)
    struct.pack_into("<Q", raw, len(raw) - 8, tu.xxh3(raw[:-8]))
    with open(meta_path, "wb") as fh:
        fh.write(raw)
    mp = os.path.join(path, "manifest.json")
    with open(mp) as fh:
        m = json.load(fh)
    for s in m["groups"]["p"]["steps"]:
        if s["step"] == step:
            s["metadata_checksum"] = tu.xxh3(raw)
    with open(mp, "w") as fh:
        json.dump(m, fh)


def step1_intact(path: str) -> None:
    got = lodex.open(path).particles["p"].read(0)
    tu.assert_same_particles(got, data(0), SCHEMA)


def test_forged_brick_box_in_the_data_file(dataset):
    """The header's brick box minimum moved from 0.0 to -1.0 (a box read returned 659 of 866)."""
    fp_rec = tu.parse_spatial_metadata(os.path.join(tu.step_dir(dataset, "p", 1), "spatial.lsm"))["records"][0]
    fp = os.path.join(tu.step_dir(dataset, "p", 1), fp_rec["file"])
    h = bytearray(open(fp, "rb").read())
    assert struct.unpack_from("<d", h, HEADER_BOX_AT)[0] == fp_rec["partition_box"][0][0]
    struct.pack_into("<d", h, HEADER_BOX_AT, -1.0)
    reseal(dataset, 1, 0, data_file=bytes(h))
    g = lodex.open(dataset).particles["p"]
    for kw in ({}, {"box": ((0, 0, 0), (0.5, 0.5, 0.5))}):
        with pytest.raises(lodex.FormatError, match="brick box") as ei:
            g.read(1, **kw)
        assert fp_rec["file"] in str(ei.value)
    step1_intact(dataset)


@pytest.mark.parametrize("forge", ["bounds_inf", "bounds_nan", "bounds_inverted", "bounds_shrunk",
                                   "partition_box_empty"])
def test_forged_record(dataset, forge):
    """A record's bounds set to inf made a full read return 3,000 of 6,000 particles."""
    def mutate(raw, at):
        bounds = at + 72 + 48   # after the partition box
        if forge == "bounds_inf":
            struct.pack_into("<d", raw, bounds, float("inf"))
        elif forge == "bounds_nan":
            struct.pack_into("<d", raw, bounds + 8, float("nan"))
        elif forge == "bounds_inverted":
            _lo, hi = struct.unpack_from("<d", raw, bounds)[0], struct.unpack_from("<d", raw, bounds + 24)[0]
            struct.pack_into("<d", raw, bounds, hi + 0.1)
        elif forge == "bounds_shrunk":   # finite and ordered, but not the positions' range
            struct.pack_into("<d", raw, bounds, struct.unpack_from("<d", raw, bounds)[0] + 0.25)
        else:
            struct.pack_into("<d", raw, at + 72 + 24, struct.unpack_from("<d", raw, at + 72)[0])
    reseal(dataset, 1, 0, record_bytes=mutate)
    g = lodex.open(dataset).particles["p"]
    with pytest.raises(lodex.FormatError, match="spatial.lsm|record of"):
        g.read(1)
    with pytest.raises(lodex.FormatError):
        g.read(1, box=((0, 0, 0), (0.3, 1, 1)))
    step1_intact(dataset)


def test_reseal_alone_changes_nothing(dataset):
    """The forging helper itself, with no change: every read is exact (the checks are not
    tripped by a re-sealed but honest dataset)."""
    reseal(dataset, 1, 0, record_bytes=lambda raw, at: None)
    got = lodex.open(dataset).particles["p"].read(1)
    tu.assert_same_particles(got, data(1), SCHEMA)


@pytest.mark.parametrize("forge", ["min_raised", "max_lowered"])
def test_forged_component_range_is_caught_when_the_values_are_read(dataset, forge):
    """A record's energy range narrowed (a query counted 1,499 instead of 2,097): the query that
    reads the file's energies to check them finds values outside the recorded range."""
    ENERGY = 3   # components: position x, y, z, energy, id

    def mutate(raw, at):
        pair = at + 192 + 16 * ENERGY
        if forge == "min_raised":
            struct.pack_into("<d", raw, pair, 0.5)
        else:
            struct.pack_into("<d", raw, pair + 8, 0.5)
    reseal(dataset, 1, 0, record_bytes=mutate)
    g = lodex.open(dataset).particles["p"]
    q = "energy < 0.7" if forge == "min_raised" else "energy > 0.3"
    with pytest.raises(lodex.FormatError, match="outside the range its spatial metadata records") as ei:
        g.query(1, q)
    assert tu.parse_spatial_metadata(os.path.join(tu.step_dir(dataset, "p", 1), "spatial.lsm"))["records"][0][
        "file"] in str(ei.value)
    want = data(0)   # noqa: F841 - read by the eval below
    assert g.query(0, q).count == int(np.count_nonzero(eval("want['energy'] " + q[7:])))


@pytest.mark.parametrize("forge", ["pruned", "all_match"])
def test_forged_range_that_decides_a_file_unread_is_caught_by_its_index(dataset, forge):
    """A record's energy range narrowed so far that the query decides the file from the metadata
    alone, without reading it: pruned ([0.95, 0.99]: "energy < 0.5" matches nothing) or every
    row a match ([0.1, 0.2]: "energy != v" for a v the file holds above 0.3 takes all, NaN rows
    included). With energy indexed, the query compares the range with the file's bitmap index and
    raises FormatError naming the file; with that index file gone it reads the file instead and
    finds values outside the range."""
    ENERGY = 3
    with lodex.open(dataset, mode="a") as ds:
        ds.particles["p"].build_index(fields=["energy"])
    first = lodex.open(dataset).particles["p"].read(1, box=((0, 0, 0), (0.5, 1, 1)))   # file 0's half
    v = float(first["energy"][first["energy"] > 0.3][0])
    lo, hi, q = (0.95, 0.99, "energy < 0.5") if forge == "pruned" else (0.1, 0.2, f"energy != {v!r}")

    def mutate(raw, at):
        struct.pack_into("<dd", raw, at + 192 + 16 * ENERGY, lo, hi)
    reseal(dataset, 1, 0, record_bytes=mutate)
    name = tu.parse_spatial_metadata(os.path.join(tu.step_dir(dataset, "p", 1), "spatial.lsm"))["records"][0]["file"]
    g = lodex.open(dataset).particles["p"]
    with pytest.raises(lodex.FormatError, match="does not hold its bitmap index") as ei:
        g.query(1, q, count_only=True)
    assert name in str(ei.value)
    want = data(0)
    assert g.query(0, "energy < 0.5").count == int(np.count_nonzero(want["energy"] < 0.5))
    os.remove(os.path.join(tu.step_dir(dataset, "p", 1), name.replace(".lpd", ".energy.lbx")))
    with pytest.raises(lodex.FormatError, match="outside the range its spatial metadata records"):
        lodex.open(dataset).particles["p"].query(1, q, count_only=True)
