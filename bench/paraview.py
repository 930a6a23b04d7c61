"""ParaView's open-to-first-render time for one VPIC-like particle step (issues 22, 38): the lodex
reader plugin as opened with nothing set (its default, coarse level: about 10^5 particles), the
same with the plugin's lodex worker started by the first request ("firstread": the plugin before
it started the worker as it loads), at a given level and at a fraction, against ParaView's floor:
its own XML PolyData reader on a .vtp file of the very points and fields the default level
reads, and of one of them (what ParaView costs whatever the reader); optionally the full step
through the plugin and through ParaView's H5PartReader on an H5Part export (what a user without
the plugin would open). Goal (issue 38): open to first render <= 1 s at the default level on
10^7 particles.

One process writes a step of --particles VPIC-like particles (lodex.workloads.vpic, partition grid
4 x 4 x 2: 32 files) and exports it to H5Part; then every method runs --repeats times,
interleaved, each in a fresh `pvpython bench/paraview_worker.py` (ParaView 5.11, Mesa's
software OpenGL on an Xvfb display): the clock runs from creating the reader to the end of the
first Render() of the points coloured by energy, 800 x 600, along the path of ParaView's Apply
(update, Show, colour, camera reset, one render; paraview_worker.py), with the time of each
phase. The plugin is loaded (untimed) in every run, the .vtp ones included. The files are in the
page cache (written just before): warm reads. The machine's load average is recorded before
every run. Writes bench/results/paraview.json and paraview.png (--chart-only redraws it); medians
with min and max.

    .venv/bin/python bench/paraview.py [--particles 10000000] [--repeats 5] [--level 11]
        [--methods default,firstread,level,vtp,vtp1[,fraction,full,h5part]]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import environment, redraw  # noqa: E402

import lodex  # noqa: E402
from lodex.paraview import write_loader  # noqa: E402
from lodex.paraview.worker import default_level  # noqa: E402
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, vpic  # noqa: E402

WORKER = os.path.join(HERE, "paraview_worker.py")


def write(path: str, h5: str, n: int, export: bool) -> dict:
    t0 = time.perf_counter()
    data, _ = vpic(0, 1, n, seed=22)
    with lodex.create(path) as ds:
        g = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition_grid=(4, 4, 2))
        g.write(step=0, data=data)
    t1 = time.perf_counter()
    del data
    st = lodex.open(path).particles["electrons"].export(h5) if export else {"bytes": None}
    return {"write_s": t1 - t0, "export_s": time.perf_counter() - t1, "h5part_bytes": st["bytes"],
            "lodex_bytes": sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)}


def write_vtp(path: str, vtp: str, vtp1: str) -> int:
    """The points and fields of the default level's read as a .vtp file, and its first point as
    another (written by pvpython: VTK's XML writer); the default level."""
    g = lodex.open(path).particles["electrons"]
    level = default_level(g)
    npz = os.path.splitext(vtp)[0] + ".npz"
    import numpy as np
    np.savez(npz, **g.read(0, level=level))
    for out, n in ((vtp, -1), (vtp1, 1)):
        subprocess.run([shutil.which("pvpython"), WORKER, "write-vtp", npz, out, str(n)], check=True, timeout=300)
    os.remove(npz)
    return level


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """An Xvfb server and its display; Xvfb picks the number (-displayfd), so that, unlike
    `xvfb-run -a`, runs starting at the same time cannot race for one. -noreset: a server that
    resets when its last client leaves refuses a connection opened during the reset."""
    r, w = os.pipe()
    proc = subprocess.Popen([shutil.which("Xvfb"), "-displayfd", str(w), "-screen", "0", "1280x1024x24",
                             "-nolisten", "tcp", "-noreset"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        number = f.readline().strip().decode()
    if not number.isdigit():
        raise SystemExit(f"Xvfb did not start (exit code {proc.poll()})")
    return proc, f":{number}"


def run(method: str, path: str, value: str, loader: str, env: dict) -> dict:
    cmd = [shutil.which("pvpython"), WORKER, method, path, "0", value, loader]
    load = os.getloadavg()
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    if p.returncode != 0:
        sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
        raise SystemExit(f"{method} failed ({p.returncode})")
    out = json.loads([ln for ln in p.stdout.splitlines() if ln.startswith("{")][-1])
    out["process_s"] = time.perf_counter() - t0
    out["loadavg_before"] = load
    return out


def summarize(runs: list[dict]) -> dict:
    def mmm(key):
        v = [r[key] for r in runs]
        return {"median": statistics.median(v), "min": min(v), "max": max(v)}
    phases = {k: statistics.median(r["phases_s"][k] for r in runs) for k in runs[0]["phases_s"]}
    cpu = {k: statistics.median(r["cpu_s"][k] for r in runs) for k in runs[0]["cpu_s"]}
    return {"points": runs[0]["points"], "level": runs[0].get("level"), "open_to_render_s": mmm("open_to_render_s"),
            "open_to_data_s": mmm("open_to_data_s"), "phases_median_s": phases, "cpu_median_s": cpu,
            "process_s": mmm("process_s"), "load_plugin_s": mmm("load_plugin_s"),
            "loadavg_1min": [r["loadavg_before"][0] for r in runs],
            "stats": runs[0]["stats"]}


def chart(res: dict, png: str) -> None:
    """Left: open to first render on the clock (median, min-max), the goal's 1 s; right: the CPU
    seconds of the same span (ParaView's process and the plugin's lodex worker, medians)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(res["methods"])
    ms = [res["methods"][m] for m in names]
    med = [s["open_to_render_s"]["median"] for s in ms]
    lo = [med[i] - s["open_to_render_s"]["min"] for i, s in enumerate(ms)]
    hi = [s["open_to_render_s"]["max"] - med[i] for i, s in enumerate(ms)]
    labels = [textwrap.fill(m, 16) + f"\n{s['points']:,} point{'s' if s['points'] != 1 else ''}"
              for m, s in zip(names, ms)]
    x = list(range(len(names)))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 5))
    colors = ["#4c72b0", "#55a868", "#c44e52", "#8172b2", "#937860", "#8c8c8c", "#bbbbbb"]
    ax.bar(x, med, yerr=[lo, hi], capsize=4, color=colors[:len(names)])
    ax.axhline(1.0, color="k", lw=0.8, ls="--")
    ax.text(-0.45, 1.0, "goal 1 s", ha="left", va="bottom", fontsize=8)
    for i, v in enumerate(med):
        ax.text(i + 0.08, v, f" {v:.2f} s", ha="left", va="bottom", fontsize=8)
    ax.set_ylabel("open to first render (s): median, min-max")
    load = [v for s in ms for v in s["loadavg_1min"]]
    ax.set_title(f"clock (1-min load average {min(load):.1f}-{max(load):.1f} on 2 shared cores)", fontsize=10)
    if all("cpu_median_s" in s for s in ms):
        pv = [s["cpu_median_s"]["paraview"] for s in ms]
        lw = [s["cpu_median_s"]["lodex_worker"] for s in ms]
        bx.bar(x, pv, color=colors[:len(names)], label="ParaView's process (all threads)")
        bx.bar(x, lw, bottom=pv, color="#dd8452", label="the plugin's lodex worker")
        for i in x:
            bx.text(i, pv[i] + lw[i], f"{pv[i] + lw[i]:.2f} s", ha="center", va="bottom", fontsize=8)
        bx.set_ylabel("CPU seconds of the same span, median")
        bx.set_title("CPU time (what the load changes least)", fontsize=10)
        bx.set_ylim(0, 1.3 * max(p + w for p, w in zip(pv, lw)))
        bx.legend(fontsize=8, loc="upper left")
    for a in (ax, bx):
        a.set_xticks(x)
        a.set_xticklabels(labels, fontsize=8)
    fig.suptitle(f"ParaView 5.11, Mesa llvmpipe on Xvfb: one VPIC-like step of {res['config']['particles']:,} "
                 "particles", fontsize=11)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--particles", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--level", type=int, default=11, help="the coarse level (one reader: 32 * (2^(L+1) - 1) particles)")
    ap.add_argument("--fraction", type=float, default=0.01)
    ap.add_argument("--methods", default="default,firstread,level,vtp,vtp1",
                    help="which to run, of default,firstread,level,fraction,vtp,vtp1,full,h5part (full and h5part "
                         "read every particle: slow)")
    ap.add_argument("--dir", default=None, help="where to write the data (default: a temporary folder)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "paraview.json"))
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out's JSON, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        redraw(args.out, chart)
        return 0
    work = os.path.abspath(args.dir) if args.dir else tempfile.mkdtemp(prefix="lodex-pv-bench-")
    path, h5, loader, vtp, vtp1 = (os.path.join(work, n) for n in ("vpic.lodex", "vpic.h5part", "load_lodex.py",
                                                                  "default.vtp", "one.vtp"))
    res = {"benchmark": "paraview", "environment": environment(work),
           "config": {"particles": args.particles, "repeats": args.repeats, "level": args.level,
                      "fraction": args.fraction, "partition_grid": [4, 4, 2], "cache": "warm",
                      "view": [800, 600], "representation": "Points coloured by energy",
                      "path": "Apply: update, Show, colour, camera reset without render, one Render()"}}
    try:
        print(f"writing {args.particles:,} particles in {work} ...", flush=True)
        res["data"] = write(path, h5, args.particles, "h5part" in args.methods.split(","))
        write_loader(loader)
        chosen = args.methods.split(",")
        if "vtp" in chosen or "vtp1" in chosen:
            res["data"]["vtp_level"] = write_vtp(path, vtp, vtp1)
        xvfb, display = start_xvfb()
        env = dict(os.environ, LODEX_PYTHON=sys.executable, DISPLAY=display)
        methods = {"lodex default": ("default", path, "0"),
                   "lodex default, worker started at the first read": ("firstread", path, "0"),
                   f"lodex level {args.level}": ("level", path, str(args.level)),
                   f"lodex fraction {args.fraction:g}": ("fraction", path, str(args.fraction)),
                   "lodex full": ("full", path, "0"), "H5PartReader full": ("h5part", h5, "0"),
                   "VTP reader, same points": ("vtp", vtp, "0"), "VTP reader, 1 point": ("vtp1", vtp1, "0")}
        methods = {m: v for m, v in methods.items() if v[0] in chosen}
        runs = {m: [] for m in methods}
        for r in range(args.repeats):
            for m, (method, p, value) in methods.items():
                out = run("vtp" if method == "vtp1" else method, p, value, loader, env)
                runs[m].append(out)
                print(f"  {r + 1}/{args.repeats} {m:24} {out['points']:>11,} points  "
                      f"open->render {out['open_to_render_s']:7.3f} s  (data {out['open_to_data_s']:.3f} s)  "
                      f"load {out['loadavg_before'][0]:.2f}",
                      flush=True)
        res["runs"] = runs
        res["methods"] = {m: summarize(v) for m, v in runs.items()}
        if "lodex full" in res["methods"] and "H5PartReader full" in res["methods"]:
            full = res["methods"]["lodex full"]["open_to_render_s"]["median"]
            h5full = res["methods"]["H5PartReader full"]["open_to_render_s"]["median"]
            res["ratios"] = {m: {"vs_lodex_full": full / s["open_to_render_s"]["median"],
                                 "vs_h5part_full": h5full / s["open_to_render_s"]["median"]}
                             for m, s in res["methods"].items()}
        res["environment"]["loadavg_end"] = os.getloadavg()
        xvfb.terminate()
        xvfb.wait()
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    chart(res, os.path.splitext(args.out)[0] + ".png")
    print(json.dumps({m: round(s["open_to_render_s"]["median"], 3) for m, s in res["methods"].items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
