"""A program that ends without closing a dataset it writes: the steps a close would have committed
(asynchronous steps in flight, a series' buffered window) are named on standard error, once, by
rank 0; the exit is clean and no collective call hangs it; what was committed before is intact.
Closed, the same program commits every step and prints nothing."""

from __future__ import annotations

import os

import pytest

import lodex
from conftest import run_mpi_raw


def run(tmp_path, n: int, how: str):
    path = os.path.join(tmp_path, "d.lodex")
    rc, out, err, timed_out = run_mpi_raw(n, "unclosed_exit_mpi.py", path, how, timeout=120)
    assert not timed_out and rc == 0, (rc, out[-2000:], err[-2000:])
    return path, [line for line in err.splitlines() if line.startswith("lodex:")]


@pytest.mark.parametrize("n", [1, 3])
def test_an_unclosed_dataset_names_the_steps_it_did_not_commit(tmp_path, n):
    path, lines = run(tmp_path, n, "leave")
    assert len(lines) == 1, lines   # rank 0 alone
    line = lines[0]
    assert f"dataset {path!r} was not closed" in line
    assert "particle group 'p': the steps in flight up to 1" in line
    assert "grid 'g': the steps in flight up to 1" in line
    assert "series 's': the steps [0, 1] buffered in its window" in line
    with lodex.open(path) as ds:   # what the second write committed is intact and readable
        assert ds.particles["p"].steps == [0]
        assert ds.grids["g"].steps == [0]
        assert ds.series["s"].steps == []
        assert len(ds.particles["p"].read(0)["position"]) == 5000 * n
        assert (ds.grids["g"].read(0) == 0).all()


@pytest.mark.parametrize("n", [1, 3])
def test_a_closed_dataset_commits_every_step_and_names_none(tmp_path, n):
    path, lines = run(tmp_path, n, "close")
    assert lines == []
    with lodex.open(path) as ds:
        assert ds.particles["p"].steps == [0, 1]
        assert ds.grids["g"].steps == [0, 1]
        assert ds.series["s"].steps == [0, 1]
