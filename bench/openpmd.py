"""openPMD import and export against openPMD-api alone, and reads after import (issue 37).

Run under mpiexec with R ranks (or alone: one rank). A file-based ADIOS2 BP series of N
particles (position f8 x 3 uniform in the unit box, momentum f4 x 3, id u8; one iteration) is
written with openPMD-api. Per repetition, interleaved, after one warm-up round, each timed from
a barrier to a barrier (rank 0's clock):

- read: every rank loads its share [r*N/R, (r+1)*N/R) of every record with openPMD-api (the
  baseline of an import; PyPI's openPMD-api has no MPI, so each rank opens the series alone);
- import: ``lodex.openpmd.import_series`` of the species into a new dataset (2 x 2 x 2 grid),
  collective over the R ranks;
- lodex_write: lodex's own write of the same arrays (each rank its share) into the same
  partition: with ``read`` the floor of an import, which is a read and then this write;
- write: rank 0 writes the arrays as a new BP series with openPMD-api (the baseline of an
  export: a one-iteration series is one process's, for lodex too);
- export: ``lodex.openpmd.export`` of the imported group as a new BP series (collective; the
  one iteration is rank 0's);
- lod_read: rank 0 reads every file of the imported step in level-of-detail order (a
  refinement of its partition box), what the export reads: with ``write`` its floor;
- on rank 0, box and preview, warm and cold (the files evicted from the page cache first with
  posix_fadvise, checked with mincore): a 1/8 box ((0, 0, 0), (0.5, 0.5, 0.5)) and a 1 %
  preview (``fraction=0.01``) read from the imported dataset, against openPMD-api reading the
  whole species of the original series and then selecting the same (the box by its positions,
  the preview as 1 % of the rows).

Ranks that wait for rank 0 sleep between polls of a non-blocking barrier (a spinning MPI
barrier would take a core from the rank at work on an oversubscribed machine). Medians with min
and max; the load average before and after. The files live in --dir (default: a temporary
folder under bench/, on a disk: the cold reads need files the page cache can drop).

    [mpiexec -n 4] .venv/bin/python bench/openpmd.py [--particles 1000000] [--repeats 5] [--dir D]
        [--out F] [--chart-only]
Writes bench/results/openpmd.json and its chart bench/results/openpmd.png.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import tempfile
import time

import numpy as np
from mpi4py import MPI

import lodex
import lodex.openpmd
from bench_common import NotColdError, chart_path, environment, evict, figure, files_under

HERE = os.path.dirname(os.path.abspath(__file__))
BOX = ((0.0, 0.0, 0.0), (0.5, 0.5, 0.5))
GRID = (2, 2, 2)
SCHEMA = {"position": ("f8", 3), "momentum": ("f4", 3), "id": ("u8", 1)}


def write_source(io, path: str, arrays: dict) -> None:
    n = len(arrays["id"])
    s = io.Series(path, io.Access.create)
    e = s.write_iterations()[0].particles["electrons"]
    for rec in ("position", "momentum"):
        for k, c in enumerate("xyz"):
            rc = e[rec][c]
            rc.reset_dataset(io.Dataset(arrays[rec].dtype, [n]))
            rc.store_chunk(np.ascontiguousarray(arrays[rec][:, k]), [0], [n])
    for c in "xyz":
        rc = e["positionOffset"][c]
        rc.reset_dataset(io.Dataset(np.dtype("f8"), [n]))
        rc.make_constant(0.0)
    rc = e["id"][io.Record_Component.SCALAR]
    rc.reset_dataset(io.Dataset(np.dtype("u8"), [n]))
    rc.store_chunk(arrays["id"], [0], [n])
    s.close()


def read_all(io, path: str, lo: int = 0, hi: int | None = None) -> dict:
    """Rows [lo, hi) (default: all) of every record of the species."""
    s = io.Series(path, io.Access.read_only)
    e = s.iterations[0].particles["electrons"]
    hi = e["id"][io.Record_Component.SCALAR].shape[0] if hi is None else hi
    cols = {(r, c): e[r][c].load_chunk([lo], [hi - lo]) for r in ("position", "momentum") for c in "xyz"}
    cols[("id", "")] = e["id"][io.Record_Component.SCALAR].load_chunk([lo], [hi - lo])
    s.flush()
    s.close()
    return {"position": np.stack([cols[("position", c)] for c in "xyz"], axis=1),
            "momentum": np.stack([cols[("momentum", c)] for c in "xyz"], axis=1), "id": cols[("id", "")]}


def lodex_write(path: str, data: dict, comm) -> None:
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("electrons", schema=SCHEMA, domain="auto", partition_grid=GRID)
    g.write(0, data=data)
    ds.close()


def lod_read(path: str) -> int:
    """Every file of step 0 in level-of-detail order, as the export reads them."""
    g = lodex.open(path).particles["electrons"]
    d_hi = g.step_domain(0)[1]
    n = 0
    for f in g.files(0):
        lo = [float(v) for v in f["partition_box"]["min"]]
        hi = [math.nextafter(float(h), math.inf) if h >= dh else float(h)
              for h, dh in zip(f["partition_box"]["max"], d_hi)]
        n += sum(len(level["id"]) for level in g.refine(0, box=(lo, hi)))
    return n


def wait_for_all(comm) -> None:
    """A barrier that sleeps between polls instead of spinning."""
    req = comm.Ibarrier()
    while not req.Test():
        time.sleep(0.0005)


def timed(comm, fn, everyone: bool = True) -> tuple[float, object]:
    """fn() on every rank (or rank 0 alone), from a barrier to a barrier."""
    wait_for_all(comm)
    t0 = time.perf_counter()
    out = fn() if everyone or comm.rank == 0 else None
    wait_for_all(comm)
    return time.perf_counter() - t0, out


def summary(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--particles", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "openpmd.json"))
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        with open(args.out) as f:
            draw(json.load(f), chart_path(args.out))
        return
    import openpmd_api as io
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    n = args.particles
    rng = np.random.default_rng(0)
    arrays = {"position": rng.random((n, 3)), "momentum": rng.normal(size=(n, 3)).astype(np.float32),
              "id": np.arange(n, dtype=np.uint64)}
    lo, hi = n * rank // size, n * (rank + 1) // size
    share = {k: v[lo:hi] for k, v in arrays.items()}
    if rank != 0:
        arrays = None   # rank 0 writes the baseline series
    work = comm.bcast(tempfile.mkdtemp(dir=args.dir or HERE) if rank == 0 else None)   # a disk, not a tmpfs
    env = environment(work) if rank == 0 else None
    src = os.path.join(work, "src_%T.bp")
    if rank == 0:
        write_source(io, src, arrays)
    wait_for_all(comm)
    names = ["read", "import", "lodex_write", "write", "export", "lod_read",
             "box_warm", "box_openpmd_warm", "preview_warm", "preview_openpmd_warm",
             "box_cold", "box_openpmd_cold", "preview_cold", "preview_openpmd_cold"]
    times = {k: [] for k in names}
    counts = {}
    cold = {"method": None, "resident_max": 0.0}
    failed = None
    try:
        for rep in range(args.repeats + 1):
            run = {}
            run["read"], _ = timed(comm, lambda: read_all(io, src, lo, hi))
            ds_path = os.path.join(work, f"imp{rep}.lodex")
            run["import"], _ = timed(comm, lambda: lodex.openpmd.import_series(src, ds_path, "electrons",
                                                                              partition_grid=GRID, comm=comm))
            floor_path = os.path.join(work, f"floor{rep}.lodex")
            run["lodex_write"], _ = timed(comm, lambda: lodex_write(floor_path, share, comm))
            out_w = os.path.join(work, f"w{rep}_%T.bp")
            run["write"], _ = timed(comm, lambda: write_source(io, out_w, arrays), everyone=False)
            out_e = os.path.join(work, f"e{rep}_%T.bp")
            run["export"], _ = timed(comm, lambda: lodex.openpmd.export(ds_path, "electrons", out_e, comm=comm))
            run["lod_read"], got = timed(comm, lambda: lod_read(ds_path), everyone=False)
            if rank == 0:
                counts["lod_read"] = got
                reads(io, src, ds_path, n, run, counts, cold)
            wait_for_all(comm)
            if rank == 0:
                for path in (out_w, out_e, ds_path, floor_path):
                    shutil.rmtree(path.replace("%T", "0"), ignore_errors=True)
            if rep > 0:   # the first round warms up
                for k, v in run.items():
                    times[k].append(v)
    except NotColdError as e:
        failed = f"no cold figures on this machine: {e}"
    finally:
        wait_for_all(comm)
        if rank == 0:
            shutil.rmtree(work, ignore_errors=True)
    if failed:
        raise SystemExit(failed)
    if rank != 0:
        return
    env["loadavg_end"] = os.getloadavg()
    env["ranks"] = size
    env["oversubscribed"] = size > (env.get("cpus_usable") or env["cpu_count"])
    res = {k: summary(v) for k, v in times.items()}
    med = {k: v["median"] for k, v in res.items()}
    ratios = {
        "import_over_read": med["import"] / med["read"],
        "export_over_write": med["export"] / med["write"],
        "import_floor_over_read": (med["read"] + med["lodex_write"]) / med["read"],
        "export_floor_over_write": (med["write"] + med["lod_read"]) / med["write"],
        "import_over_floor": med["import"] / (med["read"] + med["lodex_write"]),
        "export_over_floor": med["export"] / (med["write"] + med["lod_read"]),
        **{f"{w}_{t}_speedup": med[f"{w}_openpmd_{t}"] / med[f"{w}_{t}"]
           for w in ("box", "preview") for t in ("warm", "cold")},
    }
    out = {"environment": env, "particles": n, "ranks": size, "repeats": args.repeats, "cold": cold,
           "counts": counts, "seconds": res, "ratios": ratios}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    draw(out, chart_path(args.out))
    print(json.dumps({"seconds": {k: round(v, 4) for k, v in med.items()}, "ratios": ratios,
                      "load": [env["loadavg_start"], env["loadavg_end"]]}, indent=1))


def reads(io, src: str, ds_path: str, n: int, run: dict, counts: dict, cold: dict) -> None:
    """Rank 0: the box and preview reads after import against openPMD-api's read-all-then-select,
    warm and cold."""
    g = lodex.open(ds_path).particles["electrons"]
    for temp in ("warm", "cold"):
        for what in ("box", "preview"):
            if temp == "cold":
                cold["method"], resident = evict(files_under(ds_path), ("fadvise",))
                cold["resident_max"] = max(cold["resident_max"], resident)
            t0 = time.perf_counter()
            got = g.read(0, box=BOX) if what == "box" else g.read(0, fraction=0.01)
            run[f"{what}_{temp}"] = time.perf_counter() - t0
            counts[what] = len(got["id"])
            if temp == "cold":
                _, resident = evict(files_under(src.replace("%T", "0")), ("fadvise",))
                cold["resident_max"] = max(cold["resident_max"], resident)
            t0 = time.perf_counter()
            a = read_all(io, src)
            if what == "box":
                inside = np.all((a["position"] >= BOX[0]) & (a["position"] < BOX[1]), axis=1)
                sel = {k: v[inside] for k, v in a.items()}
            else:
                keep = np.random.default_rng(1).choice(n, max(1, n // 100), replace=False)
                sel = {k: v[keep] for k, v in a.items()}
            run[f"{what}_openpmd_{temp}"] = time.perf_counter() - t0
            counts[f"{what}_openpmd"] = len(sel["id"])


def draw(out: dict, path: str) -> None:
    fig, axes = figure(1, 2, (11, 4))
    sec = out["seconds"]
    ax = axes[0][0]
    xs = np.arange(2)
    bars = [("lodex", [sec["import"], sec["export"]]),
            ("openPMD-api alone", [sec["read"], sec["write"]])]
    for j, (label, vals) in enumerate(bars):
        ax.bar(xs + (j - 1) * 0.28, [v["median"] for v in vals], 0.28, label=label,
               yerr=[[v["median"] - v["min"] for v in vals], [v["max"] - v["median"] for v in vals]])
    # the floor: openPMD-api's part, then lodex's own write (import) or level-of-detail read (export)
    base = [sec["read"]["median"], sec["write"]["median"]]
    ax.bar(xs + 0.28, base, 0.28, color="0.75", label="floor: openPMD-api part")
    ax.bar(xs + 0.28, [sec["lodex_write"]["median"], sec["lod_read"]["median"]], 0.28, bottom=base, color="0.45",
           label="+ lodex write / LOD read")
    ax.set_xticks(xs, ["import vs read", "export vs write"])
    ax.set_ylabel("seconds (median, min-max)")
    ranks = out.get("ranks", 1)
    ax.set_title(f"{out['particles']:,} particles, {ranks} rank{'s' if ranks > 1 else ''}")
    ax.legend(fontsize=8)
    ax = axes[0][1]
    groups = ["box_warm", "box_cold", "preview_warm", "preview_cold"]
    xs = np.arange(len(groups))
    for j, (label, key) in enumerate((("lodex after import", "{}"), ("openPMD-api: read all, filter", "{}"))):
        keys = [g if j == 0 else g.replace("_", "_openpmd_") for g in groups]
        ax.bar(xs + (j - 0.5) * 0.38, [sec[k]["median"] for k in keys], 0.38, label=label)
    ax.set_xticks(xs, ["1/8 box\nwarm", "1/8 box\ncold", "1 % preview\nwarm", "1 % preview\ncold"])
    ax.set_yscale("log")
    ax.set_ylabel("seconds (median)")
    ax.set_title("a selection")
    ax.legend()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
