"""lodex.open_idx reads what OpenVisus writes, exactly: every dataset below is written by
OpenVisus (the PyPI wheel, the reference IDX implementation) and read by lodex at full and every
coarser resolution and for boxes, compared with the numpy data and with OpenVisus's own reads.
Damaged files are errors that name the file and the block (OpenVisus itself returns zeros)."""

from __future__ import annotations

import os
import shutil
import struct

import numpy as np
import pytest

import lodex
from grid_data import f3 as _f3, npot as _npot, u2 as _u2

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")   # OpenVisus otherwise writes lock files
import OpenVisus as ov  # noqa: E402  (pinned in requirements-dev.txt: the reference implementation)


# name -> (data, dims x first, field, CreateIdx keywords, compress)
DATASETS = {
    "f3d_hz": (_f3, [16, 16, 16], ("data", "float32", "hzorder"), {}, False),
    "f3d_rm": (_f3, [16, 16, 16], ("data", "float32", ""), {}, False),
    "f3d_b6": (_f3, [16, 16, 16], ("data", "float32", "hzorder"), {"bitsperblock": 6, "blocksperfile": 8}, False),
    "u2d": (_u2, [32, 32], ("data", "uint8", "hzorder"), {}, False),
    "u2d_bm": (_u2, [32, 32], ("data", "uint8", "hzorder"),
               {"bitsperblock": 4, "blocksperfile": 16, "bitmask": "V0000011111"}, False),
    "npot": (_npot, [20, 12, 6], ("data", "float64", "hzorder"), {"bitsperblock": 5}, False),
    "vec": (lambda: np.stack([_f3(), -_f3(), 2 * _f3()], axis=-1), [16, 16, 16], ("v", "float32[3]", "hzorder"),
            {}, False),
    "zip": (_f3, [16, 16, 16], ("data", "float32", "hzorder"), {"bitsperblock": 9, "blocksperfile": 4}, True),
    "i64_32": (lambda: (np.arange(32 ** 3, dtype=np.int64).reshape(32, 32, 32) * 3 - 7), [32, 32, 32],
               ("data", "int64", "hzorder"), {"bitsperblock": 8, "blocksperfile": 16}, False),
}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("ovidx")
    out = {}
    for name, (gen, dims, (fname, dtype, layout), kw, compress) in DATASETS.items():
        data = gen()
        url = str(root / f"{name}.idx")
        db = ov.CreateIdx(url=url, dims=dims, fields=[ov.Field(fname, dtype, layout)], **kw)
        db.write(data)
        if compress:
            db.compressDataset(["zip"])
        out[name] = (url, data)
    # Three time steps.
    url = str(root / "time.idx")
    db = ov.CreateIdx(url=url, dims=[16, 16, 16], fields=[ov.Field("data", "float32", "hzorder")],
                      time=[0, 2, "time_%02d/"])
    for t in range(3):
        db.write(_f3() + t, time=t)
    out["time"] = (url, _f3())
    return out


@pytest.mark.parametrize("name", list(DATASETS))
def test_full_and_every_resolution_match_openvisus(made, name):
    url, data = made[name]
    g = lodex.open_idx(url)
    db = ov.LoadDataset(url)
    assert g.max_resolution == db.getMaxResolution()
    assert "\n" + g.bitmask + "\n" in open(url).read()
    full = g.read()
    assert full.dtype == data.dtype and full.shape == data.shape
    assert np.array_equal(full, data)
    for r in range(g.max_resolution + 1):
        got = g.read(resolution=r)
        want = db.read(max_resolution=r)
        assert got.shape == want.shape, (name, r)
        assert np.array_equal(got, want), (name, r)
    s = g.last_read_stats
    assert s["bytes_returned"] == got.nbytes and s["blocks_read"] >= 1 and s["files_opened"] >= 1


@pytest.mark.parametrize("name", list(DATASETS))
def test_boxes_match_numpy_and_coarse_boxes_follow_the_lattice(made, name):
    url, data = made[name]
    g = lodex.open_idx(url)
    dims = g.dims
    nd = len(dims)
    rng = np.random.default_rng(len(name))
    for _ in range(25):
        lo = [int(rng.integers(0, d)) for d in dims]
        hi = [int(rng.integers(l + 1, d + 1)) for l, d in zip(lo, dims)]
        got = g.read(box=(lo, hi))
        sl = tuple(slice(l, h) for l, h in zip(lo[::-1], hi[::-1]))
        assert np.array_equal(got, data[sl]), (lo, hi)
        # At a coarser resolution: the samples of the resolution lattice inside the box.
        r = int(rng.integers(0, g.max_resolution + 1))
        full_r = g.read(resolution=r)
        # The lattice of resolution r: axis a is halved once per occurrence after position r.
        stride = [2 ** g.bitmask[1 + r:].count(str(a)) for a in range(nd)]
        coarse = g.read(box=(lo, hi), resolution=r)
        sl = tuple(slice(-(-l // s), -(-h // s)) for l, h, s in zip(lo[::-1], hi[::-1], stride[::-1]))
        assert np.array_equal(coarse, full_r[sl]), (lo, hi, r)
    if nd == 3:   # the box the format notes checked with OpenVisus
        db = ov.LoadDataset(url)
        assert np.array_equal(g.read(box=((4, 0, 2), (12, 8, 6))), db.read(x=[4, 12], y=[0, 8], z=[2, 6]))


def test_time_steps(made):
    url, data = made["time"]
    g = lodex.open_idx(url)
    for t in range(3):
        assert np.array_equal(g.read(step=t), data + t)
    with pytest.raises(lodex.FormatError, match="missing"):
        g.read(step=5)   # no such time directory


def test_reads_only_the_blocks_a_query_needs(made):
    url, _ = made["i64_32"]   # 32^3 int64, 2^15 samples in 128 blocks of 256, 16 blocks per file
    g = lodex.open_idx(url)
    g.read(resolution=8)
    assert g.last_read_stats["blocks_read"] == 1 and g.last_read_stats["files_opened"] == 1
    g.read()
    assert g.last_read_stats["blocks_read"] == 128 and g.last_read_stats["files_opened"] == 8
    g.read(box=((0, 0, 0), (4, 4, 4)))
    assert g.last_read_stats["blocks_read"] < 128 // 4


# ---------------------------------------------------------------------------- damaged datasets

@pytest.fixture
def copy_of(made, tmp_path):
    def get(name):
        url, data = made[name]
        src = os.path.dirname(url)
        dst = tmp_path / name
        os.makedirs(dst)
        shutil.copy(url, dst)
        shutil.copytree(os.path.join(src, name), dst / name)
        return str(dst / os.path.basename(url)), data
    return get


def _table_entry(path, slot):
    return 40 + 40 * slot


def test_missing_file_is_an_error_naming_it(copy_of):
    url, data = copy_of("f3d_b6")   # 64 blocks, 8 per file
    os.remove(os.path.join(os.path.dirname(url), "f3d_b6", "0010.bin"))
    g = lodex.open_idx(url)
    with pytest.raises(lodex.FormatError, match="0010.bin"):
        g.read()
    # A read that does not need those blocks still works (OpenVisus: the same).
    assert np.array_equal(g.read(resolution=g.max_resolution - 3), data[::2, ::2, ::2])


def test_empty_table_entry_wrong_size_and_bad_codec_name_the_block(copy_of):
    url, _ = copy_of("f3d_b6")
    path = os.path.join(os.path.dirname(url), "f3d_b6", "0008.bin")   # blocks 8..15
    g = lodex.open_idx(url)
    raw = bytearray(open(path, "rb").read())
    bad = bytearray(raw)
    bad[_table_entry(path, 1):_table_entry(path, 1) + 40] = bytes(40)   # block 9 absent
    open(path, "wb").write(bad)
    with pytest.raises(lodex.FormatError, match=r"block 9\b"):
        g.read()
    bad = bytearray(raw)
    struct.pack_into(">I", bad, _table_entry(path, 2) + 16, 128)        # block 10: size 128, not 256
    open(path, "wb").write(bad)
    with pytest.raises(lodex.FormatError, match=r"block 10\b.*128 bytes"):
        g.read()
    bad = bytearray(raw)
    struct.pack_into(">I", bad, _table_entry(path, 3) + 20, 3)          # block 11 claims zip
    open(path, "wb").write(bad)
    with pytest.raises(lodex.FormatError, match=r"block 11\b.*does not decode"):
        g.read()
    bad = bytearray(raw)
    struct.pack_into(">I", bad, _table_entry(path, 4) + 20, 7)          # block 12 claims lz4
    open(path, "wb").write(bad)
    with pytest.raises(lodex.UnsupportedError, match="codec 7"):
        g.read()
    open(path, "wb").write(raw[:1000])                                   # truncated
    with pytest.raises(lodex.FormatError, match="0008.bin"):
        g.read()


def test_damaged_zip_payload_is_an_error(copy_of):
    url, _ = copy_of("zip")
    path = os.path.join(os.path.dirname(url), "zip", "0000.bin")
    raw = bytearray(open(path, "rb").read())
    off = struct.unpack_from(">I", raw, 40 + 8)[0]
    raw[off + 10:off + 20] = bytes(10)
    open(path, "wb").write(raw)
    with pytest.raises(lodex.FormatError, match=r"block 0\b.*does not decode"):
        lodex.open_idx(url).read()


def test_bad_headers_and_arguments(copy_of, tmp_path):
    url, _ = copy_of("f3d_hz")
    text = open(url).read()
    for old, new in [("V012012012012", "V0120120120"), ("V012012012012", "V012012012019"), ("float32", "float31"),
                     ("(bitsperblock)", "(nothing)")]:
        bad = tmp_path / "bad.idx"
        bad.write_text(text.replace(old, new))
        with pytest.raises(lodex.FormatError, match="bad.idx"):
            lodex.open_idx(str(bad))
    with pytest.raises(lodex.NotFoundError):
        lodex.open_idx(str(tmp_path / "nothing.idx"))
    g = lodex.open_idx(url)
    with pytest.raises(lodex.InvalidArgumentError, match="outside the logic box"):
        g.read(box=((0, 0, 0), (17, 4, 4)))
    assert g.read(box=((5, 0, 0), (5, 4, 4))).shape[2] == 0   # an empty box: an empty answer
    with pytest.raises(lodex.InvalidArgumentError, match="max < min"):
        g.read(box=((5, 0, 0), (4, 4, 4)))
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(resolution=13)
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(resolution=1.5)
    with pytest.raises(lodex.NotFoundError, match="no field 'pressure'"):
        g.read(field="pressure")
    with pytest.raises(lodex.NotFoundError, match="no time steps"):
        g.read(step=1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(box=((0, 0), (4, 4)))   # 3-D grid, 2-D box


def test_a_file_that_is_not_idx_is_refused_without_quoting_it(tmp_path):
    """Opening any file as IDX (a password file, a binary) names the file, not its content: the
    error may be shown to someone who cannot read the file."""
    for name, content in [("secret.idx", b"alice:s3cr3t-token:1000\n(version)\n6\n"),
                          ("binary.idx", b"\x7fELF\x02\x01\x01 secret-bytes\n")]:
        f = tmp_path / name
        f.write_bytes(content)
        with pytest.raises(lodex.FormatError, match="is not an IDX file") as err:
            lodex.open_idx(str(f))
        assert name in str(err.value)
        assert "s3cr3t" not in str(err.value) and "secret-bytes" not in str(err.value)
