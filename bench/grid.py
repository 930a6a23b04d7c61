"""Grid (IDX) benchmarks of issue 5, every ratio against a baseline measured in the same run:

1. parallel writes (bench/grid_write_worker.py) at 1, 2, 4, 8 ranks: the S3D workload (a 32^3
   block of 16 f8 fields per rank) and one 256^3 f4 field, against raw file per process of the
   same bytes; uniform vs localized aggregation vs localized + partitioning (Kumar et al. 2017 Figure
   15, global and local index space) with the per-phase breakdown; then the 256^3 field again
   with every method's files made durable (fsync) inside its timing;
2. OpenVisus's own writer on the 256^3 field against lodex at one process;
3. reads of the same 256^3 files by lodex and by OpenVisus, warm and cold: full, 1/8 and 1/64
   resolution, a 64^3 box;
4. HZ encoding rate (samples per second on one core).

    .venv/bin/python bench/grid.py [--repeats 7] [--only writes,serial] [--out bench/results/grid.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import MPIEXEC, environment, evict, files_under, find_bench_binary, run_json  # noqa: E402

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")


def serial_write_and_read(work: str, repeats: int) -> dict:
    """One process, one 256^3 f4 field, interleaved repetitions of: lodex.write_idx (its default
    layout: hz order inside blocks), OpenVisus's CreateIdx + write with its default layout (what a
    user gets), OpenVisus with the hzorder layout, and a raw write of the same bytes. Then reads,
    warm and cold: lodex and OpenVisus on lodex's file, OpenVisus on its own default file."""
    import OpenVisus as ov

    import lodex

    dims = (256, 256, 256)
    data = np.random.default_rng(5).random(dims[::-1], dtype=np.float32)
    raw_bytes = memoryview(data).cast("B")
    methods = ("lodex", "openvisus_default", "openvisus_hzorder", "raw")
    w = {m: [] for m in methods}

    def write(method, d):
        os.makedirs(d)
        t0 = time.perf_counter()
        if method == "lodex":
            lodex.write_idx(os.path.join(d, "v.idx"), data)
        elif method == "raw":
            fd = os.open(os.path.join(d, "v.bin"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            view = raw_bytes
            while view:
                view = view[os.write(fd, view):]
            os.close(fd)
        else:
            layout = "hzorder" if method == "openvisus_hzorder" else ""
            field = ov.Field("v", "float32", layout) if layout else ov.Field("v", "float32")
            db = ov.CreateIdx(url=os.path.join(d, "v.idx"), dims=list(dims), fields=[field])
            db.write(data)
        return time.perf_counter() - t0

    for rep in range(repeats):
        for m in methods:
            d = os.path.join(work, f"serial-{m}-{rep}")
            shutil.rmtree(d, ignore_errors=True)
            w[m].append(write(m, d))
            if rep < repeats - 1:   # keep the last copy of each for the reads
                shutil.rmtree(d)
    out = {"write": {m: stats(v) for m, v in w.items()}}
    write = out["write"]
    write["openvisus_default_over_lodex"] = write["openvisus_default"]["median_s"] / write["lodex"]["median_s"]
    out["write"]["goal_1_5x_met"] = out["write"]["openvisus_default_over_lodex"] >= 1.5
    out["write_floor"] = serial_floor(work, repeats, out["write"]["lodex"]["median_s"] * 1e3)

    # Reads: lodex's file by lodex and OpenVisus (same bytes), and OpenVisus's default file by OpenVisus.
    mine = os.path.join(work, f"serial-lodex-{repeats - 1}")
    theirs = os.path.join(work, f"serial-openvisus_default-{repeats - 1}")
    lx = lodex.open_idx(os.path.join(mine, "v.idx"))
    db_mine = ov.LoadDataset(os.path.join(mine, "v.idx"))
    db_theirs = ov.LoadDataset(os.path.join(theirs, "v.idx"))
    maxh = lx.max_resolution
    cases = {"full": dict(), "res_1/8": dict(resolution=maxh - 3), "res_1/64": dict(resolution=maxh - 6),
             "box_64^3_aligned": dict(box=((96, 96, 96), (160, 160, 160))),
             "box_64^3_unaligned": dict(box=((97, 91, 93), (161, 155, 157)))}

    def ov_read(db, kw):
        args = {"time": 0}
        if "resolution" in kw:
            args["max_resolution"] = kw["resolution"]
        if "box" in kw:
            (x0, y0, z0), (x1, y1, z1) = kw["box"]
            args.update(x=[x0, x1], y=[y0, y1], z=[z0, z1])
        return db.read(**args)

    readers = {"lodex": (lambda kw: lx.read(0, **kw), files_under(mine)),
               "openvisus_same_file": (lambda kw: ov_read(db_mine, kw), files_under(mine)),
               "openvisus_default_file": (lambda kw: ov_read(db_theirs, kw), files_under(theirs))}
    reads = {}
    method, resident_max = None, 0.0
    for name, kw in cases.items():
        want = readers["lodex"][0](kw)
        for label, (fn, _) in readers.items():
            assert np.array_equal(fn(kw), want), (name, label)
        times = {label: {"warm": [], "cold": []} for label in readers}
        for _ in range(repeats):   # interleaved: warm round, then a cold round
            for label, (fn, _) in readers.items():
                fn(kw)   # warm: what it reads is in the page cache (a cold round may have dropped it)
                t0 = time.perf_counter()
                fn(kw)
                times[label]["warm"].append(time.perf_counter() - t0)
            for label, (fn, paths) in readers.items():
                method, resident = evict(paths)
                resident_max = max(resident_max, resident)
                t0 = time.perf_counter()
                fn(kw)
                times[label]["cold"].append(time.perf_counter() - t0)
        r = {label: {"warm": stats(t["warm"]), "cold": stats(t["cold"])} for label, t in times.items()}
        for temp in ("warm", "cold"):
            best_ov = min(r["openvisus_same_file"][temp]["median_s"], r["openvisus_default_file"][temp]["median_s"])
            r[f"openvisus_best_over_lodex_{temp}"] = best_ov / r["lodex"][temp]["median_s"]
        r["goal_no_slower_met"] = all(r[f"openvisus_best_over_lodex_{t}"] >= 1.0 for t in ("warm", "cold"))
        reads[name] = r
    out["reads"] = reads
    out["cold_method"] = method
    out["cold_resident_max"] = resident_max   # largest share of a read's files left in memory after eviction (mincore)
    return out


def serial_floor(work: str, repeats: int, lodex_ms: float) -> dict | None:
    """The parts of lodex.write_idx's 256^3 f4 write no pipeline avoids, each timed alone by
    bench/idx_floor_bench.cpp: hz encoding (one thread, all cores), block checksums, one pwrite of
    the 64 MiB into an existing file. Their sum over the cores is the write's floor when every part
    overlaps perfectly (the encoding and the write compete for the same cores)."""
    exe = find_bench_binary("idx_floor_bench")
    if not exe:
        return None
    f = json.loads(subprocess.run([exe, work, "256", str(max(repeats, 9))], check=True, capture_output=True,
                                  text=True).stdout)
    parts = f["encode_1_thread"]["median_ms"] + f["checksums"]["median_ms"] + f["pwrite"]["median_ms"]
    f["floor_all_cores_ms"] = parts / f["cores"]
    f["lodex_over_floor"] = lodex_ms / f["floor_all_cores_ms"]
    return f


def stats(v) -> dict:
    return {"median_s": float(np.median(v)), "min_s": float(min(v)), "max_s": float(max(v)),
            "runs_s": list(map(float, v))}


def chart_serial(serial: dict, path: str) -> None:
    """Bars of the serial writes and the reads (medians, whiskers min..max)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.2))
    w = {k: v for k, v in serial["write"].items() if isinstance(v, dict)}
    names = list(w)
    med = [w[k]["median_s"] * 1e3 for k in names]
    err = [[m - w[k]["min_s"] * 1e3 for k, m in zip(names, med)], [w[k]["max_s"] * 1e3 - m for k, m in zip(names, med)]]
    a.bar(names, med, yerr=err, color=["C0", "C1", "C2", "C7"], capsize=4)
    a.set_ylabel("ms (median, min..max)")
    a.set_title("256^3 f4, one process: write")
    a.tick_params(axis="x", rotation=20)
    cases = list(serial["reads"])
    labels = ["lodex", "openvisus_same_file", "openvisus_default_file"]
    x = np.arange(len(cases))
    for i, label in enumerate(labels):
        vals = [serial["reads"][c][label]["warm"]["median_s"] * 1e3 for c in cases]
        b.bar(x + (i - 1) * 0.27, vals, width=0.27, label=label, color=f"C{i}")
    b.set_xticks(x, cases, rotation=20)
    b.set_yscale("log")
    b.set_ylabel("ms, warm (median)")
    b.set_title("reads")
    b.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def chart_writes(writes: list, path: str) -> None:
    """Each scheme's throughput as a ratio to raw file per process, per workload and rank count."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, wl in zip(axes, ("s3d", "big")):
        runs = [r for r in writes if r["workload"] == wl]
        schemes = sorted({k for r in runs for k in r["ratio_to_raw"]})
        for i, sch in enumerate(schemes):
            ax.plot([r["ranks"] for r in runs], [r["ratio_to_raw"].get(sch, np.nan) for r in runs], "o-", label=sch)
        ax.axhline(0.6, color="k", ls="--", lw=0.8, label="goal 0.6")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks")
        ax.set_title({"s3d": "S3D 32^3 x 16 f8 per rank", "big": "256^3 f4"}[wl])
    axes[0].set_ylabel("raw time / lodex time (median)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--only", default="writes,serial", help="writes (parallel), serial, or both")
    ap.add_argument("--ranks", default="1,2,4,8")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "grid.json"))
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-grid-bench-")
    os.makedirs(work, exist_ok=True)
    result = {"environment": environment(work), "repeats": args.repeats, "writes": []}
    parts = set(args.only.split(","))
    try:
        for R in [int(r) for r in args.ranks.split(",")] if "writes" in parts else []:
            for wl in ("s3d", "big"):
                cmd = [MPIEXEC, "-n", str(R), sys.executable, os.path.join(HERE, "grid_write_worker.py"),
                       "--dir", work, "--workload", wl, "--repeats", str(args.repeats)]
                r = run_json(cmd, timeout=1800)
                result["writes"].append(r)
                print(f"{wl:>4} {R} ranks: raw {r['throughput_mib_s']['raw']:.0f} MiB/s; " + ", ".join(
                    f"{k} {v:.2f}x raw" for k, v in r["ratio_to_raw"].items()), flush=True)
        # Durable writes: every method's files reach the disk (fsync) before its clock stops.
        result["writes_durable"] = []
        for R in [int(r) for r in args.ranks.split(",")] if "writes" in parts else []:
            cmd = [MPIEXEC, "-n", str(R), sys.executable, os.path.join(HERE, "grid_write_worker.py"),
                   "--dir", work, "--workload", "big", "--repeats", str(args.repeats), "--fsync",
                   "--schemes", "localized,partitioned,partitioned-local"]
            r = run_json(cmd, timeout=1800)
            result["writes_durable"].append(r)
            print(f" big {R} ranks, fsync: raw {r['throughput_mib_s']['raw']:.0f} MiB/s; " + ", ".join(
                f"{k} {v:.2f}x raw" for k, v in r["ratio_to_raw"].items()), flush=True)
        serial = serial_write_and_read(work, args.repeats) if "serial" in parts else None
        result["serial"] = serial
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)
    if serial:
        w = serial["write"]
        print("256^3 f4 at one process: " + ", ".join(
            f"{m} {w[m]['median_s'] * 1e3:.1f} ms" for m in ("lodex", "openvisus_default", "openvisus_hzorder", "raw"))
            + f"; OpenVisus default / lodex {w['openvisus_default_over_lodex']:.2f} (goal 1.5)")
        fl = serial.get("write_floor")
        if fl:
            print(f"write floor: encode {fl['encode_1_thread']['median_ms']:.1f} ms on one thread "
                  f"({fl['encode_all_cores']['median_ms']:.1f} on {fl['cores']} cores), checksums "
                  f"{fl['checksums']['median_ms']:.1f}, pwrite {fl['pwrite']['median_ms']:.1f}: floor "
                  f"{fl['floor_all_cores_ms']:.1f} ms; lodex at {fl['lodex_over_floor']:.2f}x it")
        for name, r in serial["reads"].items():
            print(f"read {name:>18}: best OpenVisus / lodex warm {r['openvisus_best_over_lodex_warm']:.2f}, "
                  f"cold {r['openvisus_best_over_lodex_cold']:.2f}")
        chart_serial(serial, os.path.splitext(args.out)[0] + ".png")
    if result["writes"]:
        chart_writes(result["writes"], os.path.splitext(args.out)[0] + "_writes.png")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
