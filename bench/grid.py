"""Grid (IDX) benchmarks of issue 5, every ratio against a baseline measured in the same run:

1. parallel writes (bench/grid_write_worker.py) at 1, 2, 4, 8 ranks: the S3D workload (a 32^3
   block of 16 f8 fields per rank) and one 256^3 f4 field, against raw file per process of the
   same bytes; uniform vs localized aggregation vs localized + partitioning (paper 001 Figure
   15, global and local index space) with the per-phase breakdown; then the 256^3 field again
   with every method's files made durable (fsync) inside its timing;
2. OpenVisus's own writer on the 256^3 field against lodex at one process;
3. reads of the same 256^3 files by lodex and by OpenVisus, warm and cold: full, 1/8 and 1/64
   resolution, a 64^3 box;
4. HZ encoding rate (samples per second on one core).

    .venv/bin/python bench/grid.py [--repeats 5] [--out bench/results/grid.json]
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import MPIEXEC, environment, run_json  # noqa: E402

os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")


def drop_caches(paths) -> str:
    """Evicts the files from the page cache (drop_caches, else fadvise), the particle benchmark's way."""
    from particle_read_worker import PageCache
    for method in ("drop_caches", "fadvise"):
        try:
            PageCache(method).drop(paths)
            return method
        except OSError:
            continue
    return "none"


def files_under(d):
    return [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs]


def serial_write_and_read(work: str, repeats: int) -> dict:
    import OpenVisus as ov

    import lodex

    dims = (256, 256, 256)
    data = np.random.default_rng(5).random(dims[::-1], dtype=np.float32)
    out = {"write": {"lodex_s": [], "openvisus_s": []}, "hz_encode_s": []}
    for rep in range(repeats):
        p = os.path.join(work, f"serial-{rep}.lodex")
        shutil.rmtree(p, ignore_errors=True)
        t0 = time.perf_counter()
        ds = lodex.create(p)
        g = ds.grid("v", dims=dims, dtype="f4")
        g.write(0, ((0, 0, 0), dims), data)
        ds.close()
        out["write"]["lodex_s"].append(time.perf_counter() - t0)
        out["hz_encode_s"].append(g.profile["phases"]["hz_encode"]["max_s"])
        q = os.path.join(work, f"ov-{rep}")
        shutil.rmtree(q, ignore_errors=True)
        os.makedirs(q)
        t0 = time.perf_counter()
        db = ov.CreateIdx(url=os.path.join(q, "v.idx"), dims=list(dims), fields=[ov.Field("v", "float32", "hzorder")])
        db.write(data)
        out["write"]["openvisus_s"].append(time.perf_counter() - t0)
        if rep:   # keep one copy of each for the reads
            shutil.rmtree(p)
            shutil.rmtree(q)
    w = out["write"]
    w["lodex_median_s"] = float(np.median(w["lodex_s"]))
    w["openvisus_median_s"] = float(np.median(w["openvisus_s"]))
    w["openvisus_over_lodex"] = w["openvisus_median_s"] / w["lodex_median_s"]
    enc = float(np.median(out["hz_encode_s"]))
    out["hz_encode_samples_per_s_per_core"] = dims[0] * dims[1] * dims[2] / enc

    # Reads of the same files (lodex's layout = OpenVisus's for one process: byte-identical).
    idx = os.path.join(work, "serial-0.lodex", "v.idx")
    lx = lodex.open_idx(idx)
    db = ov.LoadDataset(idx)
    maxh = lx.max_resolution
    cases = {"full": dict(), "res_1/8": dict(resolution=maxh - 3), "res_1/64": dict(resolution=maxh - 6),
             "box_64^3": dict(box=((96, 96, 96), (160, 160, 160)))}

    def ov_read(kw):
        args = {"time": 0}
        if "resolution" in kw:
            args["max_resolution"] = kw["resolution"]
        if "box" in kw:
            (x0, y0, z0), (x1, y1, z1) = kw["box"]
            args.update(x=[x0, x1], y=[y0, y1], z=[z0, z1])
        return db.read(**args)

    def lx_read(kw):
        return lx.read(0, **kw)

    reads = {}
    paths = files_under(os.path.join(work, "serial-0.lodex"))
    method = None
    for name, kw in cases.items():
        a, b = lx_read(kw), ov_read(kw)
        assert np.array_equal(a, b), name
        r = {}
        for label, fn in (("lodex", lx_read), ("openvisus", ov_read)):
            warm, cold = [], []
            for _ in range(repeats):
                t0 = time.perf_counter()
                fn(kw)
                warm.append(time.perf_counter() - t0)
            for _ in range(repeats):
                method = drop_caches(paths)
                t0 = time.perf_counter()
                fn(kw)
                cold.append(time.perf_counter() - t0)
            r[label] = {"warm_s": warm, "cold_s": cold, "warm_median_s": float(np.median(warm)),
                        "cold_median_s": float(np.median(cold))}
        r["openvisus_over_lodex_warm"] = r["openvisus"]["warm_median_s"] / r["lodex"]["warm_median_s"]
        r["openvisus_over_lodex_cold"] = r["openvisus"]["cold_median_s"] / r["lodex"]["cold_median_s"]
        reads[name] = r
    out["reads"] = reads
    out["cold_method"] = method
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--ranks", default="1,2,4,8")
    ap.add_argument("--dir", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "grid.json"))
    args = ap.parse_args()
    work = args.dir or tempfile.mkdtemp(prefix="lodex-grid-bench-")
    os.makedirs(work, exist_ok=True)
    result = {"environment": environment(work), "repeats": args.repeats, "writes": []}
    try:
        for R in [int(r) for r in args.ranks.split(",")]:
            for wl in ("s3d", "big"):
                cmd = [MPIEXEC, "-n", str(R), sys.executable, os.path.join(HERE, "grid_write_worker.py"),
                       "--dir", work, "--workload", wl, "--repeats", str(args.repeats)]
                r = run_json(cmd, timeout=1800)
                result["writes"].append(r)
                print(f"{wl:>4} {R} ranks: raw {r['throughput_mib_s']['raw']:.0f} MiB/s; " + ", ".join(
                    f"{k} {v:.2f}x raw" for k, v in r["ratio_to_raw"].items()), flush=True)
        # Durable writes: every method's files reach the disk (fsync) before its clock stops.
        result["writes_durable"] = []
        for R in [int(r) for r in args.ranks.split(",")]:
            cmd = [MPIEXEC, "-n", str(R), sys.executable, os.path.join(HERE, "grid_write_worker.py"),
                   "--dir", work, "--workload", "big", "--repeats", str(args.repeats), "--fsync",
                   "--schemes", "localized,partitioned,partitioned-local"]
            r = run_json(cmd, timeout=1800)
            result["writes_durable"].append(r)
            print(f" big {R} ranks, fsync: raw {r['throughput_mib_s']['raw']:.0f} MiB/s; " + ", ".join(
                f"{k} {v:.2f}x raw" for k, v in r["ratio_to_raw"].items()), flush=True)
        serial = serial_write_and_read(work, args.repeats)
        result["serial"] = serial
        w = serial["write"]
        print(f"256^3 f4 at one process: lodex {w['lodex_median_s'] * 1e3:.1f} ms, OpenVisus "
              f"{w['openvisus_median_s'] * 1e3:.1f} ms ({w['openvisus_over_lodex']:.2f}x)")
        print(f"HZ encoding: {serial['hz_encode_samples_per_s_per_core'] / 1e6:.0f} M samples/s per core")
        for name, r in serial["reads"].items():
            print(f"read {name:>9}: OpenVisus / lodex warm {r['openvisus_over_lodex_warm']:.2f}, "
                  f"cold {r['openvisus_over_lodex_cold']:.2f}")
    finally:
        if not args.dir:
            shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
