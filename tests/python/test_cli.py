"""The `lodex info` command line (python -m lodex.cli and the installed `lodex` script)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from conftest import run_mpi

N_RANKS = 2
EXTRA_SCHEMA = {"position": ("f4", 3), "charge": ("i2", 2)}


def cli(*args, exe=None):
    cmd = [exe] if exe else [sys.executable, "-m", "lodex.cli"]
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """Group "uintah" (2 ranks, grid mode, 2 steps, several files per step) plus a serially
    appended group "extra" with steps 4 and 9 (9 is empty)."""
    out = tmp_path_factory.mktemp("cli")
    res = run_mpi(N_RANKS, "write_roundtrip.py", str(out), "grid_patch", timeout=120)
    path = res["cases"]["grid_patch"]["path"]
    with lodex.open(path, mode="a") as ds:
        g = ds.define_particles("extra", schema=EXTRA_SCHEMA, domain=tu.UNIT)
        rng = np.random.default_rng(1)
        n = 321
        g.write(step=4, data={"position": rng.random((n, 3)).astype(np.float32),
                              "charge": rng.integers(-5, 5, (n, 2)).astype(np.int16)})
        g.write(step=9, data={"position": np.zeros((0, 3), np.float32),
                              "charge": np.zeros((0, 2), np.int16)})
    return path


def test_json(dataset):
    r = cli("info", dataset, "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    ds = lodex.open(dataset)
    assert out["path"] == dataset
    assert sorted(out["groups"]) == sorted(ds.particles) == ["extra", "uintah"]
    for name, jg in out["groups"].items():
        g = ds.particles[name]
        assert jg["kind"] == "particles"
        assert jg["schema"] == {k: {"dtype": d, "components": c} for k, (d, c) in g.schema.items()}
        assert list(jg["schema"]) == list(g.schema)   # schema order kept
        assert jg["domain"] == [list(g.domain[0]), list(g.domain[1])]
        assert jg["partition"] == {"mode": g.partition[0], "dims": list(g.partition[1])}
        assert [s["step"] for s in jg["steps"]] == g.steps
        for s in jg["steps"]:
            files = g.files(s["step"])
            assert s["particles"] == sum(f["count"] for f in files)
            assert len(s["files"]) == len(files)
            for jf, f in zip(s["files"], files):
                assert jf["file"] == f["file"] and jf["partition"] == f["partition"]
                assert jf["count"] == f["count"] and jf["bytes"] == f["file_bytes"]
                assert jf["partition_box"] == [list(f["partition_box"]["min"]), list(f["partition_box"]["max"])]
                assert jf["bounds"] == [list(f["bounds"]["min"]), list(f["bounds"]["max"])]
    # values against what was written
    spec = tu.case_spec("grid_patch", N_RANKS)
    for s in out["groups"]["uintah"]["steps"]:
        want = sum(tu.case_count("grid_patch", N_RANKS, r, s["step"]) for r in range(N_RANKS))
        assert s["particles"] == want
        assert len(s["files"]) > 1
    assert out["groups"]["uintah"]["partition"] == {"mode": "grid", "dims": list(spec["dims"])}
    extra = out["groups"]["extra"]
    assert [(s["step"], s["particles"], len(s["files"])) for s in extra["steps"]] == [(4, 321, 1), (9, 0, 0)]
    assert extra["schema"] == {"position": {"dtype": "f4", "components": 3},
                               "charge": {"dtype": "i2", "components": 2}}


def test_text(dataset):
    r = cli("info", dataset)
    assert r.returncode == 0, r.stderr
    ds = lodex.open(dataset)
    assert f"dataset {dataset}" in r.stdout
    for name in ds.particles:
        g = ds.particles[name]
        assert f"particles '{name}'" in r.stdout
        assert f"{len(g.steps)} steps" in r.stdout
        for s in g.steps:
            files = g.files(s)
            line = f"step {s}: {sum(f['count'] for f in files):,} particles in {len(files)} files"
            assert line in r.stdout, line
    assert "p000000.lpd" not in r.stdout        # file list only with --files
    assert "charge:i2x2" in r.stdout and "position:f4x3" in r.stdout


def test_text_files(dataset):
    r = cli("info", dataset, "--files")
    assert r.returncode == 0, r.stderr
    g = lodex.open(dataset).particles["uintah"]
    lines = r.stdout.splitlines()
    for s in g.steps:
        for f in g.files(s):
            hits = [ln for ln in lines if ln.strip().startswith(f["file"]) and f"count {f['count']:,}" in ln]
            assert hits, f"no line for {f['file']} of step {s}"
    n_file_lines = sum(1 for ln in lines if ln.strip().startswith("p0") and ".lpd" in ln)
    assert n_file_lines == sum(len(g.files(s)) for s in g.steps) + 1   # + extra's step 4


def test_installed_script(dataset):
    exe = os.path.join(sys.prefix, "bin", "lodex")
    if not os.path.exists(exe):
        pytest.skip("no lodex console script in this environment")
    a = cli("info", dataset, "--json", exe=exe)
    b = cli("info", dataset, "--json")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_missing_dataset(tmp_path):
    missing = str(tmp_path / "nope.lodex")
    for extra in ([], ["--json"], ["--files"]):
        r = cli("info", missing, *extra)
        assert r.returncode == 2
        assert r.stdout == ""
        assert "NotFoundError" in r.stderr and missing in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_damaged_dataset(dataset, tmp_path):
    bad = str(tmp_path / "bad.lodex")
    shutil.copytree(dataset, bad)
    with open(os.path.join(bad, "manifest.json"), "w") as fh:
        fh.write("{ not json")
    r = cli("info", bad, "--json")
    assert r.returncode == 2 and "FormatError" in r.stderr and "manifest.json" in r.stderr
    assert "Traceback" not in r.stderr
    bad2 = str(tmp_path / "bad2.lodex")
    shutil.copytree(dataset, bad2)
    lsm = os.path.join(tu.step_dir(bad2, "uintah", 1), "spatial.lsm")
    with open(lsm, "r+b") as fh:
        fh.seek(50)
        b = fh.read(1)
        fh.seek(50)
        fh.write(bytes([b[0] ^ 1]))
    r = cli("info", bad2)
    assert r.returncode == 2 and "FormatError" in r.stderr and lsm in r.stderr


def test_usage_errors():
    r = cli()
    assert r.returncode == 2 and "usage" in r.stderr
    r = cli("frobnicate")
    assert r.returncode == 2 and "usage" in r.stderr


def test_grids_in_info_and_read(tmp_path):
    """`lodex info` lists a grid's definition and steps; `lodex read` of a grid saves exactly what
    Grid.read returns (a box at a resolution), and refuses particle-only options."""
    path = str(tmp_path / "g.lodex")
    ds = lodex.create(path)
    g = ds.define_grid("temp", dims=(20, 12, 10), dtype="f4", bits_per_block=6, blocks_per_file=4)
    a = np.random.default_rng(3).random((10, 12, 20), dtype=np.float32)
    g.write(0, ((0, 0, 0), (20, 12, 10)), a)
    g.write(2, ((0, 0, 0), (20, 12, 10)), a + 1)
    ds.close()
    info = json.loads(cli("info", path, "--json").stdout)["groups"]["temp"]
    assert info["kind"] == "grid" and info["dims"] == [20, 12, 10]
    assert info["fields"] == {"temp": {"dtype": "f4", "components": 1}}
    assert [s["step"] for s in info["steps"]] == [0, 2] and info["levels"] == len(info["bitmask"])
    assert "grid 'temp'" in cli("info", path).stdout
    out = str(tmp_path / "s.npy")
    cli("read", path, "temp", "--step", "2", "--box", "2,1,0:18,12,7", "--resolution", "9", "--out", out)
    want = lodex.open(path).grids["temp"].read(2, box=((2, 1, 0), (18, 12, 7)), resolution=9)
    assert np.array_equal(np.load(out), want) and want.size > 0
    bad = cli("read", path, "temp", "--step", "0", "--level", "1")
    assert bad.returncode != 0 and "--resolution" in bad.stderr


def test_out_writes_exactly_the_named_file(tmp_path):
    """--out writes the named file and nothing else; the format follows the extension (.npy, .npz),
    an extension the result cannot take is refused before reading, and an unwritable --out is an
    IOFailure that leaves no partial file."""
    path = str(tmp_path / "o.lodex")
    rng = np.random.default_rng(4)
    pos = rng.random((500, 3))
    energy = rng.random(500).astype(np.float32)
    grid = rng.random((8, 8, 8), dtype=np.float32)
    with lodex.create(path) as ds:
        ds.define_particles("p", schema={"position": ("f8", 3), "energy": "f4"}, domain=((0, 0, 0), (1, 1, 1))).write(
            step=0, data={"position": pos, "energy": energy})
        ds.define_grid("g", dims=(8, 8, 8), dtype="f4").write(0, ((0, 0, 0), (8, 8, 8)), grid)
    out = tmp_path / "out"
    out.mkdir()

    r = cli("read", path, "g", "--step", "0", "--out", out / "g.npz")
    assert r.returncode == 0 and f"wrote {out / 'g.npz'}" in r.stdout
    assert sorted(os.listdir(out)) == ["g.npz"]
    assert np.array_equal(np.load(out / "g.npz")["g"], grid)
    r = cli("read", path, "g", "--step", "0", "--out", out / "g.npy")
    assert np.array_equal(np.load(out / "g.npy"), grid)
    r = cli("read", path, "p", "--step", "0", "--out", out / "p.npz")
    got = np.load(out / "p.npz")
    assert sorted(got.files) == ["energy", "position"] and np.array_equal(np.sort(got["energy"]), np.sort(energy))
    r = cli("read", path, "p", "--step", "0", "--fields", "energy", "--out", out / "e.npy")
    assert np.array_equal(np.sort(np.load(out / "e.npy")), np.sort(energy))
    r = cli("query", path, "p", "energy > 0.5", "--step", "0", "--out", out / "q.npz")
    assert r.returncode == 0 and len(np.load(out / "q.npz")["energy"]) == int((energy > 0.5).sum())
    assert sorted(os.listdir(out)) == ["e.npy", "g.npy", "g.npz", "p.npz", "q.npz"]

    for args, ext in [(("read", path, "g", "--step", "0"), "sample.dat"), (("read", path, "p", "--step", "0"), "p.npy"),
                      (("query", path, "p", "energy > 0.5", "--step", "0"), "q.npy")]:
        r = cli(*args, "--out", out / ext)
        assert r.returncode == 2 and "InvalidArgumentError" in r.stderr and ".npz" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        r = cli("read", path, "g", "--step", "0", "--out", locked / "g.npy")
        if os.geteuid() != 0:   # root writes anywhere; the missing folder below holds for everyone
            assert r.returncode == 2 and "IOFailure" in r.stderr
    finally:
        locked.chmod(0o700)
    r = cli("read", path, "g", "--step", "0", "--out", tmp_path / "missing" / "g.npy")
    assert r.returncode == 2 and "IOFailure" in r.stderr and "cannot write --out" in r.stderr
    assert "Traceback" not in r.stderr
    assert sorted(os.listdir(out)) == ["e.npy", "g.npy", "g.npz", "p.npz", "q.npz"]


# ------------------------------------------------------------------ issue 20: the command line

@pytest.fixture(scope="module")
def steps_dataset(tmp_path_factory):
    """Group "p" with steps 0, 10, 20 (a partition factor), a grid and a series."""
    path = str(tmp_path_factory.mktemp("cli20") / "s.lodex")
    rng = np.random.default_rng(2)
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema={"position": ("f8", 3), "energy": "f4"}, domain=tu.UNIT,
                                partition=(1, 1, 1))
        for s in (0, 10, 20):
            g.write(step=s, data={"position": rng.random((500, 3)), "energy": rng.random(500).astype(np.float32)},
                    patch=tu.UNIT)
        ds.define_grid("g", dims=(6, 5, 4), dtype="f4").write(0, ((0, 0, 0), (6, 5, 4)),
                                                      np.arange(120, dtype=np.float32).reshape(4, 5, 6))
    return path


def test_version():
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"lodex {lodex.__version__}", (r.stdout, r.stderr)
    assert "particle groups" in cli("--help").stdout and "grids" in cli("--help").stdout


def test_steps_range_means_the_committed_steps_in_it(steps_dataset, tmp_path):
    r = cli("index", steps_dataset, "p", "--steps", "0:20", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["steps"] == 2   # steps 0 and 10
    out = str(tmp_path / "e.h5part")
    r = cli("export", steps_dataset, "p", "--out", out, "--steps", "5:", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["steps"] == [10, 20]
    r = cli("index", steps_dataset, "p", "--steps", "21:30")
    assert r.returncode == 2 and "no committed step in --steps 21:30" in r.stderr and "0, 10, 20" in r.stderr
    r = cli("index", steps_dataset, "p", "--steps", "1,x")
    assert r.returncode == 2 and "--steps must look like" in r.stderr


def test_json_output_of_read_query_index_export_import(steps_dataset, tmp_path):
    r = cli("read", steps_dataset, "p", "--step", "10", "--box", "0,0,0:0.5,1,1", "--json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    want = lodex.open(steps_dataset).particles["p"].read(10, box=((0, 0, 0), (0.5, 1, 1)))
    assert j["count"] == len(want["energy"]) and j["fields"]["energy"]["shape"] == [len(want["energy"])]
    assert j["fields"]["energy"]["min"] == pytest.approx(float(want["energy"].min()))
    assert j["stats"]["bytes_read"] > 0
    r = cli("read", steps_dataset, "g", "--step", "0", "--resolution", "2", "--json")
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    assert j["kind"] == "grid" and j["shape"] == list(lodex.open(steps_dataset).grids["g"].read(0, resolution=2).shape)
    r = cli("query", steps_dataset, "p", "energy < 0.25", "--step", "20", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["count"] == lodex.open(steps_dataset).particles["p"].query(20, "energy < 0.25").count
    out = str(tmp_path / "x.h5part")
    assert cli("export", steps_dataset, "p", "--out", out, "--steps", "0").returncode == 0
    r = cli("import", out, str(tmp_path / "new.lodex"), "q", "--partition-grid", "1,1,1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["particles"] == 500


def test_cli_errors_give_flags_and_are_printed_once_under_mpiexec(steps_dataset, tmp_path):
    out = str(tmp_path / "y.h5part")
    assert cli("export", steps_dataset, "p", "--out", out, "--steps", "0").returncode == 0
    copy = str(tmp_path / "c.lodex")
    shutil.copytree(steps_dataset, copy)
    r = cli("import", out, copy, "p", "--steps", "0")   # group p has a partition factor
    assert r.returncode == 2
    assert "--partition-grid" in r.stderr and "partition_grid=" not in r.stderr, r.stderr
    mpiexec = os.path.join(sys.prefix, "bin", "mpiexec")
    r = subprocess.run([mpiexec, "-n", "3", sys.executable, "-m", "lodex.cli", "read", steps_dataset, "densty",
                        "--step", "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert r.stderr.count("lodex read: NotFoundError") == 1, r.stderr


def test_info_files_lists_grid_and_series_files(tmp_path):
    path = str(tmp_path / "gs.lodex")
    with lodex.create(path) as ds:
        g = ds.define_grid("g", dims=(6, 5, 4), dtype="f4", bits_per_block=4, blocks_per_file=2)
        for step in (0, 3):
            g.write(step, ((0, 0, 0), (6, 5, 4)), np.full((4, 5, 6), step, dtype=np.float32))
        s = ds.define_series("s", dims=(4, 3, 2), variables={"T": ("f4", 3)}, d_tar=2, d_sar=0)
        for t in range(4):
            s.write(t, ((0, 0, 0), (4, 3, 2)), {"T": np.full((2, 3, 4), t, dtype=np.float32)})
    r = cli("info", path, "--files")
    assert r.returncode == 0, r.stderr
    for step in (0, 3):
        tdir = os.path.join(path, "g", f"time_{step:06d}")
        for f in os.listdir(tdir):
            rel = os.path.join("g", f"time_{step:06d}", f)
            assert f"{rel}  {os.path.getsize(os.path.join(tdir, f)):,} bytes" in r.stdout, (rel, r.stdout)
        assert os.path.join("g.checksums", f"time_{step:06d}", "blocks.xxh3") in r.stdout
    for w in lodex.open(path).series["s"].meta["windows"]:
        assert f"s/{w['file']}  steps" in r.stdout


def _on_a_terminal(*args, env=None) -> tuple[int, bytes, str]:
    """Run ``lodex ARGS`` with stderr on a pseudo-terminal 100 columns wide: (exit code, what the
    terminal saw, stdout)."""
    import fcntl
    import pty
    import struct
    import termios
    import threading
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    seen = bytearray()

    def drain():   # the terminal's side, read while the command runs
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                return
            if not chunk:
                return
            seen.extend(chunk)
    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    proc = subprocess.Popen([sys.executable, "-m", "lodex.cli", *args], stdout=subprocess.PIPE, stderr=slave, text=True,
                            env=None if env is None else {**os.environ, **env})
    os.close(slave)
    out, _ = proc.communicate(timeout=120)
    reader.join(10)
    os.close(master)
    return proc.returncode, bytes(seen), out


def test_index_shows_progress_only_on_a_terminal(steps_dataset, tmp_path):
    copy = str(tmp_path / "i.lodex")
    shutil.copytree(steps_dataset, copy)
    piped = cli("index", copy, "p", "--fields", "energy")
    assert piped.returncode == 0 and "indexing" not in piped.stderr, piped.stderr
    code, seen, out = _on_a_terminal("index", copy, "p", "--fields", "energy", "--json")
    assert code == 0
    assert b"indexing 'p'" in seen, seen
    st = json.loads(out)
    assert st["steps"] == 3 and st["files"] == 3
    quiet = subprocess.run([sys.executable, "-m", "lodex.cli", "index", copy, "p", "--quiet"], capture_output=True,
                           text=True, timeout=60)
    assert quiet.returncode == 0 and "indexing" not in quiet.stderr


def test_calibrate_shows_progress_only_on_a_terminal(tmp_path):
    code, seen, out = _on_a_terminal("calibrate", str(tmp_path), "--size", "1", "--repeats", "2", "--json")
    assert code == 0, seen
    assert b"calibrating" in seen and b"pass" in seen, seen
    assert json.loads(out)["repeats"] == 2
    code, seen, _ = _on_a_terminal("calibrate", str(tmp_path), "--size", "1", "--repeats", "1", "--quiet")
    assert code == 0 and b"calibrating" not in seen and b"BW_io" not in seen
    piped = cli("calibrate", str(tmp_path), "--size", "1", "--repeats", "1")
    assert piped.returncode == 0 and "calibrating" not in piped.stderr and "BW_io" in piped.stdout


def test_calibrate_reports_every_pass(tmp_path):
    from lodex.calibrate import calibrate
    seen = []
    cal = calibrate(str(tmp_path), size=1 << 20, repeats=3, progress=lambda done, total: seen.append((done, total)))
    total = seen[0][1]
    assert seen == [(i, total) for i in range(total + 1)] and total == 3 * len(cal.table)


def test_export_and_import_show_progress_only_on_a_terminal(steps_dataset, tmp_path):
    out = str(tmp_path / "e.h5part")
    code, seen, stdout = _on_a_terminal("export", steps_dataset, "p", "--out", out, "--json")
    assert code == 0, seen
    assert b"exporting 'p'" in seen and b"/3" in seen, seen
    assert json.loads(stdout)["steps"] == [0, 10, 20]
    code, seen, stdout = _on_a_terminal("import", out, str(tmp_path / "i.lodex"), "q", "--json")
    assert code == 0, seen
    assert b"importing" in seen and b"/3" in seen, seen
    assert json.loads(stdout)["steps"] == [0, 10, 20]
    code, seen, _ = _on_a_terminal("export", steps_dataset, "p", "--out", out, "--overwrite", "--quiet")
    assert code == 0 and b"exporting" not in seen
    piped = cli("import", out, str(tmp_path / "j.lodex"), "q")
    assert piped.returncode == 0 and "importing" not in piped.stderr, piped.stderr


def test_export_and_import_report_every_step(steps_dataset, tmp_path):
    g = lodex.open(steps_dataset).particles["p"]
    seen = []
    g.export(str(tmp_path / "e.h5part"), progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]
    seen.clear()
    with lodex.create(str(tmp_path / "i.lodex")) as ds:
        ds.import_h5part(str(tmp_path / "e.h5part"), "q", steps=[0, 20], progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 2), (2, 2)]


def test_large_read_shows_progress_only_on_a_terminal(steps_dataset, tmp_path):
    """A full read above LODEX_READ_PIECE_BYTES is read in spatial pieces with a progress bar on a
    terminal; the particles are exactly those of one read."""
    g = lodex.open(steps_dataset).particles["p"]
    box = "0.1,0.0,0.2:0.9,0.8,1.0"
    want = g.read(10, box=((0.1, 0.0, 0.2), (0.9, 0.8, 1.0)))
    small = {"LODEX_READ_PIECE_BYTES": "2000"}   # 500 particles of 28 bytes: 7 pieces
    out = str(tmp_path / "r.npz")
    code, seen, stdout = _on_a_terminal("read", steps_dataset, "p", "--step", "10", "--box", box, "--out", out,
                                        "--json", env=small)
    assert code == 0, seen
    assert b"reading 'p' step 10" in seen and b"/7" in seen, seen
    assert json.loads(stdout)["count"] == len(want["energy"])
    got = np.load(out)
    o, w = np.lexsort(got["position"].T), np.lexsort(want["position"].T)
    assert np.array_equal(got["position"][o], want["position"][w])
    assert np.array_equal(got["energy"][o], want["energy"][w])
    code, seen, _ = _on_a_terminal("read", steps_dataset, "p", "--step", "10", "--quiet", env=small)
    assert code == 0 and b"reading" not in seen
    piped = subprocess.run([sys.executable, "-m", "lodex.cli", "read", steps_dataset, "p", "--step", "10"],
                           capture_output=True, text=True, timeout=60, env={**os.environ, **small})
    assert piped.returncode == 0 and "reading" not in piped.stderr and "500 particles" in piped.stdout


def test_truncate(tmp_path):
    """`lodex truncate DATASET --after STEP [--group NAME]`: what it removed, one line per group; a
    refused truncate is one line on stderr, a nonzero status and nothing removed."""
    import truncate_mpi as tm
    path = str(tmp_path / "t.lodex")
    ds = lodex.create(path)
    gs = tm.groups(ds, 1)
    for step in range(10):
        tm.write_step(gs, 0, step, 0, 1)
    ds.close()
    r = cli("truncate", path, "--after", 7, "--group", "p")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["particle group 'p': removed 2 step(s): 8-9", "2 step(s) removed (steps after 7)"]
    r = cli("truncate", path, "--after", 6)
    assert r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("lodex truncate: InvalidArgumentError: series 's': after=6 splits window "
                               "w-000000000005.lsw")
    assert lodex.open(path).grids["g"].steps == list(range(10))   # nothing removed
    for args, error in [(("--after", -3), "InvalidArgumentError: after=-3 is negative"),
                        (("--after", 2, "--group", "q"), "NotFoundError: no group 'q'")]:
        r = cli("truncate", path, *args)
        assert r.returncode == 2 and error in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    r = cli("truncate", path)
    assert r.returncode == 2 and "--after" in r.stderr   # a usage error
    r = cli("truncate", path, "--after", 4, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"path": path, "after": 4,
                                    "removed": {"p": [5, 6, 7], "g": list(range(5, 10)), "s": list(range(5, 10))}}
    r = cli("truncate", path, "--after", -1)
    assert r.returncode == 0, r.stderr
    assert "grid 'g': removed 5 step(s): 0-4" in r.stdout
    assert r.stdout.endswith("15 step(s) removed (every step removed)\n")
    ds = lodex.open(path)
    assert ds.particles["p"].steps == ds.grids["g"].steps == ds.series["s"].steps == []
