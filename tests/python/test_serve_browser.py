"""The viewer of lodex serve in a real browser: Debian's Chromium (headless, software WebGL)
driven by Playwright. First paint, particles drawn against lodex's own reads for the same view,
refinement on zoom, step and field changes, the value filter, the grid slice, non-blank
screenshots."""

from __future__ import annotations

import base64
import io
import shutil
import threading
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

import lodex
from lodex.serve import make_server

from playwright import sync_api   # requirements-dev.txt; the browser is the system chromium
CHROMIUM = shutil.which("chromium")
N = 40000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    assert CHROMIUM, "scripts/setup-system.sh installs Debian's chromium"
    path = str(tmp_path_factory.mktemp("viewer") / "ds.lodex")
    rng = np.random.default_rng(3)
    ds = lodex.create(path)
    g = ds.define_particles("gas", {"position": ("f8", 3), "energy": "f4", "velocity": ("f4", 3)},
                     domain=((0, 0, 0), (10, 10, 10)), partition_grid=(2, 2, 2))
    for s in (0, 1):
        pos = rng.normal(5, 1.5 + s, (N, 3)).clip(0, 9.999)
        g.write(s, {"position": pos, "energy": np.linalg.norm(pos - 5, axis=1).astype("f4"),
                    "velocity": rng.normal(size=(N, 3)).astype("f4")}, index=["energy"])
    gr = ds.define_grid("density", dims=(32, 32, 16), dtype="f4")
    z, y, x = np.mgrid[0:16, 0:32, 0:32]
    gr.write(0, ((0, 0, 0), (32, 32, 16)), (np.sin(x / 5.0) + np.cos(y / 7.0) + z / 16).astype("f4"))
    gr.write(1, ((0, 0, 0), (32, 32, 16)), (np.cos(x / 3.0) * y / 32 - z / 16).astype("f4"))
    se = ds.define_series("weather", dims=(24, 12, 6), variables={"T": ("f4", 3), "PS": ("f4", 2)}, d_tar=2)
    z, y, x = np.mgrid[0:6, 0:12, 0:24]
    for t in range(3):
        se.write(t, ((0, 0, 0), (24, 12, 6)), {"T": (x + 3 * y + 100 * z + 1000 * t).astype("f4"),
                                                "PS": (x * y + t).astype("f4")[0]})
    ds.close()
    srv = make_server(path, "127.0.0.1", 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def page(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--use-angle=swiftshader", "--enable-unsafe-swiftshader",
                                          "--no-sandbox"])
        pg = browser.new_page(viewport={"width": 900, "height": 600})
        errors, statuses, responses = [], [], []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("response", lambda r: statuses.append((r.status, r.url)))
        pg.on("response", lambda r: responses.append(r))
        pg.goto(server.login_url)   # the token once, then the cookie for every fetch
        assert pg.url == server.url + "/"   # the token left the address bar
        pg.errors, pg.statuses, pg.responses = errors, statuses, responses
        yield pg
        browser.close()


def state(page) -> dict:
    return page.evaluate("() => JSON.parse(JSON.stringify("
                         "{...window.lodexViewer, info: null, screenOf: null, project: null}))")


def wait_idle(page, generation: int = 0) -> dict:
    page.wait_for_function(f"() => window.lodexViewer && window.lodexViewer.idle && "
                           f"window.lodexViewer.generation > {generation}", timeout=20000)
    s = state(page)
    assert s["error"] is None and not page.errors, (s["error"], page.errors)
    return s


def generation(s: dict, kinds=("particles", "count", "query")) -> list[dict]:
    """The requests of the view's last stream, in order."""
    return [r for r in s["requests"] if r["gen"] == s["generation"] and r["kind"] in kinds]


def last_view(s: dict) -> tuple[int, tuple, list[str]]:
    """(step, box, fields) of the view's last request, exactly as the browser sent them."""
    q = {k: v[0] for k, v in parse_qs(urlsplit(generation(s)[-1]["url"]).query).items()}
    v = [float(t) for t in q["box"].split(",")]
    return int(q["step"]), (tuple(v[:3]), tuple(v[3:])), q["fields"].split(",")


def sample(g, step: int, box, take: int) -> set:
    """The positions of the first ``take`` particles of the box's sample order (docs/reads.md):
    ``read`` at level 0 with P = take, levels 0..L being take = 32 * (2**(L+1) - 1)."""
    return set(map(tuple, g.read(step, box, ["position"], level=0, P=take)["position"]))


def inside(p, box) -> bool:
    return all(box[0][a] <= p[a] < box[1][a] for a in range(3))


def check_drawn(server, s: dict) -> set:
    """What a new view drew is what lodex reads for the same box and sample (levels 0..level,
    the last one cut to the budget); returns those positions."""
    step, box, _ = last_view(s)
    g = lodex.open(server.dataset.path).particles["gas"]
    want = sample(g, step, box, s["take"])
    mine = generation(s)
    assert all(r["box"] == s["box"] for r in mine)
    assert [r["level"] for r in mine] == list(range(s["startLevel"], s["level"] + 1))
    assert s["drawn"] == len(want) == sum(r["count"] for r in mine) and s["take"] == mine[-1]["take"]
    return want


def fetched(page, s: dict, gen: int | None = None) -> list[tuple]:
    """The positions in the bodies of the last stream's particle responses, as the browser got them;
    with ``gen``, those of that stream's responses it painted (a stream a newer one superseded
    paints the answers that came before it, not the later ones)."""
    from lodex.serve.endpoints import decode
    urls = [r["url"] for r in generation(s, ("particles",))] if gen is None else \
        [r["url"] for r in s["requests"] if r["gen"] == gen and r["kind"] == "particles" and r.get("painted")]
    got = [r for r in page.responses if any(r.url.endswith(u) for u in urls)]
    assert len(got) == len(urls)
    return [tuple(p) for r in got for p in decode(r.body())[1]["position"]]


def check_zoom(server, page, s: dict, before: set) -> set:
    """A zoomed view fetched exactly the particles of its sample that the samples it named as
    held (``have``) lack, none of the particles drawn before, and drew their union in its box;
    returns those positions."""
    step, box, _ = last_view(s)
    g = lodex.open(server.dataset.path).particles["gas"]
    first = {k: v[0] for k, v in parse_qs(urlsplit(generation(s)[0]["url"]).query).items()}
    held = set()
    for h in first["have"].split(";"):   # box, take and where the box reaches outside it, the clip
        v = [float(t) for t in h.split(",")]
        clip = (tuple(v[7:10]), tuple(v[10:13])) if len(v) == 13 else box
        held |= {p for p in sample(g, step, (tuple(v[:3]), tuple(v[3:6])), int(v[6])) if inside(p, box)
                 and inside(p, clip)}
    mine = sample(g, step, box, s["take"])
    got = fetched(page, s)
    assert len(got) == len(set(got)) == s["fetched"]   # no particle twice
    assert set(got) == mine - held                      # exactly what the held samples lack
    assert not set(got) & before                        # nothing drawn before fetched again
    assert held <= before and s["kept"] == len(held) and s["drawn"] == len(held | mine)
    assert all("have=" in r["url"] for r in generation(s))
    return held | mine


def not_blank(page, tmp_path, name: str, selector: str = "#view") -> None:
    shot = tmp_path / f"{name}.png"
    page.locator(selector).screenshot(path=str(shot))
    from matplotlib.image import imread
    img = imread(str(shot))[..., :3]
    colours = np.unique((img * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 8, f"{shot} looks blank ({len(colours)} colours)"


def test_first_paint_matches_the_api(server, page, tmp_path):
    s = wait_idle(page)
    assert s["paints"] >= 1 and s["drawn"] > 0
    assert [r["level"] for r in s["requests"]][:2] == [0, 1]   # coarse first
    check_drawn(server, s)
    not_blank(page, tmp_path, "first")
    # the camera frames the domain: its eight corners are in view, and the view box is the domain
    lo, hi = s["frame"]["domain"]
    for corner in [[(lo, hi)[k >> a & 1][a] for a in range(3)] for k in range(8)]:
        ndc = page.evaluate(f"() => window.lodexViewer.project({corner})")
        assert all(-1 <= v <= 1 for v in ndc), (corner, ndc)
    assert s["box"] == [lo, hi] and s["frame"]["selection"] is None
    # /api/info preloaded by the page and level 0 requested before the scene: each fetched once
    names = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")
    assert sum("/api/info" in n for n in names) == 1 and sum("level=0" in n for n in names) == 1, names
    # a frame is drawn only when something changed: none while the view rests
    frames = state(page)["frames"]
    page.wait_for_timeout(400)
    assert state(page)["frames"] == frames > 0


def test_zoom_refines(server, page, tmp_path):
    s = wait_idle(page)
    page.fill("#budget", "4000")
    page.locator("#budget").blur()   # its change restarts the view
    page.select_option("#field", "velocity[1]")   # and this again, with the small budget
    before = wait_idle(page, s["generation"])
    assert before["level"] + 1 < before["levels"]
    drawn = check_drawn(server, before)
    assert 0.98 * 4000 <= before["drawn"] <= 4000   # the budget filled: the last level cut to it
    assert all("velocity" in r["url"] for r in generation(before))
    box = page.locator("#view").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    size = lambda b: np.prod(np.subtract(b[1], b[0]))   # noqa: E731
    page.mouse.wheel(0, -100)   # one tick narrows the view at once (the box is not clamped)
    one = wait_idle(page, before["generation"])
    assert one["generation"] == before["generation"] + 1 and size(one["box"]) < 0.97 * size(before["box"])
    drawn = check_zoom(server, page, one, drawn)
    assert one["fetched"] > 0 and one["drawn"] > one["kept"] and one["drawn"] <= 4000
    # a burst of six ticks 30 ms apart: the first streams at once, in the wheel event's own task
    # (the leading edge: its request is made before the event returns), the other five are one
    # more stream once the wheel rests (the trailing edge): two streams, not six. The view must be
    # at rest first: no change for the viewer's DEBOUNCE_MS (120 ms) since the tick above, which a
    # fast machine reaches here sooner (the burst's first tick is then a trailing one)
    page.wait_for_timeout(200)
    lead = page.evaluate("""() => new Promise((done) => {
        const c = document.getElementById('view'), r = c.getBoundingClientRect(), s = window.lodexViewer;
        let k = 0, lead = null;
        const tick = () => {
            const gen = s.generation, reqs = s.requests.length;
            c.dispatchEvent(new WheelEvent('wheel', {deltaY: -300, clientX: r.x + r.width / 2,
                                                      clientY: r.y + r.height / 2, bubbles: true, cancelable: true}));
            if (lead === null) lead = {streams: s.generation - gen, requests: s.requests.length - reqs};
            if (++k < 6) setTimeout(tick, 30); else done(lead);
        };
        tick();
    })""")
    assert lead == {"streams": 1, "requests": 1}, lead
    after = wait_idle(page, one["generation"] + 1)
    assert after["generation"] == one["generation"] + 2, [(r["gen"], int(r["t0"])) for r in after["requests"]]
    drawn |= set(fetched(page, after, one["generation"] + 1))   # what the leading stream drew
    assert size(after["box"]) < size(one["box"])
    assert after["level"] > before["level"], (before["level"], after["level"])
    # the zoomed view kept what it had and went on from the level after the one that covers,
    # not from level 0, fetching only the particles that were not drawn
    reqs = generation(after)
    assert 0 < after["startLevel"] == reqs[0]["level"] and len(reqs) < after["level"] + 1
    drawn = check_zoom(server, page, after, drawn)
    assert 0 < after["fetched"] < after["drawn"] <= 4000
    not_blank(page, tmp_path, "zoomed")
    # zooming out: the drawn particles would crowd the middle of the larger box, so the view
    # starts afresh from level 0 (no have), fills the budget and is the Python read again
    page.mouse.wheel(0, 300)
    out = wait_idle(page, after["generation"])
    assert size(out["box"]) > size(after["box"]) and out["generation"] == after["generation"] + 1
    assert "have=" not in generation(out)[0]["url"] and generation(out)[0]["level"] == 0
    check_drawn(server, out)
    assert 0.98 * 4000 <= out["drawn"] <= 4000


def test_legend_shows_the_fields_range(server, page):
    s = wait_idle(page)
    g = lodex.open(server.dataset.path).particles["gas"]
    step = last_view(s)[0]
    for field, (name, comp) in (("energy", ("energy", 0)), ("velocity[1]", ("velocity", 1))):
        page.select_option("#field", field)
        s = wait_idle(page, s["generation"])
        a = g.read(step, fields=[name])[name].reshape(N, -1)[:, comp]   # every particle of the step
        assert (s["legend"]["min"], s["legend"]["max"]) == (float(a.min()), float(a.max()))
        assert s["range"] == [float(a.min()), float(a.max())]
        text = page.inner_text("#legend")
        assert text.startswith(field) and len(s["legend"]["ticks"]) >= 3
        assert text.count("–") >= 2   # round ticks between min and max
    bg = page.evaluate("() => getComputedStyle(document.getElementById('legend')).backgroundColor")
    alpha = float(bg.split(",")[3].strip(" )")) if bg.startswith("rgba") else 1.0
    assert alpha >= 0.8, bg   # readable over dense points


def test_picking_shows_the_particles_fields(server, page):
    s = wait_idle(page)
    view = page.locator("#view").bounding_box()
    g = lodex.open(server.dataset.path).particles["gas"]
    full = g.read(last_view(s)[0])
    inside = page.evaluate(f"""() => {{   // drawn particles whose pixel is inside the canvas
        const out = [];
        for (let i = 0; i < {s["drawn"]} && out.length < 400; i++) {{
            const [x, y] = window.lodexViewer.screenOf(i);
            if (x > 10 && y > 10 && x < {view["width"]} - 10 && y < {view["height"]} - 10) out.push(i);
        }}
        return out; }}""")
    for i in (inside[0], inside[-1]):
        x, y = page.evaluate(f"() => window.lodexViewer.screenOf({i})")
        page.mouse.click(view["x"] + x, view["y"] + y)
        page.wait_for_function("() => window.lodexViewer.pick", timeout=20000)
        pick = page.evaluate("() => window.lodexViewer.pick")
        assert pick["index"] >= 0 and pick["step"] == last_view(s)[0]
        px, py = page.evaluate(f"() => window.lodexViewer.screenOf({pick['index']})")
        assert np.hypot(px - x, py - y) <= 6   # the particle under the click
        row = np.flatnonzero((full["position"] == np.array(pick["position"])).all(axis=1))
        assert len(row) == 1
        for name, values in pick["fields"].items():
            want = full[name][row[0]].reshape(-1)
            assert [float(v) for v in values] == [float(v) for v in want], name
        assert "energy" in page.inner_text("#pick")
        page.evaluate("() => { window.lodexViewer.pick = null; }")


def test_step_change(server, page):
    s = wait_idle(page)
    page.evaluate("() => { const e = document.getElementById('step'); e.value = '1'; "
                  "e.dispatchEvent(new Event('change')); }")
    after = wait_idle(page, s["generation"])
    assert last_view(after)[0] == 1
    check_drawn(server, after)


def test_value_filter_shows_the_exact_count(server, page):
    s = wait_idle(page)
    page.click("#resetbox")   # the whole domain in view
    s = wait_idle(page, s["generation"])
    page.fill("#budget", "3000")
    page.dispatch_event("#budget", "change")
    s = wait_idle(page, s["generation"])
    page.fill("#query", "energy > 1.5")
    page.click("#applyq")
    after = wait_idle(page, s["generation"])
    step, box, _ = last_view(after)
    g = lodex.open(server.dataset.path).particles["gas"]
    total = g.query("energy > 1.5", step, box)
    drawn = g.query("energy > 1.5", step, box, after["level"])
    assert after["drawn"] == drawn.count < total.count and total.used_index   # a subset is drawn
    assert after["filterCount"] == total.count
    text = page.inner_text("#qinfo")
    assert text.startswith(f"{total.count:,} matches (bitmap index); {drawn.count:,} drawn at level "
                           f"{after['level']} "), text
    # the count came first, and no position was fetched to choose the level
    reqs = generation(after, ("particles", "count", "query", "pick"))
    assert [r["kind"] for r in reqs] == ["count", "query"], reqs
    assert g.query("energy > 1.5", step, box, after["level"] + 1).count > 3000   # the finest that fits
    page.click("#clearq")
    wait_idle(page, after["generation"])


def test_grid_slice(server, page, tmp_path):
    page.wait_for_function("() => window.lodexViewer.slice && window.lodexViewer.slice.idle && "
                           "window.lodexViewer.slice.resolution >= 0", timeout=20000)
    sl = page.evaluate("() => window.lodexViewer.slice")
    g = lodex.open(server.dataset.path).grids["density"]
    step = int(page.input_value("#step"))   # test_step_change left the slider on step 1
    assert step == 1 and all(f"step={step}&" in r["url"] for r in sl["requests"])   # the slice follows it
    assert sl["resolution"] == g.max_resolution
    assert sl["shape"] == list(g.read(step, ((0, 0, 8), (32, 32, 9))).shape)
    assert len(sl["requests"]) >= 2   # coarse resolutions first
    not_blank(page, tmp_path, "slice", "#slice")


VIRIDIS = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]], float)


def viridis(t: np.ndarray) -> np.ndarray:
    """The viewer's colour map (viridis' five key colours, linearly interpolated)."""
    x = np.clip(t, 0, 1) * 4
    i = np.minimum(3, np.floor(x)).astype(int)
    return VIRIDIS[i] + (x - i)[..., None] * (VIRIDIS[i + 1] - VIRIDIS[i])


def pixels(page, canvas: str) -> np.ndarray:
    """The canvas' pixels (height, width, rgb) as drawn."""
    data = page.evaluate(f"() => {{ const c = document.getElementById('{canvas}'); "
                         f"return [c.width, c.height, Array.from(c.getContext('2d').getImageData(0, 0, "
                         f"c.width, c.height).data)]; }}")
    w, h, flat = data
    return np.array(flat, float).reshape(h, w, 4)[..., :3]


def check_picture(img: np.ndarray, plane: np.ndarray, lo: float, hi: float) -> None:
    """img shows plane (rows y or z, row 0 the first) with its aspect and row 0 at the bottom:
    the centre pixel of each sample has the sample's colour."""
    h, w = plane.shape
    H, W = img.shape[:2]
    assert abs(W / H - w / h) < 0.02 * (w / h), (img.shape, plane.shape)
    rows = ((h - 1 - np.arange(h) + 0.5) * H / h).astype(int)   # row 0 at the bottom
    cols = ((np.arange(w) + 0.5) * W / w).astype(int)
    got = img[rows][:, cols]
    want = viridis((plane - lo) / (hi - lo))
    assert np.abs(got - want).max() <= 3, np.abs(got - want).max()


def test_grid_slice_orientation_and_aspect(server, page):
    g = lodex.open(server.dataset.path).grids["density"]
    for axis, index, cut in (("y", 5, lambda a: a[:, 5, :]), ("z", 3, lambda a: a[3])):
        gen = page.evaluate("() => window.lodexViewer.slice.generation")
        page.select_option("#axis", axis)
        page.evaluate(f"() => {{ const e = document.getElementById('sliceidx'); e.value = '{index}'; "
                      "e.dispatchEvent(new Event('change')); }")
        page.wait_for_function(f"() => window.lodexViewer.slice.idle && window.lodexViewer.slice.generation > {gen}"
                               " && window.lodexViewer.slice.resolution >= 0", timeout=20000)
        sl = page.evaluate("() => window.lodexViewer.slice")
        step = int(page.input_value("#step"))
        plane = cut(g.read(step)).astype("f8")   # (z, x) for a y slice, (y, x) for a z slice
        assert sl["plane"] == list(plane.shape) and sl["resolution"] == g.max_resolution
        assert sl["range"] == [float(plane.min()), float(plane.max())]
        check_picture(pixels(page, "slice"), plane, plane.min(), plane.max())
        assert "max" in page.inner_text("#slicelegend")


def test_series_view(server, page):
    page.wait_for_function("() => window.lodexViewer.series && window.lodexViewer.series.idle && "
                           "window.lodexViewer.series.shape", timeout=20000)
    se = lodex.open(server.dataset.path).series["weather"]
    page.evaluate("() => { const e = document.getElementById('sstep'); e.value = '2'; "
                  "e.dispatchEvent(new Event('change')); }")
    page.wait_for_function("() => window.lodexViewer.series.idle && window.lodexViewer.series.step === 2",
                           timeout=20000)
    st = page.evaluate("() => window.lodexViewer.series")
    assert st["var"] == "T" and st["z"] == 3   # the middle plane of 6
    plane = se.read("T", [2])[0, 3].astype("f8")   # (y, x)
    check_picture(pixels(page, "splot"), plane, plane.min(), plane.max())
    assert st["legend"]["min"] == plane.min() and st["legend"]["max"] == plane.max()
    # a click on the plot: that sample's time line over every flushed step
    plot = page.locator("#splot")
    plot.scroll_into_view_if_needed()
    box = plot.bounding_box()
    plot.click(position={"x": (7 + 0.5) * box["width"] / 24, "y": box["height"] - (4 + 0.5) * box["height"] / 12})
    page.wait_for_function("() => window.lodexViewer.series.timeline", timeout=20000)
    tl = page.evaluate("() => window.lodexViewer.series.timeline")
    assert (tl["x"], tl["y"], tl["z"]) == (7, 4, 3) and tl["steps"] == se.steps
    assert tl["values"] == se.read("T", se.steps, ((7, 4, 3), (8, 5, 4)))[:, 0, 0, 0].astype("f8").tolist()
    page.select_option("#svar", "PS")
    page.wait_for_function("() => window.lodexViewer.series.idle && window.lodexViewer.series.var === 'PS'",
                           timeout=20000)
    plane = se.read("PS", [2])[0].astype("f8")
    check_picture(pixels(page, "splot"), plane, plane.min(), plane.max())


def test_no_missing_files(page):
    wait_idle(page)
    assert not [u for st, u in page.statuses if st >= 400], page.statuses   # the favicon too
    icon = page.evaluate("() => document.querySelector('link[rel=icon]').href")
    assert icon.endswith("/favicon.svg") and any(u == icon and st == 200 for st, u in page.statuses)


def test_box_inputs_fit_on_one_line(page):
    tops = page.evaluate("() => [0, 1, 2, 3, 4, 5].map("
                         "(i) => document.getElementById('b' + i).getBoundingClientRect().top)")
    assert tops[0] == tops[1] == tops[2] and tops[3] == tops[4] == tops[5] and tops[3] > tops[0]
    fits = page.evaluate("() => { const e = document.getElementById('budget'); e.value = '2000000'; "
                         "return e.scrollWidth <= e.clientWidth; }")
    assert fits


def test_box_selection_narrows_requests(server, page):
    s = wait_idle(page)
    for i, v in enumerate((2, 3, 4, 6, 7, 8)):
        page.fill(f"#b{i}", str(v))
    page.click("#applybox")
    after = wait_idle(page, s["generation"])
    _, box, _ = last_view(after)
    sel = ((2, 3, 4), (6, 7, 8))
    assert after["frame"]["selection"] == [list(sel[0]), list(sel[1])]   # drawn in the scene
    assert all(sel[0][a] <= box[0][a] <= box[1][a] <= sel[1][a] for a in range(3)), box
    check_drawn(server, after)
    page.click("#resetbox")
    wait_idle(page, after["generation"])


def test_first_frame_draws_the_particles_alone(server, page):
    """The first frame with particles compiles only the points' shaders (compiled while the data
    was on its way) and draws every particle added; the outline, axes and selection come in the
    next frame, with their own shaders."""
    pg = page.context.browser.new_page(viewport={"width": 900, "height": 600})   # a fresh load
    try:
        pg.goto(server.login_url)
        pg.wait_for_function("() => window.lodexViewer && window.lodexViewer.idle && "
                             "window.lodexViewer.frameLog.some((f) => f.decor)", timeout=20000)
        log = pg.evaluate("() => window.lodexViewer.frameLog")
        first = next(f for f in log if f["paints"] > 0)
        assert first["drawn"] == first["count"] > 0 and not first["decor"] and first["programs"] == 1, first
        assert next(f for f in log if f["decor"])["programs"] >= 2   # the lines' shaders, a frame later
    finally:
        pg.close()


def particle_pixels(img) -> np.ndarray:
    """(row, col) of the pixels of ``img`` (RGB 0..255) in a colour of the viewer's colour map as
    shown (viridis' key colours, linearly interpolated, through the sRGB transfer): particles, not
    the outline, the axes or the background."""
    stops = np.array([[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]]) / 255
    t = np.linspace(0, 1, 1024)[:, None] * 4
    i = np.minimum(t.astype(int), 3)
    lin = stops[i[:, 0]] + (t - i) * (stops[i[:, 0] + 1] - stops[i[:, 0]])
    cmap = 255 * np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)
    px = img.reshape(-1, 3).astype(float)
    lit = np.flatnonzero(px.max(axis=1) > 30)
    d = np.min(np.linalg.norm(px[lit, None, :] - cmap[None, ::8, :], axis=2), axis=1)
    keep = lit[d < 12]
    return np.stack(np.unravel_index(keep, img.shape[:2]), axis=1)


def test_first_paint_on_a_2d_canvas_is_the_webgl_picture(server, page):
    """The first paint does not wait for WebGL: level 0 is drawn on a 2-D canvas before the WebGL
    context exists, and WebGL's first frame with particles replaces it. With the later levels held
    back (WebGL then draws level 0 alone), both pictures have the same particles at the same
    pixels in the same colours: every lit pixel of one within 2 pixels of a lit pixel of the
    other."""
    from matplotlib.image import imread
    pg = page.context.browser.new_page(viewport={"width": 900, "height": 600})
    pg.route(lambda u: "/api/particles" in u and "level=0&" not in u, lambda route: None)   # held
    try:
        pg.goto(server.login_url)
        pg.wait_for_function("() => window.lodexViewer && window.lodexViewer.frameLog.some((f) => f.decor)",
                             timeout=20000)
        s = state(pg)
        m, quick = s["marks"], s["quick"]
        assert quick["count"] == quick["drawn"] == s["drawn"] == 32, (quick, s["drawn"])   # level 0, all in view
        # the 2-D picture came first and counted as the first paint; WebGL's frame replaced it
        assert m["level0"] < m["quick"] == m["frame"] < m["quickShown"] < m["scene"] < m["webgl"], m
        assert quick["range"] == s["range"]
        assert pg.evaluate("() => getComputedStyle(document.getElementById('quick')).display") == "none"
        png = pg.evaluate("() => document.getElementById('quick').toDataURL('image/png')")
        two = (imread(io.BytesIO(base64.b64decode(png.split(",")[1])))[..., :3] * 255).round()
        pg.evaluate("() => { document.getElementById('axeskey').style.display = 'none'; "
                    "document.getElementById('legend').style.display = 'none'; "
                    "document.getElementById('progress').style.display = 'none'; }")
        gl = (imread(io.BytesIO(pg.locator("#view").screenshot()))[..., :3] * 255).round()
        assert two.shape == gl.shape
        a, b = particle_pixels(two), particle_pixels(gl)
        assert len(a) >= 3 * 32 and len(b) >= 3 * 32, (len(a), len(b))   # not blank: about 4 pixels a point
        for p, q in ((a, b), (b, a)):   # each lit pixel has one of the other picture near it
            d = np.abs(p[:, None, :] - q[None, :, :]).max(axis=2).min(axis=1)
            assert np.mean(d <= 1) > 0.9 and d.max() <= 2, np.bincount(d.astype(int))
        # and in the same colour (those at the same pixel)
        both = [tuple(x) for x in a if (b == x).all(axis=1).any()]
        assert len(both) > 0.5 * len(a)
        diff = [np.abs(two[r, c] - gl[r, c]).max() for r, c in both]
        assert max(diff) <= 6, max(diff)
    finally:
        pg.close()


def test_first_paint_without_first_js(server, page):
    """When first.js does not run first (here it never arrives) the viewer makes the same 2-D
    first paint itself, then WebGL's, and takes level 0 once."""
    pg = page.context.browser.new_page(viewport={"width": 900, "height": 600})
    pg.route(lambda u: u.endswith("/first.js"), lambda route: route.abort())
    try:
        pg.goto(server.login_url)
        pg.wait_for_function("() => window.lodexViewer && window.lodexViewer.idle && "
                             "window.lodexViewer.marks.webgl", timeout=20000)
        s = state(pg)
        m = s["marks"]
        assert s["error"] is None and s["quick"]["drawn"] == s["quick"]["count"] > 0, s["quick"]
        assert "first" in m and m["script"] <= m["first"] < m["quick"] == m["frame"] < m["scene"] < m["webgl"], m
        assert sum("level=0&" in r["url"] for r in s["requests"]) == 1
        assert pg.evaluate("() => performance.getEntriesByType('resource')"
                           ".filter((r) => r.name.includes('level=0&')).length") == 1
    finally:
        pg.close()


def test_frames_under_a_point_budget_show_a_zoom_s_detail(server, page):
    """Under a point budget per frame (here 3,000 of 20,000 drawn) no frame draws more: a wheel
    tick's frame starts a new picture with the first particles held (a coarser sample), the next
    frames draw the rest over it, the zoom's new particles are drawn over the picture in the first
    frame after they arrive, and the picture since the last clear holds every particle once;
    what is held is exactly what a zoom without the budget holds."""
    s = wait_idle(page)
    page.click("#resetbox")
    s = wait_idle(page, s["generation"])
    page.fill("#budget", "20000")
    page.locator("#budget").blur()
    before = wait_idle(page, s["generation"])
    drawn = check_drawn(server, before)
    whole = "() => { const s = window.lodexViewer, l = s.frameLog; return l.length && l.at(-1).whole; }"
    page.wait_for_function(whole, timeout=20000)
    page.evaluate("() => { window.lodexViewer.frameBudget = 3000; window.lodexViewer.frameLog.length = 0; }")
    try:
        box = page.locator("#view").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -100)
        one = wait_idle(page, before["generation"])
        page.wait_for_function(whole, timeout=20000)
        log = state(page)["frameLog"]
    finally:
        page.evaluate("() => { window.lodexViewer.frameBudget = null; }")
    check_zoom(server, page, one, drawn)   # nothing lost: the held and new particles as before
    assert all(f["drawn"] <= 3000 for f in log) and len(log) >= 20000 // 3000, log
    tick = log[0]   # the wheel tick's frame: a new picture, the coarse prefix
    assert tick["clear"] and tick["groups"] == [[0, 3000]] and tick["count"] == before["drawn"]
    # the first frame after the zoom's first particles were added draws them: over the picture
    # (appended after the held ones) or, when the held ones outside the new box went first, in the
    # new picture with the coarse prefix (the zoom's particles are then the last ones)
    counts = [r["count"] for r in generation(one)]
    j = next(i for i, c in enumerate(counts) if c > 0)
    new = next(f for f in log if f["paints"] >= before["paints"] + j + 1)
    on_top = [before["drawn"], min(counts[j], 3000)]
    at_end = [new["count"] - one["fetched"], min(one["fetched"], 1500)]
    assert on_top in new["groups"] if new["count"] > before["drawn"] else at_end in new["groups"], (new, counts)
    last = max(i for i, f in enumerate(log) if f["clear"])   # the last picture: every particle once
    spans = sorted(r for f in log[last:] for r in f["groups"])
    assert spans[0][0] == 0 and all(a[0] + a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert spans[-1][0] + spans[-1][1] == log[-1]["count"] == one["drawn"] > 3000 and log[-1]["whole"]


def test_progressive_picture_is_one_whole_frame(server, page):
    """The picture drawn in parts under a point budget (3,000 points a frame, each next part drawn
    over the last) is, pixel for pixel, the picture of one frame of every particle."""
    s = wait_idle(page)
    if s["drawn"] <= 3000:
        page.fill("#budget", "20000")
        page.locator("#budget").blur()
        s = wait_idle(page, s["generation"])
    whole = "() => { const l = window.lodexViewer.frameLog; return l.length && l.at(-1).whole; }"
    page.wait_for_function(whole, timeout=20000)

    def picture(budget: int) -> tuple[list, np.ndarray]:
        page.evaluate(f"() => {{ window.lodexViewer.frameBudget = {budget}; window.lodexViewer.frameLog.length = 0; "
                      "window.dispatchEvent(new Event('resize')); }")   # a new picture, the camera as it is
        page.wait_for_function(whole, timeout=20000)
        import io

        from matplotlib.image import imread
        return state(page)["frameLog"], imread(io.BytesIO(page.locator("#view").screenshot()))

    try:
        parts, a = picture(3000)
        one, b = picture(10**9)
    finally:
        page.evaluate("() => { window.lodexViewer.frameBudget = null; }")
    assert len(parts) >= s["drawn"] // 3000 and parts[0]["clear"] and not any(f["clear"] for f in parts[1:])
    assert sum(f["drawn"] for f in parts) == s["drawn"] and max(f["drawn"] for f in parts) <= 3000
    assert len(one) == 1 and one[0]["drawn"] == one[0]["count"] == s["drawn"]
    assert a.shape == b.shape and (a == b).all(), np.argwhere((a != b).any(axis=-1))[:10]


# Counts the bytes each WebGL buffer upload sends (bufferData, bufferSubData), tagged with the
# viewer's frame count when it was made: an upload tagged k is part of frame k + 1 (three.js
# uploads inside render, and the frame is counted after it).
UPLOADS = """(() => {
    window.lodexUploads = [];
    const bytes = (src, offset, length) => typeof src === "number" ? 0 : !ArrayBuffer.isView(src) ? src.byteLength
        : src.BYTES_PER_ELEMENT ? (length || src.length - (offset || 0)) * src.BYTES_PER_ELEMENT : src.byteLength;
    for (const C of [WebGL2RenderingContext, WebGLRenderingContext]) {
        const data = C.prototype.bufferData, sub = C.prototype.bufferSubData;
        const tag = () => (window.lodexViewer ? window.lodexViewer.frames : -1);
        C.prototype.bufferData = function (t, src, usage, offset, length) {
            window.lodexUploads.push({frame: tag(), bytes: bytes(src, offset, length)});
            return data.apply(this, arguments);
        };
        C.prototype.bufferSubData = function (t, dst, src, offset, length) {
            window.lodexUploads.push({frame: tag(), bytes: bytes(src, offset, length)});
            return sub.apply(this, arguments);
        };
    }
})()"""


def uploads_page(page):
    """A new tab that logs the GPU buffer uploads (UPLOADS) and the page's errors."""
    pg = page.context.browser.new_page(viewport={"width": 900, "height": 600})
    pg.add_init_script(UPLOADS)
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return pg


def settle_whole(pg, url: str, budget: int) -> int:
    """Loads the viewer under ``budget``, waits for its stream and a whole frame; the drawn count."""
    pg.goto(url)
    s = wait_idle(pg)
    pg.fill("#budget", str(budget))
    pg.locator("#budget").blur()
    drawn = wait_idle(pg, s["generation"])["drawn"]
    pg.wait_for_function("() => { const l = window.lodexViewer.frameLog; return l.length && l.at(-1).whole; }",
                         timeout=20000)
    return drawn


def test_zoom_frame_uploads_only_the_new_particles(server, page):
    """A zoom that fills the budget (a million held on a large dataset) shows its new particles in
    the first frame after they arrive, and the frames up to it upload only their bytes (position
    and colour, 24 bytes a particle): not the whole held set again (the particles outside the new
    box go after that frame), nor the buffer's unused tail (an empty answer adds no update
    range). No request of the zoom's stream comes back empty (an answer without particles is a
    round trip the new particles wait for)."""
    pg = uploads_page(page)
    try:
        assert 0.98 * 4000 <= settle_whole(pg, server.login_url, 4000) <= 4000
        before = state(pg)
        box = pg.locator("#view").bounding_box()
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        pg.mouse.wheel(0, -100)
        one = wait_idle(pg, before["generation"])
        reqs = generation(one)
        assert one["fetched"] > 0 and all(r["count"] > 0 for r in reqs), [(r["take"], r["count"]) for r in reqs]
        log = [f for f in one["frameLog"] if f["frame"] > before["frames"]]
        new = next(f for f in log if f["paints"] > before["paints"])   # the first frame after an answer
        answers = reqs[:new["paints"] - before["paints"]]
        added = sum(r["count"] for r in answers)
        assert new["count"] == before["drawn"] + added   # nothing dropped before it: no whole upload
        # drawn in it: over the picture, or in the wheel tick's new picture when they came first
        assert added and any(a <= before["drawn"] and before["drawn"] + added <= a + n for a, n in new["groups"]), new
        ups = pg.evaluate("() => window.lodexUploads")
        sent = sum(u["bytes"] for u in ups if before["frames"] <= u["frame"] < new["frame"])
        assert sent == 24 * added, (sent, added)
    finally:
        pg.close()


def test_an_empty_answer_uploads_nothing(server, page):
    """An answer without particles adds nothing to the GPU buffers: the frames drawn while the
    next answer is on its way upload no byte (an update range of length 0 would upload the
    buffer's whole unused tail: WebGL 2's bufferSubData reads to the end of the array). The
    zoom's first answer is made empty here (the server's answer with its rows cut to none, its
    `take` the whole take asked, so the stream goes on), and the next one is held back 0.5 s while the picture is
    drawn in parts of 500 points."""
    import time

    from lodex.serve.endpoints import Frame, decode
    pg = uploads_page(page)
    answers = []

    def zoom(route):
        answers.append(route.request.url)
        if len(answers) > 1:
            time.sleep(0.5)   # the frames go on in the browser meanwhile
            return route.continue_()
        head, arrays = decode(route.fetch().body())
        take = int(parse_qs(urlsplit(route.request.url).query)["take"][0])   # the whole take: go on
        meta = {k: v for k, v in head.items() if k != "arrays"} | {"count": 0, "take": take}
        route.fulfill(status=200, content_type="application/octet-stream",
                      body=Frame(meta, [(k, a[:0]) for k, a in arrays.items()]).encode())

    try:
        settle_whole(pg, server.login_url, 4000)
        pg.evaluate("() => { window.lodexViewer.frameBudget = 500; }")
        before = state(pg)
        pg.route(lambda u: "/api/particles" in u and "have=" in u, zoom)
        box = pg.locator("#view").bounding_box()
        pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        pg.mouse.wheel(0, -100)
        one = wait_idle(pg, before["generation"])
        reqs = generation(one)
        assert len(reqs) >= 2 and reqs[0]["count"] == 0 < reqs[1]["count"], [(r["take"], r["count"]) for r in reqs]
        log = [f for f in one["frameLog"] if f["frame"] > before["frames"]]
        gap = [f for f in log if f["paints"] == before["paints"] + 1]   # after the empty answer, before the next
        assert gap, log   # frames were drawn meanwhile (parts of the picture)
        ups = pg.evaluate("() => window.lodexUploads")
        sent = sum(u["bytes"] for u in ups if gap[0]["frame"] - 1 <= u["frame"] < gap[-1]["frame"])
        assert sent == 0, (sent, len(gap))
    finally:
        pg.evaluate("() => { window.lodexViewer.frameBudget = null; }")
        pg.close()
