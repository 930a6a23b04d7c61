"""Grids and series in xarray: the ``lodex`` backend (through its installed entry point) opens
them lazily, and every selection equals lodex's own reads (numpy) of the same samples."""

import numpy as np
import pytest
import xarray as xr

import lodex
from lodex.errors import InvalidArgumentError, NotFoundError
from lodex.xarray_backend import LodexBackendEntrypoint

DIMS = (12, 10, 6)   # x, y, z


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("xr") / "run.lodex")
    rng = np.random.default_rng(7)
    box = ((0, 0, 0), DIMS)
    ds = lodex.create(path)
    g = ds.define_grid("rho", dims=DIMS, fields={"rho": "f4", "vel": ("f8", 3)})
    for step in (0, 5, 10):
        g.write(step, box, {"rho": rng.random(DIMS[::-1], dtype=np.float32),
                            "vel": rng.random(DIMS[::-1] + (3,))})
    s = ds.define_series("geos", dims=DIMS, variables={"t": "f4", "ps": ("f8", 2)})
    for step in range(7):
        s.write(step, box, {"t": rng.random(DIMS[::-1], dtype=np.float32), "ps": rng.random(DIMS[1::-1])})
    ds.close()
    return path


def test_entry_point_is_installed():
    assert "lodex" in xr.backends.list_engines()


def test_grid_opens_lazily_with_coordinates(dataset):
    with xr.open_dataset(dataset, engine="lodex", group="rho") as d:
        assert set(d.data_vars) == {"rho", "vel"}
        assert d["rho"].dims == ("step", "z", "y", "x") and d["vel"].dims == ("step", "z", "y", "x", "component")
        assert list(d.step.values) == [0, 5, 10]
        assert list(d.x.values) == list(range(12)) and list(d.z.values) == list(range(6))
        assert d["rho"].dtype == np.float32 and d["vel"].dtype == np.float64
        assert d.attrs["lodex_kind"] == "grid"


def test_grid_selections_equal_lodex_reads(dataset):
    ds = lodex.open(dataset)
    g = ds.grids["rho"]
    with xr.open_dataset(dataset, engine="lodex", group="rho") as d:
        np.testing.assert_array_equal(d["rho"].sel(step=5).values, g.read(5, field="rho"))
        np.testing.assert_array_equal(d["vel"].values, np.stack([g.read(s, field="vel") for s in (0, 5, 10)]))
        sub = d["rho"].isel(step=slice(1, None), x=slice(2, 11, 3), y=4, z=slice(1, 5))
        want = np.stack([g.read(s, field="rho")[1:5, 4, 2:11:3] for s in (5, 10)])
        np.testing.assert_array_equal(sub.values, want)
        np.testing.assert_array_equal(d["rho"].isel(x=slice(5, 2, -1)).sel(step=0).values,
                                      g.read(0, field="rho")[:, :, 5:2:-1])
        assert d["rho"].isel(x=slice(3, 3)).size == 0
        point = d["vel"].sel(step=10, x=7, y=1, z=2, component=1)
        assert point.values == g.read(10, field="vel")[2, 1, 7, 1]


def test_grid_reads_only_the_selected_box(dataset):
    with xr.open_dataset(dataset, engine="lodex", group="rho") as d:
        arr = d["rho"].variable._data
        while not hasattr(arr, "grid"):
            arr = arr.array
        d["rho"].isel(step=0, x=slice(0, 2), y=slice(0, 2), z=slice(0, 2)).values
        assert arr.grid.last_read_box == ((0, 0, 0), (2, 2, 2))


def test_grid_at_a_resolution(dataset):
    ds = lodex.open(dataset)
    g = ds.grids["rho"]
    r = g.max_resolution - 3
    with xr.open_dataset(dataset, engine="lodex", group="rho", resolution=r) as d:
        full = g.read(10, resolution=r, field="rho")
        assert d["rho"].shape[1:] == full.shape
        np.testing.assert_array_equal(d["rho"].sel(step=10).values, full)
        sub = d["rho"].isel(step=2, x=slice(1, None), y=slice(0, 1))
        np.testing.assert_array_equal(sub.values, full[:, 0:1, 1:])
        strides = [lodex.grids._lattice_stride(g.bitmask, r, a) for a in range(3)]
        for axis, stride in zip("xyz", strides):
            assert list(d[axis].values) == list(range(0, DIMS["xyz".index(axis)], stride))


def test_grid_to_xarray(dataset):
    g = lodex.open(dataset).grids["rho"]
    r = g.max_resolution - 2
    a = g.to_xarray(5, box=((2, 1, 0), (11, 9, 6)), resolution=r, field="vel")
    np.testing.assert_array_equal(a.values, g.read(5, box=((2, 1, 0), (11, 9, 6)), resolution=r, field="vel"))
    assert a.dims == ("z", "y", "x", "component") and a.name == "vel" and a.attrs["resolution"] == r
    for ax in range(3):
        stride = lodex.grids._lattice_stride(g.bitmask, r, ax)
        lo, hi = ((2, 1, 0), (11, 9, 6))[0][ax], ((2, 1, 0), (11, 9, 6))[1][ax]
        assert list(a["xyz"[ax]].values) == [v for v in range(lo, hi) if v % stride == 0]


def test_idx_grid_to_xarray(tmp_path):
    data = np.arange(8 * 8, dtype=np.float32).reshape(8, 8)
    lodex.write_idx(str(tmp_path / "a.idx"), data)
    a = lodex.open_idx(tmp_path / "a.idx").to_xarray()
    assert a.dims == ("y", "x")
    np.testing.assert_array_equal(a.values, data)


def test_series_opens_and_selects(dataset):
    s = lodex.open(dataset).series["geos"]
    with xr.open_dataset(dataset, engine="lodex", group="geos") as d:
        assert d["t"].dims == ("step", "z", "y", "x") and d["ps"].dims == ("step", "y", "x")
        assert list(d.step.values) == list(range(7))
        np.testing.assert_array_equal(d["t"].values, s.read(variable="t"))
        np.testing.assert_array_equal(d["ps"].values, s.read(variable="ps"))
        np.testing.assert_array_equal(d["t"].isel(step=slice(2, 6, 2), z=3, x=slice(4, 9)).values,
                                      s.read(variable="t")[2:6:2, 3, :, 4:9])
        np.testing.assert_array_equal(d["ps"].isel(step=4, y=slice(7, None)).values, s.read(variable="ps")[4, 7:])
        # a time line at a point: one box of one sample over the steps
        np.testing.assert_array_equal(d["t"].sel(x=3, y=2, z=1).values, s.read(variable="t")[:, 1, 2, 3])


def test_drop_variables_and_the_only_group(tmp_path, dataset):
    with xr.open_dataset(dataset, engine="lodex", group="rho", drop_variables=["vel"]) as d:
        assert list(d.data_vars) == ["rho"]
    path = str(tmp_path / "one.lodex")
    ds = lodex.create(path)
    ds.define_grid("only", dims=(4, 4), dtype="u2").write(3, ((0, 0), (4, 4)),
                                                          np.arange(16, dtype=np.uint16).reshape(4, 4))
    ds.close()
    with xr.open_dataset(path, engine="lodex") as d:   # one grid: no group needed
        np.testing.assert_array_equal(d["only"].values[0], np.arange(16).reshape(4, 4))
        assert d["only"].dims == ("step", "y", "x")


def test_bad_input(dataset, tmp_path):
    with pytest.raises(NotFoundError, match="no grid or series 'rhoo'.*grids: rho.*series: geos"):
        xr.open_dataset(dataset, engine="lodex", group="rhoo")
    with pytest.raises(InvalidArgumentError, match="pass group=NAME"):
        xr.open_dataset(dataset, engine="lodex")
    with pytest.raises(InvalidArgumentError, match="resolution must be an integer"):
        xr.open_dataset(dataset, engine="lodex", group="rho", resolution=99)
    with pytest.raises(InvalidArgumentError, match="has no resolutions"):
        xr.open_dataset(dataset, engine="lodex", group="geos", resolution=2)
    with pytest.raises(NotFoundError):
        xr.open_dataset(str(tmp_path / "missing.lodex"), engine="lodex", group="rho")


def test_guess_can_open(dataset, tmp_path):
    assert LodexBackendEntrypoint().guess_can_open(dataset)
    assert not LodexBackendEntrypoint().guess_can_open(str(tmp_path))
    assert not LodexBackendEntrypoint().guess_can_open(object())
