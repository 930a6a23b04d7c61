"""Collective calls whose ranks pass different (each valid) arguments: another step, box, query
text, variable, open mode or path on the last rank. Every rank raises InvalidArgumentError naming
the arguments that differ, none hangs or returns a mixed answer, nothing is created, and the
communicator still works (2 and 3 ranks). A rank whose communicator the others never join (they
passed another one) gets an error after LODEX_JOIN_TIMEOUT instead of waiting forever."""

from __future__ import annotations

import json

import pytest

import lodex
from conftest import run_mpi, run_mpi_raw

CASES = {   # name -> words the message must hold (the call and the argument that differs)
    "query_text": ("value query", "query text"),
    "query_step": ("value query", "step"),
    "query_box": ("value query", "box"),
    "grid_read_step": ("grid read", "step"),
    "grid_read_box": ("grid read", "box"),
    "grid_read_resolution": ("grid read", "resolution"),
    "series_read_steps": ("series read", "steps"),
    "series_read_box": ("series read", "box"),
    "series_read_variable": ("series read", "variable"),
    "open_mode": ("open", "mode"),
    "create_path": ("create", "path"),
}


@pytest.fixture(scope="module", params=[2, 3], ids=lambda n: f"n{n}")
def outcome(request, tmp_path_factory):
    n = request.param
    return n, run_mpi(n, "mismatched_args.py", str(tmp_path_factory.mktemp(f"mis{n}")), timeout=120)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_rank_names_the_difference(outcome, case):
    n, res = outcome
    per_rank = res["cases"][case]
    assert len(per_rank) == n
    for r, got in enumerate(per_rank):
        assert got[0] == "error", (case, r, got)
        assert got[1] == "InvalidArgumentError", (case, r, got)
        for word in CASES[case]:
            assert word in got[2], (case, r, word, got)
        assert "every rank must pass the same" in got[2], (case, r, got)
    assert len({got[2] for got in per_rank}) == 1, per_rank   # the same message on every rank


def test_nothing_created_and_comm_works(outcome):
    n, res = outcome
    assert res["created"] == []
    assert res["after"] == n


@pytest.mark.parametrize("n", [2, 3])
def test_a_rank_left_alone_in_a_communicator_is_told(tmp_path, n):
    """Rank 0 opens with MPI_COMM_WORLD, the others with MPI_COMM_SELF: rank 0 gets MPIError after
    LODEX_JOIN_TIMEOUT instead of waiting forever; the others open the dataset alone."""
    path = tmp_path / "d.lodex"
    lodex.create(str(path)).close()
    rc, out, err, timed_out = run_mpi_raw(n, "mismatched_comm.py", path, tmp_path, timeout=90,
                                          env={"LODEX_JOIN_TIMEOUT": "2"})
    assert not timed_out, err[-2000:]
    got = [json.loads((tmp_path / f"rank-{r}.json").read_text()) for r in range(n)]
    assert got[0][:2] == ["error", "MPIError"], got
    assert f"({n} ranks) joined this collective call within 2 s" in got[0][2]
    assert "same communicator" in got[0][2]
    assert 2 <= got[0][3] < 30, got   # it waited the timeout, not forever
    assert all(g == ["ok"] for g in got[1:]), got


def test_join_timeout_must_be_a_number(tmp_path):
    lodex.create(str(tmp_path / "d.lodex")).close()
    res = run_mpi(2, "read_env_check.py", tmp_path / "d.lodex", env={"LODEX_JOIN_TIMEOUT": "soon"})
    assert res["errors"] == [["InvalidArgumentError", True], ["InvalidArgumentError", True]], res
