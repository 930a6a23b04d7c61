"""Reopening a dataset to append steps (serially and from 3 ranks), read-only datasets, and
group redefinition."""

from __future__ import annotations

import json
import os

import pytest

import lodex
import lodex_testutil as tu
from conftest import run_mpi

GROUP = "p"
SCHEMA = tu.APPEND_SCHEMA


def make_base(path: str) -> None:
    """A serial writer creates the dataset and writes step 0 (one rank, factor (1,1,1))."""
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=SCHEMA, domain=tu.UNIT, partition=(1, 1, 1))
        data, patch = tu.append_data(0, 1, 0)
        g.write(step=0, data=data, patch=patch)


def expected(step: int, size: int):
    return tu.concat([tu.append_data(r, size, step)[0] for r in range(size)], SCHEMA)


def check(path: str, writers: dict) -> None:
    """writers: step -> number of ranks that wrote it."""
    g = lodex.open(path).particles[GROUP]
    assert g.steps == sorted(writers)
    for step, size in writers.items():
        tu.assert_same_particles(g.read(step), expected(step, size), SCHEMA)
        assert len(g.files(step)) == size   # factor (1,1,1): one file per rank's patch
    with open(os.path.join(path, "manifest.json")) as fh:
        man = json.load(fh)
    assert [s["writer_ranks"] for s in man["groups"][GROUP]["steps"]] == [writers[s] for s in sorted(writers)]


def test_append_serial(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    assert g.steps == [0]
    for step in (1, 5):
        data, patch = tu.append_data(0, 1, step)
        g.write(step=step, data=data, patch=patch)
    assert g.steps == [0, 1, 5]
    ds.close()
    check(path, {0: 1, 1: 1, 5: 1})
    # a second append session adds a step between existing ones
    with lodex.open(path, mode="a") as ds:
        data, patch = tu.append_data(0, 1, 3)
        ds.particles[GROUP].write(step=3, data=data, patch=patch)
    check(path, {0: 1, 1: 1, 3: 1, 5: 1})


def test_append_three_ranks(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    res = run_mpi(3, "append_mpi.py", path, GROUP, 1, 5, timeout=120)
    for o in res["ranks"]:
        assert o["steps_before"] == [0]
        assert o["steps_after"] == [0, 1, 5], o
        assert o["redefine_other_schema"] == "InvalidArgumentError", o
        assert o["redefine_same"] == "ok", o
        assert o["rewrite_existing"] == "AlreadyExistsError", o
    check(path, {0: 1, 1: 3, 5: 3})


def test_read_mode_refuses_writes(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    ds = lodex.open(path)            # mode "r"
    g = ds.particles[GROUP]
    data, patch = tu.append_data(0, 1, 1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.write(step=1, data=data, patch=patch)
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("new", schema=SCHEMA, domain=tu.UNIT)
    # defining the existing group identically is a lookup and is allowed
    assert ds.define_particles(GROUP, schema=SCHEMA, domain=tu.UNIT, partition=(1, 1, 1)).steps == [0]
    assert g.steps == [0]
    assert list(ds.particles) == [GROUP]
    check(path, {0: 1})
    assert os.listdir(os.path.join(path, GROUP)) == ["step-000000000"]


def test_closed_dataset_refuses_everything(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    ds = lodex.open(path, mode="a")
    g = ds.particles[GROUP]
    ds.close()
    data, patch = tu.append_data(0, 1, 1)
    with pytest.raises(lodex.InvalidArgumentError):
        g.write(step=1, data=data, patch=patch)
    with pytest.raises(lodex.InvalidArgumentError):
        g.read(0)
    with pytest.raises(lodex.InvalidArgumentError):
        ds.particles[GROUP]
    check(path, {0: 1})


@pytest.mark.parametrize("mode", ["create", "append"])
@pytest.mark.parametrize("change", ["schema_dtype", "schema_extra_field", "schema_order", "domain"])
def test_redefinition_with_different_definition(tmp_path, mode, change):
    path = str(tmp_path / "a.lodex")
    if mode == "create":
        ds = lodex.create(path)
        g = ds.define_particles(GROUP, schema=SCHEMA, domain=tu.UNIT, partition=(1, 1, 1))
        data, patch = tu.append_data(0, 1, 0)
        g.write(step=0, data=data, patch=patch)
    else:
        make_base(path)
        ds = lodex.open(path, mode="a")
    schema, domain = dict(SCHEMA), tu.UNIT
    if change == "schema_dtype":
        schema["energy"] = "f8"
    elif change == "schema_extra_field":
        schema["mass"] = "f4"
    elif change == "schema_order":
        schema = {"energy": "f4", "position": ("f8", 3), "id": "i8"}
    elif change == "domain":
        domain = ((0, 0, 0), (2, 1, 1))
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles(GROUP, schema=schema, domain=domain, partition=(1, 1, 1))
    ds.close()
    r = lodex.open(path).particles[GROUP]
    assert r.schema == {k: (v, 1) if isinstance(v, str) else tuple(v) for k, v in SCHEMA.items()}
    check(path, {0: 1})


@pytest.mark.parametrize("change", ["factor", "grid", "lod"])
def test_redefinition_with_different_partition_or_lod(tmp_path, change):
    """The docstring of Dataset.particles: with a schema, 'create it, or check that the existing
    group matches'. A different partition (or level-of-detail setting) does not match: it must
    not be silently replaced by the stored one."""
    path = str(tmp_path / "a.lodex")
    make_base(path)   # factor (1,1,1), default lod
    kw = {"factor": {"partition": (2, 1, 1)}, "grid": {"partition_grid": (2, 2, 2)},
          "lod": {"partition": (1, 1, 1), "lod": {"brick_target": 8}}}[change]
    with lodex.open(path, mode="a") as ds:
        with pytest.raises(lodex.InvalidArgumentError):
            ds.define_particles(GROUP, schema=SCHEMA, domain=tu.UNIT, **kw)
    assert lodex.open(path).particles[GROUP].partition == ("factor", (1, 1, 1))


def test_new_group_in_append_mode(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    with lodex.open(path, mode="a") as ds:
        g2 = ds.define_particles("q", schema=SCHEMA, domain=tu.UNIT, partition_grid=(1, 1, 1))
        data, _ = tu.append_data(0, 1, 7)
        g2.write(step=7, data=data)
        assert sorted(ds.particles) == [GROUP, "q"]
    r = lodex.open(path)
    assert sorted(r.particles) == [GROUP, "q"]
    assert r.particles["q"].steps == [7]
    tu.assert_same_particles(r.particles["q"].read(7), expected(7, 1), SCHEMA)
    check(path, {0: 1})


def test_open_mode_and_missing(tmp_path):
    path = str(tmp_path / "a.lodex")
    make_base(path)
    for bad in ("w", "x", "rw", ""):
        with pytest.raises(lodex.InvalidArgumentError):
            lodex.open(path, mode=bad)
    with pytest.raises(lodex.NotFoundError):
        lodex.open(str(tmp_path / "missing.lodex"), mode="a")
    with pytest.raises(lodex.AlreadyExistsError):
        lodex.create(path)
    check(path, {0: 1})


def test_leftovers_of_an_uncommitted_step_are_replaced(tmp_path):
    """A step directory left by a writer that died before committing does not leak into the
    step when it is written again."""
    path = str(tmp_path / "a.lodex")
    make_base(path)
    left = tu.step_dir(path, GROUP, 1)
    os.makedirs(left)
    with open(os.path.join(left, "p000007.lpd"), "wb") as fh:
        fh.write(b"junk" * 100)
    with open(os.path.join(left, "spatial.lsm"), "wb") as fh:
        fh.write(b"junk")
    assert lodex.open(path).particles[GROUP].steps == [0]     # not committed, not listed
    with lodex.open(path, mode="a") as ds:
        data, patch = tu.append_data(0, 1, 1)
        ds.particles[GROUP].write(step=1, data=data, patch=patch)
    assert sorted(os.listdir(left)) == ["p000000.lpd", "spatial.lsm"]
    check(path, {0: 1, 1: 1})


def test_open_for_append_removes_a_killed_writers_temporaries(tmp_path):
    """A writer killed between writing a temporary and renaming it leaves '<file>.tmp-<pid>' at the
    dataset's root. Opening for append removes those whose process is gone, keeps those of live
    processes, and reading touches nothing."""
    import subprocess
    path = str(tmp_path / "t.lodex")
    with lodex.create(path) as ds:
        ds.define_particles("p", schema={"position": ("f8", 3)}, domain=((0, 0, 0), (1, 1, 1)))
    dead_pid = subprocess.Popen(["true"])   # a process that has exited: its pid names no process
    dead_pid.wait()
    stale = [os.path.join(path, f"manifest.json.tmp-{dead_pid.pid}"), os.path.join(path, f"g.idx.tmp-{dead_pid.pid}")]
    live = os.path.join(path, f"manifest.json.tmp-{os.getppid()}")
    other = os.path.join(path, "notes.tmp-abc")   # not a pid: not ours
    for f in stale + [live, other]:
        with open(f, "w") as fh:
            fh.write("{")
    lodex.open(path).close()                         # reading removes nothing
    assert all(os.path.exists(f) for f in stale + [live, other])
    lodex.open(path, mode="a").close()
    assert not any(os.path.exists(f) for f in stale)
    assert os.path.exists(live) and os.path.exists(other)
    assert lodex.open(path).particles["p"].steps == []
