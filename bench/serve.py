"""lodex serve benchmark (issue 23): what a level-of-detail viewer transfers against loading the
whole step. One step of --particles particles (position f8 x 3, energy f4; a Gaussian cloud in a
4x4x4 file grid) is served by `lodex serve` in this process; an HTTP client then makes the
viewer's requests:

  - first paint: level 0 of the whole domain (position and energy), then the stream of the next
    levels' new particles (from=L-1&level=L) until the viewer's budget (2,000,000 particles);
  - zoom: boxes around the centre of 1/2, 1/4 and 1/8 of the domain's side, each streamed the
    same way (level 0 of the box, then each refinement);
  - in the browser: Debian's chromium (headless, software WebGL, driven by Playwright) loads
    the viewer; time from navigation to the first frame drawn with particles on either of the
    viewer's canvases (its 2-D first paint, then WebGL's; --browser-repeats loads), and where it
    goes (resource timings and the viewer's marks); the floors: one-point WebGL and Canvas 2D
    pages loaded the same way;
  - in the browser, zoom: one wheel tick on a view at rest under a budget of a fifth of the
    particles (so the zoom has detail to add); time from the tick to the first particles of the
    narrower view drawn in a frame (the 120 ms debounce included), and what its stream fetched (only the
    particles the drawn ones lack) and kept; interleaved with the page loads;
  - filter counts: /api/count (the exact count from the energy bitmap index, and the level
    that fits the budget) for a few value filters over the whole domain;
  - the baseline: the whole step (every particle, the same fields) over the same endpoint, which
    is what a viewer without levels of detail must load before its first paint.

Medians of --repeats runs with min and max, page cache warm. Goals: first paint under 0.5 s and
under 2 % of the step's bytes (issue 23); in the browser, first paint <= 0.5 s after navigation,
a zoom step adds detail in <= 0.3 s, exact filter counts in <= 0.5 s (issue 38). Writes
bench/results/serve.json and serve.png.

    .venv/bin/python bench/serve.py                         # 10^7 particles
    .venv/bin/python bench/serve.py --particles 200000      # quick check
    .venv/bin/python bench/serve.py --compare OLD/python/lodex/serve/viewer  # and an earlier build
    .venv/bin/python bench/serve.py --compare OLD/python/lodex/serve/viewer \
        --compare-endpoints OLD/python/lodex/serve/endpoints.py              # its server answer too
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import tempfile
import threading
import time

import numpy as np

import lodex
from lodex.serve import Limits, decode, make_server

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = 2_000_000
FIELDS = "position,energy"


def write(path: str, n: int) -> None:
    rng = np.random.default_rng(0)
    ds = lodex.create(path)
    g = ds.define_particles("p", {"position": ("f8", 3), "energy": "f4"}, domain=((0, 0, 0), (1, 1, 1)),
                            partition_grid=(4, 4, 4))
    pos = rng.normal(0.5, 0.15, (n, 3)).clip(0, np.nextafter(1, 0))
    g.write(0, data={"position": pos, "energy": rng.gamma(2.0, 1.0, n).astype("f4")}, index=["energy"])
    ds.close()


def get(conn, url: str) -> tuple[float, int, dict]:
    t0 = time.perf_counter()
    conn.request("GET", url)
    r = conn.getresponse()
    body = r.read()
    dt = time.perf_counter() - t0
    assert r.status == 200, body[:300]
    head, _ = decode(body)
    return dt, len(body), head


def stream(conn, box: str | None) -> list[dict]:
    """The viewer's requests for one view: level 0, then each next level's new particles."""
    out, level, drawn = [], 0, 0
    base = f"/api/particles?group=p&step=0&fields={FIELDS}" + (f"&box={box}" if box else "")
    while True:
        url = base + f"&level={level}" + (f"&from={level - 1}" if level else "")
        dt, nbytes, head = get(conn, url)
        drawn += head["count"]
        out.append({"level": level, "seconds": dt, "bytes": nbytes, "particles": head["count"]})
        if level + 1 >= head["levels"] or drawn + 2 * head["count"] > BUDGET:
            return out
        level += 1


QUERIES = ("energy > 8", "energy > 4", "energy < 0.5")


def filter_counts(conn, repeats: int) -> dict:
    """Seconds of /api/count with the viewer's budget (the exact count, then the level that fits)."""
    from urllib.parse import quote
    out = {}
    for q in QUERIES:
        url = f"/api/count?group=p&step=0&q={quote(q)}&budget={BUDGET}"
        times, body = [], None
        for _ in range(repeats):
            t0 = time.perf_counter()
            conn.request("GET", url)
            r = conn.getresponse()
            body = json.loads(r.read())
            times.append(time.perf_counter() - t0)
            assert r.status == 200, body
        out[q] = {"seconds": stat(times), "count": body["count"], "used_index": body["used_index"],
                  "level": body["level"], "drawn": body["drawn"]}
    return out


def stat(xs: list[float]) -> dict:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs)}


def run(conn, repeats: int) -> dict:
    views = {"whole": None}
    for k in (2, 4, 8):
        lo, hi = 0.5 - 0.5 / k, 0.5 + 0.5 / k
        views[f"1/{k}"] = ",".join(str(v) for v in (lo, lo, lo, hi, hi, hi))
    runs = {name: [] for name in views}
    full = []
    for _ in range(repeats):
        for name, box in views.items():
            runs[name].append(stream(conn, box))
        full.append(get(conn, f"/api/particles?group=p&step=0&fields={FIELDS}"))
    out = {"full_step": {"seconds": stat([f[0] for f in full]), "bytes": full[0][1],
                         "particles": full[0][2]["count"]}, "views": {}}
    for name, rs in runs.items():
        levels = []
        for i, lv in enumerate(rs[0]):
            levels.append({"level": lv["level"], "bytes": lv["bytes"], "particles": lv["particles"],
                           "seconds": stat([r[i]["seconds"] for r in rs])})
        total = [sum(lv["seconds"] for lv in r) for r in rs]
        out["views"][name] = {"box": views[name], "levels": levels, "stream_seconds": stat(total),
                              "stream_bytes": sum(lv["bytes"] for lv in rs[0])}
    first = out["views"]["whole"]["levels"][0]
    out["first_paint"] = {"seconds": first["seconds"], "bytes": first["bytes"],
                          "share_of_step_bytes": first["bytes"] / out["full_step"]["bytes"]}
    out["goals"] = {"first_paint_under_0.5s": first["seconds"]["median"] < 0.5,
                    "first_paint_under_2pct_bytes": out["first_paint"]["share_of_step_bytes"] < 0.02}
    return out


ZOOM_TICK = """() => new Promise((done) => {
    const s = window.lodexViewer, gen = s.generation, log = s.frameLog;
    const c = document.getElementById('view'), r = c.getBoundingClientRect();
    // the first frame drawn once the zoomed view's first new particles were added (an answer
    // without particles does not count: its frame shows nothing new), seen as the viewer logs it
    // (not by polling: a poll can miss a frame drawn between two of its turns)
    const push = log.push;
    log.push = function (...a) {
        if (s.generation > gen && s.fetched > 0) { log.push = push; done(performance.now() - t0); }
        return push.apply(this, a);
    };
    const t0 = performance.now();
    window.lodexTick = t0;
    c.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: r.x + r.width / 2,
                                              clientY: r.y + r.height / 2, bubbles: true, cancelable: true}));
    setTimeout(() => { log.push = push; done(Infinity); }, 20000);
})"""


PROFILE = """() => {
    const res = performance.getEntriesByType('resource'), nav = performance.getEntriesByType('navigation')[0];
    const f = (s) => res.find((r) => r.name.includes(s)) || {};
    const n = (s) => res.filter((r) => r.name.includes(s)).length;
    return {info_requests: n('/api/info'), level0_requests: n('level=0'),
            html: nav.responseEnd, bundle: f('viewer.js').responseEnd, info_start: f('/api/info').startTime,
            info: f('/api/info').responseEnd, level0_start: f('/api/particles').startTime,
            level0: f('/api/particles').responseEnd, paint: window.lodexViewer.firstPaintMs,
            ...Object.fromEntries(Object.entries(window.lodexViewer.marks).map(([k, v]) => ['viewer_' + k, v]))};
}"""

ZOOM_STREAM = """() => {
    const s = window.lodexViewer, mine = s.requests.filter((r) => r.gen === s.generation && r.kind === 'particles');
    const full = mine.find((r) => r.count > 0) || {};
    return {request_after_tick_ms: mine[0].t0 - window.lodexTick, first_answer_ms: mine[0].ms,
            first_count: mine[0].count, new_particles_answer_after_tick_ms: full.t0 + full.ms - window.lodexTick,
            new_particles_added_after_tick_ms: full.paintedAt - window.lodexTick,
            requests: mine.length, bytes: mine.reduce((a, r) => a + r.bytes, 0), fetched: s.fetched,
            kept: s.kept, drawn: s.drawn, start_level: s.startLevel, level: s.level,
            compact_ms: s.compactMs, last_frame_ms: s.frameMs};
}"""


# The browser's floor for the first frame: a page that creates a WebGL 2 context, compiles a
# point shader and draws one point in an animation frame, marking the time after the draw call
# as the viewer marks its first frame (window.lodexViewer.marks.frame).
FLOOR_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head>
<body style="margin:0"><canvas id="c" style="width:100vw;height:100vh;display:block"></canvas><script>
const c = document.getElementById('c'); c.width = innerWidth; c.height = innerHeight;
const gl = c.getContext('webgl2');
const shader = (t, src) => { const s = gl.createShader(t); gl.shaderSource(s, src); gl.compileShader(s); return s; };
const p = gl.createProgram();
const vs = '#version 300 es\\nin vec3 a; void main() { gl_Position = vec4(a, 1.0); gl_PointSize = 4.0; }';
const fs = '#version 300 es\\nprecision mediump float; out vec4 o; void main() { o = vec4(1.0); }';
gl.attachShader(p, shader(gl.VERTEX_SHADER, vs));
gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fs));
gl.linkProgram(p); gl.useProgram(p);
gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 0]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
requestAnimationFrame(() => {
  gl.clearColor(0.07, 0.07, 0.07, 1); gl.clear(gl.COLOR_BUFFER_BIT); gl.drawArrays(gl.POINTS, 0, 1);
  window.floorFrame = performance.now();
});
</script></body></html>
"""

# The same for Canvas 2D (the viewer's first paint, before WebGL): one point drawn on a 2-D
# canvas in an animation frame.
FLOOR_2D_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>floor 2d</title></head>
<body style="margin:0"><canvas id="c" style="width:100vw;height:100vh;display:block"></canvas><script>
const c = document.getElementById('c'); c.width = innerWidth; c.height = innerHeight;
const ctx = c.getContext('2d', {alpha: false});
requestAnimationFrame(() => {
  ctx.fillStyle = '#000'; ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = '#fff'; ctx.fillRect(c.width / 2 - 1, c.height / 2 - 1, 2, 2);
  window.floorFrame = performance.now();
});
</script></body></html>
"""


def load_and_zoom(b, url: str, zoom_budget: int) -> tuple[float, dict, float, dict]:
    """One load of the viewer in a new tab: seconds to its first frame with particles, where that
    time went, the zoom step's seconds under ``zoom_budget`` and what its stream fetched."""
    page = b.new_page(viewport={"width": 1000, "height": 700})
    page.goto(url)
    page.wait_for_function("() => window.lodexViewer && window.lodexViewer.marks.frame", timeout=60000)
    first = page.evaluate("() => window.lodexViewer.marks.frame") / 1e3
    page.wait_for_function("() => window.lodexViewer.idle && window.lodexViewer.frames > 0", timeout=120000)
    phases = page.evaluate(PROFILE)
    gen = page.evaluate("() => window.lodexViewer.generation")
    page.fill("#budget", str(zoom_budget))
    page.locator("#budget").blur()
    page.wait_for_function(f"() => window.lodexViewer.idle && window.lodexViewer.generation > {gen}",
                           timeout=120000)
    zoom = page.evaluate(ZOOM_TICK) / 1e3
    page.wait_for_function("() => window.lodexViewer.idle", timeout=120000)
    stream = page.evaluate(ZOOM_STREAM)
    # A new tab each time, as a user opening the viewer: this one (points drawn in software) is
    # closed, not navigated away from while it still draws.
    page.close()
    return first, phases, zoom, stream


def floor_frame(b, url: str) -> float:
    """Seconds from navigation to a floor page's first frame, in a new tab."""
    page = b.new_page(viewport={"width": 1000, "height": 700})
    page.goto(url)
    page.wait_for_function("() => window.floorFrame !== undefined", timeout=60000)
    t = page.evaluate("() => window.floorFrame") / 1e3
    page.close()
    return t


def browser(urls: dict, repeats: int, zoom_budget: int, floor_url: str) -> tuple[dict, dict, dict]:
    """Per viewer of ``urls`` (name -> address): seconds from navigation to the first frame drawn
    with particles (window.lodexViewer.marks.frame), where that time goes (ms since navigation:
    the page, the bundle, /api/info, level 0's request and answer, the paint; medians), and from a
    wheel tick to the first particles of the zoomed view painted, with what each zoom's stream
    transferred. Interleaved: each repeat loads each viewer (in turn, the first alternating) in
    a new tab (the previous one closed), waits for its first paint, sets the budget to
    ``zoom_budget`` (below the particles, so a zoom has detail to add), waits for that stream to
    end and zooms one tick; then loads ``floor_url`` (FLOOR_PAGE) in a new tab: the browser's own
    navigation to a first WebGL frame; then its 2-D twin (FLOOR_2D_PAGE): to a first Canvas 2D
    frame. The first paint is the viewer's marks.frame: the first frame with particles drawn on
    either of its canvases (the 2-D first paint, then WebGL's); marks.webgl is WebGL's."""
    import shutil as sh

    from playwright.sync_api import sync_playwright
    runs = {name: [] for name in urls}
    floors, floors_2d = [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=sh.which("chromium"), headless=True,
                              args=["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-sandbox"])
        for rep in range(repeats):
            order = list(urls.items())
            for name, url in order[::-1] if rep % 2 else order:   # which goes first alternates
                runs[name].append(load_and_zoom(b, url, zoom_budget))
            floors.append(floor_frame(b, floor_url))
            floors_2d.append(floor_frame(b, floor_url.replace("floor.html", "floor2d.html")))
        b.close()
    out = {}
    for name, rs in runs.items():
        phases = [r[1] for r in rs]
        profile = {k: statistics.median(ph[k] for ph in phases if ph.get(k) is not None) for k in phases[0]}
        out[name] = {"first_paint": stat([r[0] for r in rs]), "profile": profile, "zoom": stat([r[2] for r in rs]),
                     "streams": [r[3] for r in rs], "first_paint_runs": [r[0] for r in rs], "profiles": phases,
                     "zoom_runs": [r[2] for r in rs]}
    return out, {**stat(floors), "runs": floors}, {**stat(floors_2d), "runs": floors_2d}


def chart(res: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for name, v in res["views"].items():
        lv = v["levels"]
        a.plot([x["level"] for x in lv], np.cumsum([x["bytes"] for x in lv]) / 2**20, "o-", label=f"view {name}")
        med = np.cumsum([x["seconds"]["median"] for x in lv]) * 1e3
        b.plot([x["level"] for x in lv], med, "o-", label=f"view {name}")
    a.axhline(res["full_step"]["bytes"] / 2**20, color="k", ls="--", label="whole step")
    b.axhline(res["full_step"]["seconds"]["median"] * 1e3, color="k", ls="--", label="whole step")
    b.axhline(500, color="r", ls=":", label="goal: first paint 0.5 s")
    a.set(xlabel="level streamed", ylabel="MiB transferred (cumulative)", yscale="log")
    b.set(xlabel="level streamed", ylabel="ms since the view's first request (median)", yscale="log")
    a.legend(fontsize=8)
    b.legend(fontsize=8)
    fig.suptitle(f"lodex serve: {res['config']['particles']:,} particles, budget {BUDGET:,}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def floor_server(directory: str):
    """A static server of FLOOR_PAGE (floor.html in ``directory``), in a thread."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass
    for name, text in (("floor.html", FLOOR_PAGE), ("floor2d.html", FLOOR_2D_PAGE)):
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
    srv = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=directory))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def answer_with(srv, path: str) -> None:
    """``srv`` answers /api/particles with the ``particles`` of the endpoints module at ``path``
    (loaded as a module of lodex.serve, so its relative imports are the installed package's),
    with that module's own caches."""
    import importlib.util
    import sys
    spec = importlib.util.spec_from_file_location("lodex.serve.endpoints_compared", os.path.abspath(path))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    refinements = mod.Refinements()
    samples = mod.BoxLevels() if hasattr(mod, "BoxLevels") else mod.SampleRows()   # before 2026-11-27 20:00
    srv.endpoints["/api/particles"] = lambda ds, p: mod.particles(ds, p, refinements, samples)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--particles", type=int, default=10_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--browser-repeats", type=int, default=5, help="0: skip the browser")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "serve.json"))
    ap.add_argument("--compare", help="also load this built viewer (a folder as python/lodex/serve/viewer, "
                                      "e.g. an earlier commit's) in the browser, interleaved with the installed one")
    ap.add_argument("--compare-endpoints", help="with --compare: the compared viewer's server answers "
                                                "/api/particles with this endpoints.py (an earlier commit's "
                                                "python/lodex/serve/endpoints.py): before/after covers the server")
    args = ap.parse_args()
    load_before = os.getloadavg()
    tmp = tempfile.mkdtemp(prefix="lodex-serve-bench-")
    try:
        path = os.path.join(tmp, "ds.lodex")
        write(path, args.particles)
        # the benchmark's own short-lived server: no token; a budget the whole step (the
        # comparison's 280 MB at 10^7 particles) fits in
        srv = make_server(path, "127.0.0.1", 0, quiet=True, token=False,
                          limits=Limits(max_response_bytes=2**31))
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=600)
        stream(conn, None)   # warm the page cache once
        res = run(conn, args.repeats)
        res["filter_counts"] = filter_counts(conn, args.repeats)
        worst = max(v["seconds"]["median"] for v in res["filter_counts"].values())
        res["goals"]["filter_count_under_0.5s"] = worst <= 0.5
        if args.browser_repeats:
            # The zoom's budget: below the particles (a zoom has detail to add) and not the default
            # budget (the same budget starts no stream: at 10^7 particles // 5 is the default).
            floor_srv = floor_server(tmp)
            urls = {"viewer": srv.url + "/"}
            if args.compare:   # the other build, served by a second server of the same dataset
                import lodex.serve.server
                installed, lodex.serve.server.VIEWER_DIR = lodex.serve.server.VIEWER_DIR, os.path.abspath(args.compare)
                other = make_server(path, "127.0.0.1", 0, quiet=True, token=False,
                                    limits=Limits(max_response_bytes=2**31))
                lodex.serve.server.VIEWER_DIR = installed
                if args.compare_endpoints:
                    answer_with(other, args.compare_endpoints)
                threading.Thread(target=other.serve_forever, daemon=True).start()
                urls["compare"] = other.url + "/"
            got, floor, floor_2d = browser(urls, args.browser_repeats, min(args.particles // 5, BUDGET // 2),
                                 f"http://127.0.0.1:{floor_srv.server_address[1]}/floor.html")
            floor_srv.shutdown()
            mine = got["viewer"]
            res["browser_first_paint_seconds"], res["browser_zoom_step_seconds"] = mine["first_paint"], mine["zoom"]
            res["browser_floor_first_frame_seconds"] = floor
            res["browser_floor_2d_first_frame_seconds"] = floor_2d
            res["browser_first_paint_profile_ms"], res["browser_zoom_streams"] = mine["profile"], mine["streams"]
            res["browser_first_paint_profiles_ms"] = mine["profiles"]
            res["browser_runs"] = {"first_paint": mine["first_paint_runs"], "zoom": mine["zoom_runs"]}
            res["goals"]["browser_first_paint_under_0.5s"] = mine["first_paint"]["median"] <= 0.5
            res["goals"]["browser_zoom_step_under_0.3s"] = mine["zoom"]["median"] <= 0.3
            if args.compare:
                res["browser_compare"] = {"viewer": args.compare, "endpoints": args.compare_endpoints,
                                          **got["compare"]}
                other.shutdown()
                other.server_close()
        srv.shutdown()
        srv.server_close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    res["config"] = {"particles": args.particles, "repeats": args.repeats, "budget": BUDGET,
                     "fields": FIELDS, "cpu_count": os.cpu_count(), "cache": "warm",
                     "loadavg_before": load_before, "loadavg_after": os.getloadavg()}
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    chart(res, os.path.splitext(args.out)[0] + ".png")
    fp = res["first_paint"]
    print(f"first paint: {fp['seconds']['median'] * 1e3:.2f} ms (min {fp['seconds']['min'] * 1e3:.2f}, "
          f"max {fp['seconds']['max'] * 1e3:.2f}), {fp['bytes']:,} bytes = "
          f"{fp['share_of_step_bytes'] * 100:.4f} % of the step's {res['full_step']['bytes']:,}")
    ms = lambda x: f"{x['median'] * 1e3:.1f} ms (min {x['min'] * 1e3:.1f}, max {x['max'] * 1e3:.1f})"  # noqa: E731
    for key, what in (("browser_first_paint_seconds",
                       "browser first paint (navigation to the first frame with particles)"),
                      ("browser_floor_first_frame_seconds",
                       "browser floor (navigation to a one-point WebGL page's first frame)"),
                      ("browser_floor_2d_first_frame_seconds",
                       "browser 2-D floor (navigation to a one-point Canvas 2D page's first frame)"),
                      ("browser_zoom_step_seconds", "browser zoom step (wheel tick to the zoomed view's first paint)")):
        if key in res:
            print(f"{what}: {ms(res[key])}")
    if "browser_compare" in res:
        c = res["browser_compare"]
        print(f"compared viewer {c['viewer']}, interleaved: first frame {ms(c['first_paint'])}, "
              f"zoom step {ms(c['zoom'])}")
        print("compared viewer's first paint profile:", c["profile"])
    if "browser_first_paint_profile_ms" in res:
        print("first paint profile (ms since navigation, medians):", res["browser_first_paint_profile_ms"])
        for z in res["browser_zoom_streams"]:
            print(f"zoom stream: {z}")
    print(f"load average before {res['config']['loadavg_before']}, after {res['config']['loadavg_after']}")
    for q, v in res["filter_counts"].items():
        print(f"filter count {q!r}: {v['count']:,} matches (index: {v['used_index']}), level {v['level']} "
              f"draws {v['drawn']:,}: {v['seconds']['median'] * 1e3:.1f} ms")
    print(f"whole step: {res['full_step']['seconds']['median']:.3f} s")
    for name, v in res["views"].items():
        print(f"view {name}: {len(v['levels'])} levels, {v['stream_bytes']:,} bytes, "
              f"{v['stream_seconds']['median'] * 1e3:.1f} ms to the budget or the last level")
    print(f"goals: {res['goals']}")


if __name__ == "__main__":
    main()
