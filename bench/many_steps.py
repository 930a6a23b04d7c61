"""Per-step cost as a dataset grows: does a step cost more when the dataset already holds
thousands? One process writes STEPS steps of a small Uintah step (ROWS particles, 124 bytes
each), as a simulation that writes often does, three ways interleaved step by step:

- lodex: one dataset, one step per write (each commit rewrites the manifest, which lists every
  step; the step lists' text is kept between commits, so only the new step is encoded);
- ADIOS2 BP5 (PyPI's serial wheel, its default configuration): one engine kept open, a step per
  begin_step / put per field / end_step, as simulations use it;
- raw: a file per step (open, write the columns, close), the floor.

Each method's per-step time is taken per bucket of BUCKET steps (median, min, max over the
bucket's steps and the repetitions); the goal, lodex's last bucket at most 1.25x its first
(a flat per-step cost), and lodex's last bucket against ADIOS2's, are in the JSON. Page cache,
not fsync.

    .venv/bin/python bench/many_steps.py [--steps 3000] [--rows 1000] [--repeats 3] [--dir /tmp]
    .venv/bin/python bench/many_steps.py --chart-only     (the chart again from the saved JSON)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import adios2  # noqa: E402

import lodex  # noqa: E402
from bench_common import chart_path, environment, figure, redraw, spread  # noqa: E402
from lodex.workloads import UINTAH_SCHEMA, uintah  # noqa: E402

DOMAIN = ((0, 0, 0), (1, 1, 1))
METHODS = ["lodex", "adios2", "raw"]


def one_run(folder: str, steps: int, rows: int) -> dict[str, list[float]]:
    """Per-step seconds of each method, the methods taking turns at every step."""
    data = {k: np.ascontiguousarray(v) for k, v in uintah(0, rows, DOMAIN, seed=3).items()}
    times = {m: [] for m in METHODS}
    ds = lodex.create(os.path.join(folder, "run.lodex"))
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, partition=(1, 1, 1))
    stream = adios2.Stream(os.path.join(folder, "run.bp"), "w")
    raw_dir = os.path.join(folder, "raw")
    os.makedirs(raw_dir)
    try:
        for step in range(steps):
            t0 = time.perf_counter()
            g.write(step, DOMAIN, data)
            t1 = time.perf_counter()
            stream.begin_step()
            for k, a in data.items():
                stream.write(k, a, list(a.shape), [0] * a.ndim, list(a.shape))
            stream.end_step()
            t2 = time.perf_counter()
            with open(os.path.join(raw_dir, f"{step:08d}.bin"), "wb") as f:
                for a in data.values():
                    f.write(memoryview(a).cast("B"))
            t3 = time.perf_counter()
            times["lodex"].append(t1 - t0)
            times["adios2"].append(t2 - t1)
            times["raw"].append(t3 - t2)
    finally:
        stream.close()
        ds.close()
    return times


def buckets(runs: list[dict[str, list[float]]], bucket: int) -> dict[str, list[dict]]:
    out = {}
    for m in METHODS:
        per = []
        for b0 in range(0, len(runs[0][m]), bucket):
            values = [t for r in runs for t in r[m][b0:b0 + bucket]]
            med, lo, hi = spread(values)
            per.append({"first_step": b0, "median_s": med, "min_s": lo, "max_s": hi})
        out[m] = per
    return out


def chart(res: dict, path: str) -> None:
    fig, axes = figure(1, 1, (9, 4.8))
    ax = axes[0][0]
    for m in METHODS:
        b = res["buckets"][m]
        x = [r["first_step"] for r in b]
        ax.plot(x, [r["median_s"] * 1e3 for r in b], marker="o", label=m)
        ax.fill_between(x, [r["min_s"] * 1e3 for r in b], [r["max_s"] * 1e3 for r in b], alpha=0.15)
    ax.set_xlabel("steps already in the dataset")
    ax.set_ylabel("ms per step (median of the bucket; band: min-max)")
    ax.set_title(f"Per-step cost as the dataset grows ({res['rows']} Uintah particles per step, one process)")
    ax.set_yscale("log")
    ax.legend()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bucket", type=int, default=250)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "many_steps.json"))
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        return redraw(args.out, chart)
    runs = []
    for rep in range(args.repeats):
        folder = tempfile.mkdtemp(prefix="lodex-many-steps-", dir=args.dir)
        try:
            runs.append(one_run(folder, args.steps, args.rows))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"repetition {rep + 1}/{args.repeats} done", flush=True)
    res = {"benchmark": "many_steps", "steps": args.steps, "rows": args.rows, "repeats": args.repeats,
           "bucket": args.bucket, "environment": environment(args.dir or tempfile.gettempdir()),
           "buckets": buckets(runs, args.bucket)}
    first, last = (res["buckets"]["lodex"][i]["median_s"] for i in (0, -1))
    res["lodex_growth"] = last / first
    res["goal_flat"] = {"goal": "lodex's last bucket <= 1.25x its first", "met": last <= 1.25 * first}
    res["lodex_vs_adios2_last_bucket"] = res["buckets"]["adios2"][-1]["median_s"] / last
    for m in METHODS:
        b = res["buckets"][m]
        print(f"{m:7s} " + "  ".join(f"{r['first_step']}: {r['median_s'] * 1e3:.2f} ms" for r in b))
    print(f"lodex growth {res['lodex_growth']:.2f}x (goal <= 1.25: {'met' if res['goal_flat']['met'] else 'missed'}); "
          f"ADIOS2 / lodex at the last bucket {res['lodex_vs_adios2_last_bucket']:.2f}")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    chart(res, chart_path(args.out))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
