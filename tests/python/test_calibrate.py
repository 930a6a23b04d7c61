"""Calibration of the STAR constants (lodex.calibrate; docs/series.md "Calibration"): measured
values that are positive and fit their own table, no scratch file left behind, save/load round
trips and typed errors for bad files and arguments, a full disk, series defined from a
calibration, the `lodex calibrate` command (serial and under mpiexec), and 2 and 3 ranks that
all return the same calibration and raise the same errors."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import types

import numpy as np
import pytest

import lodex
from conftest import run_mpi, small_tmpfs
from lodex.calibrate import REQUEST_SIZES, Calibration

MiB = 1 << 20
SIZE = 4 * MiB
SERIES = {"dims": (8, 8, 4), "variables": {"T": ("f4", 3)}}


def cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "lodex.cli", *[str(a) for a in args]], capture_output=True,
                          text=True, timeout=timeout)


def scratch_files(directory) -> list[str]:
    return [f for f in os.listdir(directory) if f.startswith(".lodex-calibrate-")]


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    d = tmp_path_factory.mktemp("cal")
    return str(d), lodex.calibrate(str(d), size=SIZE, repeats=3)


def test_values_are_positive_and_fit_the_table(measured):
    d, cal = measured
    assert os.listdir(d) == []   # the scratch file is gone
    for v in (cal.bw_io, cal.cc, cal.ts):
        assert math.isfinite(v) and v > 0
    assert 1e6 < cal.bw_io < 1e12
    assert cal.ts >= 1e-6 and cal.cc < 0.1
    assert (cal.ranks, cal.size, cal.repeats, cal.directory) == (1, SIZE, 3, d)
    assert "COMM_SELF" in cal.cc_method
    assert isinstance(cal.cold, bool) and cal.cold_method
    # every request size of which the file holds 4 at least: 4 KiB .. 1 MiB for 4 MiB
    assert [b for b, _ in cal.table] == [r for r in REQUEST_SIZES if r <= SIZE // 4]
    times = [t for _, t in cal.table]
    assert all(t > 0 for t in times)
    assert times[-1] > times[0]   # 1 MiB takes longer than 4 KiB
    for nbytes, t in cal.table:   # the line predicts each median within a loose factor
        assert 1 / 5 < cal.predicted(nbytes) / t < 5, (nbytes, t, cal)
    assert cal.opt_size == int(cal.bw_io * (cal.cc + cal.ts))
    assert cal.settings() == {"bw_io": cal.bw_io, "cc": cal.cc, "ts": cal.ts}
    assert "OptSize" in str(cal)


def test_save_and_load(measured, tmp_path):
    _, cal = measured
    path = tmp_path / "cal.json"
    cal.save(path)
    assert Calibration.load(path) == cal
    assert Calibration.load(str(path)).opt_size == cal.opt_size
    d = json.loads(path.read_text())
    assert d["format"] == "lodex-calibration" and d["opt_size"] == cal.opt_size
    assert json.loads(cal.to_json()) == d
    assert os.listdir(tmp_path) == ["cal.json"]
    # a hand-written file with only the three settings is a calibration too
    path.write_text(json.dumps({"bw_io": 2e9, "cc": 1e-5, "ts": 1e-4}))
    assert Calibration.load(path).settings() == {"bw_io": 2e9, "cc": 1e-5, "ts": 1e-4}


def test_load_errors(measured, tmp_path):
    _, cal = measured
    path = tmp_path / "cal.json"
    with pytest.raises(lodex.NotFoundError, match=f"no calibration file {path}"):
        Calibration.load(path)
    good = cal.to_dict()
    for text, msg in [("{ not json", "not valid JSON"),
                      ("[1, 2]", "must be a JSON object"),
                      (json.dumps({k: v for k, v in good.items() if k != "ts"}), "lacks 'ts'"),
                      (json.dumps({"bw_io": 1e9}), "lacks 'cc', 'ts'"),
                      (json.dumps({**good, "cc": -1e-6}), "cc must be positive"),
                      (json.dumps({**good, "bw_io": 0}), "bw_io must be positive"),
                      (json.dumps({**good, "ts": "5ms"}), "ts must be a positive number"),
                      (json.dumps({**good, "format": "lodex-manifest"}), "not a lodex calibration"),
                      (json.dumps({**good, "table": [[1]]}), "table")]:
        path.write_text(text)
        with pytest.raises(lodex.FormatError, match=msg) as e:
            Calibration.load(path)
        assert str(path) in str(e.value)
    with pytest.raises(lodex.IOFailure, match="cannot read"):
        Calibration.load(tmp_path)   # a directory
    with pytest.raises(lodex.InvalidArgumentError, match="ts must be positive"):
        Calibration(bw_io=1e9, cc=1e-3, ts=0.0)


def test_argument_errors(tmp_path):
    d = str(tmp_path)
    with pytest.raises(lodex.NotFoundError, match="no directory .*nope"):
        lodex.calibrate(os.path.join(d, "nope"), size=SIZE)
    (tmp_path / "file").write_text("x")
    with pytest.raises(lodex.InvalidArgumentError, match="is not a directory"):
        lodex.calibrate(os.path.join(d, "file"), size=SIZE)
    for kw, msg in [({"size": MiB - 1}, "size must be .* at least"), ({"size": True}, "size must be"),
                    ({"size": 4.0 * MiB}, "size must be an integer"), ({"repeats": 0}, "repeats must be"),
                    ({"seed": -1}, "seed must be")]:
        with pytest.raises(lodex.InvalidArgumentError, match=msg):
            lodex.calibrate(d, **{"size": SIZE, **kw})
    with pytest.raises(lodex.InvalidArgumentError, match="directory must be a path"):
        lodex.calibrate(3, size=SIZE)
    assert sorted(os.listdir(d)) == ["file"]


def test_size_beyond_free_space_and_a_full_disk(monkeypatch):
    with small_tmpfs("4m", "lodex-cal-full-") as mnt:
        with pytest.raises(lodex.InvalidArgumentError, match="does not fit in .* free"):
            lodex.calibrate(mnt, size=64 * MiB)
        # the free space looked enough (another writer filled the disk since): the write fails
        real = os.statvfs
        monkeypatch.setattr(os, "statvfs", lambda p: types.SimpleNamespace(f_bavail=1 << 30, f_frsize=4096))
        with pytest.raises(lodex.IOFailure, match="No space left on device") as e:
            lodex.calibrate(mnt, size=8 * MiB)
        assert ".lodex-calibrate-" in str(e.value)
        assert os.listdir(mnt) == []   # no scratch file left
        monkeypatch.setattr(os, "statvfs", real)
        # a memory file system keeps its pages: the calibration says the reads were warm
        cal = lodex.calibrate(mnt, size=MiB, repeats=1)
        assert not cal.cold and "resident" in cal.cold_method, cal.cold_method
        assert os.listdir(mnt) == []


def test_series_from_a_calibration(measured, tmp_path):
    _, cal = measured
    saved = str(tmp_path / "cal.json")
    cal.save(saved)
    path = str(tmp_path / "s.lodex")
    ds = lodex.create(path)
    for name, given in [("obj", cal), ("path", saved), ("dict", cal.settings()),
                        ("full_dict", json.loads(cal.to_json()))]:
        s = ds.define_series(name, **SERIES, calibration=given)
        assert {k: s.meta["settings"][k] for k in ("bw_io", "cc", "ts")} == cal.settings()
    s = ds.series["obj"]
    s.write(0, ((0, 0, 0), SERIES["dims"]), {"T": np.ones((4, 8, 8), np.float32)})
    ds.close()
    r = lodex.open(path)
    assert r.series["path"].meta["settings"]["ts"] == cal.ts   # kept in the manifest
    assert r.series["obj"].meta["opt_size"] == cal.opt_size   # the coordination used the calibrated OptSize
    ds = lodex.create(str(tmp_path / "d.lodex"))
    s = ds.define_series("default", **SERIES)   # no calibration: the Lustre-like defaults
    assert {k: s.meta["settings"][k] for k in ("bw_io", "cc", "ts")} == {"bw_io": 500e6, "cc": 1e-3, "ts": 5e-3}
    ds.close()


def test_series_calibration_errors(measured, tmp_path):
    _, cal = measured
    ds = lodex.create(str(tmp_path / "s.lodex"))
    for kw in ({"bw_io": 1e9}, {"ts": 5e-3}, {"cc": 1e-3, "ts": 1e-3}):
        with pytest.raises(lodex.InvalidArgumentError, match="give calibration or .*, not both"):
            ds.define_series("a", **SERIES, calibration=cal, **kw)
    for bad, err, msg in [(str(tmp_path / "none.json"), lodex.NotFoundError, "no calibration file"),
                          ({"bw_io": 1e9, "cc": 1e-3}, lodex.InvalidArgumentError, "lacks 'ts'"),
                          ({"bw_io": 1e9, "cc": 1e-3, "ts": -1}, lodex.InvalidArgumentError, "ts must be positive"),
                          (42, lodex.InvalidArgumentError, "calibration must be")]:
        with pytest.raises(err, match=msg):
            ds.define_series("a", **SERIES, calibration=bad)
    with pytest.raises(lodex.InvalidArgumentError, match="a new series needs dims and variables"):
        ds.define_series("a", calibration=cal)
    assert list(ds.series) == []   # nothing was defined; the dataset is still usable
    ds.define_series("a", **SERIES, calibration=cal)
    assert list(ds.series) == ["a"]
    ds.close()


def test_cli(tmp_path):
    out = tmp_path / "cal.json"
    r = cli("calibrate", tmp_path, "--size", 4, "--repeats", 1, "--out", out)
    assert r.returncode == 0, r.stderr
    cal = Calibration.load(out)
    for label in ("BW_io", "Ts", "CC", "OptSize", f"{cal.opt_size:,}", "4 KiB", "1 MiB", f"wrote {out}"):
        assert label in r.stdout, r.stdout
    assert "16 MiB" not in r.stdout   # a 4 MiB file holds fewer than 4 requests of 16 MiB
    r = cli("calibrate", tmp_path, "--size", 2, "--repeats", 1, "--json")
    assert r.returncode == 0, r.stderr
    j = Calibration.from_mapping(json.loads(r.stdout))
    assert (j.size, j.repeats, j.ranks) == (2 * MiB, 1, 1)
    assert sorted(os.listdir(tmp_path)) == ["cal.json"]
    r = cli("calibrate", tmp_path / "nope")
    assert r.returncode == 2 and "NotFoundError" in r.stderr and "nope" in r.stderr and "Traceback" not in r.stderr
    r = cli("calibrate", tmp_path, "--size", 0.5)
    assert r.returncode == 2 and "InvalidArgumentError" in r.stderr and "at least" in r.stderr


def test_cli_under_mpiexec(tmp_path):
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", "2", sys.executable, "-m", "lodex.cli", "calibrate",
           str(tmp_path), "--size", "4", "--repeats", "1", "--json"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, r.stderr
    cal = Calibration.from_mapping(json.loads(r.stdout))   # one document: only rank 0 prints
    assert cal.ranks == 2 and "rank 1 of 2" in cal.cc_method
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ranks", [2, 3])
def test_every_rank_gets_the_same_calibration(tmp_path, ranks):
    res = run_mpi(ranks, "calibrate_mpi.py", tmp_path, 4, timeout=120)
    outs = res["per_rank"]
    assert len(outs) == ranks
    cals = [Calibration.from_mapping(o["calibration"]) for o in outs]
    assert all(c == cals[0] for c in cals)
    cal = cals[0]
    assert cal.ranks == ranks and f"rank {ranks - 1} of {ranks}" in cal.cc_method
    assert all(v > 0 and math.isfinite(v) for v in (cal.bw_io, cal.cc, cal.ts))
    assert all(o["files_after"] == [] for o in outs)
    assert res["files_end"] == ["s.lodex"]
    # errors are raised on every rank, the same
    for label, err, msg in [("missing_directory", "NotFoundError", "rank 0: no directory"),
                            ("bad_repeats_last_rank", "InvalidArgumentError", f"rank {ranks - 1}: repeats"),
                            ("series_missing_file_last_rank", "NotFoundError", "no calibration file")]:
        got = [o[label]["error"] for o in outs]
        assert all(g == got[0] for g in got), got
        assert got[0][0] == err and msg in got[0][1], got
    assert all({k: o["series"][k] for k in ("bw_io", "cc", "ts")} == cal.settings() for o in outs)
    assert all(o["series_names"] == ["a"] for o in outs)
