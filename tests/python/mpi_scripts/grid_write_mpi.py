"""MPI worker for test_grid_write.py: collective grid writes, collective reads, bad input.

usage: grid_write_mpi.py WORKDIR TASK [TASK ...]
  write            the world's ranks write every grid_write_cases.CASES grid into WORKDIR/w.lodex,
                   then reopen it in append mode and add the APPEND steps; result "write":
                   per-rank profiles and the append outcome
  read:TAG:PATH    every rank runs the PAR_READS reads of PATH with comm=COMM_WORLD and saves its
                   arrays to WORKDIR/read-TAG-RANK.npz; result "read:TAG": per-rank last_read_box
  append:PATH      reopens PATH (a copy written by another rank count) in mode "a" and adds a step
                   to every APPEND_MORE grid; result "append": the grids' steps
  fuzz             the world's ranks write the FUZZ_SEEDS random grids into WORKDIR/fuzz.lodex,
                   then read them collectively (fuzz_reads: each rank checks its slab)
  readerr          collective reads failing on some ranks only (grid_bad_cases.read_errors)
  bad              every grid_bad_cases case (bad input on one rank); result "bad": per-rank outcome
Rank 0 prints one LODEX_RESULT line with every task's result (a task that raised reports the
exception per rank instead).
"""

import os
import sys
import traceback

import numpy as np
from mpi4py import MPI

import grid_bad_cases as gb
import grid_write_cases as gc
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, n = comm.rank, comm.size
    workdir, tasks = sys.argv[1], sys.argv[2:]
    results = {}
    for task in tasks:
        try:
            if task == "write":
                path = os.path.join(workdir, "w.lodex")
                profiles = gc.write_all(path, comm, rank, n)
                appended = gc.append_steps(path, comm, rank, n)
                mine = {"profiles": profiles, "append": appended}
            elif task.startswith("read:"):
                _, tag, path = task.split(":", 2)
                arrays, boxes = gc.parallel_reads(path, comm)
                np.savez(os.path.join(workdir, f"read-{tag}-{rank}.npz"), **arrays)
                mine = {"boxes": boxes}
                task = f"read:{tag}"
            elif task.startswith("append:"):
                mine = gc.append_more(task.split(":", 1)[1], comm, rank, n)
                task = "append"
            elif task == "fuzz":
                fpath = os.path.join(workdir, "fuzz.lodex")
                mine = {"bitmasks": gc.fuzz_write(fpath, comm, rank, n, gc.FUZZ_SEEDS),
                        "reads": gc.fuzz_reads(fpath, comm, n)}
            elif task == "readerr":
                mine = gb.read_errors(workdir, comm, rank)
            elif task == "bad":
                mine = {}
                for case in gb.CASES:
                    comm.Barrier()
                    mine[case] = gb.run_case(case, workdir, comm, rank, n)
            else:
                raise KeyError(task)
        except Exception as e:   # noqa: BLE001 - reported to the test
            mine = {"exception": [type(e).__name__, str(e), traceback.format_exc()]}
        allr = comm.gather(mine, root=0)
        if rank == 0:
            results[task] = allr
        comm.Barrier()
    if rank == 0:
        tu.emit(results)


if __name__ == "__main__":
    main()
