"""Particle reads and query answers as pandas DataFrames (the lodex[pandas] extra), against the
numpy arrays the same reads return."""

from __future__ import annotations

import numpy as np
import pandas as pd

import lodex

SCHEMA = {"position": ("f8", 3), "velocity": ("f4", 2), "energy": "f4", "id": "i8"}


def data():
    rng = np.random.default_rng(3)
    n = 3000
    return {"position": rng.random((n, 3)), "velocity": rng.random((n, 2)).astype(np.float32),
            "energy": rng.random(n).astype(np.float32), "id": np.arange(n, dtype=np.int64)}


def test_reads_and_queries_to_pandas(tmp_path):
    path = str(tmp_path / "t.lodex")
    with lodex.create(path) as ds:
        ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 1, 1)).write(
            step=0, data=data())
    p = lodex.open(path).particles["p"]
    got = p.read(0, box=((0, 0, 0), (0.5, 1, 1)))
    assert isinstance(got, dict)
    df = got.to_pandas()
    assert list(df.columns) == ["x", "y", "z", "velocity[0]", "velocity[1]", "energy", "id"]
    assert len(df) == len(got["id"]) > 0
    assert np.array_equal(df["z"].to_numpy(), got["position"][:, 2])
    assert np.array_equal(df["velocity[1]"].to_numpy(), got["velocity"][:, 1])
    assert df["energy"].dtype == np.float32 and df["id"].dtype == np.int64
    level = next(iter(p.refine(0))).to_pandas()
    assert isinstance(level, pd.DataFrame) and len(level) > 0

    q = p.query(0, "energy < 0.3", fields=["id", "position"])
    qdf = q.to_pandas()
    assert list(qdf.columns) == ["file", "row", "id", "x", "y", "z"]
    assert len(qdf) == q.count == int(np.count_nonzero(data()["energy"] < 0.3))
    assert set(qdf["file"]) == set(q.rows)
    assert np.array_equal(np.sort(qdf["id"].to_numpy()), np.flatnonzero(data()["energy"] < 0.3))
    empty = p.query(0, "energy < -1", fields=["id"]).to_pandas()
    assert len(empty) == 0 and list(empty.columns) == ["file", "row", "id"]
