"""MPI worker: collective calls whose arguments fail the Python checks on one rank only (the
last), for test_one_bad_rank.py. The failing rank hands its error to the core call itself
(``error=``), so every rank must raise it, none may hang, and the communicator must still work.

usage: one_bad_rank.py WORKDIR

Rank 0 prints, per case, every rank's ["error", class name, message] or ["ok"].
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "id": "i8"}
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


def cases(ds, bad: bool, comm):
    """name -> the collective call; `bad` on the last rank only."""
    g = ds.particles["p"]
    grid = ds.grids["g"]
    series = ds.series["s"]
    return {
        "define_particles": lambda: ds.define_particles("q", schema=SCHEMA, domain=DOMAIN,
                                                        partition=(0, 1, 1) if bad else (1, 1, 1)),
        "define_grid": lambda: ds.define_grid("h", dims=(8, 8, -1 if bad else 8), dtype="f4"),
        "define_series": lambda: ds.define_series("t", dims=(8, 8, 8), variables={"T": "f4"},
                                                  d_tar=0 if bad else None),
        "series_calibration": lambda: ds.define_series("u", dims=(8, 8, 8), variables={"T": "f4"},
                                                       calibration={"bw_io": 1e9, "cc": 1e-3, "ts": 1e-3},
                                                       cc=1e-3 if bad else None),
        "read": lambda: g.read(0, comm=comm, box="nowhere" if bad else None),
        "refine": lambda: g.refine(0, comm=comm, readers=0 if bad else None),
        "query": lambda: g.query(0, "id >= 0", comm=comm, level=-1 if bad else None),
        "grid_read": lambda: grid.read(0, comm=comm, resolution=-5 if bad else None),
        "series_read": lambda: series.read(variable="T", steps="x" if bad else None, comm=comm),
    }


def main() -> None:
    comm = MPI.COMM_WORLD
    workdir = sys.argv[1]
    path = os.path.join(workdir, "d.lodex")
    with lodex.create(path, comm=comm) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=DOMAIN, partition_grid=(1, 1, 1))
        rng = np.random.default_rng(comm.rank)
        g.write(0, data={"position": rng.random((50, 3)), "id": comm.rank * 100 + np.arange(50, dtype=np.int64)})
        grid = ds.define_grid("g", dims=(8, 8, 8), dtype="f4")
        z0, z1 = comm.rank * 8 // comm.size, (comm.rank + 1) * 8 // comm.size   # a slab per rank
        box = ((0, 0, z0), (8, 8, z1))
        grid.write(0, box, np.zeros((z1 - z0, 8, 8), np.float32))
        s = ds.define_series("s", dims=(8, 8, 8), variables={"T": "f4"})
        s.write(0, box, {"T": np.ones((z1 - z0, 8, 8), np.float32)})
    ds = lodex.open(path, mode="a", comm=comm)
    bad = comm.rank == comm.size - 1
    results = {}
    for name, call in cases(ds, bad, comm).items():
        try:
            call()
            out = ["ok"]
        except Exception as e:   # noqa: BLE001 - reported to the test
            out = ["error", type(e).__name__, str(e)]
        results[name] = comm.gather(out, root=0)
    after = comm.allreduce(1)   # the communicator still works
    ds.close()
    if comm.rank == 0:
        tu.emit({"size": comm.size, "cases": results, "after": after})


if __name__ == "__main__":
    main()
