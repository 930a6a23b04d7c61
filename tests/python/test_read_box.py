"""Box queries against a numpy brute force (serial, no MPI): random boxes, boxes on partition
and brick faces, empty and unbounded boxes, field selection, f4 and f8 positions, and what a
box read costs (which files it opens, how many bytes it reads)."""

from __future__ import annotations

import math
import os
import shutil

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
import read_testutil as rt

GROUP = "p"
INF = math.inf


def write(path: str, schema: dict, data: dict, domain, grid, lod: dict, steps=(0,)) -> None:
    with lodex.create(path) as ds:
        g = ds.define_particles(GROUP, schema=schema, domain=domain, partition_grid=grid, lod=lod)
        for s in steps:
            g.write(step=s, data=data if s == steps[0] else other_step(data))


def other_step(data: dict) -> dict:
    """A different step: half the particles, shifted ids (a read of the wrong step shows)."""
    out = {k: v[::2].copy() for k, v in data.items()}
    out["id"] = out["id"] + np.uint64(10**9)
    return out


class DS:
    """One written dataset and the particles it holds (step 0)."""

    def __init__(self, path, schema, data, domain, grid):
        self.path, self.schema, self.data, self.domain, self.grid = path, schema, data, domain, grid

    def group(self):
        return lodex.open(self.path).particles[GROUP]


@pytest.fixture(scope="module")
def uniform(tmp_path_factory):
    """f8 positions, unit domain, grid (2,2,2), small bricks (64 per file): 40000 random
    particles plus a 16^3 lattice that puts particles exactly on partition and brick faces."""
    rng = np.random.default_rng(101)
    pos = np.concatenate([rt.uniform_positions(rng, 40000), rt.lattice_positions(rt.UNIT, 16)])
    data = rt.particles_f8(pos, seed=101)
    path = str(tmp_path_factory.mktemp("box") / "uniform.lodex")
    write(path, rt.SCHEMA_F8, data, rt.UNIT, (2, 2, 2), {"brick_target": 64}, steps=(0, 1))
    return DS(path, rt.SCHEMA_F8, data, rt.UNIT, (2, 2, 2))


@pytest.fixture(scope="module")
def clustered(tmp_path_factory):
    """f4 positions, clustered (3 blobs + background) in a non-unit domain, grid (3,2,1)."""
    rng = np.random.default_rng(202)
    pos = np.concatenate([rt.clustered_positions(rng, 60000, rt.ODD_DOMAIN, np.float32),
                          rt.lattice_positions(rt.ODD_DOMAIN, 12, np.float32)])
    data = rt.particles_f4(pos, seed=202)
    path = str(tmp_path_factory.mktemp("box") / "clustered.lodex")
    write(path, rt.SCHEMA_F4, data, rt.ODD_DOMAIN, (3, 2, 1), {"brick_target": 32})
    return DS(path, rt.SCHEMA_F4, data, rt.ODD_DOMAIN, (3, 2, 1))


@pytest.fixture(scope="module", params=["uniform", "clustered"])
def dataset(request):
    return request.getfixturevalue(request.param)


def random_boxes(seed: int, domain, n: int) -> list:
    """Boxes of every size, some snapped to a 1/8 lattice of the domain, some unbounded, some
    reaching outside the domain, some tiny."""
    rng = np.random.default_rng(seed)
    lo = np.asarray(domain[0], dtype=np.float64)
    hi = np.asarray(domain[1], dtype=np.float64)
    ext = hi - lo
    boxes = []
    for i in range(n):
        kind = i % 6
        c = lo - 0.1 * ext + rng.random(3) * 1.2 * ext
        size = ext * rng.random(3) ** (1 + kind % 3)
        if kind == 5:
            size = ext * 1e-3 * rng.random(3)
        b0, b1 = c - size / 2, c + size / 2
        if kind == 3:   # on lattice faces
            b0 = lo + np.floor((b0 - lo) / ext * 8) / 8 * ext
            b1 = lo + np.ceil((b1 - lo) / ext * 8) / 8 * ext
        b0, b1 = [float(v) for v in b0], [float(v) for v in b1]
        if kind == 4:   # some faces unbounded
            for a in range(3):
                if rng.random() < 0.4:
                    b0[a] = -INF
                if rng.random() < 0.4:
                    b1[a] = INF
        boxes.append((tuple(b0), tuple(b1)))
    return boxes


def check_box(g, ds: DS, box, step: int = 0) -> dict:
    got = g.read(step, box=box)
    want = rt.select(ds.data, rt.inside(ds.data["position"], box))
    try:
        tu.assert_same_particles(got, want, ds.schema)
    except AssertionError as e:
        raise AssertionError(f"box {box}: {e}") from None
    return got


def files_meeting(g, box, step: int = 0) -> list[dict]:
    return [f for f in g.files(step) if rt.bounds_meet(f["bounds"], box)]


# ---------------------------------------------------------------------------------------------
# Correctness
# ---------------------------------------------------------------------------------------------

def test_dataset_layout(uniform, clustered):
    """The fixtures have what the other tests rely on: several files, several bricks per file."""
    for ds, nfiles in ((uniform, 8), (clustered, 6)):
        g = ds.group()
        files = g.files(0)
        assert len(files) == nfiles
        assert sum(f["count"] for f in files) == len(ds.data["id"])
        sdir = tu.step_dir(ds.path, GROUP, 0)
        for f in files:
            h = tu.parse_particle_file(os.path.join(sdir, f["file"]))
            assert h["brick_bits"] >= 1 and h["num_levels"] >= 3, f["file"]


def test_random_boxes(dataset):
    g = dataset.group()
    boxes = random_boxes(len(dataset.data["id"]), dataset.domain, 120)
    nonempty = 0
    for box in boxes:
        got = check_box(g, dataset, box)
        nonempty += len(got["id"]) > 0
        stats = g.last_read_stats
        meet = files_meeting(g, box)
        assert stats["files_opened"] == len(meet), box
        assert stats["particles"] == len(got["id"])
        assert stats["bytes_returned"] == sum(a.nbytes for a in got.values())
    assert nonempty > 60   # the boxes are not all trivially empty


def face_boxes(domain) -> list:
    """Boxes whose faces are exactly on multiples of 1/8 of the domain (partition faces at 1/2
    and 1/3, brick cell faces at 1/8, 1/4, 3/4, ...)."""
    lo = np.asarray(domain[0], dtype=np.float64)
    ext = np.asarray(domain[1], dtype=np.float64) - lo
    at = lambda a, t: float(lo[a] + t * ext[a])   # noqa: E731
    out = []
    for t0, t1 in [(0.25, 0.5), (0.5, 0.75), (0.25, 0.75), (0.0, 0.25), (0.75, 1.0), (0.125, 0.375),
                   (0.5, 1.0), (0.0, 0.5), (1 / 3, 2 / 3), (0.0, 1 / 3), (0.5, 0.5 + 1 / 16)]:
        out.append(((at(0, t0), at(1, t0), at(2, t0)), (at(0, t1), at(1, t1), at(2, t1))))
        out.append(((at(0, t0), at(1, 0), at(2, 0)), (at(0, t1), at(1, 1), at(2, 1))))   # a slab
        out.append(((at(0, 0), at(1, t0), at(2, 0.25)), (at(0, 0.5), at(1, t1), at(2, 0.75))))
    return out


def test_boxes_on_faces(dataset):
    g = dataset.group()
    for box in face_boxes(dataset.domain):
        check_box(g, dataset, box)
        assert g.last_read_stats["files_opened"] == len(files_meeting(g, box))


def test_lattice_particles_on_faces(uniform):
    """Particles exactly on a box's min face are in, on its max face out."""
    g = uniform.group()
    box = ((0.25, 0.5, 0.75), (0.5, 0.75, 1.0))
    got = check_box(g, uniform, box)
    pos = got["position"]
    assert np.any(pos[:, 0] == 0.25) and np.any(pos[:, 1] == 0.5) and np.any(pos[:, 2] == 0.75)
    assert not np.any(pos[:, 0] == 0.5) and not np.any(pos[:, 1] == 0.75)
    # The lattice points just below the max faces are in.
    assert np.any(pos[:, 0] == 0.5 - 1 / 16) and np.any(pos[:, 1] == 0.75 - 1 / 16)


def test_box_none_and_unbounded_equal_full(dataset):
    g = dataset.group()
    full = g.read(0)
    tu.assert_same_particles(full, dataset.data, dataset.schema)
    for box in [((-INF, -INF, -INF), (INF, INF, INF)), ((-1e300,) * 3, (1e300,) * 3),
                ((-10.0, -10.0, -10.0), (10.0, 10.0, 10.0)), (dataset.domain[0], dataset.domain[1])]:
        got = g.read(0, box=box)
        tu.assert_same_particles(got, dataset.data, dataset.schema)
        assert g.last_read_stats["files_opened"] == len(g.files(0))


@pytest.mark.parametrize("box", [
    ((0.5, -INF, -INF), (INF, INF, INF)),
    ((-INF, -INF, 0.25), (0.75, 0.5, INF)),
    ((-INF, 0.3, 0.3), (0.31, 0.6, 0.9)),
    ((0.1, 0.2, -INF), (0.9, 0.8, 0.4)),
], ids=["half_space", "mixed", "neg_inf_x", "neg_inf_z"])
def test_infinite_coordinates(uniform, box):
    g = uniform.group()
    check_box(g, uniform, box)
    assert g.last_read_stats["files_opened"] == len(files_meeting(g, box))


EMPTY_BOXES = [
    ((2.0, 2.0, 2.0), (3.0, 3.0, 3.0)),                  # beyond the domain
    ((-5.0, -5.0, -5.0), (-4.0, 4.0, 4.0)),              # below on x only
    ((-INF, -INF, -INF), (-1e9, INF, INF)),              # unbounded but beside the domain
    ((0.25, 0.0, 0.0), (0.25, 1.0, 1.0)),                # zero width on a lattice face
    ((0.0, 0.5, 0.0), (1.0, 0.5, 1.0)),                  # zero height on a partition face
    ((0.3, 0.3, 0.3), (0.3, 0.3, 0.3)),                  # a point
    ((INF, INF, INF), (INF, INF, INF)),
]


@pytest.mark.parametrize("box", EMPTY_BOXES, ids=[str(i) for i in range(len(EMPTY_BOXES))])
def test_empty_boxes(uniform, box):
    g = uniform.group()
    got = g.read(0, box=box)
    assert list(got) == list(rt.SCHEMA_F8)
    for k, spec in rt.SCHEMA_F8.items():
        dt, comps = (spec, 1) if isinstance(spec, str) else spec
        assert got[k].dtype == np.dtype(dt)
        assert got[k].shape == ((0,) if comps == 1 else (0, comps)), (k, got[k].shape)
    stats = g.last_read_stats
    assert stats["particles"] == 0 and stats["bytes_returned"] == 0
    assert stats["files_opened"] == 0
    # Field selection on an empty result too.
    got = g.read(0, box=box, fields=["vel", "id"])
    assert set(got) == {"vel", "id"}
    assert got["vel"].shape == (0, 3) and got["vel"].dtype == np.float32
    assert got["id"].shape == (0,) and got["id"].dtype == np.uint64


def test_empty_box_f4(clustered):
    g = clustered.group()
    got = g.read(0, box=((10.0, 10.0, 10.0), (11.0, 11.0, 11.0)))
    assert got["position"].shape == (0, 3) and got["position"].dtype == np.float32
    assert got["tag"].shape == (0,) and got["tag"].dtype == np.int16


@pytest.mark.parametrize("fields", [["id"], ["position"], ["vel", "id"], ["energy", "position", "vel"],
                                    "energy", ["id", "energy", "vel", "position"]])
def test_field_selection(uniform, fields):
    g = uniform.group()
    want_keys = [fields] if isinstance(fields, str) else list(fields)
    for box in [None, ((0.1, 0.2, 0.3), (0.6, 0.55, 0.9)), ((0.5, 0.0, 0.0), (1.0, 0.5, 0.5))]:
        got = g.read(0, box=box, fields=fields)
        assert set(got) == set(want_keys)
        full = g.read(0, box=box)
        n = len(full["id"])
        for k in want_keys:
            assert got[k].dtype == full[k].dtype and got[k].shape == full[k].shape
        # The same rows as the full read of that box.
        for k in want_keys:
            assert np.array_equal(rows_sorted(got[k]), rows_sorted(full[k])), k
        if "id" in want_keys:
            g_sorted, f_sorted = tu.sort_by(got), tu.sort_by(full)
            for k in want_keys:
                assert np.array_equal(tu.bits(g_sorted[k]), tu.bits(f_sorted[k])), k
        assert g.last_read_stats["particles"] == n


def rows_sorted(a: np.ndarray) -> np.ndarray:
    """The rows of an (n,) or (n, c) array as sorted opaque byte strings (order-free compare)."""
    a = np.ascontiguousarray(a)
    width = a.itemsize * (a.shape[1] if a.ndim == 2 else 1)
    return np.sort(a.view(np.dtype((np.void, width))).ravel())


def test_field_selection_without_position_f4(clustered):
    """A box read that does not return positions still filters by them (f4 positions)."""
    g = clustered.group()
    for box in random_boxes(5, clustered.domain, 12):
        got = g.read(0, box=box, fields=["tag", "id"])
        want = rt.select(clustered.data, rt.inside(clustered.data["position"], box))
        order_g, order_w = np.argsort(got["id"]), np.argsort(want["id"])
        assert np.array_equal(got["id"][order_g], want["id"][order_w]), box
        assert np.array_equal(got["tag"][order_g], want["tag"][order_w]), box


def test_f4_positions_rounding(clustered):
    """f4 positions compared as f64 against box faces placed exactly on and next to an f4
    value present in the data."""
    g = clustered.group()
    pos = clustered.data["position"]
    rng = np.random.default_rng(3)
    for i in rng.choice(len(pos), 20, replace=False):
        p = pos[i].astype(np.float64)
        for lo_x in (p[0], np.nextafter(p[0], INF), np.nextafter(p[0], -INF)):
            box = ((float(lo_x), p[1] - 0.05, p[2] - 0.01), (float(p[0]) + 0.3, p[1] + 0.05, p[2] + 0.01))
            check_box(g, clustered, box)
        box = ((p[0] - 0.3, p[1] - 0.05, p[2] - 0.01), (float(p[0]), p[1] + 0.05, p[2] + 0.01))
        got = check_box(g, clustered, box)
        assert not np.any(got["id"] == clustered.data["id"][i])   # max exclusive


def test_other_step(uniform):
    g = uniform.group()
    box = ((0.2, 0.2, 0.2), (0.7, 0.9, 0.6))
    want = rt.select(other_step(uniform.data), rt.inside(other_step(uniform.data)["position"], box))
    tu.assert_same_particles(g.read(1, box=box), want, uniform.schema)


def test_repeatable(clustered):
    g = clustered.group()
    box = ((0.0, 0.1, 2.05), (1.5, 0.4, 2.2))
    a, b = g.read(0, box=box), g.read(0, box=box)
    for k in a:
        assert np.array_equal(tu.bits(a[k]), tu.bits(b[k]))


# ---------------------------------------------------------------------------------------------
# Costs
# ---------------------------------------------------------------------------------------------

def test_files_opened_match_bounds(clustered):
    g = clustered.group()
    files = g.files(0)
    # A box inside one file's bounds only, and one straddling exactly two files.
    f0 = files[0]
    lo, hi = f0["bounds"]["min"], f0["bounds"]["max"]
    inner = (tuple(lo), tuple((a + b) / 2 for a, b in zip(lo, hi)))
    check_box(g, clustered, inner)
    assert g.last_read_stats["files_opened"] == len(files_meeting(g, inner)) == 1
    for box in random_boxes(11, clustered.domain, 30):
        g.read(0, box=box, fields=["id"])
        assert g.last_read_stats["files_opened"] == len(files_meeting(g, box)), box


def test_untouched_file_is_never_opened(uniform, tmp_path):
    """Deleting a data file the box does not meet leaves the box read (and a level read of the
    box) working: it is never opened."""
    path = str(tmp_path / "copy.lodex")
    shutil.copytree(uniform.path, path)
    g = lodex.open(path).particles[GROUP]
    files = g.files(0)
    box = ((0.05, 0.1, 0.1), (0.45, 0.45, 0.9))   # partitions 0 and 4 only
    meet = {f["file"] for f in files_meeting(g, box)}
    assert meet == {"p000000.lpd", "p000004.lpd"}
    sdir = tu.step_dir(path, GROUP, 0)
    for f in files:
        if f["file"] not in meet:
            os.remove(os.path.join(sdir, f["file"]))
    ds = DS(path, uniform.schema, uniform.data, uniform.domain, uniform.grid)
    check_box(g, ds, box)
    assert g.last_read_stats["files_opened"] == 2
    lvl = g.read(0, box=box, level=2)
    assert 0 < len(lvl["id"]) <= rt.level_sum(1, 32, 2, 2)
    assert set(lvl["id"].tolist()) <= set(rt.select(uniform.data,
                                                    rt.inside(uniform.data["position"], box))["id"].tolist())
    with pytest.raises(lodex.Error) as ei:   # the whole step does need them
        g.read(0)
    assert any(name in str(ei.value) for name in ("p000001.lpd", "p000002.lpd", "p000003.lpd"))


def max_brick_bytes(path: str, g, files: list, fields) -> int:
    """Bytes of the largest brick (all levels) of these files, for these fields."""
    sdir = tu.step_dir(path, GROUP, 0)
    best = 0
    for f in files:
        h = tu.parse_particle_file(os.path.join(sdir, f["file"]))
        nb, nl = h["num_bricks"], h["num_levels"]
        st = h["segment_starts"]
        rb = sum(DT_SIZE[c["dtype"]] * c["components"] for c in h["fields"] if fields is None or c["name"] in fields)
        for m in range(nb):
            cnt = sum(st[k * nb + m + 1] - st[k * nb + m] for k in range(nl))
            best = max(best, cnt * rb)
    return best


DT_SIZE = tu.DTYPE_SIZES


@pytest.mark.parametrize("box,fields", [
    (((0.0, 0.0, 0.0), (0.5, 0.5, 1.0)), None),
    (((0.5, 0.0, 0.5), (1.0, 1.0, 1.0)), None),
    (((0.0, 0.5, 0.0), (1.0, 1.0, 0.5)), ["id"]),
    (((0.0, 0.0, 0.0), (0.25, 0.25, 0.25)), None),           # brick cell faces
    (((0.25, 0.5, 0.0), (0.5, 0.75, 0.125)), ["energy", "position"]),
    (((-INF, -INF, -INF), (0.5, INF, INF)), ["vel"]),
], ids=["p0p4", "p5p7", "ids_slab", "cells", "cells_fields", "half_inf"])
def test_bytes_read_aligned_box(uniform, box, fields):
    g = uniform.group()
    got = g.read(0, box=box, fields=fields)
    want = rt.inside(uniform.data["position"], box)
    assert len(got[next(iter(got))]) == int(want.sum())
    s = g.last_read_stats
    meet = files_meeting(g, box)
    brick = max_brick_bytes(uniform.path, g, meet, fields)
    assert s["bytes_returned"] > 0
    limit = 1.25 * s["bytes_returned"] + s["metadata_bytes"] + s["head_bytes"] + brick
    assert s["bytes_read"] <= limit, s
    assert s["bytes_read"] >= s["bytes_returned"] + s["metadata_bytes"] + s["head_bytes"]


def test_bytes_read_small_box(uniform):
    """A small box reads about the bricks it meets, not whole files."""
    g = uniform.group()
    box = ((0.3, 0.3, 0.3), (0.33, 0.33, 0.33))
    g.read(0, box=box)
    s = g.last_read_stats
    files = g.files(0)
    file_bytes = {f["file"]: f["file_bytes"] for f in files}
    meet = files_meeting(g, box)
    assert s["files_opened"] == len(meet) == 1
    columns = s["bytes_read"] - s["metadata_bytes"] - s["head_bytes"]
    assert columns <= 8 * max_brick_bytes(uniform.path, g, meet, None)
    assert columns < file_bytes[meet[0]["file"]] / 4


@pytest.mark.parametrize("name", ["uniform", "clustered"])
@pytest.mark.parametrize("readers", [1, 2, 3, 5, 8])
def test_spatial_split_boxes_partition_the_query(request, name, readers):
    """p.spatial_split: every particle of the query lies in exactly one reader's box; on uniform
    data the boxes hold about equal shares (cuts follow the metadata's even-spread estimate, so
    clustered data inside one file is not balanced)."""
    dataset = request.getfixturevalue(name)
    g = lodex.open(dataset.path).particles[GROUP]
    pos = dataset.data["position"]
    for box in (None, random_boxes(31, dataset.domain, 3)[1]):
        parts = g.spatial_split(0, readers=readers, box=box)
        assert len(parts) == readers
        inq = np.ones(len(pos), bool) if box is None else rt.inside(pos, box)
        owners = sum(rt.inside(pos, b).astype(int) for b in parts)
        assert np.array_equal(owners, inq.astype(int))
    if readers > 1 and name == "uniform":
        counts = [int(rt.inside(pos, b).sum()) for b in g.spatial_split(0, readers=readers)]
        assert max(counts) <= 2.0 * len(pos) / readers
    with pytest.raises(lodex.InvalidArgumentError):
        g.spatial_split(0, readers=0)


def test_small_data_box_reads_read_little_more_than_the_box(tmp_path):
    """Bricks sized for the data (the default): 100,000 particles in 8 files, box reads of a cube
    of side 0.25 at 20 places read at most 6 bytes per byte they return (the former 4,096
    particles per brick read about 19: 8 bricks per file at most), and every answer is exact."""
    rng = np.random.default_rng(11)
    n = 100_000
    schema = {"position": ("f8", 3), "energy": "f4", "id": "u8"}
    data = {"position": rng.random((n, 3)), "energy": rng.random(n).astype(np.float32),
            "id": np.arange(n, dtype=np.uint64)}
    ratios = {}
    for name, lod in (("data", None), ("fixed", {"brick_target": 4096})):
        path = str(tmp_path / f"{name}.lodex")
        with lodex.create(path) as ds:
            ds.define_particles("p", schema=schema, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2),
                                lod=lod).write(0, data=data)
        g = lodex.open(path).particles["p"]
        boxes = np.random.default_rng(5)
        read = returned = 0
        for _ in range(20):
            lo = boxes.random(3) * 0.75
            box = (tuple(lo), tuple(lo + 0.25))
            got = g.read(0, box=box)
            want = rt.inside(data["position"], box)
            assert np.array_equal(np.sort(got["id"]), data["id"][want])
            read += g.last_read_stats["bytes_read"]
            returned += len(got["id"]) * 36
        ratios[name] = read / returned
    assert ratios["data"] <= 6, ratios
    assert ratios["fixed"] > 3 * ratios["data"], ratios
