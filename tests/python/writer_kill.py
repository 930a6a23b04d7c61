"""Writers killed with SIGKILL at random points (docs/reliability.md, "What a crash can cost"):
the kill cycle used by test_writer_kill.py (a few dozen kills in make test) and, run as a script,
by make stress (`python tests/python/writer_kill.py --kills 1000`).

A writer (mpi_scripts/kill_writer.py: a particle group, a grid and a series, 1 or 2 ranks) is
started, killed at a uniformly random time of its run, checked, and started again on the same
dataset, which appends where the dataset stands; until every step is written. After every kill:

- the dataset opens; every step the manifest lists (particles, grid, series) reads bit-exactly;
- every step whose write had returned before the kill is there (nothing committed is lost);
- leftovers of the killed write never show (nothing torn), and the next writer appends.

"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np

import lodex
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "mpi_scripts")]
import kill_writer as kw  # noqa: E402
from conftest import script_path  # noqa: E402

STEPS = 6


def launch(path: str, ranks: int) -> tuple[subprocess.Popen, list[str], threading.Thread]:
    cmd = [sys.executable, script_path("kill_writer.py"), path, str(STEPS)]
    if ranks > 1:
        cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", str(ranks)] + cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    return proc, lines, reader


def wait_for(lines: list[str], what: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while what + "\n" not in lines:
        if proc.poll() is not None and what + "\n" not in lines:
            time.sleep(0.05)
            if what + "\n" in lines:
                return
            raise AssertionError(f"writer exited ({proc.returncode}) before '{what}': {proc.stderr.read()[-3000:]}")
        if time.monotonic() > end:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError(f"writer did not print '{what}' within {timeout} s")
        time.sleep(0.001)   # the kill time is measured from here: see "ready" promptly


def check(path: str, ranks: int, committed: list[str]) -> dict[str, set[int]]:
    """Every listed step exact; every step reported committed listed. Returns the steps."""
    ds = lodex.open(path)
    p, g, s = ds.particles["p"], ds.grids["g"], ds.series["s"]
    for step in p.steps:
        got = p.read(step)
        want = [kw.particles(step, r, ranks) for r in range(ranks)]
        want = {f: np.concatenate([w[f] for w in want]) for f in kw.SCHEMA}
        o, w = np.argsort(got["id"]), np.argsort(want["id"])
        for f in kw.SCHEMA:
            assert np.array_equal(got[f][o], want[f][w]), (step, f)
    for step in g.steps:
        assert np.array_equal(g.read(step), kw.grid(step)), step
    for t in s.steps:
        assert np.array_equal(s.read(t, variable="T"), kw.series(t)), t
    have = {"p": set(p.steps), "g": set(g.steps), "s": set(s.steps)}
    for line in committed:
        if line.startswith("C "):
            _, kind, step = line.split()
            assert int(step) in have[kind], f"{line.strip()} was reported committed but is missing: {have}"
    return have


def kill_cycle(path: str, ranks: int, kills: int, run_seconds: float, rng: random.Random) -> dict:
    """Kills `kills` writers at random points; a writer that finishes starts a new dataset."""
    done = killed = checked_steps = 0
    while killed < kills:
        proc, lines, reader = launch(path, ranks)
        wait_for(lines, "ready", proc)
        time.sleep(rng.uniform(0, run_seconds))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        reader.join(5)
        have = check(path, ranks, list(lines))
        checked_steps += sum(len(v) for v in have.values())
        killed += "done\n" not in lines
        if "done\n" in lines or all(len(v) == STEPS for v in have.values()):
            done += 1
            os.rename(path, f"{path}.{done}")   # start over on a fresh dataset
    # The last dataset, finished by a writer that is not killed: append works after the kills.
    if os.path.exists(path):
        proc, lines, reader = launch(path, ranks)
        assert proc.wait(timeout=120) == 0, proc.stderr.read()[-3000:]
        reader.join(5)
        assert "done\n" in lines
        assert all(len(v) == STEPS for v in check(path, ranks, list(lines)).values())
    return {"kills": killed, "datasets_finished": done, "steps_checked": checked_steps}


def run_seconds(tmp: str, ranks: int) -> float:
    """How long a whole uninterrupted run takes after 'ready' (its dataset checked too)."""
    path = os.path.join(tmp, f"timing{ranks}.lodex")
    proc, lines, reader = launch(path, ranks)
    wait_for(lines, "ready", proc)
    t0 = time.monotonic()
    assert proc.wait(timeout=120) == 0, proc.stderr.read()[-3000:]
    seconds = time.monotonic() - t0
    reader.join(5)
    check(path, ranks, list(lines))
    return seconds


def main() -> None:
    import argparse
    import json
    import tempfile
    ap = argparse.ArgumentParser(description="Kill lodex writers at random points and check every dataset")
    ap.add_argument("--kills", type=int, default=1000, help="kills in all, split over 1 and 2 ranks")
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for ranks in (1, 2):
            t = run_seconds(tmp, ranks)
            t0 = time.monotonic()
            res = kill_cycle(os.path.join(tmp, f"d{ranks}.lodex"), ranks, args.kills // 2, t,
                             random.Random(args.seed + ranks))
            results[ranks] = {**res, "run_seconds": round(t, 3), "wall_seconds": round(time.monotonic() - t0, 1)}
            print(f"{ranks} rank(s): {results[ranks]}", flush=True)
    # Any lost or torn step fails a check (AssertionError, exit status 1) before this line.
    print(json.dumps({"writer_kills": results, "every_check_passed": True}))


if __name__ == "__main__":
    main()
