"""A foreign exception (a std::runtime_error, not a lodex::Error) thrown on one rank inside each
collective call — particle, grid and series writes, an index build, and every collective read —
is raised on every rank as InternalError naming it, at 1 to 4 ranks: no rank is left waiting,
nothing of the failed step is committed, and the dataset still reads afterwards."""

from __future__ import annotations

import pytest

from conftest import run_mpi

CASES = ["particle_write", "grid_write", "series_flush", "index_build", "particle_read", "value_query",
         "grid_read", "series_read"]


@pytest.fixture(scope="module", params=[1, 2, 3, 4], ids=lambda n: f"n{n}")
def outcome(request, tmp_path_factory):
    n = request.param
    return n, run_mpi(n, "foreign_exception_mpi.py", str(tmp_path_factory.mktemp(f"foreign{n}")), timeout=180)


@pytest.mark.parametrize("case", CASES)
def test_every_rank_raises_internal_error(outcome, case):
    n, res = outcome
    per_rank = res["cases"][case]
    assert len(per_rank) == n
    for r, got in enumerate(per_rank):
        assert got[0] == "error", (case, r, got)
        assert got[1] == "InternalError", (case, r, got)
        assert "unexpected C++ exception: injected foreign exception before" in got[2], (case, r, got)


def test_dataset_reads_after(outcome):
    n, res = outcome
    assert res["after"] == 300 * n
