"""Asynchronous writes in a simulation loop (issue 33): a compute kernel of fixed work sized to
about twice the step's blocking lodex write, then the write of the step, 20 steps, for lodex
(blocking, asynchronous with and without the copy), one shared MPI-IO file per step (blocking) and
ADIOS2 BP5 built with MPI (`make bench-peers`) with AsyncWrite off (its default) and on, plus the
compute alone. Every method runs as its own job (its own peak memory), methods interleaved within
each repetition; medians with min and max over repetitions.

Reported per method: the loop's time, the time blocked in I/O per step (median over steps of the
slowest rank), and the peak resident memory over what the rank held before the loop, per step
byte (resident memory, and the proportional set size sampled after each write, which counts the
node's shared window once over its ranks). Goals (from the issue): blocked per step <= 0.25 x MPI-IO's with
copy=False, <= 0.6 x with
the copy; loop <= compute + 0.3 x MPI-IO's write per step; blocked below ADIOS2's AsyncWrite;
peak extra memory <= 1.25 x the step (blocking), <= 2 x (asynchronous: the budget of one step in
flight plus the step).

Grid and series steps (`--kinds grid,series`): the same loop for a grid step (one f4 field, a
4 MiB z-slab per rank) and a series step (a GEOS-like series, windows of 4 steps), with lodex
blocking, lodex asynchronous (wait=False) and one shared MPI-IO file of the same bytes per step
(no ADIOS2 there). For a series only one step in 4 completes a window and writes files, so its
blocked time is compared as the mean per step (the median is the buffering of the other steps).
`--merge` keeps the runs of the JSON that this invocation does not redo (same kind and ranks).

    .venv/bin/python bench/async_write.py [--kinds particles,grid,series] [--ranks 2,8] [--repeats 5] \
        [--steps 20] [--merge]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

from bench_common import MPIEXEC, adios2_mpi_env, environment, run_json

HERE = os.path.dirname(os.path.abspath(__file__))
METHODS = ["compute", "lodex_sync", "lodex_async", "lodex_async_nocopy", "mpiio", "adios2", "adios2_async"]
KIND_METHODS = {"particles": METHODS, "grid": ["compute", "lodex_sync", "lodex_async", "mpiio"],
                "series": ["compute", "lodex_sync", "lodex_async", "mpiio"]}


def job(n: int, work: str, args: list[str], timeout: float = 900) -> dict:
    cmd = [MPIEXEC, "-n", str(n), sys.executable, os.path.join(HERE, "async_write_worker.py"), "--dir", work, *args]
    try:
        return run_json(cmd, timeout=timeout, env=adios2_mpi_env())
    finally:
        shutil.rmtree(os.path.join(work, f"job-np{n}"), ignore_errors=True)


def summarize(runs: list[dict]) -> dict:
    out = {}
    for key in ("loop_s", "blocked_per_step_s", "blocked_mean_per_step_s", "peak_extra_over_step_bytes",
                "peak_extra_pss_over_step_bytes"):
        vals = [r[key] for r in runs if key in r]
        if not vals:
            continue
        out[key] = {"median": statistics.median(vals), "min": min(vals), "max": max(vals)}
    return out


def goals(s: dict, steps: int) -> dict:
    med = {m: {k: v["median"] for k, v in s[m].items()} for m in s}
    mpiio = med["mpiio"]["blocked_per_step_s"]
    return {
        "blocked_nocopy_vs_mpiio": med["lodex_async_nocopy"]["blocked_per_step_s"] / mpiio,
        "blocked_copy_vs_mpiio": med["lodex_async"]["blocked_per_step_s"] / mpiio,
        "loop_over_compute_in_mpiio_writes":
            (med["lodex_async"]["loop_s"] - med["compute"]["loop_s"]) / (steps * mpiio),
        "blocked_copy_vs_adios2_async":
            med["lodex_async"]["blocked_per_step_s"] / med["adios2_async"]["blocked_per_step_s"],
        "met": {
            "blocked_nocopy_le_0.25_mpiio": med["lodex_async_nocopy"]["blocked_per_step_s"] <= 0.25 * mpiio,
            "blocked_copy_le_0.6_mpiio": med["lodex_async"]["blocked_per_step_s"] <= 0.6 * mpiio,
            "loop_le_compute_plus_0.3_mpiio":
                med["lodex_async"]["loop_s"] <= med["compute"]["loop_s"] + 0.3 * steps * mpiio,
            "blocked_below_adios2_async":
                med["lodex_async"]["blocked_per_step_s"] < med["adios2_async"]["blocked_per_step_s"],
            "memory_sync_le_1.25_step": med["lodex_sync"]["peak_extra_over_step_bytes"] <= 1.25,
            "memory_async_le_2_steps": max(med["lodex_async"]["peak_extra_over_step_bytes"],
                                           med["lodex_async_nocopy"]["peak_extra_over_step_bytes"]) <= 2.0,
            "pss_sync_le_1.25_step": med["lodex_sync"]["peak_extra_pss_over_step_bytes"] <= 1.25,
            "pss_async_le_2_steps": max(med["lodex_async"]["peak_extra_pss_over_step_bytes"],
                                        med["lodex_async_nocopy"]["peak_extra_pss_over_step_bytes"]) <= 2.0,
        },
    }


def goals_grid_series(s: dict, steps: int, kind: str) -> dict:
    """The issue's goals where they apply (no copy=False or ADIOS2 variant): blocked with the copy
    <= 0.6 x MPI-IO, loop <= compute + 0.3 x MPI-IO's writes, memory. Series: blocked as the mean
    per step (one step in 4 writes a window)."""
    key = "blocked_mean_per_step_s" if kind == "series" else "blocked_per_step_s"
    med = {m: {k: v["median"] for k, v in s[m].items()} for m in s}
    mpiio = med["mpiio"][key]
    return {
        "blocked_key": key,
        "blocked_async_vs_mpiio": med["lodex_async"][key] / mpiio,
        "blocked_sync_vs_mpiio": med["lodex_sync"][key] / mpiio,
        "loop_over_compute_in_mpiio_writes":
            (med["lodex_async"]["loop_s"] - med["compute"]["loop_s"]) / (steps * mpiio),
        "met": {
            "blocked_copy_le_0.6_mpiio": med["lodex_async"][key] <= 0.6 * mpiio,
            "loop_le_compute_plus_0.3_mpiio":
                med["lodex_async"]["loop_s"] <= med["compute"]["loop_s"] + 0.3 * steps * mpiio,
            "memory_sync_le_1.25_step": med["lodex_sync"]["peak_extra_over_step_bytes"] <= 1.25,
            "memory_async_le_2_steps": med["lodex_async"]["peak_extra_over_step_bytes"] <= 2.0,
            "pss_sync_le_1.25_step": med["lodex_sync"]["peak_extra_pss_over_step_bytes"] <= 1.25,
            "pss_async_le_2_steps": med["lodex_async"]["peak_extra_pss_over_step_bytes"] <= 2.0,
        },
    }


def chart(result: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [k for k in KIND_METHODS if any(r.get("kind", "particles") == k for r in result["runs"])]
    fig, axes = plt.subplots(len(kinds), 3, figsize=(15, 4.2 * len(kinds)), squeeze=False)
    for row, kind in enumerate(kinds):
        runs = [r for r in result["runs"] if r.get("kind", "particles") == kind]
        methods = KIND_METHODS[kind]
        blocked = "blocked_mean_per_step_s" if kind == "series" else "blocked_per_step_s"
        blocked_label = "blocked per step, ms" + (" (mean)" if kind == "series" else "")
        panels = [("loop_s", "loop time, s", 1), (blocked, blocked_label, 1e3),
                  ("peak_extra_pss_over_step_bytes", "peak extra PSS / step bytes", 1)]
        for col, (key, label, scale) in enumerate(panels):
            ax = axes[row][col]
            width = 0.8 / len(runs)
            for i, run in enumerate(runs):
                xs = [j + (i - (len(runs) - 1) / 2) * width for j in range(len(methods))]
                summ = run["summary"]
                med = [summ[m][key]["median"] * scale for m in methods]
                lo = [v - summ[m][key]["min"] * scale for v, m in zip(med, methods)]
                hi = [summ[m][key]["max"] * scale - v for v, m in zip(med, methods)]
                ax.bar(xs, med, width=width, yerr=[lo, hi], capsize=2,
                       label=f"{run['ranks']} ranks ({run.get('date', '')})")
            ax.set_xticks(range(len(methods)), methods, rotation=35, fontsize=8, ha="right")
            ax.set_ylabel(label)
            ax.set_title(f"{kind}", fontsize=9)
            ax.legend(fontsize=7)
    fig.suptitle(f"Simulation loop: compute (about 2x a blocking lodex write) + write, {result['steps']} steps "
                 "(medians over repetitions, min-max)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def run_kind(kind: str, n: int, work: str, args) -> dict:
    methods = KIND_METHODS[kind]
    common = ["--kind", kind, "--particles", str(args.particles)]
    cal = job(n, work, ["--calibrate", "--kernel-iters", "100", *common])
    iters = max(1, round(100 * 2 * cal["write_s"] / cal["kernel_s"]))
    print(f"{kind}, {n} ranks: blocking lodex write {cal['write_s'] * 1e3:.1f} ms, kernel of 100 iterations "
          f"{cal['kernel_s'] * 1e3:.1f} ms -> {iters} iterations", flush=True)
    raw = {m: [] for m in methods}
    for _ in range(args.repeats):
        for m in methods:
            raw[m].append(job(n, work, ["--method", m, "--steps", str(args.steps), "--kernel-iters", str(iters),
                                        *common]))
    summary = {m: summarize(v) for m, v in raw.items()}
    run = {"kind": kind, "ranks": n, "date": time.strftime("%Y-%m-%d %H:%M"), "loadavg_before": os.getloadavg(),
           "kernel_iters": iters, "calibration": cal, "summary": summary, "raw": raw,
           "goals": goals(summary, args.steps) if kind == "particles" else goals_grid_series(summary, args.steps, kind)}
    for m in methods:
        sm = summary[m]
        print(f"{kind} {n} ranks  {m:<20} loop {sm['loop_s']['median']:.3f} s  blocked/step "
              f"{sm['blocked_per_step_s']['median'] * 1e3:.2f} ms "
              f"(mean {sm['blocked_mean_per_step_s']['median'] * 1e3:.2f})"
              f"  peak extra RSS {sm['peak_extra_over_step_bytes']['median']:.2f} x step, PSS "
              f"{sm['peak_extra_pss_over_step_bytes']['median']:.2f} x", flush=True)
    print(f"{kind} {n} ranks  goals: {json.dumps(run['goals'])}", flush=True)
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinds", default="particles")
    ap.add_argument("--ranks", default="2,8")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--merge", action="store_true", help="keep the JSON's runs of other kinds and rank counts")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "async_write.json"))
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-async-")
    env = environment(work)
    result = {"benchmark": "async_write", "environment": env, "steps": args.steps, "runs": []}
    if args.merge and os.path.exists(args.out):
        with open(args.out) as f:
            old = json.load(f)
        result["earlier_environments"] = [old["environment"], *old.get("earlier_environments", [])]
        result["runs"] = old["runs"]
    for kind in args.kinds.split(","):
        for n in [int(x) for x in args.ranks.split(",")]:
            run = run_kind(kind, n, work, args)
            result["runs"] = [r for r in result["runs"]
                              if (r.get("kind", "particles"), r["ranks"]) != (kind, n)] + [run]
    env["loadavg_end"] = os.getloadavg()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    chart(result, os.path.splitext(args.out)[0] + ".png")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
