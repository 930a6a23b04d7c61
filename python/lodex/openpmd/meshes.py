"""openPMD meshes -> lodex grids (docs/openpmd.md, "Meshes on import"), through openPMD-api."""

from __future__ import annotations

import numpy as np

from ..errors import Error, FormatError, NotFoundError
from . import _mapping as m


class MeshPlan:
    """One mesh over the imported iterations: the grid it becomes (dims x, y[, z]), its dtype,
    its components (openPMD names, in field order) and the iterations that hold it."""

    def __init__(self, name: str, dtype: str, comps: list[str], shape: tuple[int, ...]):
        self.name = name
        self.dtype = dtype
        self.comps = comps
        self.shape = shape            # C order: (z, y, x) or (y, x)
        self.iterations: list[int] = []

    @property
    def dims(self) -> tuple[int, ...]:
        return tuple(reversed(self.shape))


def inspect(io, series, p: str, iterations: list[int], names) -> list[MeshPlan]:
    """The meshes to import (``names``: True for every mesh, or a list), checked: 2-D or 3-D, C
    order, one shape and dtype over components and iterations, names lodex accepts."""
    plans: dict[str, MeshPlan] = {}
    try:
        for it_index in iterations:
            it = series.iterations[it_index]
            for mname, mesh in it.meshes.items():
                if names is not True and mname not in names:
                    continue
                plan = _one(io, mesh, f"{p}: iteration {it_index}, mesh {mname!r}", mname)
                seen = plans.setdefault(mname, plan)
                if (seen.dtype, seen.comps, seen.shape) != (plan.dtype, plan.comps, plan.shape):
                    raise FormatError(f"{p}: mesh {mname!r} is {plan.dtype} {plan.shape} with components "
                                      f"{plan.comps} in iteration {it_index}, {seen.dtype} {seen.shape} with "
                                      f"{seen.comps} in iteration {seen.iterations[0]}")
                seen.iterations.append(it_index)
    except Error:
        raise
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"{p}: cannot read its meshes") from e
    if names is not True:
        missing = [n for n in names if n not in plans]
        if missing:
            raise NotFoundError(f"{p} has no mesh {missing[0]!r} in the imported iterations")
    return list(plans.values())


def _one(io, mesh, where: str, name: str) -> MeshPlan:
    if not m.FIELD_NAME.match(name):
        raise FormatError(f"{where}: the name cannot be a lodex grid name (letters, digits and '_')")
    order = getattr(mesh, "data_order", "C")
    if order != "C":
        raise FormatError(f"{where}: dataOrder {order!r}; lodex imports C-ordered meshes")
    comps = [io.Mesh_Record_Component.SCALAR] if io.Mesh_Record_Component.SCALAR in mesh \
        else m.order_components(list(mesh))
    dtypes, shapes = set(), set()
    for c in comps:
        rc = mesh[c]
        dt = m.dtype_name(rc.dtype)
        if dt is None:
            raise FormatError(f"{where}: dtype {rc.dtype}, which lodex cannot store")
        dtypes.add(dt if float(rc.unit_SI) == 1.0 else "f8")
        shapes.add(tuple(int(v) for v in rc.shape))
    if len(dtypes) > 1 or len(shapes) > 1:
        raise FormatError(f"{where}: its components differ in dtype or shape ({sorted(dtypes)}, {sorted(shapes)})")
    shape = shapes.pop()
    if len(shape) not in (2, 3):
        raise FormatError(f"{where}: {len(shape)}-D; lodex grids are 2-D or 3-D")
    return MeshPlan(name, dtypes.pop(), comps, shape)


def read_slab(series, it_index: int, plan: MeshPlan, rank: int, size: int):
    """This rank's slab of the slowest axis (box in lodex's x, y[, z] order, and the array)."""
    lo, hi = m.share(plan.shape[0], rank, size)
    mesh = series.iterations[it_index].meshes[plan.name]
    extent = [hi - lo] + list(plan.shape[1:])
    k = len(plan.comps)
    a = np.empty(tuple(extent) + ((k,) if k > 1 else ()), dtype=np.dtype(plan.dtype))
    for c, cname in enumerate(plan.comps):
        rc = mesh[cname]
        si = float(rc.unit_SI)
        if hi > lo:
            if rc.constant:
                v = rc.load_chunk([0] * len(plan.shape), [1] * len(plan.shape))
            else:
                v = rc.load_chunk([lo] + [0] * (len(plan.shape) - 1), extent)
            series.flush()
            v = np.asarray(v, dtype=np.float64) * si if si != 1.0 else np.asarray(v)
            if k == 1:
                a[...] = v
            else:
                a[..., c] = v
    dims = plan.dims
    box_lo = [0] * len(dims)
    box_hi = list(dims)
    box_lo[-1], box_hi[-1] = lo, hi
    return (tuple(box_lo), tuple(box_hi)), a
