"""Fault injection (docs/reliability.md): every file operation of a step's writes (particles with
a bitmap index, a grid, a series window) and of the reads that follow failing in turn, through
lodex's storage hook (src/storage/fault.hpp).

Each run starts from the same dataset with step 0 of everything committed, arms one fault (the
n-th open, read, write, sync, truncate, rename or mkdir; EIO or ENOSPC; a short read or write;
EINTR) and runs the step-1 writes. Then:

- a failure is a lodex.IOFailure naming a file (a short transfer or EINTR is no failure at all);
- step 0 reads exactly; step 1 is either not there or exact (never half); no temporary is left;
- the dataset takes the step again, and it reads exactly.

Reads: every file operation of a read of each kind failing in turn gives an IOFailure, never other
data, and the same read right after succeeds.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import lodex
from conftest import run_mpi
from lodex import _lodex

SCHEMA = {"position": ("f8", 3), "energy": "f4"}
GRID = (9, 7, 5)
SERIES = (6, 5, 4)
OPS = ["open", "read", "write", "sync", "truncate", "rename", "mkdir"]
MAX_PER_OP = 40   # operations of one kind tried per error: all of them, or this many spread evenly


def particles(step: int) -> dict:
    rng = np.random.default_rng([11, step])
    return {"position": rng.random((2000, 3)), "energy": rng.random(2000).astype(np.float32)}


def grid(step: int) -> np.ndarray:
    return (np.arange(np.prod(GRID), dtype=np.float32).reshape(GRID[::-1]) + 1000 * step)


def series(step: int) -> np.ndarray:
    return (np.arange(np.prod(SERIES), dtype=np.float32).reshape(SERIES[::-1]) * (step + 1))


def write_step(ds, step: int) -> None:
    """Step `step` of every kind: particles (then their index), a grid, and two series steps
    (a window of d_tar=2 flushed)."""
    p = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1))
    p.write(step=step, data=particles(step))
    p.build_index(fields=["energy"], steps=[step])
    g = ds.define_grid("g", dims=GRID, dtype="f4", bits_per_block=4, blocks_per_file=2)
    g.write(step, ((0, 0, 0), GRID), grid(step))
    s = ds.define_series("s", dims=SERIES, variables={"T": ("f4", 3)}, d_tar=2, d_sar=0)
    for t in (2 * step, 2 * step + 1):
        s.write(t, ((0, 0, 0), SERIES), {"T": series(t)})


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("fault") / "base.lodex")
    with lodex.create(path) as ds:
        write_step(ds, 0)
    return path


def append_step1(path: str) -> None:
    ds = lodex.open(path, "a", fsync=True)   # every file and directory synced: the syncs fail in turn too
    try:
        write_step(ds, 1)
    finally:
        try:
            ds.close()
        except lodex.Error:
            pass


def check_dataset(path: str) -> set[int]:
    """Step 0 exact everywhere; step 1 of each kind absent or exact. Returns the kinds' steps."""
    ds = lodex.open(path)
    p, g, s = ds.particles["p"], ds.grids["g"], ds.series["s"]
    for step in p.steps:
        got = p.read(step)
        order = np.lexsort(got["position"].T)
        want = particles(step)
        worder = np.lexsort(want["position"].T)
        assert np.array_equal(got["position"][order], want["position"][worder]), step
        assert np.array_equal(got["energy"][order], want["energy"][worder]), step
        assert p.query(step, "energy < 0.25").count == int(np.count_nonzero(want["energy"] < 0.25))
    for step in g.steps:
        assert np.array_equal(g.read(step), grid(step)), step
    for t in s.steps:
        assert np.array_equal(s.read(t, variable="T"), series(t)), t
    assert 0 in p.steps and 0 in g.steps and {0, 1} <= set(s.steps)
    leftovers = [f for d, _, fs in os.walk(path) for f in fs if ".tmp-" in f]
    assert not leftovers, leftovers
    return set(p.steps) | set(g.steps)


def spread(count: int) -> list[int]:
    if count <= MAX_PER_OP:
        return list(range(1, count + 1))
    return sorted({int(round(x)) for x in np.linspace(1, count, MAX_PER_OP)})


@pytest.fixture(scope="module")
def write_counts(base, tmp_path_factory):
    work = str(tmp_path_factory.mktemp("count") / "d.lodex")
    shutil.copytree(base, work)
    _lodex._inject_fault(None)
    append_step1(work)
    counts = dict(_lodex._fault_counts())
    check_dataset(work)
    return counts


@pytest.mark.parametrize("op", OPS)
def test_every_write_operation_failing_in_turn(base, write_counts, tmp_path, op):
    errors = {"write": ["ENOSPC", "EIO", "short", "EINTR"], "read": ["EIO", "short"]}.get(op, ["EIO"])
    assert write_counts[op] > 0, write_counts
    tried = failed = 0
    for err in errors:
        for n in spread(write_counts[op]):
            work = str(tmp_path / f"{err}-{n}")
            shutil.copytree(base, work)
            _lodex._inject_fault(f"{op}:{n}:{err}")
            try:
                append_step1(work)
                outcome = None
            except lodex.Error as e:
                outcome = e
            finally:
                _lodex._inject_fault(None)
            if err in ("short", "EINTR"):
                assert outcome is None, (op, n, err, outcome)
            elif outcome is not None:
                assert isinstance(outcome, lodex.IOFailure), (op, n, err, repr(outcome))
                assert "'" in str(outcome), str(outcome)   # names the file
                failed += 1
            steps = check_dataset(work)
            if outcome is None and err in ("short", "EINTR"):
                assert steps == {0, 1}
            # The dataset takes the step again (a fresh copy of the committed state).
            if outcome is not None:
                with lodex.open(work, "a") as ds:
                    p, g = ds.particles["p"], ds.grids["g"]
                    if 1 not in p.steps:
                        p.write(step=1, data=particles(1))
                    if 1 not in g.steps:
                        g.write(1, ((0, 0, 0), GRID), grid(1))
                assert check_dataset(work) == {0, 1}
            shutil.rmtree(work)
            tried += 1
    assert tried > 0
    if op in ("write", "open", "rename", "mkdir"):
        assert failed > 0, (op, write_counts)


@pytest.fixture(scope="module")
def written(base, tmp_path_factory):
    work = str(tmp_path_factory.mktemp("reads") / "d.lodex")
    shutil.copytree(base, work)
    append_step1(work)
    return work


READS = {
    "particles": lambda ds: ds.particles["p"].read(1, box=((0, 0, 0), (0.7, 0.7, 0.7))),
    "query": lambda ds: ds.particles["p"].query(1, "energy < 0.3", fields=["energy"]),
    "grid": lambda ds: ds.grids["g"].read(1, resolution=5),
    "series": lambda ds: ds.series["s"].read([1, 2, 3], variable="T"),
}


def same(a, b) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a.count == b.count and same(a.rows, b.rows) and same(a.data, b.data)


@pytest.mark.parametrize("kind", list(READS))
def test_every_read_operation_failing_in_turn(written, kind):
    ds = lodex.open(written)
    want = READS[kind](ds)
    _lodex._inject_fault(None)
    READS[kind](lodex.open(written))
    counts = dict(_lodex._fault_counts())
    tried = failed = 0
    for op in ("open", "read"):
        for err in ("EIO", "short") if op == "read" else ("EIO",):
            for n in spread(counts[op]):
                _lodex._inject_fault(f"{op}:{n}:{err}")
                try:
                    got = READS[kind](lodex.open(written))
                    outcome = None
                except lodex.Error as e:
                    outcome = e
                finally:
                    _lodex._inject_fault(None)
                if err == "short":
                    assert outcome is None and same(got, want), (kind, op, n)
                elif outcome is None:   # a failed bitmap index is left for a scan: the same answer
                    assert same(got, want), (kind, op, n)
                else:
                    assert isinstance(outcome, lodex.IOFailure), (kind, op, n, repr(outcome))
                    failed += 1
                assert same(READS[kind](lodex.open(written)), want)
                tried += 1
    assert tried >= 3 and failed > 0


def test_fault_specs_are_checked():
    for bad in ("write", "write:0:EIO", "flush:1:EIO", "write:1:EWHAT", "sync:1:short"):
        with pytest.raises(lodex.InvalidArgumentError):
            _lodex._inject_fault(bad)
    _lodex._inject_fault(None)


# --------------------------------------------------------------------------------- 3 ranks

def expected_mpi(path: str, step: int, size: int = 3):
    """What fault_mpi.py wrote at `step`: particles (sorted) and the grid."""
    pos, energy = [], []
    for r in range(size):
        rng = np.random.default_rng([13, step, r])
        p = rng.random((700, 3))
        p[:, 2] = (r + p[:, 2]) / size
        pos.append(p)
        energy.append(rng.random(700).astype(np.float32))
    g = np.concatenate([np.full((3, 6, 8), 100 * step + r, dtype=np.float32) for r in range(size)])
    return np.concatenate(pos), np.concatenate(energy), g


@pytest.fixture(scope="module")
def mpi_base(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("faultmpi") / "base.lodex")
    run_mpi(3, "fault_mpi.py", "create", path, timeout=120)
    return path


@pytest.mark.parametrize("fault", ["write:1:ENOSPC:1", "write:4:EIO:2", "write:9:EIO:0", "open:3:EIO:1",
                                   "open:12:EACCES:0", "sync:2:EIO:2", "sync:5:EIO:0", "rename:1:EIO:0",
                                   "mkdir:2:EROFS:1", "write:3:short:1"])
def test_a_fault_on_one_of_three_ranks(mpi_base, tmp_path, fault):
    """One rank's file operation fails: every rank raises IOFailure (the failing rank's error),
    step 0 is intact, step 1 is absent or exact, and the step can be written again."""
    work = str(tmp_path / "d.lodex")
    shutil.copytree(mpi_base, work)
    res = run_mpi(3, "fault_mpi.py", "append", work, timeout=120, env={"LODEX_FAULT": fault})
    outcomes = res["outcomes"]
    if fault.split(":")[2] == "short":
        assert outcomes == [None, None, None], outcomes
    else:
        assert all(o is not None and o[0] == "IOFailure" for o in outcomes), outcomes
        assert len({o[1] for o in outcomes}) == 1, outcomes   # the same error everywhere
    ds = lodex.open(work)
    p, g = ds.particles["p"], ds.grids["g"]
    assert 0 in p.steps and 0 in g.steps
    for step in set(p.steps) | set(g.steps):
        pos, energy, grid_want = expected_mpi(work, step)
        if step in p.steps:
            got = p.read(step)
            o, w = np.lexsort(got["position"].T), np.lexsort(pos.T)
            assert np.array_equal(got["position"][o], pos[w]) and np.array_equal(got["energy"][o], energy[w])
        if step in g.steps:
            assert np.array_equal(g.read(step), grid_want)
    assert not [f for d, _, fs in os.walk(work) for f in fs if ".tmp-" in f]
    if outcomes[0] is not None:
        res = run_mpi(3, "fault_mpi.py", "append", work, timeout=120)
        assert res["outcomes"] == [None, None, None] or all(
            o and o[0] == "AlreadyExistsError" for o in res["outcomes"]), res
