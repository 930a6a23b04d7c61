"""lodex.write_idx (serial) against OpenVisus: for the same data and parameters every file is
byte-identical to what OpenVisus 2.2.149 writes, and OpenVisus reads ours back exactly at every
resolution. Bad arguments are errors."""

from __future__ import annotations

import os

import numpy as np
import pytest

import lodex
from grid_data import f3, npot, u2

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
import OpenVisus as ov  # noqa: E402  (pinned in requirements-dev.txt: the reference implementation)


def rand_i16():
    return np.random.default_rng(3).integers(-30000, 30000, (9, 17, 33)).astype(np.int16)


# name -> (fields {name: array}, dims x first, dtype per field, OpenVisus kw, lodex kw, zip)
CASES = {
    "f3d": ({"data": f3()}, [16, 16, 16], {"data": "float32"}, dict(bitsperblock=12, blocksperfile=1),
            dict(bits_per_block=12, blocks_per_file=1), False),
    "b6": ({"data": f3()}, [16, 16, 16], {"data": "float32"}, dict(bitsperblock=6, blocksperfile=8),
           dict(bits_per_block=6, blocks_per_file=8), False),
    "u2d": ({"data": u2()}, [32, 32], {"data": "uint8"}, dict(bitsperblock=10, blocksperfile=1),
            dict(bits_per_block=10, blocks_per_file=1), False),
    "bitmask": ({"data": u2()}, [32, 32], {"data": "uint8"},
                dict(bitsperblock=4, blocksperfile=16, bitmask="V0000011111"),
                dict(bits_per_block=4, blocks_per_file=16, bitmask="V0000011111"), False),
    "npot": ({"data": npot()}, [20, 12, 6], {"data": "float64"}, dict(bitsperblock=5, blocksperfile=128),
             dict(bits_per_block=5, blocks_per_file=128), False),
    "npot_i16": ({"data": rand_i16()}, [33, 17, 9], {"data": "int16"}, dict(bitsperblock=7, blocksperfile=4),
                 dict(bits_per_block=7, blocks_per_file=4), False),
    "zip": ({"data": f3()}, [16, 16, 16], {"data": "float32"}, dict(bitsperblock=9, blocksperfile=4),
            dict(bits_per_block=9, blocks_per_file=4), True),
    "two": ({"temp": f3(), "id": f3(dtype=np.int32)}, [16, 16, 16], {"temp": "float32", "id": "int32"},
            dict(bitsperblock=10, blocksperfile=2), dict(bits_per_block=10, blocks_per_file=2), False),
    "vec": ({"v": np.stack([f3(), -f3(), 2 * f3()], axis=-1)}, [16, 16, 16], {"v": "float32[3]"},
            dict(bitsperblock=12, blocksperfile=1), dict(bits_per_block=12, blocks_per_file=1, ndims=3), False),
}


def tree(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = open(p, "rb").read()
    return out


def idx_files(root):
    """The IDX files under root (lodex's block-checksum files, which OpenVisus never opens, apart),
    after checking there is one checksum file per .idx and time step written."""
    files = tree(root)
    sums = [k for k in files if ".checksums/" in k]
    for k in sums:
        assert k.endswith("blocks.xxh3") and files[k][:8] == b"LDXSUMS\n", k
    return {k: v for k, v in files.items() if k not in sums}, sums


@pytest.mark.parametrize("name", list(CASES))
def test_byte_identical_to_openvisus_and_read_back_by_it(tmp_path, name):
    fields, dims, dtypes, okw, lkw, zipped = CASES[name]
    (tmp_path / "ov").mkdir()
    (tmp_path / "lx").mkdir()
    db = ov.CreateIdx(url=str(tmp_path / "ov" / f"{name}.idx"), dims=dims,
                      fields=[ov.Field(n, dtypes[n], "hzorder") for n in fields], **okw)
    for n, a in fields.items():
        db.write(a, field=db.getField(n)) if len(fields) > 1 else db.write(a)
    if zipped:
        db.compressDataset(["zip"])
    data = fields if list(fields) != ["data"] else fields["data"]   # a bare array is field "data"
    lodex.write_idx(str(tmp_path / "lx" / f"{name}.idx"), data, compression="zip" if zipped else None, **lkw)
    a, (b, sums) = tree(tmp_path / "ov"), idx_files(tmp_path / "lx")
    assert sums == [f"{name}.checksums/blocks.xxh3"]
    assert sorted(a) == sorted(b)
    differ = [k for k in a if a[k] != b[k]]
    assert not differ, differ
    # OpenVisus reads ours, at every resolution; so does lodex.
    mine = ov.LoadDataset(str(tmp_path / "lx" / f"{name}.idx"))
    g = lodex.open_idx(str(tmp_path / "lx" / f"{name}.idx"))
    for n, arr in fields.items():
        f = mine.getField(n)
        assert np.array_equal(mine.read(field=f), arr)
        assert np.array_equal(g.read(field=n), arr)
        for r in range(mine.getMaxResolution() + 1):
            assert np.array_equal(mine.read(field=f, max_resolution=r), g.read(field=n, resolution=r)), r


def test_time_series_byte_identical(tmp_path):
    db = ov.CreateIdx(url=str(tmp_path / "ov" / "t.idx"), dims=[16, 16, 16],
                      fields=[ov.Field("data", "float32", "hzorder")], time=[0, 2, "time_%02d/"],
                      bitsperblock=8, blocksperfile=4)
    for t in range(3):
        db.write(f3() + t, time=t)
    for t in range(3):
        lodex.write_idx(str(tmp_path / "lx" / "t.idx"), f3() + t, bits_per_block=8, blocks_per_file=4,
                        time=(0, 2, "time_%02d/"), step=t)
    a, (b, sums) = tree(tmp_path / "ov"), idx_files(tmp_path / "lx")
    assert sorted(sums) == [f"t.checksums/time_{t:02d}/blocks.xxh3" for t in range(3)]
    assert sorted(a) == sorted(b) and all(a[k] == b[k] for k in a)
    g = lodex.open_idx(str(tmp_path / "lx" / "t.idx"))
    for t in range(3):
        assert np.array_equal(g.read(step=t), f3() + t)


def test_default_bitmask_and_block_count(tmp_path):
    lodex.write_idx(str(tmp_path / "d.idx"), npot())
    g = lodex.open_idx(str(tmp_path / "d.idx"))
    assert g.bitmask == "V012012012010"           # OpenVisus's guess for 20 x 12 x 6
    assert g.bits_per_block == 12                 # 16, clamped to the bitmask's 12 bits
    assert np.array_equal(g.read(), npot())


def test_bad_arguments(tmp_path):
    p = str(tmp_path / "x.idx")
    with pytest.raises(lodex.InvalidArgumentError, match="too short"):
        lodex.write_idx(p, f3(), bitmask="V012012012")
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.write_idx(p, f3(), bitmask="V012012012013")
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.write_idx(p, u2(), bitmask="V0120120120")   # splits z of a 2-D grid
    with pytest.raises(lodex.InvalidArgumentError, match="bits_per_block"):
        lodex.write_idx(p, f3(), bits_per_block=0)
    with pytest.raises(lodex.InvalidArgumentError, match="blocks_per_file"):
        lodex.write_idx(p, f3(), blocks_per_file=0)
    with pytest.raises(lodex.InvalidArgumentError, match="shape"):
        lodex.write_idx(p, {"a": f3(), "b": f3(8)})
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.write_idx(p, f3(), compression="lz4")
    with pytest.raises(lodex.InvalidArgumentError):
        lodex.write_idx(p, {})
    assert not os.path.exists(p)   # nothing half-written


@pytest.mark.parametrize("compression", [None, "zip"])
def test_rewriting_in_place_leaves_exactly_the_new_files(tmp_path, compression):
    """write_idx rewrites existing block files in place (their cached pages are reused): a larger
    grid first, then a smaller one at the same path, leaves byte for byte what a fresh write of
    the smaller one does, and it reads exactly."""
    big = np.random.default_rng(0).random((32, 32, 32), dtype=np.float32)
    small = np.random.default_rng(1).random((16, 32, 32), dtype=np.float32)
    kw = dict(bits_per_block=10, blocks_per_file=4, compression=compression)
    lodex.write_idx(str(tmp_path / "a" / "g.idx"), big, **kw)
    lodex.write_idx(str(tmp_path / "a" / "g.idx"), small, **kw)
    lodex.write_idx(str(tmp_path / "b" / "g.idx"), small, **kw)
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    stale = sorted(set(a) - set(b))   # block files only the bigger grid had
    assert all(k.startswith("g/") for k in stale), stale
    assert all(a[k] == b[k] for k in b), [k for k in b if a[k] != b[k]]
    assert np.array_equal(lodex.open_idx(str(tmp_path / "a" / "g.idx")).read(), small)
