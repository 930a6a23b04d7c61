"""ParticleGroup.sample_difference: a box's sample less held samples (lodex serve's zoom answer),
from the read planner's rows of each sample. Checked against numpy on read() (the sample is
read(box, level=0, P=take); a held sample is its own read, cut to its clip box), bit for bit
against the previous way of answering (a query every particle passes, less the held queries' row
ids by np.isin), at 1, 2 and 3 ranks (a local call on each rank), and its bad arguments."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import lodex
from conftest import run_mpi
from lodex.errors import InvalidArgumentError, NotFoundError

N = 30000
DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
D, Z = DOMAIN, ((0.05, 0.05, 0.05), (0.95, 0.95, 0.95))
C = ((0.3, 0.2, 0.25), (0.6, 0.7, 0.55))
CLIP = ((0.35, 0.3, 0.3), (0.5, 0.6, 0.5))
# (box, take, held): a zoom's first request and the next level, a small box in a big sample,
# held parts cut to a clip box, nothing held, a zoom out over smaller samples, boxes that meet in
# part, a take past the box's particles.
CASES = [
    (Z, 8000, [(D, 8000)]),
    (Z, 9000, [(D, 8000), (Z, 8000)]),
    (C, 1500, [(D, 6000)]),
    (C, 1500, [(D, 6000, CLIP)]),
    (C, 1000, []),
    (D, 3000, [(C, 900), (Z, 200, C)]),
    (((0.2, 0.2, 0.2), (0.4, 0.9, 0.7)), 2500, [(C, 3000, ((0.1, 0.1, 0.1), (0.5, 0.5, 0.5))), (D, 700)]),
    (C, 10**9, [(D, 4000)]),
]


@pytest.fixture(scope="module")
def path(tmp_path_factory):
    p = str(tmp_path_factory.mktemp("sd") / "ds.lodex")
    rng = np.random.default_rng(7)
    ds = lodex.create(p)
    for name, pdt in (("p", "f8"), ("q", "f4")):   # f8 and f4 positions
        g = ds.define_particles(name, {"position": (pdt, 3), "energy": "f4", "id": "u8"}, domain=DOMAIN,
                                partition_grid=(2, 2, 2), lod={"level0_max": 50, "brick_target": 64})
        pos = rng.normal(0.5, 0.18, (N, 3)).clip(0, np.nextafter(1, 0)).astype(pdt)
        g.write(0, data={"position": pos, "energy": rng.random(N).astype("f4"), "id": np.arange(N, dtype="u8")})
    ds.close()
    return p


@pytest.fixture(scope="module")
def ds(path):
    d = lodex.open(path)
    yield d
    d.close()


def _inside(pos, box) -> np.ndarray:
    return np.all((pos >= np.array(box[0])) & (pos < np.array(box[1])), axis=1)


def oracle_ids(g, box, take, held) -> tuple[np.ndarray, int]:
    """numpy on read(): the sample's ids less the held ones (sorted), and the sample's size."""
    s = g.read(0, box, ["id", "position"], level=0, P=take)
    drop = []
    for h in held:
        r = g.read(0, h[0], ["id", "position"], level=0, P=h[1])
        drop.append(r["id"][_inside(r["position"], h[2])] if len(h) == 3 else r["id"])
    ids = s["id"]
    if drop:
        ids = np.setdiff1d(ids, np.concatenate(drop))
    return np.sort(ids), len(s["id"])


def previous_answer(g, box, take, held, fields):
    """The previous implementation (lodex serve before sample_difference): a query every particle
    of the box passes at level 0 with P = take, less the held samples' queries' row ids."""
    def sample(b, t, clip=None, f=()):
        q = f"position[0] >= {b[0][0]!r}" if clip is None else " && ".join(
            f"position[{a}] >= {clip[0][a]!r} && position[{a}] < {clip[1][a]!r}" for a in range(3))
        return g.query(0, q, b, level=0, P=t, fields=list(f))
    r = sample(box, take, f=fields)
    held_rows = [sample(h[0], h[1], h[2] if len(h) == 3 else None).rows for h in held]
    masks = {}
    for name, rows in r.rows.items():
        drop = [h[name] for h in held_rows if name in h and len(h[name])]
        masks[name] = ~np.isin(rows, np.concatenate(drop)) if drop else np.ones(len(rows), bool)
    keep = np.concatenate(list(masks.values())) if masks else np.zeros(0, bool)
    rows = {n: v[masks[n]] for n, v in r.rows.items() if masks[n].any()}
    return rows, {f: r.data[f][keep] for f in fields}


@pytest.mark.parametrize("group", ["p", "q"])
@pytest.mark.parametrize("box, take, held", CASES)
def test_the_difference_is_the_sample_less_the_held_samples(ds, group, box, take, held):
    g = ds.particles[group]
    want, size = oracle_ids(g, box, take, held)
    r = g.sample_difference(0, box, take, held, fields=["id", "position", "energy"], count_sample=True)
    assert r.count == len(r.data["id"]) == sum(len(v) for v in r.rows.values())
    assert np.array_equal(np.sort(r.data["id"]), want)
    assert r.sample == size
    # every field is the particle's own: against a read of the whole step, by id
    whole = g.read(0, fields=["id", "position", "energy"])
    order = np.argsort(whole["id"])
    at = order[np.searchsorted(whole["id"], r.data["id"], sorter=order)]
    assert whole["position"][at].tobytes() == r.data["position"].tobytes()
    assert whole["energy"][at].tobytes() == r.data["energy"].tobytes()


@pytest.mark.parametrize("box, take, held", CASES)
def test_the_answer_is_bit_for_bit_the_previous_one(ds, box, take, held):
    """Same particles, same order (file after file, rows ascending), same bytes."""
    g = ds.particles["p"]
    rows, data = previous_answer(g, box, take, held, ["position", "energy", "id"])
    r = g.sample_difference(0, box, take, held, fields=["position", "energy", "id"])
    assert list(r.rows) == list(rows)
    for name in rows:
        assert np.array_equal(r.rows[name], rows[name])
    for f in data:
        assert r.data[f].dtype == data[f].dtype and r.data[f].tobytes() == data[f].tobytes()
    assert r.sample is None   # not asked for


def test_rows_alone_and_an_empty_answer(ds):
    g = ds.particles["p"]
    r = g.sample_difference(0, C, 500, [(C, 500)])
    assert r.count == 0 and r.rows == {} and r.data == {}
    r = g.sample_difference(0, C, 800, [(C, 500)])
    assert r.count == len(oracle_ids(g, C, 800, [(C, 500)])[0]) > 0
    # a box with no particle
    r = g.sample_difference(0, ((0.9, 0.9, 0.9), (0.9, 0.9, 0.9)), 100, [], fields=["id"], count_sample=True)
    assert r.count == 0 and r.sample == 0 and r.data["id"].shape == (0,)


@pytest.mark.parametrize("call, error, words", [
    (lambda g: g.sample_difference(0, C, 0), InvalidArgumentError, "take"),
    (lambda g: g.sample_difference(0, C, 2**63), InvalidArgumentError, "take"),
    (lambda g: g.sample_difference(0, C, 1.5), InvalidArgumentError, "take"),
    (lambda g: g.sample_difference(0, None, 10), InvalidArgumentError, "needs a box"),
    (lambda g: g.sample_difference(0, ((0.5, 0, 0), (0.2, 1, 1)), 10), InvalidArgumentError, "inverted"),
    (lambda g: g.sample_difference(0, ((np.nan, 0, 0), (1, 1, 1)), 10), InvalidArgumentError, "NaN"),
    (lambda g: g.sample_difference(0, ((0, 0), (1, 1)), 10), InvalidArgumentError, "3 coordinates"),
    (lambda g: g.sample_difference(0, C, 10, [(C,)]), InvalidArgumentError, "held[0]"),
    (lambda g: g.sample_difference(0, C, 10, [(C, 0)]), InvalidArgumentError, "held[0]'s take"),
    (lambda g: g.sample_difference(0, C, 10, [(C, 5, "x")]), InvalidArgumentError, "held[0]'s clip"),
    (lambda g: g.sample_difference(0, C, 10, [(C, 5, ((0.6, 0, 0), (0.1, 1, 1)))]), InvalidArgumentError,
     "inverted"),
    (lambda g: g.sample_difference(0, C, 10, [((C[1], C[0])), 5]), InvalidArgumentError, "held"),
    (lambda g: g.sample_difference(0, C, 10, "abc"), InvalidArgumentError, "held"),
    (lambda g: g.sample_difference(0, C, 10, fields=["nope"]), NotFoundError, "nope"),
    (lambda g: g.sample_difference(0, C, 10, fields=["id", "id"]), InvalidArgumentError, "twice"),
    (lambda g: g.sample_difference(5, C, 10), NotFoundError, "step"),
    (lambda g: g.sample_difference(0, C, 10, S=1.0), InvalidArgumentError, "S"),
])
def test_bad_arguments_are_typed_errors(ds, call, error, words):
    with pytest.raises(error, match=re.escape(words)):
        call(ds.particles["p"])
    assert ds.particles["p"].sample_difference(0, C, 100).count > 0   # the group still answers


@pytest.mark.parametrize("ranks", [2, 3])
def test_every_rank_gets_the_serial_answer(path, ds, ranks):
    cases = CASES[:4] + CASES[5:6]
    got = run_mpi(ranks, "sample_difference_mpi.py", path, json.dumps(cases), timeout=120)
    g = ds.particles["p"]
    want = []
    for box, take, held in cases:
        r = g.sample_difference(0, box, take, held, fields=["id"], count_sample=True)
        want.append({"ids": r.data["id"].tolist(), "rows": {f: v.tolist() for f, v in r.rows.items()},
                     "sample": r.sample})
        assert sorted(r.data["id"].tolist()) == oracle_ids(g, box, take, held)[0].tolist()
    assert len(got) == ranks
    for answers in got:
        assert answers == want


def test_a_closed_dataset_is_an_error(path):
    d = lodex.open(path)
    g = d.particles["p"]
    d.close()
    with pytest.raises(lodex.errors.Error, match="closed"):
        g.sample_difference(0, C, 100)
