"""Memory of grid, series and particle steps at 1, 2 and 3 ranks: a blocking write streams its
files a window at a time, so no rank holds a file (a grid) or a window's top aggregate (a series);
a particle step holds the node's one shared copy of its partition's rows and little else."""

from __future__ import annotations

import pytest

from conftest import run_mpi


def measure(tmp_path_factory, kind: str, n: int, mode: str, *extra: str, env: dict | None = None) -> dict:
    out = str(tmp_path_factory.mktemp(f"{kind}{n}{mode}"))
    return run_mpi(n, "step_memory_mpi.py", kind, out, mode, *extra, timeout=300, env=env)


# Peak growth per step byte of a blocking grid step (one 4 MiB f4 slab per rank, one file) before:
# 8.1 at every rank count on the file's aggregator (unit buffers of blocks_per_file x 2^15 samples,
# 32 MiB, whatever the grid's size), 1.16-1.19 elsewhere (the encoded bricks). After: 1.09-1.14 on
# every rank (the encoded bricks; one window of 256 KiB at the aggregator).
@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_blocking_grid_step_holds_at_most_a_quarter_step_beyond_its_bytes(tmp_path_factory, n):
    res = measure(tmp_path_factory, "grid", n, "sync")
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= 1.25, (r, worst)   # within the write (VmHWM)
        assert worst["anon"] <= 1.25, (r, worst)   # kept from step to step


# A series step's bytes are buffered in its window (d_tar = 4 steps: the temporal aggregation
# itself, 4.0 x a step). Before, the window's spatial aggregation held a second window (the top
# aggregates: 8.0-8.1 x at 2 and 3 ranks); after, 256 KiB of slabs at a time: 4.0-4.15 x.
@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_blocking_series_window_holds_its_steps_and_a_quarter_step(tmp_path_factory, n):
    res = measure(tmp_path_factory, "series", n, "sync")
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= 4 + 0.25, (r, worst)
        assert worst["anon"] <= 4 + 0.25, (r, worst)


# An asynchronous grid step or series window is gathered and written on its helper thread over the
# group's own communicator (MPI_THREAD_MULTIPLE: "helper-mpi"), streamed as a blocking write does,
# so it holds what a blocking step holds (the encoded bricks; the window) and, while the helper
# runs after the call returned, one window of blocks or slabs: the blocking bounds hold (the issue's
# goal, the budget of one step plus the step, is met with a step to spare; for a series the natural
# bound, the window a blocking write holds plus one step, with that step to spare too). Measured
# 1.17 / 1.18 / 1.18 (grid) and 4.01 / 4.06 / 4.13 (series) at 1 / 2 / 3 ranks. Before (the
# caller's thread aggregated whole files or top aggregates for a helper making no MPI call): grid
# 1.11 / 2.12 / 4.12, series 4.01 / 8.02 / 8.14. The high-water mark is read at every call's start
# and end and after the last step's wait, so the helper's time between calls counts.
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("kind", ["grid", "series"])
def test_an_async_step_streams_on_its_helper_and_holds_what_a_blocking_step_holds(tmp_path_factory, kind, n):
    res = measure(tmp_path_factory, kind, n, "async")
    assert res["paths"] == ["helper-mpi"], res
    bound = {"grid": 1.25, "series": 4.25}[kind]
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= bound, (r, worst)
        assert worst["anon"] <= bound, (r, worst)


# The fallback (MPI without MPI_THREAD_MULTIPLE, forced here): the caller's thread aggregates and
# the helper, which makes no MPI call, writes what it holds: the file's blocks at the grid's
# aggregator (2.1 x at two ranks, 4.1 at three: 3 slabs padded to 4 in the index), a second window
# (the top aggregates) for a series (8.0-8.7 x). Regression guards at what that path reaches.
@pytest.mark.parametrize("kind", ["grid", "series"])
def test_an_async_step_on_the_fallback_path_holds_what_the_caller_aggregated(tmp_path_factory, kind):
    res = measure(tmp_path_factory, kind, 3, "async", env={"LODEX_ASYNC_PATH": "caller-aggregates"})
    assert res["paths"] == ["caller-aggregates"], res
    bound = {"grid": 4.25, "series": 8.9}[kind]
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= bound, (r, worst)


# Particle steps, 65,536 Uintah particles (7.8 MiB) per rank, one partition of all the ranks (the
# node-cooperative path at 2 and 3 ranks), per step byte, the largest rank; the node's shared
# window counts as each rank's proportional share (1.0 x: the one copy of the partition's rows).
# Before (the ring of 4 x 256 KiB, the order's four arrays of 4 bytes per row of the partition in
# the aggregator's own memory): blocking 0.30 / 1.47 / 1.69 at 1 / 2 / 3 ranks, asynchronous 1.44
# (copy) and 0.45 (copy=False) at one rank, 1.77 / 1.74 at 2 / 3 ranks. Then (a ring of 4 x 128
# KiB, the permutation placed straight into the window, the input rows' brick keys in its room:
# 8 bytes per row kept by the aggregator): 0.20 / 1.38 / 1.52 and 1.36, 0.27, 1.46, 1.64, where
# 1.38 and 1.52 were a rank that is not the aggregator: 0.24 x (1.8 MiB) of them was MPICH's block
# of 256 communicator objects, which the measured group's window (MPI_Win_allocate_shared
# duplicates the node's communicator) was the first to need on that rank: once in a process's
# life, not a step's memory, now put in place before the baseline with MPI's other once-per-process
# buffers (step_memory_mpi.py, hold_mpi_communicator_block). Then: 0.20 / 1.28 / 1.43 (the
# aggregator at 2 and 3 ranks; the other ranks 1.13 at 2, 0.94-1.29 at 3), asynchronous
# 1.26-1.29 / 0.27-0.36 at one rank, 1.36-1.45 / 1.45-1.56 at 2 / 3. Now (the writers place the
# order together, the shuffle in the window: the aggregator keeps no array per row of the file,
# each writer the keys of its own range, 4 bytes per row over the writers): 1.23 at 2 ranks (the
# aggregator; the other rank 1.18), 1.32-1.36 at 3 (the last writer; the aggregator 1.32),
# asynchronous 1.33-1.40 at 2, 1.44 at 3. The goal, 1.25 x for a blocking step, is met at 2 ranks
# and still missed at 3; the 3-rank bounds are regression guards at what was reached
# (docs/writes.md, "Memory of a step", says what remains). In about 1 run of 16 the last writer
# at 3 ranks reached 1.46-1.47 (it failed this test on CI once): the writers' ring, a heap block
# sized by the step's largest chunk, grew by a few bytes and the heap by the whole ring; scratch
# buffers of 64 KiB or more are now mappings of their own (none in 76 runs, at most 1.36).
@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_blocking_particle_step_holds_the_windows_share_and_little_else(tmp_path_factory, n):
    res = measure(tmp_path_factory, "particles", n, "sync", "node")
    assert res["paths"] == (["p2p"] if n == 1 else ["node"])
    bound = {1: 0.25, 2: 1.25, 3: 1.40}[n]
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= bound, (r, worst)
        assert worst["anon"] <= bound, (r, worst)


# An asynchronous particle step: one step in flight per group (the next write completes it first),
# so the goal is the budget (one step) plus the step, 2 x: met. With the copy at one rank the copy
# of the rows the rank keeps is the step in flight. Measured 1.21-1.23 / 0.21 (copy / copy=False)
# at one rank, 1.25-1.26 at 2, 1.33-1.36 at 3; before the scratch buffers were mappings of their
# own up to 1.29 / 0.36, 1.40 and 1.56 (the bounds were 1.40 / 0.40, 1.47 and 1.55).
@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mode", ["async", "nocopy"])
def test_an_async_particle_step_holds_at_most_the_budget_and_its_step(tmp_path_factory, n, mode):
    res = measure(tmp_path_factory, "particles", n, mode, "node")
    bound = {("async", 1): 1.40, ("nocopy", 1): 0.40, 2: 1.40, 3: 1.50}
    b = bound.get((mode, n), bound.get(n))
    for r, worst in enumerate(res["per_rank"]):
        assert worst["peak"] <= b, (r, worst)
