"""Path confinement (docs/reliability.md, "Paths"): reads open only files whose real location,
every symbolic link resolved, lies under the dataset's directory (for open_idx, under the .idx
file's directory). A link, an IDX file template or a (time) pattern leading out is a FormatError
naming the path and where it leads, raised before the file is opened; links that stay inside are
followed; allow_outside=True follows them all. Relative IDX templates resolve against the .idx
file's directory, whatever the working directory."""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

import lodex

SCHEMA = {"position": ("f8", 3), "energy": "f4"}
N = 2000


def particles(step: int) -> dict:
    rng = np.random.default_rng([7, step])
    return {"position": rng.random((N, 3)), "energy": rng.random(N).astype(np.float32)}


def grid_values() -> np.ndarray:
    return np.arange(16 * 16 * 16, dtype=np.float32).reshape(16, 16, 16)


@pytest.fixture
def made(tmp_path):
    """A dataset with a particle group (2 steps, indexed), a grid and a series."""
    path = tmp_path / "d.lodex"
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1))
        for s in (0, 1):
            g.write(step=s, data=particles(s))
        g.build_index(fields=["energy"])
        ds.define_grid("rho", dims=(16, 16, 16), dtype="f4").write(0, ((0, 0, 0), (16, 16, 16)), grid_values())
        s = ds.define_series("t", dims=(8, 4, 2), variables={"v": "f4"})
        for t in range(3):
            s.write(t, ((0, 0, 0), (8, 4, 2)), {"v": np.full((2, 4, 8), t, np.float32)})
    return path


def step_dir(path, step: int) -> str:
    return [str(e) for e in sorted((path / "p").iterdir()) if e.is_dir()][step]


def move_out(inside: str, outside) -> None:
    """Moves `inside` (a file or folder of the dataset) to `outside` and links it back."""
    shutil.move(inside, outside)
    os.symlink(outside, inside)


def test_links_inside_the_dataset_are_followed(made):
    sd = step_dir(made, 0)
    data = sorted(f for f in os.listdir(sd) if f.endswith(".lpd"))[0]
    os.rename(os.path.join(sd, data), made / "kept.bin")
    os.symlink(os.path.relpath(made / "kept.bin", sd), os.path.join(sd, data))
    with lodex.open(made) as ds:
        got = ds.particles["p"].read(step=0)
    assert np.array_equal(np.sort(got["energy"]), np.sort(particles(0)["energy"]))


@pytest.mark.parametrize("what", ["step folder", "data file", "spatial metadata", "index file"])
def test_particle_files_outside_are_refused_unless_allowed(made, tmp_path, what):
    sd = step_dir(made, 1)
    target = {"step folder": sd,
              "data file": os.path.join(sd, sorted(f for f in os.listdir(sd) if f.endswith(".lpd"))[0]),
              "spatial metadata": os.path.join(sd, "spatial.lsm"),
              "index file": os.path.join(sd, sorted(f for f in os.listdir(sd) if f.endswith(".lbx"))[0])}[what]
    move_out(target, tmp_path / "elsewhere")
    want = int((particles(1)["energy"] > 0.5).sum())
    with lodex.open(made) as ds:
        p = ds.particles["p"]
        assert np.array_equal(np.sort(p.read(step=0)["energy"]), np.sort(particles(0)["energy"]))   # untouched
        if what == "index file":   # an unusable index is never needed: the file is scanned, and a note says why
            r = p.query(1, "energy > 0.5")
            assert r.count == want
            assert any("outside" in n and "elsewhere" in n for n in r.notes), r.notes
        else:
            with pytest.raises(lodex.FormatError, match="outside") as e:
                p.read(step=1)
            assert "elsewhere" in str(e.value)
    with lodex.open(made, allow_outside=True) as ds:
        p = ds.particles["p"]
        assert np.array_equal(np.sort(p.read(step=1)["energy"]), np.sort(particles(1)["energy"]))
        r = p.query(1, "energy > 0.5")
        assert r.count == want and not r.notes


def test_a_manifest_outside_is_refused(made, tmp_path):
    move_out(str(made / "manifest.json"), tmp_path / "m.json")
    with pytest.raises(lodex.FormatError, match="outside"):
        lodex.open(made)
    with lodex.open(made, allow_outside=True) as ds:
        assert ds.particles["p"].steps == [0, 1]


def test_grid_blocks_and_series_windows_outside_are_refused(made, tmp_path):
    move_out(str(made / "rho"), tmp_path / "rho-blocks")
    window = [f for f in os.listdir(made / "t") if not f.startswith(".")][0]
    move_out(str(made / "t" / window), tmp_path / "window")
    with lodex.open(made) as ds:
        with pytest.raises(lodex.FormatError, match="outside"):
            ds.grids["rho"].read(step=0)
        with pytest.raises(lodex.FormatError, match="outside"):
            ds.series["t"].read(variable="v", steps=[0, 1, 2])
    with lodex.open(made, allow_outside=True) as ds:
        assert np.array_equal(ds.grids["rho"].read(step=0), grid_values())
        assert ds.series["t"].read(variable="v", steps=[0, 1, 2]).shape[0] == 3


def idx_with(tmp_path, template: str, time: tuple | None = None) -> str:
    """A 16^3 IDX dataset by write_idx whose .idx is then edited to `template`."""
    root = tmp_path / "idx"
    root.mkdir()
    idx = str(root / "g.idx")
    if time:
        for t in range(2):
            lodex.write_idx(idx, grid_values() + t, time=time, step=t)
    else:
        lodex.write_idx(idx, grid_values())
    text = open(idx).read()
    old = text.split("(filename_template)\n")[1].split("\n")[0]
    with open(idx, "w") as f:
        f.write(text.replace(old, template))
    return idx


def test_relative_templates_resolve_against_the_idx_directory(tmp_path, monkeypatch):
    idx = idx_with(tmp_path, "g/%04x.bin")   # no "./": used to be taken from the working directory
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert np.array_equal(lodex.open_idx(idx).read(), grid_values())


def test_an_absolute_template_outside_is_refused_unless_allowed(tmp_path):
    idx = idx_with(tmp_path, "./g/%04x.bin")
    shutil.move(str(tmp_path / "idx" / "g"), tmp_path / "shared")
    with open(idx) as f:
        text = f.read().replace("./g/%04x.bin", str(tmp_path / "shared" / "%04x.bin"))
    with open(idx, "w") as f:
        f.write(text)
    with pytest.raises(lodex.FormatError, match="outside") as e:
        lodex.open_idx(idx).read()
    assert "shared" in str(e.value)
    assert np.array_equal(lodex.open_idx(idx, allow_outside=True).read(), grid_values())


def test_dotdot_in_template_or_time_pattern_is_refused(tmp_path):
    idx = idx_with(tmp_path, "./../g/%04x.bin")
    (tmp_path / "g").mkdir()
    shutil.copy(next((tmp_path / "idx" / "g").iterdir()), tmp_path / "g")
    with pytest.raises(lodex.FormatError, match="outside"):
        lodex.open_idx(idx).read()
    assert np.array_equal(lodex.open_idx(idx, allow_outside=True).read(), grid_values())


def test_time_pattern_escaping_is_refused(tmp_path):
    idx = idx_with(tmp_path, "./g/%04x.bin", time=("0", "1", "t%d/"))
    text = open(idx).read().replace("t%d/", "../../t%d/")
    with open(idx, "w") as f:
        f.write(text)
    for t in range(2):   # put the blocks where the forged pattern leads: ./g/../../t<t>/
        shutil.copytree(tmp_path / "idx" / "g" / f"t{t}", tmp_path / f"t{t}")
    with pytest.raises(lodex.FormatError, match="outside"):
        lodex.open_idx(idx).read(step=1)
    assert np.array_equal(lodex.open_idx(idx, allow_outside=True).read(step=1), grid_values() + 1)


def test_the_idx_file_itself_may_be_a_link(tmp_path):
    idx = idx_with(tmp_path, "./g/%04x.bin")
    link = tmp_path / "link.idx"
    os.symlink(idx, link)
    # Templates and the root are those of the file the link leads to (tmp_path/idx).
    assert np.array_equal(lodex.open_idx(link).read(), grid_values())
