"""Writers killed with SIGKILL at random points, 1 and 2 ranks (tests/python/writer_kill.py says
what is checked after every kill; `make stress` runs the same cycle for 1,000 kills)."""

from __future__ import annotations

import random

import pytest

import writer_kill as wk

BOUNDED = {1: 16, 2: 8}   # kills per rank count


@pytest.mark.parametrize("ranks", list(BOUNDED))
def test_killed_writers_lose_nothing_committed(tmp_path, ranks):
    seconds = wk.run_seconds(str(tmp_path), ranks)
    res = wk.kill_cycle(str(tmp_path / "d.lodex"), ranks, BOUNDED[ranks], seconds, random.Random(ranks))
    assert res["kills"] == BOUNDED[ranks] and res["steps_checked"] > 0
