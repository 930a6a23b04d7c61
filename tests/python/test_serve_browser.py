"""The viewer of lodex serve in a real browser: Debian's Chromium (headless, software WebGL)
driven by Playwright. First paint, particles drawn against lodex's own reads for the same view,
refinement on zoom, step and field changes, the value filter, the grid slice, non-blank
screenshots."""

from __future__ import annotations

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
    g = ds.particles("gas", {"position": ("f8", 3), "energy": "f4", "velocity": ("f4", 3)},
                     domain=((0, 0, 0), (10, 10, 10)), partition_grid=(2, 2, 2))
    for s in (0, 1):
        pos = rng.normal(5, 1.5 + s, (N, 3)).clip(0, 9.999)
        g.write(s, {"position": pos, "energy": np.linalg.norm(pos - 5, axis=1).astype("f4"),
                    "velocity": rng.normal(size=(N, 3)).astype("f4")}, index=["energy"])
    gr = ds.grid("density", dims=(32, 32, 16), dtype="f4")
    z, y, x = np.mgrid[0:16, 0:32, 0:32]
    gr.write(0, ((0, 0, 0), (32, 32, 16)), (np.sin(x / 5.0) + np.cos(y / 7.0) + z / 16).astype("f4"))
    gr.write(1, ((0, 0, 0), (32, 32, 16)), (np.cos(x / 3.0) * y / 32 - z / 16).astype("f4"))
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
        errors = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(server.login_url)   # the token once, then the cookie for every fetch
        assert pg.url == server.url + "/"   # the token left the address bar
        pg.errors = errors
        yield pg
        browser.close()


def state(page) -> dict:
    return page.evaluate("() => JSON.parse(JSON.stringify({...window.lodexViewer, info: null}))")


def wait_idle(page, generation: int = 0) -> dict:
    page.wait_for_function(f"() => window.lodexViewer && window.lodexViewer.idle && "
                           f"window.lodexViewer.generation > {generation}", timeout=20000)
    s = state(page)
    assert s["error"] is None and not page.errors, (s["error"], page.errors)
    return s


def last_view(s: dict) -> tuple[int, tuple, list[str]]:
    """(step, box, fields) of the view's last request, exactly as the browser sent them."""
    q = {k: v[0] for k, v in parse_qs(urlsplit(s["requests"][-1]["url"]).query).items()}
    v = [float(t) for t in q["box"].split(",")]
    return int(q["step"]), (tuple(v[:3]), tuple(v[3:])), q["fields"].split(",")


def check_drawn(server, s: dict) -> int:
    """What the viewer drew is what lodex reads for the same box and level."""
    step, box, _ = last_view(s)
    g = lodex.open(server.dataset.path).particles("gas")
    want = len(g.read(step, box, ["energy"], level=s["level"])["energy"])
    mine = [r for r in s["requests"] if r["box"] == s["box"]]
    assert s["drawn"] == want == sum(r["count"] for r in mine[-(s["level"] + 1):])
    return want


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


def test_zoom_refines(server, page, tmp_path):
    s = wait_idle(page)
    page.fill("#budget", "4000")
    page.select_option("#field", "velocity[1]")   # restarts with the small budget
    before = wait_idle(page, s["generation"])
    assert before["level"] + 1 < before["levels"]
    check_drawn(server, before)
    assert all("velocity" in r["url"] for r in before["requests"][-(before["level"] + 1):])
    box = page.locator("#view").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(6):
        page.mouse.wheel(0, -300)
        page.wait_for_timeout(60)
    after = wait_idle(page, before["generation"])
    size = lambda b: np.prod(np.subtract(b[1], b[0]))   # noqa: E731
    assert size(after["box"]) < size(before["box"])
    assert after["level"] > before["level"], (before["level"], after["level"])
    check_drawn(server, after)
    not_blank(page, tmp_path, "zoomed")


def test_step_change(server, page):
    s = wait_idle(page)
    page.evaluate("() => { const e = document.getElementById('step'); e.value = '1'; "
                  "e.dispatchEvent(new Event('change')); }")
    after = wait_idle(page, s["generation"])
    assert last_view(after)[0] == 1
    check_drawn(server, after)


def test_value_filter(server, page):
    s = wait_idle(page)
    page.fill("#query", "energy > 2.5")
    page.click("#applyq")
    after = wait_idle(page, s["generation"])
    step, box, _ = last_view(after)
    q = lodex.open(server.dataset.path).particles("gas").query("energy > 2.5", step, box, after["level"])
    assert "/api/query" in after["requests"][-1]["url"]
    assert after["drawn"] == q.count > 0 and q.used_index
    assert "bitmap index" in page.inner_text("#qinfo")
    page.click("#clearq")
    wait_idle(page, after["generation"])


def test_grid_slice(server, page, tmp_path):
    page.wait_for_function("() => window.lodexViewer.slice && window.lodexViewer.slice.idle && "
                           "window.lodexViewer.slice.resolution >= 0", timeout=20000)
    sl = page.evaluate("() => window.lodexViewer.slice")
    g = lodex.open(server.dataset.path).grid("density")
    step = int(page.input_value("#step"))   # test_step_change left the slider on step 1
    assert step == 1 and all(f"step={step}&" in r["url"] for r in sl["requests"])   # the slice follows it
    assert sl["resolution"] == g.max_resolution
    assert sl["shape"] == list(g.read(step, ((0, 0, 8), (32, 32, 9))).shape)
    assert len(sl["requests"]) >= 2   # coarse resolutions first
    not_blank(page, tmp_path, "slice", "#slice")


def test_box_selection_narrows_requests(server, page):
    s = wait_idle(page)
    for i, v in enumerate((2, 3, 4, 6, 7, 8)):
        page.fill(f"#b{i}", str(v))
    page.click("#applybox")
    after = wait_idle(page, s["generation"])
    _, box, _ = last_view(after)
    sel = ((2, 3, 4), (6, 7, 8))
    assert all(sel[0][a] <= box[0][a] <= box[1][a] <= sel[1][a] for a in range(3)), box
    check_drawn(server, after)
    page.click("#resetbox")
    wait_idle(page, after["generation"])
