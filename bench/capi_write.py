"""C API write benchmark (issue 18): does calling lodex through its C API cost anything next to
the Python API? The Uintah particle write (32,768 particles per rank) at 8 ranks, partition
(2,2,2), through both in the same runs, repetitions interleaved (see capi_write_worker.py).
The C API is the installed liblodex.so (make install into build/bench-prefix), called with
ctypes, so its figures include ctypes' own call cost: an upper bound of the C API's. A third
method, the C API's zero-copy input (lodex_particles_buffers), fills the buffers from the same
arrays (a copy a code computing into them skips; its time is reported as c_buffers_fill_s) and
commits them: with --partition 1,1,1 a partition's ranks share a node and the rows go straight
into the writers' shared window.

    .venv/bin/python bench/capi_write.py [--ranks 8] [--runs 7] [--repeats 9] [--dir /tmp]

Writes bench/results/capi_write.json and bench/results/capi_write.png.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench_common import MPIEXEC, environment, run_json

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def install(prefix: str) -> str:
    subprocess.run(["make", "-C", ROOT, "install", f"PREFIX={prefix}"], check=True, capture_output=True)
    return os.path.join(prefix, "lib", "liblodex.so")


def chart(runs: list[dict], path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    labels, data = [], []
    for i, r in enumerate(runs):
        for method, label in (("python", "Python API"), ("c", "C API"), ("c_buffers", "C buffers")):
            labels.append(f"run {i + 1}\n{label}")
            data.append([s * 1e3 for s in r["seconds"][method]["all"]])
    ax.boxplot(data, tick_labels=labels, showfliers=True)
    ax.set_ylabel("write of one step, ms (slowest rank, barriers)")
    r0 = runs[0]
    ax.set_title(f"Uintah write, {r0['ranks']} ranks, partition {tuple(r0['partition'])}, "
                 f"{r0['bytes_per_step'] / 2**20:.0f} MiB per step")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--partition", default="2,2,2")
    ap.add_argument("--dir", default=None, help="where to write (default: a temp folder)")
    ap.add_argument("--lib", default=None, help="a liblodex.so to use instead of installing one")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "capi_write.json"))
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-bench-")
    lib = args.lib or install(os.path.join(ROOT, "build", "bench-prefix"))
    runs = []
    for i in range(args.runs):
        cmd = [MPIEXEC, "-n", str(args.ranks), sys.executable, os.path.join(HERE, "capi_write_worker.py"),
               "--dir", work, "--lib", lib, "--particles", str(args.particles), "--repeats", str(args.repeats),
               "--partition", args.partition]
        r = run_json(cmd, timeout=1800)
        runs.append(r)
        s = r["seconds"]
        print(f"run {i + 1}: Python API median {s['python']['median'] * 1e3:.2f} ms "
              f"[{s['python']['min'] * 1e3:.2f}, {s['python']['max'] * 1e3:.2f}]   "
              f"C API {s['c']['median'] * 1e3:.2f} ms [{s['c']['min'] * 1e3:.2f}, {s['c']['max'] * 1e3:.2f}]   "
              f"C / Python {r['c_over_python_time']:.3f}   "
              f"buffers {s['c_buffers']['median'] * 1e3:.2f} ms (of which the fill "
              f"{r['c_buffers_fill_s']['median'] * 1e3:.2f} ms; ranks in a window {r['c_buffers_ranks_in_window']:.0f})"
              f"  buffers / C {r['c_buffers_over_c_time']:.3f}", flush=True)
    every = {m: [t for r in runs for t in r["seconds"][m]["all"]] for m in ("python", "c", "c_buffers")}
    pooled = {m: {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)} for m, v in every.items()}
    ratio = pooled["c"]["median"] / pooled["python"]["median"]
    # Each step's C write ran right next to the same step's Python write: their ratio cancels
    # most of the machine's drift between steps.
    paired = [c / p for c, p in zip(every["c"], every["python"])]
    paired_summary = {"median": statistics.median(paired), "min": min(paired), "max": max(paired),
                      "quartiles": statistics.quantiles(paired, n=4)}
    print(f"all runs: Python {pooled['python']['median'] * 1e3:.2f} ms, C {pooled['c']['median'] * 1e3:.2f} ms "
          f"(n = {pooled['c']['n']} each), C / Python {ratio:.3f}; paired per step: median "
          f"{paired_summary['median']:.3f}, quartiles {paired_summary['quartiles'][0]:.3f}-"
          f"{paired_summary['quartiles'][2]:.3f}")
    buffers_paired = [b / c for b, c in zip(every["c_buffers"], every["c"])]
    fills = [t for r in runs for t in r["c_buffers_fill_s"]["all"]]
    buffers_summary = {"median": statistics.median(buffers_paired), "min": min(buffers_paired),
                       "max": max(buffers_paired), "fill_median_s": statistics.median(fills)}
    print(f"buffers {pooled['c_buffers']['median'] * 1e3:.2f} ms (the fill "
          f"{buffers_summary['fill_median_s'] * 1e3:.2f} ms of it); buffers / C paired per step: "
          f"median {buffers_summary['median']:.3f}")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "capi_write", "environment": environment(work), "runs": runs,
                   "pooled_seconds": pooled, "c_over_python_median_time": ratio,
                   "c_over_python_paired": paired_summary, "c_buffers_over_c_paired": buffers_summary}, f, indent=1)
    png = os.path.splitext(args.out)[0] + ".png"
    chart(runs, png)
    print(f"wrote {args.out} and {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
