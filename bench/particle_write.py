"""Particle write benchmark (issue 2): the Uintah workload (32,768 particles per rank, 124 bytes
each) at 1, 2, 4 and 8 ranks, partition factors (1,1,1), (1,1,2), (1,2,2), (2,2,2), with and
without fsync; in the same runs raw file per process, one MPI-IO shared file with the same
bytes, h5py and ADIOS2 BP5 one file (dataset) per rank. Also runs the reorder micro benchmark. Writes JSON to bench/results/particle_write.json.

    .venv/bin/python bench/particle_write.py [--ranks 1,2,4,8] [--repeats 7] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

from bench_common import MPIEXEC, environment, run_json

HERE = os.path.dirname(os.path.abspath(__file__))


def find_reorder_bench() -> str | None:
    """The Release build's binary (make build puts it in build/py; never the sanitizer build)."""
    hits = [p for p in glob.glob(os.path.join(HERE, "..", "build", "*", "bench", "reorder_bench"))
            if "asan" not in p]
    preferred = [p for p in hits if os.sep + "py" + os.sep in p]
    return (preferred or sorted(hits, key=os.path.getmtime) or [None])[-1]


def chart(runs: list, path: str) -> None:
    """Throughput of every method at every (ranks, partition), page cache and fsync (medians)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for run in runs for r in run["results"]]
    methods = ["lodex", "raw_fpp", "mpiio_shared", "mpiio_independent", "h5py_fpp", "adios2_fpp"]
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.5), sharey=True)
    for ax, fsync in zip(axes, (False, True)):
        sel = [r for r in rows if r["fsync"] == fsync]
        x = range(len(sel))
        for i, m in enumerate(methods):
            ax.bar([v + (i - 2.5) * 0.14 for v in x], [r["throughput_gib_s"].get(m, 0) for r in sel], width=0.14, label=m)
        ax.set_xticks(list(x), [f"{r['ranks']}r {tuple(r['partition'])}" for r in sel], rotation=30, fontsize=8)
        ax.set_title("fsync" if fsync else "page cache")
        ax.set_ylabel("GiB/s (median)")
    axes[0].legend(fontsize=8)
    fig.suptitle("Particle writes, Uintah 32,768 particles per rank")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", default="1,2,4,8")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--dir", default=None, help="where to write (default: a temp folder)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "particle_write.json"))
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-bench-")
    runs = []
    for n in [int(x) for x in args.ranks.split(",")]:
        cmd = [MPIEXEC, "-n", str(n), sys.executable, os.path.join(HERE, "particle_write_worker.py"),
               "--dir", work, "--particles", str(args.particles), "--repeats", str(args.repeats)]
        run = run_json(cmd, timeout=1800)
        runs.append(run)
        for r in run["results"]:
            print(f"{n} ranks  partition {tuple(r['partition'])}  {'fsync' if r['fsync'] else 'cache'}:  "
                  f"lodex {r['throughput_gib_s']['lodex']:.2f} GiB/s ({r['files']['lodex']} files)  "
                  f"shm {r['throughput_gib_s']['lodex_shm']:.2f}  "
                  f"raw fpp {r['throughput_gib_s']['raw_fpp']:.2f} GiB/s ({n} files)  "
                  f"mpiio {r['throughput_gib_s']['mpiio_shared']:.2f} / indep "
                  f"{r['throughput_gib_s']['mpiio_independent']:.2f} GiB/s  h5py {r['throughput_gib_s']['h5py_fpp']:.2f}  "
                  f"adios2 {r['throughput_gib_s']['adios2_fpp']:.2f}  "
                  f"lodex/raw {r['lodex_vs_raw_throughput']:.2f}", flush=True)
    floor = None
    if 8 in [int(x) for x in args.ranks.split(",")]:
        cmd = [MPIEXEC, "-n", "8", sys.executable, os.path.join(HERE, "write_floor_worker.py"), "--dir", work,
               "--particles", str(args.particles), "--repeats", str(max(args.repeats, 7))]
        floor = run_json(cmd, timeout=1800)
        fl = floor["floor"]
        print("floor at 8 ranks (ms, median): " + ", ".join(f"{k} {v['median_s'] * 1e3:.1f}" for k, v in fl.items()))
    reorder = []
    exe = find_reorder_bench()
    if exe:
        for n in (32768, 131072, 262144):
            reorder.append(json.loads(subprocess.run([exe, str(n), "51"], check=True, capture_output=True,
                                                     text=True).stdout))
            print(f"reorder {n} particles: median {reorder[-1]['median_total_ms']:.3f} ms "
                  f"(order {reorder[-1]['median_order_ms']:.3f}, gather {reorder[-1]['median_gather_ms']:.3f})")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "particle_write", "machine": {"cores": os.cpu_count()},
                   "environment": environment(work), "runs": runs, "reorder": reorder, "floor": floor}, f, indent=1)
    chart(runs, os.path.splitext(args.out)[0] + ".png")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
