"""Series written by 1, 2, 3, 4 and 8 ranks (mpi_scripts/series_mpi.py) with several d_tar / d_sar
— d_tar = 1 (no temporal aggregation), a d_tar that does not divide the step count, forced
d_sar up to one chunk per variable, and the coordination's own choice — then read back by one
process and by 1, 2 and 3 ranks, every read pattern compared with the whole array in numpy.
Bad input on one rank raises the same error on every rank and loses nothing written before."""

from __future__ import annotations

import numpy as np
import pytest

import lodex
from conftest import LaunchCache, run_mpi
from series_data import GEOS, PATTERNS, expected

TIMEOUT = 180
cached = LaunchCache()

# (writers, d_tar, d_sar); "-" lets the coordination choose
LAYOUTS = [
    (1, 3, "-"),
    (2, 1, 1),        # no temporal aggregation
    (3, 3, 1),        # 7 steps: windows of 3, 3, 1; odd decomposition (3 x 1)
    (4, "-", "-"),    # coordination: d_sar 1, d_tar from OptSize (one window, flushed at close)
    (4, 2, 0),        # no spatial aggregation
    (8, 4, 2),        # two levels: one chunk per variable (4 x 2 cells)
    (8, 1, 1),
]


def layout_id(layout) -> str:
    return "w{}-tar{}-sar{}".format(*layout)


def written(tmp_path_factory, layout):
    def make():
        path = str(tmp_path_factory.mktemp("series") / f"{layout_id(layout)}.lodex")
        res = run_mpi(layout[0], "series_mpi.py", "write", path, layout[1], layout[2], GEOS.steps, timeout=TIMEOUT)
        return path, res
    return cached(layout_id(layout), make)


@pytest.mark.parametrize("layout", LAYOUTS, ids=layout_id)
def test_write_then_serial_read(tmp_path_factory, layout):
    path, res = written(tmp_path_factory, layout)
    writers, d_tar, d_sar = layout
    assert res["steps"] == list(range(GEOS.steps))
    if d_tar != "-":
        assert res["d_tar"] == d_tar
        # windows of d_tar steps, the last one shorter; each flushed by the write that fills it
        want = [list(range(i, min(i + d_tar, GEOS.steps))) for i in range(0, GEOS.steps, d_tar)]
        assert res["windows"] == want
        assert res["flushed_after"] == [(t + 1) // d_tar * d_tar for t in range(GEOS.steps)]
        assert res["buffered_before_close"] == list(range(GEOS.steps // d_tar * d_tar, GEOS.steps))
    if d_sar != "-":
        assert res["d_sar"] == d_sar
    px, py = GEOS.decomposition(writers)
    assert [len(c) - 1 for c in res["cuts"]] == [px, py, 1]
    s = lodex.open(path).series["geos"]
    for name, steps, box in PATTERNS(s.steps):
        got = s.read(variable=name, steps=steps, box=box)
        np.testing.assert_array_equal(got, expected(name, steps, box), err_msg=f"{name} {steps} {box}")
    # only the chunks the box meets: a point's time series touches one chunk per window
    # and of it only the 4 KiB blocks holding the point: at most one per step, fewer when a
    # window's planes of the chunk fit in fewer blocks
    s.read(variable="PS", steps=list(range(GEOS.steps)), box=((5, 3), (6, 4)), merge_gap=0)
    st = s.last_read_stats
    assert st["chunks"] == len(s.meta["windows"]) and st["windows"] == len(s.meta["windows"])
    plane = _chunk_plane_bytes(s, 5, 3)
    fewest = sum(-(-((len(w["steps"]) - 1) * plane + 4) // 4096) for w in s.meta["windows"])
    assert fewest <= st["blocks"] <= GEOS.steps
    assert st["checksum_bytes"] == 8 * st["blocks"]
    assert st["bytes_read"] - st["head_bytes"] - st["checksum_bytes"] <= 4096 * st["blocks"]


def _chunk_plane_bytes(s, x, y) -> int:
    """Bytes of one (y, x) plane of the chunk holding (x, y): what a point's series reads per step."""
    cuts, d_sar = s.meta["cuts"], s.meta["d_sar"]
    ext = []
    for axis, v in ((0, x), (1, y)):
        c = cuts[axis]
        cells = len(c) - 1
        i = max(k for k in range(cells) if c[k] <= v)
        if cells > 1:
            g = 1 << d_sar
            lo, hi = i // g * g, min(cells, i // g * g + g)
        else:
            lo, hi = 0, 1
        ext.append(c[hi] - c[lo])
    return ext[0] * ext[1] * 4


@pytest.mark.parametrize("readers", [1, 2, 3])
@pytest.mark.parametrize("layout", [LAYOUTS[2], LAYOUTS[5]], ids=layout_id)
def test_collective_read_at_other_rank_counts(tmp_path_factory, layout, readers):
    path, _ = written(tmp_path_factory, layout)
    res = run_mpi(readers, "series_mpi.py", "read", path, timeout=TIMEOUT)
    assert res["patterns"] == len(PATTERNS(range(GEOS.steps)))


@pytest.mark.parametrize("ranks", [1, 3, 4])
def test_bad_input_raises_on_every_rank(tmp_path, ranks):
    res = run_mpi(ranks, "series_mpi.py", "errors", str(tmp_path / "e.lodex"), timeout=TIMEOUT)
    per_rank = res["per_rank"]
    assert len(per_rank) == ranks

    def same(label):
        outcomes = [r[label] for r in per_rank]
        assert all(o == outcomes[0] for o in outcomes), (label, outcomes)
        return outcomes[0]

    last = ranks - 1
    for label, cls, text in [
        ("box_outside_last_rank", "InvalidArgumentError", "outside"),
        ("missing_variable_last_rank", "InvalidArgumentError", "'PS' is missing"),
        ("wrong_dtype_rank0", "InvalidArgumentError", "f4"),
        ("step_twice", "AlreadyExistsError", "already has step 0"),
        ("out_of_order", "InvalidArgumentError", "comes before"),
        ("read_buffered", "NotFoundError", "not yet flushed"),
        ("budget_too_small", "InvalidArgumentError", "memory budget"),
    ]:
        o = same(label)
        assert o != "ok" and o[0] == cls and text in o[1], (label, o)
    if ranks > 1:
        for label, text in [("box_outside_last_rank", f"rank {last}"), ("overlap_last_rank", "overlap"),
                            ("box_changes", "differs from this rank's box"), ("different_steps", "different steps")]:
            o = same(label)
            assert o != "ok" and o[0] == "InvalidArgumentError" and text in o[1], (label, o)
    for label in ("good_step_0", "good_step_2", "good_step_3"):
        assert same(label) == "ok", label
    assert res["steps_before_close"] == [0, 2]
    assert res["final_steps"] == [0, 2, 3]
    assert res["data_ok"]
