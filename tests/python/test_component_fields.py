"""Fields given one array per component (structure of arrays): positions as x, y and z arrays
("position": (x, y, z), or keys "position/x", ...; "name/0", "name/1", ... for any field of several
components). The oracle is the same particles written row-major: the data files must be byte for
byte those, at 1, 3 and 4 ranks, for an aligned plan (the rows stay in one partition) and a
crossing one (rows gathered to several partitions), synchronous and asynchronous, through the
node-cooperative and the point-to-point paths. Every malformed combination is refused by name."""

from __future__ import annotations


import numpy as np
import pytest

import lodex
import lodex_testutil as tu
from conftest import LaunchCache, run_mpi

cached = LaunchCache()
SCHEMA = {"position": ("f4", 3), "energy": "f4", "v": ("f8", 2), "tag": ("i8", 5)}
DOMAIN = ((0, 0, 0), (1, 1, 1))


@pytest.mark.parametrize("n", [1, 3, 4])
@pytest.mark.parametrize("layout", ["aligned", "crossing"])
@pytest.mark.parametrize("exchange", ["node", "p2p"])
def test_per_component_files_equal_row_major_files(tmp_path, n, layout, exchange):
    out = str(tmp_path)
    res = run_mpi(n, "components_mpi.py", out, layout, timeout=240, env={"LODEX_EXCHANGE": exchange})
    p = res["paths"]
    want = tu.file_digests(p["whole"])
    assert len(want) >= 3
    for name in ("parts", "async_copy", "async_nocopy"):
        assert tu.file_digests(p[name]) == want, name
    assert res["profile"]["particles"] > 0
    g = lodex.open(p["parts"]).particles["u"]
    assert g.steps == [0, 1, 2]


def particles(n: int, seed: int = 3) -> dict:
    rng = np.random.default_rng(seed)
    return {"position": rng.random((n, 3), dtype=np.float32), "energy": rng.random(n, dtype=np.float32),
            "v": rng.standard_normal((n, 2)), "tag": rng.integers(-2**62, 2**62, (n, 5))}


def split(d: dict) -> dict:
    """Every multi-component field per component: x/y/z names for up to three, digits beyond."""
    out = {"energy": d["energy"]}
    out["position"] = tuple(np.ascontiguousarray(d["position"][:, a]) for a in range(3))
    out["v/x"], out["v/y"] = (np.ascontiguousarray(d["v"][:, a]) for a in range(2))
    out.update({f"tag/{c}": np.ascontiguousarray(d["tag"][:, c]) for c in range(5)})
    return out


def write(path: str, data: dict, step: int = 0):
    with lodex.create(path) as ds:
        ds.define_particles("p", schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 2)).write(step, data=data)


@pytest.mark.parametrize("rows", [0, 1, 5000])
def test_serial_per_component_matches_row_major(tmp_path, rows):
    d = particles(rows)
    write(str(tmp_path / "whole.lodex"), d)
    write(str(tmp_path / "parts.lodex"), split(d))
    mixed = dict(d)   # position per component by key, the rest whole
    del mixed["position"]
    mixed.update({f"position/{a}": np.ascontiguousarray(d["position"][:, a]) for a in range(3)})
    write(str(tmp_path / "mixed.lodex"), mixed)
    want = tu.file_digests(str(tmp_path / "whole.lodex"))
    assert tu.file_digests(str(tmp_path / "parts.lodex")) == want
    assert tu.file_digests(str(tmp_path / "mixed.lodex")) == want
    got = lodex.open(str(tmp_path / "parts.lodex")).particles["p"].read(0)
    o, w = np.argsort(got["tag"][:, 0], kind="stable"), np.argsort(d["tag"][:, 0], kind="stable")
    for k in SCHEMA:
        assert np.array_equal(got[k][o], d[k][w]), k


def test_strided_components_are_copied_not_misread(tmp_path):
    """Columns of a row-major array are strided views: the binding makes them contiguous."""
    d = particles(777)
    write(str(tmp_path / "whole.lodex"), d)
    views = dict(split(d), position=tuple(d["position"][:, a] for a in range(3)))
    write(str(tmp_path / "views.lodex"), views)
    assert tu.file_digests(str(tmp_path / "views.lodex")) == tu.file_digests(str(tmp_path / "whole.lodex"))


def bad(kind: str) -> tuple[dict, str]:
    d = split(particles(10))
    x, y, z = d.pop("position")
    d.update({"position/x": x, "position/y": y, "position/z": z})
    if kind == "missing_component":
        del d["position/z"]
        return d, r"'position' is given per component without component 2 \(position/z\)"
    if kind == "twice":
        d["position/0"] = x
        return d, r"component 0 of field 'position' is given twice \('position/0' and 'position/x'\)|" \
                  r"component 0 of field 'position' is given twice \('position/x' and 'position/0'\)"
    if kind == "whole_and_parts":
        d["position"] = np.zeros((10, 3), np.float32)
        return d, "'position' is given both whole and per component"
    if kind == "bad_suffix":
        d["position/w"] = x
        return d, r"'position/w': 'position' has 3 components, named x, y, z \(or 0, 1, 2\)"
    if kind == "index_too_large":
        d["tag/5"] = d["tag/0"]
        return d, "'tag/5': 'tag' has 5 components, named 0 to 4"
    if kind == "letters_beyond_three":
        d["tag/x"] = d.pop("tag/0")
        return d, "'tag/x': 'tag' has 5 components, named 0 to 4"
    if kind == "one_component_field":
        d["energy/x"] = d.pop("energy")
        return d, "'energy/x': 'energy' has one component; give it whole"
    if kind == "unknown_base":
        d["bogus/x"] = x
        return d, "unknown field 'bogus/x'"
    if kind == "wrong_dtype":
        d["position/y"] = y.astype(np.float64)
        return d, "field 'position/y' has dtype f8; the schema says f4"
    if kind == "two_d_component":
        d["position/y"] = np.zeros((10, 2), np.float32)
        return d, "field 'position/y' has 2 components per particle; one component of 'position' has 1"
    if kind == "short_component":
        d["position/z"] = z[:9]
        return d, "fields have different lengths"
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["missing_component", "twice", "whole_and_parts", "bad_suffix", "index_too_large",
                                  "letters_beyond_three", "one_component_field", "unknown_base", "wrong_dtype",
                                  "two_d_component", "short_component"])
def test_malformed_per_component_fields_are_refused_by_name(tmp_path, kind):
    data, message = bad(kind)
    path = str(tmp_path / "bad.lodex")
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 2))
        g.write(0, data=split(particles(10)))
        with pytest.raises(lodex.InvalidArgumentError, match=message):
            g.write(1, data=data)
        assert g.steps == [0]
        g.write(1, data=split(particles(10, seed=4)))   # the group takes the step afterwards
    assert lodex.open(path).particles["p"].steps == [0, 1]
