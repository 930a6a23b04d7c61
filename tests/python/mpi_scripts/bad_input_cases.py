"""Bad-input cases shared by the serial tests (imported by pytest, comm=None) and the multi-rank
worker bad_input_mpi.py. In a multi-rank run the bad input is on ONE rank (BAD_RANK) only.

run_case(case, workdir, comm) sets up a dataset with a good step 0, performs the bad operation,
and returns what this rank saw: the exception class name and message, the group's steps right
after the failure, and the outcome of a good retry of step 1.
"""

from __future__ import annotations

import os
import sys

import numpy as np

import lodex
from lodex.workloads import patch_of, rank_grid

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
GROUP = "p"

# case -> expected exception class name (on every rank)
WRITE_CASES = {
    "lengths": "InvalidArgumentError",
    "dtype": "InvalidArgumentError",
    "dtype_unsupported": "InvalidArgumentError",
    "components": "InvalidArgumentError",
    "ndim": "InvalidArgumentError",
    "missing_field": "InvalidArgumentError",
    "unknown_field": "InvalidArgumentError",
    "outside_patch": "InvalidArgumentError",
    "outside_domain": "InvalidArgumentError",
    "nan_position": "InvalidArgumentError",
    "inf_position": "InvalidArgumentError",
    "patch_outside_domain": "InvalidArgumentError",
    "patch_empty": "InvalidArgumentError",
    "patch_malformed": "InvalidArgumentError",
    "data_not_mapping": "InvalidArgumentError",
    "negative_step": "InvalidArgumentError",
    "step_mismatch": "InvalidArgumentError",
    "step_twice": "AlreadyExistsError",
    "step_twice_one_rank": "AlreadyExistsError",
    "factor_misfit": "InvalidArgumentError",
    "factor_without_patch": "InvalidArgumentError",
}
OTHER_CASES = {
    "create_existing": "AlreadyExistsError",
    "create_under_file": "IOFailure",
    "create_in_proc": "IOFailure",
    "open_missing": "NotFoundError",
    "open_append_missing": "NotFoundError",
    "read_missing_step": "NotFoundError",
    "read_unknown_field": "NotFoundError",
    "group_schema_differs_on_one_rank": "InvalidArgumentError",
}
# Need two ranks to disagree (factor_without_patch: one serial writer's patch is the domain).
SERIAL_SKIP = {"step_mismatch", "group_schema_differs_on_one_rank", "factor_without_patch"}


def particles(rank: int, n: int, patch, step: int) -> dict:
    rng = np.random.default_rng([5, step, rank])
    lo, hi = np.asarray(patch[0]), np.asarray(patch[1])
    pos = np.minimum(lo + rng.random((n, 3)) * (hi - lo), np.nextafter(hi, lo))
    return {"position": pos, "energy": rng.random(n).astype(np.float32),
            "id": rank * 1_000_000 + step * 100_000 + np.arange(n, dtype=np.int64)}


def count_of(rank: int, step: int) -> int:
    return 150 + 10 * rank + 7 * step


def good(rank: int, size: int, step: int):
    patch = patch_of(rank, rank_grid(size), DOMAIN)
    return particles(rank, count_of(rank, step), patch, step), patch


def _info(comm):
    if comm is None:
        return 0, 1
    return comm.rank, comm.size


def bad_rank(size: int) -> int:
    return 1 % size


def _log(rank, msg):
    sys.stderr.write(f"[rank {rank}] {msg}\n")
    sys.stderr.flush()


def _bad_write(case: str, g, rank: int, size: int):
    """Perform the write of `case`; only BAD_RANK passes bad input."""
    data, patch = good(rank, size, 1)
    step = 1
    if rank != bad_rank(size):
        if case == "step_twice":
            step = 0
        g.write(step=step, data=data, patch=patch)
        return
    lo, hi = patch
    if case == "lengths":
        data["energy"] = data["energy"][:-1]
    elif case == "dtype":
        data["energy"] = data["energy"].astype(np.float64)
    elif case == "dtype_unsupported":
        data["energy"] = data["energy"].astype(np.float16)
    elif case == "components":
        data["position"] = np.ascontiguousarray(data["position"][:, :2])
    elif case == "ndim":
        data["position"] = data["position"].reshape(-1, 3, 1)
    elif case == "missing_field":
        del data["energy"]
    elif case == "unknown_field":
        data["bogus"] = np.zeros(len(data["id"]))
    elif case == "outside_patch":
        # shrink the patch to its lower half along x; one particle stays in the upper half
        mid = lo[0] + (hi[0] - lo[0]) / 2
        patch = ((lo[0], lo[1], lo[2]), (mid, hi[1], hi[2]))
        data["position"][:, 0] = lo[0] + (data["position"][:, 0] - lo[0]) / 2
        data["position"][0, 0] = lo[0] + 0.75 * (hi[0] - lo[0])
    elif case == "outside_domain":
        data["position"][0] = (0.5, 1.5, 0.5)
    elif case == "nan_position":
        data["position"][3, 1] = np.nan
    elif case == "inf_position":
        data["position"][2, 2] = np.inf
    elif case == "patch_outside_domain":
        patch = (lo, (hi[0] + 0.5, hi[1], hi[2]))
    elif case == "patch_empty":
        patch = (lo, (lo[0], hi[1], hi[2]))
    elif case == "patch_malformed":
        patch = ((lo[0], lo[1]), (hi[0], hi[1]))
    elif case == "data_not_mapping":
        data = list(data.values())
    elif case == "negative_step":
        step = -1
    elif case == "step_mismatch":
        step = 2
    elif case in ("step_twice", "step_twice_one_rank"):
        step = 0
    else:
        raise KeyError(case)
    g.write(step=step, data=data, patch=patch)


def run_case(case: str, workdir: str, comm=None) -> dict:
    rank, size = _info(comm)
    path = os.path.join(workdir, "ds.lodex")
    out = {"rank": rank, "case": case, "path": path, "error": None, "message": None}
    ds = lodex.create(path, comm=comm)
    # Serial: one partition (a serial writer with several partitions is tested in
    # test_roundtrip_mpi.py::test_serial_writer_multi_partition_grid).
    g = ds.define_particles(GROUP, schema=SCHEMA, domain=DOMAIN,
                            partition_grid=(1, 1, 1) if comm is None else (2, 2, 2))
    data, patch = good(rank, size, 0)
    g.write(step=0, data=data, patch=patch)
    gf = None
    try:
        if case in WRITE_CASES:
            if case == "factor_misfit":
                gf = ds.define_particles("f", schema=SCHEMA, domain=DOMAIN,
                                         partition=(3, 1, 1) if size == 1 else (2, 1, 1))
                d, p = good(rank, size, 1)
                if size == 1:   # 2 patches along x, factor 3
                    p = ((0.0, 0.0, 0.0), (0.5, 1.0, 1.0))
                    d = particles(rank, 100, p, 1)
                gf.write(step=0, data=d, patch=p)
            elif case == "outside_patch":
                # A factor partition makes its files' boxes of the patches: a particle outside its
                # rank's patch is refused (grid and adaptive partitions grow the patch, a hint).
                gf = ds.define_particles("f", schema=SCHEMA, domain=DOMAIN, partition=(1, 1, 1))
                _bad_write(case, gf, rank, size)
            elif case == "factor_without_patch":
                gf = ds.define_particles("f", schema=SCHEMA, domain=DOMAIN, partition=(1, 1, 1))
                d, p = good(rank, size, 1)
                gf.write(step=0, data=d, patch=None if rank == bad_rank(size) else p)
            else:
                _bad_write(case, g, rank, size)
        else:
            _other(case, workdir, path, ds, g, comm, rank, size)
        _log(rank, f"{case}: no exception")
    except Exception as e:   # noqa: BLE001 - we report whatever was raised
        out["error"] = type(e).__name__
        out["message"] = str(e)
        out["is_lodex_error"] = isinstance(e, lodex.Error)
        _log(rank, f"{case}: raised {type(e).__name__}: {e}")
    out["steps_after"] = list(g.steps)
    if gf is not None:
        out["f_steps_after"] = list(gf.steps)
    if comm is not None:
        comm.Barrier()
    if rank == 0:
        out["steps_on_disk"] = lodex.open(path).particles[GROUP].steps
    if comm is not None:
        comm.Barrier()
    # A good retry of step 1 must work after the failure.
    try:
        data, patch = good(rank, size, 1)
        g.write(step=1, data=data, patch=patch)
        out["retry"] = "ok"
    except Exception as e:   # noqa: BLE001
        out["retry"] = f"{type(e).__name__}: {e}"
    out["steps_final"] = list(g.steps)
    ds.close()
    return out


def _other(case, workdir, path, ds, g, comm, rank, size):
    if case == "create_existing":
        lodex.create(path, comm=comm)
    elif case == "create_under_file":
        plain = os.path.join(workdir, "plain.txt")
        if rank == 0:
            with open(plain, "w") as fh:
                fh.write("x")
        if comm is not None:
            comm.Barrier()
        lodex.create(os.path.join(plain, "sub.lodex"), comm=comm)
    elif case == "create_in_proc":
        lodex.create("/proc/lodex-test-cannot-exist/run.lodex", comm=comm)
    elif case == "open_missing":
        lodex.open(os.path.join(workdir, "missing.lodex"))
    elif case == "open_append_missing":
        lodex.open(os.path.join(workdir, "missing.lodex"), mode="a", comm=comm)
    elif case == "read_missing_step":
        lodex.open(path).particles[GROUP].read(step=99)
    elif case == "read_unknown_field":
        lodex.open(path).particles[GROUP].read(step=0, fields=["position", "bogus"])
    elif case == "group_schema_differs_on_one_rank":
        schema = dict(SCHEMA)
        if rank == bad_rank(size):
            schema["energy"] = "f8"
        ds.define_particles("other", schema=schema, domain=DOMAIN)
    else:
        raise KeyError(case)
