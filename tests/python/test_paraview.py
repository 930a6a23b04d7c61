"""lodex data in the real ParaView (Debian's ParaView 5.11, driven by pvpython as a subprocess).

H5Part: ParaView's own H5PartReader opens lodex's exports of gapped steps (0, 2, 5) and of a
single step (`lodex export --steps 1`); its time values are the lodex steps, and every step's
points and point arrays equal ParticleGroup.read bit for bit, particles matched by id (vector
fields as ParaView's combined arrays).

The reader plugin (lodex.paraview): one pvpython run (on an Xvfb display, for the screenshot)
loads the plugin and opens particles (every particle, a level of detail, a fraction, a box, a
field subset), a grid at full and coarse resolution and in a box, the grid's .idx file, an IDX
file of three time steps written by OpenVisus, a 2-D grid, and both variables of a series; each
output equals lodex's own read (particles bit for bit by id; images sample for sample, the
OpenVisus file also equal to OpenVisus's read, and grids whose values encode their coordinates
check the images' geometry), time steps are the lodex steps, the read statistics travel along
(a level and a coarse grid read fewer bytes), and a screenshot of the particles is not blank.
Bad input (a missing dataset, group, grid, series or variable, bad boxes and resolutions) gives
an error line naming it in ParaView's output, and pvpython goes on. Also: the ParaView GUI runs
the loader script, pvbatch on 2 Open MPI ranks reads once, the plugin finds its Python (or names
a missing or broken one), and the worker's answers to bad requests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import lodex

HERE = os.path.dirname(os.path.abspath(__file__))
PV_SCRIPTS = os.path.join(HERE, "paraview_scripts")
PVPYTHON = shutil.which("pvpython")
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8", "u": ("f4", 3), "kind": "u2"}
DOMAIN = ((0.0, 0.0, 0.0), (2.0, 1.0, 1.0))
STEPS = {0: 700, 1: 311, 2: 0, 5: 4000}   # step -> particles; step 2 is empty


def particles(step: int, n: int) -> dict:
    rng = np.random.default_rng(100 + step)
    lo, hi = (np.asarray(v) for v in DOMAIN)
    return {"position": lo + rng.random((n, 3)) * (hi - lo), "energy": rng.random(n).astype("f4"),
            "id": rng.permutation(n).astype("i8") + 10_000 * step,
            "u": rng.standard_normal((n, 3)).astype("f4"), "kind": rng.integers(0, 7, n).astype("u2")}


def pvpython(script: str, *args: str, timeout: float = 120, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a script of paraview_scripts/ with pvpython; its output when it fails."""
    assert PVPYTHON, "pvpython is missing: scripts/setup-system.sh installs ParaView"
    cmd = [PVPYTHON, os.path.join(PV_SCRIPTS, script), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, f"pvpython {script} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def display():
    """An X display for ParaView to draw on (Debian's ParaView renders through X): an Xvfb server
    of this module's own, its display number chosen by Xvfb itself (-displayfd), which unlike
    `xvfb-run -a` cannot race with other test runs for a number. -noreset: by default Xvfb resets
    when its last client disconnects, and a connection opened during the reset fails ("bad X
    server connection", about 1 in 100 open/close pairs here), which aborted pvpython now and then."""
    xvfb = shutil.which("Xvfb")
    assert xvfb, "Xvfb is missing: scripts/setup-system.sh installs xvfb"
    r, w = os.pipe()
    proc = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
                             "-noreset"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as f:
        number = f.readline().strip()
    try:
        assert number.isdigit(), f"Xvfb did not start (exit code {proc.poll()})"
        yield f":{number.decode()}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("pv") / "run.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("electrons", schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 1))
        for step, n in STEPS.items():
            g.write(step=step, data=particles(step, n))
    return path


def by_id(data: dict) -> dict:
    order = np.argsort(data["id"], kind="stable")
    return {k: v[order] for k, v in data.items()}


def test_h5part_in_paraview(dataset, tmp_path):
    g = lodex.open(dataset).particles["electrons"]
    files = {(0, 2, 5): str(tmp_path / "gap.h5part"), (1,): str(tmp_path / "one.h5part")}
    g.export(files[(0, 2, 5)], steps=[0, 2, 5])
    cli = subprocess.run([sys.executable, "-m", "lodex.cli", "export", dataset, "electrons", "--out", files[(1,)],
                          "--steps", "1"], capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    out = str(tmp_path / "pv.npz")
    pvpython("h5part_dump.py", out, *files.values())
    got = np.load(out)
    for i, steps in enumerate(files):
        assert got[f"{i}/times"].tolist() == [float(s) for s in steps]
        for k, step in enumerate(steps):
            if STEPS[step] == 0:   # ParaView's reader gives an empty step no arrays at all
                assert got[f"{i}/{k}/points"].shape[0] == 0 and g.files(step) == []
                continue
            pv = {"position": got[f"{i}/{k}/points"]}
            pv.update({name: got[f"{i}/{k}/array/{name}"] for name in ("energy", "id", "u", "kind")})
            want = g.read(step)
            assert len(want["id"]) == STEPS[step] and len(pv["id"]) == STEPS[step], (step, len(pv["id"]))
            pv, want = by_id(pv), by_id(want)
            for name, (dtype, comps) in ((n, (v, 1) if isinstance(v, str) else v) for n, v in SCHEMA.items()):
                a, b = pv[name], want[name]
                assert a.dtype == np.dtype(dtype) and a.shape == b.shape, (step, name, a.dtype, a.shape)
                assert a.tobytes() == b.tobytes(), (step, name)
            for c, axis in enumerate("xyz"):   # the coordinates are point arrays too
                assert got[f"{i}/{k}/array/{axis}"][np.argsort(got[f"{i}/{k}/array/id"])].tobytes() == \
                    want["position"][:, c].tobytes()


# ---------------------------------------------------------------------------------------------
# The reader plugin
# ---------------------------------------------------------------------------------------------

GRID_DIMS = (16, 12, 8)    # x, y, z; p(x, y, z) = x + 100 y + 10000 z + 10^6 step
SERIES_DIMS = (10, 6, 4)
SERIES_STEPS = 3
BOX = (0.25, 0.0, 0.1, 1.5, 0.75, 0.9)
GRID_BOX = (3, 2, 1, 13, 11, 7)


def pv_box(box) -> list:
    """A box (x0, y0, z0, x1, y1, z1) as the readers' Box property takes it: ParaView's order,
    xmin, xmax, ymin, ymax, zmin, zmax."""
    return [box[0], box[3], box[1], box[4], box[2], box[5]]


def grid_p(step: int) -> np.ndarray:
    z, y, x = np.meshgrid(*(np.arange(n) for n in GRID_DIMS[::-1]), indexing="ij")
    return (x + 100 * y + 10_000 * z + 1_000_000 * step).astype("f8")


def grid_v(step: int) -> np.ndarray:
    return np.random.default_rng(7 + step).random((*GRID_DIMS[::-1], 3)).astype("f4")


FLAT_DIMS = (20, 9)   # a 2-D grid (x, y): value = 1000 x + y


def flat_data() -> np.ndarray:
    y, x = np.meshgrid(np.arange(FLAT_DIMS[1]), np.arange(FLAT_DIMS[0]), indexing="ij")
    return (1000 * x + y).astype("i4")


def series_data(step: int) -> dict:
    rng = np.random.default_rng(50 + step)
    x, y, z = SERIES_DIMS
    return {"T": rng.random((z, y, x)).astype("f4"), "PS": rng.random((y, x)).astype("f8")}


@pytest.fixture(scope="module")
def full_dataset(dataset):
    """The particles of ``dataset`` and a grid "pg" (steps 0, 1) and a series "geo" beside them."""
    with lodex.open(dataset, mode="a") as ds:
        g = ds.define_grid("pg", dims=GRID_DIMS, fields={"p": "f8", "v": ("f4", 3)}, bits_per_block=6)   # 32 blocks
        for step in (0, 1):
            g.write(step=step, box=((0, 0, 0), GRID_DIMS), data={"p": grid_p(step), "v": grid_v(step)})
        flat = ds.define_grid("flat", dims=FLAT_DIMS, dtype="i4")
        flat.write(step=0, box=((0, 0), FLAT_DIMS), data=flat_data())
        s = ds.define_series("geo", dims=SERIES_DIMS, variables={"T": ("f4", 3), "PS": ("f8", 2)})
        for step in range(SERIES_STEPS):
            s.write(step=step, box=((0, 0, 0), SERIES_DIMS), data=series_data(step))
    return dataset


OV_DIMS = (16, 16, 16)


def ov_data(t: int) -> np.ndarray:
    """Step t of the OpenVisus-written IDX file: value x + 100 y + 10000 z + 10^6 t (exact in f4)."""
    z, y, x = np.meshgrid(*(np.arange(n) for n in OV_DIMS), indexing="ij")
    return (x + 100 * y + 10_000 * z + 1_000_000 * t).astype("f4")


@pytest.fixture(scope="module")
def ov_idx(tmp_path_factory):
    """An IDX file of 3 time steps written by OpenVisus (the reference implementation), not lodex."""
    os.environ.setdefault("VISUS_DISABLE_WRITE_LOCK", "1")   # OpenVisus otherwise writes lock files
    import OpenVisus as ov
    url = str(tmp_path_factory.mktemp("ov") / "t.idx")
    db = ov.CreateIdx(url=url, dims=list(OV_DIMS), fields=[ov.Field("data", "float32", "hzorder")],
                      time=[0, 2, "time_%02d/"])
    for t in range(3):
        db.write(ov_data(t), time=t)
    return url


def plugin_cases(path: str, idx: str, ov_url: str) -> list[dict]:
    def case(key, reader, time, **props):
        return {"key": key, "reader": reader, "time": time,
                "props": dict({"FileName": path, "ReadStatistics": 1}, **props)}
    manifest = os.path.join(path, "manifest.json")
    return [
        case("full", "LodexParticles", 5.0, Level=-1),
        dict(case("level", "LodexParticles", 5.0), props={"FileName": manifest, "Level": 2, "ReadStatistics": 1}),
        case("box", "LodexParticles", 0.0, Name="electrons", UseBox=1, Box=pv_box(BOX)),
        case("fields", "LodexParticles", 1.0, Fields=["energy"]),
        case("fraction", "LodexParticles", 5.0, Fraction=0.25),
        case("fraction_wins", "LodexParticles", 5.0, Level=1, Fraction=0.5),
        case("grid_full", "LodexGrid", 1.0, Name="pg"),
        case("grid_coarse", "LodexGrid", 0.0, Name="pg", Resolution=7),
        case("grid_box", "LodexGrid", 1.0, Name="pg", Resolution=9, UseBox=1, Box=pv_box(GRID_BOX)),
        dict(case("idx", "LodexGrid", 0.0), props={"FileName": idx, "Fields": ["p"], "ReadStatistics": 1}),
        case("flat", "LodexGrid", 0.0, Name="flat", Resolution=5),
        dict(case("openvisus", "LodexGrid", 2.0), props={"FileName": ov_url, "Resolution": 9}),
        case("series_T", "LodexSeries", 1.0, Name="geo", Variable="T"),
        case("series_PS", "LodexSeries", 2.0, Name="geo", Variable="PS", UseBox=1, Box=pv_box([2, 1, 0, 9, 5, 4])),
        dict(case("no_dataset", "LodexParticles", 0.0), props={"FileName": path + "-missing"}),
        case("no_group", "LodexParticles", 0.0, Name="ions"),
        case("no_grid", "LodexGrid", 0.0, Name="nope"),
        case("no_series", "LodexSeries", 0.0, Name="nope"),
        case("no_variable", "LodexSeries", 0.0, Name="geo", Variable="QQ"),
        case("bad_box", "LodexGrid", 0.0, Name="pg", UseBox=1, Box=pv_box([0, 0, 0, 99, 4, 4])),
        case("fractional_box", "LodexSeries", 0.0, Name="geo", UseBox=1, Box=pv_box([0, 0, 0, 2.5, 4, 4])),
        case("bad_resolution", "LodexGrid", 0.0, Name="pg", Resolution=40),
    ]


@pytest.fixture(scope="module")
def plugin_run(full_dataset, ov_idx, display, tmp_path_factory):
    """The pvpython run over plugin_cases: (npz contents, stdout + stderr, screenshot path)."""
    d = tmp_path_factory.mktemp("pv-plugin")
    from lodex.paraview import plugin_path
    idx = lodex.open(full_dataset).grids["pg"].idx_path
    cases = str(d / "cases.json")
    with open(cases, "w") as f:
        json.dump(plugin_cases(full_dataset, idx, ov_idx), f)
    env = dict(os.environ, LODEX_PYTHON=sys.executable, DISPLAY=display)
    out, png = str(d / "plugin.npz"), str(d / "shot.png")
    proc = pvpython("plugin_dump.py", plugin_path(), cases, out, png, env=env, timeout=300)
    return dict(np.load(out)), proc.stdout + proc.stderr, png


def particle_case(got: dict, key: str) -> dict:
    out = {"position": got[f"{key}/points"]}
    out.update({k.split("/")[-1]: v for k, v in got.items() if k.startswith(f"{key}/array/")})
    return out


@pytest.mark.parametrize("key,step,kwargs", [
    ("full", 5, {}), ("level", 5, {"level": 2}), ("box", 0, {"box": (BOX[:3], BOX[3:])}),
    ("fields", 1, {"fields": ["energy", "position"]}), ("fraction", 5, {"fraction": 0.25}),
    ("fraction_wins", 5, {"fraction": 0.5})])
def test_plugin_particles(plugin_run, full_dataset, key, step, kwargs):
    got, _, _ = plugin_run
    g = lodex.open(full_dataset).particles["electrons"]
    assert got[f"{key}/times"].tolist() == [float(s) for s in g.steps]
    want = g.read(step, **kwargs)
    pv = particle_case(got, key)
    assert set(pv) == set(want), (set(pv), set(want))
    n = len(want["position"])
    assert len(pv["position"]) == n and int(got[f"{key}/verts"][0]) == n
    if "id" in want:
        pv, want = by_id(pv), by_id(want)
        assert np.array_equal(pv["id"], want["id"])
    for name in want:
        assert pv[name].dtype == want[name].dtype and pv[name].shape == want[name].shape, name
        assert pv[name].tobytes() == want[name].tobytes(), (key, name)
    assert int(got[f"{key}/stat/lodex_particles"][0]) == n


def test_plugin_particle_levels_read_less(plugin_run):
    """A level of detail returns fewer particles and reads fewer bytes (the read statistics the
    plugin attaches as field data), the box fewer too; a coarse grid reads fewer bytes."""
    got, _, _ = plugin_run
    full = int(got["full/stat/lodex_particles"][0])
    assert full == STEPS[5]
    assert int(got["level/stat/lodex_particles"][0]) < full / 2
    assert got["level/stat/lodex_bytes_read"][0] < got["full/stat/lodex_bytes_read"][0] / 2
    assert got["box/stat/lodex_particles"][0] < STEPS[0]
    assert got["grid_coarse/stat/lodex_bytes_read"][0] < got["grid_full/stat/lodex_bytes_read"][0]


def image_geometry(got: dict, key: str):
    e = got[f"{key}/image"]
    extent, origin, spacing = e[:6].astype(int), e[6:9], e[9:12]
    counts = [extent[2 * a + 1] - extent[2 * a] + 1 for a in range(3)]
    return counts, origin, spacing


@pytest.mark.parametrize("key,step,resolution,box", [
    ("grid_full", 1, None, None), ("grid_coarse", 0, 7, None), ("grid_box", 1, 9, GRID_BOX), ("idx", 0, None, None)])
def test_plugin_grid(plugin_run, full_dataset, key, step, resolution, box):
    got, _, _ = plugin_run
    g = lodex.open(full_dataset).grids["pg"]
    assert got[f"{key}/times"].tolist() == [0.0, 1.0]
    counts, origin, spacing = image_geometry(got, key)
    core_box = None if box is None else (box[:3], box[3:])
    fields = ["p"] if key == "idx" else ["p", "v"]
    assert sorted(k.split("/")[-1] for k in got if k.startswith(f"{key}/array/")) == fields
    for field in fields:
        want = g.read(step, box=core_box, resolution=resolution, field=field)
        assert tuple(counts[::-1]) == want.shape[:3], (key, counts, want.shape)
        a = got[f"{key}/array/{field}"]
        assert a.dtype == want.dtype
        assert a.tobytes() == want.tobytes(), (key, field)
    # The geometry, independently: p encodes each sample's (x, y, z).
    z, y, x = np.meshgrid(*(origin[a] + spacing[a] * np.arange(counts[a]) for a in (2, 1, 0)), indexing="ij")
    p = got[f"{key}/array/p"].reshape(counts[::-1])
    assert np.array_equal(p, x + 100 * y + 10_000 * z + 1_000_000 * step), key
    if resolution is not None:
        assert spacing.max() > 1 and np.prod(counts) < np.prod(GRID_DIMS)


def test_plugin_openvisus_idx(plugin_run, ov_idx):
    """An IDX file OpenVisus wrote, with its time steps as ParaView's times: step 2 at resolution
    9 equals OpenVisus's own read, and its geometry the values' coordinates."""
    import OpenVisus as ov
    got, _, _ = plugin_run
    assert got["openvisus/times"].tolist() == [0.0, 1.0, 2.0]
    counts, origin, spacing = image_geometry(got, "openvisus")
    want = ov.LoadDataset(ov_idx).read(time=2, max_resolution=9)
    a = got["openvisus/array/data"]
    assert tuple(counts[::-1]) == want.shape and a.dtype == want.dtype and a.tobytes() == want.tobytes()
    z, y, x = np.meshgrid(*(origin[k] + spacing[k] * np.arange(counts[k]) for k in (2, 1, 0)), indexing="ij")
    assert np.array_equal(a.reshape(counts[::-1]), x + 100 * y + 10_000 * z + 2_000_000)
    assert spacing.tolist() == [2.0, 2.0, 2.0]


def test_plugin_2d_grid(plugin_run, full_dataset):
    """A 2-D grid is one slice (z 0..0); a coarse read's geometry checked by the values."""
    got, _, _ = plugin_run
    counts, origin, spacing = image_geometry(got, "flat")
    want = lodex.open(full_dataset).grids["flat"].read(0, resolution=5)
    assert counts[2] == 1 and tuple(counts[1::-1]) == want.shape and np.prod(counts) < np.prod(FLAT_DIMS)
    a = got["flat/array/flat"]
    assert a.dtype == want.dtype and a.tobytes() == want.tobytes()
    y, x = np.meshgrid(origin[1] + spacing[1] * np.arange(counts[1]), origin[0] + spacing[0] * np.arange(counts[0]),
                       indexing="ij")
    assert np.array_equal(a.reshape(counts[1], counts[0]), 1000 * x + y)


@pytest.mark.parametrize("key,var,step,box", [("series_T", "T", 1, None), ("series_PS", "PS", 2, (2, 1, 0, 9, 5, 4))])
def test_plugin_series(plugin_run, full_dataset, key, var, step, box):
    got, _, _ = plugin_run
    assert got[f"{key}/times"].tolist() == [float(s) for s in range(SERIES_STEPS)]
    counts, origin, spacing = image_geometry(got, key)
    s = lodex.open(full_dataset).series["geo"]
    want = s.read(var, steps=step, box=None if box is None else (box[:3], box[3:]))
    full = series_data(step)[var]
    if box is not None:   # an independent oracle: numpy slicing of what was written
        full = full[box[1]:box[4], box[0]:box[3]]
    assert np.array_equal(want, full)
    a = got[f"{key}/array/{var}"]
    assert a.dtype == want.dtype and a.tobytes() == want.tobytes()
    assert counts[::-1][3 - want.ndim:] == list(want.shape) and spacing.tolist() == [1.0, 1.0, 1.0]
    assert origin.tolist()[:2] == ([0.0, 0.0] if box is None else [float(box[0]), float(box[1])])


def test_plugin_screenshot(plugin_run):
    """The particles drawn (coloured by energy) are on the picture: not one colour, and more than
    a few pixels differ from the background (the corner pixel)."""
    got, _, png = plugin_run
    with open(png, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    pixels = got["screenshot/pixels"][..., :3].astype(float)
    assert pixels.shape[:2] == (240, 320)
    assert pixels.var() > 1.0
    background = pixels[0, 0]
    drawn = np.any(np.abs(pixels - background) > 8, axis=-1).mean()
    assert drawn > 0.01, drawn


@pytest.mark.parametrize("key,words", [
    ("no_dataset", ["NotFoundError", "-missing"]), ("no_group", ["NotFoundError", "'ions'"]),
    ("no_grid", ["NotFoundError", "'nope'"]), ("no_series", ["NotFoundError", "'nope'"]),
    ("no_variable", ["NotFoundError", "'QQ'", "T, PS"]), ("bad_box", ["InvalidArgumentError", "box"]),
    ("fractional_box", ["InvalidArgumentError", "whole numbers", "2.5"]),
    ("bad_resolution", ["InvalidArgumentError", "resolution 40", "max_resolution"])])
def test_plugin_bad_input(plugin_run, key, words):
    """Each bad case gives no data and one error line naming the problem; the run goes on (the
    screenshot after the cases exists)."""
    got, output, _ = plugin_run
    assert f"{key}/failed" in got
    lines = [ln for ln in output.splitlines() if "ERROR: lodex reader" in ln and all(w in ln for w in words)]
    assert lines, (key, words, output[-3000:])
    assert "screenshot/pixels" in got


# Stages of reapply.py: Box in ParaView's order (xmin, xmax, ymin, ymax, zmin, zmax).
REAPPLY = [["first", {"Box": [0.0, 1.0, 0.0, 1.0, 0.0, 1.0], "Level": -1}],
           ["inverted", {"Box": [1.5, 0.5, 0.0, 1.0, 0.0, 1.0]}],
           ["second", {"Box": [1.0, 2.0, 0.0, 1.0, 0.0, 1.0], "Level": 3}],
           ["no_group", {"Name": "ions"}],
           ["third", {"Name": "electrons", "Box": [0.25, 1.75, 0.1, 0.9, 0.0, 1.0], "Level": 4}]]


def test_plugin_reads_again_after_an_error(dataset, display, tmp_path):
    """What the view shows follows every change of the properties, also after an error: an
    inverted box (an error line, an empty output), then a valid box and a level show exactly
    lodex's read of them; the same after a group that does not exist. (The reader used to return
    failure, which left ParaView's "needs update" flag set: the view kept the points read before
    the error, whatever the box and level, until the time changed.)"""
    from lodex.paraview import plugin_path
    stages, out = str(tmp_path / "stages.json"), str(tmp_path / "seen.json")
    with open(stages, "w") as f:
        json.dump(REAPPLY, f)
    env = dict(os.environ, LODEX_PYTHON=sys.executable, DISPLAY=display)
    proc = pvpython("reapply.py", plugin_path(), dataset, stages, out, env=env, timeout=300)
    with open(out) as f:
        seen = json.load(f)
    g = lodex.open(dataset).particles["electrons"]

    def want(box, level):
        b = ((box[0], box[2], box[4]), (box[1], box[3], box[5]))
        return g.read(0, box=b, level=None if level < 0 else level, fields=["position", "id"])

    errors = [ln for ln in proc.stderr.splitlines() if "ERROR: lodex reader" in ln]
    assert any("inverted" in ln for ln in errors) and any("'ions'" in ln for ln in errors), errors
    assert seen["inverted"]["points"] == 0 and seen["no_group"]["points"] == 0
    for key, box, level in (("first", REAPPLY[0][1]["Box"], -1), ("second", REAPPLY[2][1]["Box"], 3),
                            ("third", REAPPLY[4][1]["Box"], 4)):
        w = want(box, level)
        assert 0 < len(w["id"]) < STEPS[0]
        assert seen[key]["points"] == len(w["id"]), (key, seen[key], len(w["id"]))
        pos = w["position"]
        bounds = [v for a in range(3) for v in (pos[:, a].min(), pos[:, a].max())]
        assert np.allclose(seen[key]["bounds"], bounds), (key, seen[key]["bounds"], bounds)
    w = by_id(want(REAPPLY[4][1]["Box"], 4))
    got = by_id({"id": np.array(seen["output"]["id"]), "position": np.array(seen["output"]["points"])})
    assert np.array_equal(got["id"], w["id"]) and np.array_equal(got["position"], w["position"])


BIG = 300_000   # particles of the step of big_dataset: more than a coarse first look should read


@pytest.fixture(scope="module")
def big_dataset(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("pv-big") / "big.lodex")
    rng = np.random.default_rng(5)
    with lodex.create(path) as ds:
        g = ds.define_particles("electrons", schema={"position": ("f4", 3), "id": "i8"}, domain=DOMAIN,
                                partition_grid=(2, 1, 1))
        g.write(step=3, data={"position": (rng.random((BIG, 3)) * [2, 1, 1]).astype("f4"),
                              "id": np.arange(BIG, dtype="i8")})
    return path


@pytest.fixture(scope="module")
def one_kind(tmp_path_factory):
    """Two datasets holding one kind each: a series, a grid."""
    d = tmp_path_factory.mktemp("pv-one-kind")
    paths = {"series": str(d / "series.lodex"), "grid": str(d / "grid.lodex")}
    with lodex.create(paths["series"]) as ds:
        s = ds.define_series("geo", dims=SERIES_DIMS, variables={"T": ("f4", 3), "PS": ("f8", 2)})
        s.write(step=0, box=((0, 0, 0), SERIES_DIMS), data=series_data(0))
    with lodex.create(paths["grid"]) as ds:
        g = ds.define_grid("pg", dims=GRID_DIMS, fields={"p": "f8", "v": ("f4", 3)}, bits_per_block=6)
        g.write(step=0, box=((0, 0, 0), GRID_DIMS), data={"p": grid_p(0), "v": grid_v(0)})
    return paths


@pytest.fixture(scope="module")
def defaults_run(dataset, big_dataset, full_dataset, one_kind, display, tmp_path_factory):
    """defaults.py over readers given nothing but the file (and a few given more), and the
    readers offered for datasets of one, two and three kinds."""
    d = tmp_path_factory.mktemp("pv-defaults")
    from lodex.paraview import plugin_path
    cases = [{"key": "small", "reader": "LodexParticles", "props": {"FileName": dataset}, "time": 5.0},
             {"key": "statistics", "reader": "LodexParticles", "props": {"FileName": dataset, "ReadStatistics": 1},
              "time": 5.0},
             {"key": "big", "reader": "LodexParticles", "props": {"FileName": big_dataset}, "time": 3.0},
             {"key": "big_level", "reader": "LodexParticles", "props": {"FileName": big_dataset, "Level": 2},
              "time": 3.0},
             {"key": "grid", "reader": "LodexGrid", "props": {"FileName": full_dataset, "Name": "pg"}, "time": 0.0},
             {"key": "series", "reader": "LodexSeries", "props": {"FileName": full_dataset, "Name": "geo"},
              "time": 0.0},
             {"key": "grids", "reader": "LodexGrid", "props": {"FileName": full_dataset}, "time": 0.0}]
    # (full_dataset is dataset with a grid and a series added; big_dataset holds particles only)
    files = [os.path.join(p, "manifest.json")
             for p in (big_dataset, full_dataset, one_kind["series"], one_kind["grid"])]
    files.append(lodex.open(one_kind["grid"]).grids["pg"].idx_path)
    folders = [big_dataset, one_kind["series"], one_kind["grid"]]
    files += folders
    path, out = str(d / "cases.json"), str(d / "out.json")
    with open(path, "w") as f:
        json.dump({"cases": cases, "files": files, "open": folders + [files[0], files[4]]}, f)
    env = dict(os.environ, LODEX_PYTHON=sys.executable, DISPLAY=display)
    pvpython("defaults.py", plugin_path(), path, out, env=env, timeout=300)
    with open(out) as f:
        return json.load(f)


def test_plugin_box_default_is_the_domain(defaults_run):
    """The Box is in ParaView's order (xmin, xmax, ymin, ymax, zmin, zmax: the rows of the panel)
    and starts as the whole domain (particles) or grid (samples, max exclusive), not 0..1."""
    got = defaults_run
    (x0, y0, z0), (x1, y1, z1) = DOMAIN
    assert got["small"]["props"]["Box"] == [x0, x1, y0, y1, z0, z1]
    assert got["grid"]["props"]["Box"] == [0, GRID_DIMS[0], 0, GRID_DIMS[1], 0, GRID_DIMS[2]]
    assert got["series"]["props"]["Box"] == [0, SERIES_DIMS[0], 0, SERIES_DIMS[1], 0, SERIES_DIMS[2]]


def test_plugin_opens_coarse(defaults_run, big_dataset, dataset):
    """Opened with nothing set, a large step is read at a level of about 10^5 particles (at most
    2 * 10^5), and the panel shows how many levels the step has and how many particles are
    shown, as lodex's own read at that level says; a small dataset opens whole; a Level given
    stays."""
    big = defaults_run["big"]["props"]
    level = big["Level"][0]
    g = lodex.open(big_dataset).particles["electrons"]
    want = g.read(3, level=level, fields=["id"])
    assert 10**5 <= len(want["id"]) <= 2 * 10**5 < BIG
    assert defaults_run["big"]["points"] == len(want["id"]) == big["ParticlesShown"][0]
    assert big["ParticlesInStep"] == [BIG]
    assert big["Levels"] == [g.last_read_stats["levels"]] and big["Levels"][0] > level + 1
    small = defaults_run["small"]["props"]
    assert defaults_run["small"]["points"] == STEPS[5] == small["ParticlesShown"][0] == small["ParticlesInStep"][0]
    assert defaults_run["big_level"]["props"]["Level"] == [2]
    assert defaults_run["big_level"]["points"] == len(g.read(3, level=2, fields=["id"])["id"])


def test_plugin_offers_only_the_readers_a_dataset_has_data_for(defaults_run, big_dataset, full_dataset, one_kind):
    """File > Open offers the readers whose data the dataset holds (ParaView's reader factory asks
    each reader's CanReadFile): a series dataset is not offered the grid reader (which then
    failed with "holds no grids")."""
    offered = {os.path.dirname(p) if p.endswith("manifest.json") else p: v
               for p, v in defaults_run["offered"].items()}
    assert offered[big_dataset] == ["Lodex Particles"]
    assert offered[full_dataset] == ["Lodex Grid", "Lodex Particles", "Lodex Series"]
    assert offered[one_kind["series"]] == ["Lodex Series"]
    assert offered[one_kind["grid"]] == ["Lodex Grid"]
    assert offered[lodex.open(one_kind["grid"]).grids["pg"].idx_path] == ["Lodex Grid"]
    folders = {p: v for p, v in defaults_run["offered"].items() if p.endswith(".lodex")}
    assert folders == {big_dataset: ["Lodex Particles"], one_kind["series"]: ["Lodex Series"],
                       one_kind["grid"]: ["Lodex Grid"]}


def test_plugin_opens_a_dataset_folder(defaults_run, big_dataset, one_kind):
    """A dataset's folder (*.lodex) opens as the dataset itself (File > Open on the folder; in
    pvpython OpenDataFile), so that ParaView names the pipeline item after it rather than
    "manifest.json"; the reader reads what the manifest would give; its RegistrationName (the
    pipeline name ParaView 5.12 and later take from a reader) names the dataset and the group,
    grid or series read, and an IDX file by its own name."""
    opened = defaults_run["opened"]
    big = opened[big_dataset]
    assert big["reader"] == "Lodex Particles" and big["registration"] == "big.lodex: electrons"
    assert big["points"] == defaults_run["big"]["points"]
    assert opened[os.path.join(big_dataset, "manifest.json")] == big
    series = opened[one_kind["series"]]
    assert series["reader"] == "Lodex Series" and series["registration"] == "series.lodex: geo"
    assert series["points"] == int(np.prod(SERIES_DIMS))
    grid = opened[one_kind["grid"]]
    assert grid["reader"] == "Lodex Grid" and grid["registration"] == "grid.lodex: pg"
    assert grid["points"] == int(np.prod(GRID_DIMS))
    idx = opened[lodex.open(one_kind["grid"]).grids["pg"].idx_path]
    assert idx["reader"] == "Lodex Grid" and idx["points"] == grid["points"]
    assert idx["registration"] == os.path.basename(lodex.open(one_kind["grid"]).grids["pg"].idx_path)


def test_plugin_names_are_drop_down_lists(defaults_run, full_dataset):
    """Name offers the dataset's groups, grids or series (the reader's kind), Variable the
    series' variables; with nothing set they are the first of each."""
    ds = lodex.open(full_dataset)
    grids = defaults_run["grids"]
    assert sorted(grids["lists"]["Name"]) == ["flat", "pg"] and grids["lists"]["Name"] == list(ds.grids)
    assert grids["props"]["Name"] == [list(ds.grids)[0]]
    series = defaults_run["series"]
    assert series["lists"]["Name"] == ["geo"]
    assert series["lists"]["Variable"] == list(ds.series["geo"].variables) == ["T", "PS"]
    assert series["props"]["Variable"] == ["T"]
    small = defaults_run["small"]
    assert small["lists"]["Name"] == ["electrons"] and small["props"]["Name"] == ["electrons"]


def test_plugin_colours_by_the_first_field_and_hides_statistics(defaults_run):
    """Shown, particles and a 2-D grid are coloured by their first field (not Solid Color); (a
    3-D grid or series opens as ParaView's Outline of a volume, uncoloured); the read's lodex_*
    statistics are field data only with ReadStatistics."""
    assert defaults_run["small"]["color"] == ["POINTS", "energy"]
    assert defaults_run["big"]["color"] == ["POINTS", "id"]
    assert defaults_run["grids"]["props"]["Name"] == ["flat"] and defaults_run["grids"]["color"] == ["POINTS", "flat"]
    for key in ("small", "big", "grid", "series"):
        assert defaults_run[key]["field_data"] == [], key
    stats = defaults_run["statistics"]["field_data"]
    assert "lodex_particles" in stats and "lodex_bytes_read" in stats


def test_plugin_in_gui(full_dataset, display, tmp_path):
    """The ParaView GUI (under Xvfb) runs the loader script of `lodex paraview-plugin --loader`
    (no LODEX_PYTHON set) and reads particles with the plugin."""
    loader, out = str(tmp_path / "load_lodex.py"), str(tmp_path / "points.txt")
    cli = subprocess.run([sys.executable, "-m", "lodex.cli", "paraview-plugin", "--loader", loader],
                         capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, cli.stderr
    from lodex.paraview import plugin_path
    assert cli.stdout.strip() == plugin_path() and os.path.isfile(plugin_path())
    assert f"paraview --script={loader}" in cli.stderr
    env = {k: v for k, v in os.environ.items() if k != "LODEX_PYTHON"}
    env.update(LODEX_TEST_LOADER=loader, LODEX_TEST_DATASET=full_dataset, LODEX_TEST_STEP="5", LODEX_TEST_OUT=out,
               DISPLAY=display)
    gui = shutil.which("paraview")
    assert gui, "scripts/setup-system.sh installs paraview"
    proc = subprocess.run([gui, f"--script={os.path.join(PV_SCRIPTS, 'gui_check.py')}"],
                          capture_output=True, text=True, timeout=300, env=env)
    assert os.path.exists(out), (proc.returncode, proc.stdout, proc.stderr)
    with open(out) as f:
        assert int(f.read()) == STEPS[5]


def test_plugin_finds_its_python(full_dataset, tmp_path):
    """Without LODEX_PYTHON the plugin runs <prefix>/bin/pythonX.Y of the installation it sits in."""
    from lodex.paraview import plugin_path
    tag = f"python{sys.version_info.major}.{sys.version_info.minor}"
    home = tmp_path / "prefix"
    pkg = home / "lib" / tag / "site-packages" / "lodex" / "paraview"
    pkg.mkdir(parents=True)
    shutil.copy(plugin_path(), pkg / "lodex_reader.py")
    (home / "bin").mkdir()
    python = home / "bin" / tag
    python.write_text(f"#!/bin/sh\necho used >> {tmp_path / 'used'}\nexec {sys.executable} \"$@\"\n")
    python.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "LODEX_PYTHON"}
    proc = pvpython("autodetect.py", str(pkg / "lodex_reader.py"), full_dataset, "1", env=env)
    assert f"points {STEPS[1]}" in proc.stdout, proc.stdout + proc.stderr
    assert (tmp_path / "used").read_text().count("used") == 1   # one worker answers every request
    env["LODEX_PYTHON"] = str(tmp_path / "no-such-python")
    proc = pvpython("autodetect.py", str(pkg / "lodex_reader.py"), full_dataset, "1", env=env)
    assert "points 0" in proc.stdout
    assert "cannot run lodex's Python" in proc.stderr and "no-such-python" in proc.stderr
    broken = tmp_path / "broken-python"   # a Python without lodex: it says so and exits
    broken.write_text("#!/bin/sh\necho \"No module named lodex\" >&2\nexit 1\n")
    broken.chmod(0o755)
    env["LODEX_PYTHON"] = str(broken)
    proc = pvpython("autodetect.py", str(pkg / "lodex_reader.py"), full_dataset, "1", env=env)
    assert "points 0" in proc.stdout
    line = next(ln for ln in proc.stderr.splitlines() if "ERROR: lodex reader" in ln)
    assert "broken-python" in line and "exit code 1" in line and "LODEX_PYTHON" in line, line
    assert "No module named lodex" in proc.stderr


def test_plugin_starts_its_worker_as_it_loads(full_dataset, tmp_path):
    """Loading the plugin starts lodex's Python (python -m lodex.paraview.worker) at once, so that
    opening a dataset later does not wait for Python and lodex's import (about 0.3 s of ParaView's
    open to first render, bench/paraview.py); the first read uses that process, and it stays
    pvpython's only worker."""
    from lodex.paraview import plugin_path
    env = dict(os.environ, LODEX_PYTHON=sys.executable)
    proc = pvpython("early_worker.py", plugin_path(), full_dataset, "1", env=env)
    got = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert got["before"] is not None, got
    assert got["after"] == got["before"] and got["workers"] == [got["before"]], got
    assert got["points"] == STEPS[1]


def test_loader_bad_path(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "lodex.cli", "paraview-plugin", "--loader", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "InvalidArgumentError" in proc.stderr and "name a file" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "lodex.paraview", "--loader", str(tmp_path / "no" / "x.py")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "IOFailure" in proc.stderr and "x.py" in proc.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("request_text,words", [
    ("not json", ["InvalidArgumentError", "bad request"]),
    ('{"op": "draw"}', ["InvalidArgumentError", "particles_info"]),
    ('{"op": "particles", "path": ""}', ["InvalidArgumentError", "no file name"]),
    ('{"op": "particles", "path": "/nonexistent/x.lodex", "step": 0}', ["NotFoundError", "x.lodex"]),
])
def test_worker_errors(request_text, words):
    """The worker answers bad requests with one JSON error line (what the plugin shows)."""
    proc = subprocess.run([sys.executable, "-m", "lodex.paraview.worker"], input=request_text.encode(),
                          capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    answer = json.loads(proc.stdout.decode())
    text = f"{answer['error']}: {answer['message']}"
    for w in words:
        assert w in text, text


def test_plugin_in_parallel_pvbatch(full_dataset, tmp_path):
    """pvbatch on 2 ranks of ParaView's own Open MPI (where lodex imported into ParaView's Python
    would meet the wrong MPI library): the plugin reads on the first rank and ParaView's totals
    over the ranks are the read's, not twice it."""
    loader = str(tmp_path / "load_lodex.py")
    from lodex.paraview import write_loader
    write_loader(loader)
    mpirun, pvbatch = shutil.which("mpirun.openmpi"), shutil.which("pvbatch")
    assert mpirun and pvbatch, "scripts/setup-system.sh installs paraview (and with it Open MPI's mpirun)"
    proc = subprocess.run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2", pvbatch, "--symmetric",
                           os.path.join(PV_SCRIPTS, "pvbatch_check.py"), loader, full_dataset],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    got = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    g = lodex.open(full_dataset)
    assert got == {"ranks": 2, "particles": len(g.particles("electrons").read(5, level=1)["id"]),
                   "grid_points": int(np.prod(GRID_DIMS))}
