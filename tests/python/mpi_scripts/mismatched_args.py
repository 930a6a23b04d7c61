"""MPI worker: collective calls where the last rank passes a valid argument that differs from the
others' (another step, box, query text, variable, open mode or path), for test_mismatched_args.py.
Every rank must raise InvalidArgumentError naming what differs; none may hang or return a mixed
answer, and the communicator must still work afterwards.

usage: mismatched_args.py WORKDIR

Rank 0 prints, per case, every rank's ["error", class name, message] or ["ok", repr of answer].
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "id": "i8"}
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


def cases(ds, path, other, odd: bool, comm):
    """name -> the collective call; `odd` on the last rank only."""
    g = ds.particles["p"]
    grid = ds.grids["g"]
    series = ds.series["s"]
    half = ((0.0, 0.0, 0.0), (0.5, 1.0, 1.0))
    return {
        "query_text": lambda: g.query(0, "id >= 150" if odd else "id >= 0", comm=comm).count,
        "query_step": lambda: g.query(1 if odd else 0, "id >= 0", comm=comm).count,
        "query_box": lambda: g.query(0, "id >= 0", box=half if odd else None, comm=comm).count,
        "grid_read_step": lambda: grid.read(1 if odd else 0, comm=comm).sum(),
        "grid_read_box": lambda: grid.read(0, box=((0, 0, 0), (4, 8, 8)) if odd else None, comm=comm).sum(),
        "grid_read_resolution": lambda: grid.read(0, resolution=3 if odd else None, comm=comm).sum(),
        "series_read_steps": lambda: series.read(variable="T", steps=[1] if odd else [0, 1], comm=comm).sum(),
        "series_read_box": lambda: series.read(variable="T", box=((0, 0, 0), (4, 8, 8)) if odd else None,
                                               comm=comm).sum(),
        "series_read_variable": lambda: series.read("U" if odd else "T", comm=comm).sum(),
        "open_mode": lambda: lodex.open(path, mode="r" if odd else "a", comm=comm).close(),
        "create_path": lambda: lodex.create(other + ("-odd" if odd else ""), comm=comm).close(),
    }


def write(path, comm):
    with lodex.create(path, comm=comm) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=DOMAIN, partition_grid=(1, 1, 1))
        grid = ds.define_grid("g", dims=(8, 8, 8), dtype="f4")
        s = ds.define_series("s", dims=(8, 8, 8), variables={"T": "f4", "U": "f4"})
        z0, z1 = comm.rank * 8 // comm.size, (comm.rank + 1) * 8 // comm.size   # a slab per rank
        box = ((0, 0, z0), (8, 8, z1))
        for step in (0, 1):
            rng = np.random.default_rng(comm.rank + 10 * step)
            g.write(step, data={"position": rng.random((50, 3)), "id": comm.rank * 100 + np.arange(50, dtype=np.int64)})
            grid.write(step, box, np.full((z1 - z0, 8, 8), step + 1, np.float32))
            s.write(step, box, {"T": np.full((z1 - z0, 8, 8), step + 1, np.float32),
                                "U": np.zeros((z1 - z0, 8, 8), np.float32)})


def main() -> None:
    comm = MPI.COMM_WORLD
    workdir = sys.argv[1]
    path = os.path.join(workdir, "d.lodex")
    write(path, comm)
    odd = comm.rank == comm.size - 1
    results = {}
    with lodex.open(path, comm=comm) as ds:
        for name, call in cases(ds, path, os.path.join(workdir, "new.lodex"), odd, comm).items():
            try:
                out = ["ok", repr(call())]
            except Exception as e:   # noqa: BLE001 - reported to the test
                out = ["error", type(e).__name__, str(e)]
            results[name] = comm.gather(out, root=0)
    created = sorted(n for n in os.listdir(workdir) if n.startswith("new.lodex"))
    after = comm.allreduce(1)   # the communicator still works
    if comm.rank == 0:
        tu.emit({"size": comm.size, "cases": results, "after": after, "created": created})


if __name__ == "__main__":
    main()
