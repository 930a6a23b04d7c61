"""MPI worker for test_adaptive.py: adaptive aggregation (partition="adaptive").

usage: write_adaptive.py write OUTDIR
       write_adaptive.py read OUTDIR NAME PATH [NAME PATH ...]
       write_adaptive.py bad OUTDIR

write: the world's ranks write one dataset per entry of configs(size) (every generator of
lodex.workloads.GENERATORS with T = ceil(N / size), plus a few other targets): rank r writes
uneven_rank(kind, N, patch_of(r, rank_grid(size))) as step 0 of group "e". Rank 0 prints per
dataset the path, generator, N, T, seed, every rank's particle count and any error.

read: every rank reads step 0 of each dataset collectively (comm=COMM_WORLD) as the variants of
READ_VARIANTS; each rank checks its rows against the global draw. Rank 0 saves the ids each
rank got to OUTDIR/ids-<size>.npz (keys "NAME|VARIANT|RANK") and prints per variant and rank the
error, the count and the number of rows whose values differ from the draw.

bad: defined outcomes of bad input on the world's ranks (see bad()).

The configuration helpers (configs, dataset_name, ...) are imported by the pytest side as well;
mpi4py is only imported when the worker runs.
"""

from __future__ import annotations

import os
import sys
import traceback

import numpy as np

import lodex
from lodex.workloads import GENERATORS, UNEVEN_SCHEMA, patch_of, rank_grid, uneven, uneven_rank

from lodex_testutil import UNIT, emit   # noqa: E402  the result line the pytest side parses

GROUP = "e"

# Particles of the round-trip datasets per writer count (odd counts: ceil(N / T) is not exact).
N_FOR = {1: 40_000, 3: 60_001, 4: 60_001, 8: 99_999}
SEEDS = {kind: 100 + i for i, kind in enumerate(GENERATORS)}

# Collective reads of read(): name -> read keyword arguments (comm added by the worker).
READ_BOX = ((0.12, 0.2, 0.05), (0.71, 0.66, 0.52))
READ_LEVEL = 5
READ_VARIANTS = {
    "full": {},
    "full_bytes": {"split": "bytes"},
    "box": {"box": READ_BOX},
    "box_bytes": {"box": READ_BOX, "split": "bytes"},
    "level": {"level": READ_LEVEL},
    "fraction": {"fraction": 0.05},
}

# bad(): sizes of its workloads
BAD_N = 3000
BAD_POINT = (0.3, 0.3, 0.3)
BAD_POINT_COUNT = 200          # per rank
BAD_POINT_T = 50


def target(n: int, files: int) -> int:
    return -(-n // files)


def configs(size: int) -> list[dict]:
    """The datasets a write by ``size`` ranks makes: name, generator, N, T, whether patches are
    given. The main ones (name == generator) use T = ceil(N / size): one file per rank."""
    n = N_FOR[size]
    out = [dict(name=k, kind=k, n=n, T=target(n, size), seed=SEEDS[k], patch=True) for k in GENERATORS]
    if size == 1:
        out.append(dict(name="clustered-T7", kind="clustered", n=n, T=target(n, 7), seed=SEEDS["clustered"],
                        patch=True))
    if size == 4:
        out += [
            # fewer files than ranks
            dict(name="uniform-T3", kind="uniform", n=n, T=target(n, 3), seed=SEEDS["uniform"], patch=True),
            dict(name="sheet-T2", kind="sheet", n=n, T=target(n, 2), seed=SEEDS["sheet"], patch=True),
            # more files wanted than ranks (clamped to 4), patches computed from the particles
            dict(name="clustered-T10-nopatch", kind="clustered", n=n, T=target(n, 10),
                 seed=SEEDS["clustered"], patch=False),
            # a target of one particle per file: still at most one file per rank
            dict(name="occupancy12-T1", kind="occupancy12", n=n, T=1, seed=SEEDS["occupancy12"], patch=True),
        ]
    if size == 8:
        out.append(dict(name="clustered-T5", kind="clustered", n=n, T=target(n, 5), seed=SEEDS["clustered"],
                        patch=True))
    return out


def dataset_name(size: int, name: str) -> str:
    return f"w{size}-{name}.lodex"


def rank_data(kind: str, n: int, seed: int, rank: int, size: int):
    patch = patch_of(rank, rank_grid(size), UNIT)
    return uneven_rank(kind, n, patch, seed=seed), patch


def energy_of(pos: np.ndarray) -> np.ndarray:
    """What uneven_rank stores as energy: squared distance to the domain centre, as f4."""
    return np.sum((pos - np.array([0.5, 0.5, 0.5])) ** 2, axis=1).astype(np.float32)


def empty_data() -> dict:
    return {"position": np.zeros((0, 3)), "energy": np.zeros(0, np.float32), "id": np.zeros(0, np.uint64)}


def point_data(count: int, base: int) -> dict:
    pos = np.tile(np.asarray(BAD_POINT, dtype=np.float64), (count, 1))
    return {"position": pos, "energy": energy_of(pos), "id": base + np.arange(count, dtype=np.uint64)}


def _err(e: BaseException) -> list:
    return [type(e).__name__, str(e), isinstance(e, lodex.Error)]


# ------------------------------------------------------------------------------------ write

def write(outdir: str) -> None:
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    result = {"size": comm.size, "datasets": {}}
    for cfg in configs(comm.size):
        path = os.path.join(outdir, dataset_name(comm.size, cfg["name"]))
        data, patch = rank_data(cfg["kind"], cfg["n"], cfg["seed"], comm.rank, comm.size)
        error = None
        try:
            ds = lodex.create(path, comm=comm)
            g = ds.define_particles(GROUP, schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive",
                                    particles_per_file=cfg["T"])
            g.write(0, data=data, patch=patch if cfg["patch"] else None)
            ds.close()
        except Exception as e:   # noqa: BLE001 - reported to the test
            error = _err(e) + [traceback.format_exc()[-1500:]]
        counts = comm.gather(len(data["id"]), root=0)
        errors = comm.gather(error, root=0)
        if comm.rank == 0:
            result["datasets"][cfg["name"]] = {**cfg, "path": path, "counts": counts, "errors": errors}
    if comm.rank == 0:
        emit(result)


# ------------------------------------------------------------------------------------ read

def read(outdir: str, pairs: list[tuple[str, str]]) -> None:
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    result = {"size": comm.size, "datasets": {}}
    saved = {}
    for name, path in pairs:
        # the name carries the writer count and the configuration: "w<size>-<config>"
        wsize = int(name.split("-")[0][1:])
        cfg = {c["name"]: c for c in configs(wsize)}[name.split("-", 1)[1]]
        kind, n = cfg["kind"], cfg["n"]
        draw = uneven(kind, n, seed=cfg["seed"])
        g = lodex.open(path).particles[GROUP]
        per = {}
        for variant, kw in READ_VARIANTS.items():
            out = {"error": None, "count": 0, "bad_rows": 0}
            ids = np.zeros(0, np.uint64)
            try:
                got = g.read(0, comm=comm, **kw)
                ids = got["id"]
                out["count"] = int(len(ids))
                if len(ids) and int(ids.max()) >= n:
                    out["bad_rows"] = int(np.sum(ids >= n))
                else:
                    idx = ids.astype(np.int64)
                    pos_ok = np.all(got["position"] == draw[idx], axis=1)
                    en_ok = got["energy"].view(np.uint32) == energy_of(draw[idx]).view(np.uint32)
                    out["bad_rows"] = int(np.sum(~(pos_ok & en_ok)))
                if "box" in kw:
                    p = got["position"]
                    lo, hi = np.asarray(kw["box"][0]), np.asarray(kw["box"][1])
                    out["outside"] = int(np.sum(~np.all((p >= lo) & (p < hi), axis=1)))
            except Exception as e:   # noqa: BLE001
                out["error"] = _err(e) + [traceback.format_exc()[-1500:]]
            outs = comm.gather(out, root=0)
            idss = comm.gather(ids, root=0)
            if comm.rank == 0:
                per[variant] = outs
                for r, a in enumerate(idss):
                    saved[f"{name}|{variant}|{r}"] = a
        if comm.rank == 0:
            result["datasets"][name] = per
    if comm.rank == 0:
        npz = os.path.join(outdir, f"ids-{comm.size}.npz")
        np.savez(npz, **saved)
        result["npz"] = npz
        emit(result)


# ------------------------------------------------------------------------------------ bad input

def _attempt(fn) -> list | None:
    try:
        fn()
        return None
    except Exception as e:   # noqa: BLE001
        return _err(e)


def bad(outdir: str) -> None:
    """Three datasets, every outcome gathered per rank:

    nan.lodex  good step 0; step 1 with a NaN position on rank 1 (must fail everywhere); closed.
    inf.lodex  good step 0; step 1 with an inf position on rank 2 (fails); step 1 again, good.
    empty.lodex step 0: every rank empty (rank 0 gives its patch, the others none); step 1: only
               the last rank has particles (everyone gives a patch); step 2: every rank empty,
               no patches.
    point.lodex step 0: every rank holds BAD_POINT_COUNT particles at BAD_POINT, no patches
               (unsplittable); step 1: all of them on the rank whose patch holds the point,
               every rank gives its patch.
    """
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    T = target(BAD_N, size)
    out = {"rank": rank}

    def good(step):
        return rank_data("uniform", BAD_N, 7 + step, rank, size)

    def open_group(path):
        ds = lodex.create(path, comm=comm)
        return ds, ds.define_particles(GROUP, schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive",
                                       particles_per_file=T)

    # NaN on rank 1
    ds, g = open_group(os.path.join(outdir, "nan.lodex"))
    d, p = good(0)
    out["nan_step0"] = _attempt(lambda: g.write(0, data=d, patch=p))
    d, p = good(1)
    if rank == 1 % size:
        d["position"][3, 1] = np.nan
    out["nan_step1"] = _attempt(lambda: g.write(1, data=d, patch=p))
    out["nan_steps_after"] = list(g.steps)
    ds.close()

    # inf on rank 2, then a good retry of the step
    ds, g = open_group(os.path.join(outdir, "inf.lodex"))
    d, p = good(0)
    out["inf_step0"] = _attempt(lambda: g.write(0, data=d, patch=p))
    d, p = good(1)
    bad_d = {k: v.copy() for k, v in d.items()}
    if rank == 2 % size:
        bad_d["position"][0, 2] = np.inf
    out["inf_step1"] = _attempt(lambda: g.write(1, data=bad_d, patch=p))
    out["inf_steps_after"] = list(g.steps)
    out["inf_retry"] = _attempt(lambda: g.write(1, data=d, patch=p))
    out["inf_steps_final"] = list(g.steps)
    ds.close()

    # empty steps
    ds, g = open_group(os.path.join(outdir, "empty.lodex"))
    patch = patch_of(rank, rank_grid(size), UNIT)
    out["empty_step0"] = _attempt(lambda: g.write(0, data=empty_data(), patch=patch if rank == 0 else None))
    if rank == size - 1:
        d1, _ = rank_data("clustered", BAD_N, 9, rank, size)
    else:
        d1 = empty_data()
    out["empty_step1_count"] = len(d1["id"])
    out["empty_step1"] = _attempt(lambda: g.write(1, data=d1, patch=patch))
    out["empty_step2"] = _attempt(lambda: g.write(2, data=empty_data()))
    out["empty_steps"] = list(g.steps)
    ds.close()

    # every particle at one point
    ds = lodex.create(os.path.join(outdir, "point.lodex"), comm=comm)
    g = ds.define_particles("pt", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive",
                            particles_per_file=BAD_POINT_T)
    out["point_step0"] = _attempt(lambda: g.write(0, data=point_data(BAD_POINT_COUNT, rank * BAD_POINT_COUNT)))
    lo, hi = np.asarray(patch[0]), np.asarray(patch[1])
    holds = bool(np.all((np.asarray(BAD_POINT) >= lo) & (np.asarray(BAD_POINT) < hi)))
    d = point_data(BAD_POINT_COUNT * size, 0) if holds else empty_data()
    out["point_step1"] = _attempt(lambda: g.write(1, data=d, patch=patch))
    ds.close()

    allout = comm.gather(out, root=0)
    if rank == 0:
        emit({"size": size, "T": T, "ranks": allout})


def main() -> None:
    cmd = sys.argv[1]
    if cmd == "write":
        write(sys.argv[2])
    elif cmd == "read":
        rest = sys.argv[3:]
        read(sys.argv[2], list(zip(rest[0::2], rest[1::2])))
    elif cmd == "bad":
        bad(sys.argv[2])
    else:
        raise SystemExit(f"unknown command {cmd!r}")


if __name__ == "__main__":
    main()
