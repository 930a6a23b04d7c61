"""Series (STAR, Tian et al. 2013) benchmark: the GEOS-5-like workload (lodex.workloads.Geos: a
144 x 91 x 48 grid, 16 3-D and 48 2-D f4 variables) written by 8 ranks for 30 steps, in five
layouts of the same data written by lodex and the peer's:

  hdf5_per_step   the peer: GEOS-5's NetCDF-4 output as GEOS-5 writes it (Tian et al. 2013 §II-A),
                  every step gathered to rank 0 and written with h5py as one HDF5 file per step,
                  each variable one dataset, h5py's defaults (contiguous: netCDF-4's storage of a
                  fixed-size variable); read with h5py, one hyperslab per step

  star            d_tar, d_sar chosen by STAR coordination from this machine's calibration
                  (lodex.calibrate on the work folder, run first; the layout under test)
  star_lustre     d_tar, d_sar chosen by STAR coordination from the Lustre-like default settings
  file_per_step   d_tar = 1 and d_sar = the levels that merge every rank's box into one chunk:
                  one file per step, each variable contiguous (the NetCDF-4 style baseline)
  adios           d_tar = 1, d_sar = 0: one chunk per rank per variable per step, no
                  aggregation (the plain ADIOS style baseline)
  star_t30        d_tar = all the steps (30 by default, hence the name), d_sar chosen: one
                  window for the whole run (a sensitivity point)

1. writes (bench/series_worker.py under mpiexec): the slowest rank's time of the 30 collective
   writes and ds.close(), data generated beforehand; the layouts alternate within each
   repetition (the first layout rotates from one repetition to the next) and the last copy of
   each is kept for the reads;
2. serial reads (every layout with the same merge gap: the calibration's break-even
   bw_io x ts, the reading machine's property) of variable T (and PS for a point) from those copies: the three planes
   through
   the grid's centre at the middle step and across all steps, 1-D lines across all steps (a
   vertical column, an x-line, a y-line, a point of PS), the centred half-extent sub-volume at
   one step and across all steps. Cold (the dataset's files evicted from the page cache before
   each run, and mincore finding at most 1 % of them resident, else the run stops) and warm (after an untimed read),
   both timing lodex.open + read with a fresh
   dataset, so window heads are read too; warm with the same Series object (heads cached) for
   the planes and lines. Requests, bytes, chunks and windows come from last_read_stats; every
   result is compared with numpy (Geos.field).

Medians, ratios baseline / star for each pattern, and the issue's goals (1-D lines >= 20x faster
than one file per step; the three planes across all steps >= 5x faster than the better baseline;
write time no worse than one file per step), each against the faster of the peer and lodex's own
layout of that kind. Writes bench/results/series.json.

    .venv/bin/python bench/series.py [--repeats 5] [--write-repeats 3] [--ranks 8] [--steps 30]
        [--dims 144 91 48] [--n2d 48] [--n3d 16] [--out bench/results/series.json] [--work DIR]
        [--calibration cal.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from typing import Any, NamedTuple

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_common import (MPIEXEC, chart_path, environment, evict, figure, files_under, goal_line,  # noqa: E402
                          goal_marks, grouped_bars, redraw, run_json, spread)

import lodex  # noqa: E402
from lodex.workloads import Geos  # noqa: E402

WORKER = os.path.join(HERE, "series_worker.py")
PEER = "hdf5_per_step"
LODEX_BASELINES = ("file_per_step", "adios")
BASELINES = (*LODEX_BASELINES, PEER)
PER_STEP = ("file_per_step", PEER)   # the goals' "one file per step": the faster of the two
SAME_SERIES_GROUPS = ("planes_step", "planes_series", "lines")
MODES = ("cold", "warm", "warm_same_series")   # warm_same_series: SAME_SERIES_GROUPS only


class Pattern(NamedTuple):
    group: str          # planes_step, planes_series, lines, subvolume
    var: str
    steps: Any          # an int (the step axis is dropped) or a range
    box: tuple


def one_chunk_levels(px: int, py: int) -> int:
    """Levels of 2 x 2 rank grouping that merge a px x py decomposition into one chunk:
    ceil(log2(max(px, py)))."""
    return (max(px, py) - 1).bit_length()


def layouts(g: Geos, ranks: int) -> dict[str, tuple[int | None, int | None, bool]]:
    """Layout name -> (d_tar, d_sar, calibrated); None: chosen by STAR coordination, from the
    calibration when calibrated, else from the default (Lustre-like) settings."""
    return {
        "star": (None, None, True),
        "star_lustre": (None, None, False),
        "file_per_step": (1, one_chunk_levels(*g.decomposition(ranks)), False),
        "adios": (1, 0, False),
        f"star_t{g.steps}": (g.steps, None, True),
    }


def read_patterns(g: Geos) -> dict[str, Pattern]:
    """The read patterns through the grid's centre (x, y, z) = dims // 2 at the middle step."""
    nx, ny, nz = g.dims
    xm, ym, zm = nx // 2, ny // 2, nz // 2
    step, every = g.steps // 2, range(g.steps)
    planes = {"plane_xy": ((0, 0, zm), (nx, ny, zm + 1)),
              "plane_xz": ((0, ym, 0), (nx, ym + 1, nz)),
              "plane_yz": ((xm, 0, 0), (xm + 1, ny, nz))}
    quarter = tuple(int(d / 4 + 0.5) for d in g.dims), tuple(int(3 * d / 4 + 0.5) for d in g.dims)
    out = {f"{name}_step": Pattern("planes_step", "T", step, box) for name, box in planes.items()}
    out.update({f"{name}_series": Pattern("planes_series", "T", every, box) for name, box in planes.items()})
    out.update({
        "column_series": Pattern("lines", "T", every, ((xm, ym, 0), (xm + 1, ym + 1, nz))),
        "line_x_series": Pattern("lines", "T", every, ((0, ym, zm), (nx, ym + 1, zm + 1))),
        "line_y_series": Pattern("lines", "T", every, ((xm, 0, zm), (xm + 1, ny, zm + 1))),
        "ps_point_series": Pattern("lines", "PS", every, ((xm, ym), (xm + 1, ym + 1))),
        "subvolume_series": Pattern("subvolume", "T", every, quarter),
        "subvolume_step": Pattern("subvolume", "T", step, quarter),
    })
    return out


def expected(g: Geos, p: Pattern) -> np.ndarray:
    if isinstance(p.steps, int):
        return g.field(p.var, p.steps, p.box)
    return np.stack([g.field(p.var, t, p.box) for t in p.steps])


def median(xs) -> float:
    return float(np.median(xs))


def ratio_table(times: dict[str, float]) -> dict[str, dict[str, float]]:
    """For each lodex layout: baseline time / its time, per baseline and for the better one."""
    better = min(times[b] for b in BASELINES)
    return {name: {**{b: times[b] / t for b in BASELINES}, "better_baseline": better / t}
            for name, t in times.items() if name not in BASELINES}


# ---------------------------------------------------------------------------------------------
# Writes


def write_benchmark(args, g: Geos, work: str, calibration: str) -> tuple[dict, dict[str, str]]:
    """Every layout written --write-repeats times, interleaved; returns the results and the
    paths of the kept (last) copies."""
    chosen = layouts(g, args.ranks)
    names = list(chosen) + [PEER]
    runs = {name: [] for name in names}
    last = args.write_repeats - 1
    for rep in range(args.write_repeats):
        for name in names[rep % len(names):] + names[:rep % len(names)]:
            path = os.path.join(work, f"{name}-{rep}.lodex")
            shutil.rmtree(path, ignore_errors=True)
            cmd = [MPIEXEC, "-n", str(args.ranks), sys.executable, WORKER, "--path", path,
                   "--steps", str(g.steps), "--dims", *map(str, g.dims), "--n2d", str(g.n2d), "--n3d", str(g.n3d)]
            if name == PEER:
                cmd.append("--hdf5")
            else:
                d_tar, d_sar, calibrated = chosen[name]
                cmd += ["--d-tar", "auto" if d_tar is None else str(d_tar),
                        "--d-sar", "auto" if d_sar is None else str(d_sar)]
                cmd += ["--calibration", calibration] if calibrated else []
            r = run_json(cmd, timeout=3600)
            runs[name].append(r)
            if rep < last:   # the disk keeps one copy per layout: the last, for the reads
                shutil.rmtree(path)
            print(f"write rep {rep} {name:>14}: {r['write_s'] * 1e3:9.1f} ms, d_tar {r['meta']['d_tar']}, "
                  f"d_sar {r['meta']['d_sar']}, {r['files']} files", flush=True)
    out = {}
    for name, rs in runs.items():
        times = [r["write_s"] for r in rs]
        kept = rs[-1]
        phases = kept["profile"]["phase_sum_max_s"]
        out[name] = {
            "d_tar_asked": chosen[name][0] if name in chosen else 1,
            "d_sar_asked": chosen[name][1] if name in chosen else None,
            "write_s": times, "write_median_s": median(times),
            "define_median_s": median([r["define_s"] for r in rs]),
            "data_mib_s": kept["data_bytes"] / 2**20 / median(times),
            "phase_sum_max_median_s": {ph: median([r["profile"]["phase_sum_max_s"][ph] for r in rs]) for ph in phases},
            "kept": kept,
        }
    ratios = ratio_table({name: r["write_median_s"] for name, r in out.items()})
    return {"layouts": out, "ratios": ratios}, {name: os.path.join(work, f"{name}-{last}.lodex") for name in names}


# ---------------------------------------------------------------------------------------------
# Reads


def check(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if got.shape != want.shape or not np.array_equal(got, want):
        raise SystemExit(f"wrong data: {what}: got shape {got.shape}, expected {want.shape}")


class Hdf5Steps:
    """The peer's reader: the per-step HDF5 files of a folder, opened with h5py as a read needs
    them (kept open, as a lodex Series keeps its heads) and read one hyperslab per step."""

    def __init__(self, path: str):
        self.path, self.files = path, {}

    def read(self, var: str, steps, box) -> np.ndarray:
        import h5py
        (x0, y0, *z0), (x1, y1, *z1) = box
        out = []
        for t in ([steps] if isinstance(steps, int) else steps):
            if t not in self.files:
                self.files[t] = h5py.File(os.path.join(self.path, f"step_{t:04d}.h5"), "r")
            d = self.files[t][var]
            out.append(d[z0[0]:z1[0], y0:y1, x0:x1] if d.ndim == 3 else d[y0:y1, x0:x1])
        return out[0] if isinstance(steps, int) else np.stack(out)

    def close(self) -> None:
        for f in self.files.values():
            f.close()


def open_and_read(path: str, p: Pattern, gap: int, peer: bool = False) -> tuple[float, np.ndarray, dict]:
    """lodex.open + read with a fresh dataset (no cached heads), or the peer's files opened and
    read: seconds, array, read stats (lodex's; none for the peer)."""
    t0 = time.perf_counter()
    if peer:
        r = Hdf5Steps(path)
        a = r.read(p.var, p.steps, p.box)
        dt = time.perf_counter() - t0
        r.close()
        return dt, a, {}
    ds = lodex.open(path)
    s = ds.series["geos"]
    a = s.read(p.var, steps=p.steps, box=p.box, merge_gap=gap)
    dt = time.perf_counter() - t0
    stats = s.last_read_stats
    ds.close()
    return dt, a, stats


def layout_check(paths: dict[str, str], g: Geos, ranks: int) -> dict[str, int]:
    """Chunks of one variable at one step in each layout; the baselines must be what they claim."""
    chunks = {}
    peer = Hdf5Steps(paths[PEER])
    check(peer.read(0, ((0, 0, 0), g.dims), "T"), g.field("T", 0), f"{PEER} whole T at step 0")
    peer.close()
    for name, path in paths.items():
        if name == PEER:
            continue
        ds = lodex.open(path)
        s = ds.series["geos"]
        check(s.read(variable="T", steps=0), g.field("T", 0), f"{name} whole T at step 0")
        chunks[name] = s.last_read_stats["chunks"]
        ds.close()
    if chunks["file_per_step"] != 1 or chunks["adios"] != ranks:
        raise SystemExit(f"baseline layouts are not as intended: chunks of T per step {chunks}")
    return chunks


def read_benchmark(args, g: Geos, paths: dict[str, str], gap: int) -> dict:
    """Every pattern on every layout: cold runs (each after evicting that layout's files), then
    warm runs (after an untimed read), each with a fresh lodex.open; then, for the planes and
    lines, warm runs reusing one Series per layout. Layouts alternate within each repetition."""
    files = {name: files_under(path) for name, path in paths.items()}
    method, resident = evict([f for fs in files.values() for f in fs])
    out = {"cold_method": method, "merge_gap": gap,
           "cold_resident_max": resident,   # the most of a cold run's files mincore found resident
           "chunks_of_T_per_step": layout_check(paths, g, args.ranks),
           "patterns": {}}
    for pname, p in read_patterns(g).items():
        want = expected(g, p)
        res = {name: {"cold_s": [], "warm_s": []} for name in paths}
        for _ in range(args.repeats):
            for name, path in paths.items():
                out["cold_resident_max"] = max(out["cold_resident_max"], evict(files[name])[1])
                dt, a, stats = open_and_read(path, p, gap, name == PEER)
                check(a, want, f"{name} {pname} cold")
                res[name]["cold_s"].append(dt)
                res[name]["stats"] = stats
        for name, path in paths.items():
            check(open_and_read(path, p, gap, name == PEER)[1], want, f"{name} {pname} warm-up")
        for _ in range(args.repeats):
            for name, path in paths.items():
                dt, a, _ = open_and_read(path, p, gap, name == PEER)
                check(a, want, f"{name} {pname} warm")
                res[name]["warm_s"].append(dt)
        if p.group in SAME_SERIES_GROUPS:
            datasets = {name: lodex.open(path) for name, path in paths.items() if name != PEER}
            series = {name: ds.series["geos"] for name, ds in datasets.items()}
            peer = Hdf5Steps(paths[PEER])   # its files kept open, as a Series keeps its heads
            readers = {name: (lambda s=s: s.read(p.var, steps=p.steps, box=p.box, merge_gap=gap))
                       for name, s in series.items()}
            readers[PEER] = lambda: peer.read(p.var, p.steps, p.box)
            for name, read in readers.items():
                check(read(), want, f"{name} {pname} same-series warm-up")
                res[name]["warm_same_series_s"] = []
            for _ in range(args.repeats):
                for name, read in readers.items():
                    t0 = time.perf_counter()
                    a = read()
                    res[name]["warm_same_series_s"].append(time.perf_counter() - t0)
                    check(a, want, f"{name} {pname} same-series warm")
                    if name in series:
                        res[name]["stats_same_series"] = series[name].last_read_stats
            for ds in datasets.values():
                ds.close()
            peer.close()
        for r in res.values():
            for mode in MODES:
                if f"{mode}_s" in r:
                    r[f"{mode}_median_s"] = median(r[f"{mode}_s"])
        out["patterns"][pname] = {
            "group": p.group, "var": p.var, "box": p.box, "bytes_returned": int(want.nbytes),
            "steps": p.steps if isinstance(p.steps, int) else [p.steps.start, p.steps.stop],
            "layouts": res}
        star = res["star"]
        print(f"read {pname:>17}: star cold {star['cold_median_s'] * 1e3:8.2f} ms, warm "
              f"{star['warm_median_s'] * 1e3:8.2f} ms, {star['stats']['requests']} requests", flush=True)
    return out


def modes_of(pattern: dict) -> list[str]:
    return [m for m in MODES if f"{m}_median_s" in pattern["layouts"]["star"]]


def read_ratios(reads: dict) -> dict:
    """Baseline / lodex median time for each pattern and mode, and for the planes' sums."""
    out = {}
    sums = {}
    for pname, p in reads["patterns"].items():
        out[pname] = {}
        for mode in modes_of(p):
            times = {name: r[f"{mode}_median_s"] for name, r in p["layouts"].items()}
            out[pname][mode] = ratio_table(times)
            if p["group"].startswith("planes"):
                acc = sums.setdefault(f"{p['group']}_sum", {}).setdefault(mode, dict.fromkeys(times, 0.0))
                for name, t in times.items():
                    acc[name] += t
    for key, by_mode in sums.items():
        out[key] = {mode: {"median_s_sum": times, "ratios": ratio_table(times)} for mode, times in by_mode.items()}
    return out


def goals(writes: dict, reads: dict, ratios: dict) -> dict:
    """The issue's three goals, each with the numbers that decide it."""
    lines = [n for n, p in reads["patterns"].items() if p["group"] == "lines"]
    out = {"lines_ge_20x_file_per_step": {}, "planes_series_ge_5x_better_baseline": {}}
    for mode in ("cold", "warm"):
        per_line = {n: per_step_ratio(ratios[n][mode]["star"]) for n in lines}
        m = median(list(per_line.values()))
        out["lines_ge_20x_file_per_step"][mode] = {"ratio_per_line": per_line, "median_ratio": m, "met": m >= 20}
        planes = ratios["planes_series_sum"][mode]
        times = planes["median_s_sum"]
        better = min(BASELINES, key=lambda b: times[b])
        r = planes["ratios"]["star"]["better_baseline"]
        out["planes_series_ge_5x_better_baseline"][mode] = {
            "star_s": times["star"], "better_baseline": better, "better_baseline_s": times[better],
            "ratio": r, "met": r >= 5}
    star = writes["layouts"]["star"]["write_median_s"]
    base = min(PER_STEP, key=lambda n: writes["layouts"][n]["write_median_s"])
    fps = writes["layouts"][base]["write_median_s"]
    out["write_le_file_per_step"] = {"star_median_s": star, "baseline": base, "baseline_median_s": fps,
                                     "met": star <= fps}
    return out


def per_step_ratio(ratios: dict) -> float:
    """A layout's ratio against one file per step: against the faster of the peer and lodex's
    own layout of that kind (the smaller ratio)."""
    return min(ratios[b] for b in PER_STEP)


# ---------------------------------------------------------------------------------------------
# A cost model (not a measurement): the measured requests and bytes priced at other costs


LUSTRE = {"ts": 5e-3, "bw_io": 500e6}   # lodex's default settings: one OST of a busy Lustre


def modeled(reads: dict, ts: float, bw_io: float) -> dict:
    """Each pattern's cold read on each layout priced as requests x ts + bytes / bw_io, from the
    requests and bytes this run measured (made with this machine's merge gap, so the layouts
    with few large chunks would merge more at Lustre's); the goals' ratios on those prices."""
    out = {"ts": ts, "bw_io": bw_io, "patterns": {}}
    for pname, p in reads["patterns"].items():
        out["patterns"][pname] = {name: r["stats"]["requests"] * ts + r["stats"]["bytes_read"] / bw_io
                                  for name, r in p["layouts"].items() if name != PEER}
    lines = [n for n, p in reads["patterns"].items() if p["group"] == "lines"]
    planes = [n for n, p in reads["patterns"].items() if p["group"] == "planes_series"]
    names = [n for n in next(iter(out["patterns"].values())) if n not in BASELINES]   # lodex's own, modelled
    out["goals"] = {}
    for name in names:
        per_line = {n: out["patterns"][n]["file_per_step"] / out["patterns"][n][name] for n in lines}
        sums = {lay: sum(out["patterns"][n][lay] for n in planes) for lay in (name, *LODEX_BASELINES)}
        out["goals"][name] = {
            "lines_vs_file_per_step": per_line, "lines_median": median(list(per_line.values())),
            "planes_series_vs_better_baseline": min(sums[b] for b in LODEX_BASELINES) / sums[name]}
    return out


# ---------------------------------------------------------------------------------------------
# Summary


def ms(x: float) -> str:
    return f"{x * 1e3:9.2f}"


def summary(res: dict) -> None:
    s, w = res["settings"], res["writes"]
    names = list(w["layouts"])
    print(f"\n== lodex series: GEOS-5-like {s['dims']}, {s['n3d']} 3-D + {s['n2d']} 2-D f4 variables, "
          f"{s['ranks']} ranks, {s['steps']} steps; {res['environment']['cpu_count']} cpus; cold = "
          f"{res['reads']['cold_method']}")
    print(f"\n-- writes (median of the slowest rank's {s['steps']} writes + close)")
    print(f"{'layout':>14} {'d_tar':>5} {'d_sar':>5} {'files':>6} {'MiB':>8} {'write ms':>9}  fps/x  adios/x  hdf5/x")
    for name in names:
        r = w["layouts"][name]
        k = r["kept"]
        rat = w["ratios"].get(name)
        tail = f"{rat['file_per_step']:6.2f} {rat['adios']:8.2f} {rat[PEER]:7.2f}" if rat else ""
        print(f"{name:>14} {k['meta']['d_tar']:>5} {k['meta']['d_sar']:>5} {k['files']:>6} "
              f"{k['bytes_on_disk'] / 2**20:8.1f} {ms(r['write_median_s'])}  {tail}")
    print("\n-- reads (median ms of a fresh open + read, cold/warm; requests of a fresh open)")
    print(f"{'pattern':>17} " + " ".join(f"{n + ' cold/warm':>24}" for n in names))
    for pname, p in res["reads"]["patterns"].items():
        cells = [f"{ms(p['layouts'][n]['cold_median_s'])}/{ms(p['layouts'][n]['warm_median_s']).strip():>8} "
                 f"({p['layouts'][n]['stats'].get('requests', '-'):>3})" for n in names]
        print(f"{pname:>17} " + " ".join(f"{c:>24}" for c in cells))
    print("\n-- star speed-up: baseline time / star time (cold | warm | warm, same Series)")
    print(f"{'pattern':>17} {'fps':>21} {'adios':>21} {'hdf5':>21} {'better':>21}")
    for pname, by_mode in res["ratios"].items():
        if pname.endswith("_sum"):
            by_mode = {m: v["ratios"] for m, v in by_mode.items()}
        cols = [" | ".join(f"{by_mode[m]['star'][b]:6.1f}" if m in by_mode else f"{'-':>6}" for m in MODES)
                for b in ("file_per_step", "adios", PEER, "better_baseline")]
        print(f"{pname:>17} " + " ".join(f"{c:>21}" for c in cols))
    m = res["modeled_lustre"]
    print(f"\n-- model, not measured: the requests and bytes above priced at ts {m['ts'] * 1e3:g} ms, "
          f"bw_io {m['bw_io'] / 1e6:g} MB/s")
    for name, r in m["goals"].items():
        print(f"{name:>14}: lines vs file_per_step median {r['lines_median']:5.1f}x "
              f"({', '.join(f'{k} {v:.1f}' for k, v in r['lines_vs_file_per_step'].items())}); "
              f"planes across steps vs better baseline {r['planes_series_vs_better_baseline']:4.1f}x")
    print("\n-- goals")
    for goal, r in res["goals"].items():
        if "met" in r:
            print(f"{goal:>36}: {'PASS' if r['met'] else 'FAIL'} (star {ms(r['star_median_s']).strip()} ms, "
                  f"{r['baseline']} {ms(r['baseline_median_s']).strip()} ms)")
        else:
            for mode, v in r.items():
                x = v.get("median_ratio", v.get("ratio"))
                print(f"{goal:>36}: {mode:>4} {'PASS' if v['met'] else 'FAIL'} ({x:.1f}x)")


# issue 7: 1-D lines >= 20x one file per step; planes across steps >= 5x the better baseline
LINES_GOAL, PLANES_GOAL = 20, 5


def goal_ratios(res: dict, layout: str, mode: str) -> tuple[float, float]:
    """One layout's two read goal ratios (as goals() computes star's): the median over the 1-D
    lines of one file per step / it, and the better baseline / it for the planes across steps."""
    lines = [n for n, p in res["reads"]["patterns"].items() if p["group"] == "lines"]
    per_line = [per_step_ratio(res["ratios"][n][mode][layout]) for n in lines]
    return median(per_line), res["ratios"]["planes_series_sum"][mode]["ratios"][layout]["better_baseline"]


def chart(res: dict, path: str) -> None:
    """1. write time per layout (medians, min-max) with the goal (star <= one file per step);
    2-3. every read pattern on every layout, cold and warm; 4. the read goals' ratios of each
    STAR layout, with the goals."""
    fig, axes = figure(2, 2, (16, 10))
    names = list(res["writes"]["layouts"])
    ax = axes[0][0]
    grouped_bars(ax, ["30 steps + close"], {n: [spread(res["writes"]["layouts"][n]["write_s"])] for n in names})
    goal_line(ax, min(res["writes"]["layouts"][n]["write_median_s"] for n in PER_STEP),
              "goal: star <= the faster file per step")
    ax.set_ylabel("seconds (median, min-max)")
    ax.set_title(f"writes, {res['settings']['ranks']} ranks, {res['settings']['steps']} steps", fontsize="medium")
    ax.legend(fontsize=8)
    patterns = res["reads"]["patterns"]
    for ax, mode in ((axes[0][1], "cold"), (axes[1][0], "warm")):
        grouped_bars(ax, list(patterns), {n: [spread(p["layouts"][n][f"{mode}_s"]) for p in patterns.values()]
                                          for n in names}, scale=1e3, log=True)
        ax.set_ylabel("ms, lodex.open + read (median, min-max)")
        ax.set_title(f"reads of T (PS for the point), {mode} page cache", fontsize="medium")
        ax.legend(fontsize=8)
    ax = axes[1][1]
    star_layouts = [n for n in names if n not in BASELINES]
    groups = [(goal, mode) for goal in ("lines", "planes") for mode in ("cold", "warm")]
    labels = {"lines": "1-D lines vs the faster file per step", "planes": "planes across steps vs better baseline"}
    grouped_bars(ax,
                 [f"{labels[g]}, {m}" for g, m in groups],
                 {n: [goal_ratios(res, n, m)[0 if g == "lines" else 1] for g, m in groups] for n in star_layouts},
                 log=True)
    goal_marks(ax, [LINES_GOAL if g == "lines" else PLANES_GOAL for g, _ in groups],
               f"goals: lines >= {LINES_GOAL}x, planes >= {PLANES_GOAL}x", 0, len(star_layouts))
    ax.axhline(1.0, color="grey", lw=0.6)
    ax.set_ylabel("baseline time / layout time (median)")
    ax.set_title("the read goals", fontsize="medium")
    ax.legend(fontsize=8)
    fig.suptitle("Series (STAR), GEOS-5-like workload: five lodex layouts and the HDF5 (NetCDF-4) peer")
    fig.savefig(path, dpi=100)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per read pattern, layout and mode")
    ap.add_argument("--write-repeats", type=int, default=3)
    ap.add_argument("--ranks", type=int, default=8)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--dims", type=int, nargs=3, default=(144, 91, 48), metavar=("X", "Y", "Z"))
    ap.add_argument("--n2d", type=int, default=48)
    ap.add_argument("--n3d", type=int, default=16)
    ap.add_argument("--out", default=os.path.join(HERE, "results", "series.json"))
    ap.add_argument("--work", default=None, help="folder for the datasets (kept); default: a temporary one, removed")
    ap.add_argument("--calibration", default=None,
                    help="a saved lodex calibration to use; default: lodex.calibrate on the work folder first")
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out's JSON, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        redraw(args.out, chart)
        return
    g = Geos(dims=args.dims, n2d=args.n2d, n3d=args.n3d, steps=args.steps)
    work = args.work or tempfile.mkdtemp(prefix="lodex-series-bench-")
    os.makedirs(work, exist_ok=True)
    if args.calibration:
        cal = lodex.Calibration.load(args.calibration)
    else:
        cal = lodex.calibrate(work)
        print(f"calibration: {cal}", flush=True)
    cal_path = os.path.join(work, "calibration.json")
    if os.path.abspath(args.calibration or "") != os.path.abspath(cal_path):
        cal.save(cal_path)
    gap = int(min(cal.bw_io * cal.ts, 1 << 20))
    result = {
        "environment": environment(work),
        "settings": {"ranks": args.ranks, "decomposition": g.decomposition(args.ranks), "steps": args.steps,
                     "dims": g.dims, "n2d": g.n2d, "n3d": g.n3d, "step_bytes": g.step_bytes(),
                     "repeats": args.repeats, "write_repeats": args.write_repeats,
                     "layouts": layouts(g, args.ranks)},
        "calibration": cal.to_dict(),
    }
    try:
        result["writes"], paths = write_benchmark(args, g, work, cal_path)
        result["reads"] = read_benchmark(args, g, paths, gap)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    result["ratios"] = read_ratios(result["reads"])
    result["goals"] = goals(result["writes"], result["reads"], result["ratios"])
    result["modeled_lustre"] = modeled(result["reads"], **LUSTRE)
    result["environment"]["loadavg_end"] = os.getloadavg()
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    summary(result)
    chart(result, chart_path(args.out))
    print(f"wrote {args.out} and its chart")


if __name__ == "__main__":
    main()
