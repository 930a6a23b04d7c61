"""H5Part export and import (lodex.h5part, ParticleGroup.export, Dataset.import_h5part, the
`lodex export` / `lodex import` commands), serial.

Exports of a VPIC-like dataset and of a schema of mixed dtypes (f8 and u2 scalars, an i4 field of
2 components, a u8 id; empty and one-particle steps) are read back with h5py and compared value
by value with ParticleGroup.read (as multisets, dtypes exact); subsets of steps and fields; steps
read in spatial pieces (max_bytes) give the same content; export -> import round trips; a
hand-written foreign H5Part file imports with an inferred schema and a derived domain; bad input
raises typed errors and leaves nothing behind (no temporary file, the earlier output intact, no
group created, no step written); the command line. The MPI side is test_h5part_mpi.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

import h5part_cases as hc
from conftest import small_tmpfs
import lodex

G = hc.GROUP


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    d = tmp_path_factory.mktemp("h5part-src")
    paths = {"vpic": str(d / "vpic.lodex"), "mixed": str(d / "mixed.lodex"), "foreign": str(d / "foreign.h5part")}
    hc.write_vpic(paths["vpic"])
    hc.write_mixed(paths["mixed"])
    hc.write_foreign(paths["foreign"])
    return paths


@pytest.fixture(scope="module")
def exports(sources, tmp_path_factory):
    """Whole-group exports of both datasets (and their statistics)."""
    d = tmp_path_factory.mktemp("h5part-out")
    out = {}
    for kind in ("vpic", "mixed"):
        g = lodex.open(sources[kind]).particles[G]
        path = str(d / f"{kind}.h5part")
        out[kind] = (path, g.export(path))
    return out


def group(sources, kind):
    return lodex.open(sources[kind]).particles[G]


def leftovers(directory) -> list[str]:
    return [n for n in os.listdir(directory) if ".tmp-" in n]


def check_export(path: str, g, steps: list[int], fields: list[str] | None = None) -> None:
    """The H5Part file at ``path`` holds exactly ``steps`` of ``g`` (``fields``, default all), in
    the groups Step#0 .. Step#<len(steps)-1>, in that order, each with the lodex step as its
    float64 TimeValue and int64 lodex_step and Step."""
    schema = {n: v for n, v in g.schema.items() if fields is None or n in fields}
    with h5py.File(path, "r") as f:
        assert sorted(f.keys()) == sorted(f"Step#{i}" for i in range(len(steps)))
        assert json.loads(f.attrs["lodex_schema"]) == [[n, d, c] for n, (d, c) in schema.items()]
        assert np.array_equal(f.attrs["lodex_domain"], np.asarray(g.domain))
        assert f.attrs["lodex_domain"].dtype == np.float64
        for i, s in enumerate(steps):
            sg = f[f"Step#{i}"]
            for attr, dtype in (("TimeValue", np.float64), ("lodex_step", np.int64), ("Step", np.int64)):
                a = np.asarray(sg.attrs[attr])
                assert a.shape == () and a.dtype == dtype and a == s, (i, attr, a)
            assert set(sg.keys()) == hc.dataset_names(schema)
            count = sum(rec["count"] for rec in g.files(s))
            for name, ds in sg.items():
                assert ds.ndim == 1 and ds.shape == (count,), (s, name, ds.shape)
                field = ds.attrs["lodex_field"]
                comp = int(ds.attrs["lodex_component"])
                dtype, comps = schema[field]
                assert ds.dtype == np.dtype(dtype), (name, ds.dtype, dtype)
                assert 0 <= comp < comps
                assert name in hc.dataset_names({field: (dtype, comps)})
    for s in steps:
        got = hc.h5_as_lodex(hc.h5_step(path, s), schema)
        want = g.read(s, fields=list(schema))
        assert hc.same_particles(got, want) is None, (s, hc.same_particles(got, want))
        assert len(want["position" if "position" in want else next(iter(want))]) == \
            sum(rec["count"] for rec in g.files(s))


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["vpic", "mixed"])
def test_export_all(sources, exports, kind):
    g = group(sources, kind)
    path, st = exports[kind]
    check_export(path, g, g.steps)
    assert st["steps"] == g.steps
    assert st["particles"] == sum(rec["count"] for s in g.steps for rec in g.files(s))
    assert st["bytes"] == os.path.getsize(path)
    assert st["seconds"] >= 0 and st["pieces"] == len(g.steps)
    assert not leftovers(os.path.dirname(path))


def test_export_mixed_details(sources, exports):
    """Empty and one-particle steps, exact dtypes, per-dataset labels, the vector field's names."""
    path, _ = exports["mixed"]
    with h5py.File(path, "r") as f:
        empty = f[hc.h5_group_name(f, 1)]
        assert {k: (v.shape, v.dtype.str) for k, v in empty.items()} == {
            "x": ((0,), "<f8"), "y": ((0,), "<f8"), "z": ((0,), "<f8"), "mass": ((0,), "<f8"),
            "kind": ((0,), "<u2"), "cell_0": ((0,), "<i4"), "cell_1": ((0,), "<i4"), "id": ((0,), "<u8")}
        one = f[hc.h5_group_name(f, 4)]
        assert all(v.shape == (1,) for v in one.values())
        assert [(one[n].attrs["lodex_field"], int(one[n].attrs["lodex_component"]))
                for n in ("x", "y", "z", "cell_0", "cell_1", "kind")] == [
            ("position", 0), ("position", 1), ("position", 2), ("cell", 0), ("cell", 1), ("kind", 0)]
        want = hc.mixed_step(4)
        assert one["x"][0] == want["position"][0, 0] and one["cell_1"][0] == want["cell"][0, 1]
        assert one["id"][0] == want["id"][0]


def test_export_subset(sources, tmp_path):
    g = group(sources, "vpic")
    out = str(tmp_path / "sub.h5part")
    st = g.export(out, steps=[2, 0], fields=["energy", "position"])
    assert st["steps"] == [2, 0]
    check_export(out, g, [2, 0], ["energy", "position"])
    with h5py.File(out, "r") as f:
        assert json.loads(f.attrs["lodex_schema"]) == [["position", "f4", 3], ["energy", "f4", 1]]
    out2 = str(tmp_path / "one.h5part")
    st = lodex.export_h5part(g, out2, steps=1, fields="id")
    assert st["steps"] == [1]
    check_export(out2, g, [1], ["id"])
    m = group(sources, "mixed")
    out3 = str(tmp_path / "cell.h5part")
    m.export(out3, steps=[0, 1, 4], fields=["cell", "kind"])
    check_export(out3, m, [0, 1, 4], ["cell", "kind"])


@pytest.mark.parametrize("kind,fields", [("vpic", None), ("vpic", ["energy", "id"]), ("mixed", None)])
def test_export_in_pieces(sources, exports, tmp_path, kind, fields):
    """A small max_bytes reads each step in spatial pieces into chunked datasets: same content."""
    g = group(sources, kind)
    out = str(tmp_path / "pieces.h5part")
    st = g.export(out, fields=fields, max_bytes=4096)
    assert st["pieces"] > 3 * len(g.steps)
    check_export(out, g, g.steps, fields)
    whole, _ = exports[kind]
    schema = {k: v for k, v in g.schema.items() if fields is None or k in fields}
    row = sum(np.dtype(d).itemsize * c for d, c in schema.values())
    with h5py.File(out, "r") as f, h5py.File(whole, "r") as w:
        for s in g.steps:
            split = sum(rec["count"] for rec in g.files(s)) * row > 4096
            for name, ds in f[hc.h5_group_name(f, s)].items():
                if split:   # appended piece by piece
                    assert ds.chunks is not None and ds.maxshape == (None,)
                assert ds.dtype == w[hc.h5_group_name(w, s)][name].dtype
    for s in g.steps:
        a = hc.h5_as_lodex(hc.h5_step(out, s), schema)
        b = hc.h5_as_lodex(hc.h5_step(whole, s), schema)
        assert hc.same_particles(a, b) is None


def test_export_overwrite(sources, exports, tmp_path):
    g = group(sources, "vpic")
    out = str(tmp_path / "o.h5part")
    with open(out, "wb") as fh:
        fh.write(b"precious bytes")
    with pytest.raises(lodex.AlreadyExistsError, match="o.h5part") as e:
        g.export(out)
    assert "overwrite" in str(e.value)
    with open(out, "rb") as fh:
        assert fh.read() == b"precious bytes"
    st = g.export(out, steps=[1], overwrite=True)
    assert st["steps"] == [1]
    check_export(out, g, [1])
    assert not leftovers(tmp_path)


@pytest.mark.parametrize("call,cls,words", [
    (lambda g, out: g.export(out, steps=[0, 5]), lodex.NotFoundError, ["step 5"]),
    (lambda g, out: g.export(out, steps=9), lodex.NotFoundError, ["step 9"]),
    (lambda g, out: g.export(out, fields=["energy", "nope"]), lodex.NotFoundError, ["'nope'"]),
    (lambda g, out: g.export(out, format="vtk"), lodex.InvalidArgumentError, ["'vtk'", "h5part"]),
    (lambda g, out: g.export(out, steps=[]), lodex.InvalidArgumentError, ["steps"]),
    (lambda g, out: g.export(out, steps=[0, 0]), lodex.InvalidArgumentError, ["twice"]),
    (lambda g, out: g.export(out, steps="0"), lodex.InvalidArgumentError, ["steps"]),
    (lambda g, out: g.export(out, fields=["id", "id"]), lodex.InvalidArgumentError, ["twice"]),
    (lambda g, out: g.export(out, max_bytes=0), lodex.InvalidArgumentError, ["max_bytes"]),
    (lambda g, out: g.export(os.path.join(out, "no", "dir.h5part")), lodex.Error, ["dir.h5part"]),
])
def test_export_bad_arguments(sources, tmp_path, call, cls, words):
    g = group(sources, "vpic")
    out = str(tmp_path / "bad.h5part")
    with pytest.raises(cls) as e:
        call(g, out)
    for w in words:
        assert w in str(e.value), str(e.value)
    assert os.listdir(tmp_path) == []


def test_export_name_clash(tmp_path):
    path = str(tmp_path / "clash.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema={"position": ("f4", 3), "x": "f4"}, domain=((0, 0, 0), (1, 1, 1)))
        g.write(0, data={"position": np.zeros((2, 3), "f4"), "x": np.ones(2, "f4")})
        with pytest.raises(lodex.InvalidArgumentError, match="'x'"):
            g.export(str(tmp_path / "c.h5part"))
        g.export(str(tmp_path / "c.h5part"), fields=["x"])   # without position it is fine


@pytest.mark.parametrize("raise_", [OSError("disk on fire"), lodex.FormatError("bad checksum in p0.lpd")])
def test_export_failure_midway(sources, tmp_path, raise_):
    """A failure after the first step: no temporary file, the earlier output intact."""
    g = group(sources, "vpic")
    out = str(tmp_path / "f.h5part")
    g.export(out, steps=[0])
    before = open(out, "rb").read()
    real = g.read
    calls = []

    def failing(*a, **kw):
        calls.append(a)
        if len(calls) == 2:
            raise raise_
        return real(*a, **kw)

    g.read = failing
    try:
        with pytest.raises(lodex.Error) as e:
            g.export(out, overwrite=True)
    finally:
        del g.read
    assert isinstance(e.value, lodex.IOFailure if isinstance(raise_, OSError) else lodex.FormatError)
    assert out in str(e.value) and str(raise_) in str(e.value)
    assert open(out, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["f.h5part"]
    # also in the pieces path
    calls.clear()
    g.read = failing
    try:
        with pytest.raises(lodex.Error):
            g.export(out, overwrite=True, max_bytes=4096)
    finally:
        del g.read
    assert open(out, "rb").read() == before
    assert sorted(os.listdir(tmp_path)) == ["f.h5part"]


def test_export_pieces_must_add_up(sources, tmp_path):
    """Pieces that miss particles (here: a split that leaves a gap) raise instead of writing a
    short step."""
    g = group(sources, "vpic")
    real = g.spatial_split

    def gappy(step, box=None, *, readers):
        boxes = real(step, box, readers=readers)
        (lo, hi) = boxes[0]
        return [((lo[0], lo[1], lo[2]), (min(hi[0], 50.0), hi[1], hi[2]))] + list(boxes[1:])

    g.spatial_split = gappy
    out = str(tmp_path / "gap.h5part")
    try:
        with pytest.raises(lodex.InternalError, match="spatial pieces hold"):
            g.export(out, max_bytes=4096)
    finally:
        del g.spatial_split
    assert os.listdir(tmp_path) == []


@pytest.fixture
def small_fs():
    with small_tmpfs("256k", "lodex-h5full-") as mnt:
        yield mnt


def df_free(path) -> int:
    st = os.statvfs(path)
    return st.f_bavail * st.f_frsize


@pytest.mark.parametrize("max_bytes", [1 << 30, 20000])
def test_export_full_disk(sources, small_fs, max_bytes):
    """A full disk: IOFailure naming out and the cause, no temporary file, the space free again
    (HDF5 let go of the file), the earlier out intact."""
    g = group(sources, "vpic")
    out = os.path.join(small_fs, "e.h5part")
    g.export(out, steps=[0], fields=["position"])   # ~40 KB fits
    before = open(out, "rb").read()
    free = df_free(small_fs)
    with pytest.raises(lodex.IOFailure, match="No space left on device") as e:
        g.export(out, overwrite=True, max_bytes=max_bytes)   # ~370 KB cannot fit
    assert out in str(e.value)
    assert os.listdir(small_fs) == ["e.h5part"]
    assert open(out, "rb").read() == before
    assert df_free(small_fs) == free
    g.export(out, overwrite=True, steps=[1], fields=["id"])   # room again for what fits
    check_export(out, g, [1], ["id"])


def test_missing_h5py(sources, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "h5py", None)
    g = group(sources, "vpic")
    with pytest.raises(lodex.UnsupportedError, match=r"pip install 'lodex\[h5part\]' \(or h5py\)"):
        g.export(str(tmp_path / "x.h5part"))
    with lodex.create(str(tmp_path / "d.lodex")) as ds:
        with pytest.raises(lodex.UnsupportedError, match=r"pip install 'lodex\[h5part\]' \(or h5py\)"):
            ds.import_h5part(sources["foreign"], "p")
        assert list(ds.particles) == []


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["vpic", "mixed"])
def test_round_trip(sources, exports, tmp_path, kind):
    src = group(sources, kind)
    path = str(tmp_path / "rt.lodex")
    with lodex.create(path) as ds:
        g = ds.import_h5part(exports[kind][0], "copy", partition_grid=(2, 1, 1))
        assert g.steps == src.steps
    g = lodex.open(path).particles["copy"]
    assert list(g.schema.items()) == list(src.schema.items())   # order too
    assert g.domain == src.domain
    for s in src.steps:
        got, want = g.read(s), src.read(s)
        assert hc.same_particles(got, want) is None, (s, hc.same_particles(got, want))


def test_import_in_parts(sources, exports, tmp_path):
    """Steps imported in two calls into one group; a committed step again raises before anything
    is written."""
    src = group(sources, "mixed")
    path = str(tmp_path / "parts.lodex")
    h5 = exports["mixed"][0]
    with lodex.create(path) as ds:
        lodex.import_h5part(h5, ds, "m", steps=[4, 0])
    with lodex.open(path, mode="a") as ds:
        g = ds.import_h5part(h5, "m", steps=[1, 7])
        assert g.steps == [0, 1, 4, 7]
        with pytest.raises(lodex.AlreadyExistsError, match="step 7") as e:
            ds.import_h5part(h5, "m", steps=7)
        assert "'m'" in str(e.value)
        with pytest.raises(lodex.AlreadyExistsError, match="steps 0, 1, 4, 7 of group"):
            ds.import_h5part(h5, "m")
        assert g.steps == [0, 1, 4, 7]
    g = lodex.open(path).particles["m"]
    assert g.steps == [0, 1, 4, 7]
    for s in g.steps:
        assert hc.same_particles(g.read(s), src.read(s)) is None


def test_import_gapped_steps(sources, tmp_path):
    """Steps 7 and 1 exported in that order (groups Step#0, Step#1) come back as steps 7 and 1,
    also one at a time; a step the file does not hold is named with the ones it does."""
    src = group(sources, "mixed")
    h5 = str(tmp_path / "gap.h5part")
    src.export(h5, steps=[7, 1])
    path = str(tmp_path / "gap.lodex")
    with lodex.create(path) as ds:
        g = ds.import_h5part(h5, "m", steps=[7])
        assert g.steps == [7]
        with pytest.raises(lodex.NotFoundError, match=r"no step 4 \(steps: 1, 7\)"):
            ds.import_h5part(h5, "m", steps=[4])
        g = ds.import_h5part(h5, "m", steps=1)
        assert g.steps == [1, 7]
    g = lodex.open(path).particles["m"]
    for s in (1, 7):
        assert hc.same_particles(g.read(s), src.read(s)) is None


def test_import_before_lodex_step(exports, tmp_path):
    """A lodex file whose groups carry no lodex_step (as lodex wrote them before: Step#<step>)
    imports with the group numbers as steps."""
    old = str(tmp_path / "old.h5part")
    with h5py.File(exports["mixed"][0], "r") as f, h5py.File(old, "w") as o:
        for k, v in f.attrs.items():
            o.attrs[k] = v
        for key in f:
            step = int(f[key].attrs["lodex_step"])
            f.copy(f[key], o, name=f"Step#{step}")
            for attr in ("lodex_step", "TimeValue"):
                del o[f"Step#{step}"].attrs[attr]
    path = str(tmp_path / "old.lodex")
    with lodex.create(path) as ds:
        assert ds.import_h5part(old, "m").steps == [0, 1, 4, 7]


@pytest.mark.parametrize("values,words", [
    ({"Step#0": 2.5}, ["lodex_step", "Step#0", "one integer"]),
    ({"Step#0": "3"}, ["lodex_step", "Step#0", "one integer"]),
    ({"Step#0": np.array([1, 2])}, ["lodex_step", "Step#0", "one integer"]),
    ({"Step#0": np.uint64(2**63)}, ["lodex_step", "Step#0", "outside int64"]),
    ({"Step#0": 3, "Step#1": 3}, ["'Step#0'", "'Step#1'", "both step 3"]),
    ({"Step#1": 0}, ["'Step#0'", "'Step#1'", "both step 0"]),   # Step#0 has none: step 0
])
def test_import_bad_lodex_step(tmp_path, values, words):
    h5 = str(tmp_path / "bad.h5part")
    h5_file(h5, {"Step#0": xyz(3), "Step#1": xyz(3)})
    with h5py.File(h5, "a") as f:
        for key, v in values.items():
            f[key].attrs["lodex_step"] = v
    with lodex.create(str(tmp_path / "d.lodex")) as ds:
        with pytest.raises(lodex.FormatError) as e:
            ds.import_h5part(h5, "p")
        for w in words:
            assert w in str(e.value), str(e.value)
        assert list(ds.particles) == []


def test_import_foreign(sources, tmp_path):
    path = str(tmp_path / "f.lodex")
    with lodex.create(path) as ds:
        g = ds.import_h5part(sources["foreign"], "ions")
        assert g.steps == hc.FOREIGN_STEPS
    g = lodex.open(path).particles["ions"]
    assert list(g.schema.items()) == list(hc.FOREIGN_SCHEMA.items())
    lo, hi = hc.foreign_extremes()
    assert g.domain[0] == tuple(lo)
    assert g.domain[1] == tuple(np.nextafter(hi, np.inf))
    for s in hc.FOREIGN_STEPS:
        got = g.read(s)
        assert hc.same_particles(got, hc.foreign_as_lodex(s)) is None, s
    # particles exactly on the max faces are inside (and found by a box read up to the domain's max)
    top = g.read(10, box=((-np.inf,) * 3, g.domain[1]))
    assert len(top["id"]) == hc.FOREIGN_COUNTS[10]
    n_at_max = sum(int(np.sum(hc.foreign_step(s)[c] == hi[a])) for s in hc.FOREIGN_STEPS
                   for a, c in enumerate("xyz"))
    assert n_at_max >= 3


def test_import_foreign_options(sources, tmp_path):
    """An explicit domain, a step subset, a partition grid and indexes."""
    path = str(tmp_path / "f2.lodex")
    dom = ((-10.0, 0.0, -1.0), (10.0, 30.0, 1.0))
    with lodex.create(path) as ds:
        g = ds.import_h5part(sources["foreign"], "ions", domain=dom, steps=[10, 2], partition_grid=(2, 2, 1),
                             index=["px"])
        assert g.steps == [2, 10]
        assert g.domain == dom
        assert g.partition == ("grid", (2, 2, 1))
        assert [x["field"] for x in g.indexes(10)] == ["px"]
        assert len(g.files(10)) > 1
    g = lodex.open(path).particles["ions"]
    r = g.query(10, "px > 0", fields=["id"])
    want = hc.foreign_step(10)
    assert sorted(r.data["id"].tolist()) == sorted(want["id"][want["px"] > 0].tolist())


def h5_file(path, steps: dict, attrs: dict | None = None):
    """Write an H5Part-like file: steps maps a group name to {dataset: array}."""
    with h5py.File(path, "w") as f:
        for k, v in (attrs or {}).items():
            f.attrs[k] = v
        for key, dsets in steps.items():
            g = f.create_group(key)
            for name, a in dsets.items():
                if isinstance(a, tuple):   # (data, dtype)
                    g.create_dataset(name, data=a[0], dtype=a[1])
                else:
                    g.create_dataset(name, data=a)


def xyz(n=4, dtype="f8", **more):
    rng = np.random.default_rng(n)
    d = {c: rng.random(n).astype(dtype) for c in "xyz"}
    d.update(more)
    return d


BAD_FILES = {
    "no_steps": ({"particles": xyz()}, lodex.FormatError, ["no H5Part steps"]),
    "unequal_lengths": ({"Step#0": xyz(), "Step#1": xyz(5, q=np.zeros(4))}, lodex.FormatError,
                        ["Step#1", "differ in length", "q (4)", "x (5)"]),
    "two_d": ({"Step#0": xyz(4, m=np.zeros((4, 2)))}, lodex.FormatError, ["'m'", "Step#0", "(4, 2)"]),
    "string": ({"Step#0": xyz(2, s=np.array([b"ab", b"cd"]))}, lodex.FormatError, ["'s'", "Step#0", "dtype"]),
    "vlen_string": ({"Step#3": xyz(2, s=(["ab", "cd"], h5py.string_dtype()))}, lodex.FormatError, ["'s'", "Step#3"]),
    "compound": ({"Step#0": xyz(3, c=np.zeros(3, dtype=[("a", "f4"), ("b", "i4")]))}, lodex.FormatError,
                 ["'c'", "Step#0"]),
    "float16": ({"Step#0": xyz(3, h=np.zeros(3, "f2"))}, lodex.FormatError, ["'h'", "float16"]),
    "bool": ({"Step#0": xyz(3, b=np.zeros(3, bool))}, lodex.FormatError, ["'b'"]),
    "scalar": ({"Step#0": xyz(3, s=np.float64(1.0))}, lodex.FormatError, ["'s'", "1-D"]),
    "xyz_dtypes": ({"Step#0": {"x": np.zeros(2, "f4"), "y": np.zeros(2, "f8"), "z": np.zeros(2, "f4")}},
                   lodex.FormatError, ["share a dtype", "y f8"]),
    "int_coords": ({"Step#0": xyz(3, "i4")}, lodex.FormatError, ["i4", "f4 or f8"]),
    "no_z": ({"Step#0": {"x": np.zeros(2), "y": np.zeros(2)}}, lodex.FormatError, ["not all of x, y, z"]),
    "no_coords": ({"Step#0": {"e": np.zeros(2)}}, lodex.FormatError, ["no coordinates"]),
    "dataset_sets": ({"Step#0": xyz(3, e=np.zeros(3), a=np.zeros(3)), "Step#1": xyz(3, e=np.zeros(3), b=np.zeros(3))},
                     lodex.FormatError, ["Step#1", "missing a", "extra b"]),
    "dtype_changes": ({"Step#0": xyz(3, e=np.zeros(3, "i4")), "Step#1": xyz(3, e=np.zeros(3, "i8"))},
                      lodex.FormatError, ["'e'", "i4", "i8", "Step#1"]),
    "bad_name": ({"Step#0": xyz(3, **{"e.v": np.zeros(3)})}, lodex.FormatError, ["'e.v'", "field name"]),
    "position_name": ({"Step#0": xyz(3, position=np.zeros(3))}, lodex.FormatError, ["'position'"]),
    "nan": ({"Step#0": {"x": np.array([0.0, np.nan]), "y": np.zeros(2), "z": np.zeros(2)}}, lodex.FormatError,
            ["Step#0", "non-finite"]),
    "subgroup": ({"Step#0": xyz(3), "Step#0/inner": {}}, lodex.FormatError, ["Step#0/inner"]),
    "same_step_twice": ({"Step#1": xyz(), "Step#01": xyz()}, lodex.FormatError, ["'Step#01'", "step 1"]),
    "all_empty": ({"Step#0": xyz(0)}, lodex.InvalidArgumentError, ["no particles", "domain="]),
    "bad_schema_attr": ({"Step#0": xyz()}, lodex.FormatError, ["lodex_schema"]),
    "bad_domain_attr": ({"Step#0": xyz()}, lodex.FormatError, ["lodex_domain"]),
    "unlabelled": ({"Step#0": xyz()}, lodex.FormatError, ["'x'", "lodex_field"]),
}
BAD_ATTRS = {"bad_schema_attr": {"lodex_schema": "[1, 2"}, "bad_domain_attr": {"lodex_domain": np.zeros(4)},
             "unlabelled": {"lodex_schema": json.dumps([["position", "f8", 3]])}}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_import_bad_file(tmp_path, case):
    steps, cls, words = BAD_FILES[case]
    h5 = str(tmp_path / f"{case}.h5part")
    h5_file(h5, steps, BAD_ATTRS.get(case))
    path = str(tmp_path / "d.lodex")
    with lodex.create(path) as ds:
        with pytest.raises(cls) as e:
            ds.import_h5part(h5, "p")
        assert type(e.value) is cls
        for w in words:
            assert w in str(e.value), str(e.value)
        assert h5 in str(e.value)
        assert list(ds.particles) == []
    assert list(lodex.open(path).particles) == []


def test_import_bad_path(tmp_path):
    path = str(tmp_path / "d.lodex")
    text = str(tmp_path / "text.h5part")
    with open(text, "w") as fh:
        fh.write("x y z\n1 2 3\n")
    missing = str(tmp_path / "missing.h5part")
    with lodex.create(path) as ds:
        with pytest.raises(lodex.FormatError, match="not an HDF5") as e:
            ds.import_h5part(text, "p")
        assert text in str(e.value)
        with pytest.raises(lodex.NotFoundError) as e:
            ds.import_h5part(missing, "p")
        assert missing in str(e.value)
        with pytest.raises(lodex.FormatError, match="directory"):
            ds.import_h5part(str(tmp_path), "p")
        assert list(ds.particles) == []


def test_import_bad_arguments(sources, exports, tmp_path):
    path = str(tmp_path / "d.lodex")
    h5 = exports["vpic"][0]
    with lodex.create(path) as ds:
        with pytest.raises(lodex.NotFoundError, match="no step 7") as e:
            ds.import_h5part(h5, "p", steps=[0, 7])
        assert h5 in str(e.value)
        with pytest.raises(lodex.InvalidArgumentError, match="twice"):
            ds.import_h5part(h5, "p", steps=[0, 0])
        with pytest.raises(lodex.InvalidArgumentError, match="domain"):
            ds.import_h5part(h5, "p", domain=((0, 0), (1, 1)))
        # particles outside the domain given
        with pytest.raises(lodex.InvalidArgumentError, match="outside the domain") as e:
            ds.import_h5part(h5, "p", domain=((0, 0, 0), (100, 330, 132)))
        assert "Step#0" in str(e.value)
        with pytest.raises(lodex.InvalidArgumentError, match="partition factor"):
            ds.import_h5part(h5, "p", partition=(2, 2, 1))   # rows have no patches
        with pytest.raises(lodex.InvalidArgumentError, match="adaptive"):
            ds.import_h5part(h5, "p", partition="bogus")   # lodex's own check
        with pytest.raises(lodex.InvalidArgumentError, match="partition"):
            ds.import_h5part(h5, "p", partition_grid=(0, 1, 1))
        assert list(ds.particles) == []
        f = ds.define_particles("f", schema=hc.VPIC_SCHEMA, domain=hc.VPIC_DOMAIN, partition=(1, 1, 1))
        with pytest.raises(lodex.InvalidArgumentError, match="'f' has a partition factor"):
            ds.import_h5part(h5, "f")
        assert f.steps == []
    assert list(lodex.open(path).particles) == ["f"]


def test_import_into_existing_group(sources, exports, tmp_path):
    path = str(tmp_path / "d.lodex")
    src = group(sources, "vpic")
    with lodex.create(path) as ds:
        g = ds.define_particles("e", schema=dict(reversed(list(hc.VPIC_SCHEMA.items()))), domain=hc.VPIC_DOMAIN,
                                partition_grid=(1, 2, 1), lod={"level0_max": 100})
        g.write(1, data=hc.vpic_step(1))
        with pytest.raises(lodex.AlreadyExistsError, match="step 1"):
            ds.import_h5part(exports["vpic"][0], "e")
        assert g.steps == [1]
        # another schema
        with pytest.raises(lodex.InvalidArgumentError, match="exists with schema"):
            ds.import_h5part(exports["mixed"][0], "e", steps=[0])
        with pytest.raises(lodex.InvalidArgumentError, match="domain"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], domain=((0, 0, 0), (400, 400, 400)))
        with pytest.raises(lodex.InvalidArgumentError, match=r"partition grid \(1, 2, 1\), not grid \(3, 3, 3\)"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], partition_grid=(3, 3, 3))
        with pytest.raises(lodex.InvalidArgumentError, match="not 'adaptive'"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], partition="adaptive", particles_per_file=10)
        with pytest.raises(lodex.InvalidArgumentError, match="particles_per_file goes with"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], particles_per_file=10)
        with pytest.raises(lodex.NotFoundError, match="index: no field 'nope'"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], index=["energy", "nope"])
        with pytest.raises(lodex.NotFoundError, match="index: no field 'nope'"):
            ds.import_h5part(exports["vpic"][0], "e", steps=[0], index={"fields": ["nope"], "bins": 4})
        assert g.steps == [1]
        # the same fields in another order import fine; a matching partition is accepted
        ds.import_h5part(exports["vpic"][0], "e", steps=[0, 2], partition_grid=(1, 2, 1),
                         index={"fields": ["energy"], "bins": 4})
        assert g.steps == [0, 1, 2]
        assert [(x["field"], x["binning"]) for x in g.indexes(2)] == [("energy", "equal_weight")]
        a = ds.define_particles("a", schema=hc.VPIC_SCHEMA, domain=hc.VPIC_DOMAIN, partition="adaptive",
                                particles_per_file=1000)
        ds.import_h5part(exports["vpic"][0], "a", steps=[0], partition="adaptive", particles_per_file=1000)
        ds.import_h5part(exports["vpic"][0], "a", steps=[1])
        assert a.steps == [0, 1]   # (adaptive: at most one file per writing rank)
    g = lodex.open(path).particles["e"]
    for s in g.steps:
        assert hc.same_particles(g.read(s), src.read(s)) is None


def test_import_existing_domain_excludes(tmp_path, sources):
    """A foreign file into an existing group whose domain misses some particles: the check comes
    before any write."""
    path = str(tmp_path / "d.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("ions", schema=hc.FOREIGN_SCHEMA, domain=((-5.0, 10.0, 0.0), (5.0, 15.0, 1.0)))
        with pytest.raises(lodex.InvalidArgumentError, match="outside the domain") as e:
            ds.import_h5part(sources["foreign"], "ions")
        assert "Step#0" in str(e.value) and "y from" in str(e.value)
        assert g.steps == []


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

def cli(*args):
    return subprocess.run([sys.executable, "-m", "lodex.cli"] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=60)


def test_cli(sources, tmp_path):
    out = str(tmp_path / "e.h5part")
    r = cli("export", sources["vpic"], G, "--format", "h5part", "--out", out, "--steps", "0,2",
            "--fields", "energy,position")
    assert r.returncode == 0, r.stderr
    g = group(sources, "vpic")
    n = sum(rec["count"] for s in (0, 2) for rec in g.files(s))
    assert r.stdout.count("\n") == 1
    assert "2 steps (0, 2)" in r.stdout and f"{n:,} particles" in r.stdout
    assert f"{os.path.getsize(out):,} bytes" in r.stdout and out in r.stdout
    check_export(out, g, [0, 2], ["energy", "position"])

    # errors: exists, unknown format, unknown field, bad steps
    for args, what in [((), "AlreadyExistsError"), (("--format", "vtk", "--overwrite"), "InvalidArgumentError"),
                       (("--fields", "nope", "--overwrite"), "NotFoundError"),
                       (("--steps", "a:b", "--overwrite"), "InvalidArgumentError")]:
        before = open(out, "rb").read()
        r = cli("export", sources["vpic"], G, "--out", out, *args)
        assert r.returncode == 2 and what in r.stderr, (args, r.stderr)
        assert r.stderr.startswith("lodex export: ") and "Traceback" not in r.stderr
        assert open(out, "rb").read() == before
    r = cli("export", sources["vpic"], G, "--out", out, "--steps", "0:3", "--overwrite", "--max-bytes", "5000")
    assert r.returncode == 0, r.stderr
    check_export(out, g, [0, 1, 2])

    # import: a new dataset, then a second group into the existing one
    ds_path = str(tmp_path / "new.lodex")
    r = cli("import", out, ds_path, "copy", "--partition-grid", "2,2,1")
    assert r.returncode == 0, r.stderr
    assert "3 steps (0, 1, 2)" in r.stdout and f"{sum(rec['count'] for s in g.steps for rec in g.files(s)):,} " \
        "particles" in r.stdout
    c = lodex.open(ds_path).particles["copy"]
    assert c.partition == ("grid", (2, 2, 1)) and list(c.schema.items()) == list(g.schema.items())
    for s in g.steps:
        assert hc.same_particles(c.read(s), g.read(s)) is None
    r = cli("import", sources["foreign"], ds_path, "ions", "--domain", "-6,0,-1,6,30,1", "--steps", "0:3")
    assert r.returncode == 0, r.stderr
    assert "3 steps (0, 1, 2)" in r.stdout
    ions = lodex.open(ds_path).particles["ions"]
    assert ions.domain == ((-6.0, 0.0, -1.0), (6.0, 30.0, 1.0)) and ions.steps == [0, 1, 2]
    assert hc.same_particles(ions.read(0), hc.foreign_as_lodex(0)) is None

    # import errors: a bad file leaves no new dataset behind; a committed step; a bad domain
    bad = str(tmp_path / "bad.h5part")
    h5_file(bad, {"Step#0": xyz(3, "i4")})
    r = cli("import", bad, str(tmp_path / "never.lodex"), "p")
    assert r.returncode == 2 and "FormatError" in r.stderr and bad in r.stderr, r.stderr
    assert r.stderr.startswith("lodex import: ") and "Traceback" not in r.stderr
    assert not os.path.exists(tmp_path / "never.lodex")
    r = cli("import", out, ds_path, "copy", "--steps", "1")
    assert r.returncode == 2 and "AlreadyExistsError" in r.stderr, r.stderr
    r = cli("import", out, ds_path, "other", "--domain", "0,0,0,1,1")
    assert r.returncode == 2 and "InvalidArgumentError" in r.stderr and "--domain" in r.stderr
    assert sorted(lodex.open(ds_path).particles) == ["copy", "ions"]
