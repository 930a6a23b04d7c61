"""Time to the first picture of a particle step (issue 22): a projection along z of one step of
10^7 and 10^8 VPIC-like electrons (written by plot_write_worker.py on 4 ranks, 32 files),
from open to PNG on disk, by

- ``lodex_lod``: lodex.plot.particles at its default level of detail (a fair sample of about
  2^21 particles, read with ``fraction``), the picture lodex render draws;
- ``lodex_full``: the same picture from a full read of the positions (``sample=None``);
- ``npy_full``: the strongest full-read baseline a user would pick: the positions saved as one
  raw .npy per writing rank (np.load, no checksums, no metadata), binned and drawn the same way;
- ``lodex_render``: the ``lodex render`` command of the ``lodex_lod`` picture, a new Python
  process (imports of numpy, lodex and matplotlib included).

Warm (the files in the page cache) and cold (each method's files evicted with
posix_fadvise(DONTNEED) before the run, checked with mincore), repetitions interleaved; medians
with min and max. Goal: the 10^8-particle step's first picture in under 1 s.

    python bench/plot.py [--sizes 1e7,1e8] [--repeats 5] [--work /tmp/lodex-plot-bench]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import MPIEXEC, environment, evict, files_under, run_json  # noqa: E402

import lodex  # noqa: E402
import lodex.plot as lp  # noqa: E402
from lodex.plot import _data  # noqa: E402

WRITERS = 4


def write(work: str, total: int) -> dict:
    d = os.path.join(work, f"n{total:.0e}".replace("+", ""))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    path = os.path.join(d, "vpic.lodex")
    out = run_json([MPIEXEC, "-n", str(WRITERS), sys.executable, os.path.join(HERE, "plot_write_worker.py"), path,
                    str(total)], timeout=3600)
    out["path"] = path
    out["npy"] = [os.path.join(d, f"positions_{r}.npy") for r in range(WRITERS)]
    return out


def lodex_picture(path: str, out: str, sample) -> dict:
    """Open, read, bin, draw, save: seconds of each part."""
    t0 = time.perf_counter()
    g = lodex.open(path).particles["electrons"]
    data = _data.projection(g, 0, "z", sample=sample)
    t1 = time.perf_counter()
    lp.save(lp.draw(data), out)
    t2 = time.perf_counter()
    return {"total_s": t2 - t0, "read_s": data.stats["read_wall_s"], "bin_s": data.stats["bin_s"],
            "open_read_bin_s": t1 - t0, "draw_save_s": t2 - t1,
            "particles": int(data.stats["particles"]), "bytes_read": int(data.stats["bytes_read"])}


def npy_picture(paths: list[str], domain, out: str) -> dict:
    t0 = time.perf_counter()
    pos = np.concatenate([np.load(p) for p in paths])
    t_read = time.perf_counter() - t0
    lo, hi = (np.asarray(c, dtype=np.float64) for c in domain)
    eh, ev = _data.image_edges(lo, hi, 2, _data.DEFAULT_PIXELS)
    t_bin = time.perf_counter()
    counts = _data.histogram_2d(pos[:, 0], pos[:, 1], eh, ev)
    t_bin = time.perf_counter() - t_bin
    data = _data.PlotData("projection", counts, eh, ev, title=f"electrons, step 0, {len(pos):,} particles",
                          xlabel="x", ylabel="y", label="particles per pixel")
    t1 = time.perf_counter()
    lp.save(lp.draw(data), out)
    t2 = time.perf_counter()
    return {"total_s": t2 - t0, "read_s": t_read, "bin_s": t_bin, "open_read_bin_s": t1 - t0, "draw_save_s": t2 - t1,
            "particles": len(pos), "bytes_read": sum(os.path.getsize(p) for p in paths)}


def summary(runs: list[dict]) -> dict:
    out = {}
    for key in runs[0]:
        vals = [r[key] for r in runs]
        if key.endswith("_s"):
            out[key] = {"median": statistics.median(vals), "min": min(vals), "max": max(vals)}
        else:
            out[key] = vals[0] if len(set(vals)) == 1 else vals
    return out


def measure(ds: dict, repeats: int, work: str) -> dict:
    domain = lodex.open(ds["path"]).particles["electrons"].domain
    methods = {
        "lodex_lod": (lambda out: lodex_picture(ds["path"], out, _data.DEFAULT_SAMPLE), files_under(ds["path"])),
        "lodex_full": (lambda out: lodex_picture(ds["path"], out, None), files_under(ds["path"])),
        "npy_full": (lambda out: npy_picture(ds["npy"], domain, out), ds["npy"]),
        "lodex_render": (lambda out: command_picture(ds["path"], out), files_under(ds["path"])),
    }
    runs = {m: {"warm": [], "cold": []} for m in methods}
    resident_max = 0.0
    for _ in range(repeats):   # interleaved: every method warm, then every method cold
        for m, (fn, _) in methods.items():
            fn(os.path.join(work, f"{m}.png"))   # warms the files
            runs[m]["warm"].append(fn(os.path.join(work, f"{m}.png")))
        for m, (fn, files) in methods.items():
            _, resident = evict(files, methods=("fadvise",))
            resident_max = max(resident_max, resident)
            runs[m]["cold"].append(fn(os.path.join(work, f"{m}.png")))
    out = {m: {t: summary(r) for t, r in v.items()} for m, v in runs.items()}
    out["cold_resident_max"] = resident_max
    for t in ("warm", "cold"):
        lod = out["lodex_lod"][t]["total_s"]["median"]
        out[f"speedup_{t}"] = {b: out[b][t]["total_s"]["median"] / lod for b in ("lodex_full", "npy_full")}
    return out


def command_picture(path: str, out: str) -> dict:
    """Seconds of one `lodex render` of the default picture: a new Python process, imports included."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "lodex.cli", "render", path, "electrons", "--step", "0", "--out", out],
                   check=True, capture_output=True, timeout=600)
    return {"total_s": time.perf_counter() - t0}


def chart(results: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    sizes = list(results["sizes"])
    methods = [("lodex_lod", "lodex.plot, level of detail"), ("lodex_render", "lodex render (new process)"),
               ("lodex_full", "lodex.plot, full read"), ("npy_full", "raw .npy, full read")]
    fig = Figure(figsize=(8, 4), layout="constrained")
    for k, temp in enumerate(("warm", "cold")):
        ax = fig.add_subplot(1, 2, k + 1)
        width = 0.8 / len(methods)
        for j, (m, label) in enumerate(methods):
            med = [results["sizes"][s][m][temp]["total_s"]["median"] for s in sizes]
            lo = [results["sizes"][s][m][temp]["total_s"]["min"] for s in sizes]
            hi = [results["sizes"][s][m][temp]["total_s"]["max"] for s in sizes]
            xs = np.arange(len(sizes)) + (j - (len(methods) - 1) / 2) * width
            ax.bar(xs, med, width, label=label, yerr=[np.subtract(med, lo), np.subtract(hi, med)], capsize=3)
        ax.axhline(1.0, color="k", ls="--", lw=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(sizes)), [f"{int(float(s)):.0e} particles".replace("+0", "") for s in sizes])
        ax.set_ylabel("seconds to the first picture (open to PNG)")
        ax.set_title(f"{temp} page cache (median, min-max)", fontsize="medium")
        if k == 0:
            ax.legend(fontsize="small")
    fig.savefig(path, dpi=90)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1e7,1e8")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--work", default="/tmp/lodex-plot-bench")
    ap.add_argument("--keep", action="store_true", help="keep the datasets")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "plot.json"))
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    results = {"environment": environment(a.work), "repeats": a.repeats, "writers": WRITERS,
               "sample": _data.DEFAULT_SAMPLE, "pixels": _data.DEFAULT_PIXELS, "sizes": {}}
    for size in a.sizes.split(","):
        total = int(float(size))
        ds = write(a.work, total)
        r = {"write": {k: v for k, v in ds.items() if k not in ("path", "npy")}}
        r.update(measure(ds, a.repeats, a.work))
        results["sizes"][size] = r
        print(f"{total:.0e} particles: level of detail {r['lodex_lod']['warm']['total_s']['median']:.3f} s warm, "
              f"{r['lodex_lod']['cold']['total_s']['median']:.3f} s cold; full read "
              f"{r['lodex_full']['warm']['total_s']['median']:.3f} / "
              f"{r['lodex_full']['cold']['total_s']['median']:.3f} s; "
              f"npy {r['npy_full']['warm']['total_s']['median']:.3f} / "
              f"{r['npy_full']['cold']['total_s']['median']:.3f} s; "
              f"lodex render {r['lodex_render']['warm']['total_s']['median']:.2f} / "
              f"{r['lodex_render']['cold']['total_s']['median']:.2f} s", flush=True)
        if not a.keep:
            shutil.rmtree(os.path.dirname(ds["path"]), ignore_errors=True)
    results["environment"]["loadavg_end"] = os.getloadavg()
    with open(a.out, "w") as f:
        json.dump(results, f, indent=1)
    chart(results, os.path.splitext(a.out)[0] + ".png")
    print(f"wrote {a.out} and its chart")


if __name__ == "__main__":
    main()
