"""Sizes a grid read trusts: an answer is bounded (this machine's memory, or LODEX_MAX_READ_BYTES)
before anything is allocated or opened; a forged .idx box or bitmask fails on the missing blocks
before the answer's memory is taken, and in time proportional to the blocks the query meets, not to
the blocks the forged header claims; a manifest whose grid dims and bitmask disagree, or whose grid
would exceed 2^62 bytes, is a FormatError naming the key."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import lodex


def values() -> np.ndarray:
    return np.arange(32 * 32 * 32, dtype=np.float32).reshape(32, 32, 32)


@pytest.fixture
def idx(tmp_path):
    path = str(tmp_path / "g.idx")
    lodex.write_idx(path, values())
    return path


def edit(path: str, key: str, value: str) -> None:
    text = open(path).read()
    old = text.split(f"({key})\n")[1].split("\n")[0]
    with open(path, "w") as f:
        f.write(text.replace(f"({key})\n{old}\n", f"({key})\n{value}\n"))


def test_a_limit_refuses_an_answer_before_reading(idx, monkeypatch):
    g = lodex.open_idx(idx)
    monkeypatch.setenv("LODEX_MAX_READ_BYTES", str(32 * 32 * 32 * 4 - 1))
    with pytest.raises(lodex.InvalidArgumentError, match="limit of 131071 bytes"):
        g.read()
    assert np.array_equal(g.read(box=((0, 0, 0), (32, 32, 16))), values()[:16])   # half fits
    monkeypatch.setenv("LODEX_MAX_READ_BYTES", "lots")
    with pytest.raises(lodex.InvalidArgumentError, match="LODEX_MAX_READ_BYTES"):
        g.read()
    monkeypatch.delenv("LODEX_MAX_READ_BYTES")
    assert np.array_equal(g.read(), values())


def test_an_answer_larger_than_memory_is_refused(idx):
    # Box and bitmask of a 2^20-cubed grid of f4 (4 EiB): refused at once, nothing allocated.
    edit(idx, "box", "0 1048575 0 1048575 0 1048575")
    edit(idx, "bits", "V" + "210" * 20)
    with pytest.raises(lodex.InvalidArgumentError, match="more than the limit"):
        lodex.open_idx(idx).read()


FORGED_READ = r"""
import resource, sys, time
import lodex
g = lodex.open_idx(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
try:
    g.read(box=eval(sys.argv[2]))
    print("no error")
except lodex.FormatError as e:
    grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print("FormatError", grew, "missing" in str(e) or "does not hold" in str(e))
"""


@pytest.mark.parametrize("box,bits,query", [
    # 1 GiB of f4 claimed (1024^3 from the 32^3 file): the blocks past the file's are missing.
    ("0 1023 0 1023 0 1023", "V" + "210" * 10, "None"),
    # A 2^60-sample bitmask and a small box far out: one block, missing; no walk over 2^45 blocks.
    ("0 1048575 0 1048575 0 1048575", "V" + "210" * 20, "((1000000, 1000000, 1000000), (1000002, 1000001, 1000001))"),
])
def test_forged_headers_fail_on_missing_blocks_before_allocating(idx, box, bits, query):
    edit(idx, "box", box)
    edit(idx, "bits", bits)
    out = subprocess.run([sys.executable, "-c", FORGED_READ, idx, query], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out[0] == "FormatError", out
    assert int(out[1]) < 64 * 1024, f"the process grew by {out[1]} KiB before the error"
    assert out[2] == "True", out


@pytest.fixture
def dataset(tmp_path):
    path = tmp_path / "d.lodex"
    with lodex.create(path) as ds:
        ds.define_grid("rho", dims=(32, 32, 32), dtype="f4").write(0, ((0, 0, 0), (32, 32, 32)), values())
    return path


@pytest.mark.parametrize("mutate,key", [
    (lambda g: g.update(dims=[2 ** 40, 2 ** 40, 2 ** 40]), "dims"),
    (lambda g: g.update(dims=[64, 32, 32]), "bitmask"),
    (lambda g: g.update(bitmask="V" + "3" * 15), "bitmask"),
    (lambda g: g.update(bitmask="V" + "012" * 21), "bitmask"),
])
def test_manifest_grid_extent_is_checked(dataset, mutate, key):
    mp = dataset / "manifest.json"
    m = json.loads(mp.read_text())
    mutate(m["groups"]["rho"])
    mp.write_text(json.dumps(m))
    with pytest.raises(lodex.FormatError, match=f"rho.*{key}|{key}.*rho"):
        lodex.open(dataset)
