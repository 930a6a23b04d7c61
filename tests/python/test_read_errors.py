"""Reads that must fail cleanly: bad arguments (lodex.InvalidArgumentError / NotFoundError),
damaged data files and spatial metadata (lodex.FormatError naming the file), damaged files a
box does not touch (no effect), collective reads of damaged data on 3 ranks (every rank raises,
nothing hangs), and the `lodex read` command line."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
import read_testutil as rt
from conftest import parse_result, run_mpi_raw

GROUP = "p"
N = 20000
NAN, INF = math.nan, math.inf
DAMAGED_FILE = "p000007.lpd"                        # partition (1,1,1): x, y, z >= 0.5
FAR_BOX = ((0.05, 0.05, 0.05), (0.45, 0.45, 0.45))  # inside partition 0, far from it


def make(step: int) -> dict:
    rng = np.random.default_rng([505, step])
    return rt.particles_f8(rt.uniform_positions(rng, N), seed=505 + step, id_base=step * 10**6)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("readerr") / "base.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=rt.SCHEMA_F8, domain=rt.UNIT, partition_grid=(2, 2, 2),
                                lod={"brick_target": 64})
        for s in (0, 1):
            g.write(step=s, data=make(s))
    return path


def group(path):
    return lodex.open(path).particles[GROUP]


def data_file(path: str, name: str = DAMAGED_FILE, step: int = 0) -> str:
    return os.path.join(tu.step_dir(path, GROUP, step), name)


def meta_file(path: str, step: int = 0) -> str:
    return os.path.join(tu.step_dir(path, GROUP, step), "spatial.lsm")


def flip(path: str, offset: int) -> None:
    tu.flip_byte(path, offset, 0x04)


def column_offset(path: str, field: str, row: int) -> int:
    h = tu.parse_particle_file(path)
    col = next(c for c in h["fields"] if c["name"] == field)
    rb = tu.DTYPE_SIZES[col["dtype"]] * col["components"]
    return col["offset"] + row * rb + rb // 2


def check_far_box(path: str) -> None:
    """A box read (and a level read of it) that does not touch the damaged file still works."""
    g = group(path)
    data = make(0)
    want = rt.select(data, rt.inside(data["position"], FAR_BOX))
    tu.assert_same_particles(g.read(0, box=FAR_BOX), want, rt.SCHEMA_F8)
    assert g.last_read_stats["files_opened"] == 1
    lvl = g.read(0, box=FAR_BOX, level=3)
    assert 0 < len(lvl["id"]) <= rt.level_sum(1, 32, 2, 3)
    assert np.all(np.isin(lvl["id"], want["id"]))
    ref = g.refine(0, box=FAR_BOX)
    assert sum(len(p["id"]) for p in ref) == len(want["id"])


def step1_intact(path: str) -> None:
    tu.assert_same_particles(group(path).read(1), make(1), rt.SCHEMA_F8)


def fails(fn, exc, names: str):
    with pytest.raises(exc) as ei:
        fn()
    assert names in str(ei.value), f"error does not name {names!r}: {ei.value!r}"
    return ei.value


# ---------------------------------------------------------------------------------------------
# Bad arguments
# ---------------------------------------------------------------------------------------------

BAD = [
    ("inverted_x", dict(box=((0.6, 0.0, 0.0), (0.4, 1.0, 1.0))), lodex.InvalidArgumentError, "inverted"),
    ("inverted_z", dict(box=((0.0, 0.0, 0.9), (1.0, 1.0, 0.1))), lodex.InvalidArgumentError, "inverted"),
    ("inverted_inf", dict(box=((INF, 0.0, 0.0), (-INF, 1.0, 1.0))), lodex.InvalidArgumentError, "inverted"),
    ("two_coords", dict(box=((0.0, 0.0), (1.0, 1.0))), lodex.InvalidArgumentError, "3 coordinates"),
    ("four_coords", dict(box=((0, 0, 0, 0), (1, 1, 1, 1))), lodex.InvalidArgumentError, "3 coordinates"),
    ("mixed_coords", dict(box=((0, 0, 0), (1, 1))), lodex.InvalidArgumentError, "box"),
    ("three_corners", dict(box=((0, 0, 0), (1, 1, 1), (2, 2, 2))), lodex.InvalidArgumentError, "box"),
    ("strings", dict(box=(("a", "b", "c"), (1, 1, 1))), lodex.InvalidArgumentError, "box"),
    ("string_box", dict(box="0,0,0:1,1,1"), lodex.InvalidArgumentError, "box"),
    ("number_box", dict(box=5), lodex.InvalidArgumentError, "box"),
    ("none_corner", dict(box=(None, (1, 1, 1))), lodex.InvalidArgumentError, "box"),
    ("nan_min", dict(box=((NAN, 0, 0), (1, 1, 1))), lodex.InvalidArgumentError, "NaN"),
    ("nan_max", dict(box=((0, 0, 0), (1, 1, NAN))), lodex.InvalidArgumentError, "NaN"),
    ("fraction_neg", dict(fraction=-0.5), lodex.InvalidArgumentError, "fraction"),
    ("fraction_zero", dict(fraction=0.0), lodex.InvalidArgumentError, "fraction"),
    ("fraction_zero_int", dict(fraction=0), lodex.InvalidArgumentError, "fraction"),
    ("fraction_big", dict(fraction=1.0000001), lodex.InvalidArgumentError, "fraction"),
    ("fraction_two", dict(fraction=2), lodex.InvalidArgumentError, "fraction"),
    ("fraction_nan", dict(fraction=NAN), lodex.InvalidArgumentError, "fraction"),
    ("fraction_inf", dict(fraction=INF), lodex.InvalidArgumentError, "fraction"),
    ("fraction_str", dict(fraction="0.5"), lodex.InvalidArgumentError, "fraction"),
    ("fraction_bool", dict(fraction=True), lodex.InvalidArgumentError, "fraction"),
    ("level_neg", dict(level=-1), lodex.InvalidArgumentError, "level"),
    ("level_float", dict(level=1.5), lodex.InvalidArgumentError, "level"),
    ("level_str", dict(level="2"), lodex.InvalidArgumentError, "level"),
    ("level_and_fraction", dict(level=1, fraction=0.5), lodex.InvalidArgumentError, "level"),
    ("readers_no_level", dict(readers=2), lodex.InvalidArgumentError, "level"),
    ("P_no_level", dict(P=16), lodex.InvalidArgumentError, "level"),
    ("S_no_level", dict(S=3), lodex.InvalidArgumentError, "level"),
    ("readers_fraction", dict(fraction=0.5, readers=2), lodex.InvalidArgumentError, "level"),
    ("S_one", dict(level=0, S=1), lodex.InvalidArgumentError, "S"),
    ("S_below_one", dict(level=0, S=0.5), lodex.InvalidArgumentError, "S"),
    ("S_zero", dict(level=0, S=0), lodex.InvalidArgumentError, "S"),
    ("S_neg", dict(level=0, S=-2), lodex.InvalidArgumentError, "S"),
    ("S_nan", dict(level=0, S=NAN), lodex.InvalidArgumentError, "S"),
    ("S_inf", dict(level=0, S=INF), lodex.InvalidArgumentError, "S"),
    ("S_str", dict(level=0, S="2"), lodex.InvalidArgumentError, "S"),
    ("P_zero", dict(level=0, P=0), lodex.InvalidArgumentError, "P"),
    ("P_neg", dict(level=0, P=-4), lodex.InvalidArgumentError, "P"),
    ("P_float", dict(level=0, P=2.5), lodex.InvalidArgumentError, "P"),
    ("readers_zero", dict(level=0, readers=0), lodex.InvalidArgumentError, "readers"),
    ("readers_neg", dict(level=0, readers=-1), lodex.InvalidArgumentError, "readers"),
    ("unknown_field", dict(fields=["id", "nope"]), lodex.NotFoundError, "nope"),
    ("unknown_field_str", dict(fields="Position"), lodex.NotFoundError, "Position"),
    ("duplicate_field", dict(fields=["id", "energy", "id"]), lodex.InvalidArgumentError, "id"),
    ("split_bogus", dict(split="bogus"), lodex.InvalidArgumentError, "split"),
    ("split_none", dict(split=None), lodex.InvalidArgumentError, "split"),
    ("split_bogus_level", dict(split="bytes ", level=1), lodex.InvalidArgumentError, "split"),
]


@pytest.mark.parametrize("kw,exc,words", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_arguments(pristine, kw, exc, words):
    g = group(pristine)
    with pytest.raises(exc) as ei:
        g.read(0, **kw)
    assert words in str(ei.value), str(ei.value)
    # The group is still usable afterwards.
    assert len(g.read(0, box=FAR_BOX, fields=["id"])["id"]) > 0


REFINE_BAD = [b for b in BAD if not {"fraction", "level", "readers", "P", "S"} & set(b[1])] + [
    ("S_one", dict(S=1), lodex.InvalidArgumentError, "S"),
    ("P_zero", dict(P=0), lodex.InvalidArgumentError, "P"),
    ("readers_zero", dict(readers=0), lodex.InvalidArgumentError, "readers"),
]


@pytest.mark.parametrize("kw,exc,words", [b[1:] for b in REFINE_BAD], ids=[b[0] for b in REFINE_BAD])
def test_bad_arguments_refine(pristine, kw, exc, words):
    g = group(pristine)
    with pytest.raises(exc) as ei:
        ref = g.refine(0, **kw)
        for _ in ref:
            pass
    assert words in str(ei.value), str(ei.value)


@pytest.mark.parametrize("kw", [dict(level=2**32), dict(level=10**10), dict(level=0, P=2**64),
                                dict(level=0, readers=2**64)], ids=["level2^32", "level1e10", "P2^64", "readers2^64"])
def test_huge_integers_are_lodex_errors(pristine, kw):
    with pytest.raises(lodex.InvalidArgumentError):
        group(pristine).read(0, **kw)


@pytest.mark.parametrize("step", [0.9, 1.5])
def test_fractional_step_is_rejected(pristine, step):
    with pytest.raises(lodex.InvalidArgumentError):
        group(pristine).read(step)


def test_level_beyond_last(pristine):
    """Not an error: a level past the last reads every particle, and the stats say how many levels
    the selection has."""
    g = group(pristine)
    levels = rt.num_levels(N, 1, 32, 2)
    assert len(g.read(0, level=levels - 1)["id"]) == N
    for L in (levels, levels + 1, 1000):
        assert len(g.read(0, level=L)["id"]) == N
        assert g.last_read_stats["levels"] == levels
    eight = rt.num_levels(N, 8, 32, 2)   # with readers, fewer levels
    assert len(g.read(0, level=eight, readers=8)["id"]) == N
    assert g.last_read_stats["levels"] == eight


@pytest.mark.parametrize("step", [2, 5, -1, 10**12])
def test_missing_step(pristine, step):
    g = group(pristine)
    for fn in (lambda: g.read(step), lambda: g.read(step, box=FAR_BOX), lambda: g.read(step, level=0),
               lambda: g.read(step, fraction=0.5), lambda: list(g.refine(step)), lambda: g.files(step)):
        with pytest.raises(lodex.NotFoundError) as ei:
            fn()
        assert f"step {step}" in str(ei.value)


def test_missing_group(pristine):
    with pytest.raises(lodex.NotFoundError):
        lodex.open(pristine).particles["nope"]


def test_refine_past_the_end(pristine):
    g = group(pristine)
    ref = g.refine(0, box=FAR_BOX)
    parts = list(ref)
    assert len(parts) == ref.levels
    with pytest.raises(StopIteration):
        next(ref)


# ---------------------------------------------------------------------------------------------
# Damaged files
# ---------------------------------------------------------------------------------------------

def test_pristine(pristine):
    g = group(pristine)
    tu.assert_same_particles(g.read(0), make(0), rt.SCHEMA_F8)
    assert DAMAGED_FILE in {f["file"] for f in g.files(0)}
    bounds = next(f for f in g.files(0) if f["file"] == DAMAGED_FILE)["bounds"]
    assert not rt.bounds_meet(bounds, FAR_BOX) and min(bounds["min"]) >= 0.5
    check_far_box(pristine)


@pytest.mark.parametrize("field,row", [("position", 0), ("energy", 1234), ("id", -1), ("vel", 700)])
def test_flipped_column_byte(copy, field, row):
    f = data_file(copy)
    nrows = tu.parse_particle_file(f)["n"]
    flip(f, column_offset(f, field, row % nrows))
    g = group(copy)
    err = fails(lambda: g.read(0), lodex.FormatError, f)
    assert f"'{field}'" in str(err)
    # Every read that has to read the damaged segment fails: the whole last level, the
    # partition as a box, the refinement through all its levels.
    fails(lambda: g.read(0, level=rt.num_levels(N, 1, 32, 2) - 1), lodex.FormatError, f)
    fails(lambda: g.read(0, box=((0.5, 0.5, 0.5), (1.0, 1.0, 1.0))), lodex.FormatError, f)
    fails(lambda: g.read(0, fraction=1.0), lodex.FormatError, f)
    fails(lambda: list(g.refine(0)), lodex.FormatError, f)
    fails(lambda: g.read(0, fields=[field]), lodex.FormatError, f)
    # The other fields still pass their checksums.
    others = [k for k in rt.SCHEMA_F8 if k != field and k != "position"]
    if field != "position":
        got = g.read(0, fields=others)
        want = make(0)
        key = "id" if "id" in others else "energy"
        assert np.array_equal(np.sort(got[key]), np.sort(want[key]))
    check_far_box(copy)
    step1_intact(copy)


@pytest.mark.parametrize("cut", [1, 1000, None])
def test_truncated_data_file(copy, cut):
    f = data_file(copy)
    size = os.path.getsize(f)
    with open(f, "r+b") as fh:
        fh.truncate(64 if cut is None else size - cut)
    g = group(copy)
    for fn in (lambda: g.read(0), lambda: g.read(0, level=0), lambda: g.read(0, fraction=0.01),
               lambda: g.read(0, box=((0.6, 0.6, 0.6), (0.7, 0.7, 0.7)), fields=["id"])):
        fails(fn, lodex.FormatError, f)
    check_far_box(copy)
    step1_intact(copy)


def test_deleted_data_file(copy):
    f = data_file(copy)
    os.remove(f)
    g = group(copy)
    for fn in (lambda: g.read(0), lambda: g.read(0, level=2), lambda: list(g.refine(0)),
               lambda: g.read(0, box=((0.5, 0.5, 0.5), (INF, INF, INF)))):
        err = fails(fn, lodex.Error, f)
        assert isinstance(err, (lodex.NotFoundError, lodex.FormatError, lodex.IOFailure)), repr(err)
    assert len(g.files(0)) == 8   # the metadata alone is fine
    check_far_box(copy)
    step1_intact(copy)


def test_garbage_data_file(copy):
    """Same size, random bytes: the head checksum recorded in the metadata catches it."""
    f = data_file(copy)
    size = os.path.getsize(f)
    with open(f, "wb") as fh:
        fh.write(np.random.default_rng(1).integers(0, 256, size, dtype=np.uint8).tobytes())
    g = group(copy)
    fails(lambda: g.read(0), lodex.FormatError, f)
    fails(lambda: g.read(0, level=1), lodex.FormatError, f)
    check_far_box(copy)


def test_file_swapped_between_partitions(copy):
    shutil.copyfile(data_file(copy, "p000006.lpd"), data_file(copy))
    fails(lambda: group(copy).read(0), lodex.FormatError, data_file(copy))
    check_far_box(copy)


@pytest.mark.parametrize("where", ["magic", "record", "bounds", "checksum", "truncate", "delete"])
def test_damaged_spatial_metadata(copy, where):
    m = meta_file(copy)
    size = os.path.getsize(m)
    if where == "truncate":
        with open(m, "r+b") as fh:
            fh.truncate(size - 9)
    elif where == "delete":
        os.remove(m)
    else:
        # record 0 starts at 40: name (64), partition/aggregator (8), partition box (48), bounds (48)
        flip(m, {"magic": 1, "record": 40 + 3, "bounds": 40 + 72 + 48 + 8, "checksum": size - 2}[where])
    g = group(copy)
    exc = (lodex.FormatError, lodex.NotFoundError) if where == "delete" else lodex.FormatError
    for fn in (lambda: g.read(0), lambda: g.read(0, box=FAR_BOX), lambda: g.read(0, level=0),
               lambda: g.read(0, fraction=0.3), lambda: list(g.refine(0)), lambda: g.files(0)):
        fails(fn, exc, m)
    step1_intact(copy)


@pytest.mark.parametrize("damage", ["flip_pos", "flip_head", "truncate", "delete", "garbage", "empty"])
def test_damage_outside_box_has_no_effect(copy, damage):
    f = data_file(copy)
    if damage == "flip_pos":
        flip(f, column_offset(f, "position", 5))
    elif damage == "flip_head":
        flip(f, 20)
    elif damage == "truncate":
        with open(f, "r+b") as fh:
            fh.truncate(os.path.getsize(f) // 2)
    elif damage == "delete":
        os.remove(f)
    elif damage == "garbage":
        with open(f, "wb") as fh:
            fh.write(b"\xff" * os.path.getsize(data_file(copy, "p000000.lpd")))
    elif damage == "empty":
        open(f, "wb").close()
    check_far_box(copy)
    g = group(copy)
    data = make(0)
    for box in [((0.0, 0.0, 0.0), (0.5, 1.0, 1.0)), ((-INF, -INF, -INF), (INF, INF, 0.5)),
                ((0.2, 0.55, 0.1), (0.7, 0.9, 0.45))]:
        tu.assert_same_particles(g.read(0, box=box), rt.select(data, rt.inside(data["position"], box)),
                                 rt.SCHEMA_F8)
    with pytest.raises(lodex.Error):
        g.read(0)


# ---------------------------------------------------------------------------------------------
# Collective reads of damaged data on 3 ranks: every rank raises, nothing hangs
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def damaged_set(pristine, tmp_path_factory):
    """Copies of the pristine dataset, each damaged in one way, and the read cases to run."""
    root = tmp_path_factory.mktemp("mpidamage")
    paths = {}
    for kind in ("flip", "truncate", "delete", "meta", "good"):
        p = str(root / f"{kind}.lodex")
        shutil.copytree(pristine, p)
        paths[kind] = p
    f = data_file(paths["flip"])
    flip(f, column_offset(f, "energy", 3))
    f = data_file(paths["truncate"])
    with open(f, "r+b") as fh:
        fh.truncate(os.path.getsize(f) - 100)
    os.remove(data_file(paths["delete"]))
    flip(meta_file(paths["meta"]), 40 + 3)
    return paths


MPI_CASES = [
    # (name, dataset, kw (+ "step"), per-rank kw, expected error class ("*": any lodex error for a
    # missing file) or None for success, what every rank's message names: the damaged data file,
    # the spatial metadata, or a literal)
    ("flip_spatial", "flip", {}, {}, "FormatError", "data"),
    ("flip_bytes", "flip", {"split": "bytes"}, {}, "FormatError", "data"),
    ("flip_last_level", "flip", {"level": 9, "readers": 1}, {}, "FormatError", "data"),
    ("flip_far_box", "flip", {"box": [list(FAR_BOX[0]), list(FAR_BOX[1])]}, {}, None, None),
    ("flip_far_box_bytes", "flip", {"box": [list(FAR_BOX[0]), list(FAR_BOX[1])], "split": "bytes"}, {}, None, None),
    ("truncate_spatial", "truncate", {}, {}, "FormatError", "data"),
    ("truncate_level0", "truncate", {"level": 0, "split": "bytes"}, {}, "FormatError", "data"),
    ("delete_spatial", "delete", {}, {}, "*", "data"),
    ("delete_fraction", "delete", {"fraction": 0.2}, {}, "*", "data"),
    ("meta_spatial", "meta", {}, {}, "FormatError", "meta"),
    ("meta_box", "meta", {"box": [list(FAR_BOX[0]), list(FAR_BOX[1])]}, {}, "FormatError", "meta"),
    ("good_full", "good", {}, {}, None, None),
    ("good_level_beyond", "good", {"level": 40}, {}, None, None),   # past the last level: everything
    ("good_missing_step", "good", {"step": 9}, {}, "NotFoundError", "step 9"),
    ("good_rank_inverted_box", "good", {}, {"1": {"box": [[0.9, 0, 0], [0.1, 1, 1]]}}, "InvalidArgumentError",
     "inverted"),
    ("good_rank_other_box", "good", {}, {"2": {"box": [[0, 0, 0], [0.5, 0.5, 0.5]]}}, "InvalidArgumentError",
     "different"),
    ("good_rank_other_level", "good", {"level": 2}, {"0": {"level": 3}}, "InvalidArgumentError", "different"),
    ("good_unknown_field", "good", {"fields": ["id", "nope"]}, {}, "NotFoundError", "nope"),
]


def test_mpi_damaged_reads(damaged_set, tmp_path):
    cases = []
    for _name, kind, kw, rank_kw, _exc, _names in MPI_CASES:
        kw = dict(kw)
        step = kw.pop("step", 0)
        cases.append({"path": damaged_set[kind], "step": step, "kw": kw, "rank_kw": rank_kw})
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps(cases))
    rc, out, err, timed_out = run_mpi_raw(3, "read_collective.py", str(spec), timeout=90)
    assert not timed_out, f"a collective read hung\n{out[-3000:]}\n{err[-3000:]}"
    assert rc == 0, f"exit code {rc} (a crash?)\n{out[-3000:]}\n{err[-3000:]}"
    res = parse_result(out)
    assert res is not None and res["size"] == 3
    good = group(damaged_set["good"])
    for (name, kind, kw, _rk, exc, names), ranks in zip(MPI_CASES, res["cases"]):
        assert len(ranks) == 3
        if exc is None:
            assert all(r[0] == "ok" for r in ranks), (name, ranks)
            union = sorted(i for r in ranks for i in r[2])
            assert len(set(union)) == len(union), name
            box = kw.get("box")
            want = good.read(0, box=None if box is None else (tuple(box[0]), tuple(box[1])), fields=["id"])
            assert union == sorted(int(v) for v in want["id"]), name
            continue
        for rank, r in enumerate(ranks):
            assert r[0] == "error", (name, rank, r)
            if exc != "*":
                assert r[1] == exc, (name, rank, r)
            else:
                assert r[1] in ("NotFoundError", "FormatError", "IOFailure"), (name, rank, r)
            target = {"data": data_file(damaged_set[kind]), "meta": meta_file(damaged_set[kind])}.get(names, names)
            assert target in r[2], (name, rank, r)


def test_mpi_one_rank_invalid_argument_does_not_hang(pristine, tmp_path):
    """Rank 1 passes level=-1 (rejected in Python), rank 0 level=1: both must raise, no hang."""
    spec = tmp_path / "cases.json"
    spec.write_text(json.dumps([{"path": pristine, "step": 0, "kw": {"level": 1},
                                 "rank_kw": {"1": {"level": -1}}}]))
    rc, out, err, timed_out = run_mpi_raw(2, "read_collective.py", str(spec), timeout=90)
    assert not timed_out, "the read hung: rank 0 waits for rank 1, which already raised"
    res = parse_result(out)
    assert rc == 0 and res is not None
    assert [r[1] for r in res["cases"][0]] == ["InvalidArgumentError"] * 2


# ---------------------------------------------------------------------------------------------
# lodex read (the command line)
# ---------------------------------------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "lodex.cli", "read", *[str(a) for a in args]],
                          capture_output=True, text=True, timeout=60)


def test_cli_main_module_exists():
    import lodex.cli
    assert os.path.exists(os.path.join(os.path.dirname(lodex.cli.__file__), "__main__.py"))


@pytest.mark.parametrize("step,extra,kw", [
    (0, [], {}),
    (0, ["--box", "0.1,0.2,0.3:0.6,0.7,0.8"], dict(box=((0.1, 0.2, 0.3), (0.6, 0.7, 0.8)))),
    (0, ["--box=-inf,-inf,0.5:inf,0.25,inf"], dict(box=((-INF, -INF, 0.5), (INF, 0.25, INF)))),
    (0, ["--level", "3"], dict(level=3)),
    (0, ["--level", "2", "--readers", "3", "--P", "10", "--S", "3"], dict(level=2, readers=3, P=10, S=3)),
    (0, ["--fraction", "0.123"], dict(fraction=0.123)),
    (0, ["--box", "0,0,0:0.5,0.5,1", "--fraction", "0.5"], dict(box=((0, 0, 0), (0.5, 0.5, 1)), fraction=0.5)),
    (1, ["--fields", "energy,id"], dict(fields=["energy", "id"])),
], ids=["all", "box", "inf_box", "level", "level_rPS", "fraction", "box_fraction", "step1_fields"])
def test_cli_count(pristine, step, extra, kw):
    r = cli(pristine, GROUP, "--step", step, "--count", *extra)
    assert r.returncode == 0, r.stderr
    got = group(pristine).read(step, **kw)
    assert r.stdout.strip() == str(len(got["id"]))


def test_cli_out(pristine, tmp_path):
    g = group(pristine)
    for i, (extra, kw) in enumerate([
        ([], {}),
        (["--box", "0.25,0.25,0.25:0.75,0.75,0.75", "--fields", "id,vel"],
         dict(box=((0.25, 0.25, 0.25), (0.75, 0.75, 0.75)), fields=["id", "vel"])),
        (["--level", "4", "--fields", "position,id"], dict(level=4, fields=["position", "id"])),
        (["--fraction", "0.01"], dict(fraction=0.01)),
    ]):
        out = tmp_path / f"r{i}.npz"
        r = cli(pristine, GROUP, "--step", "0", "--out", out, *extra)
        assert r.returncode == 0, r.stderr
        assert f"{len(g.read(0, **kw)['id']):,} particles" in r.stdout
        want = g.read(0, **kw)
        with np.load(out) as z:
            assert sorted(z.files) == sorted(want)
            for k in want:
                assert z[k].dtype == want[k].dtype and z[k].shape == want[k].shape, k
                assert np.array_equal(tu.bits(z[k]), tu.bits(want[k])), k


@pytest.mark.parametrize("args,words", [
    (["--box", "1,2:3,4"], "--box"),
    (["--box", "0,0,0:1,1"], "--box"),
    (["--box", "a,b,c:1,1,1"], "--box"),
    (["--box", "0,0,0,1,1,1"], "--box"),
    (["--box", "0.9,0,0:0.1,1,1"], "InvalidArgumentError"),
    (["--box", "0,0,0:1,nan,1"], "InvalidArgumentError"),
    (["--fraction", "1.5"], "InvalidArgumentError"),
    (["--fraction", "0"], "InvalidArgumentError"),
    (["--level", "-1"], "InvalidArgumentError"),
    (["--readers", "2"], "InvalidArgumentError"),
    (["--level", "1", "--S", "1"], "InvalidArgumentError"),
    (["--level", "1", "--P", "0"], "InvalidArgumentError"),
    (["--fields", "id,nope"], "NotFoundError"),
    (["--fields", "id,id"], "InvalidArgumentError"),
], ids=["box2", "box_short", "box_letters", "box_no_colon", "box_inverted", "box_nan", "frac_big",
        "frac_zero", "level_neg", "readers_no_level", "S1", "P0", "unknown_field", "dup_field"])
def test_cli_errors(pristine, args, words):
    r = cli(pristine, GROUP, "--step", "0", *args)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("lodex read: "), r.stderr
    assert words in r.stderr
    assert "Traceback" not in r.stderr


def test_cli_usage_errors(pristine):
    r = cli(pristine, GROUP, "--step", "0", "--level", "1", "--fraction", "0.5")
    assert r.returncode == 2 and "not allowed" in r.stderr
    r = cli(pristine, GROUP, "--step", "7", "--count")
    assert r.returncode == 2 and "NotFoundError" in r.stderr and "step 7" in r.stderr
    r = cli(pristine, "nope", "--step", "0", "--count")
    assert r.returncode == 2 and "NotFoundError" in r.stderr


def test_cli_damaged_file(copy):
    f = data_file(copy)
    flip(f, column_offset(f, "id", 10))
    r = cli(copy, GROUP, "--step", "0", "--count", "--fields", "id")
    assert r.returncode == 2 and r.stderr.startswith("lodex read: FormatError: ") and f in r.stderr, r.stderr
    r = cli(copy, GROUP, "--step", "0", "--count", "--box", "0.05,0.05,0.05:0.45,0.45,0.45")
    assert r.returncode == 0, r.stderr
    assert int(r.stdout) == int(rt.inside(make(0)["position"], FAR_BOX).sum())


def test_cli_negative_box_coordinate(pristine):
    r = cli(pristine, GROUP, "--step", "0", "--count", "--box", "-1,0,0:0.5,0.5,0.5")
    assert r.returncode == 0, r.stderr
    want = group(pristine).read(0, box=((-1, 0, 0), (0.5, 0.5, 0.5)), fields=["id"])
    assert r.stdout.strip() == str(len(want["id"]))


def test_a_mistyped_name_lists_every_kind_and_the_closest(tmp_path):
    """NotFound for a particle group, grid or series lists what the dataset has of every kind and
    suggests the closest name, whatever kind was asked for (a mistyped grid used to say
    "no particle group ... (groups: none)" through the command line)."""
    path = str(tmp_path / "k.lodex")
    with lodex.create(path) as ds:
        ds.define_particles("electrons", schema={"position": ("f8", 3)}, domain=((0, 0, 0), (1, 1, 1)))
        ds.define_grid("density", dims=(4, 4, 4), dtype="f4").write(0, ((0, 0, 0), (4, 4, 4)),
                                                                    np.zeros((4, 4, 4), np.float32))
        ds.define_series("temperature", dims=(4, 2, 1), variables={"T": "f4"})
    ds = lodex.open(path)
    listing = "particle groups: electrons; grids: density; series: temperature"
    for call, kind in [(lambda: ds.grids["densty"], "grid"), (lambda: ds.particles["densty"], "particle group"),
                       (lambda: ds.series["densty"], "series")]:
        with pytest.raises(lodex.NotFoundError) as e:
            call()
        msg = str(e.value)
        assert f"no {kind} 'densty'" in msg and listing in msg and "did you mean the grid 'density'?" in msg, msg
    with pytest.raises(lodex.NotFoundError) as e:
        ds.grids["zzz"]
    assert listing in str(e.value) and "did you mean" not in str(e.value)
    r = subprocess.run([sys.executable, "-m", "lodex", "read", path, "densty", "--step", "0"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and listing in r.stderr and "'density'" in r.stderr, r.stderr
