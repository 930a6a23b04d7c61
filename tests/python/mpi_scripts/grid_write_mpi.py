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

import numpy as np
from mpi4py import MPI

import grid_bad_cases as gb
import grid_write_cases as gc
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, n = comm.rank, comm.size
    workdir, tasks = sys.argv[1], sys.argv[2:]

    def handle(task: str):
        if task == "write":
            path = os.path.join(workdir, "w.lodex")
            profiles = gc.write_all(path, comm, rank, n)
            appended = gc.append_steps(path, comm, rank, n)
            return task, {"profiles": profiles, "append": appended}
        if task.startswith("read:"):
            _, tag, path = task.split(":", 2)
            arrays, boxes = gc.parallel_reads(path, comm)
            np.savez(os.path.join(workdir, f"read-{tag}-{rank}.npz"), **arrays)
            return f"read:{tag}", {"boxes": boxes}
        if task.startswith("append:"):
            return "append", gc.append_more(task.split(":", 1)[1], comm, rank, n)
        if task == "fuzz":
            fpath = os.path.join(workdir, "fuzz.lodex")
            return task, {"bitmasks": gc.fuzz_write(fpath, comm, rank, n, gc.FUZZ_SEEDS),
                          "reads": gc.fuzz_reads(fpath, comm, n)}
        if task == "readerr":
            return task, gb.read_errors(workdir, comm, rank)
        if task == "bad":
            mine = {}
            for case in gb.CASES:
                comm.Barrier()
                mine[case] = gb.run_case(case, workdir, comm, rank, n)
            return task, mine
        raise KeyError(task)

    tu.run_tasks(comm, tasks, handle)


if __name__ == "__main__":
    main()
