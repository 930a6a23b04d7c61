"""Fields given one array per component (test_component_fields.py).

usage: components_mpi.py OUTDIR LAYOUT    LAYOUT "aligned" (each rank's patch inside one partition)
                                          or "crossing" (partition_grid (2,2,2): a rank's rows go to
                                          several partitions). Every rank writes steps 0..2 of the
                                          same particles four times: whole.lodex (row-major arrays),
                                          parts.lodex (position as (x, y, z), stress as stress/0..8),
                                          and the per-component write asynchronous, async_copy.lodex
                                          (arrays zeroed right after the call) and async_nocopy.lodex

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
DOMAIN = ((0, 0, 0), (1, 1, 1))


def whole(step: int) -> dict:
    return {k: np.array(v) for k, v in uintah(rank + 100 * step, 2000 + 53 * rank + 7 * step,
                                               patch_of(rank, GRID), seed=9).items()}


def per_component(step: int) -> dict:
    d = whole(step)
    out = {k: v for k, v in d.items() if k not in ("position", "stress")}
    out["position"] = tuple(np.ascontiguousarray(d["position"][:, a]) for a in range(3))
    out.update({f"stress/{c}": np.ascontiguousarray(d["stress"][:, c]) for c in range(9)})
    return out


def group(ds, layout: str):
    if layout == "aligned":
        return ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, partition=GRID)
    return ds.define_particles("u", schema=UINTAH_SCHEMA, domain=DOMAIN, partition_grid=(2, 2, 2))


def main(outdir: str, layout: str) -> None:
    names = ["whole", "parts", "async_copy", "async_nocopy"]
    sets = {n: lodex.create(os.path.join(outdir, f"{n}.lodex"), comm=comm) for n in names}
    groups = {n: group(ds, layout) for n, ds in sets.items()}
    patch = patch_of(rank, GRID)
    kept = []
    for step in range(3):
        groups["whole"].write(step, patch, whole(step))
        groups["parts"].write(step, patch, per_component(step))
        d = per_component(step)
        groups["async_copy"].write(step, patch, d, wait=False, copy=True)
        for v in d.values():
            for a in (v if isinstance(v, tuple) else (v,)):
                a[...] = 0   # the caller reuses its arrays at once
        kept.append(per_component(step))   # unchanged until the step is done
        groups["async_nocopy"].write(step, patch, kept[-1], wait=False, copy=False)
    paths = {}
    for n, ds in sets.items():
        ds.close()
        paths[n] = os.path.join(outdir, f"{n}.lodex")
    if rank == 0:
        tu.emit({"paths": paths, "profile": dict(groups["parts"].profile)})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
