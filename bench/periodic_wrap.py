"""What wrapping positions into a periodic domain costs a write (issue 34), on one process.

A step of N particles (position f8 x 3, energy f4) in a periodic unit box is written with every
particle inside, and with 3 % of them moved up to 0.01 outside (atoms between an MD code's
re-neighbourings), the two interleaved over the repetitions after one warm-up of each. From each
step's profile: the check phase (where the wrap runs) and the whole write. Medians with min and
max. The dataset lives in --dir (default /dev/shm: the CPU's cost, not the disk's).

    .venv/bin/python bench/periodic_wrap.py [--particles 1000000] [--repeats 11] [--dir D] [--out F]
Writes bench/results/periodic_wrap.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile

import numpy as np

import lodex
from bench_common import environment

HERE = os.path.dirname(os.path.abspath(__file__))


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--particles", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "periodic_wrap.json"))
    args = ap.parse_args()
    n = args.particles
    rng = np.random.default_rng(0)
    inside = rng.random((n, 3))
    outside = inside.copy()
    moved = rng.choice(n, n * 3 // 100, replace=False)
    outside[moved] += rng.uniform(-0.01, 0.01, (len(moved), 3))
    energy = rng.random(n, dtype=np.float32)
    work = tempfile.mkdtemp(dir=args.dir)
    env = environment(work)
    times = {case: {"check_ms": [], "write_ms": []} for case in ("inside", "outside")}
    try:
        ds = lodex.create(os.path.join(work, "wrap.lodex"))
        g = ds.define_particles("atoms", {"position": ("f8", 3), "energy": "f4"}, domain=((0, 0, 0), (1, 1, 1)),
                                periodic=True)
        step = 0
        for rep in range(args.repeats + 1):
            for case, pos in (("inside", inside), ("outside", outside)):
                g.write(step, data={"position": pos, "energy": energy})
                step += 1
                if rep == 0:
                    continue   # warm-up
                times[case]["check_ms"].append(g.profile["phases"]["check"]["max_s"] * 1e3)
                times[case]["write_ms"].append(g.profile["total_s"] * 1e3)
        ds.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {"particles": n, "outside_share": 0.03, "repeats": args.repeats, "dir": args.dir,
              "environment": env,
              "cases": {c: {k: summary(v) for k, v in t.items()} for c, t in times.items()}}
    for c, t in result["cases"].items():
        print(f"{c:8s} check {t['check_ms']['median']:7.2f} ms ({t['check_ms']['min']:.2f}-{t['check_ms']['max']:.2f})"
              f"   write {t['write_ms']['median']:7.2f} ms ({t['write_ms']['min']:.2f}-{t['write_ms']['max']:.2f})")
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
