"""Memory of particle writes (the file order is gathered through a ring of chunks, not a buffer of
the whole slice) and the budget of asynchronous steps in flight (``max_pending_bytes``), at 1, 2
and 3 ranks."""

from __future__ import annotations

import numpy as np
import pytest

import lodex
from conftest import LaunchCache, run_mpi
from lodex.workloads import UINTAH_SCHEMA, uintah

cached = LaunchCache()


# Measured before the ring (one buffer of the writer's whole slice) and the orders' release, per
# step byte, the largest rank: blocking anon 1.10 / 1.53 / 1.41 and PSS 1.16 / 2.62 / 2.59 at 1 / 2 / 3
# ranks; asynchronous PSS 2.25 (copy) at one rank and 2.63-2.99 at 2 and 3, anon without the copy
# 1.14 at one rank and 1.53-1.81 at 2 and 3. After: blocking anon <= 0.42, PSS 0.02 / 1.50 / 1.42;
# asynchronous PSS <= 1.51 at one rank, <= 2.17 at 2 and 3.
@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_blocking_write_holds_little_beyond_the_shared_window(tmp_path_factory, n):
    out = str(tmp_path_factory.mktemp(f"mem{n}"))
    res = run_mpi(n, "pending_budget_mpi.py", "memory", out, "sync", timeout=240)
    assert res["paths"] == (["p2p"] if n == 1 else ["node"])
    for r, worst in enumerate(res["per_rank"]):
        # Anonymous memory: the ring, the order while a step runs, the heads; the step's rows are in
        # the shared window (none at one rank: the rows are read where the caller has them).
        assert worst["anon"] <= (0.3 if n == 1 else 0.7), (r, worst)
        # Proportional set size: the window's share (its partition's rows over its ranks) and the rest.
        # (2 and 3 ranks measured 1.42-1.72 here; 2.59-2.62 before the ring and the orders' release.)
        # PSS also holds the shares of shared-library pages, which grow when other processes that
        # map them exit during the run (one rank measured 0.02 quiet, 0.35 beside a ctest run), so
        # the bound at one rank is loose here; test_step_memory.py bounds the private memory.
        assert worst["pss"] <= (0.6 if n == 1 else 2.0), (r, worst)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mode", ["async", "nocopy"])
def test_an_async_step_holds_about_one_more_step(tmp_path_factory, n, mode):
    out = str(tmp_path_factory.mktemp(f"amem{n}{mode}"))
    res = run_mpi(n, "pending_budget_mpi.py", "memory", out, mode, timeout=240)
    for r, worst in enumerate(res["per_rank"]):
        # One step in flight (the default): its copy (or none) and the order its helper is still using.
        assert worst["pss"] <= (2.0 if n == 1 else 2.4), (r, worst)
        if mode == "nocopy":
            # One rank measured 0.30-0.46 (a fresh clone), before the ring and the orders' release 1.14.
            assert worst["anon"] <= (0.6 if n == 1 else 1.25), (r, worst)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_budget_bounds_the_steps_in_flight_over_the_groups(tmp_path_factory, n):
    out = str(tmp_path_factory.mktemp(f"budget{n}"))
    res = cached(n, lambda: run_mpi(n, "pending_budget_mpi.py", "budget", out, timeout=240))
    sizes = res["sizes"]
    assert len(set(sizes)) == n   # every rank's step has another size
    # Without a budget every group keeps its step in flight.
    assert res["none"]["pending_bytes"] == [2 * s for s in sizes]
    assert res["none"]["a_steps"] == [] and res["none"]["b_steps"] == []
    # 2.5 steps of the largest rank: a and b fit; c completes a (the oldest) first; a's next step
    # then completes b; whatever a rank's own bytes, every rank completes the same steps.
    two = res["two"]
    assert [row["pending_bytes"] for row in two] == [[s for s in sizes], [2 * s for s in sizes],
                                                      [2 * s for s in sizes], [2 * s for s in sizes]]
    assert [row["steps"] for row in two] == [
        {"a": [], "b": [], "c": []},
        {"a": [], "b": [], "c": []},
        {"a": [0], "b": [], "c": []},
        {"a": [0], "b": [0], "c": []},
    ]
    # A budget below the last rank's step: that step is written within the call on every rank.
    small = res["small"]
    assert small["done"] == [True] * n and small["steps"] == [0] and small["pending_bytes"] == 0
    assert small["blocked_is_total"]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_budget_lets_a_group_keep_several_steps_in_flight(tmp_path_factory, n):
    """With a budget, a group's next asynchronous step does not wait for its pending ones: each
    takes buffers (and a node's window) of its own, up to the budget and at most four at once; a
    PendingWrite's wait commits its step and the ones before it; the files are those of blocking
    writes."""
    import lodex_testutil as tu
    out = str(tmp_path_factory.mktemp(f"inflight{n}"))
    res = run_mpi(n, "pending_budget_mpi.py", "inflight", out, timeout=240)
    step = res["rows"][0]["pending_bytes"]   # the largest rank's bytes of one step (3.5 of them fit)
    rows = [(r["after"], r["steps"], r["pending_bytes"] / step, r["pending_step"]) for r in res["rows"]]
    assert rows == [
        ("write 0", [], 1, 0),
        ("write 1", [], 2, 1),
        ("write 2", [], 3, 2),
        ("wait 1", [0, 1], 1, 2),
        ("write 3", [0, 1], 2, 3),
        ("write 4", [0, 1], 3, 4),
        ("write 5", [0, 1, 2], 3, 5),   # 4 would not fit: the oldest committed first
    ], rows
    assert res["done_0_1"] == [True] * n and res["committed_before_wait"] == []
    assert res["most_in_flight"] == 4 and res["many_steps_before_close"] == [0, 1, 2]
    got, want = tu.file_digests(f"{out}/async.lodex"), tu.file_digests(f"{out}/sync.lodex")
    assert len(want) >= 12 and got == want
    assert tu.file_digests(f"{out}/many.lodex").keys() >= {k for k in want if "step-000000006" not in k}
    for name in ("async", "many"):
        assert lodex.open(f"{out}/{name}.lodex").particles["u"].steps == list(range(6 if name == "async" else 7))


@pytest.mark.parametrize("n", [1, 2])
def test_a_failed_step_among_several_in_flight_loses_that_step_only(tmp_path, n):
    """Three steps in flight, one write of rank 0 failing (a full disk) in whichever step reaches it
    first: close raises that error on every rank after committing the other two; the dataset
    reopens with them and appends."""
    path = str(tmp_path / "f.lodex")
    res = run_mpi(n, "pending_budget_mpi.py", "inflight_fault", path, timeout=180,
                  env={"LODEX_FAULT": "write:4:ENOSPC:0"})
    outcomes = res["outcomes"]
    assert all(o[0] == "IOFailure" and "No space left" in o[1] for o in outcomes), outcomes
    assert len({o[1] for o in outcomes}) == 1, outcomes
    kept = res["steps_after_error"]
    assert len(kept) == 2 and set(kept) < {0, 1, 2}, kept
    assert res["steps_reopened"] == kept and res["steps_appended"] == kept + [5]


def test_the_budget_is_checked_and_a_zero_budget_writes_at_once(tmp_path):
    for bad in (-1, 1.5, "1", True):
        with pytest.raises(lodex.InvalidArgumentError, match="max_pending_bytes"):
            lodex.create(str(tmp_path / f"bad{bad!r}.lodex"), max_pending_bytes=bad)
    path = str(tmp_path / "zero.lodex")
    ds = lodex.create(path, max_pending_bytes=0)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)))
    d = {k: np.array(v) for k, v in uintah(0, 500, ((0, 0, 0), (1, 1, 1))).items()}
    p = g.write(0, None, d, wait=False)
    assert p.done() and g.steps == [0] and ds.pending_bytes == 0
    ds.close()
    ds = lodex.open(path, mode="a", max_pending_bytes=10 ** 9)
    g = ds.particles["u"]
    p = g.write(1, None, d, wait=False)
    assert ds.pending_bytes == sum(v.nbytes for v in d.values()) and g.steps == [0]
    p.wait()
    assert ds.pending_bytes == 0 and g.steps == [0, 1]
    ds.close()
    # Between one and two steps: a second group's write completes the first group's step first.
    step = sum(v.nbytes for v in d.values())
    ds = lodex.open(path, mode="a", max_pending_bytes=step + step // 2)
    a = ds.particles["u"]
    b = ds.define_particles("v", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)))   # defined first: a
    # definition commits the pending steps
    a.write(2, None, d, wait=False)
    assert ds.pending_bytes == step and a.steps == [0, 1]
    b.write(0, None, d, wait=False)
    assert a.steps == [0, 1, 2] and b.steps == [] and ds.pending_bytes == step
    ds.close()
    assert lodex.open(path).particles["v"].steps == [0]


def test_the_budget_spans_grids_and_series(tmp_path):
    path = str(tmp_path / "gs.lodex")
    field = np.arange(32 * 32 * 32, dtype="f4").reshape(32, 32, 32)   # 128 KiB
    v = np.ones((4, 32, 32), "f4")                                     # 16 KiB
    box, sbox = ((0, 0, 0), (32, 32, 32)), ((0, 0, 0), (32, 32, 4))
    ds = lodex.create(path, max_pending_bytes=field.nbytes + field.nbytes // 2)
    g = ds.define_grid("g", dims=(32, 32, 32), dtype="f4")
    h = ds.define_grid("h", dims=(32, 32, 32), dtype="f4")
    s = ds.define_series("s", dims=(32, 32, 4), variables={"v": ("f4", 3)}, d_tar=1, d_sar=0)
    g.write(0, box, field, wait=False)
    s.write(0, sbox, {"v": v}, wait=False)             # a window of one step: 144 KiB in flight
    assert ds.pending_bytes == field.nbytes + v.nbytes and g.steps == [] and s.steps == []
    h.write(0, box, field, wait=False)                 # 272 KiB would not fit: g's step commits first
    assert g.steps == [0] and s.steps == [] and h.steps == []
    assert ds.pending_bytes == v.nbytes + field.nbytes
    ds.close()
    ds = lodex.open(path)
    assert ds.grids["h"].steps == [0] and ds.series["s"].steps == [0]
    assert np.array_equal(ds.grids["g"].read(0), field)


@pytest.mark.parametrize("n", [2, 3])
def test_a_failed_step_completed_to_make_room_is_raised_everywhere_and_commits_nothing(tmp_path, n):
    path = str(tmp_path / "f.lodex")
    res = run_mpi(n, "pending_budget_mpi.py", "fault", path, timeout=180, env={"LODEX_FAULT": "write:1:ENOSPC:1"})
    outcomes = res["outcomes"]
    assert all(o[0] == "IOFailure" for o in outcomes), outcomes   # b's write raised a's error
    assert len({o[1] for o in outcomes}) == 1, outcomes
    assert res["pending_after"] == 0
    ds = lodex.open(path)
    assert ds.particles["a"].steps == [] and ds.particles["b"].steps == []   # b's step was not written


def test_ranks_must_agree_on_the_budget(tmp_path):
    # Only ranks with a budget would take part in its agreement: a rank without one would leave
    # the others waiting at the first asynchronous write. The create refuses it on every rank.
    res = run_mpi(2, "pending_budget_mpi.py", "differ", str(tmp_path / "d.lodex"), timeout=60)
    outcomes = res["outcomes"]
    assert all(o is not None and o[0] == "InvalidArgumentError" for o in outcomes), outcomes
    assert all("different options" in o[1] for o in outcomes), outcomes
