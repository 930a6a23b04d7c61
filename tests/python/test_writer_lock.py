"""The writer lock (docs/reliability.md, "Writer lock"): one process appends to a dataset at a
time, the second is refused naming the holder, stale locks of dead processes are taken over, and
a commit compare-and-swaps the manifest so a writer that bypassed the lock cannot drop a step."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import lodex
import lock_race
from conftest import run_mpi

LOCK = "lodex.lock"
HOLD = textwrap.dedent("""
    import sys, lodex
    ds = lodex.open(sys.argv[1], mode="a")
    print("ready", flush=True)
    how = sys.stdin.readline().strip()
    if how == "close":
        ds.close()
    elif how == "exit-open":   # a normal exit without closing: the lock goes at exit
        sys.exit(0)
    elif how == "hard-exit":   # no cleanup at all (as a crash)
        import os; os._exit(0)
""")


def make(path: str) -> None:
    lock_race.make_dataset(path)
    with lodex.open(path, mode="a") as ds:
        ds.particles["p"].write(step=0, data=lock_race.particles(0, 0))


def holder(path: str) -> subprocess.Popen:
    """A process of this host holding the writer lock of `path` until told how to let go."""
    p = subprocess.Popen([sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line == "ready\n", p.stderr.read()
    return p


def let_go(p: subprocess.Popen, how: str) -> None:
    p.stdin.write(how + "\n")
    p.stdin.flush()
    p.wait(timeout=30)


def lock_json(path: str) -> dict:
    with open(os.path.join(path, LOCK)) as fh:
        return json.load(fh)


@pytest.mark.parametrize("mode", ["different", "same"])
def test_two_racing_appenders_lose_nothing(tmp_path, mode):
    """2 processes x 20 appends (make stress: x 100): every step there, none torn, the loser told why."""
    path = str(tmp_path / "race.lodex")
    reports = lock_race.race(path, mode, 20, timeout=120)
    summary = lock_race.check(path, mode, 20, reports)
    assert summary["steps"] == (40 if mode == "different" else 20)
    if mode == "same":   # every step but one writer's is refused as committed
        assert sum(summary["already"]) == 20


def test_second_writer_refused_naming_the_holder(tmp_path):
    path = str(tmp_path / "d.lodex")
    make(path)
    p = holder(path)
    try:
        held = lock_json(path)
        assert held["host"] == socket.gethostname() and held["pid"] == p.pid
        assert held["lodex_version"] == lodex.__version__ and held["since"].endswith("Z")
        with pytest.raises(lodex.AlreadyExistsError,
                           match=rf"is open for writing .*held by {socket.gethostname()}:{p.pid} since 20"):
            lodex.open(path, mode="a")
        # Read-only opens never lock and never fail because of one.
        assert lodex.open(path).particles["p"].steps == [0]
        assert lock_json(path)["pid"] == p.pid
    finally:
        let_go(p, "close")
    assert not os.path.exists(os.path.join(path, LOCK))   # released on close
    with lodex.open(path, mode="a") as ds:
        assert lock_json(path)["pid"] == os.getpid()
        with pytest.raises(lodex.AlreadyExistsError, match="this process"):   # a second handle too
            lodex.open(path, mode="a")
        ds.particles["p"].write(step=1, data=lock_race.particles(0, 1))
    assert lodex.open(path).particles["p"].steps == [0, 1]


def test_lock_released_at_normal_exit(tmp_path):
    path = str(tmp_path / "d.lodex")
    make(path)
    p = holder(path)
    assert lock_json(path)["pid"] == p.pid
    let_go(p, "exit-open")
    assert p.returncode == 0
    assert not os.path.exists(os.path.join(path, LOCK))


@pytest.mark.parametrize("how", ["sigkill-zombie", "sigkill-reaped", "hard-exit"])
def test_stale_lock_of_a_dead_process_is_recovered(tmp_path, how):
    path = str(tmp_path / "d.lodex")
    make(path)
    p = holder(path)
    if how == "hard-exit":
        let_go(p, "hard-exit")
    else:
        os.kill(p.pid, signal.SIGKILL)
        if how == "sigkill-reaped":
            p.wait(timeout=30)
        else:   # killed but not yet waited for: a zombie, whose pid still answers kill(pid, 0)
            time.sleep(0.3)
    assert lock_json(path)["pid"] == p.pid   # left behind
    with lodex.open(path, mode="a") as ds:
        assert lock_json(path)["pid"] == os.getpid()
        ds.particles["p"].write(step=1, data=lock_race.particles(0, 1))
    p.wait(timeout=30)
    assert lodex.open(path).particles["p"].steps == [0, 1]


def test_reused_pid_is_stale_and_other_hosts_are_refused(tmp_path):
    path = str(tmp_path / "d.lodex")
    make(path)
    lock = os.path.join(path, LOCK)
    # A live pid of this host (our own parent) that started at another time: the pid was reused.
    with open(lock, "w") as fh:
        json.dump({"host": socket.gethostname(), "pid": os.getppid(), "start_ticks": 1, "since": "2020-01-01T00:00:00Z",
                   "lodex_version": "0.0.1"}, fh)
    with lodex.open(path, mode="a"):
        assert lock_json(path)["pid"] == os.getpid()
    # Another host's lock cannot be checked: refused, naming it and how to remove it.
    with open(lock, "w") as fh:
        json.dump({"host": "node-elsewhere", "pid": 4242, "start_ticks": 7, "since": "2026-01-02T03:04:05Z",
                   "lodex_version": "0.1.0"}, fh)
    for _ in range(2):
        with pytest.raises(lodex.AlreadyExistsError,
                           match=r"held by node-elsewhere:4242 since 2026-01-02T03:04:05Z .*lodex unlock"):
            lodex.open(path, mode="a")
    assert lodex.open(path).particles["p"].steps == [0]
    cli = [sys.executable, "-m", "lodex", "unlock", path]
    r = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "node-elsewhere:4242" in r.stderr and "--force" in r.stderr, r
    assert os.path.exists(lock)
    r = subprocess.run(cli + ["--force"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "removed the writer lock of node-elsewhere:4242" in r.stdout, r
    assert not os.path.exists(lock)
    r = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "no writer lock" in r.stdout, r
    with lodex.open(path, mode="a") as ds:
        ds.particles["p"].write(step=1, data=lock_race.particles(0, 1))


def test_commit_conflict_when_the_lock_was_bypassed(tmp_path):
    """Writer B opens after A's lock file was deleted: A commits first, B's commit is refused
    (typed, naming the conflict) and A's step stays."""
    path = str(tmp_path / "d.lodex")
    make(path)
    a = lodex.open(path, mode="a")
    os.remove(os.path.join(path, LOCK))   # bypassed by hand
    b = lodex.open(path, mode="a")
    assert lock_json(path)["pid"] == os.getpid()
    a.particles["p"].write(step=1, data=lock_race.particles(0, 1))
    with pytest.raises(lodex.AlreadyExistsError,
                       match=r"commit conflict .*manifest.json was replaced by another writer"):
        b.particles["p"].write(step=2, data=lock_race.particles(1, 2))
    assert b.particles["p"].steps == [0]   # B's view is unchanged, its step not committed
    assert sorted(os.listdir(os.path.join(path, "p"))) == ["step-000000000", "step-000000001"]
    a.close()
    assert os.path.exists(os.path.join(path, LOCK))   # A does not remove B's lock
    b.close()
    assert not os.path.exists(os.path.join(path, LOCK))
    g = lodex.open(path).particles["p"]
    assert g.steps == [0, 1]
    got = g.read(step=1)
    assert np.array_equal(np.sort(got["id"]), lock_race.particles(0, 1)["id"])


def test_lock_is_collective(tmp_path):
    """3 ranks: rank 0 takes the lock; refused, every rank raises the same error (none hangs)."""
    path = str(tmp_path / "d.lodex")
    lock_race.make_dataset(path)
    outs = run_mpi(3, "lock_mpi.py", path, 1, timeout=120)["outs"]
    assert [o["error"] for o in outs] == [None] * 3 and all(o["steps"] == [1] for o in outs), outs
    p = holder(path)
    try:
        outs = run_mpi(3, "lock_mpi.py", path, 2, timeout=120)["outs"]
    finally:
        let_go(p, "close")
    assert [o["error"] for o in outs] == ["AlreadyExistsError"] * 3, outs
    assert len({o["message"] for o in outs}) == 1 and f"held by {socket.gethostname()}:{p.pid}" in outs[0]["message"]
    outs = run_mpi(3, "lock_mpi.py", path, 2, timeout=120)["outs"]
    assert [o["error"] for o in outs] == [None] * 3 and all(o["steps"] == [1, 2] for o in outs), outs
