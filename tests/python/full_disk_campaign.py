"""The disk-full campaign (docs/reliability.md, "Stress campaigns"): run as a script by make stress
(`python tests/python/full_disk_campaign.py --trials 60`), a few trials in make test
(test_full_disk_campaign.py). Needs root (a small tmpfs per trial is the full disk).

Each trial mounts a tmpfs of a random size, and runs mpi_scripts/full_disk_trial.py on 1 or 2
ranks: a random kind (particle, grid or series steps of random sizes until the disk is full; or a
bitmap index build or a truncate on a disk filled up to a random few KiB), so the disk fills at
a different point of a step each time. Then it checks:

- every rank got IOFailure naming the problem ("No space left on device"), no other exception
  type, and no hang (each phase has a timeout);
- every step committed before reads back exactly what was written (compared with the data);
- the failed operation left nothing behind (the dataset's files are those before it; an empty
  folder it created is counted apart, `empty_dirs_left`);
- after space is freed (the tmpfs remounted bigger and the filler file removed), the dataset
  opens for append, the failed operation runs again, and every step then reads back exactly.

Prints a JSON summary (trials, kinds, failures seen, step checks, violations) and exits 1 on any
violation.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "mpi_scripts")]
import full_disk_trial as ft  # noqa: E402
import lodex  # noqa: E402
from conftest import parse_result, run_mpi_raw  # noqa: E402

KINDS = ("particles", "grid", "series", "index", "truncate")
NO_SPACE = "No space left on device"


@contextlib.contextmanager
def tmpfs(size_kib: int):
    mnt = tempfile.mkdtemp(prefix="lodex-fullc-")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", mnt], capture_output=True,
                       text=True)
    if r.returncode:
        os.rmdir(mnt)
        raise RuntimeError(f"cannot mount a small tmpfs ({r.stderr.strip()}); the campaign needs root")
    try:
        yield mnt
    finally:
        if subprocess.run(["umount", mnt], check=False).returncode == 0:
            os.rmdir(mnt)


def can_mount() -> bool:
    try:
        with tmpfs(64):
            return True
    except RuntimeError:
        return False


def free_space(mnt: str) -> None:
    """Room again: the tmpfs grown to 96 MiB and the filler file removed."""
    subprocess.run(["mount", "-o", "remount,size=96m", mnt], check=True)
    with contextlib.suppress(FileNotFoundError):
        os.remove(os.path.join(mnt, ft.FILLER))


def committed_indexes(path: str) -> set[str]:
    """The index files of the steps whose manifest record lists indexes: an index build commits
    step by step, so a build that fails keeps the steps it committed before."""
    with open(os.path.join(path, "manifest.json")) as fh:
        steps = json.load(fh)["groups"].get("p", {}).get("steps", [])
    out = set()
    for s in steps:
        if s.get("indexes"):
            d = os.path.join(path, s["directory"])
            out |= {os.path.join(s["directory"], f) for f in os.listdir(d) if f.endswith(".lbx")}
    return out


def phase(ranks: int, *args, timeout: float) -> tuple[dict | None, str]:
    rc, out, err, timed_out = run_mpi_raw(ranks, "full_disk_trial.py", *args, timeout=timeout)
    if timed_out:
        return None, f"timed out after {timeout} s (hang?): {err[-1500:]}"
    res = parse_result(out)
    if rc or res is None:
        return None, f"exit code {rc}, no result: {err[-1500:]}"
    return res, ""


class Checker:
    """Reads a trial's dataset back (serially) and compares with what the worker wrote."""

    def __init__(self, path: str, kind: str, seed: int, ranks: int):
        self.path, self.kind, self.seed, self.ranks = path, kind, seed, ranks
        self.p = ft.plan(seed, kind)
        self.checks = 0

    def want_particles(self, step: int) -> dict:
        parts = [ft.particles(self.seed, step, r, self.ranks, self.p["counts"][step]) for r in range(self.ranks)]
        return {f: np.concatenate([w[f] for w in parts]) for f in ft.SCHEMA}

    def check_step(self, ds, name: str, step: int) -> None:
        if name == "p":
            got, want = ds.particles["p"].read(step), self.want_particles(step)
            o, w = np.argsort(got["id"]), np.argsort(want["id"])
            for f in ft.SCHEMA:
                assert np.array_equal(got[f][o], want[f][w]), f"particles step {step} field {f} differs"
        elif name == "g":
            assert np.array_equal(ds.grids["g"].read(step),
                                  ft.grid(self.seed, step, self.p["grid"])), f"grid step {step}"
        else:
            got = ds.series["s"].read(step, variable="T")
            assert np.array_equal(got, ft.series(self.seed, step, self.p["series"])), f"series step {step}"
        self.checks += 1

    def check_index(self, ds, steps: list[int]) -> None:
        """Queries with the index answer as numpy does over the data (an index is used or noted)."""
        g = ds.particles["p"]
        for step in steps:
            e = self.want_particles(step)["energy"]
            for c in (0.25, 0.5):
                assert g.query(step, f"energy < {c}").count == int(np.count_nonzero(e < np.float32(c))), (step, c)
            self.checks += 1

    def listed(self, reported: dict, failed) -> dict:
        """The steps the dataset lists after the fill: every step a write returned for (a series
        may add buffered steps its close flushed), never the failed one, none missing between."""
        ds = lodex.open(self.path)
        out = {}
        for name, steps in reported.items():
            have = list({"p": ds.particles, "g": ds.grids, "s": ds.series}[name][name].steps)
            assert set(steps) <= set(have), f"{name}: steps {have} miss committed {steps}"
            assert failed not in have or self.kind in ("index", "truncate"), f"{name}: failed step {failed} listed"
            if self.kind != "truncate":
                assert have == list(range(len(have))), f"{name}: steps {have}"
            out[name] = have
        return out

    def check_all(self, steps: dict) -> None:
        ds = lodex.open(self.path)
        for name, listed in steps.items():
            have = {"p": ds.particles, "g": ds.grids, "s": ds.series}[name][name].steps
            assert list(have) == list(listed), f"{name}: steps {have}, expected {listed}"
            for step in listed:
                self.check_step(ds, name, step)
        if self.kind == "index":
            self.check_index(ds, steps["p"])


def expected_steps(kind: str, p: dict, failed, committed: dict, retried: bool) -> dict:
    """The steps the dataset must list: after the fill (committed) or after the retry."""
    if not retried:
        return committed
    if kind in ("particles", "grid", "series"):
        name = kind[0]
        return {name: list(range(int(failed) + 1))}
    if kind == "truncate":
        return {k: [s for s in range(p["base_steps"]) if s <= p["after"]] for k in committed}
    return committed


def run_trial(seed: int, kind: str, ranks: int, size_kib: int, timeout: float) -> dict:
    res = {"seed": seed, "kind": kind, "ranks": ranks, "tmpfs_kib": size_kib, "failure": False,
           "step_checks": 0, "violations": []}
    bad = res["violations"].append
    with tmpfs(size_kib) as mnt:
        path = os.path.join(mnt, "d.lodex")
        fill, why = phase(ranks, path, kind, seed, "fill", timeout=timeout)
        if fill is None:
            bad(f"fill: {why}")
            return res
        outs = fill["outs"]
        errors = [o["error"] for o in outs]
        failed = outs[0]["failed"]
        if all(e is None for e in errors):
            if kind in ("particles", "grid", "series"):
                bad(f"no write failed in {ft.MAX_STEPS} steps on {size_kib} KiB")
        elif errors != ["IOFailure"] * ranks or any(NO_SPACE not in o["message"] for o in outs):
            bad(f"errors {[(o['error'], o.get('message', '')[:200]) for o in outs]}")
            return res
        else:
            res["failure"] = True
            res["failed"] = failed
            if len({json.dumps(o["steps"], sort_keys=True) for o in outs}) != 1:
                bad(f"ranks list different steps: {[o['steps'] for o in outs]}")
            before, after = outs[0]["before"], set(outs[0]["after"]) - committed_indexes(path)
            empty = {d for d in after - set(before) if d.endswith("/") and not any(
                f.startswith(d) for f in after - {d})}
            res["empty_dirs_left"] = sorted(empty)   # counted apart: no bytes, no step
            after -= empty
            if set(before) != after:
                bad(f"the failed {failed} left files: added {sorted(set(after) - set(before))[:8]}, "
                    f"removed {sorted(set(before) - set(after))[:8]}")
        chk = Checker(path, kind, seed, ranks)
        try:
            committed = chk.listed(outs[0]["steps"], failed if res["failure"] else None)
            chk.check_all(committed)
        except (AssertionError, lodex.Error) as e:
            bad(f"after the fill: {type(e).__name__}: {e}")
            return res
        if not res["failure"]:
            res["step_checks"] = chk.checks
            return res
        free_space(mnt)
        retry, why = phase(ranks, path, kind, seed, "retry", str(failed), timeout=timeout)
        if retry is None:
            bad(f"retry after freeing space: {why}")
        else:
            try:
                chk.check_all(expected_steps(kind, chk.p, failed, committed, True))
            except (AssertionError, lodex.Error) as e:
                bad(f"after the retry: {type(e).__name__}: {e}")
        res["step_checks"] = chk.checks
    return res


def draw(rng: random.Random, i: int) -> tuple[str, int, int]:
    kind = KINDS[i % len(KINDS)] if i < 2 * len(KINDS) else rng.choice(KINDS)
    ranks = 1 + (i // len(KINDS)) % 2 if i < 2 * len(KINDS) else rng.choice((1, 2))
    size = rng.randint(1536, 6144) if kind in ("particles", "grid", "series") else 8192
    return kind, ranks, size


def campaign(trials: int, seed: int, timeout: float = 180, log=None) -> dict:
    rng = random.Random(seed)
    t0 = time.monotonic()
    summary = {"trials": 0, "kinds": {k: 0 for k in KINDS}, "ranks": {"1": 0, "2": 0}, "failures_seen": 0,
               "failures_by_kind": {k: 0 for k in KINDS}, "step_checks": 0, "empty_dirs_left": {}, "violations": 0,
               "violation_details": []}
    for i in range(trials):
        kind, ranks, size = draw(rng, i)
        r = run_trial(rng.randrange(2**31), kind, ranks, size, timeout)
        summary["trials"] += 1
        summary["kinds"][kind] += 1
        summary["ranks"][str(ranks)] += 1
        summary["failures_seen"] += r["failure"]
        summary["failures_by_kind"][kind] += r["failure"]
        summary["step_checks"] += r["step_checks"]
        for d in r.get("empty_dirs_left", []):
            summary["empty_dirs_left"][d] = summary["empty_dirs_left"].get(d, 0) + 1
        summary["violations"] += len(r["violations"])
        summary["violation_details"] += [{k: r[k] for k in ("seed", "kind", "ranks", "tmpfs_kib")} | {"what": v}
                                         for v in r["violations"]]
        if log:
            log(f"trial {i}: {kind} ranks={ranks} tmpfs={size}k failed_at={r.get('failed')} "
                f"checks={r['step_checks']} violations={r['violations']}")
    summary["seconds"] = round(time.monotonic() - t0, 1)
    summary["seed"] = seed
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--timeout", type=float, default=180, help="seconds per phase of a trial (a hang)")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    log = (lambda m: print(m, file=sys.stderr, flush=True)) if a.verbose else None
    s = campaign(a.trials, a.seed, a.timeout, log)
    print(json.dumps(s, indent=1))
    return 1 if s["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
