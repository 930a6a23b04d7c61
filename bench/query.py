"""Value-query benchmarks (issue 6; paper 002 §IV-B). The VPIC-like workload (lodex.workloads.vpic)
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
and for reference against numpy over the columns read with lodex ("scan") and the comparison
alone with the columns already in memory ("scan_mem"). Warm page cache; medians of --repeats interleaved runs;
every answer checked against the scan. Then the same with equal-weight binning (--bins, default
8: the size goal's trade-off). Reports index size (bytes and bits per value), build time against
the write time, the candidate-check share of the query time and how many queries needed none.
Writes bench/results/query.json.

    .venv/bin/python bench/query.py                          # 2.5e6 particles per rank x 8 = 2e7
    .venv/bin/python bench/query.py --particles 100000       # quick check
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

from bench_common import MPIEXEC, environment, run_json

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


def run_queries(p, energy: np.ndarray, pos: np.ndarray, repeats: int, plain: dict) -> list[dict]:
    import h5py

    n = len(energy)
    e64 = energy.astype(np.float64)
    box = ((165.0, 165.0, 66.0), (330.0, 330.0, 132.0))
    cases = []
    for target in (0.01, 0.0005, 0.00001):
        t_exact = float(np.quantile(e64, 1 - target))
        for label, t in (("3 digits", round_sig(t_exact)), ("unrounded", t_exact)):
            cases.append({"name": f"energy > t, {target:.3%} ({label})", "query": f"energy > {t!r}", "t": t,
                          "box": None, "mask": lambda t=t: e64 > t})
    t = round_sig(float(np.quantile(e64, 1 - 0.0005)))
    inside = np.all((pos >= np.array(box[0])) & (pos < np.array(box[1])), axis=1)
    cases.append({"name": "box 1/8 && energy > t (0.05 %)", "query": f"energy > {t!r}", "t": t, "box": box,
                  "mask": lambda t=t: (e64 > t) & inside})
    results = []
    for c in cases:
        want = c["mask"]()
        times = {"lodex_count": [], "lodex": [], "lodex_data": [], "numpy_raw": [], "h5py": [], "scan": [],
                 "scan_mem": []}
        stats = None
        for rep in range(repeats):
            order = list(times)
            order = order[rep % len(order):] + order[:rep % len(order)]
            for m in order:
                if m == "lodex_count":
                    s, r = timed(lambda: p.query(c["query"], 0, box=c["box"], count_only=True))
                    assert r.count == int(want.sum())
                elif m == "lodex":
                    s, r = timed(lambda: p.query(c["query"], 0, box=c["box"]))
                    got = sum(len(v) for v in r.rows.values())
                    assert r.count == got == int(want.sum()), (c["name"], r.count, int(want.sum()))
                    stats = r.stats
                elif m == "lodex_data":
                    s, r = timed(lambda: p.query(c["query"], 0, box=c["box"], fields=["energy"]))
                    assert len(r.data["energy"]) == int(want.sum())
                    data_stats = r.stats
                elif m == "numpy_raw":
                    def numpy_raw():
                        cols = {"energy": np.memmap(plain["energy"], dtype=np.float32, mode="r")}
                        if c["box"]:
                            cols["position"] = np.memmap(plain["position"], dtype=np.float64, mode="r").reshape(-1, 3)
                        return plain_scan(cols, c)
                    s, (rows, _) = timed(numpy_raw)
                    assert len(rows) == int(want.sum())
                elif m == "h5py":
                    def with_h5py():
                        with h5py.File(plain["h5"], "r") as f:
                            return plain_scan(f, c)
                    s, (rows, _) = timed(with_h5py)
                    assert len(rows) == int(want.sum())
                elif m == "scan":
                    def scan():
                        cols = p.read(0, fields=["energy", "position"] if c["box"] else ["energy"])
                        m_ = cols["energy"].astype(np.float64) > c["t"]
                        if c["box"]:
                            q = cols["position"]
                            m_ &= np.all((q >= np.array(c["box"][0])) & (q < np.array(c["box"][1])), axis=1)
                        rows = np.nonzero(m_)[0]
                        return rows, cols["energy"][rows]
                    s, (rows, _) = timed(scan)
                    assert len(rows) == int(want.sum())
                else:
                    def scan_mem():
                        m_ = e64 > c["t"]
                        if c["box"]:
                            m_ &= np.all((pos >= np.array(c["box"][0])) & (pos < np.array(c["box"][1])), axis=1)
                        rows = np.nonzero(m_)[0]
                        return rows, energy[rows]
                    s, (rows, _) = timed(scan_mem)
                times[m].append(s)
        med = {m: statistics.median(v) for m, v in times.items()}
        best = min(("numpy_raw", "h5py"), key=lambda k: med[k])
        results.append({
            "baseline": best, "baseline_over_lodex": med[best] / med["lodex"],
            "baseline_over_lodex_count": med[best] / med["lodex_count"],
            "baseline_over_lodex_data": med[best] / med["lodex_data"],
            "min_s": {m: min(v) for m, v in times.items()}, "max_s": {m: max(v) for m, v in times.items()},
            "name": c["name"], "query": c["query"], "box": c["box"], "matches": int(want.sum()),
            "selectivity": float(want.sum()) / n, "median_s": med, "runs_s": times,
            "scan_over_lodex": med["scan"] / med["lodex"], "scan_mem_over_lodex": med["scan_mem"] / med["lodex"],
            "rows_checked": stats["rows_checked"], "check_share": stats["check_s"] / max(stats["index_s"] + stats["check_s"] + stats["data_s"], 1e-12),
            "stats": stats, "stats_with_data": data_stats,
            "scan_over_lodex_count": med["scan"] / med["lodex_count"],
            "scan_over_lodex_data": med["scan"] / med["lodex_data"],
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


def summary(res: dict) -> None:
    cfg = res["config"]
    print(f"\n== lodex value queries: {cfg['particles_per_rank'] * RANKS:,} VPIC-like particles written by "
          f"{RANKS} ranks, {cfg['repeats']} repetitions, warm cache, {res['environment']['cpu_count']} cpus")
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
        print(f"   {'query':40}{'matches':>9}{'count':>10}{'rows':>10}{'rows+data':>11}{'numpy_raw':>11}{'h5py':>10}"
              f"{'scan':>10}{'scan_mem':>10}  baseline/lodex: count  rows  data{'checked':>10}{'check %':>8}")
        for q in v["queries"]:
            m = q["median_s"]
            print(f"   {q['name']:40}{q['matches']:>9,}{m['lodex_count'] * 1e3:>8.2f}ms{m['lodex'] * 1e3:>8.2f}ms"
                  f"{m['lodex_data'] * 1e3:>9.2f}ms{m['numpy_raw'] * 1e3:>9.2f}ms{m['h5py'] * 1e3:>8.2f}ms"
                  f"{m['scan'] * 1e3:>8.2f}ms{m['scan_mem'] * 1e3:>8.2f}ms"
                  f"{q['baseline_over_lodex_count']:>21.1f}x{q['baseline_over_lodex']:>5.1f}x"
                  f"{q['baseline_over_lodex_data']:>5.1f}x{q['rows_checked']:>10,}{q['check_share']:>7.0%}")
        print(f"   queries with no candidate check: {v['no_check_queries']} of {len(v['queries'])}")
    g = res["goals"]
    print("\ngoals: " + ", ".join(f"{k}: {'PASS' if ok else 'FAIL'}" for k, ok in g.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--particles", type=int, default=2_500_000, help="per rank (8 ranks)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--bins", type=int, default=8, help="equal-weight variant")
    ap.add_argument("--build-repeats", type=int, default=3, help="writes and index builds timed (medians)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "query.json"))
    ap.add_argument("--work", default=None, help="folder for the dataset (default: a temporary one)")
    args = ap.parse_args()
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
        p = ds.particles("electrons")
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
            p = ds.particles("electrons")
            qs = run_queries(p, energy, pos, args.repeats, plain)
            # The entropy of the bins per data file (rows are binned file by file), averaged over
            # the indexed values (energy and the three position components).
            kind, param = opts[0][2:], int(opts[1])
            every = p.query("energy >= 0 || energy < 0", 0, fields=["energy", "position"], use_index=False)
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
        pr = res["variants"]["precision 3"]
        ew = res["variants"][f"equal weight, {args.bins} bins"]
        at = [q for q in pr["queries"] if q["name"].startswith("energy > t, 0.050%")]
        res["goals"] = {
            "ge_50x_scan_at_0.05%": all(q["baseline_over_lodex"] >= 50 for q in at),
            "index_le_25%_precision3": pr["build"]["stats"]["index_bytes"] <= 0.25 * pr["build"]["stats"]["column_bytes"],
            "index_le_25%_precision2": res["variants"]["precision 2"]["build"]["stats"]["index_bytes"]
            <= 0.25 * res["variants"]["precision 2"]["build"]["stats"]["column_bytes"],
            "index_le_25%_equal_weight": ew["build"]["stats"]["index_bytes"] <= 0.25 * ew["build"]["stats"]["column_bytes"],
            "build_le_write_precision3": pr["build"]["build_s"] <= res["write"]["write_s"],
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    summary(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
