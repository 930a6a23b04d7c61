"""lodex serve's HTTP API: every endpoint bit for bit against lodex's own Python reads, the
binary framing parsed by hand, every class of bad request (4xx with a JSON message, no traceback,
the server still serving), and the command line."""

from __future__ import annotations

import http.client
import json
import os
import struct
import subprocess
import sys
import threading

import numpy as np
import pytest

import lodex
from lodex.serve import decode, make_server

N = 6000


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("serve") / "ds.lodex")
    rng = np.random.default_rng(7)
    ds = lodex.create(path)
    g = ds.define_particles("gas", {"position": ("f8", 3), "energy": "f4", "id": "u8"},
                     domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2))
    for s in (0, 5):
        g.write(s, {"position": rng.random((N, 3)), "energy": rng.random(N).astype("f4"),
                    "id": np.arange(N, dtype="u8")}, index=["energy"] if s == 0 else None)
    gr = ds.define_grid("density", dims=(16, 16, 8), dtype="f4")
    gr.write(0, ((0, 0, 0), (16, 16, 8)), rng.random((8, 16, 16)).astype("f4"))
    se = ds.define_series("weather", dims=(8, 6, 4), variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2)
    for t in range(4):
        se.write(t, ((0, 0, 0), (8, 6, 4)), {"T": rng.random((4, 6, 8)).astype("f4"),
                                              "PS": rng.random((6, 8)).astype("f4")})
    ds.close()
    return path


@pytest.fixture(scope="module")
def server(dataset):
    srv = make_server(dataset, "127.0.0.1", 0, quiet=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def ds(dataset):
    return lodex.open(dataset)


def request(server, path: str, method: str = "GET", headers: dict | None = None, auth: bool = True,
            timeout: float = 30):
    """One request on a new connection; with ``auth`` it carries the server's token in the
    Authorization header (the way a script authenticates)."""
    host, port = server.server_address[:2]
    c = http.client.HTTPConnection(host, port, timeout=timeout)
    token = getattr(server, "token", None)
    headers = {**({"Authorization": f"token {token}"} if auth and token else {}), **(headers or {})}
    c.request(method, path, headers=headers)   # sent as is: no normalisation of '..'
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, dict(r.getheaders()), body


def frame(server, path: str):
    status, headers, body = request(server, path)
    assert status == 200, body
    assert headers["Content-Type"] == "application/octet-stream"
    head, arrays = decode(body)
    return head, arrays, headers


def same(a: np.ndarray, b: np.ndarray) -> None:
    """Bit for bit: dtype, shape and bytes."""
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def test_info(server, ds):
    status, headers, body = request(server, "/api/info")
    assert status == 200 and headers["Content-Type"] == "application/json"
    info = json.loads(body)
    g = ds.particles["gas"]
    gas = info["particles"]["gas"]
    assert gas["fields"] == {"position": {"dtype": "<f8", "components": 3},
                             "energy": {"dtype": "<f4", "components": 1},
                             "id": {"dtype": "<u8", "components": 1}}
    assert [s["step"] for s in gas["steps"]] == [0, 5]
    for s in gas["steps"]:
        full = g.read(s["step"])
        assert s["particles"] == len(full["id"]) == N
        assert s["levels"] == g.refine(s["step"]).levels
        assert s["bounds"] == [full["position"].min(axis=0).tolist(), full["position"].max(axis=0).tolist()]
    assert gas["steps"][0]["indexed"] == ["energy"] and gas["steps"][1]["indexed"] == []
    for s in gas["steps"]:   # each field's range from the files' metadata: the data's exact range
        full = g.read(s["step"])
        for f, r in s["ranges"].items():
            a = full[f].reshape(N, -1)
            assert r == {"min": a.min(axis=0).astype("f8").tolist(), "max": a.max(axis=0).astype("f8").tolist()}
    assert info["grids"]["density"]["dims"] == [16, 16, 8]
    assert info["grids"]["density"]["max_resolution"] == ds.grids["density"].max_resolution
    assert info["series"]["weather"]["steps"] == [0, 1, 2, 3]
    assert info["series"]["weather"]["variables"]["PS"] == {"dtype": "<f4", "ndim": 2}


def test_frame_layout(server, ds):
    """The documented framing, parsed without decode(): uint32 LE header length, JSON header,
    arrays at 8-byte-aligned offsets from the data section."""
    _, _, body = request(server, "/api/particles?group=gas&step=0&level=1&fields=energy,position")
    (n,) = struct.unpack("<I", body[:4])
    assert (4 + n) % 8 == 0
    head = json.loads(body[4:4 + n].decode())
    assert [a["name"] for a in head["arrays"]] == ["energy", "position"]
    e, p = head["arrays"]
    assert e["dtype"] == "<f4" and p["dtype"] == "<f8" and p["shape"] == [head["count"], 3]
    assert e["offset"] == 0 and p["offset"] % 8 == 0 and p["offset"] >= e["nbytes"]
    assert len(body) == 4 + n + p["offset"] + p["nbytes"]
    energy = struct.unpack(f"<{head['count']}f", body[4 + n:4 + n + e["nbytes"]])
    ref = ds.particles["gas"].read(0, fields=["energy"], level=1)["energy"]
    assert list(energy) == ref.tolist()


@pytest.mark.parametrize("query, kw", [
    ("group=gas&step=0", {}),
    ("group=gas&step=0&level=0", {"level": 0}),
    ("group=gas&step=5&level=3&fields=position", {"level": 3, "fields": ["position"]}),
    ("group=gas&step=0&level=4&box=0.1,0.2,0,0.6,0.9,0.5&fields=energy,id",
     {"level": 4, "box": ((0.1, 0.2, 0), (0.6, 0.9, 0.5)), "fields": ["energy", "id"]}),
    ("group=gas&step=5&box=0.5,0.5,0.5,1,1,1", {"box": ((0.5, 0.5, 0.5), (1, 1, 1))}),
    ("group=gas&step=0&box=0.3,0.3,0.3,0.3,0.3,0.3", {"box": ((0.3, 0.3, 0.3), (0.3, 0.3, 0.3))}),
    # past the view's last level: the whole view, as the read past its last level
    ("group=gas&step=0&level=99&box=0.4,0.4,0.4,0.5,0.5,0.5",
     {"level": 99, "box": ((0.4, 0.4, 0.4), (0.5, 0.5, 0.5))}),
])
def test_particles_match_read(server, ds, query, kw):
    head, arrays, headers = frame(server, "/api/particles?" + query)
    g = ds.particles["gas"]
    step = int(query.split("step=")[1].split("&")[0])
    if "level" not in kw:   # the default is the last level: everything in the box
        kw["level"] = g.refine(step, kw.get("box")).levels - 1
    ref = g.read(step, **kw)
    fields = kw.get("fields", list(g.schema))
    assert list(arrays) == fields
    for f in fields:
        same(arrays[f], ref[f])
    assert head["count"] == int(headers["X-Lodex-Count"]) == len(ref[fields[0]])
    stats = json.loads(headers["X-Lodex-Read-Stats"])
    want = g.last_read_stats
    for k in ("particles", "bytes_returned", "files_opened", "bytes_read"):
        assert stats[k] == want[k]


@pytest.mark.parametrize("start, level, box", [(-1, 0, None), (0, 3, None), (2, 3, None),
                                               (1, 5, ((0, 0, 0), (0.5, 1, 1))), (3, 4, None)])
def test_new_particles_between_levels(server, ds, start, level, box):
    """from=a&level=b: exactly the particles of read(level=b) that read(level=a) lacks (by id),
    with every field's values the same."""
    g = ds.particles["gas"]
    q = f"/api/particles?group=gas&step=0&from={start}&level={level}"
    if box:
        q += "&box=" + ",".join(str(v) for v in box[0] + box[1])
    head, arrays, _ = frame(server, q)
    fine = g.read(0, box, level=level)
    coarse = g.read(0, box, level=start)["id"] if start >= 0 else np.empty(0, "u8")
    new = ~np.isin(fine["id"], coarse)
    order = np.argsort(arrays["id"])
    want = np.argsort(fine["id"][new])
    assert head["count"] == new.sum() == len(arrays["id"])
    for f in fine:
        same(np.ascontiguousarray(arrays[f][order]), np.ascontiguousarray(fine[f][new][want]))


def test_levels_chain_to_the_full_view(server, ds):
    """Level 0, then each next level's new particles: together exactly the whole step."""
    g = ds.particles["gas"]
    levels = g.refine(5).levels
    ids = [frame(server, "/api/particles?group=gas&step=5&from=-1&level=0&fields=id")[1]["id"]]
    for lv in range(1, levels):
        head, arrays, headers = frame(server, f"/api/particles?group=gas&step=5&from={lv - 1}&level={lv}&fields=id")
        ids.append(arrays["id"])
        # the server went on with the same refinement: only this level was read
        assert head["continued"] and json.loads(headers["X-Lodex-Read-Stats"])["particles"] == head["count"]
    got = np.concatenate(ids)
    assert len(got) == len(np.unique(got)) == N
    head, arrays, headers = frame(server, "/api/particles?group=gas&step=5&from=3&level=4&fields=id")
    assert not head["continued"]   # a new view: levels 0..3 are read again, and dropped
    assert json.loads(headers["X-Lodex-Read-Stats"])["particles"] == len(g.read(5, level=4)["id"])


def _box(b) -> str:
    return ",".join(repr(float(v)) for v in b[0] + b[1])


def _ids(g, step: int, box, take: int, clip=None) -> np.ndarray:
    """The ids of the first ``take`` particles of the box's sample order: read at level 0 with
    P = take (levels 0..L are take = 32 * (2**(L+1) - 1)); with ``clip``, those inside it."""
    r = g.read(step, box, ["id", "position"], level=0, P=take)
    if clip is None:
        return r["id"]
    p = r["position"]
    return r["id"][np.all((p >= clip[0]) & (p < clip[1]), axis=1)]


def _have(have) -> str:
    return ";".join(f"{_box(h[0])},{h[1]}" + (f",{_box(h[2])}" if len(h) > 2 else "") for h in have)


WHOLE, HALF, INNER = ((0, 0, 0), (1, 1, 1)), ((0, 0, 0), (0.5, 1, 1)), ((0.2, 0.3, 0.1), (0.45, 0.7, 0.6))


@pytest.mark.parametrize("box, take, have", [
    (INNER, 700, [(WHOLE, 992)]),                      # a zoom: the inner box less the whole view
    (INNER, 5000, [(WHOLE, 992), (HALF, 300)]),        # two held samples, the view's whole box
    (HALF, 2016, [(HALF, 992)]),                       # the next level of the same box
    (WHOLE, 992, [(INNER, 4000)]),                     # a zoom out
    (INNER, 96, []),                                   # no have: the sample itself
    (((0.6, 0.6, 0.6), (0.9, 0.9, 0.9)), 500, [(INNER, 4000)]),   # held samples elsewhere
    (HALF, 3000, [(WHOLE, 2016, INNER), (INNER, 900)]),   # a zoom out: part of a sample held
])
def test_sample_less_what_is_held(server, ds, box, take, have):
    """take=T&have=...: exactly the particles (by id, with every field) of read(box, level=0,
    P=T) that no held sample has, and take=T of a box equals levels 0..L when T is their size."""
    g = ds.particles["gas"]
    q = f"/api/particles?group=gas&step=0&box={_box(box)}&take={take}"
    if have:
        q += "&have=" + _have(have)
    head, arrays, _ = frame(server, q)
    full = g.read(0, box, level=0, P=take)
    drop = np.concatenate([_ids(g, 0, *h) for h in have]) if have else np.empty(0, "u8")
    new = ~np.isin(full["id"], drop)
    assert head["count"] == new.sum() == len(arrays["id"]) and head["take"] == take
    order, want = np.argsort(arrays["id"]), np.argsort(full["id"][new])
    for f in full:
        same(np.ascontiguousarray(arrays[f][order]), np.ascontiguousarray(full[f][new][want]))
    level = frame(server, f"/api/particles?group=gas&step=0&box={_box(box)}&level=4&fields=id")
    assert level[0]["take"] == 32 * (2**5 - 1) and np.array_equal(np.sort(level[1]["id"]),
                                                                 np.sort(_ids(g, 0, box, 32 * (2**5 - 1))))


@pytest.mark.parametrize("box, take, have, most", [
    (WHOLE, 4064, [(WHOLE, 2016)], 1000),    # the budget's last part of a level
    (INNER, 8000, [(WHOLE, 992)], 150),      # a zoom with little room
    (HALF, 6000, [], 1234),                  # a first view cut to a budget
    (INNER, 8000, [(WHOLE, 992)], 0),        # no room: nothing
    (HALF, 200, [], 5000),                   # fits: the take asked for
])
def test_most_cuts_the_sample_to_fit(server, ds, box, take, have, most):
    """most=N: the answer is exactly read(box, P=take') less the held samples for the take' in
    the header, at most N particles and (when the whole take does not fit) at least 99 % of N,
    or the take asked for when it fits."""
    g = ds.particles["gas"]
    q = f"/api/particles?group=gas&step=0&box={_box(box)}&take={take}&most={most}&fields=id"
    if have:
        q += "&have=" + _have(have)
    head, arrays, _ = frame(server, q)
    drop = np.concatenate([_ids(g, 0, *h) for h in have]) if have else np.empty(0, "u8")
    whole = np.setdiff1d(_ids(g, 0, box, take), drop)
    got = np.sort(arrays["id"])
    assert len(got) == head["count"] <= most
    if len(whole) <= most:
        assert head["take"] == take and np.array_equal(got, np.sort(whole))
    else:
        assert head["take"] < take and head["count"] >= 0.99 * most
        want = np.setdiff1d(_ids(g, 0, box, head["take"]), drop) if head["take"] else np.empty(0, "u8")
        assert np.array_equal(got, np.sort(want))


@pytest.fixture
def counted(monkeypatch):
    """The particle queries, sample differences and refinements the server runs (it answers in
    this process)."""
    calls = {"query": 0, "sample_difference": 0, "refine": 0}
    for name in calls:
        def wrap(self, *args, _orig=getattr(lodex.particles.ParticleGroup, name), _name=name, **kw):
            calls[_name] += 1
            return _orig(self, *args, **kw)
        monkeypatch.setattr(lodex.particles.ParticleGroup, name, wrap)
    return calls


@pytest.mark.parametrize("box, take, have, most", [
    (((0.25, 0.3, 0.15), (0.4, 0.65, 0.55)), 4000, [(WHOLE, 992)], 5000),   # a zoom's first request that fits
    (((0.3, 0.35, 0.2), (0.4, 0.6, 0.5)), 2016, [(INNER, 992)], None),      # the next level, no budget
])
def test_a_sample_less_what_is_held_is_one_query(server, counted, box, take, have, most):
    """A request naming held samples costs one sample difference (the planner's rows of the
    samples, the new particles' data; no query of the whole sample), and one refinement setup
    for the box's level count, none for the box's next request."""
    for b, t in have:   # the held sample, as the viewer got it
        frame(server, f"/api/particles?group=gas&step=0&box={_box(b)}&take={t}&fields=id")
    counted.update(query=0, sample_difference=0, refine=0)
    q = f"/api/particles?group=gas&step=0&box={_box(box)}&take={take}&have={_have(have)}&fields=id"
    head = frame(server, q + (f"&most={most}" if most is not None else ""))[0]
    assert head["take"] == take and head["count"] > 0
    assert counted == {"query": 0, "sample_difference": 1, "refine": 1}
    frame(server, f"/api/particles?group=gas&step=0&box={_box(box)}&take={2 * take}&have={_have(have)};"
                  f"{_box(box)},{take}&fields=id")
    assert counted == {"query": 0, "sample_difference": 2, "refine": 1}


@pytest.mark.parametrize("box, take, have, most", [
    (INNER, 8000, [(WHOLE, 992)], 150),
    (HALF, 6000, [], 1234),
    (HALF, 3000, [(WHOLE, 2016, INNER), (INNER, 900)], 400),
])
def test_a_sample_cut_to_fit_is_the_smaller_sample_s_answer(server, box, take, have, most):
    """most=N cuts the sample read at ``take`` to the take' that fits: the body, array for array
    in order, is the answer to take=take' (the smaller sample read itself)."""
    q = f"/api/particles?group=gas&step=0&box={_box(box)}" + (f"&have={_have(have)}" if have else "")
    head, arrays, _ = frame(server, q + f"&take={take}&most={most}")
    assert 0 < head["take"] < take
    head2, arrays2, _ = frame(server, q + f"&take={head['take']}")
    assert head2["count"] == head["count"] and head2["sample"] == head["sample"]
    assert list(arrays) == list(arrays2)
    for f in arrays:
        same(arrays[f], arrays2[f])


@pytest.mark.parametrize("query, message", [
    ("take=10", "need a box"),
    ("box=0,0,0,1,1,1&take=0", "take"),
    ("box=0,0,0,1,1,1&take=10&level=2", "level or take"),
    ("box=0,0,0,1,1,1&take=10&from=1&level=2", "from"),
    ("box=0,0,0,1,1,1&take=10&have=0,0,0,1,1,1", "have"),
    ("box=0,0,0,1,1,1&take=10&have=0,0,0,1,1,x,5", "have"),
    ("box=0,0,0,1,1,1&take=10&have=1,0,0,0,1,1,5", "not a box"),
    ("box=0,0,0,1,1,1&take=10&have=0,0,0,1,1,1,0", "sample size"),
    ("box=0,0,0,1,1,1&take=10&have=0,0,0,1,1,1,5,0,0,0,1,1", "clip box"),
    ("box=0,0,0,1,1,1&take=10&have=0,0,0,1,1,1,5,1,0,0,0,1,1", "not a box"),
    ("box=0,0,0,1,1,1&take=10&have=" + ";".join(["0,0,0,1,1,1,5"] * 17), "over the limit of 16"),
    ("box=0,0,0,1,1,1&take=10&most=-1", "most"),
])
def test_sample_bad_requests(server, query, message):
    st, _, body = request(server, "/api/particles?group=gas&step=0&" + query)
    r = json.loads(body)
    assert st == 400 and message in r["error"], r


@pytest.mark.parametrize("query, kw", [
    ("name=density", {}),
    ("name=density&step=0&resolution=4", {"resolution": 4}),
    ("name=density&box=2,3,1,14,11,7&resolution=9", {"box": ((2, 3, 1), (14, 11, 7)), "resolution": 9}),
    ("name=density&slice=z:4", {"box": ((0, 0, 4), (16, 16, 5))}),
    ("name=density&slice=x:8&resolution=8", {"box": ((8, 0, 0), (9, 16, 8)), "resolution": 8}),
])
def test_grid_matches_read(server, ds, query, kw):
    head, arrays, headers = frame(server, "/api/grid?" + query)
    g = ds.grids["density"]
    same(arrays["data"], g.read(0, **kw))
    assert head["box"] == [list(b) for b in g.last_read_box]
    assert json.loads(headers["X-Lodex-Read-Stats"])["bytes_read"] == g.last_read_stats["bytes_read"]


@pytest.mark.parametrize("query, var, steps, box", [
    ("name=weather&var=T", "T", [0, 1, 2, 3], None),
    ("name=weather&var=PS&steps=1,3", "PS", [1, 3], None),
    ("name=weather&var=T&steps=1:3&box=1,2,0,7,5,3", "T", [1, 2], ((1, 2, 0), (7, 5, 3))),
    ("name=weather&var=T&steps=2", "T", [2], None),
])
def test_series_matches_read(server, ds, query, var, steps, box):
    head, arrays, _ = frame(server, "/api/series?" + query)
    same(arrays["data"], ds.series["weather"].read(var, steps, box))
    assert head["steps"] == steps


@pytest.mark.parametrize("step, q, box, level, indexed", [
    (0, "energy > 0.9", None, None, True),
    (0, "energy <= 0.25", ((0, 0, 0), (1, 0.5, 1)), None, True),
    (0, "energy <= 0.25 && x > 0.5", None, None, False),   # x has no index: scanned, noted
    (0, "energy > 0.5", None, 3, True),
    (5, "energy > 0.9", None, None, False),
])
def test_query_matches(server, ds, step, q, box, level, indexed):
    from urllib.parse import quote
    url = f"/api/query?group=gas&step={step}&q={quote(q)}&fields=id,position"
    if box:
        url += "&box=" + ",".join(str(v) for v in box[0] + box[1])
    if level is not None:
        url += f"&level={level}"
    head, arrays, _ = frame(server, url)
    ref = ds.particles["gas"].query(q, step, box, level, ["id", "position"])
    assert head["count"] == ref.count and head["used_index"] == ref.used_index == indexed
    assert head["notes"] == ref.notes and (indexed or head["notes"])
    for f in ("id", "position"):
        same(arrays[f], ref.data[f])


@pytest.mark.parametrize("step, q, box, budget", [
    (0, "energy > 0.2", None, None),
    (0, "energy > 0.2", None, 100),                            # the level whose matches fit 100
    (0, "energy < 0.5", ((0, 0, 0), (0.5, 0.7, 1)), 50),
    (0, "energy > 0.2", None, 10**6),                          # every match fits: the last level
    (5, "energy > 0.9 && x < 0.5", None, 40),                  # no index on step 5: a scan
    (0, "energy > 0.5", ((0.2, 0.2, 0.2), (0.2, 0.5, 0.5)), 10),   # a zero-size box: 0
])
def test_count_is_the_exact_total_and_a_level_fitting_the_budget(server, ds, step, q, box, budget):
    from urllib.parse import quote
    url = f"/api/count?group=gas&step={step}&q={quote(q)}"
    if box:
        url += "&box=" + ",".join(str(v) for v in box[0] + box[1])
    if budget:
        url += f"&budget={budget}"
    status, headers, body = request(server, url)
    assert status == 200 and headers["Content-Type"] == "application/json", body
    r = json.loads(body)
    g = ds.particles["gas"]
    ref = g.query(q, step, box, count_only=True)
    assert r["count"] == ref.count and r["used_index"] == ref.used_index == (step == 0)
    assert r["notes"] == ref.notes and r["levels"] == g.refine(step, box).levels
    if step == 0 and box is None:
        assert r["stats"]["data_bytes"] == 0   # the index alone: no particle read
    if budget is None:
        assert "level" not in r
        return
    at = lambda lv: g.query(q, step, box, lv, count_only=True).count   # noqa: E731
    assert r["drawn"] == at(r["level"]) and (r["drawn"] <= budget or r["level"] == 0)
    if r["level"] + 1 < r["levels"]:
        assert at(r["level"] + 1) > budget   # the finest that fits
    else:
        assert r["drawn"] == ref.count <= budget


@pytest.mark.parametrize("query, status, message", [
    ("group=gas&step=0", 400, "missing parameter 'q'"),
    ("group=gas&step=0&q=energy%20%3E", 400, ""),
    ("group=gas&step=0&q=mass%3E1", 400, "mass"),
    ("group=gas&step=0&q=energy%3E1&budget=0", 400, "budget"),
    ("group=gas&step=0&q=energy%3E1&budget=x", 400, "budget"),
    ("group=gas&step=3&q=energy%3E1", 404, "no step 3"),
])
def test_count_bad_requests(server, query, status, message):
    st, _, body = request(server, "/api/count?" + query)
    r = json.loads(body)
    assert st == status and message in r["error"], r


@pytest.mark.parametrize("query, field, kw", [
    ("group=gas&step=0&field=energy", "energy", {}),
    ("group=gas&step=5&field=position&level=2", "position", {"level": 2}),
    ("group=gas&step=0&field=id&box=0,0,0,0.5,0.5,0.5", "id", {"box": ((0, 0, 0), (0.5, 0.5, 0.5))}),
    ("group=gas&step=0&field=energy&level=50", "energy", {}),   # past the last level: exact
])
def test_range_matches_numpy(server, ds, query, field, kw):
    status, _, body = request(server, "/api/range?" + query)
    assert status == 200, body
    r = json.loads(body)
    g = ds.particles["gas"]
    step = int(query.split("step=")[1].split("&")[0])
    level = kw.pop("level", g.refine(step, kw.get("box")).levels - 1)
    a = g.read(step, fields=[field], level=level, **kw)[field]
    a = a.reshape(len(a), -1)
    assert r["min"] == a.min(axis=0).tolist() and r["max"] == a.max(axis=0).tolist()
    assert r["count"] == len(a) and r["exact"] == ("level" not in query or "level=50" in query)


BAD = [
    ("/api/range?group=gas&step=0&field=mass", 404, "no field 'mass'"),
    ("/api/range?group=gas&step=0", 400, "missing parameter 'field'"),
    # unknown names (never paths)
    ("/api/particles?group=dust&step=0", 404, "no particle group 'dust'"),
    ("/api/particles?group=../../etc&step=0", 404, "no particle group"),
    ("/api/particles?group=/etc/passwd&step=0", 404, "no particle group"),
    ("/api/grid?name=../gas", 404, "no grid"),
    ("/api/series?name=weather&var=Q", 404, "no variable of series"),
    ("/api/particles?group=gas&step=0&fields=energy,mass", 404, "no field 'mass'"),
    ("/api/grid?name=density&field=pressure", 404, "no field 'pressure'"),
    # unknown steps
    ("/api/particles?group=gas&step=3", 404, "no step 3"),
    ("/api/grid?name=density&step=1", 404, "no step 1"),
    ("/api/series?name=weather&var=T&steps=2,9", 404, "no step(s) [9]"),
    ("/api/query?group=gas&step=4&q=energy>1", 404, "no step 4"),
    # boxes that are not boxes
    ("/api/particles?group=gas&step=0&box=0,0,0,1,1", 400, "6 numbers"),
    ("/api/particles?group=gas&step=0&box=0.5,0,0,0.2,1,1", 400, "not a box"),
    ("/api/particles?group=gas&step=0&box=0,0,0,nan,1,1", 400, "finite"),
    ("/api/particles?group=gas&step=0&box=a,b,c,d,e,f", 400, "6 numbers"),
    ("/api/grid?name=density&box=0,0,0,4,4", 400, "6 integers"),
    ("/api/grid?name=density&box=4,0,0,2,4,4", 400, "not a box"),
    ("/api/grid?name=density&slice=w:3", 400, "slice must be"),
    ("/api/grid?name=density&slice=z:99", 400, "outside"),
    ("/api/series?name=weather&var=T&box=0,0,0,9,9", 400, "6 integers"),
    # levels and resolutions out of range
    ("/api/particles?group=gas&step=0&level=100000000000000000000000000", 400, "must be an integer"),
    ("/api/particles?group=gas&step=0&level=4294967296", 400, "must be in"),
    ("/api/particles?group=gas&step=0&level=-1", 400, "must be in"),
    ("/api/particles?group=gas&step=0&from=3&level=2", 400, "must be below"),
    ("/api/grid?name=density&resolution=400", 400, "must be in"),
    # malformed numbers and parameters
    ("/api/particles?group=gas&step=abc", 400, "step must be an integer"),
    ("/api/particles?group=gas&step=1e3", 400, "step must be an integer"),
    ("/api/particles?group=gas&step=", 400, "step must be an integer"),
    ("/api/particles?group=gas", 400, "missing parameter 'step'"),
    ("/api/particles?group=gas&step=0&step=5", 400, "given 2 times"),
    ("/api/particles?group=gas&step=0&color=red", 400, "unknown parameter"),
    ("/api/series?name=weather&var=T&steps=3:1", 400, "a < b"),
    ("/api/info?x=1", 400, "unknown parameter"),
    ("/api/query?group=gas&step=0&q=energy>>1", 400, "InvalidArgumentError"),
    ("/api/query?group=gas&step=0&q=mass>1", 400, "InvalidArgumentError"),
    # paths outside the API: '..', absolute, encoded
    ("/../../etc/passwd", 404, "no such endpoint"),
    ("/api/../../../etc/passwd", 404, "no such endpoint"),
    ("//etc/passwd", 404, "no such endpoint"),
    ("/api/%2e%2e/%2e%2e/etc/passwd", 404, "no such endpoint"),
    ("/gas/0/p0.dat", 404, "no such endpoint"),
]


@pytest.mark.parametrize("path, status, message", BAD)
def test_bad_requests(server, path, status, message):
    got, headers, body = request(server, path)
    assert got == status, body
    assert headers["Content-Type"] == "application/json"
    err = json.loads(body)
    assert message in err["error"] and err["status"] == status
    assert "Traceback" not in err["error"] and "File \"" not in err["error"]
    assert request(server, "/api/info")[0] == 200   # still serving


def test_writes_are_refused(server):
    status, _, body = request(server, "/api/info", method="POST")
    assert status == 405 and "read-only" in json.loads(body)["error"]
    assert request(server, "/api/info")[0] == 200


@pytest.mark.parametrize("raw, status",
                         [(b"GARBAGE\r\n\r\n", 400), (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),
                                         (b"BREW /api/info HTTP/1.1\r\n\r\n", 501)])
def test_malformed_http_gets_json(server, raw, status):
    import socket
    with socket.create_connection(server.server_address[:2], timeout=30) as sock:
        sock.sendall(raw)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    if reply.startswith(b"HTTP/"):
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.split()[1] == str(status).encode(), head
    else:   # a request line without a version is HTTP/0.9: the answer is the body alone
        body = reply
    assert json.loads(body)["status"] == status
    assert request(server, "/api/info")[0] == 200


def serve_command(dataset, *args, env=None):
    """`lodex serve DS --port 0 --quiet ARGS` started; (process, its first stdout line, port)."""
    p = subprocess.Popen([sys.executable, "-m", "lodex", "serve", dataset, "--port", "0", "--quiet", *args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, **(env or {})})
    line = p.stdout.readline()
    assert line.startswith(f"lodex serve: {dataset} at http://127.0.0.1:"), line + p.stderr.read()
    return p, line, int(line.split("127.0.0.1:")[1].split("/")[0])


def get(port: int, path: str, headers: dict | None = None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", path, headers=headers or {})
    r = c.getresponse()
    return r.status, r.read()


def stop(p) -> str:
    p.send_signal(2)
    p.wait(timeout=30)
    err = p.stderr.read()
    assert p.returncode == 0, err
    return err


def test_command_line(dataset):
    """`lodex serve DS --port 0` prints its address with a fresh random token and answers there
    to that token only; stops on SIGINT."""
    p, line, port = serve_command(dataset)
    silent = None
    try:
        token = line.split("/?token=")[1].split()[0]
        assert len(token) >= 32
        assert get(port, "/api/info")[0] == 403
        status, body = get(port, f"/api/info?token={token}")
        assert status == 200 and json.loads(body)["particles"]["gas"]["steps"][0]["particles"] == N
        import socket
        silent = socket.create_connection(("127.0.0.1", port))   # open, silent, at Ctrl-C
    finally:
        err = stop(p)
        if silent is not None:
            silent.close()
    assert "leaked" not in err   # the dataset was closed on the way out, its connections ended
    p2, line2, _ = serve_command(dataset)
    stop(p2)
    assert line2.split("/?token=")[1].split()[0] != token   # a new token every start


@pytest.mark.parametrize("args, env", [(["--token", "s3cret-t0ken"], {}),
                                       ([], {"LODEX_SERVE_TOKEN": "s3cret-t0ken"})])
def test_command_line_token_is_chosen(dataset, args, env):
    p, line, port = serve_command(dataset, *args, env=env)
    try:
        assert "/?token=s3cret-t0ken" in line
        assert get(port, "/api/info", {"Authorization": "token s3cret-t0ken"})[0] == 200
        assert get(port, "/api/info", {"Authorization": "token wrong"})[0] == 403
    finally:
        stop(p)


def test_command_line_no_token_warns(dataset):
    p, line, port = serve_command(dataset, "--no-token")
    try:
        assert "token" not in line
        assert get(port, "/api/info")[0] == 200
    finally:
        err = stop(p)
    assert "any user of this machine" in err


def test_bad_port_or_taken_address_is_an_error(dataset, server):
    taken = str(server.server_address[1])
    for args, message in ((["--port", "70000"], "port must be an integer in 0..65535"),
                          (["--port", taken], f"cannot listen on 127.0.0.1:{taken}"),
                          (["--host", "no.such.host.invalid", "--port", "0"], "cannot listen on no.such.host.invalid"),
                          (["--port", "0", "--max-requests", "0"], "max_requests must be a positive integer"),
                          (["--port", "0", "--idle-timeout", "nan"], "idle_timeout must be a positive number"),
                          (["--port", "0", "--token", "a;b"], "token must be 1 to 256 of the characters")):
        r = subprocess.run([sys.executable, "-m", "lodex", "serve", dataset, *args],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_missing_dataset_is_an_error(tmp_path):
    r = subprocess.run([sys.executable, "-m", "lodex", "serve", str(tmp_path / "nope"), "--port", "0"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and "Traceback" not in r.stderr and "nope" in r.stderr


def test_viewer_files_are_served(server):
    status, headers, body = request(server, "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'src="viewer.js"' in body
    status, headers, body = request(server, "/viewer.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript") and len(body) > 10000
    assert request(server, "/viewer.js/../../server.py")[0] == 404


def test_damaged_data_is_a_500_with_a_message(dataset, tmp_path):
    """A file that cannot be read is the data's fault, not the request's: 500, the reader's
    message, no traceback, and the server goes on serving the rest."""
    import shutil
    copy = str(tmp_path / "damaged.lodex")
    shutil.copytree(dataset, copy)
    victim = os.path.join(copy, "gas", "step-000000005", "p000001.lpd")
    with open(victim, "r+b") as f:
        f.truncate(os.path.getsize(victim) // 2)
    srv = make_server(copy, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        status, _, body = request(srv, "/api/particles?group=gas&step=5")
        err = json.loads(body)["error"]
        assert status == 500 and err.split(":")[0] in ("FormatError", "IOFailure"), err
        assert "p000001.lpd" in err and "Traceback" not in err
        assert request(srv, "/api/particles?group=gas&step=0&level=2")[0] == 200
        status, _, body = request(srv, "/api/info")   # its snapshot met the damaged file at start
        assert status == 500 and "p000001.lpd" in json.loads(body)["error"]
    finally:
        srv.shutdown()
        srv.server_close()


# --- who may connect (issue 35, item 3) --------------------------------------------------------

def test_token_is_required(server):
    """No token, a wrong one, or one in the wrong place: 403 with a JSON message, for the API and
    the viewer alike; the right one in the Authorization header: 200."""
    for path in ("/api/info", "/", "/viewer.js", "/api/particles?group=gas&step=0&level=0"):
        status, headers, body = request(server, path, auth=False)
        assert status == 403 and headers["Content-Type"] == "application/json", (path, body)
        assert "token" in json.loads(body)["error"]
        for wrong in ({"Authorization": "token nope"}, {"Authorization": f"Bearer {server.token}x"},
                      {"Cookie": f"{server.cookie_name}=nope"}):
            assert request(server, path, headers=wrong, auth=False)[0] == 403, (path, wrong)
        assert request(server, path)[0] == 200
    assert request(server, "/api/info?token=nope", auth=False)[0] == 403


def test_token_in_the_url_becomes_a_cookie(server):
    """The announced URL (?token=T) answers with an HttpOnly, SameSite=Strict cookie and a
    redirect to the same page without the token; the cookie alone then reaches every endpoint."""
    assert server.login_url == f"{server.url}/?token={server.token}"
    status, headers, _ = request(server, f"/?token={server.token}", auth=False)
    assert status in (302, 303) and headers["Location"] == "/"
    cookie = headers["Set-Cookie"]
    attrs = [a.strip().lower() for a in cookie.split(";")]
    assert cookie.startswith(f"{server.cookie_name}={server.token};")
    assert "httponly" in attrs and "samesite=strict" in attrs and "path=/" in attrs
    jar = {"Cookie": cookie.split(";")[0]}
    for path in ("/", "/api/info", "/api/grid?name=density&resolution=0"):
        assert request(server, path, headers=jar, auth=False)[0] == 200, path
    # a script may also pass it as a parameter of an API request: answered directly
    assert request(server, f"/api/range?group=gas&step=0&field=energy&token={server.token}",
                   auth=False)[0] == 200


def test_no_token_server_answers_anyone(dataset):
    srv = make_server(dataset, "127.0.0.1", 0, quiet=True, token=False)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        assert srv.token is None and srv.login_url == srv.url + "/"
        assert request(srv, "/api/info", auth=False)[0] == 200
        assert request(srv, "/api/info?token=anything", auth=False)[0] == 200   # ignored
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("host, status", [
    ("evil.example.com:{port}", 403), ("evil.example.com", 403), ("localhost.evil.com:{port}", 403),
    ("127.0.0.1.nip.io:{port}", 403),
    ("localhost:{port}", 200), ("LOCALHOST:{port}", 200), ("127.0.0.1:{port}", 200), ("[::1]:{port}", 200),
    ("127.0.0.1:9999", 200),   # an SSH tunnel may forward another local port
])
def test_host_header_is_checked(server, host, status):
    """DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its own
    name as Host, and is refused even with the token (a browser would send the cookie)."""
    got, _, body = request(server, "/api/info", headers={"Host": host.format(port=server.server_address[1])})
    assert got == status, body
    if status == 403:
        assert "Host" in json.loads(body)["error"]


# --- limits (issue 35, item 4) ------------------------------------------------------------------

def run_server(dataset, **kw):
    srv = make_server(dataset, "127.0.0.1", 0, quiet=True, **kw)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def close(srv):
    srv.shutdown()
    srv.server_close()


def test_response_over_the_budget_is_a_413_naming_it(dataset, ds):
    from lodex.serve import Limits
    srv = run_server(dataset, limits=Limits(max_response_bytes=20_000))
    try:
        status, headers, body = request(srv, "/api/particles?group=gas&step=0")
        err = json.loads(body)["error"]
        assert status == 413 and "20000 bytes" in err and "--max-response-bytes" in err, err
        assert "box" in err and "level" in err and "fields" in err
        assert request(srv, "/api/series?name=weather&var=T")[0] == 200   # 4 x 192 floats fit
        head, arrays = decode(request(srv, "/api/particles?group=gas&step=0&level=1&fields=id")[2])
        same(arrays["id"], ds.particles["gas"].read(0, fields=["id"], level=1)["id"])
    finally:
        close(srv)


@pytest.mark.parametrize("q, message", [
    (" || ".join(f"energy > 0.{i:03d}" for i in range(65)), "65 comparisons, over the limit of 64"),
    ("energy > " + "1" * 5000, "over the limit of 4096 characters"),
])
def test_query_over_its_limits_is_refused_quickly(server, q, message):
    import time
    from urllib.parse import quote
    t0 = time.monotonic()
    status, _, body = request(server, f"/api/query?group=gas&step=5&q={quote(q)}")
    assert status == 413 and message in json.loads(body)["error"], body
    assert time.monotonic() - t0 < 2


def test_info_and_viewer_do_not_wait_for_the_read_lock(server):
    """While a long read holds the dataset lock, /api/info (a snapshot made at start) and the
    viewer's files still answer at once."""
    import time
    with server.lock:
        for path in ("/api/info", "/", "/viewer.js"):
            t0 = time.monotonic()
            assert request(server, path, timeout=5)[0] == 200
            assert time.monotonic() - t0 < 2
    assert json.loads(request(server, "/api/info")[2])["grids"]["density"]["dims"] == [16, 16, 8]


def test_idle_connection_is_closed(dataset):
    import socket
    import time
    from lodex.serve import Limits
    srv = run_server(dataset, limits=Limits(idle_timeout=1.0))
    try:
        with socket.create_connection(srv.server_address[:2], timeout=10) as sock:
            t0 = time.monotonic()
            assert sock.recv(1024) == b""   # closed by the server, nothing sent
            assert time.monotonic() - t0 < 5
        with socket.create_connection(srv.server_address[:2], timeout=10) as sock:
            sock.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")   # headers never finished
            t0 = time.monotonic()
            while sock.recv(65536):
                pass
            assert time.monotonic() - t0 < 5
    finally:
        close(srv)


def test_concurrent_requests_are_bounded(dataset):
    """With every request slot taken (two reads waiting for the lock), a third read is a 503 with
    Retry-After at once while /api/info and the viewer still answer; once the reads finish,
    reads are served again."""
    import time
    from lodex.serve import Limits
    srv = run_server(dataset, limits=Limits(max_requests=2))
    results = []
    try:
        with srv.lock:
            workers = [threading.Thread(target=lambda: results.append(
                request(srv, "/api/particles?group=gas&step=0&level=0")[0])) for _ in range(2)]
            for w in workers:
                w.start()
            deadline = time.monotonic() + 10
            while srv.busy < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert srv.busy == 2
            for path in ("/api/grid?name=density&resolution=0", "/api/range?group=gas&step=0&field=id"):
                t0 = time.monotonic()
                status, headers, body = request(srv, path, timeout=5)
                assert status == 503 and int(headers["Retry-After"]) >= 1, body
                assert "2 requests at once" in json.loads(body)["error"] and time.monotonic() - t0 < 2
            assert request(srv, "/api/info", timeout=5)[0] == 200 and request(srv, "/", timeout=5)[0] == 200
        for w in workers:
            w.join(30)
        assert results == [200, 200]
        assert request(srv, "/api/grid?name=density&resolution=0")[0] == 200
    finally:
        close(srv)


def test_open_connections_are_bounded(dataset):
    """Silent connections hold a thread each until the idle timeout: over --max-connections a new
    one is answered 503 at once, without a thread; when they close, connections are served."""
    import socket
    import time
    from lodex.serve import Limits
    srv = run_server(dataset, limits=Limits(max_connections=2, idle_timeout=30))
    try:
        silent = [socket.create_connection(srv.server_address[:2], timeout=10) for _ in range(2)]
        deadline = time.monotonic() + 10
        while srv.connections < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        t0 = time.monotonic()
        status, headers, body = request(srv, "/api/info", timeout=5)
        assert status == 503 and headers["Retry-After"] == "1", body
        assert "2 connections" in json.loads(body)["error"] and time.monotonic() - t0 < 2
        for sock in silent:
            sock.close()
        deadline = time.monotonic() + 10
        while srv.connections and time.monotonic() < deadline:
            time.sleep(0.01)
        assert request(srv, "/api/info")[0] == 200
    finally:
        close(srv)


# --- empty selections (issue 35, item 8) --------------------------------------------------------

def test_range_of_an_empty_box_is_a_count_of_zero(server):
    for field in ("energy", "position"):
        status, _, body = request(server, f"/api/range?group=gas&step=0&field={field}&box=0.3,0.3,0.3,0.3,0.3,0.3")
        assert status == 200, body
        r = json.loads(body)
        assert r["count"] == 0 and r["min"] is None and r["max"] is None


def test_empty_fields_means_no_field_on_both_endpoints(server, ds):
    """`fields=` (empty) is no field on /api/particles and /api/query alike: the count, no arrays."""
    g = ds.particles["gas"]
    head, arrays, headers = frame(server, "/api/particles?group=gas&step=0&level=2&fields=")
    assert arrays == {} and head["count"] == int(headers["X-Lodex-Count"]) == len(g.read(0, level=2)["id"])
    head, arrays, _ = frame(server, "/api/query?group=gas&step=0&q=energy%3E0.5&fields=")
    assert arrays == {} and head["count"] == g.query("energy > 0.5", 0).count > 0


@pytest.mark.parametrize("path, shape", [
    ("/api/grid?name=density&box=2,2,2,2,5,5", (3, 3, 0)),
    ("/api/series?name=weather&var=T&steps=1,2&box=2,2,1,2,5,3", (2, 2, 3, 0)),
    ("/api/series?name=weather&var=PS&steps=1&box=2,2,0,6,2,4", (1, 0, 4)),
])
def test_zero_size_box_is_empty_data_on_grid_and_series(server, path, shape):
    """A box with no extent on an axis holds no samples: 200 with an empty array, on grids and
    series alike (as on particles); a box outside the grid stays a 400."""
    head, arrays, _ = frame(server, path)
    assert arrays["data"].shape == shape and arrays["data"].dtype == np.dtype("<f4")
    assert request(server, "/api/series?name=weather&var=T&box=2,2,1,2,5,9")[0] == 400
