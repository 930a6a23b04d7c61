"""Particle write benchmark (issue 2): the Uintah workload (32,768 particles per rank, 124 bytes
each) at 1, 2, 4 and 8 ranks, partition factors (1,1,1), (1,1,2), (1,2,2), (2,2,2), with and
without fsync; in the same runs raw file per process, one MPI-IO shared file with the same
bytes, h5py and ADIOS2 BP5 one file (dataset) per rank. Also runs the reorder micro benchmark. Writes JSON to
bench/results/particle_write.json.

After lodex's job at each rank count (under the venv's MPICH), a second job at the same rank
count runs parallel HDF5 (Debian's h5py on libhdf5-openmpi, one shared file written
collectively) and raw file per process under Debian's OpenMPI (phdf5_write_worker.py), with the
same particles: the two stacks are compared through each one's ratio to raw file per process
under its own MPI, and the goal flag is lodex_vs_raw >= 3 x phdf5_vs_raw.

A third job at each rank count (adios2_mpi_write_worker.py) times ADIOS2 BP5 built with MPI against
the venv's MPICH (`make bench-peers` builds it once; --no-adios2-mpi skips it) in its default
configuration, interleaved with lodex's write and one shared MPI-IO file.

    .venv/bin/python bench/particle_write.py [--ranks 1,2,4,8] [--repeats 7] [--dir /tmp]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from bench_common import (DECOMPOSITION, MPIEXEC, adios2_mpi_env, debian_mpi_job, environment, find_bench_binary,
                          run_json)
from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

HERE = os.path.dirname(os.path.abspath(__file__))
PHDF5_GOAL = 3.0   # issue 19: lodex >= 3 x parallel HDF5 collective


def write_inputs(folder: str, ranks: int, particles: int) -> None:
    """rank-<r>.npz: the particles rank r writes in particle_write_worker.py (same generator,
    patch and seed), for the parallel HDF5 worker, which cannot import lodex."""
    os.makedirs(folder, exist_ok=True)
    for r in range(ranks):
        np.savez(os.path.join(folder, f"rank-{r}.npz"), **uintah(r, particles, patch_of(r, DECOMPOSITION[ranks])))


def phdf5_job(work: str, ranks: int, particles: int, repeats: int, keep: bool = False) -> dict:
    """One run of phdf5_write_worker.py on `ranks` ranks of Debian's OpenMPI (its result JSON)."""
    inputs = os.path.join(work, f"phdf5-inputs-np{ranks}")
    write_inputs(inputs, ranks, particles)
    args = ["--dir", work, "--inputs", inputs, "--schema", json.dumps(UINTAH_SCHEMA), "--repeats", str(repeats)]
    cmd, env = debian_mpi_job(ranks, os.path.join(HERE, "phdf5_write_worker.py"), args + (["--keep"] if keep else []))
    try:
        return run_json(cmd, timeout=1800, env=env)
    finally:
        shutil.rmtree(inputs, ignore_errors=True)


def phdf5_goal(lodex_row: dict, phdf5_row: dict) -> dict:
    """The cross-MPI comparison of one lodex result (a partition, fsync or not) with parallel HDF5
    at the same rank count and fsync: each method's speed relative to raw file per process under
    its own MPI (raw time / method time), their quotient, and the goal flag."""
    if (lodex_row["ranks"], lodex_row["fsync"]) != (phdf5_row["ranks"], phdf5_row["fsync"]):
        raise ValueError(f"lodex row {lodex_row['ranks']} ranks fsync={lodex_row['fsync']} compared with "
                         f"parallel HDF5 row {phdf5_row['ranks']} ranks fsync={phdf5_row['fsync']}")
    lodex_vs_raw = lodex_row["median_s"]["raw_fpp"] / lodex_row["median_s"]["lodex"]
    phdf5_vs_raw = phdf5_row["median_s"]["raw_fpp"] / phdf5_row["median_s"]["phdf5_collective"]
    return {"lodex_vs_raw": lodex_vs_raw, "phdf5_vs_raw": phdf5_vs_raw,
            "lodex_vs_phdf5": lodex_vs_raw / phdf5_vs_raw,
            "goal_lodex_ge_3x_phdf5": lodex_vs_raw >= PHDF5_GOAL * phdf5_vs_raw}


def attach_phdf5(run: dict, phdf5: dict) -> None:
    """Put the parallel HDF5 job into lodex's run at the same rank count, and the comparison into
    each of its results."""
    run["phdf5"] = phdf5
    by_fsync = {r["fsync"]: r for r in phdf5["results"]}
    for r in run["results"]:
        r["phdf5"] = phdf5_goal(r, by_fsync[r["fsync"]])


def chart(runs: list, path: str) -> None:
    """Top: throughput of every method at every (ranks, partition), page cache and fsync
    (medians). Bottom: lodex and parallel HDF5 as fractions of raw file per process under their
    own MPI, and the goal line at 3 x parallel HDF5's."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for run in runs for r in run["results"]]
    # ADIOS2 with MPI ran in its own job at the same rank count: its throughput joins each row.
    peer = {(a["ranks"], tuple(a["partition"]), a["fsync"]): max(a["throughput_gib_s"]["adios2_mpi"],
                                                                 a["throughput_gib_s"].get("adios2_mpi_open", 0))
            for run in runs for a in run.get("adios2_mpi", {}).get("results", [])}
    for r in rows:
        r["throughput_gib_s"].setdefault("adios2_mpi (own job)",
                                         peer.get((r["ranks"], tuple(r["partition"]), r["fsync"]), 0))
    methods = ["lodex", "lodex_p2p", "raw_fpp", "mpiio_shared", "mpiio_independent", "h5py_fpp", "adios2_fpp",
               "adios2_mpi (own job)"]
    fig, axes = plt.subplots(2, 2, figsize=(13, 8.5))
    axes[0][1].sharey(axes[0][0])
    for col, fsync in enumerate((False, True)):
        sel = [r for r in rows if r["fsync"] == fsync]
        x = list(range(len(sel)))
        labels = [f"{r['ranks']}r {tuple(r['partition'])}" for r in sel]
        ax = axes[0][col]
        for i, m in enumerate(methods):
            ax.bar([v + (i - (len(methods) - 1) / 2) * 0.12 for v in x], [r["throughput_gib_s"].get(m, 0) for r in sel],
                   width=0.12, label=m)
        ax.set_xticks(x, labels, rotation=30, fontsize=8)
        ax.set_title(("fsync" if fsync else "page cache") + ", MPICH (the venv's)")
        ax.set_ylabel("GiB/s (median)")
        ax = axes[1][col]
        ax.bar([v - 0.2 for v in x], [r["phdf5"]["lodex_vs_raw"] for r in sel], width=0.4, label="lodex / raw (MPICH)")
        ax.bar([v + 0.2 for v in x], [r["phdf5"]["phdf5_vs_raw"] for r in sel], width=0.4,
               label="parallel HDF5 collective / raw (OpenMPI)")
        ax.scatter(x, [PHDF5_GOAL * r["phdf5"]["phdf5_vs_raw"] for r in sel], marker="_", s=400, color="k",
                   zorder=3, label=f"goal: {PHDF5_GOAL:g} x parallel HDF5's")
        ax.set_xticks(x, labels, rotation=30, fontsize=8)
        ax.set_ylabel("raw file per process time / method time")
        ax.set_title("speed relative to raw file per process under the same MPI")
    axes[0][0].legend(fontsize=8)
    axes[1][0].legend(fontsize=8)
    fig.suptitle("Particle writes, Uintah 32,768 particles per rank")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def adios2_mpi_job(work: str, n: int, args) -> dict:
    """The ADIOS2-with-MPI job at n ranks (adios2_mpi_write_worker.py), its lines printed."""
    job = run_json([MPIEXEC, "-n", str(n), sys.executable, os.path.join(HERE, "adios2_mpi_write_worker.py"), "--dir",
                    work, "--particles", str(args.particles), "--repeats", str(args.repeats)],
                   timeout=1800, env=adios2_mpi_env())
    for a in job["results"]:
        print(f"{n} ranks  partition {tuple(a['partition'])}  {'fsync' if a['fsync'] else 'cache'}:  "
              f"lodex {a['median_s']['lodex'] * 1e3:.1f} ms  ADIOS2 BP5 with MPI, engine per step "
              f"{a['median_s']['adios2_mpi'] * 1e3:.1f} ms ({a['adios2_subfiles']} subfiles), engine kept open "
              f"{a['median_s']['adios2_mpi_open'] * 1e3:.1f} ms  MPI-IO {a['median_s']['mpiio_shared'] * 1e3:.1f} ms  "
              f"lodex vs the faster ADIOS2 {a['lodex_vs_adios2_mpi']:.2f}", flush=True)
    return job


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ranks", default="1,2,4,8")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--particles", type=int, default=32768)
    ap.add_argument("--dir", default=None, help="where to write (default: a temp folder)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "particle_write.json"))
    ap.add_argument("--no-adios2-mpi", action="store_true", help="skip the ADIOS2-with-MPI job (make bench-peers)")
    ap.add_argument("--only-adios2-mpi", action="store_true",
                    help="rerun only the ADIOS2-with-MPI jobs (self-contained: each interleaves lodex and MPI-IO) "
                         "into the existing --out JSON, and redraw its chart")
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-bench-")
    env = environment(work)
    if args.only_adios2_mpi:
        with open(args.out) as f:
            result = json.load(f)
        for run in result["runs"]:
            run["adios2_mpi"] = adios2_mpi_job(work, run["ranks"], args)
            run["adios2_mpi"]["environment"] = environment(work)
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
        chart(result["runs"], os.path.splitext(args.out)[0] + ".png")
        print(f"wrote {args.out}")
        return 0
    runs = []
    for n in [int(x) for x in args.ranks.split(",")]:
        cmd = [MPIEXEC, "-n", str(n), sys.executable, os.path.join(HERE, "particle_write_worker.py"),
               "--dir", work, "--particles", str(args.particles), "--repeats", str(args.repeats)]
        run = run_json(cmd, timeout=1800)
        run["_loadavg_end"] = os.getloadavg()
        attach_phdf5(run, phdf5_job(work, n, args.particles, args.repeats))
        run["phdf5"]["_loadavg_end"] = os.getloadavg()
        if not args.no_adios2_mpi:
            run["adios2_mpi"] = adios2_mpi_job(work, n, args)
        runs.append(run)
        for p in run["phdf5"]["results"]:
            print(f"{n} ranks  {'fsync' if p['fsync'] else 'cache'}, {run['phdf5']['mpi'].split(',')[0]}:  "
                  f"parallel HDF5 {p['median_s']['phdf5_collective'] * 1e3:.1f} ms  "
                  f"raw fpp {p['median_s']['raw_fpp'] * 1e3:.1f} ms  phdf5/raw {p['phdf5_vs_raw']:.2f}", flush=True)
        for r in run["results"]:
            print(f"{n} ranks  partition {tuple(r['partition'])}  {'fsync' if r['fsync'] else 'cache'}:  "
                  f"lodex {r['throughput_gib_s']['lodex']:.2f} GiB/s ({r['files']['lodex']} files)  "
                  f"p2p {r['throughput_gib_s']['lodex_p2p']:.2f}  "
                  f"raw fpp {r['throughput_gib_s']['raw_fpp']:.2f} GiB/s ({n} files)  "
                  f"mpiio {r['throughput_gib_s']['mpiio_shared']:.2f} / indep "
                  f"{r['throughput_gib_s']['mpiio_independent']:.2f} GiB/s  "
                  f"h5py {r['throughput_gib_s']['h5py_fpp']:.2f}  "
                  f"adios2 {r['throughput_gib_s']['adios2_fpp']:.2f}  "
                  f"lodex/raw {r['lodex_vs_raw_throughput']:.2f}  vs parallel HDF5 {r['phdf5']['lodex_vs_phdf5']:.2f} "
                  f"(goal {PHDF5_GOAL:g}: {'met' if r['phdf5']['goal_lodex_ge_3x_phdf5'] else 'missed'})", flush=True)
    floor = None
    if 8 in [int(x) for x in args.ranks.split(",")]:
        cmd = [MPIEXEC, "-n", "8", sys.executable, os.path.join(HERE, "write_floor_worker.py"), "--dir", work,
               "--particles", str(args.particles), "--repeats", str(max(args.repeats, 7))]
        floor = run_json(cmd, timeout=1800)
        fl = floor["floor"]
        print("floor at 8 ranks (ms, median): " + ", ".join(f"{k} {v['median_s'] * 1e3:.1f}" for k, v in fl.items()))
    reorder = []
    exe = find_bench_binary("reorder_bench")
    if exe:
        for n in (32768, 131072, 262144):
            reorder.append(json.loads(subprocess.run([exe, str(n), "51"], check=True, capture_output=True,
                                                     text=True).stdout))
            print(f"reorder {n} particles: median {reorder[-1]['median_total_ms']:.3f} ms "
                  f"(order {reorder[-1]['median_order_ms']:.3f}, gather {reorder[-1]['median_gather_ms']:.3f})")
    env["loadavg_end"] = os.getloadavg()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"benchmark": "particle_write", "machine": {"cores": os.cpu_count()},
                   "environment": env, "runs": runs, "reorder": reorder, "floor": floor}, f, indent=1)
    chart(runs, os.path.splitext(args.out)[0] + ".png")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
