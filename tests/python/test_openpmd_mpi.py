"""Collective openPMD export and import (mpi_scripts/openpmd_mpi.py under mpiexec, 1 and 3 ranks).

Export with comm: a file-based HDF5 series (each rank writes its share of the steps' files, so
at 3 ranks every rank writes one) and a variable-based BP series (rank 0 writes); every rank
returns the same totals, openPMD-api reads back lodex's particles, and an existing output is an
error on every rank; while rank 0 writes a one-file series alone, the other ranks wait asleep
(their CPU time under 12 % of the export's: a spinning MPI wait took a core from rank 0).
Import with comm: each rank reads its share of every iteration; the datasets equal the source;
a bad series and a series missing on one rank only raise on every rank and leave no dataset
behind. The HDF5 series carries a grid and a series as meshes, imported as grids (each rank a
slab of the slowest axis).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import openpmd_cases as oc
import lodex
import lodex.openpmd
from conftest import LaunchCache, run_mpi

io = pytest.importorskip("openpmd_api")
RANKS = [1, 3]
TIMEOUT = 180
cached = LaunchCache()


@pytest.fixture(scope="module")
def sources(tmp_path_factory):
    d = tmp_path_factory.mktemp("openpmd-mpi")
    src = str(d / "src.lodex")
    oc.write_source(src)
    oc.write_meshes(src)
    os.makedirs(str(d / "series"))
    h5 = str(d / "series" / "s_%T.h5")
    bp = str(d / "s.bp")
    lodex.openpmd.export(src, oc.GROUP, h5, meshes=["fields", "atm"])
    lodex.openpmd.export(src, oc.GROUP, bp)
    bad = str(d / "bad.h5")
    with open(bad, "wb") as f:
        f.write(b"not HDF5 at all")
    return {"dir": str(d), "src": src, "h5": h5, "bp": bp, "bad": bad, "missing": str(d / "missing_%T.h5")}


def species_by_id(path: str, step: int) -> dict:
    s = io.Series(path, io.Access.read_only)
    sp = s.iterations[step].particles[oc.GROUP]
    pos = [sp["position"][c].load_chunk() for c in "xyz"]
    ids = sp["id"][io.Record_Component.SCALAR].load_chunk()
    s.flush()
    s.close()
    return oc.by_id({"position": np.stack(pos, axis=1), "id": ids})


@pytest.mark.parametrize("n", RANKS)
def test_export_collective(sources, n):
    out = os.path.join(sources["dir"], f"export-{n}")
    res = cached(("export", n), lambda: run_mpi(n, "openpmd_mpi.py", "export", sources["src"], out,
                                               timeout=TIMEOUT))
    g = lodex.open(sources["src"]).particles[oc.GROUP]
    for task in ("file", "group"):
        per_rank = res[task]
        assert len(per_rank) == n and all(r == per_rank[0] for r in per_rank), per_rank
        assert per_rank[0][0] == "ok", per_rank
        st = per_rank[0][1]
        assert st["steps"] == list(oc.STEPS) and st["particles"] == sum(oc.STEPS.values())
        assert st["patches"] == sum(len(g.files(s)) for s in oc.STEPS)
    assert sorted(os.listdir(os.path.join(out, "f"))) == ["s_0.h5", "s_10.h5", "s_5.h5"]
    assert not [e for e in os.listdir(out) if ".tmp-" in e]
    for path in (os.path.join(out, "f", "s_%T.h5"), os.path.join(out, "g.bp")):
        for step in oc.STEPS:
            want = oc.by_id(dict(g.read(step, fields=["position", "id"])))
            got = species_by_id(path, step)
            assert all(np.array_equal(got[k], want[k]) for k in want), (path, step)
    per_rank = res["exists"]
    assert [r[0] for r in per_rank] == ["AlreadyExistsError"] * n, per_rank
    per_rank = res["idle"]   # [wall, CPU] seconds of an export rank 0 writes alone
    assert [r[0] for r in per_rank] == ["ok"] * n, per_rank
    for r, (_, (wall, cpu)) in enumerate(per_rank[1:], 1):   # the waiting ranks sleep, not spin
        # A spinning rank burns its whole wait (about the wall time); a sleeping one the export's own
        # start (opening the dataset, the agreements: 25 ms measured beside other jobs, 13 % of a
        # 0.19 s export, which failed a bound of 12 % of the wall time alone) and its polls.
        assert cpu < 0.04 + 0.1 * wall, (r, wall, cpu)


@pytest.mark.parametrize("n", RANKS)
def test_import_collective(sources, n):
    out = os.path.join(sources["dir"], f"import-{n}")
    os.makedirs(out, exist_ok=True)
    res = cached(("import", n), lambda: run_mpi(n, "openpmd_mpi.py", "import", sources["h5"], sources["bp"], out,
                                               sources["bad"], sources["missing"], timeout=TIMEOUT))
    g0 = lodex.open(sources["src"]).particles[oc.GROUP]
    for task in ("h5", "bp"):
        assert res[task] == [["ok", list(oc.STEPS)]] * n, res[task]
        g = lodex.open(os.path.join(out, f"{task}.lodex")).particles[oc.GROUP]
        assert g.partition == ("grid", (2, 1, 1))
        assert list(g.schema.items()) == list(g0.schema.items()) and g.domain == g0.domain
        for step in oc.STEPS:
            assert oc.same(dict(g.read(step)), dict(g0.read(step))) is None, (task, step)
    ds = lodex.open(os.path.join(out, "h5.lodex"))   # its meshes, each rank a slab of the slowest axis
    assert sorted(ds.grids) == ["atm_PS", "atm_T", "fields_E", "fields_rho"]
    for step in (0, 10):
        gv = oc.grid_values(step)
        assert np.array_equal(ds.grids["fields_rho"].read(step), gv["rho"])
        assert np.array_equal(ds.grids["fields_E"].read(step), gv["E"])
    for step in (0, 5, 10):
        sv = oc.series_values(step)
        assert np.array_equal(ds.grids["atm_T"].read(step), sv["T"])
        assert np.array_equal(ds.grids["atm_PS"].read(step), sv["PS"])
    assert [r[0] for r in res["bad"]] == ["FormatError"] * n, res["bad"]
    assert all(sources["bad"] in r[1] for r in res["bad"])
    assert [r[0] for r in res["rank_missing"]] == ["NotFoundError"] * n, res["rank_missing"]
    if n > 1:   # every rank names the rank that did not have the series
        assert all(r[1].startswith(f"rank {n - 1}: ") for r in res["rank_missing"]), res["rank_missing"]
    assert sorted(os.listdir(out)) == ["bp.lodex", "h5.lodex"]   # nothing else was created
