"""openPMD import and export against openPMD-api alone, and reads after import (issue 37).

One process (the PyPI openPMD-api has no MPI). A file-based ADIOS2 BP series of N particles
(position f8 x 3 uniform in the unit box, momentum f4 x 3, id u8; one iteration) is written with
openPMD-api. Per repetition, interleaved after one warm-up of each:

- read: openPMD-api loads every record of the species (the baseline of an import);
- import: ``lodex.openpmd.import_series`` of the species into a new dataset (2 x 2 x 2 grid);
- write: openPMD-api writes the same arrays as a new BP series (the baseline of an export);
- export: ``lodex.openpmd.export`` of the imported group as a new BP series;
- box and preview, warm and cold (the files evicted from the page cache first): a 1/8 box
  ((0, 0, 0), (0.5, 0.5, 0.5)) and a 1 % preview (``fraction=0.01``) read from the imported
  dataset, against openPMD-api reading the whole species of the original series and then
  selecting the same (the box by its positions, the preview as 1 % of the rows).

Medians with min and max. The files live in --dir (default: a temporary folder under bench/, on
a disk: the cold reads need files the page cache can drop).

    .venv/bin/python bench/openpmd.py [--particles 1000000] [--repeats 5] [--dir D] [--out F] [--chart-only]
Writes bench/results/openpmd.json and its chart bench/results/openpmd.png.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time

import numpy as np

import lodex
import lodex.openpmd
from bench_common import NotColdError, chart_path, environment, evict, figure, files_under

HERE = os.path.dirname(os.path.abspath(__file__))
BOX = ((0.0, 0.0, 0.0), (0.5, 0.5, 0.5))


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


def read_all(io, path: str) -> dict:
    s = io.Series(path, io.Access.read_only)
    e = s.iterations[0].particles["electrons"]
    cols = {(r, c): e[r][c].load_chunk() for r in ("position", "momentum") for c in "xyz"}
    cols[("id", "")] = e["id"][io.Record_Component.SCALAR].load_chunk()
    s.flush()
    s.close()
    return {"position": np.stack([cols[("position", c)] for c in "xyz"], axis=1),
            "momentum": np.stack([cols[("momentum", c)] for c in "xyz"], axis=1), "id": cols[("id", "")]}


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
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
    n = args.particles
    rng = np.random.default_rng(0)
    arrays = {"position": rng.random((n, 3)), "momentum": rng.normal(size=(n, 3)).astype(np.float32),
              "id": np.arange(n, dtype=np.uint64)}
    work = tempfile.mkdtemp(dir=args.dir or HERE)   # a disk, not a tmpfs: cold reads need eviction
    env = environment(work)
    src = os.path.join(work, "src_%T.bp")
    write_source(io, src, arrays)
    names = ["read", "import", "write", "export", "box_warm", "box_openpmd_warm", "preview_warm",
             "preview_openpmd_warm", "box_cold", "box_openpmd_cold", "preview_cold", "preview_openpmd_cold"]
    times = {k: [] for k in names}
    counts = {}
    cold_method = None
    try:
        for rep in range(args.repeats + 1):
            run = {}
            run["read"], _ = timed(lambda: read_all(io, src))
            ds_path = os.path.join(work, f"imp{rep}.lodex")
            run["import"], _ = timed(lambda: lodex.openpmd.import_series(src, ds_path, "electrons",
                                                                        partition_grid=(2, 2, 2)))
            out_w = os.path.join(work, f"w{rep}_%T.bp")
            run["write"], _ = timed(lambda: write_source(io, out_w, arrays))
            out_e = os.path.join(work, f"e{rep}_%T.bp")
            run["export"], _ = timed(lambda: lodex.openpmd.export(ds_path, "electrons", out_e))
            g = lodex.open(ds_path).particles("electrons")
            for temp in ("warm", "cold"):
                for what in ("box", "preview"):
                    if temp == "cold":
                        cold_method, _ = evict(files_under(ds_path))
                    if what == "box":
                        t, got = timed(lambda: g.read(0, box=BOX))
                    else:
                        t, got = timed(lambda: g.read(0, fraction=0.01))
                    run[f"{what}_{temp}"] = t
                    counts[what] = len(got["id"])
                    if temp == "cold":
                        evict(files_under(src.replace("%T", "0")))

                    def peer(what=what):
                        a = read_all(io, src)
                        if what == "box":
                            inside = np.all((a["position"] >= BOX[0]) & (a["position"] < BOX[1]), axis=1)
                            return {k: v[inside] for k, v in a.items()}
                        keep = np.random.default_rng(1).choice(n, max(1, n // 100), replace=False)
                        return {k: v[keep] for k, v in a.items()}
                    run[f"{what}_openpmd_{temp}"], sel = timed(peer)
                    counts[f"{what}_openpmd"] = len(sel["id"])
            shutil.rmtree(out_w.replace("%T", "0"), ignore_errors=True)
            shutil.rmtree(out_e.replace("%T", "0"), ignore_errors=True)
            if rep > 0:   # the first round warms up
                for k, v in run.items():
                    times[k].append(v)
            shutil.rmtree(ds_path, ignore_errors=True)
    except NotColdError as e:
        raise SystemExit(f"no cold figures on this machine: {e}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    res = {k: summary(v) for k, v in times.items()}
    ratios = {
        "import_over_read": res["import"]["median"] / res["read"]["median"],
        "export_over_write": res["export"]["median"] / res["write"]["median"],
        **{f"{w}_{t}_speedup": res[f"{w}_openpmd_{t}"]["median"] / res[f"{w}_{t}"]["median"]
           for w in ("box", "preview") for t in ("warm", "cold")},
    }
    out = {"environment": env, "particles": n, "repeats": args.repeats, "cold_method": cold_method,
           "counts": counts, "seconds": res, "ratios": ratios}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    draw(out, chart_path(args.out))
    print(json.dumps({"seconds": {k: round(v["median"], 4) for k, v in res.items()}, "ratios": ratios}, indent=1))


def draw(out: dict, path: str) -> None:
    fig, axes = figure(1, 2, (11, 4))
    sec = out["seconds"]
    ax = axes[0][0]
    pairs = [("import", "read"), ("export", "write")]
    xs = np.arange(len(pairs))
    for j, (label, idx) in enumerate((("lodex", 0), ("openPMD-api alone", 1))):
        vals = [sec[p[idx]] for p in pairs]
        ax.bar(xs + (j - 0.5) * 0.38, [v["median"] for v in vals], 0.38, label=label,
               yerr=[[v["median"] - v["min"] for v in vals], [v["max"] - v["median"] for v in vals]])
    ax.set_xticks(xs, ["import vs read", "export vs write"])
    ax.set_ylabel("seconds (median, min-max)")
    ax.set_title(f"{out['particles']:,} particles, one process")
    ax.legend()
    ax = axes[0][1]
    groups = ["box_warm", "box_cold", "preview_warm", "preview_cold"]
    xs = np.arange(len(groups))
    for j, (label, key) in enumerate((("lodex after import", "{}"), ("openPMD-api: read all, filter", "{}"))):
        keys = [g if j == 0 else g.replace("_", "_openpmd_") for g in groups]
        ax.bar(xs + (j - 0.5) * 0.38, [sec[k]["median"] for k in keys], 0.38, label=label)
    ax.set_xticks(xs, ["1/8 box warm", "1/8 box cold", "1 % preview warm", "1 % preview cold"])
    ax.set_yscale("log")
    ax.set_ylabel("seconds (median)")
    ax.set_title("a selection")
    ax.legend()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
