"""Workers of the particle read benchmark (launched by particle_read.py; see bench/README.md).

Sub-commands (each prints one JSON object on its last line of stdout, from rank 0):

  write    (mpiexec -n 8)   the Uintah workload on a 2x2x2 patch grid, written with lodex at one
                            partition factor; optionally, untimed, the same particles as raw
                            file-per-process files (--fpp) and each query box's particles as one
                            raw file per field (--raw-exact)
  serial   (one process)    benchmark 1 (box queries: lodex vs raw exact vs fpp scan, warm and
                            cold page cache) and benchmark 2 (level-of-detail curve, fraction 1 %)
  scaling  (mpiexec -n k)   benchmark 3: a collective read of the whole domain by k ranks, with
                            metadata (lodex) and without (every rank reads every data file
                            completely and keeps its sub-box with numpy)

Every timed result is checked (particle counts against numpy answers; once per configuration,
untimed, every field of every particle), so a wrong fast result fails the benchmark.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import statistics
import struct
import time

import numpy as np

from bench_common import NotColdError, PageCache, evict

def drop_checked(cache: PageCache, paths, worst: list) -> None:
    """bench_common.evict with this run's method (NotColdError when more than 1 % of the files
    stayed resident); worst[0] keeps the largest share seen (cold_resident_max in the JSON)."""
    _, frac = evict(paths, (cache.method,))
    cache.drops += 1
    worst[0] = max(worst[0], frac)


GRID = (2, 2, 2)          # writer patch grid: 8 ranks
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
GROUP = "p"
BOXES = {
    "centre": ((0.25, 0.25, 0.25), (0.75, 0.75, 0.75)),   # cuts all 8 files
    "octant": ((0.0, 0.0, 0.0), (0.5, 0.5, 0.5)),         # exactly one file's partition
}
LOD = {"readers": 1, "P": 32, "S": 2}


def schema_fields():
    from lodex.workloads import UINTAH_SCHEMA
    out = []
    for name, spec in UINTAH_SCHEMA.items():
        dtype, comps = (spec, 1) if isinstance(spec, str) else spec
        out.append((name, np.dtype(dtype), comps))
    return out


FIELDS = schema_fields()
ROW_BYTES = sum(dt.itemsize * c for _, dt, c in FIELDS)


class CheckFailed(AssertionError):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)


# ---------------------------------------------------------------------------------------------
# Raw I/O helpers


def pread_into(fd: int, buf: np.ndarray, offset: int = 0) -> int:
    """Fill `buf` (contiguous) from `fd` at `offset` with pread; returns the bytes read."""
    mv = memoryview(buf).cast("B")
    done = 0
    while done < len(mv):
        k = os.preadv(fd, [mv[done:]], offset + done)
        if k <= 0:
            raise OSError(f"short read: {done} of {len(mv)} bytes")
        done += k
    return done


def read_whole(path: str) -> np.ndarray:
    fd = os.open(path, os.O_RDONLY)
    try:
        buf = np.empty(os.fstat(fd).st_size, dtype=np.uint8)
        pread_into(fd, buf)
    finally:
        os.close(fd)
    return buf


def write_all(path: str, arrays) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        for a in arrays:
            view = memoryview(np.ascontiguousarray(a)).cast("B")
            while view:
                view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def in_box_mask(pos: np.ndarray, box) -> np.ndarray:
    lo, hi = box
    m = (pos[:, 0] >= lo[0]) & (pos[:, 0] < hi[0])
    m &= (pos[:, 1] >= lo[1]) & (pos[:, 1] < hi[1])
    m &= (pos[:, 2] >= lo[2]) & (pos[:, 2] < hi[2])
    return m


def filter_columns(columns: list[dict], box) -> dict:
    """Keep the rows of `box` from per-file column dicts and concatenate them."""
    parts = {name: [] for name, _, _ in FIELDS}
    for cols in columns:
        mask = None if box is None else in_box_mask(cols["position"], box)
        for name, _, _ in FIELDS:
            parts[name].append(cols[name] if mask is None else cols[name][mask])
    return {k: (np.concatenate(v) if len(v) != 1 else np.ascontiguousarray(v[0])) for k, v in parts.items()}


def fpp_columns(buf: np.ndarray) -> dict:
    """Columns of a file-per-process file: every field's column, concatenated, no header."""
    n = buf.size // ROW_BYTES
    check(n * ROW_BYTES == buf.size, "fpp file size is not a multiple of the row size")
    cols, off = {}, 0
    for name, dt, c in FIELDS:
        nb = n * c * dt.itemsize
        a = buf[off:off + nb].view(dt)
        cols[name] = a.reshape(n, c) if c > 1 else a
        off += nb
    return cols


def scan(paths: list[str], box, columns_of) -> tuple[dict, int]:
    """Read every file completely, split it into columns with `columns_of`, keep the box's rows."""
    cols, nbytes = [], 0
    for p in paths:
        buf = read_whole(p)
        nbytes += buf.size
        cols.append(columns_of(buf))
    return filter_columns(cols, box), nbytes


def scan_fpp(paths: list[str], box) -> tuple[dict, int]:
    """The fpp scan: read every file completely, keep the box's rows with numpy."""
    return scan(paths, box, fpp_columns)


LPD_DTYPES = {1: "f4", 2: "f8", 3: "i1", 4: "u1", 5: "i2", 6: "u2", 7: "i4", 8: "u4", 9: "i8", 10: "u8"}


def lpd_columns(buf: np.ndarray) -> dict:
    """Columns of a lodex data file read as raw bytes: the file's own 128-byte header and field
    table give the column offsets (docs/formats/particles.md); no spatial metadata is used."""
    head = buf[:128].tobytes()
    check(head[:8] == b"LDXPART\0", "not a lodex data file")
    n, nfields = struct.unpack_from("<QI", head, 16)
    (tables_offset,) = struct.unpack_from("<Q", head, 96)
    cols = {}
    for f in range(nfields):
        e = buf[tables_offset + 64 * f: tables_offset + 64 * (f + 1)].tobytes()
        name = e[:32].split(b"\0", 1)[0].decode()
        code, comps, off, nb = e[32], *struct.unpack_from("<IQQ", e, 36)
        a = buf[off:off + nb].view(LPD_DTYPES[code])
        cols[name] = a.reshape(n, comps) if comps > 1 else a
    return cols


def scan_lpd(paths: list[str], box) -> tuple[dict, int]:
    return scan(paths, box, lpd_columns)


def read_raw_exact(folder: str, count: int) -> tuple[dict, int]:
    """Raw exact: the box's rows, one file per field, read with exactly the needed bytes."""
    out, nbytes = {}, 0
    for name, dt, c in FIELDS:
        a = np.empty((count, c) if c > 1 else count, dtype=dt)
        fd = os.open(os.path.join(folder, name + ".bin"), os.O_RDONLY)
        try:
            nbytes += pread_into(fd, a)
        finally:
            os.close(fd)
        out[name] = a
    return out, nbytes


def nbytes_of(d: dict) -> int:
    return int(sum(v.nbytes for v in d.values()))


def same_particles(a: dict, b: dict, what: str) -> None:
    """Every field of every particle equal, whatever the row order (ids are unique)."""
    check(len(a["id"]) == len(b["id"]), f"{what}: {len(a['id'])} vs {len(b['id'])} particles")
    oa, ob = np.argsort(a["id"], kind="stable"), np.argsort(b["id"], kind="stable")
    for name, _, _ in FIELDS:
        check(np.array_equal(a[name][oa], b[name][ob]), f"{what}: field {name!r} differs")


# ---------------------------------------------------------------------------------------------
# Page cache control


def probe_page_cache(requested: str, folder: str) -> tuple[PageCache, dict]:
    """Choose how to make the cache cold and test that it works: a 64 MiB file is written and
    read, evicted, then read twice (first read cold, second warm); mincore after the eviction."""
    path = os.path.join(folder, "cache-probe.bin")
    write_all(path, [np.random.default_rng(1).integers(0, 255, 64 << 20, dtype=np.uint8)])
    read_whole(path)
    report = {"requested": requested, "tried": []}
    order = ["drop_caches", "fadvise"] if requested == "auto" else [requested]
    chosen = PageCache("none")
    for method in order:
        cache = PageCache(method)
        entry = {"method": method}
        try:
            before = cache.resident_fraction([path])
            cache.drop([path])
            after = cache.resident_fraction([path])
            t0 = time.perf_counter()
            read_whole(path)
            t1 = time.perf_counter()
            read_whole(path)
            t2 = time.perf_counter()
            entry.update(ok=True, resident_before=before, resident_after_drop=after,
                         first_read_s=t1 - t0, second_read_s=t2 - t1,
                         first_over_second=(t1 - t0) / max(t2 - t1, 1e-9))
            # It worked if mincore saw the pages go, or (no mincore) the first read was slower.
            entry["appears_to_work"] = (after is not None and after < 0.05) or \
                (after is None and entry["first_over_second"] > 1.5)
        except OSError as e:
            entry.update(ok=False, error=f"{type(e).__name__}: {e}", appears_to_work=False)
        report["tried"].append(entry)
        if entry.get("appears_to_work") or method == "none":
            chosen = cache
            break
    report["method"] = chosen.method
    report["works"] = chosen.method != "none"
    os.remove(path)
    return chosen, report


# ---------------------------------------------------------------------------------------------
# Boxes


def json_float(v: float):
    """Infinite box faces as the strings "inf" / "-inf" (strict JSON has no infinity)."""
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


# ---------------------------------------------------------------------------------------------
# write


def cmd_write(args) -> None:
    from mpi4py import MPI

    import lodex
    from lodex.workloads import UINTAH_SCHEMA, patch_of, uintah

    comm = MPI.COMM_WORLD
    check(comm.size == GRID[0] * GRID[1] * GRID[2], f"write needs {GRID[0] * GRID[1] * GRID[2]} ranks")
    rank = comm.rank
    patch = patch_of(rank, GRID)
    data = uintah(rank, args.particles, patch)
    factor = tuple(int(x) for x in args.factor.split(","))
    t0 = time.perf_counter()
    ds = lodex.create(args.path, comm=comm)
    g = ds.define_particles(GROUP, schema=UINTAH_SCHEMA, domain=DOMAIN, partition=factor)
    g.write(step=0, data=data, patch=patch)
    ds.close()
    comm.Barrier()
    t_lodex = time.perf_counter() - t0
    info = {"path": args.path, "factor": factor, "particles_per_rank": args.particles,
            "lodex_write_s": t_lodex}
    if args.fpp:
        if rank == 0:
            os.makedirs(args.fpp, exist_ok=True)
        comm.Barrier()
        write_all(os.path.join(args.fpp, f"rank-{rank:04d}.bin"), [data[name] for name, _, _ in FIELDS])
    if args.raw_exact:
        counts = {}
        for bname, box in BOXES.items():
            mask = in_box_mask(data["position"], box)
            mine = int(mask.sum())
            before = comm.exscan(mine) or 0
            total = comm.allreduce(mine)
            counts[bname] = total
            folder = os.path.join(args.raw_exact, bname)
            if rank == 0:
                os.makedirs(folder, exist_ok=True)
            comm.Barrier()
            for name, dt, c in FIELDS:
                rows = np.ascontiguousarray(data[name][mask])
                fh = MPI.File.Open(comm, os.path.join(folder, name + ".bin"), MPI.MODE_WRONLY | MPI.MODE_CREATE)
                fh.Write_at_all(before * c * dt.itemsize, rows)
                fh.Close()
        if rank == 0:
            with open(os.path.join(args.raw_exact, "index.json"), "w") as f:
                json.dump({"counts": counts, "boxes": BOXES}, f)
        info["raw_exact_counts"] = counts
    comm.Barrier()
    if rank == 0:
        os.sync()
        print(json.dumps(info))


# ---------------------------------------------------------------------------------------------
# serial: benchmarks 1 and 2


def med(xs):
    return statistics.median(xs) if xs else None


def rotated(items, i):
    k = i % len(items)
    return items[k:] + items[:k]


def dataset_files(path: str) -> list[str]:
    out = [os.path.join(path, "manifest.json")]
    out += sorted(glob.glob(os.path.join(path, GROUP, "step-*", "*")))
    return out


def bench_box(args, p, cache: PageCache, total: int) -> dict:
    with open(os.path.join(args.raw_exact, "index.json")) as f:
        raw_counts = json.load(f)["counts"]
    fpp_paths = sorted(glob.glob(os.path.join(args.fpp, "rank-*.bin")))
    lodex_paths = dataset_files(args.path)
    check(len(fpp_paths) == GRID[0] * GRID[1] * GRID[2], "missing fpp files")
    results = {}
    for bname, box in BOXES.items():
        raw_dir = os.path.join(args.raw_exact, bname)
        raw_paths = [os.path.join(raw_dir, name + ".bin") for name, _, _ in FIELDS]
        count = raw_counts[bname]

        def m_lodex():
            d = p.read(0, box=box)
            s = p.last_read_stats
            return d, s["bytes_read"], s

        def m_raw():
            d, nb = read_raw_exact(raw_dir, count)
            return d, nb, None

        def m_scan():
            d, nb = scan_fpp(fpp_paths, box)
            return d, nb, None

        methods = {"lodex": m_lodex, "raw_exact": m_raw, "fpp_scan": m_scan}
        all_paths = lodex_paths + raw_paths + fpp_paths

        # Untimed: every method returns exactly the same particles (every field), the box's.
        got = {m: fn() for m, fn in methods.items()}
        check(len(got["raw_exact"][0]["id"]) == count, f"{bname}: raw exact count")
        check(bool(in_box_mask(got["lodex"][0]["position"], box).all()),
              f"{bname}: lodex returned a particle outside the box")
        same_particles(got["lodex"][0], got["raw_exact"][0], f"{bname}: lodex vs raw exact")
        same_particles(got["lodex"][0], got["fpp_scan"][0], f"{bname}: lodex vs fpp scan")
        returned = nbytes_of(got["raw_exact"][0])
        check(got["lodex"][2]["bytes_returned"] == returned, f"{bname}: lodex bytes_returned")
        del got

        res = {"box": box, "particles": count, "bytes_returned": returned, "cache": {}}
        modes = ["warm"] + (["cold"] if cache.method != "none" and not args.no_cold else [])
        for mode in modes:
            times = {m: [] for m in methods}
            nread = {m: [] for m in methods}
            stats = []
            worst = [0.0]
            for i in range(args.repeats):
                for m in rotated(list(methods), i):
                    if mode == "cold":
                        drop_checked(cache, all_paths, worst)
                    t0 = time.perf_counter()
                    d, nb, s = methods[m]()
                    times[m].append(time.perf_counter() - t0)
                    check(len(d["id"]) == count and nbytes_of(d) == returned,
                          f"{bname} {mode} {m}: {len(d['id'])} particles, expected {count}")
                    nread[m].append(nb)
                    if s:
                        stats.append(s)
                    del d
            mt = {m: med(v) for m, v in times.items()}
            r = {
                "median_s": mt,
                "times_s": times,
                "bytes_read": {m: int(med(v)) for m, v in nread.items()},
                "bytes_returned": {m: returned for m in methods},
                "lodex_stats": stats[-1],
                "lodex_over_raw_time": mt["lodex"] / mt["raw_exact"],
                "scan_over_lodex_time": mt["fpp_scan"] / mt["lodex"],
                "lodex_bytes_read_over_returned": int(med(nread["lodex"])) / returned,
            }
            r["goals"] = {
                "bytes_read_le_1.25x_returned": r["lodex_bytes_read_over_returned"] <= 1.25,
                "time_le_1.3x_raw": r["lodex_over_raw_time"] <= 1.3,
                "ge_5x_faster_than_scan": r["scan_over_lodex_time"] >= 5.0,
            }
            if mode == "cold":
                r["cold_resident_max"] = worst[0]
            res["cache"][mode] = r
        if "cold" in res["cache"]:   # evidence that the cold reads were cold
            res["cold_over_warm_time"] = {m: res["cache"]["cold"]["median_s"][m] / res["cache"]["warm"]["median_s"][m]
                                          for m in methods}
        results[bname] = res
    return results


def bench_lod(args, p, cache: PageCache, total: int) -> dict:
    levels = p.refine(0, readers=LOD["readers"], P=LOD["P"], S=LOD["S"]).levels
    lodex_paths = dataset_files(args.path)

    def expected(L):
        return min(total, sum(int(LOD["readers"] * LOD["P"] * LOD["S"] ** l) for l in range(L + 1)))

    frac_expected = min(total, max(1, math.floor(args.fraction * total + 0.5)))   # llround

    # Untimed: counts, and each level a superset of the previous (nested samples); the full read
    # is the whole step; the fraction sample is inside the full read.
    full = p.read(0)
    check(len(full["id"]) == total, f"full read: {len(full['id'])} of {total}")
    check(len(np.unique(full["id"])) == total, "full read: duplicate ids")
    prev = None
    for L in range(levels):
        ids = p.read(0, level=L, **LOD)["id"]
        check(len(ids) == expected(L), f"level {L}: {len(ids)} particles, expected {expected(L)}")
        if prev is not None:
            check(bool(np.isin(prev, ids, assume_unique=True).all()), f"level {L} is not a superset of level {L - 1}")
        prev = ids
    check(len(prev) == total, "the last level is not the whole step")
    fr = p.read(0, fraction=args.fraction)["id"]
    check(len(fr) == frac_expected, f"fraction {args.fraction}: {len(fr)} particles, expected {frac_expected}")
    check(bool(np.isin(fr, full["id"]).all()), "fraction: unknown ids")
    del full, prev, fr

    names = [f"level_{L}" for L in range(levels)] + ["full", "fraction"]

    def run(name):
        if name == "full":
            d = p.read(0)
            exp = total
        elif name == "fraction":
            d = p.read(0, fraction=args.fraction)
            exp = frac_expected
        else:
            L = int(name.split("_")[1])
            d = p.read(0, level=L, **LOD)
            exp = expected(L)
        check(len(d["id"]) == exp, f"{name}: {len(d['id'])} particles, expected {exp}")
        return p.last_read_stats

    # Warm: the whole curve, interleaved.
    times = {n: [] for n in names}
    stats = {}
    for n in names:   # one warm-up pass
        run(n)
    for i in range(args.lod_repeats):
        for n in rotated(names, i):
            t0 = time.perf_counter()
            stats[n] = run(n)
            times[n].append(time.perf_counter() - t0)
    curve = []
    for L in range(levels):
        n = f"level_{L}"
        curve.append({"level": L, "particles": stats[n]["particles"], "median_s": med(times[n]),
                      "bytes_read": stats[n]["bytes_read"], "bytes_returned": stats[n]["bytes_returned"],
                      "files_opened": stats[n]["files_opened"], "requests": stats[n]["requests"]})
    out = {
        "readers": LOD["readers"], "P": LOD["P"], "S": LOD["S"], "levels": levels, "curve": curve,
        "full": {"median_s": med(times["full"]),
                 **{k: stats["full"][k] for k in ("bytes_read", "bytes_returned", "particles")}},
        "fraction": {"fraction": args.fraction, "median_s": med(times["fraction"]),
                     **{k: stats["fraction"][k] for k in ("bytes_read", "bytes_returned", "particles")}},
        "times_s": times,
        "cache": {},
    }
    out["cache"]["warm"] = {"fraction_s": med(times["fraction"]), "full_s": med(times["full"]),
                            "fraction_over_full_time": med(times["fraction"]) / med(times["full"])}
    # Cold: the fraction against the full read only.
    if cache.method != "none" and not args.no_cold:
        ct = {"fraction": [], "full": []}
        worst = [0.0]
        for i in range(args.repeats):
            for n in rotated(list(ct), i):
                drop_checked(cache, lodex_paths, worst)
                t0 = time.perf_counter()
                run(n)
                ct[n].append(time.perf_counter() - t0)
        out["cache"]["cold"] = {"fraction_s": med(ct["fraction"]), "full_s": med(ct["full"]),
                                "fraction_over_full_time": med(ct["fraction"]) / med(ct["full"]),
                                "times_s": ct, "cold_resident_max": worst[0]}
    for mode, r in out["cache"].items():
        r["goal_fraction_le_3pct_of_full"] = r["fraction_over_full_time"] <= 0.03
    out["fraction_over_full_bytes_read"] = stats["fraction"]["bytes_read"] / stats["full"]["bytes_read"]
    return out


def cmd_serial(args) -> None:
    import lodex

    if args.no_cold or args.cold_method == "none":   # no probe: it would empty the cache once
        cache, cache_report = PageCache("none"), {"requested": args.cold_method, "method": "none",
                                                  "works": False, "skipped": True}
    else:
        cache, cache_report = probe_page_cache(args.cold_method, args.scratch)
    t0 = time.perf_counter()
    p = lodex.open(args.path).particles[GROUP]
    open_s = time.perf_counter() - t0
    total = sum(r["count"] for r in p.files(0))
    out = {"particles": total, "files": len(p.files(0)), "open_s": open_s, "page_cache": cache_report}
    if "box" in args.bench:
        out["box"] = bench_box(args, p, cache, total)
    if "lod" in args.bench:
        out["lod"] = bench_lod(args, p, cache, total)
    out["page_cache"]["drops"] = cache.drops
    print(json.dumps(out))


# ---------------------------------------------------------------------------------------------
# scaling: benchmark 3


def cmd_scaling(args) -> None:
    from mpi4py import MPI

    import lodex

    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    method = args.cold_method
    if args.cold and method == "auto":   # rank 0 finds what works; every rank uses the answer
        method = comm.bcast(probe_page_cache("auto", os.path.dirname(os.path.abspath(args.paths[0])))[0].method
                            if rank == 0 else None)
    cache = PageCache(method)
    results = []
    for path in args.paths:
        p = lodex.open(path).particles[GROUP]
        records = p.files(0)
        total = sum(r["count"] for r in records)
        data_files = sorted(glob.glob(os.path.join(path, GROUP, "step-000000000", "*.lpd")))
        check(len(data_files) == len(records), "data files on disk differ from the metadata")
        mybox = p.spatial_split(0, readers=size)[rank]   # the box lodex's spatial split gives this rank
        box = None if size == 1 else mybox

        def with_meta():
            d = p.read(0, comm=comm)
            return d, p.last_read_stats["bytes_read"]

        def without_meta():
            return scan_lpd(data_files, box)

        methods = {"with_metadata": with_meta, "without_metadata": without_meta}

        # Untimed checks: lodex gives this rank exactly the particles of its box,
        # every field equal to the numpy answer; the ranks' parts add up to the whole step.
        a, _ = with_meta()
        b, _ = without_meta()
        same_particles(a, b, f"{os.path.basename(path)} rank {rank}: with vs without metadata")
        check(bool(in_box_mask(a["position"], mybox).all()), "lodex returned a particle outside this rank's box")
        mine = len(a["id"])
        check(comm.allreduce(mine) == total, "the ranks' parts do not add up to the step")
        del a, b

        modes = ["warm"] + (["cold"] if args.cold and cache.method != "none" else [])
        per_mode = {}
        for mode in modes:
            times = {m: [] for m in methods}
            nread = {m: [] for m in methods}
            worst = [0.0]
            for i in range(args.repeats):
                for m in rotated(list(methods), i):
                    if mode == "cold":   # rank 0 evicts and checks; every rank stops if it failed
                        comm.Barrier()
                        err = None
                        if rank == 0:
                            try:
                                drop_checked(cache, dataset_files(path), worst)
                            except NotColdError as e:
                                err = str(e)
                        err = comm.bcast(err, root=0)
                        if err:
                            raise NotColdError(err)
                    comm.Barrier()
                    t0 = time.perf_counter()
                    d, nb = methods[m]()
                    comm.Barrier()
                    times[m].append(time.perf_counter() - t0)
                    check(len(d["id"]) == mine, f"{m}: {len(d['id'])} particles, expected {mine}")
                    nread[m].append(nb)
                    del d
            # The slowest rank's wall time per repetition (barriers before and after make the
            # ranks' times nearly equal; take the max anyway).
            tmax = {m: [comm.allreduce(t, op=MPI.MAX) for t in v] for m, v in times.items()}
            mt = {m: med(v) for m, v in tmax.items()}
            per_mode[mode] = {
                "median_s": mt, "times_s": tmax,
                "bytes_read_total": {m: comm.allreduce(int(med(v))) for m, v in nread.items()},
                "bytes_read_max_rank": {m: comm.allreduce(int(med(v)), op=MPI.MAX) for m, v in nread.items()},
                "without_over_with_time": mt["without_metadata"] / mt["with_metadata"],
            }
            if mode == "cold":
                per_mode[mode]["cold_resident_max"] = comm.bcast(worst[0], root=0)
        counts = comm.gather(mine)
        boxes = comm.gather([[json_float(v) for v in mybox[0]], [json_float(v) for v in mybox[1]]])
        results.append({"dataset": os.path.basename(path), "files": len(records), "particles": total,
                        "readers": size, "particles_per_reader": counts, "reader_boxes": boxes,
                        "cache": per_mode})
    if rank == 0:
        print(json.dumps({"readers": size, "cold_method": cache.method if args.cold else None,
                          "results": results}))


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--path", required=True)
    w.add_argument("--factor", default="1,1,1")
    w.add_argument("--particles", type=int, default=500_000)
    w.add_argument("--fpp", default=None)
    w.add_argument("--raw-exact", default=None)
    s = sub.add_parser("serial")
    s.add_argument("--path", required=True)
    s.add_argument("--fpp", required=True)
    s.add_argument("--raw-exact", required=True)
    s.add_argument("--scratch", required=True)
    s.add_argument("--bench", default="box,lod")
    s.add_argument("--repeats", type=int, default=5)
    s.add_argument("--lod-repeats", type=int, default=5)
    s.add_argument("--fraction", type=float, default=0.01)
    s.add_argument("--cold-method", default="auto", choices=["auto", "drop_caches", "fadvise", "none"])
    s.add_argument("--no-cold", action="store_true")
    c = sub.add_parser("scaling")
    c.add_argument("--paths", nargs="+", required=True)
    c.add_argument("--repeats", type=int, default=5)
    c.add_argument("--cold", action="store_true")
    c.add_argument("--cold-method", default="auto", choices=["auto", "drop_caches", "fadvise", "none"])
    args = ap.parse_args()
    {"write": cmd_write, "serial": cmd_serial, "scaling": cmd_scaling}[args.cmd](args)


if __name__ == "__main__":
    main()
