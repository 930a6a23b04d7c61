"""The scale model's series (STAR) and grid parts (lodex.scale.series, lodex.scale.grid,
docs/scale.md): the planners' previews against numpy and against a real write and read, the
model's invariants and closed-form limits, the Jaguar fit and the STAR validation table, the
series and grid advice and `lodex advise --kind series|grid`."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import lodex
from lodex.errors import InvalidArgumentError
from lodex.planning import advise, plan_grid, plan_series, split_series_read
from lodex.scale import MACHINES
from lodex.scale import machines as machines_mod
from lodex.scale import series as S
from lodex.scale.grid import grid_boxes, grid_traffic
from lodex.scale.model import predict, write_load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JAGUAR = MACHINES["jaguar"]
BLOCK = 4096


def cli(*args):
    return subprocess.run([sys.executable, "-m", "lodex.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def boxes_2d(dims, gx, gy):
    xc = [dims[0] * i // gx for i in range(gx + 1)]
    yc = [dims[1] * j // gy for j in range(gy + 1)]
    return np.array([[xc[i], yc[j], 0, xc[i + 1], yc[j + 1], dims[2]] for j in range(gy) for i in range(gx)])


# ---- the series preview against numpy ------------------------------------------------------------------------------

DIMS = (37, 22, 6)
VARS = [("f4", 3), ("f8", 2), ("i2", 3)]


@pytest.mark.parametrize("d_sar", [0, 1, 2])
def test_series_chunks_tile_the_grid(d_sar):
    boxes = boxes_2d(DIMS, 8, 4)
    pv = plan_series(DIMS, boxes, VARS, d_tar=5, d_sar=d_sar)
    assert (pv.d_tar, pv.d_sar, pv.decomposed_axes, tuple(pv.cells)) == (5, d_sar, 2, (8, 4, 1))
    c = pv.chunks
    assert c.shape == (math.ceil(8 / 2**d_sar) * math.ceil(4 / 2**d_sar), 6)
    assert np.prod(c[:, 3:] - c[:, :3], axis=1).sum() == np.prod(DIMS)   # the chunks tile the grid
    own = c[pv.chunk_of_rank]
    assert np.all(own[:, :3] <= boxes[:, :3]) and np.all(boxes[:, 3:] <= own[:, 3:])   # a rank lies in its chunk
    # the writer of (v, chunk) is a rank of that chunk, and level by level the aggregators nest
    w = pv.writers
    assert w.shape == (len(VARS), c.shape[0])
    assert np.all(pv.chunk_of_rank[w] == np.arange(c.shape[0])[None, :])
    if d_sar:
        r = int(w[1, 0])
        assert pv.aggregator(1, d_sar, r) == r and r in pv.senders(1, d_sar, r)
    # step bytes (largest rank, over all variables) and DataSize_ts (average variable per rank)
    vol = np.prod(boxes[:, 3:] - boxes[:, :3], axis=1)
    area = vol // DIMS[2]
    per_rank = vol * 4 + area * 8 + vol * 2
    assert pv.step_bytes == per_rank.max() and pv.var_step_bytes == per_rank.sum() // (len(VARS) * len(boxes))


def test_series_window_head_against_numpy():
    pv = plan_series(DIMS, boxes_2d(DIMS, 8, 4), VARS, d_tar=5, d_sar=1)
    h = pv.window_head(3)
    c = pv.chunks
    vol = np.prod(c[:, 3:] - c[:, :3], axis=1)
    area = vol // DIMS[2]
    want = np.stack([vol * 4 * 3, area * 8 * 3, vol * 2 * 3])
    np.testing.assert_array_equal(h["bytes"], want)
    ends = h["offset"].ravel() + h["bytes"].ravel()
    assert h["offset"].ravel()[0] == h["data_offset"] and np.array_equal(ends[:-1], h["offset"].ravel()[1:])
    assert h["file_bytes"] == ends[-1] and h["data_offset"] % 4096 == 0
    np.testing.assert_array_equal(h["planes"], np.stack([c[:, 5] - c[:, 2], np.ones(len(c)), c[:, 5] - c[:, 2]]))


def numpy_window_read(pv, v, n, ks, box, gap, cap=0):
    """Oracle: the byte offset of every needed sample in the window file, then its 4 KiB blocks
    per chunk, runs of neighbouring blocks, and ranges merged over ``gap`` (cut at ``cap``)."""
    h = pv.window_head(n)
    dtype_bytes = {0: 4, 1: 8, 2: 2}[v]
    ndim = VARS[v][1]
    (x0, y0, z0), (x1, y1, z1) = box
    if ndim == 2:
        z0, z1 = 0, 1
    runs, blocks = [], 0
    for ci, cb in enumerate(pv.chunks):
        lo, hi = cb[:3].copy(), cb[3:].copy()
        if ndim == 2:
            lo[2], hi[2] = 0, 1
        rx0, ry0, rz0 = max(lo[0], x0), max(lo[1], y0), max(lo[2], z0)
        rx1, ry1, rz1 = min(hi[0], x1), min(hi[1], y1), min(hi[2], z1)
        if rx0 >= rx1 or ry0 >= ry1 or rz0 >= rz1:
            continue
        nx, ny, nz = hi - lo
        k, z, y, x = np.meshgrid(np.array(ks), np.arange(rz0, rz1), np.arange(ry0, ry1), np.arange(rx0, rx1),
                                 indexing="ij")
        rel = (((k * nz + (z - lo[2])) * ny + (y - lo[1])) * nx + (x - lo[0])) * dtype_bytes
        b = np.unique(np.concatenate([rel.ravel() // BLOCK, (rel.ravel() + dtype_bytes - 1) // BLOCK]))
        blocks += b.size
        size = int(h["bytes"][v, ci])
        start = np.concatenate(([0], np.nonzero(np.diff(b) > 1)[0] + 1))
        end = np.concatenate((start[1:], [b.size]))
        for s, e in zip(start, end):
            runs.append((int(h["offset"][v, ci]) + int(b[s]) * BLOCK,
                         int(h["offset"][v, ci]) + min((int(b[e - 1]) + 1) * BLOCK, size)))
    runs.sort()
    merged = []
    for lo_, hi_ in runs:
        if merged and lo_ <= merged[-1][1] + gap:
            merged[-1][1] = max(merged[-1][1], hi_)
        else:
            merged.append([lo_, hi_])
    if cap:
        merged = [[a, min(b, a + cap)] for lo_, hi_ in merged for a in range(lo_, hi_, cap) for b in [hi_]]
    return {"blocks": blocks, "data_requests": len(merged), "data_bytes": sum(b - a for a, b in merged)}


@pytest.mark.parametrize("v,ks,box,gap,cap", [
    (0, [0, 1, 2], ((3, 2, 0), (4, 3, 6)), 0, 0),           # a column across steps
    (0, [1], ((0, 0, 2), (37, 22, 3)), 0, 0),               # a z plane, one step
    (1, [0, 2], ((5, 0, 0), (6, 22, 1)), 0, 0),             # a 2-D variable's y line
    (2, [0, 1, 2], ((0, 11, 0), (37, 12, 6)), 8192, 0),     # an xz plane, sieved over 8 KiB gaps
    (0, [2, 0], ((10, 4, 1), (30, 19, 5)), 1 << 20, 16384),  # a box, merged then cut at 16 KiB
])
def test_series_window_read_against_numpy(v, ks, box, gap, cap):
    pv = plan_series(DIMS, boxes_2d(DIMS, 8, 4), VARS, d_tar=5, d_sar=1)
    got = pv.window_read(v, 3, ks, (*box[0], *box[1]), gap, cap)
    want = numpy_window_read(pv, v, 3, ks, box, gap, cap)
    assert {k: got[k] for k in want} == want
    assert got["checksum_bytes"] >= 8 * got["blocks"] if gap else got["checksum_bytes"] == 8 * got["blocks"]


def test_series_preview_is_what_a_real_read_does(tmp_path):
    """One writer (one chunk per variable): the preview's requests and bytes are the reader's
    last_read_stats, window by window."""
    dims, names = (23, 14, 5), ["T", "PS"]
    variables = {"T": ("f4", 3), "PS": ("f4", 2)}
    rng = np.random.default_rng(7)
    ds = lodex.create(str(tmp_path / "s.lodex"))
    s = ds.define_series("g", dims=dims, variables=variables, d_tar=3)
    for t in range(7):
        s.write(t, ((0, 0, 0), dims), {"T": rng.random(dims[::-1], dtype=np.float32),
                                        "PS": rng.random(dims[1::-1], dtype=np.float32)})
    ds.close()
    pv = plan_series(dims, [[0, 0, 0, *dims]], [variables[n] for n in names], d_tar=3)
    for name, steps, box, gap in (("T", range(7), ((3, 3, 0), (4, 4, 5)), 0), ("T", [1, 5], ((0, 7, 0), (23, 8, 5)), 0),
                                  ("PS", range(2, 7), ((2, 1, 0), (20, 9, 1)), 0),
                                  ("T", range(7), ((0, 0, 2), (23, 14, 3)), 1 << 20)):
        r = lodex.open(str(tmp_path / "s.lodex")).series["g"]
        r.read(variable=name, steps=list(steps), box=box, merge_gap=gap)
        st = r.last_read_stats
        want = {"requests": 0, "bytes_read": 0, "blocks": 0, "chunks": 0}
        windows = {}
        for t in steps:
            windows.setdefault(t // 3, []).append(t % 3)
        for w, ks in windows.items():
            got = pv.window_read(names.index(name), min(3, 7 - 3 * w), ks, (*box[0], *box[1]), gap)
            want["requests"] += got["head_requests"] + got["data_requests"] + got["checksum_requests"]
            want["bytes_read"] += got["head_bytes"] + got["data_bytes"] + got["checksum_bytes"]
            want["blocks"] += got["blocks"]
            want["chunks"] += got["chunks"]
        assert {k: st[k] for k in want} == want


@pytest.mark.parametrize("steps,box,size", [
    (list(range(30)), (0, 0, 0, 576, 361, 48), 16),    # steps shared
    (list(range(30)), (0, 0, 0, 576, 361, 48), 64),    # more ranks than steps: z has 48 < 64, y 361
    ([3], (100, 0, 0, 101, 361, 48), 512),              # no axis has 512: the longest (y, 361)
    ([3], (0, 0, 0, 300, 20, 48), 512),                 # x is the longest
])
def test_split_series_read_rule(steps, box, size):
    parts = [split_series_read(steps, (box[:3], box[3:]), 3, r, size) for r in range(size)]
    if len(steps) >= size:
        assert sum((p[0] for p in parts), []) == steps and all(list(p[1]) == list(box) for p in parts)
        return
    ext = [box[3 + a] - box[a] for a in range(3)]
    axis = next((a for a in (2, 1) if ext[a] >= size), None)
    if axis is None:   # none long enough: the longest, the slower of equals
        axis = max((2, 1, 0), key=lambda a: ext[a])
    lo = [p[1][axis] for p in parts]
    hi = [p[1][3 + axis] for p in parts]
    n = box[3 + axis] - box[axis]
    assert lo == [box[axis] + n * r // size for r in range(size)] and hi == [box[axis] + n * (r + 1) // size
                                                                               for r in range(size)]


def test_series_preview_errors():
    with pytest.raises(InvalidArgumentError, match="overlap|tile|gap|leave"):
        plan_series(DIMS, [[0, 0, 0, 20, 22, 6], [10, 0, 0, 37, 22, 6]], VARS)
    with pytest.raises(InvalidArgumentError, match="2 or 3 axes"):
        plan_series(DIMS, boxes_2d(DIMS, 2, 2), [("f4", 4)])
    with pytest.raises(InvalidArgumentError, match="dtype|f4"):
        plan_series(DIMS, boxes_2d(DIMS, 2, 2), [("complex", 3)])
    with pytest.raises(InvalidArgumentError, match=r"\(ranks, 6\)"):
        plan_series(DIMS, np.zeros((4, 5)), VARS)
    nz = DIMS[2]
    layers = [[0, 0, 0, DIMS[0], DIMS[1], nz // 2], [0, 0, nz // 2, DIMS[0], DIMS[1], nz]]
    with pytest.raises(lodex.UnsupportedError, match="cut the z axis into 2 layers"):   # as a write refuses it
        plan_series(DIMS, layers, [("f4", 3), ("f4", 2)])
    assert plan_series(DIMS, layers, [("f4", 3)]).max_sar_levels == 1
    pv = plan_series(DIMS, boxes_2d(DIMS, 2, 2), VARS, d_tar=2)
    with pytest.raises(InvalidArgumentError, match="past the window"):
        pv.window_read(0, 2, [2], (0, 0, 0, 1, 1, 1), 0)
    with pytest.raises(InvalidArgumentError, match="out of range"):
        pv.window_read(3, 2, [0], (0, 0, 0, 1, 1, 1), 0)


# ---- the grid preview -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("partitions,mode", [(1, "localized"), (8, "localized"), (4, "uniform")])
def test_grid_preview_against_numpy(partitions, mode):
    dims, ranks = (64, 64, 64), 64
    boxes = grid_boxes(dims, ranks)
    pv = plan_grid(dims, boxes, bits_per_block=9, blocks_per_file=16, fields=2, aggregation=mode,
                   partitions=partitions)
    assert pv.partition_bits == int(math.log2(partitions))
    pb = pv.partition_boxes[pv.rank_partitions]
    assert np.all(pb[:, :3] <= boxes[:, :3]) and np.all(boxes[:, 3:] <= pb[:, 3:])   # a rank lies in its partition
    files, units, sends = pv.files, pv.units, pv.sends
    assert files[:, 1].sum() << pv.bits_per_block == np.prod(dims)        # a power-of-two grid: every block full
    assert sorted(map(tuple, units[:, :2].tolist())) == [(f, k) for f in files[:, 0].tolist() for k in range(2)]
    vol = np.prod(boxes[:, 3:] - boxes[:, :3], axis=1)
    if partitions == 1:   # no shared files: each rank's samples go straight to each unit's aggregator, once
        assert np.all(sends[:, 2] == units[sends[:, 0], 2])
        np.testing.assert_array_equal(np.bincount(sends[:, 1], weights=sends[:, 3], minlength=ranks), 2 * vol)
    else:                 # a row ends at the unit's aggregator, or at a collector of the sender's partition
        assert sends[:, 3].sum() >= 2 * np.prod(dims)
        to_agg = sends[:, 2] == units[sends[:, 0], 2]
        parts = pv.rank_partitions
        assert np.all(to_agg | (parts[sends[:, 1]] == parts[sends[:, 2]]))
    by_unit = np.bincount(sends[:, 0], weights=sends[:, 3], minlength=len(units))
    assert np.all(by_unit >= (files[np.searchsorted(files[:, 0], units[:, 0]), 1] << pv.bits_per_block))


@pytest.mark.parametrize("partitions", [2, 8, 64])
def test_grid_partition_boxes_tile_the_grid(partitions):
    dims = (64, 32, 128)
    pv = plan_grid(dims, grid_boxes(dims, 64), partitions=partitions)
    b = np.clip(pv.partition_boxes, 0, np.array(dims * 2))
    assert len(b) == partitions
    assert np.prod(b[:, 3:] - b[:, :3], axis=1).sum() == np.prod(dims)
    cover = np.zeros(dims, dtype=np.int64)
    for lo0, lo1, lo2, hi0, hi1, hi2 in b:
        cover[lo0:hi0, lo1:hi1, lo2:hi2] += 1
    assert np.all(cover == 1)
    assert np.bincount(pv.rank_partitions, minlength=partitions).min() >= 1


def test_series_write_one_target_closed_form():
    """One target and an infinitely fast network: the write is the target's bytes / BW plus its
    requests x c_req (and the creates), nothing else."""
    m = JAGUAR.with_(targets=1, stripe_count=1, fs_bandwidth=1e9, injection=math.inf, latency=0.0, md_rate=math.inf)
    t = S.write_traffic("star", S.GEOS5_DIMS["0.5"], 256, S.GEOS5_VARIABLES, 8, m, d_tar=4, d_sar=1)
    p = predict(m, t)
    assert p.exchange == 0 and p.metadata == 0 and p.bottleneck == "storage targets"
    assert p.data == pytest.approx(t.target_bytes[0] / 1e9 + t.target_requests[0] * m.request_cost, rel=1e-12)
    assert p.seconds == pytest.approx(p.data, rel=1e-12)


def test_grid_traffic_conserves_bytes():
    t = grid_traffic((128, 128, 128), 512, 64, partitions=8, fields=3, sample_bytes=8)
    assert t.total_bytes == 128**3 * 3 * 8 == t.node_write_bytes().sum()
    assert t.node_out.sum() == pytest.approx(t.node_in.sum())
    with pytest.raises(InvalidArgumentError, match="divisible"):
        grid_traffic((100, 128, 128), 512, 64)
    with pytest.raises(InvalidArgumentError, match="fields"):
        grid_traffic((128, 128, 128), 512, 64, fields=0)


# ---- the model's invariants and limits ------------------------------------------------------------------------------

def test_write_load_closed_form():
    m = JAGUAR.with_(targets=4, stripe_count=4, stripe_size=100)
    tb, tr = write_load(m, [0, 0, 1], [50, 0, 0], [250, 10, 400])
    assert tb.sum() == 660 and tr.sum() == 3 + 1 + 4
    # file 0: [50, 300) -> stripes 0 (50 B), 1 (100), 2 (100) on targets 0, 1, 2; [0, 10) -> stripe 0;
    # file 1 starts on target 1: its four stripes of 100 B on targets 1, 2, 3, 0
    np.testing.assert_array_equal(tb, [160, 200, 200, 100])
    np.testing.assert_array_equal(tr, [3, 2, 2, 1])


def test_sar_moved_bytes_against_the_plans_senders():
    """The closed form of the spatial aggregation's traffic against the plan: at every level, each
    aggregator receives its senders' level-(L-1) aggregates (its own stays). With 16 variables the
    round robin gives every sub-group its turn at both levels, so the average is exact."""
    dims, ranks = (37, 22, 6), 32
    variables = [("f4", 3)] * 16
    boxes = S.series_boxes(dims, ranks)
    pv = plan_series(dims, boxes, variables, d_tar=1, d_sar=2)
    gx, _ = S.rank_grid(ranks)
    per_rank = np.prod(boxes[:, 3:] - boxes[:, :3], axis=1) * 4
    i, j = np.arange(ranks) % gx, np.arange(ranks) // gx
    want = []
    for level in (1, 2):
        moved = 0
        for v in range(len(variables)):
            for a in sorted({pv.aggregator(v, level, r) for r in range(ranks)}):
                for snd in pv.senders(v, level, a):
                    if snd != a:
                        shift = level - 1
                        same = ((i >> shift) == (i[snd] >> shift)) & ((j >> shift) == (j[snd] >> shift))
                        moved += per_rank[same].sum()
        want.append(moved)
    np.testing.assert_allclose(S.sar_moved_bytes(dims, ranks, variables, 2), want, rtol=1e-12)


def test_series_write_conserves_bytes():
    dims, R = S.GEOS5_DIMS["0.5"], 1024
    for d_tar, d_sar in ((30, 2), (7, 0)):
        t = S.write_traffic("star", dims, R, S.GEOS5_VARIABLES, 30, JAGUAR, d_tar=d_tar, d_sar=d_sar)
        pv = S.preview(dims, R, S.GEOS5_VARIABLES, d_tar, d_sar)
        data = int(pv.window_head(1)["bytes"].sum()) * 30
        assert t.files == math.ceil(30 / d_tar)
        # every byte of the windows but the alignment padding before their data is written once
        assert t.total_bytes - 4096 * t.files < t.target_bytes.sum() <= t.total_bytes
        assert t.node_write_bytes().sum() == data < t.total_bytes            # the heads and tables besides
        chunks = len(S.GEOS5_VARIABLES) * pv.chunks.shape[0]
        assert t.target_requests.sum() >= 2 * chunks * t.files + t.files     # a chunk, its checksums, a head
    nc4 = S.write_traffic("nc4", dims, R, S.GEOS5_VARIABLES, 30, JAGUAR)
    assert nc4.files == 30 and nc4.total_bytes == data
    assert nc4.node_in[0] == pytest.approx(data * (1 - 16 / R))          # the root's node gathers the rest


@pytest.mark.parametrize("field,up_is_faster", [("request_cost", False), ("md_rate", True), ("injection", True),
                                                ("fs_bandwidth", True)])
def test_read_time_monotone(field, up_is_faster):
    """Monotone in every rate and cost; each changes the time where its resource is the bound
    (few readers: their requests and links; many: the targets)."""
    changed = False
    for readers in (16, 512):
        w = S.read_work("nc4", S.GEOS5_DIMS["0.5"], 1024, S.GEOS5_VARIABLES, 30, 0, range(30),
                        ((0, 180, 0), (576, 181, 48)), readers)
        times = [S.predict_read(JAGUAR.with_(**{field: getattr(JAGUAR, field) * f}), w).seconds for f in (0.5, 1, 2)]
        assert times == sorted(times, reverse=up_is_faster)
        changed = changed or times[0] != times[-1]
    assert changed


def test_read_one_reader_one_target_closed_form():
    """One reader and one target: T = opens / mu + requests x c + bytes / min(link, target)."""
    m = JAGUAR.with_(targets=1, stripe_count=1, fs_bandwidth=300e6, injection=500e6)
    w = S.read_work("star", S.GEOS5_DIMS["0.5"], 256, S.GEOS5_VARIABLES, 30, 0, range(30),
                    ((100, 0, 0), (101, 361, 48)), 1)
    p = S.predict_read(m, w)
    want = w.opens.sum() / m.md_rate + w.total_requests * m.request_cost + w.total_bytes / 300e6
    assert p.seconds == pytest.approx(want, rel=1e-12)
    assert w.files == 1 and w.opens.sum() == 1


def test_layouts_read_the_same_answer_differently():
    """The baselines read the same samples: NC4 with 30 files opens 30, one file opens 1; sieving
    reads at least the bytes asked."""
    box = ((288, 0, 0), (289, 361, 48))
    nc4 = S.read_work("nc4", S.GEOS5_DIMS["0.5"], 4096, S.GEOS5_VARIABLES, 30, 0, range(30), box, 1)
    one = S.read_work("nc4-one-file", S.GEOS5_DIMS["0.5"], 4096, S.GEOS5_VARIABLES, 30, 0, range(30), box, 1)
    assert (nc4.files, int(nc4.opens.sum()), one.files, int(one.opens.sum())) == (30, 30, 1, 1)
    assert min(nc4.total_bytes, one.total_bytes) >= 30 * 361 * 48 * 4
    with pytest.raises(InvalidArgumentError, match="unknown series layout"):
        S.read_work("hdf5", S.GEOS5_DIMS["0.5"], 4096, S.GEOS5_VARIABLES, 30, 0, [0], box, 1)


# ---- calibration and validation -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def fitted():
    return S.fit_jaguar()


def test_stored_jaguar_parameters_are_the_fit(fitted):
    assert fitted.request_cost == pytest.approx(machines_mod.JAGUAR_REQUEST_COST, rel=5e-3)
    assert fitted.injection == pytest.approx(machines_mod.JAGUAR_INJECTION, rel=5e-3)


@pytest.fixture(scope="module")
def rows(fitted):
    return S.validate_series(fitted)


def test_series_calibration_points_are_met(rows):
    cal = [r for r in rows if r["role"] == "calibration"]
    assert {r["id"] for r in cal} == set(S.CALIBRATION)
    assert all(abs(r["error"]) < 0.01 for r in cal)
    held = [r for r in rows if r["role"] == "held out"]
    assert len(held) == 4
    for r in held:
        assert r["error"] == pytest.approx(r["predicted"] / r["published"] - 1, abs=0.02)
        assert r["ok"] == (abs(r["error"]) <= 0.25)


def test_docs_and_bench_state_the_series_table(rows):
    table = S.table_markdown(rows)
    with open(os.path.join(ROOT, "docs", "scale.md")) as fh:
        assert table in fh.read()
    with open(os.path.join(ROOT, "bench", "results", "scale_series.json")) as fh:
        bench = json.load(fh)
    assert [(r["id"], r["predicted"]) for r in bench["validation"]] == [(r["id"], r["predicted"]) for r in rows]


def test_series_points_have_sources():
    for p in S.series_points():
        assert p["source"] == "Tian et al. 2013" and p["where"].startswith("§IV")


# ---- advice -------------------------------------------------------------------------------------------------

def test_advise_series():
    a = advise("jaguar", 256, kind="series", steps=8, readers=4, d_tar=[1, 4, 8], d_sar=[0, 1, 2])
    rows = a["alternatives"]
    assert len(rows) == 9 and a["recommended"] is rows[0]
    assert rows[0]["seconds"] == min(r["seconds"] for r in rows if r["fits_memory"])
    for r in rows:
        assert r["seconds"] == pytest.approx(r["write_seconds"] + sum(r["reads"].values()))
        assert r["files"] == math.ceil(8 / r["d_tar"])
    # STAR's own choice is the planner's coordination with the machine's constants
    pv = plan_series(a["dims"], S.series_boxes(a["dims"], 256), S.GEOS5_VARIABLES, bw_io=JAGUAR.fs_bandwidth / 336,
                     cc=JAGUAR.latency, ts=JAGUAR.request_cost, memory_budget=2 << 30, max_window_steps=8)
    assert (a["star_choice"]["d_tar"], a["star_choice"]["d_sar"]) == (pv.d_tar, pv.d_sar)
    assert a["baseline"]["files"] == 8 and a["baseline"]["write_seconds"] > rows[0]["write_seconds"]


@pytest.mark.parametrize("kw,match", [
    ({"machine": "titan", "ranks": 256}, "unknown machine 'titan'"),
    ({"machine": "jaguar", "ranks": 255}, "power of two"),
    ({"machine": "jaguar", "ranks": 1 << 20}, "fewer than"),
    ({"machine": "jaguar", "ranks": 256, "dims": (8, 8, 4)}, "cannot be cut"),
    ({"machine": "jaguar", "ranks": 256, "steps": 0}, "steps must be a positive integer"),
    ({"machine": "jaguar", "ranks": 256, "d_tar": [64]}, "no candidate degrees"),
    ({"machine": "jaguar", "ranks": 1 << 15}, "at most 8,388,608 rank-variables"),
])
def test_advise_series_errors(kw, match):
    with pytest.raises(InvalidArgumentError, match=match):
        advise(kw.pop("machine"), kw.pop("ranks"), kind="series", **kw)


def test_advise_kind_errors():
    with pytest.raises(InvalidArgumentError, match="unknown kind 'mesh'"):
        advise("theta", 4096, 1000, kind="mesh")
    with pytest.raises(InvalidArgumentError, match="particles_per_rank is required"):
        advise("theta", 4096)
    with pytest.raises(InvalidArgumentError, match="unexpected argument"):
        advise("theta", 4096, 1000, steps=3)


def test_advise_grid():
    a = advise("theta", 512, kind="grid", dims=(128, 128, 128), partitions=[1, 2, 8])
    rows = a["alternatives"]
    assert len(rows) == 6 and a["recommended"] is rows[0]
    assert [r["throughput"] for r in rows] == sorted((r["throughput"] for r in rows), reverse=True)
    for r in rows:
        t = grid_traffic((128, 128, 128), 512, 64, partitions=r["partitions"], aggregation=r["aggregation"])
        assert r["throughput"] == predict(MACHINES["theta"], t).throughput and r["bytes"] == 128**3 * 4
    for kw, match in (({"partitions": [3]}, "power of two"), ({"aggregation": ["random"]}, "unknown aggregation"),
                      ({"dims": (100, 100, 100)}, "divisible")):
        with pytest.raises(InvalidArgumentError, match=match):
            advise("theta", 512, kind="grid", **kw)


def test_cli_series_and_grid():
    r = cli("advise", "--kind", "series", "--machine", "jaguar", "--ranks", 256, "--steps", 8, "--readers", 4,
            "--d-tar", "1,8", "--d-sar", "0,1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(json.dumps(advise("jaguar", 256, kind="series", steps=8, readers=4,
                                                                d_tar=[1, 8], d_sar=[0, 1])))
    r = cli("advise", "--kind", "series", "--machine", "jaguar", "--ranks", 256, "--steps", 8, "--d-tar", "1,8")
    assert r.returncode == 0 and "recommended: d_tar=" in r.stdout and "STAR's own choice" in r.stdout
    r = cli("advise", "--kind", "grid", "--machine", "theta", "--ranks", 512, "--dims", "128,128,128",
            "--partitions", "1,8", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["recommended"]["partitions"] in (1, 8)
    r = cli("advise", "--kind", "grid", "--machine", "theta", "--ranks", 512, "--dims", "128,128")
    assert r.returncode == 2 and "--dims takes 3 integers" in r.stderr
    r = cli("advise", "--machine", "theta", "--ranks", 4096)
    assert r.returncode == 2 and "--particles-per-rank is required" in r.stderr
