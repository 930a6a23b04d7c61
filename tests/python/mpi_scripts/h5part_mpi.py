"""MPI worker for test_h5part_mpi.py: collective H5Part import and export (comm=COMM_WORLD).

usage: h5part_mpi.py import DATASET BAD MISSING NAME=H5PART [NAME=H5PART ...]
       h5part_mpi.py export LODEX OUT

import: creates DATASET collectively and imports each H5PART into group NAME with
partition_grid (2, 1, 1) (every rank reads the file and writes rows [r*N//P, (r+1)*N//P) of each
step), then the error cases, each of which must raise on every rank without a hang:
"bad" (BAD is an H5Part file lodex cannot import), "again" (the first import once more: its steps
are committed), "rank_missing" (the last rank is given MISSING, a path that does not exist, the
others the first file: a failure on one rank only), "bad_domain" (particles outside the domain
given). Each rank reports per task: "ok" and the group's steps, or [error class, message].

export: every rank opens LODEX read-only and calls ParticleGroup.export(OUT, comm=COMM_WORLD)
(rank 0 writes alone, every rank gets the statistics); then "exists" (the same without
overwrite), "bad_field" (an unknown field, with overwrite): errors on every rank, OUT intact.
Rank 0 prints lodex_testutil.run_tasks' result: task -> every rank's result.
"""

from __future__ import annotations

import sys

from mpi4py import MPI

import lodex
import lodex_testutil as tu

GROUP = "electrons"


def do_import(comm, argv: list[str]) -> None:
    path, bad, missing = argv[:3]
    sources = [a.split("=", 1) for a in argv[3:]]
    ds = lodex.create(path, comm=comm)
    first_name, first_src = sources[0]

    def handle(task: str):
        if task.startswith("import:"):
            name = task.split(":", 1)[1]
            src = dict(sources)[name]
            g = ds.import_h5part(src, name, partition_grid=(2, 1, 1))
            return task, ["ok", g.steps]
        if task == "bad":
            return task, tu.outcome(lambda: ds.import_h5part(bad, "bad").steps)
        if task == "again":
            return task, tu.outcome(lambda: ds.import_h5part(first_src, first_name).steps)
        if task == "rank_missing":
            src = missing if comm.rank == comm.size - 1 else first_src
            return task, tu.outcome(lambda: ds.import_h5part(src, "partial").steps)
        if task == "bad_domain":
            return task, tu.outcome(lambda: ds.import_h5part(first_src, "small", domain=((0, 0, 0), (1, 1, 1))).steps)
        if task == "groups":
            return task, sorted(ds.particles)
        raise ValueError(task)

    tasks = [f"import:{n}" for n, _ in sources] + ["bad", "again", "rank_missing", "bad_domain", "groups"]
    tu.run_tasks(comm, tasks, handle)
    ds.close()


def do_export(comm, argv: list[str]) -> None:
    src, out = argv
    g = lodex.open(src).particles[GROUP]

    def handle(task: str):
        if task == "export":
            return task, tu.outcome(lambda: g.export(out, comm=comm))
        if task == "exists":
            return task, tu.outcome(lambda: g.export(out, comm=comm))
        if task == "bad_field":
            return task, tu.outcome(lambda: g.export(out, fields=["nope"], overwrite=True, comm=comm))
        raise ValueError(task)

    tu.run_tasks(comm, ["export", "exists", "bad_field"], handle)


def main() -> None:
    comm = MPI.COMM_WORLD
    {"import": do_import, "export": do_export}[sys.argv[1]](comm, sys.argv[2:])


if __name__ == "__main__":
    main()
