"""Zero-copy input from numpy (ParticleGroup.buffers; test_buffers.py).

usage: buffers_mpi.py write OUTDIR     every rank writes steps 0..2 of the same particles four ways,
                                       for partition (1,1,1) (several ranks per file: the ranks but
                                       the writer fill its shared window) and one partition per
                                       rank: with write() (ref_*.lodex), through buffers with the
                                       positions interleaved, committed by the with block
                                       (inter_*.lodex), and per component, committed with
                                       commit(wait=False) then wait() (comp_*.lodex). Step 0's
                                       arrays are kept, with a writable view of one of them, which
                                       is written to while step 1 is filled (it must reach nothing)
       buffers_mpi.py errors OUTDIR    the collective misuses at every rank count: an exception in
                                       the with block on the last rank, rank disagreement, positions
                                       outside the patch, a bad count or positions= on one rank,
                                       buffers on a read-only dataset; every rank's outcome

Rank 0 prints one result line."""

from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu
from lodex.workloads import UINTAH_SCHEMA, patch_of, rank_grid, uintah

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
GRID = rank_grid(size)
PATCH = patch_of(rank, GRID)
DOMAIN = ((0, 0, 0), (1, 1, 1))
STEPS = 3


def data(step: int) -> dict:
    return {k: np.array(v) for k, v in uintah(rank + 100 * step, 3000 + 37 * rank + 11 * step, PATCH,
                                               seed=5).items()}


def fill(b, d: dict, components: bool) -> None:
    for k in UINTAH_SCHEMA:
        if k == "position" and components:
            x, y, z = b["position"]   # the rows of the (3, n) array
            x[:], y[:], z[:] = d["position"].T
        else:
            b[k][:] = d[k]


def write_all(outdir: str, label: str, partition) -> dict:
    out = {"in_window": [], "kept_zero": None, "kept_readonly": None, "shares_memory": None}
    dss = {w: lodex.create(os.path.join(outdir, f"{w}_{label}.lodex"), comm=comm) for w in ("ref", "inter", "comp")}
    gs = {w: ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, partition=partition)
          for w, ds in dss.items()}
    kept = stray = None
    for step in range(STEPS):
        d = data(step)
        n = len(d["id"])
        gs["ref"].write(step, PATCH, d)
        with gs["inter"].buffers(step, PATCH, n) as b:
            out["in_window"].append(b.in_window)
            fill(b, d, False)
            if step == 0:
                kept = {k: b[k] for k in b}
                stray = b["stress"][:]   # a view of its own: still writable after the commit
            if step == 1:
                stray[:] = -7.0   # step 0's memory: must not reach step 1's rows
                out["shares_memory"] = any(np.shares_memory(kept[k], b[k]) for k in kept)
        if step == 0:   # committed: the kept arrays read zeros and refuse writes
            out["kept_zero"] = all(not kept[k].any() for k in kept)
            out["kept_readonly"] = not any(kept[k].flags.writeable for k in kept)
        if step == 1:   # the stray writes landed in step 0's revoked pages, seen by its arrays only
            out["stray_seen"] = bool((kept["stress"] == -7.0).all())
        b = gs["comp"].buffers(step, PATCH, n, positions="components")
        fill(b, d, True)
        pending = b.commit(wait=False)
        out.setdefault("pending_steps", []).append([pending.step, gs["comp"].steps == list(range(step))])
        pending.wait()
    for ds in dss.values():
        ds.close()
    return out


def write(outdir: str) -> None:
    result = {label: write_all(outdir, label, partition)
              for label, partition in (("one", (1, 1, 1)), ("grid", GRID))}
    result["in_window"] = comm.gather({k: result[k]["in_window"] for k in ("one", "grid")}, root=0)
    if rank == 0:
        tu.emit(result)


def outcome(fn) -> list:
    try:
        fn()
        return ["ok", ""]
    except Exception as e:   # noqa: BLE001 - every rank's outcome is the result
        return [type(e).__name__, str(e)]


def errors(outdir: str) -> None:
    res = {}
    path = os.path.join(outdir, "e.lodex")
    ds = lodex.create(path, comm=comm)
    g = ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, partition=GRID)   # planned at open
    d = data(0)
    n = len(d["id"])

    def raise_inside():
        with g.buffers(0, PATCH, n) as b:
            fill(b, d, False)
            if rank == size - 1:
                raise ZeroDivisionError("the simulation failed")
    res["exception"] = outcome(raise_inside)
    res["step_dir_left"] = os.path.exists(os.path.join(path, "u", "step-000000000"))
    res["steps_after_exception"] = g.steps

    def good(step):
        with g.buffers(step, PATCH, n) as b:
            fill(b, d, False)
    res["after_exception"] = outcome(lambda: good(0))
    res["disagree"] = outcome(lambda: g.buffers(1 + (rank == size - 1), PATCH, n))
    res["bad_count"] = outcome(lambda: g.buffers(1, PATCH, -1 if rank == size - 1 else n))
    res["bad_positions"] = outcome(lambda: g.buffers(1, PATCH, n,
                                                     positions="soa" if rank == size - 1 else "components"))

    # The last rank's first particle in rank 0's patch (outside the domain at one rank): refused
    # at the commit on every rank, as write refuses it.
    stray = np.mean(patch_of(0, GRID), axis=0) if size > 1 else np.array([2.0, 2.0, 2.0])
    bad = {k: v.copy() for k, v in d.items()}
    if rank == size - 1:
        bad["position"][0] = stray

    def outside():
        with g.buffers(1, PATCH, n) as b:
            fill(b, bad, False)
    res["outside"] = outcome(outside)
    res["outside_write"] = outcome(lambda: g.write(1, PATCH, bad))
    res["write_while_open"] = None
    b = g.buffers(1, PATCH, n)
    res["write_while_open"] = outcome(lambda: g.write(1, PATCH, d))
    fill(b, d, False)
    b.commit()
    res["commit_twice"] = outcome(b.commit)
    res["steps"] = g.steps
    ds.close()
    ro = lodex.open(path, comm=comm)
    res["read_only"] = outcome(lambda: ro.particles["u"].buffers(2, PATCH, n))
    ro.close()
    everyone = comm.gather(res, root=0)
    if rank == 0:
        tu.emit({"ranks": everyone})


if __name__ == "__main__":
    {"write": write, "errors": errors}[sys.argv[1]](sys.argv[2])
