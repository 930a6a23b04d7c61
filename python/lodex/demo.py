"""``make demo``: the paper's Uintah workload written by every rank of MPI.COMM_WORLD, two
steps, read back by one process and checked value by value.

Run: mpiexec -n 4 python -m lodex.demo [--output run.lodex] [--particles 32768]
         [--workload uintah|vpic|uniform|occupancy50|occupancy25|occupancy12|clustered|sheet]

``--workload vpic`` (the second half of ``make demo``): VPIC-like electrons, bitmap indexes built
by every rank, the question "energy above a threshold near the current sheet" answered by the
ranks together and by one process, each checked against numpy; then an H5Part export read back
with h5py.

``--workload geos`` (the third part): a GEOS-5-like series (144 x 91 x 48 grid, 3-D and 2-D
variables) written every step by every rank, each its box of a 2-D decomposition, with temporal
and spatial aggregation (Tian et al. 2013, STAR); then a time series, a plane across every step and a
surface field read by one process and checked against numpy.

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

import lodex

from ._collective import agreed
from .dataset import open as open_dataset
from .summary import describe, print_description


def _output(comm, output: str | None) -> tuple[str, str | None]:
    """The dataset path, and the temporary folder holding it when none was given (rank 0 makes it)."""
    if output is not None:
        return output, None
    tmp = agreed(comm, lambda: tempfile.mkdtemp(prefix="lodex-demo-"), root=0)   # rank 0's, or its error everywhere
    return os.path.join(tmp, "run.lodex"), tmp


def _pictures(output: str, pictures: tuple) -> None:
    """Pictures of a kept dataset beside it (lodex.plot, needs matplotlib): ``pictures`` holds
    (file name, function of lodex.plot and the opened dataset returning a figure); says where."""
    try:
        import lodex.plot as lp
    except ImportError:
        print("\npictures skipped: matplotlib is not installed (pip install lodex[plot])")
        return
    ds = lodex.open(output)
    folder = os.path.dirname(os.path.abspath(output))
    written = []
    for name, make in pictures:
        lp.save(make(lp, ds), os.path.join(folder, name))
        written.append(name)
    print(f"\npictures (lodex.plot) in {folder}: {', '.join(written)}")


def _finish(comm, ok: bool, output: str, tmp: str | None, try_next: tuple[str, ...] = (),
            pictures: tuple = ()) -> int:
    """Rank 0 shows `lodex info`, then removes a temporary dataset or says where the kept one is,
    draws its ``pictures`` beside it and says what to try on it; every rank returns rank 0's
    verdict."""
    if comm.rank == 0:
        print("\nlodex info:")
        print_description(describe(open_dataset(output)), files=True)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
        elif pictures:
            _pictures(output, pictures)
        if not tmp and try_next:
            print(f"\nThe dataset is kept in {output}. Try:")
            for line in try_next:
                print("  " + line.replace("DATASET", output))
    return 0 if comm.bcast(ok) else 1


def main(output: str | None = None, particles: int = 32768, partition=(2, 2, 1), steps: int = 2) -> int:
    from mpi4py import MPI

    from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = rank_grid(size)
    if any(g % p for g, p in zip(grid, partition)):
        partition = (1, 1, 1)
    output, tmp = _output(comm, output)
    patch = patch_of(rank, grid)
    profiles = []
    ds = lodex.create(output, comm=comm)
    g = ds.define_particles("uintah", schema=UINTAH_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition=partition)
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
        r = lodex.open(output).particles["uintah"]
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
    return _finish(comm, ok, output, tmp,
                   ("lodex read DATASET uintah --step 1 --box 0,0,0:0.5,0.5,0.5 --level 2",
                    "lodex read DATASET uintah --step 0 --fields position,id --out uintah.npz",
                    "python -c \"import lodex; "
                    "print(lodex.open('DATASET').particles['uintah'].read(1, fraction=0.01))\""))


def main_uneven(kind: str, output: str | None = None, particles: int = 32768, steps: int = 2) -> int:
    """An uneven workload (lodex.workloads.GENERATORS), ``particles`` per rank on average, written
    with partition="adaptive" and read back by one process."""
    from mpi4py import MPI

    from lodex.workloads import UNEVEN_SCHEMA, patch_of, rank_grid, uneven, uneven_rank

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    grid = rank_grid(size)
    total = particles * size
    output, tmp = _output(comm, output)
    patch = patch_of(rank, grid)
    ds = lodex.create(output, comm=comm)
    g = ds.define_particles(kind, schema=UNEVEN_SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition="adaptive",
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
        r = lodex.open(output).particles[kind]
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
    return _finish(comm, ok, output, tmp,
                   ("lodex read DATASET " + kind + " --step 0 --box 0,0,0:0.5,0.5,0.5 --count",
                    "lodex info DATASET --files --json"))


def main_vpic(output: str | None = None, particles: int = 32768, steps: int = 2) -> int:
    """VPIC-like electrons: write, index (precision 3) and query collectively; check with numpy."""
    from mpi4py import MPI

    from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, vpic

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    output, tmp = _output(comm, output)
    ds = lodex.create(output, comm=comm)
    g = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition=(1, 1, 1))
    for step in range(steps):
        data, patch = vpic(rank, size, particles, seed=1, step=step)
        g.write(step, patch, data, index={"fields": ["energy", "position"], "precision": 3})
    query = "energy > 0.5 && 60 < z < 72"
    ok = True
    hits = [g.query(step, query, comm=comm) for step in range(steps)]
    ds.close()
    if rank == 0:
        print(f"\nlodex {lodex.__version__} demo: VPIC-like electrons, {particles:,} per rank on {size} ranks, "
              f"{steps} steps, bitmap indexes of energy and position (3 significant digits)")
        print(f"dataset: {output}\n")
        r = lodex.open(output).particles["electrons"]
        for step in range(steps):
            want_e = []
            for q in range(size):
                d, _ = vpic(q, size, particles, seed=1, step=step)
                z = d["position"][:, 2]
                m = (d["energy"] > np.float32(0.5)) & (z > np.float32(60)) & (z < np.float32(72))
                want_e.append(np.sort(d["id"][m]))
            want = np.sort(np.concatenate(want_e))
            res = r.query(step, query, fields=["id", "energy"])
            step_ok = (res.count == len(want) == hits[step].count
                       and np.array_equal(np.sort(res.data["id"]), want) and bool(np.all(res.data["energy"] > 0.5)))
            ok &= step_ok
            st = res.stats
            print(f"step {step}: \"{query}\": {res.count:,} of {size * particles:,} electrons "
                  f"(by {size} ranks: {hits[step].count:,}); {st['files_indexed']} files from bitmaps, "
                  f"{st['rows_checked']:,} candidate rows checked, {st['index_bytes'] / 2**10:.0f} KiB of index "
                  f"read, {st['seconds'] * 1e3:.1f} ms: {'matches numpy' if step_ok else 'MISMATCH'}")
        try:
            import h5py
        except ImportError:
            print("H5Part export skipped: h5py is not installed (pip install lodex[h5part])")
        else:
            out = os.path.join(os.path.dirname(output), "electrons.h5part")
            st = r.export(out, overwrite=True)
            with h5py.File(out, "r") as f:
                n = sum(len(f[f"Step#{s}"]["x"]) for s in range(steps))
                e_ok = all(np.array_equal(np.sort(f[f"Step#{s}"]["energy"][:]),
                                          np.sort(r.read(s, fields=["energy"])["energy"]))
                           for s in range(steps))
            ok &= n == steps * size * particles and e_ok
            print(f"H5Part: {out}: {st['particles']:,} particles in {len(st['steps'])} steps, "
                  f"{st['bytes'] / 2**20:.1f} MiB; read back with h5py: {'matches' if e_ok else 'MISMATCH'}")
    return _finish(comm, ok, output, tmp,
                   ("lodex query DATASET electrons 'energy > 1.3 && x < 0.5' --step 0 --count",
                    "lodex query DATASET electrons 'energy > 1.3' --step 1 --fields position,energy --out hot.npz",
                    "lodex export DATASET electrons --out electrons.h5part --steps 0:2   # for ParaView and VisIt",
                    "lodex render DATASET electrons --step 1 --axis y --field energy --out energy.png"),
                   pictures=_VPIC_PICTURES)


def main_geos(output: str | None = None, steps: int = 12) -> int:
    """GEOS-5-like series: every rank writes its box of every variable each step; one process reads."""
    from mpi4py import MPI

    from lodex.workloads import Geos

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    output, tmp = _output(comm, output)
    g = Geos(n2d=12, n3d=4, steps=steps)
    ds = lodex.create(output, comm=comm)
    s = ds.define_series("geos", dims=g.dims, variables=g.variables())
    for t in range(steps):
        box, data = g.local(rank, size, t)
        s.write(t, box, data)
    ds.close()
    ok = True
    if rank == 0:
        r = lodex.open(output).series["geos"]
        print(f"\nlodex {lodex.__version__} demo: GEOS-5-like series {g.dims[0]} x {g.dims[1]} x {g.dims[2]}, "
              f"{g.n3d} 3-D + {g.n2d} 2-D variables, {steps} steps by {size} ranks "
              f"({' x '.join(map(str, g.decomposition(size)))} boxes)")
        print(f"dataset: {output}\n  d_tar {r.d_tar}, d_sar {r.d_sar}: {r.meta['reason']}\n")
        x, y, z = g.dims[0] // 2, g.dims[1] // 2, g.dims[2] // 2
        reads = [
            ("T column across every step", "T", list(range(steps)), ((x, y, 0), (x + 1, y + 1, g.dims[2]))),
            ("T xz plane across every step", "T", list(range(steps)), ((0, y, 0), (g.dims[0], y + 1, g.dims[2]))),
            ("T level z across every step", "T", list(range(steps)), ((0, 0, z), (g.dims[0], g.dims[1], z + 1))),
            ("PS at the last step", "PS", steps - 1, None),
        ]
        for label, var, st, box in reads:
            a = r.read(variable=var, steps=st, box=box)
            lo, hi = box if box else ((0, 0, 0), g.dims)
            want = np.stack([g.field(var, t, (lo, hi)) for t in ([st] if isinstance(st, int) else st)])
            good = np.array_equal(a, want[0] if isinstance(st, int) else want)
            ok &= good
            q = r.last_read_stats
            print(f"{label}: {a.shape} from {q['chunks']} chunks of {q['windows']} window files, {q['requests']} "
                  f"requests, {q['bytes_read'] / 2**10:,.0f} KiB read, {q['seconds'] * 1e3:.2f} ms: "
                  f"{'matches numpy' if good else 'MISMATCH'}")
    return _finish(comm, ok, output, tmp,
                   ("lodex read DATASET geos T --steps 0:6 --box 72,45,0:73,46,48",
                    "lodex read DATASET geos PS --steps 11 --out ps.npy",
                    "lodex render DATASET geos T --axis x --point 0,45,10 --out hovmoller.svg"),
                   pictures=_GEOS_PICTURES)


def main_grid(output: str | None = None, steps: int = 2) -> int:
    """An S3D-like grid (two fields) written by every rank, each its z-slab, in OpenVisus's IDX
    layout; one process reads it back at full and at coarse resolution, and a box, each checked
    against numpy."""
    from mpi4py import MPI


    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    output, tmp = _output(comm, output)
    dims = (96, 64, 48)

    def field(name: str, step: int) -> np.ndarray:
        z, y, x = np.meshgrid(*(np.arange(d, dtype=np.float32) for d in dims[::-1]), indexing="ij")
        if name == "temperature":
            return 300 + 50 * np.sin(x / 9 + step) * np.cos(y / 7) + z / 4
        return 1e5 + 1e3 * np.cos((x + y + z) / 11 - step)

    z = np.linspace(0, dims[2], size + 1).astype(int)
    lo, hi = (0, 0, int(z[rank])), (dims[0], dims[1], int(z[rank + 1]))
    ds = lodex.create(output, comm=comm)
    g = ds.define_grid("flow", dims=dims, fields={"temperature": "f4", "pressure": "f4"})
    profiles = []
    for step in range(steps):
        g.write(step, (lo, hi), {n: field(n, step)[lo[2]:hi[2]] for n in ("temperature", "pressure")})
        profiles.append(g.profile)
    ds.close()
    ok = True
    if rank == 0:
        r = lodex.open(output).grids["flow"]
        print(f"\nlodex {lodex.__version__} demo: an S3D-like grid {dims[0]} x {dims[1]} x {dims[2]}, fields "
              f"temperature and pressure, {steps} steps by {size} ranks (z-slabs), IDX readable by OpenVisus")
        print(f"dataset: {output}\n  bitmask {r.bitmask}, {r.max_resolution + 1} levels, "
              f"{profiles[-1]['files']} files per step, {profiles[-1]['aggregators']} aggregators")
        last = steps - 1
        coarse = max(0, r.max_resolution - 6)
        box = ((10, 20, 5), (70, 50, 30))
        reads = [(f"temperature step {last}, full resolution", "temperature", None, None),
                 (f"pressure step {last}, resolution {coarse} of {r.max_resolution}", "pressure", coarse, None),
                 (f"temperature step {last}, box {box[0]}-{box[1]}", "temperature", None, box)]
        for label, name, res, bx in reads:
            a = r.read(last, box=bx, resolution=res, field=name)
            want = _lattice(field(name, last), r.bitmask, res, bx)
            good = np.array_equal(a, want)
            ok &= good
            st = r.last_read_stats
            print(f"{label}: {a.shape}, {st['blocks_read']} blocks from {st['files_opened']} files, "
                  f"{st['bytes_read'] / 2**10:,.0f} KiB read: {'matches numpy' if good else 'MISMATCH'}")
    return _finish(comm, ok, output, tmp,
                   ("lodex read DATASET flow --step 1 --field pressure --resolution 13 --out coarse.npy",
                    "lodex read DATASET flow --step 1 --box 10,20,5:70,50,30 --json",
                    "python -c \"import OpenVisus as ov; "
                    "print(ov.LoadDataset('DATASET/flow.idx').read(time=1).shape)\""),
                   pictures=_GRID_PICTURES)


# The pictures each part draws beside its kept dataset (docs/plot.md).
_VPIC_PICTURES = (
    ("vpic-energy.png", lambda lp, ds: lp.particles(ds.particles["electrons"], 1, axis="y", field="energy",
                                                    log=True, pixels=256)),
    ("vpic-query.png", lambda lp, ds: lp.query(ds.particles["electrons"], 1, "energy > 0.5 && 60 < z < 72",
                                               axis="y", pixels=256)),
    ("vpic-histogram.png", lambda lp, ds: lp.histogram(ds.particles["electrons"], 1, "energy",
                                                       "energy > 0.5 && 60 < z < 72", log=True)),
)
_GEOS_PICTURES = (
    ("geos-timeline.png", lambda lp, ds: lp.timeline(ds.series["geos"], "T", (72, 45, 10))),
    ("geos-hovmoller.png", lambda lp, ds: lp.hovmoller(ds.series["geos"], "T", "x", (0, 45, 10))),
)
_GRID_PICTURES = (
    ("grid-slice.png", lambda lp, ds: lp.grid_slice(ds.grids["flow"], 1, axis="z", field="temperature")),
)


def _lattice(full: np.ndarray, bitmask: str, r: int | None, box) -> np.ndarray:
    """The samples a read at resolution r returns, from the numpy original: along each axis every
    2^(how often the axis occurs in the bitmask after position r)-th sample, inside the box."""
    r = len(bitmask) - 1 if r is None else r
    lo, hi = box if box is not None else ((0, 0, 0), full.shape[::-1])
    sl = []
    for a in (2, 1, 0):
        step = 1 << bitmask[r + 1:].count(str(a))
        sl.append(slice(-(-lo[a] // step) * step, hi[a], step))
    return full[tuple(sl)]


if __name__ == "__main__":
    from lodex.workloads import GENERATORS

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--output")
    ap.add_argument("--particles", type=int, default=32768, help="per rank (on average for uneven workloads)")
    ap.add_argument("--workload", default="uintah", choices=("uintah", "vpic", "geos", "grid") + GENERATORS)
    a = ap.parse_args()
    if a.workload == "uintah":
        sys.exit(main(a.output, a.particles))
    if a.workload == "vpic":
        sys.exit(main_vpic(a.output, a.particles))
    if a.workload == "geos":
        sys.exit(main_geos(a.output))
    if a.workload == "grid":
        sys.exit(main_grid(a.output))
    sys.exit(main_uneven(a.workload, a.output, a.particles))
