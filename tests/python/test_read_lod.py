"""Level-of-detail reads (serial, no MPI): exact level and fraction counts, nesting, the last
level, progressive refinement, fairness over space on clustered data, and the bytes a level read
costs."""

from __future__ import annotations

import math

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
import read_testutil as rt

GROUP = "p"
N = 120000
INF = math.inf


@pytest.fixture(scope="module")
def clustered(tmp_path_factory):
    """Clustered f8 particles (3 Gaussian blobs of different weights + uniform background) in
    the unit cube, partition grid (2,2,2): files of very different sizes, many bricks."""
    rng = np.random.default_rng(303)
    data = rt.particles_f8(rt.clustered_positions(rng, N), seed=303)
    path = str(tmp_path_factory.mktemp("lod") / "clustered.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=rt.SCHEMA_F8, domain=rt.UNIT, partition_grid=(2, 2, 2),
                                lod={"brick_target": 256})
        g.write(step=0, data=data)
    return path, data


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A second dataset: f4 positions, non-unit domain, grid (3,2,1), file level scale 3."""
    rng = np.random.default_rng(404)
    data = rt.particles_f4(rt.uniform_positions(rng, 30000, rt.ODD_DOMAIN, np.float32), seed=404)
    path = str(tmp_path_factory.mktemp("lod") / "small.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=rt.SCHEMA_F4, domain=rt.ODD_DOMAIN, partition_grid=(3, 2, 1),
                                lod={"brick_target": 64, "scale": 3, "level0_max": 100, "seed": 9})
        g.write(step=0, data=data)
    return path, data


def group(path):
    return lodex.open(path).particles[GROUP]


def ids(d: dict) -> np.ndarray:
    return np.sort(d["id"])


def assert_subset(a: np.ndarray, b: np.ndarray, what: str = "") -> None:
    missing = np.setdiff1d(a, b)
    assert len(missing) == 0, f"{what}: {len(missing)} particles of the smaller sample are not in the larger"


def assert_unique(a: np.ndarray, what: str = "") -> None:
    assert len(np.unique(a)) == len(a), f"{what}: duplicate particles"


def assert_rows_match(got: dict, data: dict, schema: dict) -> None:
    """Every returned row is the particle with that id, value for value."""
    index = {int(v): i for i, v in enumerate(data["id"])}
    rows = np.array([index[int(v)] for v in got["id"]], dtype=np.int64)
    tu.assert_same_particles(got, rt.select(data, rows), schema)


LOD_PARAMS = [dict(), dict(readers=3), dict(P=10, S=3), dict(readers=2, P=7, S=1.5), dict(P=100, S=2.5),
              dict(readers=5, P=1, S=4)]
LOD_IDS = ["default", "readers3", "P10S3", "r2P7S1.5", "P100S2.5", "r5P1S4"]


@pytest.mark.parametrize("kw", LOD_PARAMS, ids=LOD_IDS)
def test_level_counts_and_nesting(clustered, kw):
    path, data = clustered
    g = group(path)
    readers, P, S = kw.get("readers", 1), kw.get("P", 32), kw.get("S", 2)
    levels = rt.num_levels(N, readers, P, S)
    prev = np.zeros(0, dtype=np.uint64)
    for L in range(levels):
        got = g.read(0, level=L, **kw)
        n = len(got["id"])
        assert n == min(N, rt.level_sum(readers, P, S, L)), (L, n)
        s = g.last_read_stats
        assert s["particles"] == n and s["candidates"] == N
        cur = ids(got)
        assert_unique(cur, f"level {L}")
        assert_subset(prev, cur, f"level {L - 1} in {L}")
        assert len(cur) - len(prev) <= rt.level_size(readers, P, S, L)
        prev = cur
    assert len(prev) == N   # the last level is everything
    assert np.array_equal(prev, np.sort(data["id"]))
    assert g.last_read_stats["levels"] == levels
    # Past the last level: everything again, never an error (however far past).
    for past in (levels, levels + 5, 2**32 - 1):
        got = g.read(0, level=past, **kw)
        assert np.array_equal(ids(got), prev), past
        assert g.last_read_stats["levels"] == levels
    assert g.read(0) and g.last_read_stats["levels"] == 0   # not a sampled read


def test_level_values(clustered):
    """A level read returns real particles with all their values, and the same ones each time."""
    path, data = clustered
    g = group(path)
    for L in (0, 4, 9):
        a = g.read(0, level=L)
        assert_rows_match(a, data, rt.SCHEMA_F8)
        b = g.read(0, level=L)
        for k in a:
            assert np.array_equal(tu.bits(a[k]), tu.bits(b[k]))
    last = g.read(0, level=rt.num_levels(N, 1, 32, 2) - 1)
    tu.assert_same_particles(last, data, rt.SCHEMA_F8)


def test_level_counts_other_layout(small):
    """Another file layout (level scale 3, level-0 cap 100, f4 positions, 6 files)."""
    path, data = small
    g = group(path)
    n_all = len(data["id"])
    for kw in (dict(), dict(readers=4, P=16, S=2)):
        readers, P, S = kw.get("readers", 1), kw.get("P", 32), kw.get("S", 2)
        levels = rt.num_levels(n_all, readers, P, S)
        prev = np.zeros(0, dtype=np.uint64)
        for L in range(levels):
            got = g.read(0, level=L, **kw)
            assert len(got["id"]) == min(n_all, rt.level_sum(readers, P, S, L))
            assert_subset(prev, ids(got))
            prev = ids(got)
        assert np.array_equal(prev, np.sort(data["id"]))
        assert np.array_equal(ids(g.read(0, level=levels, **kw)), prev)   # past the last: everything


FRACTIONS = [1e-7, 1e-4, 0.001, 0.0123, 0.05, 0.1, 0.25, 0.5, 0.777, 0.9999, 1.0]


def test_fraction_counts_and_nesting(clustered):
    path, data = clustered
    g = group(path)
    prev = np.zeros(0, dtype=np.uint64)
    for f in FRACTIONS:
        got = g.read(0, fraction=f)
        n = len(got["id"])
        assert n == max(1, round(f * N)), (f, n)
        assert n == rt.fraction_count(f, N)
        cur = ids(got)
        assert_unique(cur, f"fraction {f}")
        assert_subset(prev, cur, f"fraction below {f}")
        prev = cur
    assert np.array_equal(prev, np.sort(data["id"]))
    assert_rows_match(g.read(0, fraction=0.01), data, rt.SCHEMA_F8)
    tu.assert_same_particles(g.read(0, fraction=1.0), data, rt.SCHEMA_F8)


def test_levels_and_fractions_are_one_order(clustered):
    """Levels and fractions are prefixes of the same nested sample: a smaller one of either kind
    is inside a larger one of the other kind."""
    path, _ = clustered
    g = group(path)
    for L in (2, 6, 9):
        lvl = ids(g.read(0, level=L))
        bigger = ids(g.read(0, fraction=min(1.0, (len(lvl) + 50) / N)))
        assert_subset(lvl, bigger, f"level {L} in a larger fraction")
        smaller = ids(g.read(0, fraction=(len(lvl) - 10) / N))
        assert_subset(smaller, lvl, f"smaller fraction in level {L}")
    # the same number of particles: the same particles
    lvl = ids(g.read(0, level=5))
    assert np.array_equal(lvl, ids(g.read(0, fraction=len(lvl) / N)))


BOXES = [((0.2, 0.2, 0.2), (0.45, 0.5, 0.4)),                   # mostly a blob
         ((0.0, 0.5, 0.0), (1.0, 1.0, 1.0)),                    # half the domain, a partition face
         ((0.6, -INF, 0.55), (INF, 0.8, INF)),                  # unbounded faces
         ((0.01, 0.9, 0.9), (0.2, 0.99, 0.99))]                 # background only: few particles


@pytest.mark.parametrize("box", BOXES, ids=["blob", "half", "inf", "sparse"])
def test_level_with_box(clustered, box):
    path, data = clustered
    g = group(path)
    full = g.read(0, box=box)
    want = rt.select(data, rt.inside(data["position"], box))
    tu.assert_same_particles(full, want, rt.SCHEMA_F8)
    full_ids = ids(full)
    in_box = rt.inside(data["position"], box)
    ref = g.refine(0, box=box)
    levels = ref.levels
    prev = np.zeros(0, dtype=np.uint64)
    cand = None
    for L in range(levels):
        got = g.read(0, box=box, level=L)
        cand = g.last_read_stats["candidates"]
        cur = ids(got)
        assert len(cur) <= rt.level_sum(1, 32, 2, L)
        assert np.all(rt.inside(got["position"], box)), f"level {L} returned particles outside the box"
        assert_unique(cur)
        assert_subset(prev, cur, f"level {L - 1} in {L}")
        assert_subset(cur, full_ids, f"level {L} in the full box read")
        prev = cur
    assert np.array_equal(prev, full_ids), "the last level is not the whole box"
    # levels relative to the candidates (particles of the bricks meeting the box)
    assert int(in_box.sum()) <= cand <= N
    assert levels == rt.num_levels(cand, 1, 32, 2)
    # A level past the box's last one (a script that zoomed in at a fixed level) reads the box.
    for past in (levels, levels + 3):
        tu.assert_same_particles(g.read(0, box=box, level=past), want, rt.SCHEMA_F8)
        assert g.last_read_stats["levels"] == levels
    # fractions with a box: nested, inside the box
    prev = np.zeros(0, dtype=np.uint64)
    for f in (0.01, 0.1, 0.5, 1.0):
        cur = ids(g.read(0, box=box, fraction=f))
        assert_subset(prev, cur)
        assert_subset(cur, full_ids)
        prev = cur
    assert np.array_equal(prev, full_ids)


def test_query_past_the_last_level_is_the_whole_query(clustered):
    """A value query at a level past its selection's last takes every candidate, as the read does."""
    path, data = clustered
    g = group(path)
    box = BOXES[0]
    levels = g.refine(0, box=box).levels
    whole = g.query(0, "energy > 0.5", box=box, fields=["id"])
    for past in (levels, levels + 4):
        r = g.query(0, "energy > 0.5", box=box, level=past, fields=["id"])
        assert r.count == whole.count and np.array_equal(np.sort(r.data["id"]), np.sort(whole.data["id"])), past
    m = rt.inside(data["position"], box) & (data["energy"] > 0.5)
    assert np.array_equal(np.sort(whole.data["id"]), np.sort(data["id"][m]))


def test_level_without_candidates(clustered):
    """A box with no candidate particles: every level (and fraction) is empty, no error."""
    path, _ = clustered
    g = group(path)
    for box in [((2.0, 2.0, 2.0), (3.0, 3.0, 3.0)), ((0.5, 0.5, 0.5), (0.5, 0.6, 0.6))]:
        for L in (0, 3, 50):
            got = g.read(0, box=box, level=L)
            assert got["position"].shape == (0, 3) and got["id"].shape == (0,)
        assert len(g.read(0, box=box, fraction=0.5)["id"]) == 0
        ref = g.refine(0, box=box)
        parts = list(ref)
        assert sum(len(p["id"]) for p in parts) == 0
        assert len(parts) == ref.levels == 1


# ---------------------------------------------------------------------------------------------
# Refinement
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("box,kw", [
    (None, dict()),
    (None, dict(readers=2, P=50, S=3)),
    (BOXES[0], dict()),
    (BOXES[2], dict(readers=3, P=8, S=1.5)),
], ids=["all", "all_r2P50S3", "blob", "inf_r3P8S1.5"])
def test_refine(clustered, box, kw):
    path, data = clustered
    g = group(path)
    readers, P, S = kw.get("readers", 1), kw.get("P", 32), kw.get("S", 2)
    full = g.read(0, box=box)
    ref = g.refine(0, box=box, **kw)
    assert isinstance(ref, lodex.Refinement)
    levels = ref.levels
    assert ref.level == 0 and len(ref) == levels
    got = []
    cum = np.zeros(0, dtype=np.uint64)
    for L, part in enumerate(ref):
        assert ref.level == L + 1 and len(ref) == levels - L - 1
        assert set(part) == set(rt.SCHEMA_F8)
        n = len(part["id"])
        assert n <= rt.level_size(readers, P, S, L), (L, n)
        if box is None and L + 1 < levels:
            assert n == rt.level_size(readers, P, S, L)
        if box is not None:
            assert np.all(rt.inside(part["position"], box))
        assert g.last_read_stats["particles"] == n
        got.append(part)
        cum = np.sort(np.concatenate([cum, part["id"]]))
        # levels 0..L of the refinement are exactly the level-L read
        if L in (0, 3, levels - 1):
            assert np.array_equal(cum, ids(g.read(0, box=box, level=L, **kw))), L
    assert len(got) == levels
    with pytest.raises(StopIteration):
        next(ref)
    union = {k: np.concatenate([p[k] for p in got]) for k in rt.SCHEMA_F8}
    assert_unique(union["id"], "refinement")
    tu.assert_same_particles(union, full, rt.SCHEMA_F8)
    if box is None:
        assert levels == rt.num_levels(N, readers, P, S)
        tu.assert_same_particles(union, data, rt.SCHEMA_F8)


def test_refine_fields(clustered):
    path, data = clustered
    g = group(path)
    box = BOXES[1]
    parts = list(g.refine(0, box=box, fields=["id", "energy"]))
    assert all(set(p) == {"id", "energy"} for p in parts)
    all_ids = np.concatenate([p["id"] for p in parts])
    assert_unique(all_ids)
    want = rt.select(data, rt.inside(data["position"], box))
    assert np.array_equal(np.sort(all_ids), np.sort(want["id"]))
    energy = np.concatenate([p["energy"] for p in parts])
    order = np.argsort(all_ids)
    assert np.array_equal(energy[order], want["energy"][np.argsort(want["id"])])


def test_refine_other_layout(small):
    path, data = small
    g = group(path)
    parts = list(g.refine(0, readers=2))
    for L, p in enumerate(parts):
        assert len(p["id"]) <= rt.level_size(2, 32, 2, L)
    union = {k: np.concatenate([p[k] for p in parts]) for k in rt.SCHEMA_F4}
    tu.assert_same_particles(union, data, rt.SCHEMA_F4)


# ---------------------------------------------------------------------------------------------
# Fairness over space
# ---------------------------------------------------------------------------------------------

def octant(pos: np.ndarray, box=rt.UNIT) -> np.ndarray:
    lo = np.asarray(box[0]); hi = np.asarray(box[1])   # noqa: E702
    mid = (lo + hi) / 2
    return (pos >= mid).astype(np.int64) @ np.array([1, 2, 4])


def grid_cell(pos: np.ndarray, k: int = 4, box=rt.UNIT) -> np.ndarray:
    lo = np.asarray(box[0]); hi = np.asarray(box[1])   # noqa: E702
    c = np.clip(np.floor((pos - lo) / (hi - lo) * k).astype(np.int64), 0, k - 1)
    return c @ np.array([1, k, k * k])


def check_even(sample_pos: np.ndarray, all_pos: np.ndarray, cells_of, ncells: int, what: str) -> None:
    n = len(sample_pos)
    want = np.bincount(cells_of(all_pos), minlength=ncells) / len(all_pos)
    got = np.bincount(cells_of(sample_pos), minlength=ncells)
    bad = [(c, int(got[c]), round(n * want[c], 1)) for c in range(ncells) if not rt.share_ok(got[c], n, want[c])]
    assert not bad, f"{what}: {n} particles; cells (cell, got, expected) off by > 5 sigma: {bad[:8]}"


def test_data_is_clustered(clustered):
    """The fairness tests below mean something: octant shares differ a lot."""
    _, data = clustered
    share = np.bincount(octant(data["position"]), minlength=8) / N
    assert share.max() > 5 * share.min()
    cells = np.bincount(grid_cell(data["position"]), minlength=64) / N
    assert cells.max() > 20 * cells.min()


def test_levels_are_fair(clustered):
    path, data = clustered
    g = group(path)
    checked = 0
    for L in range(rt.num_levels(N, 1, 32, 2)):
        got = g.read(0, level=L, fields=["position"])
        if len(got["position"]) < 2000:
            continue
        check_even(got["position"], data["position"], octant, 8, f"level {L} octants")
        check_even(got["position"], data["position"], grid_cell, 64, f"level {L} 4x4x4 grid")
        checked += 1
    assert checked >= 5


def test_refinement_levels_are_fair(clustered):
    """Each level of a refinement alone is a fair sample too."""
    path, data = clustered
    g = group(path)
    checked = 0
    for L, part in enumerate(g.refine(0, fields=["position"], P=100)):
        if len(part["position"]) >= 2000:
            check_even(part["position"], data["position"], octant, 8, f"refinement level {L}")
            check_even(part["position"], data["position"], grid_cell, 64, f"refinement level {L} grid")
            checked += 1
    assert checked >= 3   # the check above really ran on several levels


@pytest.mark.parametrize("f", [0.02, 0.05, 0.2, 0.6])
def test_fractions_are_fair(clustered, f):
    path, data = clustered
    g = group(path)
    got = g.read(0, fraction=f, fields=["position"])
    check_even(got["position"], data["position"], octant, 8, f"fraction {f} octants")
    check_even(got["position"], data["position"], grid_cell, 64, f"fraction {f} grid")


def test_box_sample_is_fair(clustered):
    """Within a box, a level read keeps every region's share of the box's particles."""
    path, data = clustered
    g = group(path)
    box = ((0.1, 0.1, 0.1), (0.9, 0.7, 0.8))
    pos = data["position"][rt.inside(data["position"], box)]
    for L in (6, 8):
        got = g.read(0, box=box, level=L, fields=["position"])
        assert len(got["position"]) >= 2000
        check_even(got["position"], pos, lambda p: octant(p, box), 8, f"box level {L}")
        check_even(got["position"], pos, lambda p: grid_cell(p, 4, box), 64, f"box level {L} grid")


# ---------------------------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [None, ["id"], ["position", "energy"]])
def test_bytes_read_level(clustered, fields):
    """Whole segments are read (checksums): at most about S times the rows needed, never whole
    files for a small level."""
    path, _ = clustered
    g = group(path)
    total_bytes = sum(f["file_bytes"] for f in g.files(0))
    checked = 0
    for L in range(rt.num_levels(N, 1, 32, 2)):
        got = g.read(0, level=L, fields=fields)
        s = g.last_read_stats
        if s["particles"] < 1000:
            continue
        assert s["bytes_returned"] == sum(a.nbytes for a in got.values())
        over = s["head_bytes"] + s["metadata_bytes"]
        assert s["bytes_read"] <= 3 * s["bytes_returned"] + over, (L, s)
        assert s["bytes_read"] >= s["bytes_returned"] + over
        checked += 1
    assert checked >= 6
    g.read(0, level=5, fields=fields)
    assert g.last_read_stats["bytes_read"] < total_bytes / 10


@pytest.mark.parametrize("f", [0.01, 0.1, 0.5])
def test_bytes_read_fraction(clustered, f):
    path, _ = clustered
    g = group(path)
    g.read(0, fraction=f)
    s = g.last_read_stats
    assert s["bytes_read"] <= 3 * s["bytes_returned"] + s["head_bytes"] + s["metadata_bytes"], s


def test_refine_bytes_read(clustered):
    """A refinement reads each level's new rows (plus whole segments), not everything again."""
    path, _ = clustered
    g = group(path)
    total_bytes = sum(f["file_bytes"] for f in g.files(0))
    ref = g.refine(0)
    read = 0
    for part in ref:
        s = ref.last_read_stats
        assert s["particles"] == len(part["id"])
        read += s["bytes_read"]
    assert read <= 2.5 * total_bytes


# ---------------------------------------------------------------------------------------------
# Degenerate steps: empty, one particle, all at one point, all on a plane, fewer than P
# ---------------------------------------------------------------------------------------------

def edge_steps() -> dict:
    rng = np.random.default_rng(606)
    plane = rng.random((5000, 3))
    plane[:, 2] = 0.5
    return {0: np.zeros((0, 3)), 1: np.array([[0.5, 0.5, 0.5]]), 2: np.full((3000, 3), 0.25),
            3: plane, 4: rng.random((20, 3))}


@pytest.fixture(scope="module")
def edge(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("lod") / "edge.lodex")
    steps = {}
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=rt.SCHEMA_F8, domain=rt.UNIT, partition_grid=(2, 2, 2),
                                lod={"brick_target": 1})
        for s, pos in edge_steps().items():
            steps[s] = rt.particles_f8(pos, seed=606 + s, id_base=s * 10**6)
            g.write(step=s, data=steps[s])
    return path, steps


@pytest.mark.parametrize("step", [0, 1, 2, 3, 4])
def test_degenerate_steps(edge, step):
    path, steps = edge
    data = steps[step]
    n = len(data["id"])
    g = group(path)
    tu.assert_same_particles(g.read(step), data, rt.SCHEMA_F8)
    levels = rt.num_levels(n, 1, 32, 2)
    prev = np.zeros(0, dtype=np.uint64)
    for L in range(levels):
        cur = ids(g.read(step, level=L))
        assert len(cur) == min(n, rt.level_sum(1, 32, 2, L))
        assert_subset(prev, cur)
        prev = cur
    assert len(prev) == n
    for past in (levels, levels + 7):   # past the last level: everything (nothing without candidates)
        assert np.array_equal(ids(g.read(step, level=past)), prev)
    for f in (1e-9, 0.5, 1.0):
        assert len(g.read(step, fraction=f)["id"]) == rt.fraction_count(f, n)
    parts = list(g.refine(step))
    union = {k: np.concatenate([p[k] for p in parts]) for k in rt.SCHEMA_F8}
    tu.assert_same_particles(union, data, rt.SCHEMA_F8)
    for box in [((0.25, 0.25, 0.25), (0.2500001, 0.26, 0.26)), ((0.0, 0.0, 0.5), (1.0, 1.0, 0.5000001)),
                ((0.5, 0.5, 0.5), (0.6, 0.6, 0.6)), ((0.0, 0.0, 0.0), (0.25, 1.0, 1.0)),
                ((0.0, 0.0, 0.0), (1.0, 1.0, 0.5)), ((0.0, 0.0, 0.0), (0.5, 0.5, 0.5))]:
        want = rt.select(data, rt.inside(data["position"], box))
        tu.assert_same_particles(g.read(step, box=box), want, rt.SCHEMA_F8)
        lvl = g.read(step, box=box, level=0)
        assert len(lvl["id"]) <= 32 and np.all(np.isin(lvl["id"], want["id"]))
        parts = list(g.refine(step, box=box))
        assert np.array_equal(np.sort(np.concatenate([p["id"] for p in parts])), np.sort(want["id"]))
