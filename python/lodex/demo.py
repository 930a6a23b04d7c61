"""``make demo``: the paper's Uintah workload written by every rank of MPI.COMM_WORLD, two
steps, read back by one process and checked value by value.

Run: mpiexec -n 4 python -m lodex.demo [--output run.lodex] [--particles 32768]
         [--workload uintah|uniform|occupancy50|occupancy25|occupancy12|clustered|sheet]

The uneven workloads (paper §6) are written with the adaptive aggregation scheme (one file per
rank's worth of particles) and checked against the global draw particle by particle.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

import numpy as np


def _finish(comm, ok: bool, output: str, tmp: str | None) -> int:
    """Rank 0 shows `lodex info` and removes a temporary dataset; every rank returns rank 0's verdict."""
    if comm.rank == 0:
        print("\nlodex info:")
        from lodex.cli import main as cli_main
        cli_main(["info", output, "--files"])
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0 if comm.bcast(ok) else 1


def main(output: str | None = None, particles: int = 32768, partition=(2, 2, 1), steps: int = 2) -> int:
    from mpi4py import MPI

    import lodex
    from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = rank_grid(size)
    if any(g % p for g, p in zip(grid, partition)):
        partition = (1, 1, 1)
    tmp = None
    if output is None:
        tmp = comm.bcast(tempfile.mkdtemp(prefix="lodex-demo-") if rank == 0 else None)
        output = os.path.join(tmp, "run.lodex")
    patch = patch_of(rank, grid)
    profiles = []
    ds = lodex.create(output, comm=comm)
    g = ds.particles("uintah", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=partition)
    for step in range(steps):
        g.write(step=step, data=uintah(rank, particles, patch, step=step), patch=patch)
        profiles.append(g.profile)
    ds.close()
    comm.Barrier()

    ok = True
    if rank == 0:
        print(f"lodex {lodex.__version__} demo: {size} ranks ({grid[0]}x{grid[1]}x{grid[2]} patches), "
              f"{particles:,} particles per rank, partition factor {partition}, {steps} steps")
        print(f"dataset: {output}\n")
        print(f"{'step':>4} {'particles':>10} {'files':>5} {'MiB':>8} {'ms':>8} {'GiB/s':>7}  "
              + " ".join(f"{p[:10]:>10}" for p in lodex.WriteProfile.PHASES))
        for p in profiles:
            print(f"{p['step']:>4} {p['particles']:>10,} {p['files']:>5} {p['bytes'] / 2**20:>8.2f} "
                  f"{p['total_s'] * 1e3:>8.2f} {p.throughput / 2**30:>7.2f}  "
                  + " ".join(f"{p['phases'][ph]['max_s'] * 1e3:>10.3f}" for ph in lodex.WriteProfile.PHASES))
        print("(phase columns: slowest rank, ms)\n")

        # Read everything back with one process and no MPI, and compare every value.
        r = lodex.open(output).particles("uintah")
        for step in range(steps):
            got = r.read(step=step)
            stats = r.last_read_stats
            want = [uintah(q, particles, patch_of(q, grid), step=step) for q in range(size)]
            expect = {k: np.concatenate([w[k] for w in want]) for k in UINTAH_SCHEMA}
            order_got = np.argsort(got["id"], kind="stable")
            order_exp = np.argsort(expect["id"], kind="stable")
            step_ok = len(got["id"]) == size * particles and all(
                np.array_equal(got[k][order_got], expect[k][order_exp]) for k in UINTAH_SCHEMA)
            ok &= step_ok
            print(f"read step {step}: {len(got['id']):,} particles from {stats['files_opened']} files, "
                  f"{stats['bytes_read'] / 2**20:.2f} MiB read: "
                  f"{'every value matches' if step_ok else 'MISMATCH'}")
    return _finish(comm, ok, output, tmp)


def main_uneven(kind: str, output: str | None = None, particles: int = 32768, steps: int = 2) -> int:
    """An uneven workload (lodex.workloads.GENERATORS), ``particles`` per rank on average, written
    with partition="adaptive" and read back by one process."""
    from mpi4py import MPI

    import lodex
    from lodex.workloads import UNEVEN_SCHEMA, patch_of, rank_grid, uneven, uneven_rank

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = rank_grid(size)
    total = particles * size
    tmp = None
    if output is None:
        tmp = comm.bcast(tempfile.mkdtemp(prefix="lodex-demo-") if rank == 0 else None)
        output = os.path.join(tmp, "run.lodex")
    patch = patch_of(rank, grid)
    ds = lodex.create(output, comm=comm)
    g = ds.particles(kind, schema=UNEVEN_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition="adaptive",
                     particles_per_file=particles)
    mine = []
    for step in range(steps):
        data = uneven_rank(kind, total, patch, seed=step)
        mine.append(len(data["id"]))
        g.write(step=step, data=data, patch=patch)
    ds.close()
    loads = comm.gather(mine, root=0)
    ok = True
    if rank == 0:
        print(f"lodex {lodex.__version__} demo: workload '{kind}', {total:,} particles over {size} ranks "
              f"({grid[0]}x{grid[1]}x{grid[2]} patches), adaptive aggregation, {particles:,} particles per file")
        print(f"dataset: {output}\n")
        r = lodex.open(output).particles(kind)
        for step in range(steps):
            per_rank = [l[step] for l in loads]
            counts = [f["count"] for f in r.files(step)]
            print(f"step {step}: particles per writing rank {min(per_rank):,}..{max(per_rank):,}; "
                  f"per file {min(counts):,}..{max(counts):,} in {len(counts)} files "
                  f"(imbalance {max(counts) / (total / len(counts)):.3f})")
            got = r.read(step=step)
            pos = uneven(kind, total, seed=step)
            order = np.argsort(got["id"])
            step_ok = (len(got["id"]) == total
                       and np.array_equal(got["id"][order], np.arange(total, dtype=np.uint64))
                       and np.array_equal(got["position"][order], pos))
            ok &= step_ok
            print(f"read step {step}: {len(got['id']):,} particles from {r.last_read_stats['files_opened']} files: "
                  f"{'every value matches' if step_ok else 'MISMATCH'}")
    return _finish(comm, ok, output, tmp)


if __name__ == "__main__":
    from lodex.workloads import GENERATORS

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output")
    ap.add_argument("--particles", type=int, default=32768, help="per rank (on average for uneven workloads)")
    ap.add_argument("--workload", default="uintah", choices=("uintah",) + GENERATORS)
    a = ap.parse_args()
    if a.workload == "uintah":
        sys.exit(main(a.output, a.particles))
    sys.exit(main_uneven(a.workload, a.output, a.particles))
