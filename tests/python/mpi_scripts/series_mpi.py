"""MPI worker for series tests (test_series_mpi.py).

usage:
  series_mpi.py write PATH D_TAR D_SAR STEPS      write the small GEOS-like workload (D_TAR/D_SAR "-": chosen)
  series_mpi.py read PATH                         collective reads of every pattern by all ranks
  series_mpi.py errors PATH                       bad input on one rank: every rank must raise

The workload is lodex_testutil-free: series_data.GEOS (a small Geos), so the test regenerates
exactly the same values. Rank 0 prints one LODEX_RESULT line.
"""

import sys

import numpy as np
from mpi4py import MPI

import lodex
from lodex_testutil import emit
from series_data import GEOS, PATTERNS, expected


def write(path, d_tar, d_sar, steps):
    comm = MPI.COMM_WORLD
    ds = lodex.create(path, comm=comm)
    s = ds.define_series("geos", dims=GEOS.dims, variables=GEOS.variables(), d_tar=d_tar, d_sar=d_sar)
    flushed_after = []
    for t in range(steps):
        box, data = GEOS.local(comm.rank, comm.size, t)
        s.write(t, box, data)
        flushed_after.append(len(s.steps))
    buffered = s.buffered_steps
    ds.close()
    r = lodex.open(path).series["geos"]
    if comm.rank == 0:
        emit({"ranks": comm.size, "d_tar": r.meta["d_tar"], "d_sar": r.meta["d_sar"], "cuts": r.meta["cuts"],
              "windows": [w["steps"] for w in r.meta["windows"]], "flushed_after": flushed_after,
              "buffered_before_close": buffered, "steps": r.steps})


def read(path):
    comm = MPI.COMM_WORLD
    s = lodex.open(path).series["geos"]
    steps = s.steps
    checked = 0
    for name, var_steps, box in PATTERNS(steps):
        part = s.read(variable=name, steps=var_steps, box=box, comm=comm)
        part_steps, lo, hi = s.last_read_box
        parts = comm.gather((part, part_steps, lo, hi), root=0)
        if comm.rank == 0:
            want = expected(name, var_steps, box)
            single = isinstance(var_steps, int)
            got = np.zeros_like(want)
            seen = np.zeros(want.shape, dtype=np.int32)
            blo = [0, 0, 0] if box is None else list(box[0]) + ([0] if len(box[0]) == 2 else [])
            all_steps = [var_steps] if single else list(steps if var_steps is None else var_steps)
            for a, ps, plo, phi in parts:
                if not ps or any(phi[i] <= plo[i] for i in range(3)):
                    continue
                ti = [all_steps.index(t) for t in ps]
                sl = [slice(plo[i] - blo[i], phi[i] - blo[i]) for i in range(3)]
                if GEOS.ndim(name) == 2:
                    idx = (sl[1], sl[0])
                else:
                    idx = (sl[2], sl[1], sl[0])
                if single:
                    got[idx] = a
                    seen[idx] += 1
                else:
                    got[(ti,) + idx] = a
                    seen[(ti,) + idx] += 1
            assert (seen == 1).all(), f"{name} {var_steps} {box}: parts overlap or leave gaps"
            assert np.array_equal(got, want), f"{name} {var_steps} {box}: wrong values"
            checked += 1
    if comm.rank == 0:
        emit({"ranks": comm.size, "patterns": checked})


def errors(path):
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    ds = lodex.create(path, comm=comm)
    out = {}

    def case(label, fn):
        try:
            fn()
            out[label] = "ok"
        except lodex.Error as e:
            out[label] = [type(e).__name__, str(e)]

    variables = GEOS.variables()
    s = ds.define_series("geos", dims=GEOS.dims, variables=variables, d_tar=2)
    last = size - 1

    def data_for(t):
        return GEOS.local(rank, size, t)

    def outside():
        box, data = data_for(0)
        if rank == last:
            box = (box[0], (box[1][0] + 1, box[1][1], box[1][2]))
        s.write(0, box, data)
    case("box_outside_last_rank", outside)

    def missing():
        box, data = data_for(0)
        if rank == last:
            data = {k: v for k, v in data.items() if k != "PS"}
        s.write(0, box, data)
    case("missing_variable_last_rank", missing)

    def overlap():
        box, data = data_for(0)
        if rank == last and size > 1:
            box = GEOS.box(0, size)
            data = {n: GEOS.field(n, 0, box) for n in GEOS.names}
        s.write(0, box, data)
    if size > 1:
        case("overlap_last_rank", overlap)

    def wrong_dtype():
        box, data = data_for(0)
        if rank == 0:
            data["T"] = data["T"].astype(np.float64)
        s.write(0, box, data)
    case("wrong_dtype_rank0", wrong_dtype)

    case("good_step_0", lambda: s.write(0, *data_for(0)))
    case("step_twice", lambda: s.write(0, *data_for(0)))
    case("good_step_2", lambda: s.write(2, *data_for(2)))   # fills the window (d_tar 2): flushed
    case("out_of_order", lambda: s.write(1, *data_for(1)))

    def other_step():
        box, data = data_for(3)
        s.write(3 if rank != last else 4, box, data)
    if size > 1:
        case("different_steps", other_step)

    def moved_box():
        box, data = data_for(3)
        if rank == last and size > 1:
            box = GEOS.box(0, size)
            data = {n: GEOS.field(n, 3, box) for n in GEOS.names}
        s.write(3, box, data)
    if size > 1:
        case("box_changes", moved_box)
    case("good_step_3", lambda: s.write(3, *data_for(3)))   # buffered
    case("read_buffered", lambda: s.read(variable="T", steps=3))
    steps_before_close = s.steps
    small = ds.define_series("tiny", dims=GEOS.dims, variables=variables, memory_budget=1000)
    case("budget_too_small", lambda: small.write(0, *data_for(0)))
    ds.close()
    r = lodex.open(path).series["geos"]
    final = r.steps
    ok = all(np.array_equal(r.read(n, steps=final), expected(n, final, None)) for n in GEOS.names)
    gathered = comm.gather(out, root=0)
    if rank == 0:
        emit({"ranks": size, "per_rank": gathered, "steps_before_close": steps_before_close, "final_steps": final,
              "data_ok": bool(ok)})


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "write":
        arg = lambda v: None if v == "-" else int(v)   # noqa: E731
        write(path, arg(sys.argv[3]), arg(sys.argv[4]), int(sys.argv[5]))
    elif mode == "read":
        read(path)
    elif mode == "errors":
        errors(path)
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
