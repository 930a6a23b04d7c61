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
    assert res["last_done"] is True
    a, s = digests(os.path.join(out, "async.lodex")), digests(os.path.join(out, "sync.lodex"))
    assert len(a) >= 12 and a == s
    g = lodex.open(os.path.join(out, "async.lodex")).particles("u")
    assert g.steps == list(range(6))
    for step in range(6):
        got, want = g.read(step), expected(n, step)
        o, w = np.argsort(got["id"]), np.argsort(want["id"])
        for k in UINTAH_SCHEMA:
            assert np.array_equal(got[k][o], want[k][w]), (step, k)


def test_serial_async_step_and_its_arguments(tmp_path):
    path = str(tmp_path / "s.lodex")
    ds = lodex.create(path)
    g = ds.particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)))
    d = {k: np.array(v) for k, v in uintah(0, 5000, ((0, 0, 0), (1, 1, 1))).items()}
    with pytest.raises(lodex.InvalidArgumentError, match="index= needs the step committed"):
        g.write(0, d, wait=False, index=["density"])
    p = g.write(0, d, wait=False)
    assert isinstance(p, lodex.PendingWrite) and p.step == 0
    assert g.steps == []
    for v in d.values():
        v[...] = -1
    prof = p.wait()
    assert g.steps == [0] and prof["step"] == 0 and prof["blocked_s"] > 0
    assert p.done() and p.wait()["step"] == 0   # waiting again is harmless
    # A bad step is refused at the call, like a synchronous one, and nothing is pending.
    with pytest.raises(lodex.AlreadyExistsError):
        g.write(0, d, wait=False)
    bad = dict(d)
    bad["position"] = bad["position"] + 5
    with pytest.raises(lodex.InvalidArgumentError, match="outside the domain"):
        g.write(1, bad, wait=False)
    g.write(1, {k: np.array(v) for k, v in uintah(1, 10, ((0, 0, 0), (1, 1, 1))).items()}, wait=False)
    ds.close()   # commits step 1
    assert lodex.open(path).particles("u").steps == [0, 1]


@pytest.fixture(scope="module")
def fault_base(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("afault") / "base.lodex")
    run_mpi(3, "async_mpi.py", "create", path, timeout=120)
    return path


@pytest.mark.parametrize("fault", ["write:1:ENOSPC:0", "write:1:EIO:1", "write:1:ENOSPC:2", "open:1:EIO:1", "rename:1:EIO:0"])
def test_a_failure_while_pending_is_raised_everywhere_and_loses_that_step_only(fault_base, tmp_path, fault):
    work = str(tmp_path / "d.lodex")
    shutil.copytree(fault_base, work)
    res = run_mpi(3, "async_mpi.py", "fault", work, timeout=120, env={"LODEX_FAULT": fault})
    outcomes = res["outcomes"]
    assert all(o is not None and o[0] == "IOFailure" for o in outcomes), outcomes
    assert len({o[1] for o in outcomes}) == 1, outcomes
    g = lodex.open(work).particles("u")
    assert g.steps == [0]
    got, want = g.read(0), expected(3, 0)
    assert np.array_equal(np.sort(got["id"]), np.sort(want["id"]))
    res = run_mpi(3, "async_mpi.py", "fault", work, timeout=120)   # the same step again, no fault
    assert res["outcomes"] == [None, None, None]
    g = lodex.open(work).particles("u")
    assert g.steps == [0, 1]
    got, want = g.read(1), expected(3, 1)
    assert np.array_equal(np.sort(got["id"]), np.sort(want["id"]))
