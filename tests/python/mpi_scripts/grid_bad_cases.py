"""Bad grid definitions and writes, run serially (comm=None) by test_grid_write.py and on several
ranks by grid_write_mpi.py. With ranks, the bad input is on one rank (the culprit) only, unless
the case is wrong everywhere by nature (a step written twice): every rank must raise.

Each case makes its own dataset with two grids written at step 0 ("g": one f4 field; "m": an f4
and an i2 x 2 field), then does the bad thing, then checks that step 0 still reads correctly
and that a good write (or definition) afterwards works.
"""

from __future__ import annotations

import os

import numpy as np

DIMS = (10, 9, 7)   # 16 x 16 x 8 -> 11 index bits
GRID_KW = dict(bits_per_block=4, blocks_per_file=16)   # 128 blocks in 8 files


def full(field: str, step: int) -> np.ndarray:
    rng = np.random.default_rng([55, len(field), ord(field[0]), step])
    shape = DIMS[::-1]
    if field == "b":
        return rng.integers(-30000, 30000, size=shape + (2,)).astype(np.int16)
    return rng.standard_normal(shape).astype(np.float32)


def slab(rank: int, n: int):
    Z = DIMS[2]
    return (0, 0, Z * rank // n), (DIMS[0], DIMS[1], Z * (rank + 1) // n)


def cut(a: np.ndarray, box) -> np.ndarray:
    (x0, y0, z0), (x1, y1, z1) = box
    return np.ascontiguousarray(a[z0:z1, y0:y1, x0:x1])


def good(grid: str, step: int, box):
    if grid == "g":
        return cut(full("g", step), box)
    return {"a": cut(full("a", step), box), "b": cut(full("b", step), box)}


# case -> (stage, expected exception class name, a substring every rank's message must hold)
CASES = {
    "outside_lo": ("write", "InvalidArgumentError", "outside"),
    "outside_hi": ("write", "InvalidArgumentError", "outside"),
    "inverted": ("write", "InvalidArgumentError", "box"),
    "overlap": ("write", "InvalidArgumentError", "overlaps"),
    "gap": ("write", "InvalidArgumentError", "cover"),
    "shape": ("write", "InvalidArgumentError", "shape"),
    "dtype": ("write", "InvalidArgumentError", "float64"),
    "components": ("write", "InvalidArgumentError", "'b'"),
    "missing_field": ("write", "InvalidArgumentError", "'b'"),
    "unknown_field": ("write", "InvalidArgumentError", "'zz'"),
    "bare_array_multi": ("write", "InvalidArgumentError", "dict"),
    "step_twice": ("write", "AlreadyExistsError", "step 0"),
    "step_back": ("write", "InvalidArgumentError", "step"),
    "step_one_then_zero": ("write", "InvalidArgumentError", "step 0"),
    "step_negative": ("write", "InvalidArgumentError", "step"),
    "steps_differ": ("write", "InvalidArgumentError", "step"),
    "bitmask_digit": ("define", "InvalidArgumentError", "V0123"),
    "bitmask_digit_long": ("define", "InvalidArgumentError", "bitmask"),
    "bitmask_short": ("define", "InvalidArgumentError", "too short"),
    "bitmask_one_rank": ("define", "InvalidArgumentError", "differently"),
    "bits_per_block_big": ("define", "InvalidArgumentError", "bits_per_block"),
    "blocks_per_file_zero": ("define", "InvalidArgumentError", "blocks_per_file"),
    "aggregation": ("define", "InvalidArgumentError", "aggregation"),
    "partitions": ("define", "InvalidArgumentError", "power of two"),
    "compression": ("define", "InvalidArgumentError", "compression"),
    "dims_zero": ("define", "InvalidArgumentError", "dims"),
    "read_missing_step": ("read", "NotFoundError", "step 5"),
}
MULTI_ONLY = {"overlap", "steps_differ", "bitmask_one_rank"}   # need two ranks to go wrong


def _bad_write(case: str, ds, rank: int, n: int, culprit: bool):
    """The bad write of ``case`` (``culprit``: this rank holds the bad input)."""
    box = slab(rank, n)
    (x0, y0, z0), (x1, y1, z1) = box
    g, m = ds.grids["g"], ds.grids["m"]
    if case == "step_twice":
        return g.write(0, box=box, data=good("g", 0, box))
    if case == "step_back":
        g.write(2, box=box, data=good("g", 2, box))
        return g.write(1, box=box, data=good("g", 1, box))
    if case == "step_one_then_zero":   # a new grid: step 1, then step 0
        h = ds.define_grid("h", dims=DIMS, dtype="f4", **GRID_KW)
        h.write(1, box=box, data=good("g", 1, box))
        return h.write(0, box=box, data=good("g", 0, box))
    if case == "step_negative":
        return g.write(-1, box=box, data=good("g", 1, box))
    if not culprit:
        return m.write(1, box=box, data=good("m", 1, box)) if case in (
            "components", "missing_field", "unknown_field", "bare_array_multi") else \
            g.write(1, box=box, data=good("g", 1, box))
    if case == "outside_lo":
        b = ((-1, y0, z0), (x1, y1, z1))
        return g.write(1, box=b, data=np.zeros((z1 - z0, y1 - y0, x1 + 1), np.float32))
    if case == "outside_hi":
        b = ((x0, y0, z0), (x1, y1 + 2, z1))
        return g.write(1, box=b, data=np.zeros((z1 - z0, y1 + 2 - y0, x1 - x0), np.float32))
    if case == "inverted":
        b = ((x1, y0, z0), (x0, y1, z1))
        return g.write(1, box=b, data=np.zeros((z1 - z0, y1 - y0, 0), np.float32))
    if case == "overlap":    # one plane into the previous rank's slab (rank 1: into rank 0's)
        b = ((x0, y0, z0 - 1), (x1, y1, z1))
        return g.write(1, box=b, data=cut(full("g", 1), b))
    if case == "gap":        # one plane short
        b = ((x0, y0, z0), (x1, y1, z1 - 1))
        return g.write(1, box=b, data=cut(full("g", 1), b))
    if case == "shape":
        return g.write(1, box=box, data=good("g", 1, box)[:, :, 1:])
    if case == "dtype":
        return g.write(1, box=box, data=good("g", 1, box).astype(np.float64))
    if case == "components":
        d = good("m", 1, box)
        d["b"] = np.concatenate([d["b"], d["b"][..., :1]], axis=-1)   # 3 components, not 2
        return m.write(1, box=box, data=d)
    if case == "missing_field":
        d = good("m", 1, box)
        del d["b"]
        return m.write(1, box=box, data=d)
    if case == "unknown_field":
        d = good("m", 1, box)
        d["zz"] = d["a"]
        return m.write(1, box=box, data=d)
    if case == "bare_array_multi":
        return m.write(1, box=box, data=good("m", 1, box)["a"])
    if case == "steps_differ":
        return g.write(2, box=box, data=good("g", 2, box))
    raise KeyError(case)


def _bad_define(case: str, ds, culprit: bool):
    kw = dict(dims=DIMS, dtype="f4", **GRID_KW)
    if culprit:
        kw.update({
            "bitmask_digit": dict(bitmask="V0123"),
            "bitmask_digit_long": dict(bitmask="V01201201203"),
            "bitmask_short": dict(bitmask="V012012"),
            "bitmask_one_rank": dict(bitmask="V22210101010"),
            "bits_per_block_big": dict(bits_per_block=12),
            "blocks_per_file_zero": dict(blocks_per_file=0),
            "aggregation": dict(aggregation="random"),
            "partitions": dict(partitions=3),
            "compression": dict(compression="lz4"),
            "dims_zero": dict(dims=(10, 0, 7)),
        }[case])
    return ds.define_grid("new", **kw)


def run_case(case: str, workdir: str, comm, rank: int, n: int) -> dict:
    """Runs one case as ``rank`` of ``n``; returns what this rank saw."""
    import lodex
    stage = CASES[case][0]
    culprit = rank == (1 if n > 1 else 0)
    path = os.path.join(workdir, f"bad-{case}.lodex")
    ds = lodex.create(path, comm=comm)
    box = slab(rank, n)
    g = ds.define_grid("g", dims=DIMS, dtype="f4", **GRID_KW)
    m = ds.define_grid("m", dims=DIMS, fields={"a": "f4", "b": ("i2", 2)}, **GRID_KW)
    g.write(0, box=box, data=good("g", 0, box))
    m.write(0, box=box, data=good("m", 0, box))
    out = {"error": None}
    try:
        if stage == "write":
            _bad_write(case, ds, rank, n, culprit)
        elif stage == "define":
            _bad_define(case, ds, culprit)
        else:
            g.read(5)
    except lodex.Error as e:
        out["error"] = [type(e).__name__, str(e)]
    except Exception as e:   # noqa: BLE001 - a non-lodex exception is a finding too
        out["error"] = ["!" + type(e).__name__, str(e)]
    # Afterwards: step 0 of both grids still reads exactly, and a good write works.
    out["steps_g"], out["steps_m"] = g.steps, m.steps
    out["step0_ok"] = bool(np.array_equal(g.read(0), full("g", 0)) and
                           np.array_equal(m.read(0, field="a"), full("a", 0)) and
                           np.array_equal(m.read(0, field="b"), full("b", 0)))
    nxt = max(g.steps) + 1
    try:
        if stage == "define":
            h = ds.define_grid("new", dims=DIMS, dtype="f4", **GRID_KW)
            h.write(0, box=box, data=good("g", 0, box))
            out["retry_ok"] = bool(np.array_equal(h.read(0), full("g", 0)))
        else:
            g.write(nxt, box=box, data=good("g", nxt, box))
            m.write(nxt, box=box, data=good("m", nxt, box))
            out["retry_ok"] = bool(np.array_equal(g.read(nxt), full("g", nxt)) and
                                   np.array_equal(m.read(nxt, field="b"), full("b", nxt)))
    except Exception as e:   # noqa: BLE001
        out["retry_ok"] = False
        out["retry_error"] = [type(e).__name__, str(e)]
    ds.close()
    # A reader of the closed dataset sees the committed steps only, all exact.
    r = lodex.open(path)
    out["reopened_steps"] = r.grids["g"].steps
    out["reopened_ok"] = all(np.array_equal(r.grids["g"].read(s), full("g", s)) for s in r.grids["g"].steps)
    return out


def read_errors(workdir: str, comm, rank: int) -> dict:
    """Collective reads (comm=...) that fail on some ranks only: a block only the upper slabs
    need is damaged (rank 0 writes the grid serially and truncates its last data file), and one
    rank asks for a resolution the grid does not have. Returns what this rank saw."""
    import lodex
    path = os.path.join(workdir, "readerr.lodex")
    a = np.arange(16 ** 3, dtype=np.float32).reshape(16, 16, 16)
    if rank == 0:
        ds = lodex.create(path)
        g = ds.define_grid("raw", dims=(16, 16, 16), dtype="f4", bits_per_block=6, blocks_per_file=1)
        g.write(0, box=((0, 0, 0), (16, 16, 16)), data=a)
        g.write(1, box=((0, 0, 0), (16, 16, 16)), data=a + 1)
        ds.close()
        d = os.path.join(path, "raw", "time_000001")
        os.truncate(os.path.join(d, sorted(os.listdir(d))[-1]), 100)
    comm.Barrier()
    g = lodex.open(path).grids["raw"]
    out = {}
    for what, kw in (("damaged", dict(step=1)), ("bad_resolution", dict(step=0, resolution=99 if rank == 1 else None))):
        try:
            g.read(comm=comm, **kw)
            out[what] = None
        except lodex.Error as e:
            out[what] = [type(e).__name__, str(e)]
        except Exception as e:   # noqa: BLE001
            out[what] = ["!" + type(e).__name__, str(e)]
    part = g.read(0, comm=comm)
    lo, hi = g.last_read_box
    out["after_ok"] = bool(np.array_equal(part, a[lo[2]:hi[2], lo[1]:hi[1], lo[0]:hi[0]]))
    return out
