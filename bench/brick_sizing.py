"""Brick sizing (issue 20): bricks sized for the data (lod brick_target 0, the default) against
the former fixed 4,096 particles per brick, on one process.

For each particle count, a uniform step of (position f8 x 3, energy f4, id u8) particles is
written into 8 files (partition_grid (2, 2, 2)) with each rule, interleaved over repetitions, and
read: box reads of cubes of side 0.05, 0.1 and 0.25 of the domain at 30 seeded places (bytes read
over bytes returned, summed; the page cache is warm, bytes are what is compared) and level 2 and
level 5 reads (bytes read, seconds). Medians with min and max over the repetitions.

    .venv/bin/python bench/brick_sizing.py [--particles 100000,2000000] [--repeats 5] [--dir D] [--out F]
Writes bench/results/brick_sizing.json and bench/results/brick_sizing.png.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time

import numpy as np

import lodex
from bench_common import environment

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "u8"}
ROW = 36
RULES = {"data": 0, "fixed4096": 4096}
SIDES = (0.05, 0.1, 0.25)
LEVELS = (2, 5)


def measure(path: str, n: int, rule: str, data: dict) -> dict:
    shutil.rmtree(path, ignore_errors=True)
    t = time.perf_counter()
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2),
                                lod={"brick_target": RULES[rule]})
        g.write(0, data=data)
    out = {"write_s": time.perf_counter() - t}
    g = lodex.open(path).particles["p"]
    for level in LEVELS:
        t = time.perf_counter()
        got = g.read(0, level=level)
        out[f"level{level}_s"] = time.perf_counter() - t
        out[f"level{level}_bytes_read"] = g.last_read_stats["bytes_read"]
        out[f"level{level}_bytes_returned"] = len(got["id"]) * ROW
    rng = np.random.default_rng(9)
    for side in SIDES:
        read = returned = 0
        for _ in range(30):
            lo = rng.random(3) * (1 - side)
            got = g.read(0, box=(tuple(lo), tuple(lo + side)))
            read += g.last_read_stats["bytes_read"]
            returned += len(got["id"]) * ROW
        out[f"box{side}_ratio"] = read / returned
    out["bricks_per_file"] = [8 ** bits for bits in brick_bits(path)]
    return out


def brick_bits(path: str) -> list[int]:
    """b of each data file of step 0, from its header (u32 at byte 32)."""
    step = os.path.join(path, "p", "step-000000000")
    out = []
    for f in sorted(os.listdir(step)):
        if f.endswith(".lpd"):
            with open(os.path.join(step, f), "rb") as fh:
                fh.seek(32)
                out.append(int.from_bytes(fh.read(4), "little"))
    return out


def summary(values: list[float]) -> dict:
    return {"median": float(np.median(values)), "min": float(np.min(values)), "max": float(np.max(values))}


def chart(results: list[dict], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.38
    for k, r in enumerate(results):
        ax = axes[k]
        x = np.arange(len(SIDES) + len(LEVELS))
        for j, rule in enumerate(RULES):
            m = r["rules"][rule]
            vals = [m[f"box{s}_ratio"]["median"] for s in SIDES] + \
                   [m[f"level{lv}_bytes_read"]["median"] / m[f"level{lv}_bytes_returned"]["median"] for lv in LEVELS]
            ax.bar(x + (j - 0.5) * width, vals, width,
                   label="sized for the data" if rule == "data" else "4,096 per brick")
        ax.set_xticks(x, [f"box {s}" for s in SIDES] + [f"level {lv}" for lv in LEVELS])
        ax.set_yscale("log")
        ax.set_ylabel("bytes read / bytes returned")
        ax.set_title(f"{r['particles']:,} particles in 8 files")
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--particles", default="100000,2000000")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "brick_sizing.json"))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="lodex-bricks-", dir=args.dir)
    results = []
    try:
        for n in (int(v) for v in args.particles.split(",")):
            rng = np.random.default_rng(3)
            data = {"position": rng.random((n, 3)), "energy": rng.random(n).astype(np.float32),
                    "id": np.arange(n, dtype=np.uint64)}
            runs: dict[str, list[dict]] = {rule: [] for rule in RULES}
            for _ in range(args.repeats):
                for rule in RULES:   # interleaved
                    runs[rule].append(measure(os.path.join(work, f"{rule}.lodex"), n, rule, data))
            rules = {}
            for rule, rs in runs.items():
                keys = [k for k in rs[0] if k != "bricks_per_file"]
                rules[rule] = {k: summary([r[k] for r in rs]) for k in keys}
                rules[rule]["bricks_per_file"] = rs[0]["bricks_per_file"]
            results.append({"particles": n, "rules": rules})
            for rule, m in rules.items():
                print(f"{n:>10,} {rule:>9}: bricks/file {m['bricks_per_file'][0]:>4}, box ratios "
                      + ", ".join(f"{s}: {m[f'box{s}_ratio']['median']:.1f}" for s in SIDES)
                      + ", " + ", ".join(f"level {lv}: {m[f'level{lv}_bytes_read']['median']:,.0f} B "
                                         f"{m[f'level{lv}_s']['median'] * 1e3:.2f} ms" for lv in LEVELS)
                      + f", write {m['write_s']['median'] * 1e3:.0f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "brick_sizing", "environment": environment(args.dir or tempfile.gettempdir()),
                   "repeats": args.repeats, "results": results}, f, indent=1)
    chart(results, os.path.splitext(args.out)[0] + ".png")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
