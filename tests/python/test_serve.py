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
    g = ds.particles("gas", {"position": ("f8", 3), "energy": "f4", "id": "u8"},
                     domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 2))
    for s in (0, 5):
        g.write(s, {"position": rng.random((N, 3)), "energy": rng.random(N).astype("f4"),
                    "id": np.arange(N, dtype="u8")}, index=["energy"] if s == 0 else None)
    gr = ds.grid("density", dims=(16, 16, 8), dtype="f4")
    gr.write(0, ((0, 0, 0), (16, 16, 8)), rng.random((8, 16, 16)).astype("f4"))
    se = ds.series("weather", dims=(8, 6, 4), variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2)
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


def request(server, path: str, method: str = "GET"):
    host, port = server.server_address[:2]
    c = http.client.HTTPConnection(host, port, timeout=30)
    c.request(method, path)   # sent as is: no normalisation of '..'
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
    g = ds.particles("gas")
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
    assert info["grids"]["density"]["dims"] == [16, 16, 8]
    assert info["grids"]["density"]["max_resolution"] == ds.grid("density").max_resolution
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
    ref = ds.particles("gas").read(0, fields=["energy"], level=1)["energy"]
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
    g = ds.particles("gas")
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
    g = ds.particles("gas")
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
    g = ds.particles("gas")
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


@pytest.mark.parametrize("query, kw", [
    ("name=density", {}),
    ("name=density&step=0&resolution=4", {"resolution": 4}),
    ("name=density&box=2,3,1,14,11,7&resolution=9", {"box": ((2, 3, 1), (14, 11, 7)), "resolution": 9}),
    ("name=density&slice=z:4", {"box": ((0, 0, 4), (16, 16, 5))}),
    ("name=density&slice=x:8&resolution=8", {"box": ((8, 0, 0), (9, 16, 8)), "resolution": 8}),
])
def test_grid_matches_read(server, ds, query, kw):
    head, arrays, headers = frame(server, "/api/grid?" + query)
    g = ds.grid("density")
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
    same(arrays["data"], ds.series("weather").read(var, steps, box))
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
    ref = ds.particles("gas").query(q, step, box, level, ["id", "position"])
    assert head["count"] == ref.count and head["used_index"] == ref.used_index == indexed
    assert head["notes"] == ref.notes and (indexed or head["notes"])
    for f in ("id", "position"):
        same(arrays[f], ref.data[f])


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
    g = ds.particles("gas")
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


@pytest.mark.parametrize("raw, status", [(b"GARBAGE\r\n\r\n", 400), (b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n", 414),
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


def test_command_line(dataset):
    """`lodex serve DS --port 0` prints its address and answers there; stops on SIGINT."""
    p = subprocess.Popen([sys.executable, "-m", "lodex", "serve", dataset, "--port", "0", "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        line = p.stdout.readline()
        assert line.startswith(f"lodex serve: {dataset} at http://127.0.0.1:"), line + p.stderr.read()
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", "/api/info")
        assert json.loads(c.getresponse().read())["particles"]["gas"]["steps"][0]["particles"] == N
    finally:
        p.send_signal(2)
        p.wait(timeout=30)
    assert p.returncode == 0
    assert "leaked" not in p.stderr.read()   # the dataset was closed on the way out


def test_bad_port_or_taken_address_is_an_error(dataset, server):
    taken = str(server.server_address[1])
    for args, message in ((["--port", "70000"], "port must be an integer in 0..65535"),
                          (["--port", taken], f"cannot listen on 127.0.0.1:{taken}"),
                          (["--host", "no.such.host.invalid", "--port", "0"], "cannot listen on no.such.host.invalid")):
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
    finally:
        srv.shutdown()
        srv.server_close()
