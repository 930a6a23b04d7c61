"""LAMMPS, a molecular-dynamics code nobody here wrote, writes its Lennard-Jones melt through lodex
on 1-3 ranks, as a user would (tests/python/mpi_scripts/lammps_melt.py): with a periodic box, the
atoms LAMMPS keeps slightly outside it between re-neighbourings are wrapped (read back equal to
numpy's mod of what LAMMPS passed), and under a barostat the domain "auto" follows the box."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import lodex
from conftest import run_mpi


def passed(outdir, step):
    parts = [np.load(p) for p in sorted(glob.glob(os.path.join(outdir, f"in-{step}-*.npz")))]
    d = {k: np.concatenate([p[k] for p in parts]) for k in ("position", "id", "velocity")}
    o = np.argsort(d["id"])
    return {k: v[o] for k, v in d.items()}, parts[0]["lo"], parts[0]["hi"]


def sorted_by_id(d):
    o = np.argsort(d["id"])
    return {k: v[o] for k, v in d.items()}


@pytest.mark.parametrize("n", [1, 2, 3])
def test_lammps_melt_in_a_periodic_box(tmp_path, n):
    check_melt(tmp_path, run_mpi(n, "lammps_melt.py", tmp_path, "nve", timeout=300))


@pytest.mark.parametrize("n", [2, 3])
def test_lammps_melt_written_asynchronously_from_its_own_arrays(tmp_path, n):
    """Each step written with wait=False from LAMMPS's own arrays, which it changes while the step
    is written as it runs on: what is read back is what LAMMPS had at the write."""
    check_melt(tmp_path, run_mpi(n, "lammps_melt.py", tmp_path, "nve", "async", timeout=300))


def check_melt(tmp_path, res):
    assert res["outside"] > 0, "LAMMPS kept no atom outside its box: the run tests nothing"
    g = lodex.open(res["path"]).particles["atoms"]
    assert g.steps == res["steps"] and g.periodic == (True, True, True)
    for step in res["steps"]:
        want, lo, hi = passed(tmp_path, step)
        got = sorted_by_id(g.read(step))
        assert np.array_equal(got["id"], want["id"]) and len(got["id"]) == res["atoms"]
        wrapped = lo + np.mod(want["position"] - lo, hi - lo)
        wrapped = np.where(wrapped >= hi, lo, wrapped)
        np.testing.assert_allclose(got["position"], wrapped, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(got["velocity"], want["velocity"])
        # A box across the periodic faces: the atoms near a corner, with their images.
        L = hi - lo
        box = (tuple(lo - 0.1 * L), tuple(lo + 0.1 * L))
        near = g.read(step, box=box, fields=["id", "position"])
        images = [wrapped - np.array(k) * L for k in np.ndindex(2, 2, 2)]   # shifts 0 or -L per axis
        want_near = sorted((i, *np.round(p, 9)) for im in images
                           for i, p in zip(want["id"], im) if np.all((p >= box[0]) & (p < box[1])))
        got_near = sorted((i, *np.round(p, 9)) for i, p in zip(near["id"], near["position"]))
        assert got_near == want_near and len(got_near) > 0


@pytest.mark.parametrize("n", [1, 2])
def test_lammps_npt_with_an_automatic_domain(tmp_path, n):
    res = run_mpi(n, "lammps_melt.py", tmp_path, "npt", timeout=300)
    g = lodex.open(res["path"]).particles["atoms"]
    assert g.auto_domain
    sizes = []
    for step in res["steps"]:
        want, lo, hi = passed(tmp_path, step)
        got = sorted_by_id(g.read(step))
        np.testing.assert_array_equal(got["position"], want["position"])
        d = np.array(g.step_domain(step))
        assert np.array_equal(d[0], want["position"].min(axis=0))
        sizes.append(hi[0] - lo[0])
    assert max(sizes) != min(sizes)   # the barostat changed the box
