"""MPI worker for test_grid_partitions.py: partitioned grid writes, collective reads, errors.

usage: grid_partition_mpi.py WORKDIR TASK [TASK ...]
  write              the world's ranks write every grid_partition_cases.cases(n) grid into
                     WORKDIR/p.lodex (global-space ones also with partitions=1 into
                     WORKDIR/ref.lodex); result "write": per rank, per case what the writer saw
  read:TAG:N:PATH    every rank reads the local-space grids of cases(N) in PATH with
                     comm=COMM_WORLD and saves its arrays to WORKDIR/read-TAG-RANK.npz;
                     result "read:TAG": per rank the requests and last_read_box
  append:PATH        reopens PATH (a copy of what 4 ranks wrote) in mode "a" and adds a step to
                     every grid_partition_cases.APPEND_MORE grid; result "append": their steps
  cross              writes whose boxes cross a partition boundary (grid_partition_cases.cross_errors)
  dflt               the local index space with the default bits_per_block (default_bpb_local)
Rank 0 prints one LODEX_RESULT line with every task's result (a task that raised reports the
exception per rank instead).
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import grid_partition_cases as pc
import lodex_testutil as tu


def main() -> None:
    comm = MPI.COMM_WORLD
    rank, n = comm.rank, comm.size
    workdir, tasks = sys.argv[1], sys.argv[2:]

    def handle(task: str):
        if task == "write":
            return task, pc.write_all(workdir, comm, rank, n)
        if task.startswith("read:"):
            _, tag, nw, path = task.split(":", 3)
            arrays, meta = pc.parallel_reads(path, int(nw), comm)
            np.savez(os.path.join(workdir, f"read-{tag}-{rank}.npz"), **arrays)
            return f"read:{tag}", {"reads": meta}
        if task == "cross":
            return task, pc.cross_errors(workdir, comm, rank, n)
        if task.startswith("append:"):
            return "append", pc.append_more(task.split(":", 1)[1], comm, rank, n)
        if task == "dflt":
            return task, pc.default_bpb_local(workdir, comm, rank, n)
        raise KeyError(task)

    tu.run_tasks(comm, tasks, handle)


if __name__ == "__main__":
    main()
