"""Series (STAR) by one process: round trips of every read pattern against numpy at several d_tar,
buffered steps and flushes, a writer that dies with steps in memory, appends, the command line,
and bad input — definitions, writes, reads, damaged and missing window files, a full disk —
each a typed error that names the problem and loses nothing already written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import lodex
from conftest import run_mpi, small_tmpfs
from lodex.workloads import Geos
from series_data import GEOS, PATTERNS, expected

FULL = ((0, 0, 0), GEOS.dims)


def write_all(path, steps=GEOS.steps, **kw):
    ds = lodex.create(path)
    s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), **kw)
    for t in range(steps):
        s.write(t, FULL, {n: GEOS.field(n, t) for n in GEOS.names})
    ds.close()
    return path


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    return write_all(str(tmp_path_factory.mktemp("series") / "p.lodex"), d_tar=3)


@pytest.mark.parametrize("d_tar", [1, 3, 7, 10, None])
def test_every_pattern_matches_numpy(tmp_path, d_tar):
    s = lodex.open(write_all(str(tmp_path / "s.lodex"), d_tar=d_tar)).series["geos"]
    assert s.steps == list(range(GEOS.steps))
    if d_tar:
        assert s.d_tar == d_tar
        assert [w["steps"] for w in s.meta["windows"]] == [list(range(i, min(i + d_tar, GEOS.steps)))
                                                           for i in range(0, GEOS.steps, d_tar)]
    for name, steps, box in PATTERNS(s.steps):
        np.testing.assert_array_equal(s.read(variable=name, steps=steps, box=box), expected(name, steps, box))
    assert s.read(variable="T", steps=slice(2, 5)).shape == (3,) + GEOS.field("T", 0).shape


BLOCK = 4096


def needed_blocks(var, steps, box, d_tar=3):
    """Oracle for a one-writer series (one chunk per variable: the whole grid, (t, z, y, x) per
    window): {window: sorted block indices of the chunk} holding the rows of ``box`` at ``steps``."""
    nx, ny, nz = GEOS.dims
    (x0, y0, z0), (x1, y1, z1) = box
    if GEOS.variables()[var][1] == 2:
        nz, z0, z1 = 1, 0, 1
    out = {}
    for t in steps:
        k = t % d_tar
        for z in range(z0, z1):
            for y in range(y0, y1):
                lo = (((k * nz + z) * ny + y) * nx + x0) * 4
                hi = lo + (x1 - x0) * 4
                out.setdefault(t // d_tar, set()).update(range(lo // BLOCK, (hi - 1) // BLOCK + 1))
    return {w: sorted(b) for w, b in out.items()}


def runs(indices):
    return sum(1 for i, b in enumerate(indices) if i == 0 or b != indices[i - 1] + 1)


def chunk_bytes(var, window_steps):
    nx, ny, nz = GEOS.dims
    return window_steps * nx * ny * (nz if GEOS.variables()[var][1] == 3 else 1) * 4


@pytest.mark.parametrize("var,steps,box", [
    ("PS", [4], ((0, 0, 0), (23, 14, 1))),
    ("PS", range(GEOS.steps), ((5, 6, 0), (6, 7, 1))),
    ("T", range(GEOS.steps), ((3, 3, 0), (4, 4, 5))),
    ("T", [1, 2], ((0, 0, 2), (23, 14, 3))),
    ("T", range(GEOS.steps), ((0, 7, 0), (23, 8, 5))),
    ("T", [5, 0], ((4, 2, 1), (9, 12, 4))),
])
def test_reads_touch_only_the_blocks_they_need(pristine, var, steps, box):
    """With merge_gap=0, a read fetches exactly the 4 KiB blocks holding its rows and their
    checksums (8 bytes each), one request per run of neighbouring blocks; of each window's head
    only the header and the variable's chunk-table entry (one chunk: 24 bytes), once."""
    s = lodex.open(pristine).series["geos"]
    got = s.read(variable=var, steps=list(steps), box=box, merge_gap=0)
    np.testing.assert_array_equal(got, expected(var, list(steps), box))
    st = s.last_read_stats
    need = needed_blocks(var, steps, box)
    sizes = [len(w["steps"]) for w in s.meta["windows"]]
    data = sum(min(BLOCK, chunk_bytes(var, sizes[w]) - b * BLOCK) for w, bs in need.items() for b in bs)
    v = GEOS.names.index(var)
    assert st["windows"] == st["chunks"] == len(need)
    assert st["head_requests"] == len(need) * (1 if v == 0 else 2)   # the header and the entry: apart unless v = 0
    assert st["head_bytes"] == len(need) * (128 + 24)
    assert st["blocks"] == sum(len(b) for b in need.values())
    assert st["checksum_bytes"] == 8 * st["blocks"]
    assert st["bytes_read"] == st["head_bytes"] + st["checksum_bytes"] + data
    assert st["checksum_requests"] == sum(runs(b) for b in need.values())
    assert st["requests"] == st["head_requests"] + 2 * st["checksum_requests"]
    assert st["merge_gap"] == 0
    s.read(variable=var, steps=list(steps), box=box, merge_gap=0)   # heads are kept: checked once
    assert s.last_read_stats["head_requests"] == 0
    other = GEOS.names[(v + 1) % len(GEOS.names)]          # another variable: its entry alone
    s.read(list(steps), ((0, 0, 0), (1, 1, 1)), other, merge_gap=0)
    assert s.last_read_stats["head_requests"] == len(need)
    assert s.last_read_stats["head_bytes"] == 24 * len(need)


def test_merge_gap_trades_requests_for_bytes(pristine):
    s = lodex.open(pristine).series["geos"]
    column = ((3, 3, 0), (4, 4, 5))
    s.read(variable="T", steps=range(GEOS.steps), box=column, merge_gap=0)
    tight = dict(s.last_read_stats)
    whole = s.read(variable="T", steps=range(GEOS.steps), box=column, merge_gap=1 << 20)
    wide = s.last_read_stats
    np.testing.assert_array_equal(whole, expected("T", range(GEOS.steps), column))
    assert wide["requests"] - wide["head_requests"] <= tight["requests"] - tight["head_requests"]
    assert wide["requests"] - wide["head_requests"] == 2 * len(s.meta["windows"])
    assert wide["bytes_read"] - wide["head_bytes"] >= tight["bytes_read"] - tight["head_bytes"]
    assert wide["merge_gap"] == 1 << 20
    s.read(variable="T", steps=1, box=column)   # by default: bw_io x ts of the series' settings, capped at 1 MiB
    assert s.last_read_stats["merge_gap"] == s.default_merge_gap == min(1 << 20, int(500e6 * 5e-3))
    for bad in (-1, 1.5, "4k", True):
        with pytest.raises(lodex.InvalidArgumentError, match="merge_gap"):
            s.read(variable="T", steps=1, box=column, merge_gap=bad)


def test_buffered_steps_flush_and_close(tmp_path):
    path = str(tmp_path / "b.lodex")
    ds = lodex.create(path)
    s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=4)
    for t in range(6):
        s.write(t, FULL, {n: GEOS.field(n, t) for n in GEOS.names})
    assert (s.steps, s.buffered_steps) == ([0, 1, 2, 3], [4, 5])
    assert s.profile["flushed"] is False
    with pytest.raises(lodex.NotFoundError, match="not yet flushed"):
        s.read(variable="T", steps=5)
    assert lodex.open(path).series["geos"].steps == [0, 1, 2, 3]   # another reader sees the flushed ones
    s.flush()
    assert (s.steps, s.buffered_steps) == ([0, 1, 2, 3, 4, 5], [])
    s.write(6, FULL, {n: GEOS.field(n, 6) for n in GEOS.names})
    ds.close()   # flushes step 6
    r = lodex.open(path).series["geos"]
    assert [w["steps"] for w in r.meta["windows"]] == [[0, 1, 2, 3], [4, 5], [6]]
    np.testing.assert_array_equal(r.read(variable="T"), expected("T", None, None))


CRASH = """
import os, sys
import lodex
sys.path.insert(0, {scripts!r})
from series_data import GEOS
ds = lodex.create({path!r})
s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=3)
for t in range(5):
    s.write(t, ((0, 0, 0), GEOS.dims), {{n: GEOS.field(n, t) for n in GEOS.names}})
os._exit(0)   # dies with steps 3 and 4 in memory
"""


def test_a_crash_loses_only_the_buffered_steps(tmp_path):
    path = str(tmp_path / "c.lodex")
    scripts = os.path.join(os.path.dirname(__file__), "mpi_scripts")
    subprocess.run([sys.executable, "-c", CRASH.format(path=path, scripts=scripts)], check=True, timeout=120)
    s = lodex.open(path).series["geos"]
    assert s.steps == [0, 1, 2]
    np.testing.assert_array_equal(s.read(variable="V3D001"), expected("V3D001", [0, 1, 2], None))
    # the lost steps can be written again by an appending run
    ds = lodex.open(path, mode="a")
    a = ds.series["geos"]
    assert a.d_tar == 3
    for t in range(3, GEOS.steps):
        a.write(t, FULL, {n: GEOS.field(n, t) for n in GEOS.names})
    ds.close()
    np.testing.assert_array_equal(lodex.open(path).series["geos"].read(variable="T"), expected("T", None, None))


def test_append_keeps_the_plan_and_checks_the_definition(tmp_path):
    path = write_all(str(tmp_path / "a.lodex"), steps=4, d_tar=3)
    ds = lodex.open(path, mode="a")
    with pytest.raises(lodex.InvalidArgumentError, match="another definition"):
        ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=5)
    s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=3)
    with pytest.raises(lodex.AlreadyExistsError, match="already has step 2"):
        s.write(2, FULL, {n: GEOS.field(n, 2) for n in GEOS.names})
    for t in (4, 5, 9):
        s.write(t, FULL, {n: GEOS.field(n, t) for n in GEOS.names})
    ds.close()
    r = lodex.open(path).series["geos"]
    assert r.steps == [0, 1, 2, 3, 4, 5, 9]
    assert [w["steps"] for w in r.meta["windows"]] == [[0, 1, 2], [3], [4, 5, 9]]
    np.testing.assert_array_equal(r.read(variable="PS", steps=[9, 3]), expected("PS", [9, 3], None))
    with pytest.raises(lodex.NotFoundError, match=r"no step 6 \(steps: 0\.\.5, 9\)"):
        r.read(variable="PS", steps=6)


def test_definition_errors(tmp_path):
    ds = lodex.create(str(tmp_path / "d.lodex"))
    v = GEOS.variables()
    cases = [
        (dict(dims=(0, 4, 4), variables=v), "dimension x"),
        (dict(dims=GEOS.dims, variables={}), "non-empty"),
        (dict(dims=GEOS.dims, variables={"T": ("f4", 4)}), "2 \\(y, x\\) or 3"),
        (dict(dims=GEOS.dims, variables={"a b": "f4"}), "no spaces"),
        (dict(dims=GEOS.dims, variables={"T": ("nope", 3)}), "dtype"),
        (dict(dims=GEOS.dims, variables=v, d_tar=0), "d_tar"),
        (dict(dims=GEOS.dims, variables=v, d_sar=-1), "d_sar"),
        (dict(dims=GEOS.dims, variables=v, memory_budget=0), "memory_budget"),
        (dict(dims=GEOS.dims, variables=v, d_tar=5000), "d_tar"),
        (dict(dims=GEOS.dims), "dims and variables"),
    ]
    for kw, msg in cases:
        with pytest.raises(lodex.InvalidArgumentError, match=msg):
            ds.define_series("geos", **kw)
    ds.define_grid("g", dims=(4, 4, 4), dtype="f4")
    with pytest.raises(lodex.AlreadyExistsError, match="is a grid, not a series"):
        ds.define_series("g", dims=GEOS.dims, variables=v)
    ds.define_series("geos", dims=GEOS.dims, variables=v)
    with pytest.raises(lodex.AlreadyExistsError, match="is a series, not a grid"):
        ds.define_grid("geos", dims=(4, 4, 4), dtype="f4")
    with pytest.raises(lodex.NotFoundError, match="no series 'nope'"):
        ds.series["nope"]
    ds.close()


def test_write_errors_lose_nothing(tmp_path):
    path = str(tmp_path / "w.lodex")
    ds = lodex.create(path)
    s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=2)
    good = {n: GEOS.field(n, 0) for n in GEOS.names}
    cases = [
        (0, ((0, 0, 0), (24, 14, 5)), good, lodex.InvalidArgumentError, "outside"),
        (0, ((0, 0, 0), (10, 14, 5)), {n: GEOS.field(n, 0, ((0, 0, 0), (10, 14, 5))) for n in GEOS.names},
         lodex.InvalidArgumentError, "no rank's box covers"),
        (0, FULL, {k: a for k, a in good.items() if k != "PS"}, lodex.InvalidArgumentError, "'PS' is missing"),
        (0, FULL, {**good, "Q": good["PS"]}, lodex.InvalidArgumentError, "no variable 'Q'"),
        (0, FULL, {**good, "T": good["T"].astype("f8")}, lodex.InvalidArgumentError, "is f4"),
        (0, FULL, {**good, "T": good["T"][:, :, :-1]}, lodex.InvalidArgumentError, "got shape"),
        (-1, FULL, good, lodex.InvalidArgumentError, "non-negative"),
        (0, FULL, [1, 2], lodex.InvalidArgumentError, "mapping"),
        (0, ((0, 0), GEOS.dims), good, lodex.InvalidArgumentError, "3 coordinates"),
    ]
    for step, box, data, cls, msg in cases:
        with pytest.raises(cls, match=msg):
            s.write(step, box, data)
    assert s.buffered_steps == [] and s.steps == []
    s.write(0, FULL, good)
    s.write(1, FULL, {n: GEOS.field(n, 1) for n in GEOS.names})
    with pytest.raises(lodex.AlreadyExistsError, match="already has step 1"):
        s.write(1, FULL, good)
    s.write(5, FULL, {n: GEOS.field(n, 5) for n in GEOS.names})   # steps need not be consecutive
    with pytest.raises(lodex.InvalidArgumentError, match="step 3 comes before"):
        s.write(3, FULL, good)
    tiny = ds.define_series("tiny", dims=GEOS.dims, variables=GEOS.variables(), memory_budget=1000)
    with pytest.raises(lodex.InvalidArgumentError, match="memory budget"):
        tiny.write(0, FULL, good)
    ds.close()
    r = lodex.open(path).series["geos"]
    assert r.steps == [0, 1, 5]
    np.testing.assert_array_equal(r.read(variable="T"), expected("T", [0, 1, 5], None))


def test_read_errors(pristine):
    s = lodex.open(pristine).series["geos"]
    with pytest.raises(lodex.NotFoundError, match="no variable 'Q'.*T, V3D001, PS"):
        s.read(variable="Q", steps=0)
    with pytest.raises(lodex.NotFoundError, match=r"no step 99 \(steps: 0\.\.6\)"):
        s.read(variable="T", steps=[0, 99])
    with pytest.raises(lodex.InvalidArgumentError, match="asked for twice"):
        s.read(variable="T", steps=[1, 2, 1])
    with pytest.raises(lodex.InvalidArgumentError, match="outside"):
        s.read(variable="T", steps=0, box=((0, 0, 0), (30, 1, 1)))
    with pytest.raises(lodex.InvalidArgumentError, match="outside"):
        s.read(variable="T", steps=0, box=((2, 0, 0), (2, 1, 1)))
    with pytest.raises(lodex.InvalidArgumentError, match="no steps"):
        s.read(variable="T", steps=[])
    with pytest.raises(lodex.InvalidArgumentError, match="steps must be"):
        s.read(variable="T", steps="all")
    with pytest.raises(lodex.InvalidArgumentError, match="open for reading"):
        s.write(7, FULL, {n: GEOS.field(n, 7) for n in GEOS.names})


def window(path, i=0):
    m = lodex.open(path).series["geos"].meta
    return os.path.join(path, "geos", m["windows"][i]["file"])


def test_damaged_window_files(copy):
    w = window(copy, 1)   # steps 3, 4, 5
    s = lodex.open(copy).series["geos"]
    head = s.meta
    data = bytearray(open(w, "rb").read())
    # the last byte of the file: the last block of the last variable (V2D002; its 3 steps are
    # one short block)
    data[-1] ^= 0x10
    # and the first byte of T's chunk (5 blocks: step 3 from the first, step 5 from the last two)
    t_entry = list(head["variables"]).index("T")
    t_offset = int.from_bytes(data[128 + 24 * t_entry: 136 + 24 * t_entry], "little")
    data[t_offset] ^= 0x10
    open(w, "wb").write(data)
    s = lodex.open(copy).series["geos"]
    for var, step in [("V2D002", 5), ("V2D002", 3), ("T", 3)]:
        with pytest.raises(lodex.FormatError, match=f"checksum mismatch in variable '{var}'"):
            s.read(variable=var, steps=step)
    np.testing.assert_array_equal(s.read(variable="V2D002", steps=[0, 6]), expected("V2D002", [0, 6], None))
    np.testing.assert_array_equal(s.read(variable="T", steps=5), expected("T", 5, None))
    np.testing.assert_array_equal(s.read(variable="PS", steps=[3, 4, 5]), expected("PS", [3, 4, 5], None))
    data[-1] ^= 0x10
    data[t_offset] ^= 0x10
    entry = 128 + 24 * t_entry   # T's chunk-table entry: offset, bytes, planes, reserved
    for at, what in [(20, "header checksum"), (entry, "puts chunk 0 of variable 'T' at"),
                     (entry + 8, "puts chunk 0 of variable 'T'"), (entry + 16, "puts chunk 0 of variable 'T'"),
                     (entry + 20, "reserved word")]:
        bad = bytearray(data)
        bad[at] ^= 0x01
        open(w, "wb").write(bad)
        with pytest.raises(lodex.FormatError, match=what):
            lodex.open(copy).series["geos"].read(variable="T", steps=3)
        if at >= entry:   # a read of another variable does not use T's entry
            np.testing.assert_array_equal(lodex.open(copy).series["geos"].read(variable="PS", steps=3),
                                          expected("PS", 3, None))
    # The table's checksum is for readers of the whole table; reads compare their entries with the
    # series' plan instead, so damage to it harms no read.
    bad = bytearray(data)
    bad[128 + 24 * len(head["variables"]) + 2] ^= 0x01
    open(w, "wb").write(bad)
    np.testing.assert_array_equal(lodex.open(copy).series["geos"].read(variable="T", steps=3), expected("T", 3, None))
    open(w, "wb").write(data[:-100])
    with pytest.raises(lodex.FormatError, match="truncated"):
        lodex.open(copy).series["geos"].read(variable="T", steps=3)
    os.remove(w)
    s = lodex.open(copy).series["geos"]
    with pytest.raises(lodex.FormatError, match="missing"):
        s.read(variable="T", steps=4)
    np.testing.assert_array_equal(s.read(variable="T", steps=[0, 6]), expected("T", [0, 6], None))
    assert head["windows"][1]["steps"] == [3, 4, 5]


def test_damaged_block_checksum(copy):
    """A flipped bit in the block table fails the reads of that block, and only those."""
    w = window(copy, 0)
    s = lodex.open(copy).series["geos"]
    names = list(s.meta["variables"])
    data = bytearray(open(w, "rb").read())
    table = 128 + 24 * len(names) + 8   # one writer: one chunk per variable
    data[table + 3] ^= 0x01             # the first block of the first variable
    open(w, "wb").write(data)
    s = lodex.open(copy).series["geos"]
    with pytest.raises(lodex.FormatError, match=f"checksum mismatch in variable '{names[0]}'"):
        s.read(0, None, names[0])
    np.testing.assert_array_equal(s.read(0, None, names[1]), expected(names[1], 0, None))


def test_window_from_another_series_is_refused(copy):
    # window 0 swapped with window 1: the header names other steps than the manifest
    a, b = window(copy, 0), window(copy, 1)
    os.replace(b, a)
    with pytest.raises(lodex.FormatError, match="does not match the manifest"):
        lodex.open(copy).series["geos"].read(variable="T", steps=0)


def test_damaged_manifest_record(copy):
    mp = os.path.join(copy, "manifest.json")
    m = json.load(open(mp))
    g = m["groups"]["geos"]
    for key, value, msg in [("windows", [{"file": "../x", "steps": [0], "bytes": 1}], "inside the series"),
                            ("cuts", [[0, 30], [0, 14], [0, 5]], "cuts"),
                            ("d_tar", 0, "out of range"),
                            ("windows", [{"file": "w", "steps": [2, 1], "bytes": 1}], "ascending")]:
        bad = json.loads(json.dumps(m))
        bad["groups"]["geos"][key] = value
        json.dump(bad, open(mp, "w"))
        with pytest.raises(lodex.FormatError, match=msg):
            lodex.open(copy)
    assert g["d_tar"] == 3


def test_full_disk_keeps_earlier_windows():
    g = Geos(dims=(64, 64, 16), n2d=2, n3d=2, steps=40)
    with small_tmpfs("2m", "lodex-series-full-") as mnt:
        path = os.path.join(mnt, "f.lodex")
        ds = lodex.create(path)
        s = ds.define_series("geos", dims=g.dims, variables=g.variables(), d_tar=2)
        box = ((0, 0, 0), g.dims)
        err = None
        for t in range(g.steps):
            try:
                s.write(t, box, {n: g.field(n, t, box) for n in g.names})
            except lodex.IOFailure as e:
                err = (t, e)
                break
        assert err is not None, "the file system never filled up"
        t, e = err
        assert "No space left" in str(e) or "ENOSPC" in str(e) or "space" in str(e)
        assert s.buffered_steps == [t - 1]   # the failed step is not written; the one before stays buffered
        assert not [f for f in os.listdir(os.path.join(path, "geos")) if f.endswith(".tmp")]
        r = lodex.open(path).series["geos"]
        assert r.steps == list(range(t - 1))
        for n in g.names:
            np.testing.assert_array_equal(r.read(variable=n), np.stack([g.field(n, k) for k in range(t - 1)]))
        ds.close()   # one step still fits: close writes it as a window of its own
        r = lodex.open(path).series["geos"]
        assert r.steps == list(range(t))
        np.testing.assert_array_equal(r.read(variable="T", steps=t - 1), g.field("T", t - 1))


def test_command_line(pristine, tmp_path):
    lx = [sys.executable, "-m", "lodex"]
    out = subprocess.run(lx + ["info", pristine], capture_output=True, text=True, check=True).stdout
    assert "series 'geos'  23 x 14 x 5" in out and "d_tar 3 steps" in out and "7 steps" in out
    j = json.loads(subprocess.run(lx + ["info", pristine, "--json"], capture_output=True, text=True, check=True).stdout)
    assert j["groups"]["geos"]["kind"] == "series" and j["groups"]["geos"]["d_tar"] == 3
    npy = str(tmp_path / "t.npy")
    r = subprocess.run(lx + ["read", pristine, "geos", "T", "--steps", "0:7", "--box", "1,2,0:5,6,3", "--out", npy],
                       capture_output=True, text=True, check=True)
    assert "float32 (7, 3, 4, 4)" in r.stdout
    np.testing.assert_array_equal(np.load(npy), expected("T", list(range(7)), ((1, 2, 0), (5, 6, 3))))
    r = subprocess.run(lx + ["read", pristine, "geos", "T", "--steps", "0:9"], capture_output=True, text=True)
    assert r.returncode == 0 and "float32 (7," in r.stdout   # a range: the committed steps inside it
    r = subprocess.run(lx + ["read", pristine, "geos", "T", "--steps", "0,7"], capture_output=True, text=True)
    assert r.returncode == 2 and "NotFoundError" in r.stderr and "no step 7" in r.stderr
    r = subprocess.run(lx + ["read", pristine, "geos"], capture_output=True, text=True)
    assert r.returncode == 2 and "name the variable" in r.stderr


def test_geos_workload_tiles_the_grid():
    g = Geos()
    assert g.dims == (144, 91, 48) and len(g.names) == g.n2d + g.n3d
    for ranks in (1, 2, 3, 4, 5, 8, 12):
        px, py = g.decomposition(ranks)
        assert px * py == ranks
        cover = np.zeros(g.dims[:2][::-1], dtype=int)
        for r in range(ranks):
            (x0, y0, z0), (x1, y1, z1) = g.box(r, ranks)
            assert (z0, z1) == (0, g.dims[2])
            cover[y0:y1, x0:x1] += 1
        assert (cover == 1).all()


def test_long_series_name(tmp_path):
    """Window headers hold the first 31 bytes of the name; a longer name writes and reads."""
    name = "geos_" + "x" * 40
    path = str(tmp_path / "n.lodex")
    ds = lodex.create(path)
    s = ds.define_series(name, dims=GEOS.dims, variables=GEOS.variables(), d_tar=2)
    for t in range(3):
        s.write(t, FULL, {n: GEOS.field(n, t) for n in GEOS.names})
    ds.close()
    s = lodex.open(path).series[name]
    np.testing.assert_array_equal(s.read(variable="T", steps=[0, 2]), expected("T", [0, 2], None))


# ------------------------------------------------------------------ issue 20: bounded windows

def _write_steps(s, steps, dims):
    for t in steps:
        s.write(t, ((0, 0, 0), dims), {"T": np.full(dims[::-1], t, dtype=np.float32)})


def test_plan_is_visible_from_the_first_write_and_windows_are_bounded(tmp_path):
    dims = (16, 8, 4)
    with lodex.create(str(tmp_path / "b.lodex")) as ds:
        s = ds.define_series("s", dims=dims, variables={"T": ("f4", 3)})
        assert s.d_tar is None and s.buffered_steps == []
        _write_steps(s, [0], dims)
        assert s.d_tar == 32 and s.d_sar == 0 and s.buffered_steps == [0]   # OptSize would want more
        assert s.max_window_steps == 32 and s.max_window_seconds == 600
        assert "capped by max_window_steps at 32" in s._core.planned_choice["reason"]
        t = ds.define_series("t", dims=dims, variables={"T": ("f4", 3)}, max_window_steps=5)
        _write_steps(t, range(12), dims)
        assert t.d_tar == 5 and t.steps == list(range(10)) and t.buffered_steps == [10, 11]
        with pytest.raises(lodex.InvalidArgumentError, match="max_window_steps"):
            u = ds.define_series("u", dims=dims, variables={"T": ("f4", 3)}, d_tar=40)
            _write_steps(u, [0], dims)
    for bad in ({"max_window_steps": 0}, {"max_window_seconds": 0}, {"max_window_seconds": -1.0},
                {"max_window_steps": 2.5}):
        with lodex.create(str(tmp_path / f"x{len(str(bad))}{list(bad.values())[0]}.lodex")) as ds:
            with pytest.raises(lodex.InvalidArgumentError):
                ds.define_series("s", dims=dims, variables={"T": ("f4", 3)}, **bad)


def test_an_old_window_is_written_at_the_next_write(tmp_path):
    dims = (8, 4, 2)
    path = str(tmp_path / "a.lodex")
    with lodex.create(path) as ds:
        s = ds.define_series("s", dims=dims, variables={"T": ("f4", 3)}, d_tar=10, max_window_seconds=0.3)
        _write_steps(s, [0, 1], dims)
        assert s.steps == [] and s.buffered_steps == [0, 1]
        time.sleep(0.35)
        _write_steps(s, [2], dims)
        assert s.steps == [0, 1, 2] and s.buffered_steps == []
        _write_steps(s, [3], dims)
        assert s.buffered_steps == [3]
    r = lodex.open(path).series["s"]
    assert r.steps == [0, 1, 2, 3]
    assert np.array_equal(r.read([1, 3], variable="T"), np.stack([np.full(dims[::-1], t, np.float32) for t in (1, 3)]))
    out = subprocess.run([sys.executable, "-m", "lodex.cli", "info", path, "--json"], capture_output=True, text=True)
    st = json.loads(out.stdout)["groups"]["s"]["settings"]
    assert st["max_window_steps"] == 32 and st["max_window_seconds"] == 0.3
    text = subprocess.run([sys.executable, "-m", "lodex.cli", "info", path], capture_output=True, text=True).stdout
    assert "at most 32 steps or 0.3 s from its first step" in text


def test_rank_zero_clock_closes_the_window_on_every_rank(tmp_path):
    seen = run_mpi(3, "series_age_mpi.py", str(tmp_path / "m.lodex"), timeout=120)["seen"]
    for rank_seen in seen:
        assert rank_seen == [[[], [0]], [[0, 1], []], [[0, 1], [2]]], seen


def test_series_defined_before_window_bounds_keeps_its_plan(tmp_path):
    """A manifest without the bound keys (an older lodex) reads with the defaults and appends with
    its stored d_tar even above the default bound."""
    dims = (4, 4, 2)
    path = str(tmp_path / "o.lodex")
    with lodex.create(path) as ds:
        s = ds.define_series("s", dims=dims, variables={"T": ("f4", 3)}, d_tar=40, max_window_steps=40)
        _write_steps(s, range(40), dims)
    mp = os.path.join(path, "manifest.json")
    m = json.load(open(mp))
    for key in ("max_window_steps", "max_window_seconds"):
        del m["groups"]["s"]["settings"][key]
    m["groups"]["s"]["settings"]["d_tar"] = 0   # chosen, as the older lodex chose 40
    json.dump(m, open(mp, "w"))
    with lodex.open(path, "a") as ds:
        s = ds.series["s"]
        assert s.max_window_steps == 32
        _write_steps(s, range(40, 80), dims)
        assert s.d_tar == 40 and s.steps == list(range(80))
