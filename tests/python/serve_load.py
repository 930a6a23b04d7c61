"""Server-load campaign for ``lodex serve`` (``make stress``; a small run is in test_serve_load.py).

Starts ``lodex serve`` (the command, as a user runs it) on a dataset of particles (two steps, a
bitmap index), a grid and a series, then, all at once:

- ``--clients`` clients, each making ``--requests`` valid requests of every endpoint (random
  groups, steps, boxes, levels, fields, queries) with the token;
- ``--fuzz`` requests with random paths and parameters (garbage, huge numbers, NaN, unbalanced
  queries, long and non-ASCII text), with and without the token and with forged Host headers;
- ``--stalled`` clients that ask for a whole step and never read the answer, and silent
  connections that send nothing.

Checks: no 5xx but 503 (a limit, with Retry-After), no "internal error" and no traceback in the
server's output, every request without the right token or with a foreign Host refused with 403,
every valid request answered 200 (or 503/413 at a limit), the server's peak memory (VmHWM) within
max-requests x max-response-bytes above its start, ``/api/info`` (timed from another process
every 0.2 s) answered within 5 s throughout (it waited 40.7 s behind one query before the limits),
and the server still answers after the load. Prints a JSON summary; exits 1 on any violation.

    .venv/bin/python tests/python/serve_load.py [--clients 50] [--requests 280] [--fuzz 9300]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import numpy as np

import lodex
import lodex.serve

TOKEN = "load-test-token"
INFO_BOUND_S = 5.0
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}


def make_dataset(path: str, n: int) -> None:
    rng = np.random.default_rng(5)
    with lodex.create(path) as ds:
        g = ds.define_particles("p", schema=SCHEMA, domain=((0, 0, 0), (1, 1, 1)), partition_grid=(2, 2, 1))
        for step in (0, 1):
            g.write(step, {"position": rng.random((n, 3)), "energy": rng.random(n).astype(np.float32),
                           "id": np.arange(n, dtype=np.int64)})
        g.build_index(fields=["energy"])
        ds.define_grid("g", dims=(32, 32, 16), dtype="f4").write(0, ((0, 0, 0), (32, 32, 16)),
                                                           rng.random((16, 32, 32)).astype(np.float32))
        s = ds.define_series("s", dims=(16, 16, 8), variables={"T": "f4"}, d_tar=2, d_sar=0)
        for t in range(4):
            s.write(t, ((0, 0, 0), (16, 16, 8)), {"T": np.full((8, 16, 16), t, np.float32)})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_hwm_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.status: dict[str, int] = {}
        self.violations: list[str] = []
        self.requests = 0

    def add(self, kind: str, status: int, what: str, allowed: set[int]):
        with self.lock:
            self.requests += 1
            key = f"{kind}:{status}"
            self.status[key] = self.status.get(key, 0) + 1
            if status not in allowed and len(self.violations) < 50:
                self.violations.append(f"{kind} {what}: status {status}, expected one of {sorted(allowed)}")


def request(port: int, path: str, headers: dict, timeout: float = 60) -> tuple[int, bytes]:
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", path, headers=headers)
        r = c.getresponse()
        return r.status, r.read()
    except (OSError, http.client.HTTPException) as e:
        return -1, str(e).encode()
    finally:
        c.close()


def box_param(rng: random.Random) -> str:
    lo = [rng.random() * 0.8 for _ in range(3)]
    hi = [min(1.0, v + rng.random() * 0.5) for v in lo]
    return ",".join(f"{v:.3f}" for v in lo + hi)


def valid_path(rng: random.Random) -> str:
    kind = rng.choice(["info", "particles", "query", "range", "grid", "series"])
    q: dict[str, str] = {}
    if kind in ("particles", "query", "range"):
        q.update(group="p", step=str(rng.choice([0, 1])))
        if rng.random() < 0.6:
            q["box"] = box_param(rng)
        if rng.random() < 0.5:
            q["level"] = str(rng.randint(0, 4))
    if kind == "particles" and rng.random() < 0.5:
        q["fields"] = rng.choice(["energy", "id,energy", "position", ""])
    if kind == "query":
        q["q"] = rng.choice(["energy > 0.5", "energy < 0.1 || energy > 0.9", "id < 100 && energy > 0.2",
                             " || ".join(f"energy > {rng.random():.2f}" for _ in range(rng.randint(1, 30)))])
    if kind == "range":
        q["field"] = rng.choice(["energy", "id"])
    if kind == "grid":
        q.update(name="g", resolution=str(rng.randint(0, 14)))
        if rng.random() < 0.5:
            q["slice"] = f"{rng.choice('xyz')}:{rng.randint(0, 15)}"
    if kind == "series":
        q.update(name="s", var="T")
        if rng.random() < 0.5:
            q["steps"] = rng.choice(["0", "0,1", "0:4", "3"])
    return f"/api/{kind}?" + urllib.parse.urlencode(q)


JUNK = ["", "-1", "1e308", "nan", "inf", "0x10", "9" * 40, "((((", "a" * 5000, "\u00e9\u4e2d", "%00", "1,2",
        "0,0,0:1,1", "x:1", "energy >", "&&", "1:0", "-0", " ", "null"]


def fuzz_path(rng: random.Random) -> str:
    kind = rng.choice(["info", "particles", "query", "range", "grid", "series", "nothing", "../../etc/passwd",
                       "", "viewer.js", "%2e%2e/%2e%2e/etc/passwd"])
    keys = ["group", "step", "box", "level", "from", "fields", "q", "field", "name", "resolution", "slice", "var",
            "steps", "token", rng.choice(JUNK)[:20]]
    q = [(rng.choice(keys), rng.choice(JUNK)) for _ in range(rng.randint(0, 6))]
    prefix = "/api/" if rng.random() < 0.8 else "/"
    return prefix + kind + "?" + urllib.parse.urlencode(q)


def client(port: int, n: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        path = valid_path(rng)
        status, body = request(port, path, {"Authorization": f"token {TOKEN}"})
        tally.add("valid", status, path, {200, 503} if "/api/info" not in path else {200})


def fuzzer(port: int, n: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        path = fuzz_path(rng)
        mode = rng.random()
        if mode < 0.6:
            headers, allowed = {"Authorization": f"token {TOKEN}"}, {200, 400, 403, 404, 413, 503}
        elif mode < 0.75:
            headers, allowed = {}, {403}
            path += "&token=" if "?" in path else "?token="
        elif mode < 0.9:
            headers, allowed = {"Authorization": "token wrong"}, {403}
        else:   # DNS rebinding: a foreign name in Host, with the right token
            headers, allowed = {"Authorization": f"token {TOKEN}", "Host": "evil.example:8000"}, {403}
        status, _ = request(port, path, headers)
        tally.add("fuzz", status, path, allowed)


def stalled(port: int, hold: float, tally: Tally) -> None:
    """Ask for a whole step and never read; and a connection that says nothing."""
    socks = []
    try:
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(f"GET /api/particles?group=p&step=0 HTTP/1.0\r\nAuthorization: token {TOKEN}\r\n\r\n".encode())
        socks.append(s)
        socks.append(socket.create_connection(("127.0.0.1", port)))
        time.sleep(hold)
    finally:
        for s in socks:
            s.close()
    with tally.lock:
        tally.status["stalled"] = tally.status.get("stalled", 0) + 1


def watch_info(port: int, seconds_file: str) -> None:
    """Run in its own process (the load's threads share this one's interpreter lock, which would
    be timed too): times /api/info every 0.2 s until the file `seconds_file` + ".stop" appears,
    then writes the latencies to `seconds_file`."""
    times, statuses = [], []
    while not os.path.exists(seconds_file + ".stop"):
        t0 = time.monotonic()
        status, _ = request(port, "/api/info", {"Authorization": f"token {TOKEN}"}, timeout=30)
        times.append(time.monotonic() - t0)
        statuses.append(status)
        time.sleep(0.2)
    with open(seconds_file, "w") as f:
        json.dump({"seconds": times, "statuses": statuses}, f)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--watch-info"]:
        watch_info(int(argv[1]), argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=280, help="valid requests per client")
    ap.add_argument("--fuzz", type=int, default=9300, help="fuzzed requests (over 10 threads)")
    ap.add_argument("--stalled", type=int, default=16, help="clients that ask for a step and never read")
    ap.add_argument("--particles", type=int, default=200_000, help="particles per step")
    ap.add_argument("--idle-timeout", type=float, default=5.0)
    args = ap.parse_args(argv)
    work = tempfile.mkdtemp(prefix="lodex-serve-load-")
    t_start = time.monotonic()
    try:
        path = os.path.join(work, "d.lodex")
        make_dataset(path, args.particles)
        port = free_port()
        lodex_cmd = os.path.join(os.path.dirname(sys.executable), "lodex")
        server = subprocess.Popen([lodex_cmd, "serve", path, "--port", str(port), "--token", TOKEN, "--quiet",
                                   "--idle-timeout", str(args.idle_timeout)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = server.stdout.readline()
        if f":{port}/" not in line:
            print(line, server.stderr.read(), file=sys.stderr)
            return 1
        start_kib = rss_hwm_kib(server.pid)
        tally = Tally()
        info_file = os.path.join(work, "info-latency.json")
        watcher = subprocess.Popen([sys.executable, __file__, "--watch-info", str(port), info_file])
        threads = [threading.Thread(target=client, args=(port, args.requests, 100 + i, tally))
                    for i in range(args.clients)]
        threads += [threading.Thread(target=fuzzer, args=(port, args.fuzz // 10, 900 + i, tally)) for i in range(10)]
        threads += [threading.Thread(target=stalled, args=(port, args.idle_timeout * 2, tally))
                    for _ in range(args.stalled)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        open(info_file + ".stop", "w").close()
        watcher.wait(timeout=120)
        with open(info_file) as f:
            info = json.load(f)
        peak_kib = rss_hwm_kib(server.pid)
        after, _ = request(port, "/api/info", {"Authorization": f"token {TOKEN}"})
        died = server.poll()   # None: still serving
        server.terminate()
        out, err = server.communicate(timeout=60)
        violations = list(tally.violations)
        # /api/info never waits for the dataset's lock: the issue saw 40.7 s behind one query.
        # The bound leaves room for a 2-core machine running 70 client threads at once.
        slow = [t for t in info["seconds"] if t > INFO_BOUND_S]
        if slow or any(st != 200 for st in info["statuses"]):
            violations.append(f"/api/info: {len(slow)} of {len(info['seconds'])} answers over {INFO_BOUND_S} s "
                              f"(worst {max(info['seconds']):.2f} s), statuses {sorted(set(info['statuses']))}")
        if died is not None:
            violations.append(f"the server ended during the load (exit status {died}): {err[-1500:]}")
        elif after != 200:
            violations.append(f"the server did not answer after the load ({after})")
        for marker in ("Traceback", "internal error"):
            if marker in err:
                violations.append(f"server output holds {marker!r}: {err[err.index(marker):][:300]}")
        limits = lodex.serve.Limits()
        budget_kib = limits.max_requests * limits.max_response_bytes // 1024
        if peak_kib - start_kib > budget_kib:
            violations.append(f"server memory grew {peak_kib - start_kib} KiB, over {budget_kib} KiB")
        summary = {
            "requests": tally.requests, "by_kind_and_status": dict(sorted(tally.status.items())),
            "server_peak_rss_mib": round(peak_kib / 1024, 1), "server_start_rss_mib": round(start_kib / 1024, 1),
            "info_requests": len(info["seconds"]), "info_median_s": round(float(np.median(info["seconds"])), 3),
            "info_worst_s": round(max(info["seconds"]), 3), "violations": violations,
            "seconds": round(time.monotonic() - t_start, 1),
            "args": vars(args),
        }
        print(json.dumps(summary, indent=1))
        return 1 if violations else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
