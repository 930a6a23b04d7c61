"""Domains as simulations have them (docs/writes.md, "Domains"): periodic axes wrap positions on
write (read back equal to numpy's mod), reads of a box across a periodic face return the wrapped
images, the maximum bound is inclusive, a particle outside a fixed domain is an error that says
how many, how far and what to do, and domain="auto" gives each step the bounds of its particles
(an NPT-like run whose box grows and shrinks)."""

from __future__ import annotations

import glob
import json
import os

import numpy as np
import pytest

import lodex
from conftest import run_mpi
from lodex import InvalidArgumentError

LO = np.array([-1.0, 2.0, 0.0])
HI = np.array([3.0, 4.5, 16.795961])
SCHEMA = {"position": ("f8", 3), "id": ("i8", 1), "v": ("f4", 1)}


def written(outdir, step):
    parts = [np.load(p) for p in sorted(glob.glob(os.path.join(outdir, f"in-{step}-*.npz")))]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}


def by_id(d):
    o = np.argsort(d["id"])
    return {k: v[o] for k, v in d.items()}


def wrapped(pos, lo=LO, hi=HI):
    w = lo + np.mod(pos - lo, hi - lo)
    return np.where(w >= hi, lo, w)   # np.mod may round up to the period: that is the minimum


@pytest.mark.parametrize("n,partition", [(1, "one"), (2, "grid"), (3, "adaptive"), (4, "grid"), (4, "one")])
def test_periodic_positions_are_wrapped(tmp_path, n, partition):
    res = run_mpi(n, "domains_mpi.py", tmp_path, "periodic", partition, timeout=240)
    g = lodex.open(res["path"]).particles["atoms"]
    assert g.periodic == (True, True, True)
    for step in res["steps"]:
        want = by_id(written(tmp_path, step))
        got = by_id(g.read(step))
        assert np.array_equal(got["id"], want["id"])
        np.testing.assert_array_equal(got["v"], want["v"])
        np.testing.assert_allclose(got["position"], wrapped(want["position"]), rtol=0, atol=1e-12)
        assert np.all(got["position"] >= LO) and np.all(got["position"] < HI)


def small_periodic(tmp_path, dtype="f8"):
    rng = np.random.default_rng(5)
    pos = rng.uniform(LO, HI, size=(20000, 3)).astype(dtype)
    ds = lodex.create(str(tmp_path / "p.lodex"))
    g = ds.define_particles("a", {"position": (dtype, 3), "id": ("i8", 1)}, domain=(tuple(LO), tuple(HI)),
                            periodic=(True, False, True), partition_grid=(2, 2, 2))
    g.write(0, data={"position": pos, "id": np.arange(len(pos))})
    ds.close()
    return lodex.open(str(tmp_path / "p.lodex")).particles["a"], pos


@pytest.mark.parametrize("dtype", ["f8", "f4"])
def test_a_box_across_a_periodic_face_reads_the_images(tmp_path, dtype):
    g, pos = small_periodic(tmp_path, dtype)
    L = HI - LO
    box = ((LO[0] - 0.2 * L[0], 2.5, HI[2] - 1.0), (LO[0] + 0.3 * L[0], 3.5, HI[2] + 2.0))
    got = g.read(0, box=box)
    # numpy: every image of every particle within the box, on periodic axes x and z.
    p = pos.astype(np.float64)
    hits = []
    for kx in (-1, 0, 1):
        for kz in (-1, 0, 1):
            q = p + np.array([kx * L[0], 0, kz * L[2]])
            if dtype == "f4":
                q = (pos + np.array([kx * L[0], 0, kz * L[2]], dtype=np.float32)).astype(np.float64)
            inside = np.all((q >= box[0]) & (q < box[1]), axis=1)
            hits += [(i, *q[i]) for i in np.nonzero(inside)[0]]
    assert len(hits) > 100
    want = sorted(hits)
    have = sorted(zip(got["id"].tolist(), *(got["position"][:, a].astype(np.float64).tolist() for a in range(3))))
    assert [h[0] for h in have] == [w[0] for w in want]
    np.testing.assert_allclose(np.array(have)[:, 1:], np.array(want)[:, 1:], rtol=0,
                               atol=1e-12 if dtype == "f8" else 1e-5)
    # Every image's positions lie in the box asked for.
    assert np.all((got["position"] >= np.array(box[0], dtype=got["position"].dtype) - 1e-5)
                  & (got["position"] < np.array(box[1]) + 1e-5))
    # A box beyond the domain on the non-periodic axis reads no image there.
    assert len(g.read(0, box=((0, 10, 0), (1, 11, 1)))["id"]) == 0
    # Value queries and refinements take boxes inside the domain, and say so.
    with pytest.raises(InvalidArgumentError, match="periodic"):
        g.query(0, "id >= 0", box=box)


def test_the_maximum_bound_is_inclusive(tmp_path):
    ds = lodex.create(str(tmp_path / "m.lodex"))
    g = ds.define_particles("a", {"position": ("f8", 3)}, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2))
    pos = np.array([[1, 1, 1], [0, 0, 0], [0.5, 1, 0.25], [1, 0.5, 0.5]], dtype=np.float64)
    g.write(0, data={"position": pos})
    ds.close()
    g = lodex.open(str(tmp_path / "m.lodex")).particles["a"]
    assert len(g.read(0)["position"]) == 4
    # A box reaching the maximum holds the particles on it; one short of it does not.
    assert len(g.read(0, box=((0, 0, 0), (1, 1, 1)))["position"]) == 4
    assert len(g.read(0, box=((0.5, 0.5, 0.5), (1, 1, 1)))["position"]) == 2
    assert len(g.read(0, box=((0, 0, 0), (0.999, 1, 1)))["position"]) == 2
    assert g.query(0, "position[0] >= 0", box=((0.75, 0, 0), (1, 1, 1))).count == 2


def test_outside_a_fixed_domain_says_how_many_how_far_and_what_to_do(tmp_path):
    ds = lodex.create(str(tmp_path / "o.lodex"))
    g = ds.define_particles("a", {"position": ("f8", 3)}, domain=((0, 0, 0), (10, 10, 10)))
    pos = np.full((100, 3), 5.0)
    pos[7] = (5, 5, -0.0193)
    pos[30] = (10.25, 5, 5)
    pos[31] = (10.0, 10.0, 10.0)   # on the maximum: inside
    with pytest.raises(InvalidArgumentError) as e:
        g.write(0, data={"position": pos})
    msg = str(e.value)
    assert "2 particles of this rank's 100 are outside the domain" in msg
    assert "particle 30 at (10.25, 5, 5), by 0.25 on axis x" in msg
    assert "periodic" in msg and "automatic domain" in msg
    assert "patch=" not in msg and "periodic=" not in msg   # no one language's syntax
    pos[7] = pos[30] = 5.0
    g.write(0, data={"position": pos})   # nothing was left behind by the refused step
    assert g.steps == [0]


def test_definition_errors(tmp_path):
    ds = lodex.create(str(tmp_path / "d.lodex"))
    with pytest.raises(InvalidArgumentError, match="periodic axis needs a fixed domain"):
        ds.define_particles("a", SCHEMA, domain="auto", periodic=True)
    with pytest.raises(InvalidArgumentError, match="periodic must be a bool or 3 bools"):
        ds.define_particles("a", SCHEMA, domain=((0, 0, 0), (1, 1, 1)), periodic=(True, False))
    with pytest.raises(InvalidArgumentError, match='or "auto"'):
        ds.define_particles("a", SCHEMA, domain="automatic")
    g = ds.define_particles("a", SCHEMA, domain=((0, 0, 0), (1, 1, 1)), periodic=(True, False, False))
    with pytest.raises(InvalidArgumentError, match="exists with periodic axes"):
        ds.define_particles("a", SCHEMA, domain=((0, 0, 0), (1, 1, 1)))
    with pytest.raises(InvalidArgumentError, match='exists with domain'):
        ds.define_particles("a", SCHEMA, domain="auto")
    assert g.periodic == (True, False, False) and not g.auto_domain
    ds.close()
    # The manifest records the periodic axes (and nothing for groups without).
    m = json.load(open(tmp_path / "d.lodex" / "manifest.json"))
    assert m["groups"]["a"]["periodic"] == [True, False, False]


@pytest.mark.parametrize("n,partition", [(1, "one"), (3, "grid"), (4, "adaptive")])
def test_auto_domain_follows_a_breathing_box(tmp_path, n, partition):
    res = run_mpi(n, "domains_mpi.py", tmp_path, "npt", partition, timeout=240)
    g = lodex.open(res["path"]).particles["atoms"]
    assert g.auto_domain and res["steps"] == list(range(10))
    union_lo, union_hi = np.full(3, np.inf), np.full(3, -np.inf)
    extents = []
    for step in res["steps"]:
        want = by_id(written(tmp_path, step))
        lo, hi = want["position"].min(axis=0), want["position"].max(axis=0)
        d = np.array(g.step_domain(step))
        assert np.array_equal(d[0], lo)
        assert np.all(d[1] >= hi) and np.all(d[1] <= np.nextafter(hi, np.inf) + 1e-12 * np.abs(hi))
        extents.append(hi - lo)
        union_lo, union_hi = np.minimum(union_lo, lo), np.maximum(union_hi, hi)
        got = by_id(g.read(step))
        assert np.array_equal(got["id"], want["id"])
        np.testing.assert_array_equal(got["position"], want["position"])
        # A box of the step (its upper half on x, to the maximum): numpy's answer exactly.
        mid = (lo + hi) / 2
        box = ((mid[0], lo[1], lo[2]), tuple(hi))
        sel = by_id(g.read(step, box=box))
        inside = np.all((want["position"] >= box[0]) & (want["position"] <= hi), axis=1)
        assert np.array_equal(sel["id"], want["id"][inside])
        # Levels of detail stay fair samples inside the step's domain.
        assert 0 < len(g.read(step, level=0)["id"]) <= len(want["id"])
    sizes = [e[0] for e in extents]
    assert max(sizes) > 1.5 * min(sizes)   # the box grew and shrank
    assert np.all(np.array(g.domain[0]) <= union_lo) and np.all(np.array(g.domain[1]) >= union_hi)


def test_auto_domain_edge_cases(tmp_path):
    ds = lodex.create(str(tmp_path / "e.lodex"))
    g = ds.define_particles("a", {"position": ("f4", 3)}, domain="auto", partition_grid=(2, 2, 2))
    g.write(0, data={"position": np.zeros((0, 3), np.float32)})          # no particle at all
    g.write(1, data={"position": np.full((5, 3), 7.5, np.float32)})      # one point, a flat box
    g.write(2, data={"position": np.array([[1e6, -3, 0], [1e6 + 1, 4, 0]], np.float32)})
    ds.close()
    g = lodex.open(str(tmp_path / "e.lodex")).particles["a"]
    assert len(g.read(0)["position"]) == 0
    assert len(g.read(1)["position"]) == 5
    lo, hi = (np.array(c) for c in g.step_domain(1))
    assert np.all(lo == 7.5) and np.all(hi > 7.5)
    assert len(g.read(1, box=(tuple(lo), tuple(hi)))["position"]) == 5
    assert len(g.read(2)["position"]) == 2


def test_info_shows_periodic_and_automatic_domains(tmp_path):
    import subprocess
    import sys
    path = str(tmp_path / "i.lodex")
    ds = lodex.create(path)
    ds.define_particles("p", SCHEMA, domain=((0, 0, 0), (1, 1, 1)), periodic=(True, False, True))
    ga = ds.define_particles("a", SCHEMA, domain="auto")
    assert ga.domain == ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))   # no step yet
    ds.close()
    out = json.loads(subprocess.run([sys.executable, "-m", "lodex", "info", path, "--json"], capture_output=True,
                                    text=True, check=True).stdout)
    assert out["groups"]["p"]["periodic"] == [True, False, True]
    assert out["groups"]["a"]["domain"] == "auto"
    text = subprocess.run([sys.executable, "-m", "lodex", "info", path], capture_output=True, text=True,
                          check=True).stdout
    assert "periodic in xz" in text and "domain auto" in text
