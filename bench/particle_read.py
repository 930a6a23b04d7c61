"""Particle read benchmarks (issue 3). The Uintah workload written by 8 ranks on a 2x2x2 patch
grid (--particles per rank), then:

  1. box queries of 1/8 of the domain (the centred box [0.25,0.75)^3, cutting all 8 files, and
     the octant [0,0.5)^3), all fields: lodex `read(0, box=B)` against "raw exact" (the box's
     particles stored contiguously, one raw file per field, read with exactly the needed bytes)
     and "fpp scan" (the same particles as 8 raw file-per-process files, read completely and
     filtered with numpy); page cache warm and cold (dropped before every timed read);
  2. the level-of-detail curve: `read(0, level=L)` for every level (readers=1, P=32, S=2), a
     full read, and `fraction=0.01` against the full read (warm; the fraction also cold);
  3. reader scaling: datasets of partition factor (1,1,1) (8 files) and (2,2,2) (1 file) read
     by 1, 2, 4 ranks: `read(0, comm=COMM_WORLD)` ("with metadata") against every rank reading
     every data file completely and keeping its sub-box with numpy ("without metadata").

Medians of interleaved repetitions (the order of the methods rotates from one repetition to the
next); every result is checked against numpy. Writes bench/results/particle_read.json.

    .venv/bin/python bench/particle_read.py                        # full size (see README)
    .venv/bin/python bench/particle_read.py --particles 20000      # quick check
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

from bench_common import MPIEXEC, chart_path, environment, figure, goal_marks, grouped_bars, redraw, run_json, spread

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "particle_read_worker.py")


def fmt_s(x) -> str:
    return "-" if x is None else (f"{x * 1e3:9.2f} ms" if x < 10 else f"{x:9.2f} s ")


def mib(x) -> str:
    return f"{x / 2**20:9.2f} MiB"


def summary(res: dict) -> None:
    print(f"\n== lodex particle reads: {res['config']['particles_per_rank']:,} particles/rank x 8 ranks, "
          f"{res['config']['repeats']} repetitions, {res['environment']['cpu_count']} cpus, "
          f"cold = {res.get('page_cache', {}).get('method', 'n/a')}")
    box = res.get("box")
    if box:
        print("\n-- 1. box query (all fields)")
        for bname, b in box.items():
            for mode, r in b["cache"].items():
                print(f"{bname:6} {mode}: {b['particles']:,} particles, {mib(b['bytes_returned'])} returned")
                for m in ("lodex", "raw_exact", "fpp_scan"):
                    print(f"    {m:10} {fmt_s(r['median_s'][m])}   read {mib(r['bytes_read'][m])}")
                g = r["goals"]
                print(f"    lodex/raw time {r['lodex_over_raw_time']:.2f} "
                      f"({'PASS' if g['time_le_1.3x_raw'] else 'FAIL'} <= 1.3)"
                      f"   scan/lodex time {r['scan_over_lodex_time']:.2f} "
                      f"({'PASS' if g['ge_5x_faster_than_scan'] else 'FAIL'} >= 5)"
                      f"   lodex read/returned {r['lodex_bytes_read_over_returned']:.3f} "
                      f"({'PASS' if g['bytes_read_le_1.25x_returned'] else 'FAIL'} <= 1.25)")
    lod = res.get("lod")
    if lod:
        print(f"\n-- 2. level of detail (readers={lod['readers']}, P={lod['P']}, S={lod['S']}, "
              f"{lod['levels']} levels), warm")
        print(f"    {'level':>5} {'particles':>11} {'median':>12} {'bytes read':>14}")
        for c in lod["curve"]:
            print(f"    {c['level']:>5} {c['particles']:>11,} {fmt_s(c['median_s']):>12} {mib(c['bytes_read']):>14}")
        full = lod["full"]
        print(f"    {'full':>5} {full['particles']:>11,} {fmt_s(full['median_s']):>12} {mib(full['bytes_read']):>14}")
        for mode, r in lod["cache"].items():
            print(f"    fraction {lod['fraction']['fraction']} {mode}: {fmt_s(r['fraction_s'])} "
                  f"vs full {fmt_s(r['full_s'])}: "
                  f"ratio {r['fraction_over_full_time']:.4f} "
                  f"({'PASS' if r['goal_fraction_le_3pct_of_full'] else 'FAIL'} <= 0.03)")
        print(f"    fraction/full bytes read: {lod['fraction_over_full_bytes_read']:.4f}")
    sc = res.get("scaling")
    if sc:
        print("\n-- 3. reader scaling (whole domain, slowest rank)")
        print(f"    {'dataset':14} {'files':>5} {'readers':>7} {'cache':>5} {'with metadata':>14} {'without':>14} "
              f"{'without/with':>12} {'read with':>14} {'read without':>14}")
        for run in sc:
            for r in run["results"]:
                for mode, c in r["cache"].items():
                    print(f"    {r['dataset']:14} {r['files']:>5} {r['readers']:>7} {mode:>5} "
                          f"{fmt_s(c['median_s']['with_metadata']):>14} {fmt_s(c['median_s']['without_metadata']):>14} "
                          f"{c['without_over_with_time']:>12.2f} {mib(c['bytes_read_total']['with_metadata']):>14} "
                          f"{mib(c['bytes_read_total']['without_metadata']):>14}")
    print(f"\ntotal {res['wall_s']:.1f} s")


RAW_GOAL, FRACTION_GOAL = 1.3, 0.03   # issue 3: a box read <= 1.3 x raw exact; a 1 % fraction <= 3 % of the full read


def chart(res: dict, path: str) -> None:
    """1. box queries, warm and cold: lodex, raw exact, fpp scan (medians, min-max) and lodex's
    goal per group; 2. the level-of-detail curve against the full read; 3. fraction vs full read,
    warm and cold, with the 3 % goal; 4. reader scaling with and without metadata."""
    fig, axes = figure(2, 2, (14, 9))
    ax = axes[0][0]
    box = res.get("box", {})
    groups = [(b, mode) for b in box for mode in box[b]["cache"]]
    grouped_bars(ax, [f"{b} box, {mode}" for b, mode in groups],
                 {m: [spread(box[b]["cache"][mode]["times_s"][m]) for b, mode in groups]
                  for m in ("lodex", "raw_exact", "fpp_scan")}, scale=1e3, log=True)
    goal_marks(ax, [RAW_GOAL * box[b]["cache"][mode]["median_s"]["raw_exact"] * 1e3 for b, mode in groups],
               f"goal: lodex <= {RAW_GOAL:g} x raw exact", 0, 3)
    ax.set_ylabel("ms (median, min-max)")
    ax.set_title("1/8-of-the-domain box, all fields", fontsize="medium")
    ax.legend(fontsize=8)
    lod = res.get("lod")
    if lod:
        ax = axes[0][1]
        runs = [spread(lod["times_s"][f"level_{c['level']}"]) for c in lod["curve"]]
        med, lo, hi = (1e3 * np.array(v) for v in zip(*runs))
        ax.errorbar([c["particles"] for c in lod["curve"]], med, yerr=[med - lo, hi - med], fmt="o-", ms=3,
                    capsize=2, label="read(0, level=L)")
        ax.axhline(lod["full"]["median_s"] * 1e3, color="C3", lw=1, label="full read")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("particles read")
        ax.set_ylabel("ms, warm (median, min-max)")
        ax.set_title(f"level of detail (readers={lod['readers']}, P={lod['P']}, S={lod['S']})", fontsize="medium")
        ax.legend(fontsize=8)
        ax = axes[1][0]
        temps = list(lod["cache"])
        runs = {"warm": {"fraction": lod["times_s"]["fraction"], "full": lod["times_s"]["full"]}}
        runs.update({t: lod["cache"][t]["times_s"] for t in temps if "times_s" in lod["cache"][t]})
        temps = [t for t in temps if t in runs]
        grouped_bars(ax, temps,
                     {f"fraction={lod['fraction']['fraction']:g}": [spread(runs[t]["fraction"]) for t in temps],
                                 "full read": [spread(runs[t]["full"]) for t in temps]}, scale=1e3, log=True)
        goal_marks(ax, [FRACTION_GOAL * lod["cache"][t]["full_s"] * 1e3 for t in temps],
                   f"goal: fraction <= {FRACTION_GOAL:.0%} of the full read", 0, 2)
        ax.set_ylabel("ms (median, min-max)")
        ax.set_title("a 1 % fraction against the full read", fontsize="medium")
        ax.legend(fontsize=8)
    ax = axes[1][1]
    rows = [(r, mode) for run in res.get("scaling", []) for r in run["results"] for mode in r["cache"]]
    grouped_bars(ax, [f"{r['dataset']} ({r['files']} files), {r['readers']} reader(s), {mode}" for r, mode in rows],
                 {label: [spread(r["cache"][mode]["times_s"][key]) for r, mode in rows]
                  for key, label in (("with_metadata", "lodex, with metadata"),
                                     ("without_metadata", "every file read whole + numpy"))}, scale=1e3)
    ax.set_ylabel("ms, slowest rank (median, min-max)")
    ax.set_title("the whole domain read by 1-4 ranks", fontsize="medium")
    ax.legend(fontsize=8)
    cfg = res["config"]
    fig.suptitle(f"Particle reads, Uintah workload, {cfg['particles_per_rank'] * cfg['writer_ranks']:,} particles "
                 f"({cfg['repeats']} interleaved repetitions; cold: {res.get('page_cache', {}).get('method', 'n/a')})")
    fig.savefig(path, dpi=100)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--particles", type=int, default=500_000, help="particles per writer rank (8 ranks)")
    ap.add_argument("--repeats", type=int, default=5, help="repetitions of the box and cold reads")
    ap.add_argument("--lod-repeats", type=int, default=None,
                    help="repetitions of the warm LOD curve (default --repeats)")
    ap.add_argument("--scaling-repeats", type=int, default=None, help="default --repeats")
    ap.add_argument("--readers", default="1,2,4", help="reader counts of benchmark 3")
    ap.add_argument("--fraction", type=float, default=0.01)
    ap.add_argument("--only", default="box,lod,scaling", help="which benchmarks")
    ap.add_argument("--cold-method", default="auto", choices=["auto", "drop_caches", "fadvise", "none"],
                    help="auto: drop_caches, else posix_fadvise(DONTNEED)")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-cache runs of benchmarks 1 and 2")
    ap.add_argument("--scaling-cold", action="store_true", help="also run benchmark 3 with a cold cache")
    ap.add_argument("--dir", default=None, help="where to write the data (default: a temp folder)")
    ap.add_argument("--keep", action="store_true", help="keep the data written")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "particle_read.json"))
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out's JSON, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        redraw(args.out, chart)
        return 0
    only = set(args.only.split(","))
    lod_repeats = args.lod_repeats or args.repeats
    scaling_repeats = args.scaling_repeats or args.repeats
    if min(args.repeats, lod_repeats, scaling_repeats) < 5:
        print("note: fewer than 5 repetitions; the issue asks for at least 5", file=sys.stderr)

    t_start = time.perf_counter()
    work = os.path.abspath(args.dir) if args.dir else tempfile.mkdtemp(prefix="lodex-read-bench-")
    os.makedirs(work, exist_ok=True)
    py = sys.executable
    a_path = os.path.join(work, "f111.lodex")
    b_path = os.path.join(work, "f222.lodex")
    fpp, raw = os.path.join(work, "fpp"), os.path.join(work, "raw_exact")
    for p in (a_path, b_path, fpp, raw):
        shutil.rmtree(p, ignore_errors=True)
    res = {"benchmark": "particle_read", "environment": environment(work),
           "config": {"particles_per_rank": args.particles, "writer_ranks": 8, "patch_grid": [2, 2, 2],
                      "repeats": args.repeats, "lod_repeats": lod_repeats, "scaling_repeats": scaling_repeats,
                      "readers": [int(x) for x in args.readers.split(",")], "fraction": args.fraction,
                      "cold_method_requested": args.cold_method, "cold": not args.no_cold,
                      "scaling_cold": args.scaling_cold, "only": sorted(only)},
           "writes": []}
    timeout = 3600
    try:
        if only & {"box", "lod"}:
            print(f"writing the (1,1,1) dataset{', fpp and raw exact files' if 'box' in only else ''} in {work} ...",
                  flush=True)
            baselines = ["--fpp", fpp, "--raw-exact", raw] if "box" in only else []
            res["writes"].append(run_json([MPIEXEC, "-n", "8", py, WORKER, "write", "--path", a_path, "--factor",
                                           "1,1,1",
                                           "--particles", str(args.particles)] + baselines, timeout))
            print("benchmarks 1 and 2 ...", flush=True)
            serial = run_json([py, WORKER, "serial", "--path", a_path, "--fpp", fpp, "--raw-exact", raw, "--scratch",
                               work,
                               "--bench", ",".join(sorted(only & {"box", "lod"})), "--repeats", str(args.repeats),
                               "--lod-repeats", str(lod_repeats), "--fraction", str(args.fraction),
                               "--cold-method", args.cold_method] + (["--no-cold"] if args.no_cold else []), timeout)
            res["page_cache"] = serial.pop("page_cache")
            res["serial"] = {k: serial[k] for k in ("particles", "files", "open_s", "_wall_s")}
            for k in ("box", "lod"):
                if k in serial:
                    res[k] = serial[k]
            # Only the lodex datasets are needed from here on (written files slow writes down here).
            shutil.rmtree(fpp, ignore_errors=True)
            shutil.rmtree(raw, ignore_errors=True)
        if "scaling" in only:
            if not os.path.isdir(a_path):
                print("writing the (1,1,1) dataset ...", flush=True)
                res["writes"].append(run_json([MPIEXEC, "-n", "8", py, WORKER, "write", "--path", a_path,
                                               "--factor", "1,1,1", "--particles", str(args.particles)], timeout))
            print("writing the (2,2,2) dataset ...", flush=True)
            res["writes"].append(run_json([MPIEXEC, "-n", "8", py, WORKER, "write", "--path", b_path,
                                           "--factor", "2,2,2", "--particles", str(args.particles)], timeout))
            cold_method = res.get("page_cache", {}).get("method", args.cold_method)
            res["scaling"] = []
            for n in res["config"]["readers"]:
                print(f"benchmark 3: {n} reader(s) ...", flush=True)
                cmd = [MPIEXEC, "-n", str(n), py, WORKER, "scaling", "--paths", a_path, b_path,
                       "--repeats", str(scaling_repeats), "--cold-method", cold_method]
                res["scaling"].append(run_json(cmd + (["--cold"] if args.scaling_cold else []), timeout))
    finally:
        if not args.keep:
            if args.dir:
                for p in (a_path, b_path, fpp, raw):
                    shutil.rmtree(p, ignore_errors=True)
            else:
                shutil.rmtree(work, ignore_errors=True)
    res["wall_s"] = time.perf_counter() - t_start
    res["environment"]["loadavg_end"] = os.getloadavg()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    summary(res)
    chart(res, chart_path(args.out))
    print(f"wrote {args.out} and its chart")
    return 0


if __name__ == "__main__":
    sys.exit(main())
