"""The benchmarks' charts and cold rounds: each driver's --chart-only redraws a PNG from its
committed JSON without running anything, and the page-cache eviction check behind every cold
figure rejects files still in memory (so a cold figure cannot be a warm one)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import matplotlib.image
import numpy as np
import pytest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
if BENCH not in sys.path:
    sys.path.insert(0, BENCH)

import query   # noqa: E402 (bench is on sys.path now)
from bench_common import COLD_RESIDENT_LIMIT, NotColdError, PageCache, evict   # noqa: E402

CHARTED = ("query", "particle_read", "particle_adaptive", "series", "many_steps", "openpmd", "paraview")


@pytest.mark.parametrize("name", CHARTED)
def test_chart_only_draws_the_committed_results(name, tmp_path):
    results = os.path.join(tmp_path, f"{name}.json")
    shutil.copy(os.path.join(BENCH, "results", f"{name}.json"), results)
    before = set(os.listdir(tmp_path))
    p = subprocess.run([sys.executable, os.path.join(BENCH, f"{name}.py"), "--chart-only", "--out", results],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    assert set(os.listdir(tmp_path)) - before == {f"{name}.png"}   # nothing run, nothing else written
    png = os.path.join(tmp_path, f"{name}.png")
    image = matplotlib.image.imread(png)
    assert image.shape[0] >= 400 and image.shape[1] >= 800
    assert np.ptp(image[..., :3]) > 0.5   # something drawn, not a blank canvas


def test_chart_only_needs_the_results(tmp_path):
    p = subprocess.run([sys.executable, os.path.join(BENCH, "query.py"), "--chart-only", "--out",
                        os.path.join(tmp_path, "missing.json")], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0 and "no results at" in p.stderr and "missing.json" in p.stderr
    assert not os.path.exists(os.path.join(tmp_path, "missing.png"))


def test_committed_query_results_have_checked_cold_rounds():
    with open(os.path.join(BENCH, "results", "query.json")) as f:
        res = json.load(f)
    assert 0 <= res["cold_resident_max"] <= COLD_RESIDENT_LIMIT
    for v in res["variants"].values():
        for q in v["queries"]:
            assert set(q["cold"]["median_s"]) == set(query.COLD)
            for temp in ("warm", "cold"):
                t = q[temp]
                assert all(len(r) == res["config"]["repeats"] for r in t["runs_s"].values())
                assert all(t["min_s"][m] <= t["median_s"][m] <= t["max_s"][m] for m in t["median_s"])
    assert {"ge_50x_baseline_at_0.05%_warm", "ge_50x_baseline_at_0.05%_cold"} <= set(res["goals"])


def fresh_file(tmp_path, size=4 << 20) -> str:
    path = os.path.join(tmp_path, "fresh.bin")
    np.random.default_rng(3).integers(0, 255, size, dtype=np.uint8).tofile(path)
    return path


def test_eviction_check_rejects_a_resident_file(tmp_path):
    path = fresh_file(tmp_path)
    assert PageCache("none").resident_fraction([path]) > COLD_RESIDENT_LIMIT   # just written: in memory
    with pytest.raises(NotColdError, match="stayed in the page cache"):
        evict([path], methods=("none",))


def test_eviction_evicts_and_says_so(tmp_path):
    path = fresh_file(tmp_path)
    method, resident = evict([path], methods=("fadvise",))
    assert method == "fadvise" and resident <= COLD_RESIDENT_LIMIT
    with open(path, "rb") as f:
        f.read()
    assert PageCache("none").resident_fraction([path]) > COLD_RESIDENT_LIMIT   # read back in: resident again


def test_eviction_check_rejects_what_it_cannot_measure(tmp_path):
    empty = os.path.join(tmp_path, "empty.bin")
    open(empty, "wb").close()
    with pytest.raises(NotColdError, match="cannot be measured"):
        evict([empty], methods=("fadvise",))


def test_query_cold_rounds_stop_on_a_resident_file(tmp_path, monkeypatch):
    """The value-query benchmark's timing loop checks every cold round: with eviction skipped, the
    method's freshly written file is still resident and the run fails instead of reporting it."""
    path = fresh_file(tmp_path)
    methods = {m: (lambda: (1, None), [path]) for m in query.WARM}
    case = {"name": "a case", "want": 1}
    runs, _, resident = query.time_rounds(case, methods, 2)
    assert resident <= COLD_RESIDENT_LIMIT and all(len(r) == 2 for r in runs["cold"].values())
    with open(path, "rb") as f:
        f.read()
    monkeypatch.setattr(query, "EVICTION", ("none",))
    with pytest.raises(NotColdError):
        query.time_rounds(case, methods, 1)


def test_query_rounds_check_every_answer(tmp_path):
    path = fresh_file(tmp_path)
    methods = {m: (lambda: (1, None), [path]) for m in query.WARM}
    methods["h5py"] = (lambda: (2, None), [path])
    with pytest.raises(AssertionError, match="h5py"):
        query.time_rounds({"name": "a case", "want": 1}, methods, 1)
