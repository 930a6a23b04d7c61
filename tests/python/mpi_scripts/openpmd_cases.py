"""Datasets and series shared by test_openpmd.py and openpmd_mpi.py.

``write_source``: a lodex group "electrons" of mixed dtypes (f8 positions, u8 id, f4 vector,
f8 scalar, i2 field of 2 components) on a non-unit domain, a 2 x 2 x 1 partition grid, steps 0
(3,000 particles, one on the domain's inclusive max corner), 5 (empty) and 10 (2,000).

``write_warpx``: an openPMD series as a PIC code writes it through openPMD-api: species
"electrons" with position (unitSI 1e-6) plus a constant positionOffset, momentum (unitSI of
m_e c), weighting, id, the constant records charge and mass, iterations 100 and 200.
"""

from __future__ import annotations

import numpy as np

import lodex

GROUP = "electrons"
DOMAIN = ((-1.0, 0.0, 2.0), (3.0, 0.5, 2.25))
STEPS = {0: 3000, 5: 0, 10: 2000}
SCHEMA = {"position": ("f8", 3), "id": ("u8", 1), "v": ("f4", 3), "energy": ("f8", 1), "q": ("i2", 2)}

WARPX_ITERATIONS = {100: 1500, 200: 1700}
WARPX_POS_SI = 1e-6
WARPX_OFFSET = (2.0, -3.0, 0.5)          # constant positionOffset, in the position's unit
WARPX_MOM_SI = 9.1093837e-31 * 299792458.0
WARPX_CHARGE = -1.602176634e-19
WARPX_MASS = 9.1093837e-31


def source_particles(step: int) -> dict:
    n = STEPS[step]
    rng = np.random.default_rng(1000 + step)
    lo, hi = (np.asarray(v) for v in DOMAIN)
    pos = lo + rng.random((n, 3)) * (hi - lo)
    if n:
        pos[0] = hi   # the domain's max is inclusive
    return {"position": pos, "id": np.arange(n, dtype=np.uint64) + 1_000_000 * step + 7,
            "v": rng.normal(size=(n, 3)).astype(np.float32), "energy": rng.random(n),
            "q": rng.integers(-500, 500, (n, 2)).astype(np.int16)}


def write_source(path: str) -> None:
    ds = lodex.create(path)
    g = ds.define_particles(GROUP, schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 2, 1))
    for s in STEPS:
        g.write(s, None, source_particles(s))
    ds.close()


GRID_DIMS = (8, 6, 4)        # x, y, z
SERIES_DIMS = (5, 4, 3)


def grid_values(step: int) -> dict:
    rng = np.random.default_rng(50 + step)
    x, y, z = GRID_DIMS
    return {"rho": rng.random((z, y, x)).astype(np.float32), "E": rng.normal(size=(z, y, x, 3))}


def series_values(step: int) -> dict:
    rng = np.random.default_rng(70 + step)
    x, y, z = SERIES_DIMS
    return {"T": rng.random((z, y, x)).astype(np.float32), "PS": rng.random((y, x)).astype(np.float32)}


def write_meshes(path: str) -> None:
    """A grid "fields" (rho f4, E f8 x 3) at steps 0 and 10, a series "atm" (T 3-D, PS 2-D) at
    steps 0, 5 and 10, beside the particle group."""
    ds = lodex.open(path, mode="a")
    grid = ds.define_grid("fields", dims=GRID_DIMS, fields={"rho": "f4", "E": ("f8", 3)})
    for s in (0, 10):
        grid.write(s, ((0, 0, 0), GRID_DIMS), grid_values(s))
    ser = ds.define_series("atm", dims=SERIES_DIMS, variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=1)
    for s in (0, 5, 10):
        ser.write(s, ((0, 0, 0), SERIES_DIMS), series_values(s))
    ds.close()


def warpx_arrays(iteration: int) -> dict:
    n = WARPX_ITERATIONS[iteration]
    rng = np.random.default_rng(iteration)
    return {"position": rng.uniform(-20.0, 20.0, (3, n)),   # micrometres, relative to the offset
            "momentum": rng.normal(size=(3, n)),            # in units of m_e c
            "weighting": rng.uniform(1e5, 2e5, n),
            "id": rng.permutation(n).astype(np.uint64) + 10 * iteration}


def write_warpx(pattern: str) -> None:
    """The series a WarpX-like script writes with openPMD-api (one call per record component)."""
    import openpmd_api as io
    series = io.Series(pattern, io.Access.create)
    series.set_software("warpx-like test script", "1.0")
    for it_index in WARPX_ITERATIONS:
        a = warpx_arrays(it_index)
        n = len(a["id"])
        it = series.iterations[it_index]
        it.set_time(it_index * 1e-15)
        it.set_dt(1e-15)
        e = it.particles["electrons"]
        for rec, si, dims in (("position", WARPX_POS_SI, {io.Unit_Dimension.L: 1}),
                              ("momentum", WARPX_MOM_SI, {io.Unit_Dimension.M: 1, io.Unit_Dimension.L: 1,
                                                          io.Unit_Dimension.T: -1})):
            e[rec].unit_dimension = dims
            for k, c in enumerate("xyz"):
                rc = e[rec][c]
                rc.reset_dataset(io.Dataset(np.dtype("f8"), [n]))
                rc.unit_SI = si
                rc.store_chunk(a[rec][k], [0], [n])
        e["positionOffset"].unit_dimension = {io.Unit_Dimension.L: 1}
        for k, c in enumerate("xyz"):
            rc = e["positionOffset"][c]
            rc.reset_dataset(io.Dataset(np.dtype("f8"), [n]))
            rc.make_constant(WARPX_OFFSET[k])
            rc.unit_SI = WARPX_POS_SI
        for rec, arr in (("weighting", a["weighting"]), ("id", a["id"])):
            rc = e[rec][io.Record_Component.SCALAR]
            rc.reset_dataset(io.Dataset(arr.dtype, [n]))
            rc.store_chunk(arr, [0], [n])
        for rec, value, dims in (("charge", WARPX_CHARGE, {io.Unit_Dimension.I: 1, io.Unit_Dimension.T: 1}),
                                 ("mass", WARPX_MASS, {io.Unit_Dimension.M: 1})):
            e[rec].unit_dimension = dims
            rc = e[rec][io.Record_Component.SCALAR]
            rc.reset_dataset(io.Dataset(np.dtype("f8"), [n]))
            rc.make_constant(value)
        series.flush()
        it.close()
    series.close()


def warpx_si(iteration: int) -> dict:
    """The WarpX-like species in SI, as lodex fields (rows in the series' order)."""
    a = warpx_arrays(iteration)
    n = len(a["id"])
    # what import computes: position * unitSI + positionOffset * unitSI, in float64
    pos = np.stack([a["position"][k] * WARPX_POS_SI + WARPX_OFFSET[k] * WARPX_POS_SI for k in range(3)], axis=1)
    return {"position": pos, "momentum": a["momentum"].T * WARPX_MOM_SI, "weighting": a["weighting"],
            "id": a["id"], "charge": np.full(n, WARPX_CHARGE), "mass": np.full(n, WARPX_MASS)}


def by_id(data) -> dict:
    """The columns of ``data`` in ascending id order."""
    order = np.argsort(np.asarray(data["id"]), kind="stable")
    return {k: np.asarray(v)[order] for k, v in data.items()}


def same(a: dict, b: dict, fields=None) -> str | None:
    """None when ``a`` and ``b`` hold the same particles (matched by id; values and dtypes exact),
    else what differs."""
    a, b = by_id(a), by_id(b)
    for k in fields or a:
        if k not in b:
            return f"{k} missing"
        if a[k].dtype != b[k].dtype:
            return f"{k}: dtype {a[k].dtype} != {b[k].dtype}"
        if not np.array_equal(a[k], b[k]):
            return f"{k} differs"
    return None
