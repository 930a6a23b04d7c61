"""Value-query benchmarks (issue 6; Byna et al. 2012 §IV-B). The VPIC-like workload (lodex.workloads.vpic)
written by 8 ranks (one file per rank), bitmap indexes of energy and position built by the same
8 ranks, then queried by one process (the analyst's laptop):

  * `energy > t` at selectivities of about 1 %, 0.05 % and 0.001 % (t: the quantile rounded to 3
    significant digits, so precision-3 bins answer it with no candidate check), and the same
    thresholds unrounded (5+ digits: the bin holding t is checked);
  * a compound query: energy > t (0.05 %) inside a box of 1/8 of the domain;

each as a count, as row ids, and as row ids with the energy of the matches, against what a user
without an index would run: numpy over the columns kept as plain files (np.memmap of raw f4/f8
columns: "numpy_raw") and h5py over one HDF5 file of the columns in h5py's default layout
("h5py"), both reading the columns and comparing them, the better of the two being the baseline;
and for reference against lodex's own scan (the query with use_index=False: "lodex_noindex"),
numpy over the columns read with lodex ("scan") and the comparison alone with the columns
already in memory ("scan_mem"). Warm and cold page cache: each repetition times every method
warm (after an untimed run) and then every method cold (its files evicted with
posix_fadvise(DONTNEED) just before, and mincore showing at most 1 % of their pages resident,
else the run stops: a cold figure with the files in memory would be false); medians, min and
max of --repeats interleaved repetitions; every answer's count checked against numpy. Then the
same with precision 2 and with equal-weight binning (--bins, default 8: the size goal's
trade-off). Reports index size (bytes and bits per value), build time against the write time,
the candidate-check share of the query time and how many queries needed none; the goals from
this run. Writes bench/results/query.json and its chart query.png (--chart-only redraws it).

    .venv/bin/python bench/query.py                          # 2.5e6 particles per rank x 8 = 2e7
    .venv/bin/python bench/query.py --particles 100000       # quick check
    .venv/bin/python bench/query.py --chart-only             # bench/results/query.png from query.json
"""

from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # idle BLAS threads spinning beside the queries
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

from bench_common import (MPIEXEC, chart_path, environment, evict, figure, files_under, goal_marks, grouped_bars,
                          redraw, run_json)

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "query_worker.py")
RANKS = 8


def round_sig(x: float, d: int = 3) -> float:
    return float(f"{x:.{d - 1}e}")


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def write_plain_columns(work: str, energy: np.ndarray, pos: np.ndarray) -> dict:
    """The baselines' files: raw columns for np.memmap, and one HDF5 file (h5py defaults)."""
    import h5py

    paths = {"energy": os.path.join(work, "energy.f4"), "position": os.path.join(work, "position.f8x3"),
             "h5": os.path.join(work, "columns.h5")}
    energy.astype(np.float32).tofile(paths["energy"])
    pos.astype(np.float64).tofile(paths["position"])
    with h5py.File(paths["h5"], "w") as f:
        f["energy"] = energy
        f["position"] = pos
    return paths


def plain_scan(cols, c):
    """The rows of the case's matches and their energy, from columns `cols` (memmaps or datasets)."""
    e = np.asarray(cols["energy"][:])
    # Compared in f4, as fast as numpy goes, and exact: for f4 values, e > t exactly when e is
    # above the largest f4 not above t.
    t32 = np.float32(c["t"])
    if float(t32) > c["t"]:
        t32 = np.nextafter(t32, np.float32(-np.inf))
    m_ = e > t32
    if c["box"]:
        q = np.asarray(cols["position"][:])
        m_ &= np.all((q >= np.array(c["box"][0])) & (q < np.array(c["box"][1])), axis=1)
    rows = np.nonzero(m_)[0]
    return rows, e[rows]


WARM = ("lodex_count", "lodex", "lodex_data", "lodex_noindex", "numpy_raw", "h5py", "scan", "scan_mem")
COLD = WARM[:-1]   # scan_mem reads no file
BASELINES = ("numpy_raw", "h5py")
EVICTION = ("fadvise",)   # this process's files only: the rest of the machine (and its users) keep their cache


def query_cases(energy: np.ndarray, pos: np.ndarray) -> list[dict]:
    e64 = energy.astype(np.float64)
    box = ((165.0, 165.0, 66.0), (330.0, 330.0, 132.0))
    cases = []
    for target in (0.01, 0.0005, 0.00001):
        t_exact = float(np.quantile(e64, 1 - target))
        for label, t in (("3 digits", round_sig(t_exact)), ("unrounded", t_exact)):
            cases.append({"name": f"energy > t, {target:.3%} ({label})", "query": f"energy > {t!r}", "t": t,
                          "box": None, "want": int((e64 > t).sum())})
    t = round_sig(float(np.quantile(e64, 1 - 0.0005)))
    inside = np.all((pos >= np.array(box[0])) & (pos < np.array(box[1])), axis=1)
    cases.append({"name": "box 1/8 && energy > t (0.05 %)", "query": f"energy > {t!r}", "t": t, "box": box,
                  "want": int(((e64 > t) & inside).sum())})
    return cases


def in_box(q: np.ndarray, box) -> np.ndarray:
    return np.all((q >= np.array(box[0])) & (q < np.array(box[1])), axis=1)


def case_methods(p, c: dict, plain: dict, e64: np.ndarray, pos: np.ndarray, lodex_files: list[str]) -> dict:
    """Every method answering case `c`: name -> (run, files), run() -> (matches, lodex's stats or
    None), files: what a cold round evicts before timing it (all the method may read)."""
    import h5py

    box = c["box"]

    def lodex_count():
        return p.query(0, c["query"], box=box, count_only=True).count, None

    def lodex_rows():
        r = p.query(0, c["query"], box=box)
        assert r.count == sum(len(v) for v in r.rows.values()), c["name"]
        return r.count, r.stats

    def lodex_data():
        r = p.query(0, c["query"], box=box, fields=["energy"])
        return len(r.data["energy"]), r.stats

    def lodex_noindex():
        r = p.query(0, c["query"], box=box, use_index=False)
        return sum(len(v) for v in r.rows.values()), None

    def numpy_raw():
        cols = {"energy": np.memmap(plain["energy"], dtype=np.float32, mode="r")}
        if box:
            cols["position"] = np.memmap(plain["position"], dtype=np.float64, mode="r").reshape(-1, 3)
        return len(plain_scan(cols, c)[0]), None

    def with_h5py():
        with h5py.File(plain["h5"], "r") as f:
            return len(plain_scan(f, c)[0]), None

    def scan():   # the columns read with lodex's reader, compared with numpy
        cols = p.read(0, fields=["energy", "position"] if box else ["energy"])
        m_ = cols["energy"].astype(np.float64) > c["t"]
        if box:
            m_ &= in_box(cols["position"], box)
        return len(np.nonzero(m_)[0]), None

    def scan_mem():   # the comparison alone, the columns in memory (energy as f8, as lodex compares)
        m_ = e64 > c["t"]
        if box:
            m_ &= in_box(pos, box)
        return len(np.nonzero(m_)[0]), None

    raw_files = [plain["energy"]] + ([plain["position"]] if box else [])
    return {"lodex_count": (lodex_count, lodex_files), "lodex": (lodex_rows, lodex_files),
            "lodex_data": (lodex_data, lodex_files), "lodex_noindex": (lodex_noindex, lodex_files),
            "numpy_raw": (numpy_raw, raw_files), "h5py": (with_h5py, [plain["h5"]]),
            "scan": (scan, lodex_files), "scan_mem": (scan_mem, [])}


def rotated(names, rep: int) -> list[str]:
    names = list(names)
    k = rep % len(names)
    return names[k:] + names[:k]


def time_rounds(c: dict, methods: dict, repeats: int) -> tuple[dict, dict, float]:
    """Interleaved repetitions: in each, every method warm (an untimed run first puts what it
    reads in the page cache), then every method cold (its files evicted and the eviction checked
    just before the timed run); the first method rotates from one repetition to the next. Every
    answer's count is checked. Returns the runs by temperature and method, lodex's statistics
    by temperature (of the last rows and rows+data runs) and the largest share of a cold round's
    files found resident."""
    runs = {"warm": {m: [] for m in WARM}, "cold": {m: [] for m in COLD}}
    stats, resident_max = {"warm": {}, "cold": {}}, 0.0
    for rep in range(repeats):
        for temp, names in (("warm", WARM), ("cold", COLD)):
            for m in rotated(names, rep):
                run, files = methods[m]
                if temp == "warm":
                    run()
                else:
                    resident_max = max(resident_max, evict(files, EVICTION)[1])
                s, (n, st) = timed(run)
                assert n == c["want"], (c["name"], m, temp, n, c["want"])
                runs[temp][m].append(s)
                if st is not None:
                    stats[temp][m] = st
    return runs, stats, resident_max


def temperature_summary(runs: dict) -> dict:
    """Medians, min and max of one temperature's runs, and the ratios to lodex: the better of the
    two plain baselines (numpy_raw, h5py) and lodex's own scans over lodex's count, rows and
    rows+data."""
    med = {m: statistics.median(v) for m, v in runs.items()}
    best = min(BASELINES, key=lambda k: med[k])
    out = {"median_s": med, "min_s": {m: min(v) for m, v in runs.items()},
           "max_s": {m: max(v) for m, v in runs.items()}, "runs_s": runs, "baseline": best}
    for ref, label in ((best, "baseline"), ("lodex_noindex", "noindex"), ("scan", "scan")):
        for lx, suffix in (("lodex", ""), ("lodex_count", "_count"), ("lodex_data", "_data")):
            out[f"{label}_over_lodex{suffix}"] = med[ref] / med[lx]
    if "scan_mem" in med:
        out["scan_mem_over_lodex"] = med["scan_mem"] / med["lodex"]
    return out


def run_queries(p, energy: np.ndarray, pos: np.ndarray, repeats: int, plain: dict,
                lodex_files: list[str]) -> list[dict]:
    n = len(energy)
    e64 = energy.astype(np.float64)
    results = []
    for c in query_cases(energy, pos):
        methods = case_methods(p, c, plain, e64, pos, lodex_files)
        runs, stats, resident_max = time_rounds(c, methods, repeats)
        st = stats["warm"]["lodex"]
        results.append({
            "name": c["name"], "query": c["query"], "box": c["box"], "matches": c["want"],
            "selectivity": c["want"] / n,
            "warm": temperature_summary(runs["warm"]), "cold": temperature_summary(runs["cold"]),
            "cold_resident_max": resident_max,
            "rows_checked": st["rows_checked"],
            "check_share": st["check_s"] / max(st["index_s"] + st["check_s"] + st["data_s"], 1e-12),
            "stats": st, "stats_with_data": stats["warm"]["lodex_data"],
            "stats_cold": stats["cold"]["lodex"], "stats_with_data_cold": stats["cold"]["lodex_data"],
        })
    return results


def bin_entropy(values: np.ndarray, binning: str, param: int) -> float:
    """Bits per value that any index telling each row's bin must spend on average (the Shannon
    entropy of the bin of a row, per data file): precision bins floor to `param` significant
    digits; equal-weight bins hold the same share of rows each (log2 bins)."""
    if binning == "bins":
        return float(np.log2(param))
    v = values.astype(np.float64)
    a = np.abs(v)
    e = np.floor(np.log10(np.where(a > 0, a, 1.0)))
    unit = 10.0 ** (e - param + 1)
    key = np.sign(v) * np.floor(a / unit) * unit
    _, counts = np.unique(key, return_counts=True)
    q = counts / counts.sum()
    return float(-(q * np.log2(q)).sum())


def print_table(v: dict, temp: str) -> None:
    names = [m for m in WARM if m in v["queries"][0][temp]["median_s"]]
    print(f"   {temp}: {'query':40}{'matches':>9}" + "".join(f"{m:>14}" for m in names)
          + "  baseline/lodex: count  rows  data")
    for q in v["queries"]:
        t = q[temp]
        print(f"   {'':6}{q['name']:40}{q['matches']:>9,}"
              + "".join(f"{t['median_s'][m] * 1e3:>12.2f}ms" for m in names)
              + f"{t['baseline_over_lodex_count']:>21.1f}x{t['baseline_over_lodex']:>5.1f}x"
              f"{t['baseline_over_lodex_data']:>5.1f}x ({t['baseline']})")


def summary(res: dict) -> None:
    cfg = res["config"]
    print(f"\n== lodex value queries: {cfg['particles_per_rank'] * RANKS:,} VPIC-like particles written by "
          f"{RANKS} ranks, {cfg['repeats']} repetitions, warm and cold cache, {res['environment']['cpu_count']} cpus")
    w = res["write"]
    print(f"write {w['write_s']:.2f} s median of {len(w['runs_s'])} ({w['bytes'] / 2**20:.0f} MiB)")
    for name, v in res["variants"].items():
        b = v["build"]
        st = b["stats"]
        print(f"\n-- index: {name}: {st['index_bytes'] / 2**20:.1f} MiB for {st['column_bytes'] / 2**20:.1f} MiB of "
              f"columns = {st['index_bytes'] / st['column_bytes']:.1%} ({8 * st['index_bytes'] / st['rows']:.1f} bits "
              f"per value; the bins' entropy, a floor for any index: {v['entropy_bits_per_value']:.1f} bits = "
              f"{v['entropy_floor_ratio']:.1%}); build {b['build_s']:.2f} s (median) = "
              f"{b['build_s'] / w['write_s']:.2f} x write")
        for temp in ("warm", "cold"):
            print_table(v, temp)
        print(f"   queries with no candidate check: {v['no_check_queries']} of {len(v['queries'])}; "
              f"largest share resident after an eviction: {max(q['cold_resident_max'] for q in v['queries']):.2%}")
    print("\ngoals: " + ", ".join(f"{k}: {'PASS' if ok else 'FAIL'}" for k, ok in res["goals"].items()))


GOAL_SPEEDUP = 50   # issue 6: >= 50x the scan baseline at 0.05 % selectivity


def goals(res: dict, bins: int) -> dict:
    """The issue's goals, from this run: the 0.05 % queries (both thresholds) at >= 50x the better
    plain baseline, warm and cold; index size <= 25 % of the indexed columns; build <= write."""
    pr = res["variants"]["precision 3"]
    at = [q for q in pr["queries"] if q["name"].startswith("energy > t, 0.050%")]
    out = {f"ge_{GOAL_SPEEDUP}x_baseline_at_0.05%_{t}": all(q[t]["baseline_over_lodex"] >= GOAL_SPEEDUP for q in at)
           for t in ("warm", "cold")}
    for key, name in (("precision3", "precision 3"), ("precision2", "precision 2"),
                      ("equal_weight", f"equal weight, {bins} bins")):
        st = res["variants"][name]["build"]["stats"]
        out[f"index_le_25%_{key}"] = st["index_bytes"] <= 0.25 * st["column_bytes"]
    out["build_le_write_precision3"] = pr["build"]["build_s"] <= res["write"]["write_s"]
    return out


LABELS = {"lodex_count": "lodex count", "lodex": "lodex rows", "lodex_data": "lodex rows+energy",
          "lodex_noindex": "lodex, use_index=False", "numpy_raw": "numpy, memmap raw columns",
          "h5py": "h5py + numpy", "scan": "lodex read + numpy", "scan_mem": "numpy, columns in memory"}


def chart(res: dict, path: str) -> None:
    """Top: each method's time per query (precision-3 index), warm and cold, medians with min-max
    whiskers. Bottom: the better plain baseline / lodex (rows) per query and index, warm and cold,
    with the 50x goal (set for the 0.05 % queries)."""
    fig, axes = figure(2, 2, (15, 9))
    v = res["variants"]["precision 3"]
    short = [q["name"].replace("energy > t, ", "").replace(" (0.05 %)", "") for q in v["queries"]]
    for k, temp in enumerate(("warm", "cold")):
        ax = axes[0][k]
        names = [m for m in WARM if m in v["queries"][0][temp]["median_s"]]
        grouped_bars(ax, short, {LABELS[m]: [(q[temp]["median_s"][m], q[temp]["min_s"][m], q[temp]["max_s"][m])
                                             for q in v["queries"]] for m in names}, scale=1e3, log=True)
        ax.set_ylabel("ms per query (median, min-max)")
        ax.set_title(f"precision-3 index, {temp} page cache", fontsize="medium")
    axes[0][0].legend(fontsize=7, ncol=2)
    for k, temp in enumerate(("warm", "cold")):
        ax = axes[1][k]
        ratios = {name: [q[temp]["baseline_over_lodex"] for q in var["queries"]]
                  for name, var in res["variants"].items()}
        grouped_bars(ax, short, ratios, log=True)
        goal_marks(ax, [GOAL_SPEEDUP if "0.050%" in q["name"] else float("nan") for q in v["queries"]],
                   f"goal: {GOAL_SPEEDUP}x at 0.05 % (precision 3)", 0, len(ratios))
        ax.axhline(1.0, color="grey", lw=0.6)
        ax.set_ylabel("better of numpy/h5py time / lodex rows time")
        ax.set_title(f"speedup over the plain baselines, {temp}", fontsize="medium")
        ax.legend(fontsize=7)
    n = res["config"]["particles_per_rank"] * res["config"]["ranks"]
    fig.suptitle(f"Value queries, {n:,} VPIC-like particles, one reader "
                 f"({res['config']['repeats']} interleaved repetitions)")
    fig.savefig(path, dpi=100)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--particles", type=int, default=2_500_000, help="per rank (8 ranks)")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--bins", type=int, default=8, help="equal-weight variant")
    ap.add_argument("--build-repeats", type=int, default=3, help="writes and index builds timed (medians)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "query.json"))
    ap.add_argument("--work", default=None, help="folder for the dataset (default: a temporary one)")
    ap.add_argument("--chart-only", action="store_true", help="redraw the chart from --out's JSON, run nothing")
    args = ap.parse_args()
    if args.chart_only:
        redraw(args.out, chart)
        return 0
    import lodex

    work = tempfile.mkdtemp(prefix="lodex-query-", dir=args.work)
    path = os.path.join(work, "vpic.lodex")
    res = {"environment": environment(work),
           "config": {"particles_per_rank": args.particles, "ranks": RANKS, "repeats": args.repeats,
                      "bins": args.bins}}
    try:
        py = sys.executable
        writes = []
        for k in range(args.build_repeats):   # the first copy is the one queried
            at = path if k == 0 else os.path.join(work, f"vpic{k}.lodex")
            writes.append(run_json([MPIEXEC, "-n", str(RANKS), py, WORKER, "write", at, "--particles",
                                    str(args.particles)], timeout=3600))
            if k:
                shutil.rmtree(at)
        w = writes[0]
        res["write"] = {"write_s": statistics.median(x["write_s"] for x in writes),
                        "runs_s": [x["write_s"] for x in writes], "bytes": w["profile"]["bytes"],
                        "profile": w["profile"]}
        ds = lodex.open(path)
        p = ds.particles["electrons"]
        cols = p.read(0, fields=["energy", "position"])
        energy, pos = cols["energy"], cols["position"]
        plain = write_plain_columns(work, energy, pos)
        res["variants"] = {}
        for name, opts in (("precision 3", ["--precision", "3"]), ("precision 2", ["--precision", "2"]),
                           (f"equal weight, {args.bins} bins", ["--bins", str(args.bins)])):
            builds = [run_json([MPIEXEC, "-n", str(RANKS), py, WORKER, "index", path] + opts, timeout=3600)
                      for _ in range(args.build_repeats)]
            b = dict(builds[-1])
            b["runs_s"] = [x["build_s"] for x in builds]
            b["build_s"] = statistics.median(b["runs_s"])
            ds = lodex.open(path)   # the manifest changed
            p = ds.particles["electrons"]
            qs = run_queries(p, energy, pos, args.repeats, plain, files_under(path))
            # The entropy of the bins per data file (rows are binned file by file), averaged over
            # the indexed values (energy and the three position components).
            kind, param = opts[0][2:], int(opts[1])
            every = p.query(0, "energy >= 0 || energy < 0", fields=["energy", "position"], use_index=False)
            assert every.count == len(energy)
            bits, at = 0.0, 0
            for rows in every.rows.values():   # the data comes file after file
                e_, q_ = every.data["energy"][at:at + len(rows)], every.data["position"][at:at + len(rows)]
                bits += sum(bin_entropy(c, kind, param) for c in [e_, q_[:, 0], q_[:, 1], q_[:, 2]]) * len(rows)
                at += len(rows)
            h = bits / (4 * len(energy))
            res["variants"][name] = {"build": b, "queries": qs, "entropy_bits_per_value": h,
                                     "entropy_floor_ratio": h / 32,
                                     "no_check_queries": sum(q["rows_checked"] == 0 for q in qs)}
        res["goals"] = goals(res, args.bins)
        res["cold_resident_max"] = max(q["cold_resident_max"] for v in res["variants"].values() for q in v["queries"])
        res["cold_method"] = "posix_fadvise(POSIX_FADV_DONTNEED) on each file a method may read, then mincore"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    summary(res)
    chart(res, chart_path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
