"""MPI worker for test_openpmd_mpi.py: collective openPMD export and import (comm=COMM_WORLD).

usage: openpmd_mpi.py export LODEX OUTDIR
       openpmd_mpi.py import SERIES_H5 SERIES_BP OUTDIR BAD MISSING

export: lodex.openpmd.export of group "electrons" of LODEX, collectively, as OUTDIR/f/s_%T.h5
(file-based: each rank writes its share of the steps' files) and OUTDIR/g.bp (variable-based: rank 0
writes); then "exists" (the first export again, without overwrite): an error on every rank;
then "idle": a one-file series of a larger group (rank 0 writes it alone), each rank reporting
the export's wall and CPU seconds (the ranks that only wait should sleep, not spin).

import: lodex.openpmd.import_series of each series into a new dataset OUTDIR/<name>.lodex with
partition_grid (2, 1, 1) (each rank reads rows [r*N//P, (r+1)*N//P) of every iteration; the HDF5
series' meshes too, as grids, each rank a slab); then
"bad" (BAD is not an openPMD series) and "rank_missing" (the last rank is given MISSING, the
others SERIES_H5): errors on every rank, no dataset left behind.
Rank 0 prints lodex_testutil.run_tasks' result: task -> every rank's result.
"""

from __future__ import annotations

import os
import sys

from mpi4py import MPI

import lodex
import lodex.openpmd
import lodex_testutil as tu

GROUP = "electrons"


def do_export(comm, argv: list[str]) -> None:
    src, out = argv
    f_out, g_out = os.path.join(out, "f", "s_%T.h5"), os.path.join(out, "g.bp")
    if comm.rank == 0:
        os.makedirs(os.path.dirname(f_out), exist_ok=True)
    comm.Barrier()

    def stats(st):
        return {k: st[k] for k in ("steps", "particles", "patches", "bytes")}

    def handle(task: str):
        if task == "file":
            return task, tu.outcome(lambda: stats(lodex.openpmd.export(src, GROUP, f_out, comm=comm)))
        if task == "group":
            return task, tu.outcome(lambda: stats(lodex.openpmd.export(src, GROUP, g_out, comm=comm)))
        if task == "exists":
            return task, tu.outcome(lambda: stats(lodex.openpmd.export(src, GROUP, f_out, comm=comm)))
        if task == "idle":
            return task, tu.outcome(lambda: idle_export(comm, out))
        raise ValueError(task)

    tu.run_tasks(comm, ["file", "group", "exists", "idle"], handle)


def idle_export(comm, out: str) -> list[float]:
    """[wall, CPU] seconds of this rank in an export that rank 0 does alone (a one-file series)."""
    import time

    import numpy as np
    big = os.path.join(out, "big.lodex")
    if comm.rank == 0:
        ds = lodex.create(big)
        rng = np.random.default_rng(3)
        n = 1_000_000
        ds.define_particles(GROUP, schema={"position": ("f8", 3), "id": "u8", "w": ("f4", 3)},
                            domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2)).write(
            0, data={"position": rng.random((n, 3)), "id": np.arange(n, dtype="u8"),
                     "w": rng.random((n, 3), dtype="f4")})
        ds.close()
    comm.Barrier()
    wall, cpu = time.perf_counter(), time.process_time()
    lodex.openpmd.export(big, GROUP, os.path.join(out, "big.bp"), comm=comm)
    return [time.perf_counter() - wall, time.process_time() - cpu]


def do_import(comm, argv: list[str]) -> None:
    h5, bp, out, bad, missing = argv

    def handle(task: str):
        if task in ("h5", "bp"):
            series = h5 if task == "h5" else bp
            path = os.path.join(out, f"{task}.lodex")
            return task, tu.outcome(lambda: lodex.openpmd.import_series(series, path, GROUP, comm=comm,
                                                                     partition_grid=(2, 1, 1), chunk_rows=333,
                                                                     meshes=task == "h5").steps)
        if task == "bad":
            return task, tu.outcome(lambda: lodex.openpmd.import_series(bad, os.path.join(out, "bad.lodex"), GROUP,
                                                                     comm=comm).steps)
        if task == "rank_missing":
            series = missing if comm.rank == comm.size - 1 else h5
            return task, tu.outcome(lambda: lodex.openpmd.import_series(series, os.path.join(out, "partial.lodex"),
                                                                     GROUP, comm=comm).steps)
        raise ValueError(task)

    tu.run_tasks(comm, ["h5", "bp", "bad", "rank_missing"], handle)


def main() -> None:
    comm = MPI.COMM_WORLD
    {"import": do_import, "export": do_export}[sys.argv[1]](comm, sys.argv[2:])


if __name__ == "__main__":
    main()
