"""Particle write benchmark (issue 2): the Uintah workload (32,768 particles per rank, 124 bytes
each) at 1, 2, 4 and 8 ranks, partition factors (1,1,1), (1,1,2), (1,2,2), (2,2,2), with and
without fsync; in the same runs raw file per process and one MPI-IO shared file with the same
bytes. Also runs the reorder micro benchmark. Writes JSON to bench/results/particle_write.json.

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
                  f"mpiio {r['throughput_gib_s']['mpiio_shared']:.2f} GiB/s  "
                  f"lodex/raw {r['lodex_vs_raw_throughput']:.2f}", flush=True)
    reorder = []
    exe = find_reorder_bench()
    if exe:
        for n in (32768, 131072):
            reorder.append(json.loads(subprocess.run([exe, str(n), "51"], check=True, capture_output=True,
                                                     text=True).stdout))
            print(f"reorder {n} particles: median {reorder[-1]['median_total_ms']:.3f} ms "
                  f"(order {reorder[-1]['median_order_ms']:.3f}, gather {reorder[-1]['median_gather_ms']:.3f})")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "particle_write", "machine": {"cores": os.cpu_count()},
                   "environment": environment(work), "runs": runs, "reorder": reorder}, f, indent=1)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
