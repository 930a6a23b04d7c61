"""Zero-copy input from numpy (ParticleGroup.buffers): the files are byte for byte those of write
with the same rows (positions interleaved or per component, commit synchronous or asynchronous);
arrays kept after the commit read zeros, refuse writes and alias no later step; an exception while
the buffers are filled discards the step on every rank; every misuse is a typed lodex error."""

from __future__ import annotations

import os

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from lodex import _lodex
from conftest import LaunchCache, run_mpi
from lodex.workloads import UINTAH_SCHEMA, uintah

cached = LaunchCache()
DOMAIN = ((0, 0, 0), (1, 1, 1))


def same_files(a: str, b: str) -> bool:
    """Every data and spatial metadata file, and the manifest, byte for byte."""
    da, db = tu.file_digests(a), tu.file_digests(b)
    with open(os.path.join(a, "manifest.json"), "rb") as fa, open(os.path.join(b, "manifest.json"), "rb") as fb:
        return len(da) > 0 and da == db and fa.read() == fb.read()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_buffers_write_what_write_writes(tmp_path_factory, n):
    out = str(tmp_path_factory.mktemp(f"buffers{n}"))
    res = cached(("write", n), lambda: run_mpi(n, "buffers_mpi.py", "write", out, timeout=180))
    for label in ("one", "grid"):
        for how in ("inter", "comp"):
            assert same_files(os.path.join(out, f"{how}_{label}.lodex"), os.path.join(out, f"ref_{label}.lodex")), \
                (label, how)
        r = res[label]
        assert r["kept_zero"] and r["kept_readonly"], r   # step 0's arrays after its commit
        assert r["shares_memory"] is False and r["stray_seen"], r   # ... alias nothing of step 1
        assert r["pending_steps"] == [[s, True] for s in range(3)]   # committed by wait(), not before
    if n > 1:   # one partition per rank: planned at open, each rank fills its node's window
        assert all(w["grid"] == [True] * 3 for w in res["in_window"]), res["in_window"]
    g = lodex.open(os.path.join(out, "comp_grid.lodex")).particles["u"]
    assert g.steps == [0, 1, 2]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_collective_misuses_raise_on_every_rank(tmp_path_factory, n):
    out = str(tmp_path_factory.mktemp(f"buffers_errors{n}"))
    ranks = cached(("errors", n), lambda: run_mpi(n, "buffers_mpi.py", "errors", out, timeout=180))["ranks"]
    last = n - 1
    prefix = f"rank {last}: " if n > 1 else ""
    for r, res in enumerate(ranks):
        # An exception in the with block: the raising rank gets its own, the others a lodex error
        # naming it; nothing of the step is written, and the step can be written again.
        if r == last:
            assert res["exception"] == ["ZeroDivisionError", "the simulation failed"]
        else:
            assert res["exception"][0] == "InvalidArgumentError"
            assert res["exception"][1].startswith(f"rank {last}: step 0's buffers were discarded: ZeroDivisionError")
        assert res["steps_after_exception"] == [] and not res["step_dir_left"]
        assert res["after_exception"] == ["ok", ""]
        if n > 1:
            assert res["disagree"][0] == "InvalidArgumentError" and "ranks disagree on the step" in res["disagree"][1]
        assert res["bad_count"] == ["InvalidArgumentError",
                                    f"{prefix}count must be an integer in [0, 4294967295], got -1"]
        assert res["bad_positions"] == ["InvalidArgumentError",
                                        f"{prefix}positions must be 'interleaved' or 'components', got 'soa'"]
        # Positions outside the patch (outside the domain at one rank): refused at the commit as
        # write refuses them.
        assert res["outside"][0] == "InvalidArgumentError" and res["outside"] == res["outside_write"]
        assert ("outside its patch" if n > 1 else "outside the domain") in res["outside"][1]
        assert res["write_while_open"][0] == "InvalidArgumentError" and "has buffers open" in res["write_while_open"][1]
        assert res["commit_twice"][0] == "InvalidArgumentError" and "already committed" in res["commit_twice"][1]
        assert res["steps"] == [0, 1]
        assert res["read_only"][0] == "InvalidArgumentError" and "open for reading" in res["read_only"][1]


def group(tmp_path, name="s.lodex", **kw):
    ds = lodex.create(str(tmp_path / name))
    return ds, ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, **kw)


def rows(step: int, n: int = 500) -> dict:
    return {k: np.array(v) for k, v in uintah(step, n, DOMAIN, seed=3).items()}


def test_fields_shapes_and_dtypes(tmp_path):
    ds, g = group(tmp_path)
    with g.buffers(0, None, 7) as b:
        assert list(b) == list(UINTAH_SCHEMA) and len(b) == len(UINTAH_SCHEMA) and "mass" not in b
        assert b["position"].shape == (7, 3) and b["position"].dtype == np.float64
        assert b["stress"].shape == (7, 9) and b["type"].shape == (7,) and b["type"].dtype == np.float32
        assert b["position"] is b["position"] and b["position"].flags.c_contiguous and b["position"].flags.writeable
        for k, v in rows(0, 7).items():
            b[k][:] = v
    with g.buffers(1, None, 7, positions="components") as b:
        assert list(b)[-3:] == ["position/x", "position/y", "position/z"]
        assert b["position"].shape == (3, 7) and b["position/y"].shape == (7,)
        b["position"][:] = 0.5
        b["position/y"][:] = 0.25   # one row of b["position"]
        assert (b["position"][1] == 0.25).all() and (b["position"][0] == 0.5).all()
        for k, v in rows(1, 7).items():
            if k != "position":
                b[k][:] = v
    assert g.steps == [0, 1]
    got = g.read(1)
    assert np.array_equal(got["position"], np.tile([0.5, 0.25, 0.5], (7, 1)))
    ds.close()


def test_arrays_after_commit_alias_no_later_step(tmp_path):
    ds, g = group(tmp_path)
    ref_ds, ref = group(tmp_path, "ref.lodex")
    b = g.buffers(0, None, 500)
    for k, v in rows(0).items():
        b[k][:] = v
    kept, view = b["density"], b["density"][10:]
    b.commit()
    assert not kept.any() and not kept.flags.writeable   # revoked: zeros, read-only
    with pytest.raises(ValueError, match="read-only"):
        kept[0] = 1.0
    with g.buffers(1, None, 500) as b1:
        for k, v in rows(1).items():
            b1[k][:] = v
        view[:] = 99.0   # a view made before the commit, still writable: its own pages only
        assert not np.shares_memory(kept, b1["density"])
        assert not (b1["density"] == 99.0).any()
    assert (kept[10:] == 99.0).all()
    for s in (0, 1):
        ref.write(s, data=rows(s))
    ds.close()
    ref_ds.close()
    assert same_files(str(tmp_path / "s.lodex"), str(tmp_path / "ref.lodex"))


def test_a_mapping_no_array_holds_serves_the_next_step(tmp_path):
    """A loop that keeps no array maps the rows once: step 1's arrays lie where step 0's were (the
    mapping was unreachable at the commit); an array kept over a commit makes the next step's new."""
    ds, g = group(tmp_path)
    ref_ds, ref = group(tmp_path, "ref.lodex")

    def addr(a):
        return a.__array_interface__["data"][0]

    where = []
    for step in range(4):
        with g.buffers(step, None, 500) as b:
            for k, v in rows(step).items():
                b[k][:] = v
            where.append(addr(b["density"]))
            kept = b["density"] if step == 1 else None
        if step == 1:
            assert not kept.any() and not kept.flags.writeable
        ref.write(step, data=rows(step))
    assert where[1] == where[0] and where[2] != where[1] and where[3] == where[2]
    ds.close()
    ref_ds.close()
    assert same_files(str(tmp_path / "s.lodex"), str(tmp_path / "ref.lodex"))


@pytest.fixture
def staging():
    _lodex._buffers_staging(True)
    yield
    _lodex._buffers_staging(False)


@pytest.mark.parametrize("positions", ["interleaved", "components"])
def test_staged_views_where_pages_cannot_be_mapped_twice(tmp_path, staging, positions):
    """Where the buffers' pages cannot be mapped a second time, the arrays are staging pages of
    their own, copied in at the commit: the same files, and the same revocation."""
    ds, g = group(tmp_path)
    ref_ds, ref = group(tmp_path, "ref.lodex")
    for step in range(2):
        d = rows(step)
        with g.buffers(step, None, 500, positions=positions) as b:
            for k, v in d.items():
                b[k][:] = v.T if k == "position" and positions == "components" else v
            kept = b["density"]
        assert not kept.any() and not kept.flags.writeable
        ref.write(step, data=d)
    ds.close()
    ref_ds.close()
    assert same_files(str(tmp_path / "s.lodex"), str(tmp_path / "ref.lodex"))


def test_local_misuses(tmp_path):
    ds, g = group(tmp_path)
    b = g.buffers(0, None, 5)
    with pytest.raises(lodex.InvalidArgumentError, match="no field 'mass'.*position"):
        b["mass"]
    with pytest.raises(lodex.InvalidArgumentError, match="no field 'position/x'"):
        b["position/x"]   # positions interleaved
    with pytest.raises(lodex.InvalidArgumentError, match="field names are strings"):
        b[0]
    with pytest.raises(lodex.InvalidArgumentError, match="has buffers open"):
        g.buffers(1, None, 5)
    assert b.open   # still open, and still committable
    for k, v in rows(0, 5).items():
        b[k][:] = v
    assert b.commit() is None and not b.open
    with pytest.raises(lodex.InvalidArgumentError, match="already committed"):
        b.commit()
    with pytest.raises(lodex.InvalidArgumentError, match="committed or discarded"):
        b["position"]
    with pytest.raises(lodex.AlreadyExistsError, match="already committed"):
        g.buffers(0, None, 5)
    for bad, match in [(dict(count=-1), "count must be"), (dict(count=True), "count must be"),
                       (dict(patch=(0, 1)), "patch must be"), (dict(positions="soa"), "positions must be"),
                       (dict(step="1"), "step must be")]:
        args = {"step": 1, "patch": None, "count": 5, **bad}
        pos = args.pop("positions", "interleaved")
        with pytest.raises(lodex.InvalidArgumentError, match=match):
            g.buffers(args["step"], args["patch"], args["count"], positions=pos)
    assert g.steps == [0]
    ds.close()


def test_exception_discards_and_uncommitted_buffers_go(tmp_path):
    ds, g = group(tmp_path)
    with pytest.raises(ValueError, match="could not broadcast"):
        with g.buffers(0, None, 5) as b:
            b["density"][:] = np.zeros(6)   # a wrong count of rows: numpy's error, the step discarded
    assert g.steps == [] and not b.open
    b = g.buffers(0, None, 5)   # dropped without a commit: discarded, the step may be opened again
    kept = b["id"]
    kept[:] = 4.0
    del b
    assert not kept.flags.writeable and not kept.any()
    with g.buffers(0, None, 0) as b:   # a step of no particles on this rank
        assert b["position"].shape == (0, 3)
    p = g.buffers(1, None, 5)
    for k, v in rows(1, 5).items():
        p[k][:] = v
    pending = p.commit(wait=False)
    assert isinstance(pending, lodex.PendingWrite) and pending.step == 1
    pending.wait()
    assert g.steps == [0, 1] and len(g.read(1)["id"]) == 5
    ds.close()
