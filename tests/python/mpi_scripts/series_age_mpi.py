"""A series window closed by age on 3 ranks (test_series.py): rank 0 waits before the second
write, so only its clock says the window is old; every rank must flush with it (a rank deciding
by its own clock would disagree and hang or fail). Rank 0 prints the flushed and buffered steps
every rank saw."""

from __future__ import annotations

import sys
import time

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
dims = (6, 4, 3 * size)
box = ((0, 0, 3 * rank), (dims[0], dims[1], 3 * rank + 3))
ds = lodex.create(sys.argv[1], comm=comm)
s = ds.define_series("s", dims=dims, variables={"T": ("f4", 3)}, d_tar=8, d_sar=0, max_window_seconds=0.5)
seen = []
for step in range(3):
    if rank == 0 and step == 1:
        time.sleep(0.7)
    s.write(step, box, {"T": np.full((3, dims[1], dims[0]), 10 * step + rank, dtype=np.float32)})
    seen.append((list(s.steps), list(s.buffered_steps)))
ds.close()
every = comm.gather(seen, root=0)
if rank == 0:
    tu.emit({"seen": every})
