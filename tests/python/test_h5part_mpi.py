"""Collective H5Part import and export (mpi_scripts/h5part_mpi.py under mpiexec).

Import at 1, 2 and 3 ranks (one mpiexec each) of three files: the exports of the VPIC-like and
the mixed-dtype datasets (round trip: same schema, domain, steps and particles) and a foreign
H5Part file (inferred schema, derived domain). Every rank holds rows [r*N//P, (r+1)*N//P) of a
step, so with the one-particle step most ranks write nothing. Errors (a bad file, committed steps,
a file missing on one rank only, particles outside the domain) raise on every rank and create
nothing. Export with comm at 3 ranks: one file, rank 0 writes, every rank returns the same
statistics; its errors raise on every rank.
"""

from __future__ import annotations

import os

import h5py
import numpy as np
import pytest

import h5part_cases as hc
import lodex
from conftest import LaunchCache, run_mpi

RANKS = [1, 2, 3]
TIMEOUT = 120
cached = LaunchCache()


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    d = tmp_path_factory.mktemp("h5part-mpi")
    paths = {"vpic": str(d / "vpic.lodex"), "mixed": str(d / "mixed.lodex")}
    hc.write_vpic(paths["vpic"])
    hc.write_mixed(paths["mixed"])
    files = {}
    for kind in ("vpic", "mixed"):
        files[kind] = str(d / f"{kind}.h5part")
        lodex.open(paths[kind]).particles[hc.GROUP].export(files[kind])
    files["foreign"] = str(d / "foreign.h5part")
    hc.write_foreign(files["foreign"])
    bad = str(d / "bad.h5part")
    with h5py.File(bad, "w") as f:
        g = f.create_group("Step#0")
        for c in "xyz":
            g.create_dataset(c, data=np.zeros(3))
        g.create_dataset("e", data=np.zeros(4))
    return {"dir": str(d), "lodex": paths, "files": files, "bad": bad, "missing": str(d / "missing.h5part")}


def imported(sources, n):
    def launch():
        path = os.path.join(sources["dir"], f"import-{n}.lodex")
        args = [f"{k}={v}" for k, v in sources["files"].items()]
        res = run_mpi(n, "h5part_mpi.py", "import", path, sources["bad"], sources["missing"], *args,
                      timeout=TIMEOUT)
        return path, res
    return cached(("import", n), launch)


@pytest.mark.parametrize("n", RANKS)
def test_import(sources, n):
    path, res = imported(sources, n)
    for kind in ("vpic", "mixed", "foreign"):
        per_rank = res[f"import:{kind}"]
        assert len(per_rank) == n
        for r in per_rank:
            assert "exception" not in r, r
        ds = lodex.open(path)
        g = ds.particles[kind]
        assert g.partition == ("grid", (2, 1, 1))
        if kind == "foreign":
            assert list(g.schema.items()) == list(hc.FOREIGN_SCHEMA.items())
            lo, hi = hc.foreign_extremes()
            assert g.domain == (tuple(lo), tuple(np.nextafter(hi, np.inf)))
            assert g.steps == hc.FOREIGN_STEPS
            for s in g.steps:
                assert hc.same_particles(g.read(s), hc.foreign_as_lodex(s)) is None, (kind, s)
        else:
            src = lodex.open(sources["lodex"][kind]).particles[hc.GROUP]
            assert list(g.schema.items()) == list(src.schema.items())
            assert g.domain == src.domain and g.steps == src.steps
            for s in g.steps:
                assert hc.same_particles(g.read(s), src.read(s)) is None, (kind, s)
        assert all(r == ["ok", g.steps] for r in per_rank)


@pytest.mark.parametrize("n", RANKS)
def test_import_errors(sources, n):
    path, res = imported(sources, n)
    checks = {"bad": ("FormatError", ["differ in length", sources["bad"]]),
              "again": ("AlreadyExistsError", ["already committed"]),
              "rank_missing": ("NotFoundError", [sources["missing"]]),
              "bad_domain": ("InvalidArgumentError", ["outside the domain"])}
    for task, (cls, words) in checks.items():
        per_rank = res[task]
        assert len(per_rank) == n
        for r in per_rank:
            assert r[0] == cls, (task, r)
            for w in words:
                assert w in r[1], (task, r)
    if n > 1:   # every rank, the one without the file too, names the rank that did not have it
        assert all(r[1].startswith(f"rank {n - 1}: ") for r in res["rank_missing"])
    assert res["groups"] == [["foreign", "mixed", "vpic"]] * n
    assert sorted(lodex.open(path).particles) == ["foreign", "mixed", "vpic"]   # nothing else was created


def test_export_collective(sources):
    out = os.path.join(sources["dir"], "collective.h5part")
    res = cached("export", lambda: run_mpi(3, "h5part_mpi.py", "export", sources["lodex"]["vpic"], out,
                                          timeout=TIMEOUT))
    stats = res["export"]
    assert len(stats) == 3 and all(r[0] == "ok" for r in stats), stats
    assert stats[0] == stats[1] == stats[2]
    st = stats[0][1]
    g = lodex.open(sources["lodex"]["vpic"]).particles[hc.GROUP]
    assert st["steps"] == g.steps and st["bytes"] == os.path.getsize(out)
    assert st["particles"] == sum(rec["count"] for s in g.steps for rec in g.files(s))
    for s in g.steps:
        got = hc.h5_as_lodex(hc.h5_step(out, s), g.schema)
        assert hc.same_particles(got, g.read(s)) is None
    for task, cls in (("exists", "AlreadyExistsError"), ("bad_field", "NotFoundError")):
        assert [r[0] for r in res[task]] == [cls] * 3, res[task]
        assert all(r[1] == res[task][0][1] for r in res[task])
    assert not [f for f in os.listdir(sources["dir"]) if ".tmp-" in f]
    for s in g.steps:   # the failed calls left the file as the first call wrote it
        got = hc.h5_as_lodex(hc.h5_step(out, s), g.schema)
        assert hc.same_particles(got, g.read(s)) is None
