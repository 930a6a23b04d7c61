"""Adaptive aggregation (partition="adaptive"): a k-d tree cuts the domain into
m = clamp(ceil(N / particles_per_file), 1, ranks) tiles balanced on the particle counts, one file
per tile holding particles, each file's partition box its tile cut down to its particles.

Round trips of every generator of lodex.workloads (uniform, occupancy 50/25/12.5 %, clustered,
sheet) written by 1, 3, 4 and 8 ranks (mpi_scripts/write_adaptive.py: one mpiexec per writer
count, one dataset per generator and target), checked against the global draw: values, file
count, disjoint partition boxes holding their files' particles, balance; box, level and fraction
reads against numpy brute force; a collective read by a different number of ranks; bad input
(empty steps, one point, NaN/inf on one rank, bad arguments); `lodex info --json`.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import lodex
import lodex.planning
import lodex_testutil as tu
import read_testutil as rt
import write_adaptive as wa
from conftest import LaunchCache, run_mpi
from lodex.workloads import GENERATORS, UNEVEN_SCHEMA, uneven

WRITERS = [1, 3, 4, 8]
READERS = 3            # the collective read of the datasets written by 4 ranks
TIMEOUT = {1: 120, 3: 120, 4: 150, 8: 240}
UNIT = wa.UNIT
ROW_BYTES = sum(np.dtype(d if isinstance(d, str) else d[0]).itemsize * (1 if isinstance(d, str) else d[1])
                for d in UNEVEN_SCHEMA.values())
MAX_IMBALANCE = 1.25

cached = LaunchCache()


# ---------------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("adaptive")


@pytest.fixture(scope="module")
def written(workdir):
    """written(size) -> {config name: dataset record} of the write worker on ``size`` ranks."""
    def get(size):
        def launch():
            out = workdir / f"w{size}"
            out.mkdir(exist_ok=True)
            res = run_mpi(size, "write_adaptive.py", "write", str(out), timeout=TIMEOUT[size])
            assert res["size"] == size
            return res["datasets"]
        return cached(("write", size), launch)
    return get


def draw(kind: str, n: int, seed: int) -> np.ndarray:
    """Positions of the global draw (row i is the particle with id i)."""
    return cached(("draw", kind, n, seed), lambda: uneven(kind, n, seed=seed))


def energy_of(pos: np.ndarray) -> np.ndarray:
    return wa.energy_of(pos)


def group(path: str):
    return lodex.open(path).particles[wa.GROUP]


def dataset(written, size: int, name: str) -> dict:
    rec = written(size)[name]
    errors = [e for e in rec["errors"] if e]
    assert not errors, f"the write of {name} on {size} ranks failed: {errors}"
    return rec


def check_values(got: dict, pos: np.ndarray, what: str = "") -> None:
    """Every row of a read equals the particle of the draw its id names (positions bit for bit,
    energy recomputed as the workload defines it)."""
    assert set(got) == set(UNEVEN_SCHEMA), (what, sorted(got))
    ids = got["id"]
    assert got["id"].dtype == np.uint64 and got["position"].dtype == np.float64
    assert got["energy"].dtype == np.float32
    assert got["position"].shape == (len(ids), 3) and got["energy"].shape == (len(ids),)
    assert len(np.unique(ids)) == len(ids), f"{what}: a particle was returned twice"
    assert len(ids) == 0 or int(ids.max()) < len(pos), f"{what}: ids that were never written"
    idx = ids.astype(np.int64)
    want = pos[idx]
    bad = np.nonzero(~np.all(tu.bits(got["position"]) == tu.bits(want), axis=1))[0]
    assert len(bad) == 0, f"{what}: {len(bad)} positions differ, first id {ids[bad[0]]}"
    bad = np.nonzero(tu.bits(got["energy"]) != tu.bits(energy_of(want)))[0]
    assert len(bad) == 0, f"{what}: {len(bad)} energies differ, first id {ids[bad[0]]}"


def occupied_cells(rec: dict, size: int) -> int:
    """Non-empty cells of the histograms the ranks of a write exchange (h^3 cells over each
    rank's extent: its patch, or the box of its particles), counted here with numpy."""
    h = lodex.planning.histogram_side(size)
    cells = 0
    for r in range(size):
        data, patch = wa.rank_data(rec["kind"], rec["n"], rec["seed"], r, size)
        mine = data["position"]
        if len(mine) == 0:
            continue
        lo, hi = (np.asarray(patch[0]), np.asarray(patch[1])) if rec["patch"] else (mine.min(0), mine.max(0))
        if np.any(hi <= lo):
            cells += 1   # an extent too thin to cut into cells is one weighted box
            continue
        f = (mine - lo) / (hi - lo) * h
        ijk = np.where(f <= 0, 0, np.where(f >= h - 1, h - 1, np.floor(f))).astype(np.int64)
        cells += len(np.unique(ijk[:, 0] + h * (ijk[:, 1] + h * ijk[:, 2])))
    return cells


def planned_files(rec: dict, size: int) -> int:
    """Partitions of an adaptive write: ceil(N / T), capped at the larger of the rank count and
    the non-empty histogram cells."""
    return min(math.ceil(rec["n"] / rec["T"]), max(size, occupied_cells(rec, size)))


def half_open_inside(pos: np.ndarray, box_min, box_max) -> np.ndarray:
    return rt.inside(pos, (box_min, box_max))


def boxes_intersect(a: dict, b: dict) -> bool:
    """Whether two half-open boxes share a point."""
    return all(max(a["min"][k], b["min"][k]) < min(a["max"][k], b["max"][k]) for k in range(3))


def file_contents(path: str, step: int = 0) -> list[dict]:
    """Every data file of a step decoded with the independent parser, next to its record."""
    def parse():
        sdir = tu.step_dir(path, wa.GROUP, step)
        out = []
        for f in group(path).files(step):
            h = tu.parse_particle_file(os.path.join(sdir, f["file"]))
            out.append({"record": f, "position": h["columns"]["position"], "id": h["columns"]["id"],
                        "energy": h["columns"]["energy"], "n": h["n"]})
        return out
    return cached(("files", path, step), parse)


PARAMS = [(size, cfg["name"]) for size in WRITERS for cfg in wa.configs(size)]
PARAM_IDS = [f"w{s}-{n}" for s, n in PARAMS]
MAIN_PARAMS = [(size, kind) for size in WRITERS for kind in GENERATORS]
MAIN_IDS = [f"w{s}-{k}" for s, k in MAIN_PARAMS]


# ---------------------------------------------------------------------------------- round trips

@pytest.mark.parametrize("size,name", PARAMS, ids=PARAM_IDS)
def test_roundtrip(written, size, name):
    """The full read is exactly the global draw; every file's particles lie in its partition box
    and bounds; the partition boxes of the step are pairwise disjoint; m files as planned."""
    rec = dataset(written, size, name)
    n, T = rec["n"], rec["T"]
    assert sum(rec["counts"]) == n   # the ranks' patches hold the whole draw between them
    pos = draw(rec["kind"], n, rec["seed"])
    g = group(rec["path"])
    assert g.partition == ("adaptive", (1, 1, 1))
    assert g.particles_per_file == T
    assert g.steps == [0]

    got = g.read(0)
    assert np.array_equal(np.sort(got["id"]), np.arange(n, dtype=np.uint64))
    check_values(got, pos, name)
    ids_only = g.read(0, fields=["id"])
    assert list(ids_only) == ["id"] and np.array_equal(np.sort(ids_only["id"]), np.arange(n, dtype=np.uint64))

    files = g.files(0)
    m = planned_files(rec, size)
    if T > 1:
        assert len(files) == m, f"{len(files)} files; ceil(N/T) = {math.ceil(n / T)}, {size} ranks: expected {m}"
    else:   # one particle per file: cuts inside histogram cells may leave a tile without particles
        assert 0 < len(files) <= m, (len(files), m)
    assert sum(f["count"] for f in files) == n
    assert all(f["count"] > 0 for f in files)
    assert len({f["partition"] for f in files}) == len(files)
    assert len({f["file"] for f in files}) == len(files)
    aggs = [f["aggregator_rank"] for f in files]
    assert all(0 <= a < size for a in aggs), aggs
    # the files spread over the ranks: one each while there are no more files than ranks
    assert max(aggs.count(a) for a in set(aggs)) <= math.ceil(len(files) / size), aggs

    for a, b in itertools.combinations(files, 2):
        assert not boxes_intersect(a["partition_box"], b["partition_box"]), (
            f"partition boxes of {a['file']} and {b['file']} overlap: {a['partition_box']} {b['partition_box']}")

    seen = []
    for c in file_contents(rec["path"]):
        f = c["record"]
        assert c["n"] == f["count"] == len(c["id"])
        p = np.asarray(c["position"], dtype=np.float64)
        pb, bd = f["partition_box"], f["bounds"]
        out = ~half_open_inside(p, pb["min"], pb["max"])
        assert not out.any(), f"{f['file']}: {out.sum()} particles outside its partition box {pb}"
        assert np.all((p >= np.asarray(bd["min"])) & (p <= np.asarray(bd["max"]))), f["file"]
        # bounds are the exact extent of the file's particles; the partition box holds them
        assert np.array_equal(p.min(axis=0), np.asarray(bd["min"])), f["file"]
        assert np.array_equal(p.max(axis=0), np.asarray(bd["max"])), f["file"]
        assert all(pb["min"][k] <= bd["min"][k] and bd["max"][k] < pb["max"][k] for k in range(3)), (pb, bd)
        # per-component statistics of the metadata: x, y, z, energy, id
        cols = [p[:, 0], p[:, 1], p[:, 2], c["energy"].astype(np.float64), c["id"].astype(np.float64)]
        assert f["min"] == [float(v.min()) for v in cols], f["file"]
        assert f["max"] == [float(v.max()) for v in cols], f["file"]
        check_values({"position": p, "energy": np.asarray(c["energy"]), "id": np.asarray(c["id"])}, pos,
                     f["file"])
        seen.append(np.asarray(c["id"]))
    everything = np.concatenate(seen)
    assert len(everything) == n and np.array_equal(np.sort(everything), np.arange(n, dtype=np.uint64))


BALANCED = [(p, i) for p, i in zip(PARAMS, PARAM_IDS) if p[0] >= 2 and not p[1].endswith("-T1")]


@pytest.mark.parametrize("size,name", [p for p, _ in BALANCED], ids=[i for _, i in BALANCED])
def test_balance(written, size, name):
    """With several files, the k-d cuts balance the particles: the fullest file holds at most
    MAX_IMBALANCE times the mean (for T = ceil(N / ranks): one file per rank). Not for T = 1:
    files of one histogram cell each hold what the cell holds, which the planner cannot see."""
    rec = dataset(written, size, name)
    counts = [f["count"] for f in group(rec["path"]).files(0)]
    if name in GENERATORS:
        assert rec["T"] == math.ceil(rec["n"] / size) and len(counts) == size
    mean = rec["n"] / len(counts)
    assert max(counts) / mean <= MAX_IMBALANCE, f"file counts {counts}, mean {mean:.0f}"


def test_single_writer_one_file(written):
    """One writer rank with T = N: one file, and its partition box is the box of the particles."""
    for name, rec in written(1).items():
        if rec["T"] < rec["n"]:
            continue   # clustered-T7: seven files, checked by test_roundtrip
        files = group(rec["path"]).files(0)
        assert len(files) == 1, name
        assert files[0]["count"] == rec["n"]
        pos = draw(rec["kind"], rec["n"], rec["seed"])
        pb = files[0]["partition_box"]
        assert np.array_equal(np.asarray(pb["min"]), pos.min(axis=0)), name
        assert np.array_equal(np.asarray(pb["max"]), np.nextafter(pos.max(axis=0), np.inf)), name


# ---------------------------------------------------------------------------------- reads

def query_boxes(rec: dict, pos: np.ndarray) -> list:
    rng = np.random.default_rng([len(pos), wa.SEEDS[rec["kind"]]])
    boxes = []
    for _ in range(6):
        lo = rng.uniform(0.0, 0.8, 3)
        hi = np.minimum(lo + rng.uniform(0.05, 0.6, 3), 1.0)
        boxes.append((tuple(lo), tuple(hi)))
    # faces exactly on particle coordinates: the particle on a max face is outside (half-open)
    a, b = pos[rng.integers(0, len(pos), 2)]
    boxes.append((tuple(np.minimum(a, b)), tuple(np.maximum(a, b))))
    # every file's partition box: exactly that file's particles (the boxes are disjoint)
    for f in group(rec["path"]).files(0):
        boxes.append((tuple(f["partition_box"]["min"]), tuple(f["partition_box"]["max"])))
    boxes.append(((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    boxes.append(((0.5, 0.5, 0.5), (0.5 + 1e-12, 0.5 + 1e-12, 0.5 + 1e-12)))   # (almost surely) empty
    return boxes


@pytest.mark.parametrize("size,kind", MAIN_PARAMS, ids=MAIN_IDS)
def test_box_reads(written, size, kind):
    rec = dataset(written, size, kind)
    pos = draw(kind, rec["n"], rec["seed"])
    g = group(rec["path"])
    files = {f["file"]: f for f in g.files(0)}
    by_box = {(tuple(c["record"]["partition_box"]["min"]), tuple(c["record"]["partition_box"]["max"])):
              np.sort(c["id"]) for c in file_contents(rec["path"])}
    for box in query_boxes(rec, pos):
        got = g.read(0, box=box)
        want = np.nonzero(rt.inside(pos, box))[0].astype(np.uint64)
        ids = np.sort(got["id"])
        assert np.array_equal(ids, want), (
            f"box {box}: {len(ids)} particles read, {len(want)} inside; "
            f"{len(np.setdiff1d(ids, want))} extra, {len(np.setdiff1d(want, ids))} missing")
        check_values(got, pos, f"box {box}")
        if box in by_box:
            assert np.array_equal(ids, by_box[box]), f"the box of a file reads other files' particles: {box}"
        meeting = sum(1 for f in files.values() if f["count"] and rt.bounds_meet(f["bounds"], box))
        assert g.last_read_stats["files_opened"] <= meeting


@pytest.mark.parametrize("size,kind", MAIN_PARAMS, ids=MAIN_IDS)
def test_level_reads(written, size, kind):
    """Level L (one reader, P = 32, S = 2) holds min(N, sum_{l <= L} 32 * 2^l) particles, each
    level a superset of the previous, the last level everything; past the last is an error."""
    rec = dataset(written, size, kind)
    n = rec["n"]
    pos = draw(kind, n, rec["seed"])
    g = group(rec["path"])
    levels = rt.num_levels(n, 1, 32, 2)
    prev = np.zeros(0, np.uint64)
    for L in range(levels):
        got = g.read(0, level=L)
        ids = np.sort(got["id"])
        assert len(ids) == min(n, rt.level_sum(1, 32, 2, L)), (L, len(ids))
        assert len(np.setdiff1d(prev, ids)) == 0, f"level {L} lost particles of level {L - 1}"
        check_values(got, pos, f"level {L}")
        prev = ids
    assert np.array_equal(prev, np.arange(n, dtype=np.uint64))
    assert np.array_equal(np.sort(g.read(0, level=levels)["id"]), prev)   # past the last level: everything


@pytest.mark.parametrize("size,kind", MAIN_PARAMS, ids=MAIN_IDS)
def test_fraction_reads(written, size, kind):
    """fraction=f returns round(f * N) particles, a fair sample: every file keeps its share."""
    rec = dataset(written, size, kind)
    n = rec["n"]
    pos = draw(kind, n, rec["seed"])
    g = group(rec["path"])
    got = g.read(0, fraction=0.01)
    assert len(got["id"]) == round(0.01 * n) == rt.fraction_count(0.01, n)
    check_values(got, pos, "fraction 0.01")
    tenth = g.read(0, fraction=0.1, fields=["id"])["id"]
    assert len(tenth) == rt.fraction_count(0.1, n)
    assert len(np.setdiff1d(got["id"], tenth)) == 0, "a larger fraction is not a superset"
    for c in file_contents(rec["path"]):
        k = int(np.isin(tenth, c["id"]).sum())
        assert rt.share_ok(k, len(c["id"]), 0.1), (
            f"{c['record']['file']}: {k} of its {len(c['id'])} particles in a 10 % sample")


@pytest.fixture(scope="module")
def parallel_read(written, workdir):
    """The collective read worker on READERS ranks over the main datasets written by 4 ranks."""
    def launch():
        args = ["read", str(workdir)]
        for kind in GENERATORS + ("clustered-T10-nopatch",):
            args += [f"w4-{kind}", dataset(written, 4, kind)["path"]]
        res = run_mpi(READERS, "write_adaptive.py", *args, timeout=150)
        with np.load(res["npz"]) as z:
            ids = {k: z[k] for k in z.files}
        return res, ids
    return cached(("read", READERS), launch)


@pytest.mark.parametrize("name", list(GENERATORS) + ["clustered-T10-nopatch"])
def test_parallel_read_other_reader_count(written, parallel_read, name):
    """Written by 4 ranks, read collectively by 3: each rank a disjoint part with the right
    values, the union the serial answer (levels: the serial read with readers = 3)."""
    res, ids = parallel_read
    assert res["size"] == READERS
    rec = dataset(written, 4, name)
    n = rec["n"]
    pos = draw(rec["kind"], n, rec["seed"])
    g = group(rec["path"])
    for variant, kw in wa.READ_VARIANTS.items():
        outs = res["datasets"][f"w4-{name}"][variant]
        assert len(outs) == READERS
        errors = [(r, o["error"]) for r, o in enumerate(outs) if o["error"]]
        assert not errors, f"{variant}: ranks raised {errors}"
        assert [o["bad_rows"] for o in outs] == [0] * READERS, f"{variant}: rows with wrong values"
        if "box" in kw:
            assert [o["outside"] for o in outs] == [0] * READERS, variant
        parts = [ids[f"w4-{name}|{variant}|{r}"] for r in range(READERS)]
        assert [len(p) for p in parts] == [o["count"] for o in outs]
        union = np.concatenate(parts)
        assert len(np.unique(union)) == len(union), f"{variant}: a particle was returned by two ranks"
        if variant.startswith("full"):
            want = np.arange(n, dtype=np.uint64)
        elif variant.startswith("box"):
            want = np.nonzero(rt.inside(pos, kw["box"]))[0].astype(np.uint64)
        elif variant == "level":
            want = np.sort(g.read(0, fields=["id"], level=kw["level"], readers=READERS)["id"])
            assert len(want) == min(n, rt.level_sum(READERS, 32, 2, kw["level"]))
        else:
            want = np.sort(g.read(0, fields=["id"], fraction=kw["fraction"])["id"])
            assert len(want) == rt.fraction_count(kw["fraction"], n)
        assert np.array_equal(np.sort(union), want), (
            f"{variant}: union over {READERS} ranks has {len(union)} particles, expected {len(want)}")
        if variant == "full":   # the spatial split gives every reader something
            assert all(len(p) > 0 for p in parts), [len(p) for p in parts]


# ---------------------------------------------------------------------------------- bad input

@pytest.fixture(scope="module")
def bad_run(workdir):
    def launch():
        out = workdir / "bad"
        out.mkdir(exist_ok=True)
        return run_mpi(3, "write_adaptive.py", "bad", str(out), timeout=120), str(out)
    return cached(("bad", 3), launch)


def bad_expected(step: int) -> dict:
    """What the good writes of write_adaptive.bad() hold: the uniform draw with seed 7 + step."""
    pos = uneven("uniform", wa.BAD_N, seed=7 + step)
    return {"position": pos, "energy": energy_of(pos), "id": np.arange(wa.BAD_N, dtype=np.uint64)}


@pytest.mark.parametrize("case,bad_rank,step_key", [("nan", 1, "nan_step1"), ("inf", 2, "inf_step1")])
def test_non_finite_position_fails_on_every_rank(bad_run, case, bad_rank, step_key):
    """A NaN (inf) position on one rank: InvalidArgumentError on every rank, naming the rank and
    the field; the step is not committed and step 0 stays readable."""
    res, out = bad_run
    ranks = res["ranks"]
    assert len(ranks) == 3
    for o in ranks:
        assert o[f"{case}_step0"] is None, o
        err = o[step_key]
        assert err is not None, f"rank {o['rank']}: the {case} write did not fail"
        cls, msg, is_lodex = err
        assert cls == "InvalidArgumentError" and is_lodex, err
        assert f"rank {bad_rank}" in msg and "'position'" in msg, msg
        assert "finite" in msg, msg
        assert o[f"{case}_steps_after"] == [0], o
    assert len({o[step_key][1] for o in ranks}) == 1, "ranks raised different messages"
    path = os.path.join(out, f"{case}.lodex")
    g = group(path)
    if case == "nan":
        assert g.steps == [0]
        assert not os.path.exists(tu.step_dir(path, wa.GROUP, 1)), "the failed step left its directory"
        with pytest.raises(lodex.NotFoundError):
            g.read(1)
    else:   # the good retry of step 1 committed
        assert [o["inf_retry"] for o in ranks] == [None] * 3
        assert all(o["inf_steps_final"] == [0, 1] for o in ranks)
        assert g.steps == [0, 1]
        tu.assert_same_particles(g.read(1), bad_expected(1), UNEVEN_SCHEMA)
    tu.assert_same_particles(g.read(0), bad_expected(0), UNEVEN_SCHEMA)
    assert len(g.files(0)) == 3


def test_empty_steps_mpi(bad_run):
    """Steps where every rank (or all but one) has nothing commit and read back: an empty step
    has no files and reads as empty arrays of the schema's dtypes and shapes."""
    res, out = bad_run
    for o in res["ranks"]:
        assert (o["empty_step0"], o["empty_step1"], o["empty_step2"]) == (None, None, None), o
        assert o["empty_steps"] == [0, 1, 2]
    g = group(os.path.join(out, "empty.lodex"))
    assert g.steps == [0, 1, 2]
    for step in (0, 2):
        assert g.files(step) == []
        assert_empty(g.read(step))
        assert_empty(g.read(step, level=0))
        assert_empty(g.read(step, fraction=0.5))
        assert_empty(g.read(step, box=((0.1, 0.1, 0.1), (0.9, 0.9, 0.9))))
    # step 1: only the last rank held particles (the clustered draw inside its patch)
    counts = [o["empty_step1_count"] for o in res["ranks"]]
    assert counts[:2] == [0, 0] and counts[2] > 0
    pos = uneven("clustered", wa.BAD_N, seed=9)
    patch = wa.patch_of(2, wa.rank_grid(3), UNIT)
    want_ids = np.nonzero(rt.inside(pos, patch))[0].astype(np.uint64)
    assert len(want_ids) == counts[2]
    got = g.read(1)
    assert np.array_equal(np.sort(got["id"]), want_ids)
    check_values(got, pos, "step 1")
    files = g.files(1)
    assert sum(f["count"] for f in files) == counts[2] and all(f["count"] > 0 for f in files)


def assert_empty(got: dict) -> None:
    assert set(got) == set(UNEVEN_SCHEMA)
    assert got["position"].dtype == np.float64 and got["position"].shape == (0, 3)
    assert got["energy"].dtype == np.float32 and got["energy"].shape == (0,)
    assert got["id"].dtype == np.uint64 and got["id"].shape == (0,)


def test_single_point_mpi(bad_run):
    """Every particle at one point cannot be cut: one file, whether all ranks hold them (no
    patches) or one rank does (patches given); reads return them all."""
    res, out = bad_run
    for o in res["ranks"]:
        assert o["point_step0"] is None and o["point_step1"] is None, o
    g = lodex.open(os.path.join(out, "point.lodex")).particles["pt"]
    assert g.particles_per_file == wa.BAD_POINT_T
    total = 3 * wa.BAD_POINT_COUNT
    assert math.ceil(total / wa.BAD_POINT_T) > 1   # a split was wanted
    pt = np.asarray(wa.BAD_POINT)
    for step in (0, 1):
        files = g.files(step)
        assert len(files) == 1, files
        f = files[0]
        assert f["count"] == total
        assert list(f["bounds"]["min"]) == list(pt) and list(f["bounds"]["max"]) == list(pt)
        box = f["partition_box"]
        assert np.all(pt >= np.asarray(box["min"])) and np.all(pt < np.asarray(box["max"]))
        got = g.read(step)
        assert np.array_equal(np.sort(got["id"]), np.arange(total, dtype=np.uint64))
        assert np.all(got["position"] == pt)
        assert np.array_equal(got["energy"], energy_of(got["position"]))
        box = (tuple(pt), tuple(np.nextafter(pt, np.inf)))
        assert len(g.read(step, box=box)["id"]) == total
        assert len(g.read(step, box=((0, 0, 0), tuple(pt)))["id"]) == 0   # max face exclusive
        assert len(g.read(step, level=0)["id"]) == 32
        assert len(g.read(step, fraction=0.01)["id"]) == rt.fraction_count(0.01, total)


def _write_serial(path, step_data: list, T=100, **kw):
    ds = lodex.create(path)
    g = ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive",
                            particles_per_file=T, **kw)
    for s, d in enumerate(step_data):
        g.write(s, data=d)
    ds.close()
    return lodex.open(path).particles["e"]


def test_empty_and_point_serial(tmp_path):
    """Serial writer: an empty step (no files, empty arrays) and every particle at one point."""
    pt = wa.point_data(500, 0)
    g = _write_serial(str(tmp_path / "s.lodex"), [wa.empty_data(), pt, wa.empty_data()], T=10)
    assert g.steps == [0, 1, 2]
    for s in (0, 2):
        assert g.files(s) == []
        assert_empty(g.read(s))
        assert_empty(g.read(s, level=3))
    files = g.files(1)
    assert len(files) == 1 and files[0]["count"] == 500
    tu.assert_same_particles(g.read(1), pt, UNEVEN_SCHEMA)


def test_non_finite_serial(tmp_path):
    """Serial: a NaN position raises InvalidArgumentError naming the field (no rank prefix);
    the group keeps its committed steps."""
    path = str(tmp_path / "nan.lodex")
    good = wa.point_data(10, 0)
    ds = lodex.create(path)
    g = ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", particles_per_file=4)
    g.write(0, data=good)
    for value in (np.nan, -np.inf):
        bad = {k: v.copy() for k, v in good.items()}
        bad["position"][5, 0] = value
        with pytest.raises(lodex.InvalidArgumentError, match="'position'") as ei:
            g.write(1, data=bad)
        assert not str(ei.value).startswith("rank ")
        assert g.steps == [0]
    ds.close()
    r = lodex.open(path).particles["e"]
    assert r.steps == [0]
    tu.assert_same_particles(r.read(0), good, UNEVEN_SCHEMA)


BAD_DEFINITIONS = {
    "ppf_zero": dict(partition="adaptive", particles_per_file=0),
    "ppf_negative": dict(partition="adaptive", particles_per_file=-3),
    "ppf_float": dict(partition="adaptive", particles_per_file=100.0),
    "ppf_bool": dict(partition="adaptive", particles_per_file=True),
    "file_bytes_zero": dict(partition="adaptive", file_bytes=0),
    "both": dict(partition="adaptive", particles_per_file=100, file_bytes=36_000),
    "neither": dict(partition="adaptive"),
    "ppf_with_factor": dict(partition=(2, 1, 1), particles_per_file=100),
    "file_bytes_with_factor": dict(partition=(1, 1, 1), file_bytes=36_000),
    "ppf_with_grid": dict(partition_grid=(2, 2, 2), particles_per_file=100),
    "ppf_without_partition": dict(particles_per_file=100),
    "bogus": dict(partition="bogus"),
    "bogus_with_ppf": dict(partition="bogus", particles_per_file=100),
    "adaptive_and_grid": dict(partition="adaptive", partition_grid=(2, 2, 2), particles_per_file=100),
}


@pytest.mark.parametrize("case", list(BAD_DEFINITIONS))
def test_bad_definitions(tmp_path, case):
    """Each bad definition raises InvalidArgumentError and defines nothing; a good definition
    afterwards works."""
    path = str(tmp_path / "d.lodex")
    ds = lodex.create(path)
    with pytest.raises(lodex.InvalidArgumentError):
        ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, **BAD_DEFINITIONS[case])
    assert list(ds.particles) == []
    g = ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", particles_per_file=7)
    g.write(0, data=wa.point_data(3, 0))
    ds.close()
    r = lodex.open(path).particles["e"]
    assert r.particles_per_file == 7 and r.steps == [0]


@pytest.mark.parametrize("file_bytes", [36_000, 36_035, 1_000_000, 35, 1])
def test_file_bytes_target(tmp_path, file_bytes):
    """file_bytes sets T = max(1, file_bytes // bytes per particle), the row size from the schema
    (f8 x 3 + f4 + u8 = 36 bytes)."""
    assert ROW_BYTES == 36
    want = max(1, file_bytes // ROW_BYTES)
    path = str(tmp_path / "fb.lodex")
    ds = lodex.create(path)
    g = ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", file_bytes=file_bytes)
    assert g.particles_per_file == want
    data = wa.rank_data("clustered", 2000, 3, 0, 1)[0]
    g.write(0, data=data)
    ds.close()
    r = lodex.open(path).particles["e"]
    assert r.partition == ("adaptive", (1, 1, 1))
    assert r.particles_per_file == want
    files = r.files(0)
    if want > 1:   # files of about T particles even with a single writer
        assert len(files) == math.ceil(2000 / want), [f["count"] for f in files]
    else:          # T = 1: capped at the non-empty cells of the writer's 16^3 histogram
        assert 1 < len(files) <= 16**3 and sum(f["count"] for f in files) == 2000
    tu.assert_same_particles(r.read(0), data, UNEVEN_SCHEMA)


def test_reopen_with_other_target(tmp_path):
    """An existing adaptive group reopens only with its own target (by either knob) or without
    a schema; another target or another scheme is InvalidArgumentError and changes nothing."""
    path = str(tmp_path / "re.lodex")
    d0 = wa.rank_data("uniform", 500, 1, 0, 1)[0]
    _write_serial(path, [d0], T=100)
    with lodex.open(path, mode="a") as ds:
        with pytest.raises(lodex.InvalidArgumentError, match="100"):
            ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", particles_per_file=200)
        with pytest.raises(lodex.InvalidArgumentError):
            ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", file_bytes=36 * 101)
        with pytest.raises(lodex.InvalidArgumentError):
            ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition=(1, 1, 1))
        with pytest.raises(lodex.InvalidArgumentError):
            ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT)
        # the same target by file_bytes (3600 // 36 = 100) is the same group
        g = ds.define_particles("e", schema=UNEVEN_SCHEMA, domain=UNIT, partition="adaptive", file_bytes=3600 + 35)
        assert g.particles_per_file == 100
        g.write(1, data=d0)
    r = lodex.open(path).particles["e"]
    assert r.steps == [0, 1] and r.particles_per_file == 100
    assert r.partition == ("adaptive", (1, 1, 1))
    tu.assert_same_particles(r.read(1), d0, UNEVEN_SCHEMA)
    with lodex.open(path, mode="a") as ds:
        assert ds.particles["e"].particles_per_file == 100   # no schema: as is


# ---------------------------------------------------------------------------------- lodex info

def _cli(*args):
    exe = os.path.join(sys.prefix, "bin", "lodex")
    cmd = [exe] if os.path.exists(exe) else [sys.executable, "-m", "lodex.cli"]
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", ["clustered", "sheet-T2"])
def test_info_json(written, name):
    rec = dataset(written, 4, name)
    r = _cli("info", rec["path"], "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    jg = out["groups"][wa.GROUP]
    assert jg["partition"] == {"mode": "adaptive", "dims": [1, 1, 1], "particles_per_file": rec["T"]}
    assert [s["step"] for s in jg["steps"]] == [0]
    s = jg["steps"][0]
    assert s["particles"] == rec["n"]
    assert sum(f["count"] for f in s["files"]) == rec["n"]
    files = group(rec["path"]).files(0)
    assert len(s["files"]) == len(files) == planned_files(rec, 4)
    for jf, f in zip(s["files"], files):
        assert jf["file"] == f["file"] and jf["count"] == f["count"] > 0
        assert jf["partition_box"] == [list(f["partition_box"]["min"]), list(f["partition_box"]["max"])]
        assert jf["bounds"] == [list(f["bounds"]["min"]), list(f["bounds"]["max"])]
    text = _cli("info", rec["path"])
    assert text.returncode == 0, text.stderr
    assert f"adaptive, {rec['T']:,} particles per file" in text.stdout
    assert f"step 0: {rec['n']:,} particles in {len(files)} files" in text.stdout


def test_info_json_empty_step(bad_run):
    res, out = bad_run
    r = _cli("info", os.path.join(out, "empty.lodex"), "--json")
    assert r.returncode == 0, r.stderr
    jg = json.loads(r.stdout)["groups"][wa.GROUP]
    assert jg["partition"]["mode"] == "adaptive" and jg["partition"]["particles_per_file"] == res["T"]
    steps = {s["step"]: s for s in jg["steps"]}
    assert (steps[0]["particles"], steps[0]["files"]) == (0, [])
    assert (steps[2]["particles"], steps[2]["files"]) == (0, [])
    assert steps[1]["particles"] == res["ranks"][2]["empty_step1_count"]


def test_particles_per_file_holds_with_fewer_ranks_than_files(tmp_path):
    """One process importing 110,000 particles at 20,000 per file writes 6 files, not one: an
    aggregator writes several files when the target asks for more files than there are ranks."""
    rng = np.random.default_rng(5)
    n = 110_000
    data = {"position": rng.random((n, 3)), "energy": rng.random(n).astype(np.float32)}
    path = str(tmp_path / "a.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema={"position": ("f8", 3), "energy": "f4"}, domain=((0, 0, 0), (1, 1, 1)),
                                partition="adaptive", particles_per_file=20_000)
        g.write(step=0, data=data)
    r = lodex.open(path).particles["p"]
    counts = [f["count"] for f in r.files(0)]
    assert len(counts) == 6 and sum(counts) == n, counts
    assert max(counts) <= 20_000 * 1.15, counts
    got = r.read(0)
    o, w = np.lexsort(got["position"].T), np.lexsort(data["position"].T)
    assert np.array_equal(got["position"][o], data["position"][w])
    assert np.array_equal(got["energy"][o], data["energy"][w])
