"""MPI worker for test_value_query_mpi.py: write particles and bitmap indexes collectively, or run
value queries collectively (comm=COMM_WORLD).

usage: value_query_mpi.py write PATH            write STEPS, then build_index collectively
       value_query_mpi.py write_indexed PATH    write STEPS with write(..., index=...)
       value_query_mpi.py query PATH [PATH ...] every query of QUERIES on every dataset

write: every rank writes rank_data(rank, size, step) for each step of STEPS (grid (2, 2, 1), so
every file gathers particles of several ranks; in step 1 rank 1 has no particles), closes, reopens
with mode "a" and comm, and indexes step 0 with precision 3 (energy, position) and step 1 with 16
equal-weight bins (every field). Rank 0 prints each rank's build statistics.

write_indexed: the same particles, indexed right after each write (step 0: energy and position;
step 1: {"fields": ["energy", "q"], "bins": 8}).

query: every rank runs every (step, query, box, level) of QUERIES with fields ["id", "energy"]
(its count, local count, rows per file, ids, energy bits, notes and stats), once with count_only
and once with use_index=False, then the collective error cases of ERRORS (a missing step, a
syntax error, an unknown field, an unknown field to return, a bad level on rank 0 only, a bad box
on the last rank only) and one query more. Tasks are "DATASET:KIND:WHAT" (DATASET the index of
the path); rank 0 prints lodex_testutil.run_tasks' result: task -> every rank's result.

The particle generator and the query list are importable without mpi4py (the test imports them).
"""

from __future__ import annotations

import math
import sys

import numpy as np

GROUP = "e"
DOMAIN = ((0.0, 0.0, 0.0), (10.0, 10.0, 10.0))
SCHEMA = {"position": ("f4", 3), "energy": "f4", "id": "u8", "q": "i2"}
GRID = (2, 2, 1)
STEPS = [0, 1]
LOD = {"level0_max": 50, "brick_target": 16}
INF = math.inf

# (step, query, box, level)
QUERIES = [
    (0, "energy > 1.3", None, None),
    (0, "energy > 1.3 && 2.5 < x < 7.25", None, None),
    (0, "!(energy <= 0.5) || q == 7", None, None),
    (0, "energy != 0.25 && (y < 3 || z >= 8.125)", ((1.0, 0.0, 0.0), (9.0, 10.0, 10.0)), None),
    (0, "-2e-5 < energy < 1e30", None, 1),
    (0, "energy >= -inf", ((0.0, 0.0, 0.0), (5.0, 5.0, 10.0)), None),   # one file only
    (0, "id > 0 && q < 0", ((-INF, 2.5, -INF), (INF, INF, 7.5)), 0),
    (0, "energy > 1e30", None, None),                                  # no match
    (1, "energy > 0.5 || x < 1", None, None),
    (1, "q >= -100 && q <= 100 && !(position[2] > 5)", None, 2),
    (1, "energy != 1e30", ((2.0, 2.0, 2.0), (8.0, 8.0, 8.0)), None),
]


def rank_count(rank: int, size: int, step: int) -> int:
    if step == 1 and rank == 1:
        return 0                              # a writer without particles
    return 500 + 170 * rank + 30 * step + 7 * size


def rank_data(rank: int, size: int, step: int) -> dict:
    """Deterministic particles of one rank: positions anywhere in the domain, energies with NaN,
    +-inf, -0.0, duplicates and negatives, ids unique over ranks, steps and writer counts."""
    n = rank_count(rank, size, step)
    rng = np.random.default_rng([41, size, step, rank])
    pos = (rng.random((n, 3)) * 10.0).astype(np.float32)
    pos = np.minimum(pos, np.nextafter(np.float32(10.0), np.float32(0.0)))
    if n:
        sel = rng.choice(n, n // 10, replace=False)
        pos[sel, rng.integers(0, 3, len(sel))] = rng.choice(np.array([2.5, 5.0, 7.5], dtype=np.float32), len(sel))
    kind = rng.integers(0, 3, n)
    e = np.where(kind == 0, rng.standard_normal(n) * 2,
                 np.where(kind == 1, rng.lognormal(0.0, 2.0, n), rng.integers(-4, 5, n) * 0.25)).astype(np.float32)
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, np.nan, 1.3, 0.25], dtype=np.float32)
    k = min(n, len(specials))
    if k:
        e[rng.choice(n, k, replace=False)] = specials[:k]
    ids = np.uint64((size * 10 + step) * 1_000_000 + rank * 100_000) + np.arange(n, dtype=np.uint64)
    q = rng.integers(-200, 201, n).astype(np.int16)
    return {"position": pos, "energy": e, "id": ids, "q": q}


def outcome(fn) -> str:
    try:
        fn()
        return "ok"
    except Exception as e:   # noqa: BLE001 - reported to the test
        return type(e).__name__


def write(path: str, at_write: bool) -> None:
    from mpi4py import MPI
    import lodex
    import lodex_testutil as tu
    comm = MPI.COMM_WORLD
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles(GROUP, schema=SCHEMA, domain=DOMAIN, partition_grid=GRID, lod=LOD)
    stats = {}
    for step in STEPS:
        data = rank_data(comm.rank, comm.size, step)
        if at_write:
            index = ["energy", "position"] if step == 0 else {"fields": ["energy", "q"], "bins": 8}
            g.write(step, data=data, index=index)
        else:
            g.write(step, data=data)
    ds.close()
    if not at_write:
        ds = lodex.open(path, mode="a", comm=comm)
        g = ds.particles[GROUP]
        stats["0"] = dict(g.build_index(fields=["energy", "position"], precision=3, steps=[0]))
        stats["1"] = dict(g.build_index(bins=16, steps=[1]))
        ds.close()
    allr = comm.gather(stats, root=0)
    if comm.rank == 0:
        tu.emit({"path": path, "stats": allr})


def one_query(g, comm, step, text, box, level, **kw) -> dict:
    if level is not None:   # the sample of one reader whatever the rank count: the serial answer
        kw["readers"] = 1
    r = g.query(step, text, box=box, level=level, comm=comm, **kw)
    out = {"count": r.count, "local_count": r.local_count,
           "rows": {f: rows.tolist() for f, rows in r.rows.items()},
           "notes": r.notes,
           "stats": {k: v for k, v in r.stats.items() if k != "seconds" and not k.endswith("_s")}}
    if "id" in r.data:
        out["ids"] = r.data["id"].tolist()
        out["energy_bits"] = r.data["energy"].view(np.uint32).tolist()
        out["data_fields"] = list(r.data)
    return out


def query(paths: list[str]) -> None:
    from mpi4py import MPI
    import lodex
    import lodex_testutil as tu
    comm = MPI.COMM_WORLD
    groups = [lodex.open(path, comm=comm).particles[GROUP] for path in paths]

    def handle(task):
        d, kind, name = task.split(":")
        g = groups[int(d)]
        if kind == "err":   # collective errors: every rank must raise (and none may hang)
            fn = {
                "missing_step": lambda: g.query(99, "energy > 0", comm=comm),
                "syntax": lambda: g.query(0, "energy >", comm=comm),
                "unknown_field": lambda: g.query(0, "foo > 1", comm=comm),
                "bad_return_field": lambda: g.query(0, "energy > 0", fields=["nope"], comm=comm),
                "bad_level_rank0": lambda: g.query(0, "energy > 0", comm=comm,
                                                   level=-1 if comm.rank == 0 else 0),
                "bad_box_last_rank": lambda: g.query(
                    query="energy > 0", step=0, comm=comm,
                    box=((2, 2, 2), (1, 1, 1)) if comm.rank == comm.size - 1 else None),
            }[name]
            return task, outcome(fn)
        step, text, box, level = QUERIES[int(name)]
        if kind in ("q", "again"):
            return task, one_query(g, comm, step, text, box, level, fields=["id", "energy"])
        if kind == "c":
            return task, one_query(g, comm, step, text, box, level, count_only=True)
        if kind == "s":
            return task, one_query(g, comm, step, text, box, level, fields=["id", "energy"], use_index=False)
        raise KeyError(task)

    tasks = []
    for d in range(len(paths)):
        tasks += [f"{d}:{k}:{i}" for i in range(len(QUERIES)) for k in ("q", "c", "s")]
        tasks += [f"{d}:err:{name}" for name in ERRORS]
        tasks += [f"{d}:again:0"]   # the communicator still works after the errors
    tu.run_tasks(comm, tasks, handle)


ERRORS = ["missing_step", "syntax", "unknown_field", "bad_return_field", "bad_level_rank0", "bad_box_last_rank"]


def main() -> None:
    mode = sys.argv[1]
    if mode == "write":
        write(sys.argv[2], at_write=False)
    elif mode == "write_indexed":
        write(sys.argv[2], at_write=True)
    elif mode == "query":
        query(sys.argv[2:])
    else:
        raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    main()
