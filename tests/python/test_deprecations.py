"""One vocabulary for particles, grids and series: step first, then the selection (patch, box),
then the data; options keyword-only; the groups of a dataset as mappings (``ds.particles``,
``ds.grids``, ``ds.series``) and their definitions as ``define_particles``, ``define_grid``,
``define_series``. Each spelling of the previous release still works for one release with a
DeprecationWarning naming the new one, pointing at the caller's line, and gives what the new
spelling gives; the new spellings warn about nothing."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

import lodex

SCHEMA = {"position": ("f8", 3), "energy": "f4"}
DOMAIN = ((0, 0, 0), (1, 1, 1))
PATCH = ((0, 0, 0), (1, 1, 1))


def particles(n: int = 400, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    return {"position": rng.random((n, 3)), "energy": rng.random(n, dtype=np.float32)}


def grid_data(step: int) -> np.ndarray:
    return (np.arange(8 * 8, dtype=np.float32).reshape(8, 8) + step)


def series_data(step: int) -> dict:
    return {"T": (np.arange(2 * 4 * 4, dtype=np.float32).reshape(2, 4, 4) + step)}


@pytest.fixture
def written(tmp_path):
    """A dataset written with the new spellings only (a DeprecationWarning here is an error)."""
    path = str(tmp_path / "v.lodex")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        ds = lodex.create(path)
        g = ds.define_particles("a", SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 1))
        g.write(0, PATCH, particles(seed=0))
        g.write(1, data=particles(seed=1))
        g.build_index(["energy"], precision=2)
        gr = ds.define_grid("rho", (8, 8), "f4", bits_per_block=4)
        for step in range(2):
            gr.write(step, ((0, 0), (8, 8)), grid_data(step))
        s = ds.define_series("geos", (4, 4, 2), {"T": ("f4", 3)}, d_tar=1)
        for step in range(2):
            s.write(step, ((0, 0, 0), (4, 4, 2)), series_data(step))
        ds.close()
    return path


def warns(match: str):
    return pytest.warns(DeprecationWarning, match=match)


def test_the_new_spellings(written):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        ds = lodex.open(written)
        assert list(ds.particles) == ["a"] and list(ds.grids) == ["rho"] and list(ds.series) == ["geos"]
        assert "a" in ds.particles and "b" not in ds.particles and len(ds.grids) == 1
        g = ds.particles["a"]
        assert g is ds.particles["a"] and g.steps == [0, 1]
        assert len(g.read(0)["energy"]) == 400
        assert g.query(0, "energy > 0.5").count == int((particles(seed=0)["energy"] > 0.5).sum())
        assert len(g.spatial_split(0, readers=2)) == 2
        np.testing.assert_array_equal(ds.grids["rho"].read(1), grid_data(1))
        assert ds.grids["rho"].read(1, resolution=0).size == 1
        np.testing.assert_array_equal(ds.series["geos"].read(1, None, "T"), series_data(1)["T"])
        np.testing.assert_array_equal(ds.series["geos"].read(variable="T")[0], series_data(0)["T"])
        assert {name: type(v).__name__ for name, v in ds.grids.items()} == {"rho": "Grid"}
        assert repr(ds).startswith(f"<lodex.Dataset {written!r} particles=['a'] grids=['rho'] series=['geos']")


def test_groups_are_read_only_mappings(written):
    ds = lodex.open(written)
    for kind, name in ((ds.particles, "a"), (ds.grids, "rho"), (ds.series, "geos")):
        with pytest.raises(lodex.NotFoundError):
            kind["missing"]
        with pytest.raises(TypeError):
            kind["x"] = None
        assert kind.get("missing") is None or kind.get("missing", 7) == 7
        assert list(kind.keys()) == [name]


def test_old_dataset_spellings_warn_and_work(written, tmp_path):
    ds = lodex.open(written)
    with warns(r"Dataset\.groups .*use Dataset\.particles") as w:
        assert ds.groups == ["a"]
    assert w[0].filename == __file__   # the warning points at the caller
    with warns(r"Dataset\.series_names .*use Dataset\.series"):
        assert ds.series_names == ["geos"]
    with warns(r"ds\.particles\(name\) .*use ds\.particles\[name\]") as w:
        assert ds.particles("a") is ds.particles["a"]
    assert w[0].filename == __file__
    with warns(r"ds\.grid\(name\) .*use ds\.grids\[name\]"):
        np.testing.assert_array_equal(ds.grid("rho").read(0), grid_data(0))
    with warns(r"ds\.series\(name\) .*use ds\.series\[name\]"):
        assert ds.series("geos").steps == [0, 1]
    with warns(r"comparing Dataset\.grids with a list"):
        assert ds.grids == ["rho"]
    with warns(r"Dataset\.grids\[i\]"):
        assert ds.grids[0] == "rho"
    with warns(r"a list \+ Dataset\.grids"):
        assert ["p"] + ds.grids == ["p", "rho"]
    with warns(r"Dataset\.grids \+ a list"):
        assert ds.grids + ["s"] == ["rho", "s"]

    new = lodex.create(str(tmp_path / "old.lodex"))
    with warns(r"ds\.particles\(name, schema, \.\.\.\) .*use ds\.define_particles\(name, schema, \.\.\.\)"):
        g = new.particles("a", SCHEMA, DOMAIN, None, (2, 1, 1))
    assert g.partition == ("grid", (2, 1, 1)) and g.domain == ((0, 0, 0), (1, 1, 1))
    with warns(r"ds\.grid\(name, dims, \.\.\.\) .*use ds\.define_grid"):
        gr = new.grid("rho", (8, 8), "f4", 1, None, 4)
    assert gr.bits_per_block == 4
    with warns(r"ds\.series\(name, dims, variables, \.\.\.\) .*use ds\.define_series"):
        s = new.series("geos", (4, 4, 2), {"T": ("f4", 3)}, None, 1)
    assert s.dims == (4, 4, 2)
    with warns(r"ds\.particles\(name\)"), pytest.raises(lodex.InvalidArgumentError, match="need a schema"):
        new.particles("b", None, DOMAIN)
    new.close()


def test_old_group_spellings_warn_and_work(written, tmp_path):
    path = str(tmp_path / "w.lodex")
    with warns(r"passing comm of lodex\.create by position .*keywords \(comm=\.\.\.\)"):
        ds = lodex.create(path, None)
    g = ds.define_particles("a", SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 1))
    with warns(r"ParticleGroup\.write\(step, data, patch\) .*use ParticleGroup\.write\(step, patch, data\)") as w:
        g.write(0, particles(seed=0), PATCH)
    assert w[0].filename == __file__
    with warns(r"ParticleGroup\.write\(step, data, patch\)"):
        g.write(1, particles(seed=1), patch=PATCH)
    with warns(r"ParticleGroup\.write\(step, data, patch\)"), pytest.raises(lodex.InvalidArgumentError, match="dict"):
        g.write(5, [1, 2], patch=PATCH)   # not a mapping, in the old order: the same typed error as before
    with warns(r"ParticleGroup\.write\(step, data, patch\)"):
        g.write(2, particles(seed=2))
    with warns(r"passing precision of ParticleGroup\.build_index by position"):
        g.build_index(["energy"], 2)
    ds.close()
    old, new = lodex.open(path).particles["a"], lodex.open(written).particles["a"]
    for step in (0, 1):   # the same particles as the new spellings wrote
        a, b = old.read(step), new.read(step)
        order_a, order_b = np.argsort(a["energy"]), np.argsort(b["energy"])
        np.testing.assert_array_equal(a["position"][order_a], b["position"][order_b])
    assert len(old.read(2)["energy"]) == 400
    assert old.indexes(0) == new.indexes(0)

    with warns(r"passing comm of lodex\.open by position"):
        lodex.open(written, "r", None)
    with warns(r"ParticleGroup\.query\(query, step, \.\.\.\) .*use ParticleGroup\.query\(step, query, box, \.\.\.\)"):
        r = old.query("energy > 0.5", 0, None, None, ["energy"])
    assert r.count == new.query(0, "energy > 0.5").count and len(r.data["energy"]) == r.count
    with warns(r"ParticleGroup\.query\(query, step"):
        assert old.query("energy > 0.5", step=0).count == r.count
    with warns(r"ParticleGroup\.query\(query, step"), pytest.raises(lodex.InvalidArgumentError, match="string"):
        old.query(42, step=0)   # the old order with a bad query: the same typed error as before
    with warns(r"ParticleGroup\.spatial_split\(step, readers, box\) .*spatial_split\(step, box, readers=n\)"):
        assert old.spatial_split(0, 2) == old.spatial_split(0, readers=2)
    pytest.importorskip("h5py")
    with warns(r"passing format, steps of ParticleGroup\.export by position"):
        st = old.export(str(tmp_path / "a.h5part"), "h5part", [0])
    assert st["steps"] == [0] and os.path.exists(tmp_path / "a.h5part")


def test_old_grid_and_series_spellings_warn_and_work(written):
    ds = lodex.open(written)
    gr, s = ds.grids["rho"], ds.series["geos"]
    with warns(r"passing resolution of Grid\.read by position .*resolution=\.\.\."):
        a = gr.read(1, None, 0)
    np.testing.assert_array_equal(a, gr.read(1, resolution=0))
    with warns(r"passing field, start of Grid\.refine by position"):
        assert len(list(gr.refine(0, None, "rho", 0))) == gr.max_resolution + 1
    with warns(r"Series\.read\(var, steps, box\) .*use Series\.read\(steps, box, variable\)") as w:
        a = s.read("T", 1)
    assert w[0].filename == __file__
    np.testing.assert_array_equal(a, series_data(1)["T"])
    with warns(r"Series\.read\(var, steps, box\)"):
        np.testing.assert_array_equal(s.read(var="T", steps=[0, 1], box=((0, 0, 0), (2, 2, 1))),
                                      s.read([0, 1], ((0, 0, 0), (2, 2, 1)), "T"))
    with pytest.raises(lodex.InvalidArgumentError, match="variable must be a name"):
        s.read(0)
    with warns(r"Series\.read\(var, steps, box\)"), pytest.raises(lodex.InvalidArgumentError, match="variable"):
        s.read(7, steps=0)   # the old order with a bad variable: the same typed error as before


def test_positional_options_are_refused_beyond_the_old_ones(written):
    ds = lodex.open(written)
    with pytest.raises(TypeError, match="at most"):
        ds.grids["rho"].read(0, None, 0, "rho", None, "extra")
    with pytest.raises(TypeError, match="twice"):
        ds.grids["rho"].read(0, None, 0, resolution=0)
