"""Restarts from a checkpoint: ``truncate(after=step)`` of particle groups, grids (both index
spaces), series and whole datasets (docs/writes.md, "Restarts").

- 10 steps written, truncated after 4, steps 5..9 written again with other values: every step
  reads back exactly (numpy; OpenVisus for the grids' IDX), at 1, 2 and 3 ranks;
- what must fail fails on every rank with nothing removed: a negative step, ranks disagreeing,
  a series window split, a dataset opened for reading, an argument that is no step;
- a truncate killed at each point of its run (the fault hook's kill) leaves the old or the new
  state, every listed step exact, and the dataset appends again.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys

import numpy as np
import pytest

import lodex
import truncate_mpi as tm
from conftest import run_mpi, script_path
from grid_checks import assert_same, reshape_like

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")
import OpenVisus as ov  # noqa: E402  (the reference implementation)

STEPS, AFTER = tm.STEPS, tm.AFTER


def run_of(step: int, rewritten: bool) -> int:
    return 1 if rewritten and step > AFTER else 0


def check_particles(g, step: int, run: int, size: int) -> None:
    got, want = g.read(step), tm.all_particles(run, step, size)
    o, w = np.argsort(got["id"]), np.argsort(want["id"])
    for f in tm.SCHEMA:
        assert np.array_equal(got[f][o], want[f][w]), (g.name, step, f)


def check_dataset(path: str, size: int, rewritten: bool, steps=range(STEPS)) -> None:
    """Every group lists `steps`, each read exactly (run 1 after AFTER when rewritten)."""
    ds = lodex.open(path)
    steps = list(steps)
    for name in ds.grids:
        g = ds.grids[name]
        assert g.steps == steps, name
        for s in steps:
            assert_same(g.read(s), tm.grid(run_of(s, rewritten), s, size), f"{name} step {s}")
    p, s_ = ds.particles["p"], ds.series["s"]
    assert p.steps == steps and s_.steps == steps
    for s in steps:
        check_particles(p, s, run_of(s, rewritten), size)
        assert_same(s_.read(s, variable="T"), tm.series(run_of(s, rewritten), s, size), f"series step {s}")


def check_openvisus(idx_path: str, steps: list[int], full) -> None:
    """OpenVisus opens the .idx, lists exactly `steps`, and reads each as full(step)."""
    db = ov.LoadDataset(idx_path)
    assert [int(t) for t in db.getTimesteps()] == steps
    for s in steps:
        want = full(s)
        assert_same(reshape_like(db.read(time=s, field=db.getField(db.getFields()[0])), want), want,
                    f"OpenVisus {idx_path} step {s}")


@pytest.mark.parametrize("n", [1, 2, 3])
def test_restart_from_a_checkpoint(tmp_path, n):
    path = str(tmp_path / "d.lodex")
    res = run_mpi(n, "truncate_mpi.py", path, timeout=240)
    names = ["p", "g", "s"] + (["gl"] if n == 2 else [])
    for r in res["ranks"]:   # every rank raised the same error, or got the same answer
        assert r["negative"]["error"] == "InvalidArgumentError" and "after=-2 is negative" in r["negative"]["message"]
        assert r["not_a_step"]["error"] == "InvalidArgumentError"
        assert "after must be a step" in r["not_a_step"]["message"]
        if n > 1:
            assert r["disagree"]["error"] == "InvalidArgumentError", r["disagree"]
            assert f"rank {n - 1} after=3" in r["disagree"]["message"]
        assert r["window_split"]["error"] == "InvalidArgumentError"
        assert "w-000000000005.lsw (steps 5..9, 5 steps)" in r["window_split"]["message"]
        assert "truncate after 4 (removing the window) or after 9 (keeping it)" in r["window_split"]["message"]
        assert r["dataset_window_split"]["error"] == "InvalidArgumentError"
        assert all(r["steps_after_errors"][k] == list(range(STEPS)) for k in names)   # nothing removed
        for k in names:
            assert r["removed"][k] == {"ok": list(range(AFTER + 1, STEPS))}, (k, r["removed"][k])
            assert r["steps_after_truncate"][k] == list(range(AFTER + 1))
            assert r["steps_rewritten"][k] == list(range(STEPS))
        assert r["again"] == {"ok": {k: [] for k in names}}
        assert r["before_was_old"] and all(r["same_objects_read_new"].values()), r["same_objects_read_new"]
        # The index of the steps kept stays; the rewritten steps have none (their files are new).
        assert r["indexes"] == {str(s): (["energy"] if s <= AFTER else []) for s in range(STEPS)}
    r0 = res["ranks"][0]
    assert r0["left_on_disk"] == [], r0["left_on_disk"]   # data, metadata, indexes, blocks, checksums, windows
    assert "(time)\n0 4 time_%06d/" in r0["idx_header"], r0["idx_header"]
    check_dataset(path, n, rewritten=True)
    ds = lodex.open(path)
    check_openvisus(ds.grids["g"].idx_path, list(range(STEPS)), lambda s: tm.grid(run_of(s, True), s, n))
    if n == 2:   # the local index space: one IDX dataset per partition, each with its box
        gl = ds.grids["gl"]
        assert len(gl.part_boxes) == 2
        for lo, hi, idx in gl.part_boxes:
            check_openvisus(idx, list(range(STEPS)), lambda s: tm.grid(run_of(s, True), s, n)[
                lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]])


def write_serial(path: str, run: int, steps, create: bool = True):
    ds = lodex.create(path) if create else lodex.open(path, "a")
    gs = tm.groups(ds, 1)
    for step in steps:
        tm.write_step(gs, run, step, 0, 1)
    ds.close()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> str:
    """10 steps of every group, serially (run 0)."""
    path = str(tmp_path_factory.mktemp("truncate") / "base.lodex")
    write_serial(path, 0, range(STEPS))
    return path


def test_dataset_truncate_every_step_and_append_again(base, tmp_path):
    path = str(tmp_path / "d.lodex")
    shutil.copytree(base, path)
    with pytest.raises(lodex.InvalidArgumentError, match="open for reading; open it with mode=\"a\" to truncate"):
        lodex.open(path).truncate(4)
    with pytest.raises(lodex.InvalidArgumentError, match="open for reading"):
        lodex.open(path).particles["p"].truncate(4)
    ds = lodex.open(path, "a")
    with pytest.raises(lodex.InvalidArgumentError, match="after must be a step"):
        ds.truncate(True)
    with pytest.raises(lodex.InvalidArgumentError, match="after=-5 is negative"):
        ds.series["s"].truncate(-5)
    assert ds.truncate(-1) == {"p": list(range(STEPS)), "g": list(range(STEPS)), "s": list(range(STEPS))}
    assert ds.particles["p"].steps == ds.grids["g"].steps == ds.series["s"].steps == []
    assert not os.path.exists(os.path.join(path, "g.idx"))   # no step: no header claims one
    assert sorted(os.listdir(os.path.join(path, "p"))) == [] and sorted(os.listdir(os.path.join(path, "s"))) == []
    ds.close()
    write_serial(path, 1, range(3), create=False)
    ds = lodex.open(path)
    assert ds.particles["p"].steps == [0, 1, 2]
    for s in range(3):
        check_particles(ds.particles["p"], s, 1, 1)
        assert_same(ds.grids["g"].read(s), tm.grid(1, s, 1), f"grid {s}")
        assert_same(ds.series["s"].read(s, variable="T"), tm.series(1, s, 1), f"series {s}")
    check_openvisus(ds.grids["g"].idx_path, [0, 1, 2], lambda s: tm.grid(1, s, 1))


def test_a_step_never_written_and_buffered_series_steps(base, tmp_path):
    """after need not be a step: the steps up to it stay. A series' buffered steps after it are
    dropped, those before it stay buffered and are flushed with the next window."""
    path = str(tmp_path / "d.lodex")
    shutil.copytree(base, path)
    ds = lodex.open(path, "a")
    gs = tm.groups(ds, 1)
    assert gs["g"].truncate(100) == []
    for step in (10, 11, 12):   # buffered: d_tar is 5
        gs["s"].write(step, ((0, 0, 0), tm.series_dims(1)), {"T": tm.series(0, step, 1)})
    assert gs["s"].buffered_steps == [10, 11, 12]
    assert gs["s"].truncate(11) == []   # nothing flushed goes; step 12 is dropped from the buffer
    assert gs["s"].buffered_steps == [10, 11]
    gs["s"].write(12, ((0, 0, 0), tm.series_dims(1)), {"T": tm.series(1, 12, 1)})
    gs["s"].flush()
    assert gs["s"].steps == list(range(13))
    assert_same(gs["s"].read(11, variable="T"), tm.series(0, 11, 1), "kept buffered step")
    assert_same(gs["s"].read(12, variable="T"), tm.series(1, 12, 1), "rewritten buffered step")
    assert gs["p"].truncate(6) == [7, 8, 9]   # a pending asynchronous step is completed first
    pending = gs["p"].write(step=7, data=tm.particles(1, 7, 0, 1), patch=((0, 0, 0), (1, 1, 1)), wait=False)
    assert pending is not None
    assert gs["p"].truncate(6) == [7]
    assert gs["p"].steps == list(range(7))
    ds.close()


def run_killed(path: str, fault: str, ranks: int = 1) -> subprocess.CompletedProcess:
    cmd = [sys.executable, script_path("truncate_kill.py"), path, str(AFTER)]
    if ranks > 1:
        cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", str(ranks)] + cmd
    env = {**os.environ, "LODEX_FAULT": fault}
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, start_new_session=True)


# Points of a serial truncate of every group after 4 (p, g, s; fsync off): open 2 and write 1 make
# the manifest's temporary, rename 1 replaces the manifest; then remove 1-5 are the particle steps,
# rename 2 replaces the grid's .idx, remove 6-15 are its time folders (blocks, checksums) and 16 the
# series window.
KILL_POINTS = ["open:2:kill", "write:1:kill", "rename:1:kill", "rename:2:kill", "remove:1:kill",
               "remove:4:kill", "remove:6:kill", "remove:11:kill", "remove:16:kill"]


@pytest.mark.parametrize("fault,ranks", [(f, 1) for f in KILL_POINTS] +
                         [("rename:1:kill:0", 2), ("remove:3:kill:0", 2)])
def test_killed_truncate_leaves_old_or_new_state(base, tmp_path, fault, ranks):
    path = str(tmp_path / "d.lodex")
    shutil.copytree(base, path)
    if ranks > 1:   # the base is serial; a 2-rank writer's groups are the same but for the files
        shutil.rmtree(path)
        run_mpi(2, "truncate_mpi.py", path, timeout=240)
        check_dataset(path, 2, rewritten=True)
    r = run_killed(path, fault, ranks)
    assert "done" not in r.stdout, f"{fault}: the truncate was not killed: {r.stdout} {r.stderr[-2000:]}"
    if ranks == 1:
        assert r.returncode == -signal.SIGKILL, (r.returncode, r.stderr[-2000:])
    ds = lodex.open(path)
    state = {name: ds.particles[name].steps if name == "p" else ds.grids[name].steps if name in ds.grids
             else ds.series[name].steps for name in ["p"] + list(ds.grids) + list(ds.series)}
    old, new = list(range(STEPS)), list(range(AFTER + 1))
    assert all(v == old for v in state.values()) or all(v == new for v in state.values()), (fault, state)
    steps = next(iter(state.values()))
    check_dataset(path, ranks, rewritten=ranks > 1, steps=steps)
    # The .idx holds at least the listed steps, and OpenVisus reads them.
    check_openvisus_subset(ds.grids["g"].idx_path, steps, lambda s: tm.grid(run_of(s, ranks > 1), s, ranks))
    # The dataset appends again. In the new state, steps 5..9 are written over whatever files of
    # theirs the killed truncate left; in the old one (and at 2 ranks) the truncate runs again
    # first, and removes every file of those steps, listed or not.
    if steps == old or ranks > 1:
        ds = lodex.open(path, "a")
        ds.truncate(AFTER)
        ds.close()
        assert left_after(path, AFTER) == [], fault
    if ranks == 1:
        write_serial(path, 1, range(AFTER + 1, STEPS), create=False)
        check_dataset(path, 1, rewritten=True)
        check_openvisus(lodex.open(path).grids["g"].idx_path, old, lambda s: tm.grid(run_of(s, True), s, 1))
        assert sorted(os.listdir(os.path.join(path, "p"))) == [f"step-{k:09d}" for k in range(STEPS)]
        assert sorted(os.listdir(os.path.join(path, "s"))) == ["w-000000000000.lsw", "w-000000000005.lsw"]
    assert not [f for f in os.listdir(path) if ".tmp-" in f]


def left_after(path: str, after: int) -> list[str]:
    """Files and folders of steps after `after` (step-, time_ and w- names end in the step)."""
    return sorted(os.path.relpath(os.path.join(d, f), path) for d, dirs, files in os.walk(path)
                  for f in dirs + files if any(f"{k:06d}" in f for k in range(after + 1, STEPS)))


def check_openvisus_subset(idx_path: str, steps: list[int], full) -> None:
    db = ov.LoadDataset(idx_path)
    listed = [int(t) for t in db.getTimesteps()]
    assert set(steps) <= set(listed), (steps, listed)
    for s in steps:
        want = full(s)
        assert_same(reshape_like(db.read(time=s, field=db.getField(db.getFields()[0])), want), want,
                    f"OpenVisus step {s}")
