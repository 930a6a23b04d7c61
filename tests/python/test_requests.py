"""The compiled extension's collective calls take one keyword-only request object each
(python/bindings/requests.hpp), and a request's join(error) is the one way a rank whose
arguments failed enters the collective: every rank then raises that error (the MPI side of it:
test_one_bad_rank.py, test_foreign_exception.py)."""

import ast
import os

import numpy as np
import pytest

import lodex
from lodex import _lodex
from lodex.errors import (BY_CODE, FormatError, InternalError, InvalidArgumentError, IOFailure,
                          MissingDependencyError, NotFoundError)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REQUESTS = ["ParticleDefinition", "GridDefinition", "SeriesDefinition", "ParticleWrite", "GridWrite", "SeriesWrite",
            "ParticleRead", "ParticleQuery", "IndexBuild", "GridRead", "SeriesRead", "Truncate", "ParticleBuffers",
            "BuffersCommit"]
# The collective calls and the request each takes.
COLLECTIVES = {
    "Dataset.define_particles": "ParticleDefinition", "Dataset.define_grid": "GridDefinition",
    "Dataset.define_series": "SeriesDefinition", "Dataset.truncate": "Truncate",
    "ParticleGroup.write": "ParticleWrite", "ParticleGroup.read": "ParticleRead",
    "ParticleGroup.refine": "ParticleRead", "ParticleGroup.query": "ParticleQuery",
    "ParticleGroup.build_index": "IndexBuild", "ParticleGroup.truncate": "Truncate",
    "GridGroup.write": "GridWrite", "GridGroup.read": "GridRead", "GridGroup.truncate": "Truncate",
    "IdxDataset.read": "GridRead", "SeriesGroup.write": "SeriesWrite", "SeriesGroup.read": "SeriesRead",
    "SeriesGroup.truncate": "Truncate", "ParticleGroup.open_buffers": "ParticleBuffers",
    "BufferViews.commit": "BuffersCommit",
}


def _stub_functions():
    """(qualified name, positional parameters but self, keyword-only parameters) of every
    function of the extension, from its stub (generated from the module: test_stubs.py)."""
    tree = ast.parse(open(os.path.join(ROOT, "python", "lodex", "_lodex.pyi")).read())
    out = []

    def walk(node, prefix):
        for n in node.body:
            if isinstance(n, ast.ClassDef):
                walk(n, n.name + ".")
            elif isinstance(n, ast.FunctionDef):
                pos = [a.arg for a in n.args.posonlyargs + n.args.args if a.arg != "self"]
                out.append((prefix + n.name, pos, [a.arg for a in n.args.kwonlyargs]))
    walk(tree, "")
    return out


def test_every_collective_takes_one_request():
    functions = {name: pos for name, pos, _ in _stub_functions()}
    for name, request in COLLECTIVES.items():
        assert functions[name] == ["request"], (name, functions[name])
        cls, method = name.split(".")
        signature = getattr(getattr(_lodex, cls), method).__nb_signature__[0][0]
        assert f"request: lodex._lodex.{request})" in signature, (name, signature)


def test_no_long_positional_argument_lists():
    """Beyond three arguments an extension function takes keywords only. The one exception is
    SeriesPreview.window_read, public and documented with positional arguments (lodex.planning)."""
    long = [(name, pos) for name, pos, _ in _stub_functions() if len(pos) > 3]
    assert long == [("SeriesPreview.window_read",
                     ["variable", "window_steps", "steps", "box", "merge_gap", "max_request"])]


@pytest.mark.parametrize("name", REQUESTS)
def test_requests_are_keyword_only(name):
    cls = getattr(_lodex, name)
    sig = cls.__init__.__nb_signature__[0][0]
    assert sig.startswith("def __init__(self, *, "), sig
    fields = [p.split(":")[0].strip() for p in sig[len("def __init__(self, *, "):].split(" = ...")[:-1]]
    fields = [f.lstrip(", ") for f in fields]
    r = cls()
    for f in fields:
        getattr(r, f)   # every parameter is also a read-only attribute
        with pytest.raises(AttributeError):
            setattr(r, f, getattr(r, f))
    assert r.error is None
    with pytest.raises(TypeError):
        cls(0)
    with pytest.raises(TypeError, match=f"{name}\\(\\) got an unexpected keyword 'no_such_field'"):
        cls(no_such_field=1)


def test_request_fields_are_converted_and_checked():
    r = _lodex.ParticleRead(step=7, box=((0, 0, 0), (1, 2, 3)), fields=["position"], level=3, readers=2)
    assert (r.step, r.level, r.fraction, r.readers, r.fields) == (7, 3, None, 2, ["position"])
    assert [list(v) for v in r.box] == [[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]]
    with pytest.raises(TypeError, match="ParticleRead\\(\\): cannot use 'x' as 'step'"):
        _lodex.ParticleRead(step="x")
    with pytest.raises(TypeError, match="cannot use 1.5 as 'level'"):
        _lodex.ParticleRead(level=1.5)
    with pytest.raises(TypeError, match="as 'lo'"):
        _lodex.GridWrite(lo=(1, 2))


@pytest.mark.parametrize("code", [c for c in range(1, 9)])
def test_join_keeps_the_errors_code(code):
    cls = BY_CODE[code]
    r = _lodex.ParticleWrite(step=3)
    assert r.join(cls("what went wrong")) is r
    assert r.error == (code, "what went wrong")


def test_join_of_other_exceptions():
    assert _lodex.Truncate().join(MissingDependencyError("no h5py")).error == (7, "no h5py")
    assert _lodex.Truncate().join(KeyError("k")).error == (8, "'k'")   # not lodex's: internal
    assert _lodex.Truncate().join(ValueError("v")).error == (8, "v")
    assert _lodex.Truncate().join(IOFailure("disk\udcff")).error[0] == 4   # an unencodable message
    with pytest.raises(TypeError, match="join\\(\\) takes an exception"):
        _lodex.Truncate().join("not an exception")


@pytest.fixture
def ds(tmp_path):
    d = lodex.create(tmp_path / "d")
    g = d.define_particles("p", {"position": ("f8", 3), "e": "f4"}, domain=((0, 0, 0), (1, 1, 1)))
    g.write(0, None, {"position": np.random.default_rng(1).random((64, 3)), "e": np.ones(64, "f4")})
    d.define_grid("g", dims=(4, 4), dtype="f4")
    d.define_series("s", dims=(4, 4, 1), variables={"T": ("f4", 2)})
    yield d
    d.close()


def test_a_joined_request_raises_its_error_and_changes_nothing(ds):
    g = ds.particles["p"]
    core = g._core
    data = [("position", np.zeros((4, 3))), ("e", np.zeros(4, "f4"))]
    with pytest.raises(NotFoundError, match="^joined$"):
        core.write(_lodex.ParticleWrite(step=1, fields=data).join(NotFoundError("joined")))
    assert g.steps == [0]
    with pytest.raises(NotFoundError, match="^joined$"):
        core.open_buffers(_lodex.ParticleBuffers(step=1, count=4).join(NotFoundError("joined")))
    views = core.open_buffers(_lodex.ParticleBuffers(step=1, count=4))   # nothing left open by the joined one
    with pytest.raises(IOFailure, match="^joined$"):
        views.commit(_lodex.BuffersCommit().join(IOFailure("joined")))
    assert g.steps == [0] and not views.open
    with pytest.raises(FormatError, match="^joined$"):
        core.truncate(_lodex.Truncate(after=-1).join(FormatError("joined")))
    assert g.steps == [0]
    with pytest.raises(InternalError, match="^'k'$"):
        core.read(_lodex.ParticleRead(step=0).join(KeyError("k")))
    with pytest.raises(InvalidArgumentError, match="^joined$"):
        core.build_index(_lodex.IndexBuild(fields=["e"]).join(InvalidArgumentError("joined")))
    assert g.indexes(0) == []
    with pytest.raises(InvalidArgumentError, match="^joined$"):
        ds._core.define_grid(_lodex.GridDefinition(name="h", dims=(4, 4, 1), ndims=2, fields=[("v", "f4", 1)],
                                                   aggregation="localized", partitions=1, blocks_per_file=1,
                                                   index_space="global").join(InvalidArgumentError("joined")))
    assert "h" not in ds.grids
    grid, series = ds.grids["g"], ds.series["s"]
    with pytest.raises(IOFailure, match="^joined$"):
        grid._core.write(_lodex.GridWrite(step=0, lo=(0, 0, 0), hi=(4, 4, 1)).join(IOFailure("joined")))
    assert grid.steps == []
    with pytest.raises(IOFailure, match="^joined$"):
        series._core.write(_lodex.SeriesWrite(step=0, lo=(0, 0, 0), hi=(4, 4, 1)).join(IOFailure("joined")))
    assert series.buffered_steps == []


def test_the_request_carries_the_call(ds):
    """A request's fields are what the call does (not a default in the way)."""
    g = ds.particles["p"]
    core = g._core
    pos = np.random.default_rng(2).random((10, 3))
    core.write(_lodex.ParticleWrite(step=5, fields=[("position", pos), ("e", np.arange(10, dtype="f4"))]))
    assert g.steps == [0, 5]
    out = core.read(_lodex.ParticleRead(step=5, box=((0, 0, 0), (1, 1, 1)), fields=["e"]))
    assert sorted(out) == ["e"] and sorted(out["e"].tolist()) == list(range(10))
    q = core.query(_lodex.ParticleQuery(step=5, text="e >= 7", fields=["e"]))
    assert q["count"] == 3 and sorted(q["data"]["e"].tolist()) == [7, 8, 9]
    assert core.truncate(_lodex.Truncate(after=0)) == [("p", "particle group", [5])]
    assert g.steps == [0]
