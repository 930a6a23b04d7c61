"""MPI worker for test_read_mpi.py: write a PARALLEL dataset, or read datasets collectively.

usage: read_parallel.py write KIND PATH
       read_parallel.py read OUTDIR KIND PATH [KIND PATH ...]

write: the world's ranks write read_testutil.PARALLEL[KIND] (one step, step 0); rank 0 prints
{"path": PATH}.

read: every rank opens each dataset and runs every read of read_testutil.parallel_variants()
with comm=COMM_WORLD (a full read, a level read, a level read with readers=1, a fraction read
and a refinement; with and without the query box; split "spatial" and "bytes"). Each rank
checks the values of its rows against the regenerated particles. Rank 0 saves the ids each
rank got to OUTDIR/ids-<size>.npz (keys "KIND|VARIANT|RANK|PART", PART the refinement level,
0 for a read) and prints per variant and rank: the error (class and message) if any, the
count, the position bounds, how many positions lie outside the query box, whether the values
matched, the read stats, and for refinements the level count.
"""

import os
import sys
import traceback

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
import read_testutil as rt


def write(kind: str, path: str) -> None:
    comm = MPI.COMM_WORLD
    spec = rt.PARALLEL[kind]
    assert comm.size == spec["ranks"], (comm.size, spec["ranks"])
    data, patch = rt.parallel_rank_data(kind, comm.rank, comm.size)
    ds = lodex.create(path, comm=comm)
    kw = {"partition": spec["dims"]} if spec["mode"] == "factor" else {"partition_grid": spec["dims"]}
    g = ds.define_particles("p", schema=rt.parallel_schema(kind), domain=spec["domain"], lod=spec["lod"], **kw)
    g.write(step=0, data=data, patch=patch)
    ds.close()
    if comm.rank == 0:
        tu.emit({"path": path})


class Checker:
    """Looks up rows by id in the regenerated particles and compares every value."""

    def __init__(self, kind: str):
        self.data = rt.parallel_data(kind)
        self.order = np.argsort(self.data["id"], kind="stable")
        self.sorted_ids = self.data["id"][self.order]

    def check(self, got: dict) -> str:
        ids = got["id"]
        pos = np.searchsorted(self.sorted_ids, ids)
        pos = np.minimum(pos, len(self.sorted_ids) - 1)
        if len(ids) and not np.array_equal(self.sorted_ids[pos], ids):
            return "ids that were never written"
        rows = self.order[pos]
        for k, v in got.items():
            if not np.array_equal(tu.bits(v), tu.bits(self.data[k][rows])):
                return f"field {k!r} differs"
        return ""


def run_variant(g, kind: str, variant: str, comm, checker: Checker) -> tuple[dict, list]:
    box_name, mode, split = variant.split("|")
    box = rt.parallel_box(kind) if box_name == "box" else None
    kw = dict(box=box, comm=comm, split=split)
    out = {"error": None}
    parts = []
    try:
        if mode == "full":
            parts = [g.read(0, **kw)]
            stats = [g.last_read_stats]
        elif mode == "level":
            parts = [g.read(0, level=rt.PARALLEL_LEVEL, **kw)]
            stats = [g.last_read_stats]
        elif mode == "level_r1":
            parts = [g.read(0, level=rt.PARALLEL_LEVEL, readers=1, **kw)]
            stats = [g.last_read_stats]
        elif mode == "fraction":
            parts = [g.read(0, fraction=rt.PARALLEL_FRACTION, **kw)]
            stats = [g.last_read_stats]
        elif mode == "refine":
            ref = g.refine(0, **kw)
            out["levels"] = ref.levels
            stats = []
            for p in ref:
                parts.append(p)
                stats.append(ref.last_read_stats)
        else:
            raise KeyError(mode)
    except Exception as e:   # noqa: BLE001 - reported to the test
        out["error"] = [type(e).__name__, str(e), traceback.format_exc()[-2000:]]
        return out, []
    ids = [np.asarray(p["id"]) for p in parts]
    allpos = np.concatenate([np.asarray(p["position"], dtype=np.float64) for p in parts]) if parts else np.zeros((0, 3))
    out["counts"] = [len(i) for i in ids]
    out["count"] = int(sum(out["counts"]))
    out["stats"] = stats
    out["files_opened"] = stats[0]["files_opened"] if stats else 0
    out["pos_min"] = allpos.min(axis=0).tolist() if len(allpos) else None
    out["pos_max"] = allpos.max(axis=0).tolist() if len(allpos) else None
    out["outside"] = int((~rt.inside(allpos, box)).sum()) if box is not None else 0
    out["values"] = "; ".join(filter(None, (checker.check(p) for p in parts)))
    return out, ids


def read(outdir: str, pairs: list[tuple[str, str]]) -> None:
    comm = MPI.COMM_WORLD
    result = {"size": comm.size, "datasets": {}}
    saved = {}
    for kind, path in pairs:
        checker = Checker(kind)
        g = lodex.open(path).particles["p"]
        per_variant = {}
        for variant in rt.parallel_variants():
            out, ids = run_variant(g, kind, variant, comm, checker)
            outs = comm.gather(out, root=0)
            idss = comm.gather(ids, root=0)
            if comm.rank == 0:
                per_variant[variant] = outs
                for r, lst in enumerate(idss):
                    for k, a in enumerate(lst):
                        saved[f"{kind}|{variant}|{r}|{k}"] = a
        if comm.rank == 0:
            result["datasets"][kind] = per_variant
    if comm.rank == 0:
        npz = os.path.join(outdir, f"ids-{comm.size}.npz")
        np.savez(npz, **saved)
        result["npz"] = npz
        tu.emit(result)


def main() -> None:
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "read":
        rest = sys.argv[3:]
        read(sys.argv[2], list(zip(rest[0::2], rest[1::2])))
    else:
        raise SystemExit(f"unknown command {sys.argv[1]!r}")


if __name__ == "__main__":
    main()
