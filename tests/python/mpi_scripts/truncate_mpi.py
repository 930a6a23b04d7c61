"""MPI worker (test_truncate.py): a restart from a checkpoint on every rank of COMM_WORLD.

usage: truncate_mpi.py PATH

Writes 10 steps (run 0) of a particle group with a bitmap index, a grid (with 2 ranks also a grid
in the local index space) and a series (d_tar 5); tries the truncates that must fail (a negative
step, ranks disagreeing, a window split, an argument that is no step); truncates every group
after step 4 and writes steps 5..9 again with other values (run 1). Reads of steps 5..9 made
before the truncate by the same objects are made again after it: they must give the new values.
Rank 0 prints what every call returned or raised; test_truncate.py reads the dataset back.
"""

from __future__ import annotations

import os
import sys

import numpy as np

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
STEPS = 10
AFTER = 4


def particles(run: int, step: int, rank: int, size: int) -> dict:
    rng = np.random.default_rng([run, step, rank])
    n = 200 + 10 * step + rank
    pos = rng.random((n, 3))
    pos[:, 0] = (rank + pos[:, 0] * 0.999) / size
    return {"position": pos, "energy": rng.random(n).astype(np.float32),
            "id": np.arange(n, dtype=np.int64) + 10**4 * rank + 10**6 * step + 10**9 * run}


def all_particles(run: int, step: int, size: int) -> dict:
    parts = [particles(run, step, r, size) for r in range(size)]
    return {f: np.concatenate([p[f] for p in parts]) for f in SCHEMA}


def grid_dims(size: int) -> tuple[int, int, int]:
    return (8, 6, 4 * size)


def grid(run: int, step: int, size: int) -> np.ndarray:
    d = grid_dims(size)
    return (np.sin(np.arange(np.prod(d), dtype=np.float32).reshape(d[::-1]) + step) + 100 * run).astype(np.float32)


def series_dims(size: int) -> tuple[int, int, int]:
    return (5, 2 * size, 3)


def series(run: int, step: int, size: int) -> np.ndarray:
    d = series_dims(size)
    return np.arange(np.prod(d), dtype=np.float32).reshape(d[::-1]) + 0.5 * step + 1000 * run


def groups(ds, size: int) -> dict:
    out = {
        "p": ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(size, 1, 1)),
        "g": ds.define_grid("g", dims=grid_dims(size), dtype="f4", bits_per_block=4, blocks_per_file=2),
        "s": ds.define_series("s", dims=series_dims(size), variables={"T": ("f4", 3)}, d_tar=5, d_sar=0),
    }
    if size == 2:
        out["gl"] = ds.define_grid("gl", dims=grid_dims(size), dtype="f4", bits_per_block=4, blocks_per_file=2,
                                   partitions=2, index_space="local")
    return out


def write_step(gs: dict, run: int, step: int, rank: int, size: int) -> None:
    gs["p"].write(step=step, data=particles(run, step, rank, size),
                  patch=((rank / size, 0, 0), ((rank + 1) / size, 1, 1)))
    d = grid_dims(size)
    z0, z1 = 4 * rank, 4 * rank + 4
    for name in ("g", "gl"):
        if name in gs:
            gs[name].write(step, ((0, 0, z0), (d[0], d[1], z1)), grid(run, step, size)[z0:z1])
    sd = series_dims(size)
    gs["s"].write(step, ((0, 2 * rank, 0), (sd[0], 2 * rank + 2, sd[2])),
                  {"T": series(run, step, size)[:, 2 * rank:2 * rank + 2]})


def outcome(fn):
    try:
        return {"ok": fn()}
    except Exception as e:   # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e)}


def step_counts(gs: dict) -> dict:
    return {name: list(g.steps) for name, g in gs.items()}


def main() -> None:
    from mpi4py import MPI

    import lodex
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    path = sys.argv[1]
    ds = lodex.create(path, comm=comm)
    gs = groups(ds, size)
    for step in range(STEPS):
        write_step(gs, 0, step, rank, size)
    gs["p"].build_index(fields=["energy"])
    out = {"size": size}
    # Reads through the writer's own objects, before: their caches must not outlive the truncate.
    before = {"p": gs["p"].read(7)["id"].tolist(), "g": float(gs["g"].read(7).sum()),
              "s": float(gs["s"].read(7, variable="T").sum())}
    last = size - 1
    out["negative"] = outcome(lambda: gs["p"].truncate(-2))
    out["not_a_step"] = outcome(lambda: gs["g"].truncate("4" if rank == last else 4))
    out["disagree"] = outcome(lambda: gs["p"].truncate(3 if rank == last else 4)) if size > 1 else None
    out["window_split"] = outcome(lambda: gs["s"].truncate(6))
    out["dataset_window_split"] = outcome(lambda: ds.truncate(7))
    out["steps_after_errors"] = step_counts(gs)
    out["removed"] = {name: outcome(lambda g=g: g.truncate(AFTER)) for name, g in gs.items()}
    out["steps_after_truncate"] = step_counts(gs)
    if rank == 0:
        out["left_on_disk"] = sorted(
            os.path.relpath(os.path.join(d, f), path)
            for d, dirs, files in os.walk(path) for f in dirs + files
            if any(f"{k:06d}" in f for k in range(AFTER + 1, STEPS)))
        with open(os.path.join(path, "g.idx")) as f:
            out["idx_header"] = f.read()
    out["again"] = outcome(lambda: ds.truncate(AFTER))
    for step in range(AFTER + 1, STEPS):
        write_step(gs, 1, step, rank, size)
    gs["s"].flush()
    out["steps_rewritten"] = step_counts(gs)
    out["indexes"] = {str(s): [x["field"] for x in gs["p"].indexes(s)] for s in gs["p"].steps}
    after = {"p": gs["p"].read(7)["id"].tolist(), "g": float(gs["g"].read(7).sum()),
             "s": float(gs["s"].read(7, variable="T").sum())}
    want = {"p": sorted(all_particles(1, 7, size)["id"].tolist()), "g": float(grid(1, 7, size).sum()),
            "s": float(series(1, 7, size).sum())}
    out["same_objects_read_new"] = {k: (sorted(after[k]) if k == "p" else after[k]) == want[k] for k in want}
    out["before_was_old"] = sorted(before["p"]) == sorted(all_particles(0, 7, size)["id"].tolist())
    ds.close()
    outs = comm.gather(out, root=0)
    if rank == 0:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import lodex_testutil as tu
        tu.emit({"ranks": outs})


if __name__ == "__main__":
    main()
