"""Asynchronous particle steps (ParticleGroup.write(..., wait=False)): the files are exactly those
of synchronous writes, a copied step survives its arrays being reused at once, the step commits at
the next collective call, and a failure while a step is pending is raised on every rank there,
loses that step only, and the dataset takes it again."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from conftest import LaunchCache, run_mpi
from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

cached = LaunchCache()


digests = tu.file_digests


def expected(size: int, step: int) -> dict:
    grid = rank_grid(size)
    parts = [uintah(r + 100 * step, 3000 + 37 * r + 11 * step, patch_of(r, grid), seed=5) for r in range(size)]
    return {k: np.concatenate([p[k] for p in parts]) for k in UINTAH_SCHEMA}


@pytest.mark.parametrize("n", [1, 3, 8])
def test_async_steps_write_what_sync_steps_write(tmp_path_factory, n):
    out = str(tmp_path_factory.mktemp(f"async{n}"))
    res = cached(n, lambda: run_mpi(n, "async_mpi.py", "write", out, timeout=180))
    # Nothing commits before the next collective call.
    assert [p for p, _ in res["pending"]] == list(range(6))
    assert all(uncommitted for _, uncommitted in res["pending"][:4])
    assert res["steps_after_wait"] == [0, 1, 2, 3]
    prof = res["profiles"][0]
    assert prof["step"] == 3 and 0 < prof["blocked_s"] and prof["particles"] == len(expected(n, 3)["id"])
    # copy=False (step 3): where rows move on the node, their copies into the window ran on the
    # helper; with the copy (step 2) they ran in the call. One rank moves nothing.
    assert res["profile_copy"]["step"] == 2 and "helper_exchange" not in res["profile_copy"]["threads"]
    assert ("helper_exchange" in prof["threads"]) == (n > 1), prof["threads"]
    assert res["last_done"] is True
    a, s = digests(os.path.join(out, "async.lodex")), digests(os.path.join(out, "sync.lodex"))
    assert len(a) >= 12 and a == s
    g = lodex.open(os.path.join(out, "async.lodex")).particles["u"]
    assert g.steps == list(range(6))
    for step in range(6):
        got, want = g.read(step), expected(n, step)
        o, w = np.argsort(got["id"]), np.argsort(want["id"])
        for k in UINTAH_SCHEMA:
            assert np.array_equal(got[k][o], want[k][w]), (step, k)


def test_serial_async_step_and_its_arguments(tmp_path):
    path = str(tmp_path / "s.lodex")
    ds = lodex.create(path)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)))
    d = {k: np.array(v) for k, v in uintah(0, 5000, ((0, 0, 0), (1, 1, 1))).items()}
    with pytest.raises(lodex.InvalidArgumentError, match="index= needs the step committed"):
        g.write(0, data=d, wait=False, index=["density"])
    p = g.write(0, data=d, wait=False)
    assert isinstance(p, lodex.PendingWrite) and p.step == 0
    assert g.steps == []
    for v in d.values():
        v[...] = -1
    prof = p.wait()
    assert g.steps == [0] and prof["step"] == 0 and prof["blocked_s"] > 0
    assert p.done() and p.wait()["step"] == 0   # waiting again is harmless
    # A bad step is refused at the call, like a synchronous one, and nothing is pending.
    with pytest.raises(lodex.AlreadyExistsError):
        g.write(0, data=d, wait=False)
    bad = dict(d)
    bad["position"] = bad["position"] + 5
    with pytest.raises(lodex.InvalidArgumentError, match="outside the domain"):
        g.write(1, data=bad, wait=False)
    g.write(1, data={k: np.array(v) for k, v in uintah(1, 10, ((0, 0, 0), (1, 1, 1))).items()}, wait=False)
    ds.close()   # commits step 1
    assert lodex.open(path).particles["u"].steps == [0, 1]


@pytest.fixture(scope="module")
def fault_base(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("afault") / "base.lodex")
    run_mpi(3, "async_mpi.py", "create", path, timeout=120)
    return path


@pytest.mark.parametrize("fault", ["write:1:ENOSPC:0", "write:1:EIO:1", "write:1:ENOSPC:2", "open:1:EIO:1",
                                   "rename:1:EIO:0"])
def test_a_failure_while_pending_is_raised_everywhere_and_loses_that_step_only(fault_base, tmp_path, fault):
    work = str(tmp_path / "d.lodex")
    shutil.copytree(fault_base, work)
    res = run_mpi(3, "async_mpi.py", "fault", work, timeout=120, env={"LODEX_FAULT": fault})
    outcomes = res["outcomes"]
    assert all(o is not None and o[0] == "IOFailure" for o in outcomes), outcomes
    assert len({o[1] for o in outcomes}) == 1, outcomes
    g = lodex.open(work).particles["u"]
    assert g.steps == [0]
    got, want = g.read(0), expected(3, 0)
    assert np.array_equal(np.sort(got["id"]), np.sort(want["id"]))
    res = run_mpi(3, "async_mpi.py", "fault", work, timeout=120)   # the same step again, no fault
    assert res["outcomes"] == [None, None, None]
    g = lodex.open(work).particles["u"]
    assert g.steps == [0, 1]
    got, want = g.read(1), expected(3, 1)
    assert np.array_equal(np.sort(got["id"]), np.sort(want["id"]))


# ------------------------------------------------------------------ grids and series (async_grid_mpi.py)

def tree_digests(root: str) -> dict:
    """sha256 of every file under root but the manifest, by relative path."""
    import hashlib
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if os.path.relpath(p, root) != "manifest.json":
                with open(p, "rb") as fh:
                    out[os.path.relpath(p, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    """Equal bit for bit (the grid cases hold NaNs and infinities)."""
    return got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()


# The asynchronous path: "helper-mpi" (the helper thread gathers and writes, over the group's own
# communicator: MPICH gives MPI_THREAD_MULTIPLE) and the fallback without it, forced.
PATHS = [(1, "helper-mpi"), (2, "helper-mpi"), (3, "helper-mpi"), (3, "caller-aggregates")]


def grid_series_run(tmp_path_factory, n: int, path: str = "helper-mpi") -> tuple[str, dict]:
    def launch():
        out = str(tmp_path_factory.mktemp(f"agrid{n}"))
        return out, run_mpi(n, "async_grid_mpi.py", "write", out, timeout=240, env={"LODEX_ASYNC_PATH": path})
    return cached(("grids", n, path), launch)


@pytest.mark.parametrize("n,path", PATHS)
def test_async_grid_steps_write_what_sync_steps_write(tmp_path_factory, n, path):
    import grid_write_cases as gc
    out, res = grid_series_run(tmp_path_factory, n, path)
    a, s = os.path.join(out, "async.lodex"), os.path.join(out, "sync.lodex")
    da, ds_ = tree_digests(a), tree_digests(s)
    assert len([f for f in da if f.endswith(".bin")]) >= 10
    assert da == ds_   # every block file, checksum file, .idx header and series window, byte for byte
    for name, rows in res["grids"].items():
        steps = gc.CASES[name]["steps"]
        assert [r["step"] for r in rows] == steps and all(r["pending"] for r in rows)
        for i, r in enumerate(rows):
            # Nothing commits before the next collective call: a write commits the step before it
            # (the first step was waited for).
            assert r["committed_before"] == steps[:max(min(i, 1), i - 1)], (name, r)
            assert r["committed_at_return"] == steps[:i], (name, r)
        assert rows[0]["after_wait"] == steps[:1] and rows[0]["done"] is True
        prof = rows[0]["profile"]
        assert prof["step"] == steps[0] and 0 < prof["blocked_s"] and prof["bytes"] > 0
        # Grids without partitions are gathered on the helper (raw blocks streamed, zipped ones
        # aggregated and compressed there); grids with partitions keep the fallback.
        kw = gc.CASES[name]["kw"]
        on_helper = kw.get("partitions", 1) <= 1
        assert prof["async_path"] == (path if on_helper else "caller-aggregates"), (name, prof)
    g = lodex.open(a)
    for name in res["grids"]:
        grid = g.grids[name]
        assert grid.steps == gc.CASES[name]["steps"]
        for step in grid.steps:
            for field, want in gc.full_data(name, step).items():
                assert same_bits(grid.read(step, field=field), want), (name, step, field)


def test_openvisus_reads_an_async_grid(tmp_path_factory):
    os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
    ov = pytest.importorskip("OpenVisus")
    import grid_write_cases as gc
    out, _ = grid_series_run(tmp_path_factory, 3)
    g = lodex.open(os.path.join(out, "async.lodex")).grids["p3"]
    db = ov.LoadDataset(g.idx_path)
    for step in gc.CASES["p3"]["steps"]:
        got = db.read(time=step, field=db.getField("p3"))
        assert same_bits(got, gc.full_data("p3", step)["p3"]), step


@pytest.mark.parametrize("n,path", PATHS)
def test_async_series_steps_write_what_sync_steps_write(tmp_path_factory, n, path):
    from series_data import GEOS, full
    out, res = grid_series_run(tmp_path_factory, n, path)
    rows = res["series"]
    # d_tar=2: steps 1 and 3 complete a window, which is pending until the next collective call;
    # the others are buffered and done at once.
    assert [r["flushed_at_return"] for r in rows] == [[], [], [0, 1], [0, 1], [0, 1, 2, 3]]
    assert [r["buffered"] for r in rows] == [[0], [0, 1], [2], [2, 3], [4]]
    assert rows[1]["after_wait"] == [0, 1]
    prof = rows[1]["profile"]
    assert prof["step"] == 1 and prof["flushed"] and prof["window_steps"] == 2 and prof["blocked_s"] > 0
    assert prof["async_path"] == path
    ser = lodex.open(os.path.join(out, "async.lodex")).series["geos"]
    assert ser.steps == list(range(5))
    for var in GEOS.names:
        assert np.array_equal(ser.read(variable=var), full(var, range(5))), var


@pytest.fixture(scope="module")
def grid_fault_base(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("agfault") / "base.lodex")
    run_mpi(3, "async_grid_mpi.py", "create", path, timeout=120)
    return path


# Every rank's first write, one rank's (an aggregator's: "multi" has many files), a rank's first
# file open, rank 0's third write: all in the helper's file writes or rank 0's commit.
GRID_FAULTS = ["write:1:ENOSPC", "write:1:EIO:1", "open:1:EIO:2", "write:3:ENOSPC:0"]


@pytest.mark.parametrize("path", ["helper-mpi", "caller-aggregates"])
@pytest.mark.parametrize("fault", GRID_FAULTS)
def test_a_failure_while_a_grid_step_is_pending_loses_that_step_only(grid_fault_base, tmp_path, fault, path):
    import grid_write_cases as gc
    work = str(tmp_path / "d.lodex")
    shutil.copytree(grid_fault_base, work)
    res = run_mpi(3, "async_grid_mpi.py", "grid", work, timeout=120,
                  env={"LODEX_FAULT": fault, "LODEX_ASYNC_PATH": path})
    outcomes = res["outcomes"]
    # The call returned; the next call (the synchronous step 2) raised the pending step's error on
    # every rank, and wrote nothing of its own.
    assert all(o is not None and o[:2] == ["next", "IOFailure"] for o in outcomes), outcomes
    assert len({o[2] for o in outcomes}) == 1, outcomes
    g = lodex.open(work).grids["multi"]
    assert g.steps == [0]
    for field, want in gc.full_data("multi", 0).items():
        assert same_bits(g.read(0, field=field), want), field
    res = run_mpi(3, "async_grid_mpi.py", "grid", work, timeout=120)   # the same steps again, no fault
    assert res["outcomes"] == [None, None, None]
    g = lodex.open(work).grids["multi"]
    assert g.steps == [0, 1, 2]
    for step in (0, 1, 2):
        for field, want in gc.full_data("multi", step).items():
            assert same_bits(g.read(step, field=field), want), (step, field)


# "geos" (d_sar=0) writes its window from each rank's buffers; "geos_sar" (d_sar=1) gathers it
# between ranks first, on the helper thread on the "helper-mpi" path: a failure on one rank there
# (rank 0, a top aggregator) must leave the others' streams going and fail the window everywhere.
SERIES_FAULTS = [(kind, fault, path) for path in ("helper-mpi", "caller-aggregates")
                 for kind, fault in [("series", "write:1:ENOSPC"), ("series", "write:1:EIO:2"),
                                     ("series", "open:1:EIO:1"), ("series_sar", "write:1:ENOSPC"),
                                     ("series_sar", "write:1:EIO:0")]]


@pytest.mark.parametrize("kind,fault,path", SERIES_FAULTS)
def test_a_failure_while_a_series_window_is_pending_loses_that_step_only(grid_fault_base, tmp_path, kind, fault,
                                                                          path):
    from series_data import full
    name = "geos_sar" if kind == "series_sar" else "geos"
    work = str(tmp_path / "d.lodex")
    shutil.copytree(grid_fault_base, work)
    res = run_mpi(3, "async_grid_mpi.py", kind, work, timeout=120,
                  env={"LODEX_FAULT": fault, "LODEX_ASYNC_PATH": path})
    outcomes = res["outcomes"]
    assert all(o is not None and o[:2] == ["next", "IOFailure"] for o in outcomes), outcomes
    assert len({o[2] for o in outcomes}) == 1, outcomes
    # Step 3 completed the failed window and is lost; step 2 stayed buffered and the close wrote it.
    s = lodex.open(work).series[name]
    assert s.steps == [0, 1, 2]
    assert np.array_equal(s.read(variable="T"), full("T", [0, 1, 2]))
    res = run_mpi(3, "async_grid_mpi.py", kind, work, timeout=120,
                  env={"LODEX_ASYNC_PATH": path})   # appends again: steps 3..5
    assert res["outcomes"] == [None, None, None]
    s = lodex.open(work).series[name]
    assert s.steps == list(range(6))
    assert np.array_equal(s.read(variable="T"), full("T", range(6)))


@pytest.mark.parametrize("kind", ["grid", "series"])
def test_a_writer_killed_while_a_step_is_pending_loses_that_step_only(grid_fault_base, tmp_path, kind):
    """Every rank killed (SIGKILL) at its first file write, which is in the pending step's helper
    thread: the dataset opens with the earlier steps intact and appends the lost ones again."""
    import grid_write_cases as gc
    from conftest import run_mpi_raw
    from series_data import full
    work = str(tmp_path / "d.lodex")
    shutil.copytree(grid_fault_base, work)
    rc, out, err, timed_out = run_mpi_raw(3, "async_grid_mpi.py", kind, work, timeout=120,
                                          env={"LODEX_FAULT": "write:1:kill"})
    assert rc != 0 and not timed_out and "outcomes" not in out, (rc, out[-2000:], err[-2000:])
    ds = lodex.open(work)
    if kind == "grid":
        assert ds.grids["multi"].steps == [0]
    else:
        assert ds.series["geos"].steps == [0, 1]   # the window (2, 3) was pending
    res = run_mpi(3, "async_grid_mpi.py", kind, work, timeout=120)
    assert res["outcomes"] == [None, None, None]
    ds = lodex.open(work)
    if kind == "grid":
        g = ds.grids["multi"]
        assert g.steps == [0, 1, 2]
        for field, want in gc.full_data("multi", 2).items():
            assert same_bits(g.read(2, field=field), want), field
    else:
        assert ds.series["geos"].steps == list(range(5))
        assert np.array_equal(ds.series["geos"].read(variable="T"), full("T", range(5)))
