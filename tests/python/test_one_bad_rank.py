"""Collective definitions and reads whose arguments fail the Python checks on one rank only: that
rank hands its error to the core call itself (the bindings' ``error=``), so every rank raises the
same error, none hangs, and the communicator still works afterwards (1, 2 and 3 ranks)."""

from __future__ import annotations

import pytest

from conftest import run_mpi

CASES = {   # name -> (exception class, a word of the message)
    "define_particles": ("InvalidArgumentError", "partition"),
    "define_grid": ("InvalidArgumentError", "dims"),
    "define_series": ("InvalidArgumentError", "d_tar"),
    "series_calibration": ("InvalidArgumentError", "calibration"),
    "read": ("InvalidArgumentError", "box"),
    "refine": ("InvalidArgumentError", "readers"),
    "query": ("InvalidArgumentError", "level"),
    "grid_read": ("InvalidArgumentError", "resolution"),
    "series_read": ("InvalidArgumentError", "steps"),
}


@pytest.fixture(scope="module", params=[1, 2, 3], ids=lambda n: f"n{n}")
def outcome(request, tmp_path_factory):
    n = request.param
    return n, run_mpi(n, "one_bad_rank.py", str(tmp_path_factory.mktemp(f"bad{n}")), timeout=120)


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_rank_raises_the_bad_ranks_error(outcome, case):
    n, res = outcome
    cls, word = CASES[case]
    per_rank = res["cases"][case]
    assert len(per_rank) == n
    for r, got in enumerate(per_rank):
        assert got[0] == "error", (case, r, got)
        assert got[1] == cls, (case, r, got)
        assert word in got[2], (case, r, got)
        if n > 1:   # the lowest failing rank's error, named: the last rank's
            assert f"rank {n - 1}: " in got[2], (case, r, got)
    assert res["after"] == n
