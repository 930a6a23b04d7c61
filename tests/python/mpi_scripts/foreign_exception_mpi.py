"""MPI worker: a foreign exception (std::runtime_error, as a bug in a library lodex calls would
throw, not a lodex::Error) thrown on one rank inside each collective call, for
test_foreign_exception.py. The fault hook (LODEX fault "<op>:<n>:foreign") throws it before that
rank's n-th file operation of the kind. Every rank must raise a lodex error (InternalError naming
the exception); none may hang, and the next collective must still work.

usage: foreign_exception_mpi.py WORKDIR

Rank 0 prints, per case, every rank's ["error", class name, message] or ["ok"].
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex import _lodex

SCHEMA = {"position": ("f8", 3), "energy": "f4"}
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))


def slab(comm):
    z0, z1 = comm.rank * 8 // comm.size, (comm.rank + 1) * 8 // comm.size
    return z0, z1, ((0, 0, z0), (8, 8, z1))


def particles(comm, step):
    rng = np.random.default_rng([comm.rank, step])
    return {"position": rng.random((300, 3)), "energy": rng.random(300).astype(np.float32)}


def cases(ds, comm):
    """name -> (fault, failing rank, the collective call)."""
    g, grid, s = ds.particles["p"], ds.grids["g"], ds.series["s"]
    z0, z1, box = slab(comm)
    last = comm.size - 1
    return {
        "particle_write": ("write:1:foreign", 0, lambda: g.write(1, data=particles(comm, 1))),
        "grid_write": ("write:1:foreign", 0, lambda: grid.write(1, box, np.ones((z1 - z0, 8, 8), np.float32))),
        "series_flush": ("write:1:foreign", 0, lambda: (s.write(2, box, {"T": np.ones((z1 - z0, 8, 8), np.float32)}),
                                                         s.flush())),
        "index_build": ("write:1:foreign", 0, lambda: g.build_index(fields=["energy"], steps=[0])),
        "particle_read": ("read:1:foreign", last, lambda: g.read(0, comm=comm)),
        "value_query": ("read:1:foreign", last, lambda: g.query(0, "energy > 0.5", comm=comm)),
        "grid_read": ("read:1:foreign", last, lambda: grid.read(0, comm=comm)),
        "series_read": ("read:1:foreign", last, lambda: series_read(s, comm)),
    }


def series_read(s, comm):
    return s.read(variable="T", steps=[0], comm=comm)


def main() -> None:
    comm = MPI.COMM_WORLD
    path = os.path.join(sys.argv[1], "d.lodex")
    z0, z1, box = slab(comm)
    with lodex.create(path, comm=comm) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=DOMAIN, partition_grid=(1, 1, 1))
        g.write(0, data=particles(comm, 0))
        ds.define_grid("g", dims=(8, 8, 8), dtype="f4").write(0, box, np.zeros((z1 - z0, 8, 8), np.float32))
        s = ds.define_series("s", dims=(8, 8, 8), variables={"T": "f4"}, d_tar=2, d_sar=0)
        for t in (0, 1):
            s.write(t, box, {"T": np.full((z1 - z0, 8, 8), t, np.float32)})
    results = {}
    with lodex.open(path, "a", comm=comm) as ds:
        for name, (fault, rank, call) in cases(ds, comm).items():
            if comm.rank == rank:
                _lodex._inject_fault(fault)
            try:
                call()
                out = ["ok"]
            except Exception as e:   # noqa: BLE001 - reported to the test
                out = ["error", type(e).__name__, str(e)]
            finally:
                _lodex._inject_fault(None)
            results[name] = comm.gather(out, root=0)
        # The dataset still works: a collective read of what was committed before.
        after = int(ds.particles["p"].read(0, comm=comm)["energy"].size)
    after = comm.allreduce(after)
    if comm.rank == 0:
        tu.emit({"size": comm.size, "cases": results, "after": after})


if __name__ == "__main__":
    main()
