"""The README's first Python example runs as written, at 1 and 4 ranks (and without mpiexec), in a
folder of its own: the dataset it writes holds every rank's particles, and its reads return what
numpy says they should."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import lodex
from conftest import run_mpi_raw

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def first_python_block() -> str:
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("\n## Python\n"):]
    m = re.search(r"```python\n(.*?)```", section, re.S)
    assert m, "README.md: no python block under '## Python'"
    return m.group(1)


def script_in(folder) -> str:
    path = os.path.join(folder, "readme_example.py")
    with open(path, "w") as f:
        f.write(f"import os\nos.chdir({str(folder)!r})\n" + first_python_block())
    return path


def check_dataset(folder, ranks: int) -> None:
    g = lodex.open(os.path.join(folder, "run.lodex")).particles["electrons"]
    got = g.read(0)
    assert np.array_equal(np.sort(got["id"]), np.arange(10_000 * ranks))
    for r in range(ranks):   # every rank's particles inside its slab
        mine = got["position"][got["id"] // 10_000 == r]
        assert len(mine) == 10_000
        assert np.all((mine[:, 0] >= r / ranks) & (mine[:, 0] < (r + 1) / ranks))
    sub = g.read(0, box=((0, 0, 0), (0.5, 0.5, 0.5)))
    inside = np.all(got["position"] < 0.5, axis=1)
    assert np.array_equal(np.sort(sub["id"]), np.sort(got["id"][inside]))


@pytest.mark.parametrize("ranks", [1, 4])
def test_readme_example_runs_under_mpiexec(tmp_path, ranks):
    rc, out, err, timed_out = run_mpi_raw(ranks, script_in(tmp_path), timeout=240)
    assert not timed_out and rc == 0, f"exit {rc}\n{out[-3000:]}\n{err[-3000:]}"
    assert out.count("new particles") >= ranks   # the refinement loop ran on every rank
    check_dataset(tmp_path, ranks)


def test_readme_example_runs_without_mpiexec(tmp_path):
    proc = subprocess.run([sys.executable, script_in(tmp_path)], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    check_dataset(tmp_path, 1)
