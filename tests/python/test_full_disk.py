"""A full file system: the failing step raises IOFailure on every rank, names the problem, leaves
no files behind, and earlier steps stay readable. Uses a 4 MiB tmpfs (needs root, as in CI)."""

from __future__ import annotations

import json
import os
import shutil

import numpy as np
import pytest

import lodex
from conftest import run_mpi, small_tmpfs
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah


@pytest.fixture
def small_fs():
    with small_tmpfs("4m", "lodex-full-") as mnt:
        yield mnt


def step_dirs(path: str, group: str) -> list[str]:
    return sorted(os.listdir(os.path.join(path, group)))


def test_full_disk_serial(small_fs):
    path = os.path.join(small_fs, "d.lodex")
    patch = ((0, 0, 0), (1, 1, 1))
    small = uintah(0, 2000, patch, step=0)
    with lodex.create(path) as ds:
        g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=patch)
        g.write(step=0, data=small)
        with pytest.raises(lodex.IOFailure, match="No space left on device"):
            g.write(step=1, data=uintah(0, 60000, patch, step=1))   # ~7 MiB
        assert g.steps == [0]
    assert step_dirs(path, "u") == ["step-000000000"]   # the failed step left nothing behind
    r = lodex.open(path).particles["u"]
    assert r.steps == [0]
    got = r.read(step=0)
    order = np.argsort(got["id"])
    assert np.array_equal(got["position"][order], small["position"])
    # The space is free again: a step that fits still commits.
    with lodex.open(path, mode="a") as ds:
        ds.particles["u"].write(step=2, data=uintah(0, 1000, patch, step=2))
    assert lodex.open(path).particles["u"].steps == [0, 2]


def test_full_disk_three_ranks(small_fs):
    path = os.path.join(small_fs, "d.lodex")
    res = run_mpi(3, "write_until_full.py", path, 1000, 20000, timeout=120)
    outs = res["outs"]
    assert [o["error"] for o in outs] == ["IOFailure"] * 3, outs
    assert len({o["message"] for o in outs}) == 1
    assert "No space left on device" in outs[0]["message"]
    assert all(o["steps"] == [0] for o in outs)
    assert step_dirs(path, "u") == ["step-000000000"]
    r = lodex.open(path).particles["u"]
    got = r.read(step=0)
    want = np.concatenate([uintah(q, 1000, patch_of(q, (3, 1, 1)), step=0)["id"] for q in range(3)])
    assert np.array_equal(np.sort(got["id"]), np.sort(want))


def grid_steps_on_disk(path: str) -> list[str]:
    return sorted(n for n in os.listdir(os.path.join(path, "g")) if n.startswith("time_"))


def test_full_disk_grid_leaves_no_partial_blocks(small_fs):
    """A grid step that fills the disk leaves none of its block files (they kept the space full),
    and earlier steps stay readable."""
    path = os.path.join(small_fs, "d.lodex")
    rng = np.random.default_rng(7)
    written = {}
    with lodex.create(path) as ds:
        g = ds.define_grid("g", dims=(64, 64, 64), dtype="f4")   # 1 MiB a step, random: nothing compresses
        with pytest.raises(lodex.IOFailure, match="No space left on device"):
            for step in range(8):
                data = rng.random((64, 64, 64), dtype=np.float32)
                g.write(step, box=((0, 0, 0), (64, 64, 64)), data=data)
                written[step] = data
        assert 1 <= len(written) < 8 and g.steps == sorted(written)
    # the failed step left nothing behind
    assert grid_steps_on_disk(path) == [f"time_{s:06d}" for s in sorted(written)]
    r = lodex.open(path).grids["g"]
    assert r.steps == sorted(written)
    for step, data in written.items():
        assert np.array_equal(r.read(step), data)


def test_reopen_for_append_removes_uncommitted_grid_steps(tmp_path):
    """A grid step's folder the manifest does not list (a write that failed or was killed before
    its commit) goes when the dataset is opened for append; a read-only open leaves it."""
    import shutil
    path = str(tmp_path / "d.lodex")
    data = np.arange(512, dtype=np.float32).reshape(8, 8, 8)
    with lodex.create(path) as ds:
        g = ds.define_grid("g", dims=(8, 8, 8), dtype="f4")
        for step in (0, 4):
            g.write(step, box=((0, 0, 0), (8, 8, 8)), data=data + step)
    g_dir = os.path.join(path, "g")
    for leftover in ("time_000002", "time_000007"):   # between committed steps and after the last
        shutil.copytree(os.path.join(g_dir, "time_000004"), os.path.join(g_dir, leftover))
    assert lodex.open(path).grids["g"].steps == [0, 4]
    assert grid_steps_on_disk(path) == ["time_000000", "time_000002", "time_000004", "time_000007"]
    with lodex.open(path, mode="a") as ds:
        assert grid_steps_on_disk(path) == ["time_000000", "time_000004"]
        ds.grids["g"].write(7, box=((0, 0, 0), (8, 8, 8)), data=data + 7)
    r = lodex.open(path).grids["g"]
    assert r.steps == [0, 4, 7]
    for step in (0, 4, 7):
        assert np.array_equal(r.read(step), data + step)


def test_failed_index_build_leaves_no_unlisted_index_files(small_fs):
    """An index build that fills the disk (while writing a step's index files or while committing
    them to the manifest) leaves no index file the manifest does not list: the disk filled up to
    every 4 KiB from 0 to 160 KiB free, so the failure falls in each phase of each step's build.
    Queries answer as before and the build succeeds once there is room."""
    filler = os.path.join(small_fs, "filler")
    patch = ((0, 0, 0), (1, 1, 1))
    failures = 0
    for leave in range(0, 160 * 1024, 4096):
        path = os.path.join(small_fs, "d.lodex")
        with lodex.create(path) as ds:
            g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=patch)
            for step in range(3):
                g.write(step=step, data=uintah(0, 3000, patch, step=step))
            st = os.statvfs(path)
            with open(filler, "wb") as fh:
                fh.write(b"\0" * max(0, st.f_bavail * st.f_frsize - leave))
            try:
                g.build_index(fields=["density"])
            except lodex.IOFailure as e:
                assert "No space left on device" in str(e)
                failures += 1
        manifest = json.load(open(os.path.join(path, "manifest.json")))
        listed = {s["directory"]: s["files"] * len(s.get("indexes", {})) for s in manifest["groups"]["u"]["steps"]}
        for d, n in listed.items():
            on_disk = [f for f in os.listdir(os.path.join(path, d)) if f.endswith(".lbx")]
            assert len(on_disk) == n, (leave, d, on_disk, n)
        os.remove(filler)
        shutil.rmtree(path)
    assert failures >= 5   # the build failed (writing an index, or committing it) at several fills
