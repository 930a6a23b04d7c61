"""Two processes appending to one dataset at once (docs/reliability.md, "Writer lock"): the race
used by test_writer_lock.py (2 x 20 appends in make test) and, run as a script, by make stress
(`python tests/python/lock_race.py --appends 100`, 2 x 100 appends in each mode).

Each writer loops: open the dataset for append, write its step, close. A writer refused because
the other holds the lock is told so (AlreadyExistsError naming the holder's host and pid) and
tries again. Modes:

- "different": writer 0 writes the even steps, writer 1 the odd ones; every step must be there.
- "same": both write steps 0..n-1; the first to hold the lock commits a step, the other is told
  it is already committed; every step must be one writer's particles, whole.

Afterwards no step is lost and none is torn: the manifest lists exactly the steps committed,
each reads back bit-exactly as the one writer that reported committing it wrote it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time

import numpy as np

import lodex

GROUP = "p"
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
UNIT = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
DEADLINE_S = 120


def particles(writer: int, step: int) -> dict:
    """Writer `writer`'s particles of `step` (ids tell the writer and step apart)."""
    n = 40 + 3 * writer + step % 7
    rng = np.random.default_rng([writer, step])
    return {"position": rng.random((n, 3)) * 0.999, "energy": rng.random(n).astype(np.float32),
            "id": (step * 10 + writer) * 1000 + np.arange(n, dtype=np.int64)}


def steps_of(writer: int, mode: str, appends: int) -> list[int]:
    return list(range(appends)) if mode == "same" else [2 * i + writer for i in range(appends)]


def make_dataset(path: str) -> None:
    with lodex.create(path) as ds:
        ds.define_particles(GROUP, schema=SCHEMA, domain=UNIT, partition=(1, 1, 1))


def worker(path: str, writer: int, mode: str, appends: int, start_at: float) -> dict:
    """One writer's loop; what it committed and what it was told."""
    out = {"writer": writer, "pid": os.getpid(), "committed": [], "refused": 0, "refusals": [], "already": []}
    rng = random.Random(writer)
    time.sleep(max(0.0, start_at - time.time()))
    end = time.monotonic() + DEADLINE_S
    for step in steps_of(writer, mode, appends):
        while True:
            if time.monotonic() > end:
                raise SystemExit(f"writer {writer}: no lock within {DEADLINE_S} s")
            try:
                ds = lodex.open(path, mode="a")
            except lodex.AlreadyExistsError as e:   # the other writer holds the lock
                out["refused"] += 1
                if len(out["refusals"]) < 3:
                    out["refusals"].append(str(e))
                time.sleep(rng.random() * 0.002)
                continue
            try:
                ds.particles[GROUP].write(step=step, data=particles(writer, step))
                out["committed"].append(step)
            except lodex.AlreadyExistsError as e:   # "same": the other writer committed it first
                out["already"].append([step, str(e)])
            finally:
                ds.close()
            break
    return out


def race(path: str, mode: str, appends: int, timeout: float = DEADLINE_S + 60) -> list[dict]:
    """Creates the dataset and runs two writers at once; their reports."""
    make_dataset(path)
    start_at = time.time() + 1.0   # both interpreters started and lodex imported by then
    procs = [subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", path, str(w), mode,
                               str(appends), repr(start_at)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for w in (0, 1)]
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=timeout)
        assert p.returncode == 0, f"writer failed ({p.returncode}): {err[-3000:]}"
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def check(path: str, mode: str, appends: int, reports: list[dict]) -> dict:
    """No step lost, none torn, every refusal explained; a summary."""
    committed = {}
    for r in reports:
        for s in r["committed"]:
            assert s not in committed, f"step {s} reported committed by writers {committed[s]} and {r['writer']}"
            committed[s] = r["writer"]
        other = reports[1 - r["writer"]]["pid"]
        for msg in r["refusals"]:   # the loser is told who holds the lock
            assert "is open for writing" in msg and f"held by {socket.gethostname()}:{other} since" in msg, msg
        for s, msg in r["already"]:
            assert "already committed" in msg, msg
    wanted = sorted(set(steps_of(0, mode, appends)) | set(steps_of(1, mode, appends)))
    assert sorted(committed) == wanted, f"committed {sorted(committed)} != {wanted}"
    g = lodex.open(path).particles[GROUP]
    assert g.steps == wanted, f"lost: {sorted(set(wanted) - set(g.steps))}"
    for s in wanted:
        got, want = g.read(step=s), particles(committed[s], s)
        order = np.argsort(got["id"])
        for k in SCHEMA:
            assert np.array_equal(got[k][order], want[k]), f"step {s} field {k} is not writer {committed[s]}'s"
    assert not os.path.exists(os.path.join(path, "lodex.lock")), "the lock outlived both writers"
    return {"steps": len(wanted), "refused": [r["refused"] for r in reports],
            "already": [len(r["already"]) for r in reports]}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        path, writer, mode, appends, start_at = sys.argv[2:7]
        print(json.dumps(worker(path, int(writer), mode, int(appends), float(start_at))))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--appends", type=int, default=100, help="appends per writer (default 100)")
    ap.add_argument("--dir", default=None, help="where the datasets go (default a temporary folder)")
    args = ap.parse_args()
    import tempfile
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for mode in ("different", "same"):
            path = os.path.join(tmp, f"{mode}.lodex")
            t0 = time.monotonic()
            reports = race(path, mode, args.appends)
            summary = check(path, mode, args.appends, reports)
            print(f"{mode}: 2 x {args.appends} appends, {summary['steps']} steps, 0 lost, 0 torn; "
                  f"refusals {summary['refused']}, already committed {summary['already']}, "
                  f"{time.monotonic() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
