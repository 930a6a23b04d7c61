"""Pictures (lodex.plot, lodex render): the numbers behind each picture against numpy computed from
the data as written (and from lodex's reads where a sample is drawn), every command writes a real
PNG and SVG, and bad input is a typed error that leaves no file behind."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from matplotlib.colors import LogNorm

import lodex
import lodex.plot as lp
from lodex.cli import main as cli_main
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, Geos, vpic

N = 60_000
GRID_DIMS = (40, 24, 12)
GEOS_STEPS = [0, 1, 2, 4, 7]


def grid_field(name: str, step: int) -> np.ndarray:
    z, y, x = np.meshgrid(*(np.arange(d, dtype=np.float32) for d in GRID_DIMS[::-1]), indexing="ij")
    if name == "temperature":
        return (300 + 10 * np.sin(x / 5 + step) + y * 0.5 + z).astype(np.float32)
    return np.stack([x + step, y * 2, z * 3], axis=-1).astype(np.float32)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """One dataset: VPIC-like electrons (4 files, energy indexed), a 3-D grid with a scalar and a
    3-component field, a 2-D grid, and a GEOS-like series with gapped steps."""
    path = str(tmp_path_factory.mktemp("plot") / "run.lodex")
    parts = [vpic(r, 4, N // 4, seed=3)[0] for r in range(4)]
    electrons = {k: np.concatenate([p[k] for p in parts]) for k in VPIC_SCHEMA}
    geos = Geos(dims=(20, 10, 6), n2d=1, n3d=1, steps=8)
    with lodex.create(path) as ds:
        g = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition_grid=(2, 2, 1))
        g.write(0, electrons, index=["energy"])
        gr = ds.define_grid("flow", dims=GRID_DIMS, fields={"temperature": "f4", "u": ("f4", 3)})
        gr.write(0, ((0, 0, 0), GRID_DIMS), {n: grid_field(n, 0) for n in ("temperature", "u")})
        flat = ds.define_grid("surface", dims=(30, 20), dtype="f8")
        flat.write(0, ((0, 0), (30, 20)), np.arange(600, dtype="f8").reshape(20, 30) ** 0.5)
        s = ds.define_series("geos", dims=geos.dims, variables=geos.variables())
        for t in GEOS_STEPS:
            s.write(t, *geos.local(0, 1, t))
    return {"path": path, "electrons": electrons, "geos": geos}


def group(data):
    return lodex.open(data["path"]).particles["electrons"]


def hist2d(pos, h, v, d):
    return np.histogram2d(pos[:, h], pos[:, v], bins=(d.x, d.y))[0].T


# ---------------------------------------------------------------- particles


def test_full_projection_counts_equal_numpy_of_the_written_particles(data):
    fig = lp.particles(group(data), 0, axis="y", sample=None, pixels=100)
    d = fig.data
    assert isinstance(fig, lp.Picture) and d.kind == "projection"
    assert np.array_equal(d.x, np.linspace(0, 330, 101)) and np.array_equal(d.y, np.linspace(0, 132, 41))
    assert d.values.shape == (40, 100) and d.values.sum() == N
    assert np.array_equal(d.values, hist2d(data["electrons"]["position"], 0, 2, d))
    assert (d.xlabel, d.ylabel) == ("x", "z") and d.stats["particles"] == N


def test_level_projection_counts_equal_numpy_of_the_same_read(data):
    g = group(data)
    d = lp.particles(g, 0, axis="z", level=6, pixels=64).data
    sample = g.read(0, fields=["position"], level=6)["position"]
    assert 0 < len(sample) < N and d.values.sum() == len(sample) == d.stats["particles"]
    assert np.array_equal(d.values, hist2d(sample, 0, 1, d))
    assert "level 6" in d.title


def test_default_sample_is_about_the_asked_size(data):
    d = lp.particles(group(data), 0, sample=6000, pixels=32).data
    assert abs(d.stats["particles"] - 6000) <= 60 and d.values.sum() == d.stats["particles"]
    assert d.stats["fraction"] == pytest.approx(6000 / N)


def test_field_mean_per_pixel_equals_numpy(data):
    e = data["electrons"]
    d = lp.particles(group(data), 0, axis="z", field="energy", sample=None, pixels=48, log=True).data
    counts = hist2d(e["position"], 0, 1, d)
    sums = np.histogram2d(e["position"][:, 0], e["position"][:, 1], bins=(d.x, d.y),
                          weights=e["energy"].astype(np.float64))[0].T
    assert d.kind == "projection_mean" and d.log
    assert np.array_equal(np.isnan(d.values), counts == 0)
    np.testing.assert_allclose(d.values[counts > 0], (sums / np.where(counts > 0, counts, 1))[counts > 0], rtol=1e-12)
    # a component and a vector's magnitude
    ux = lp.particles(group(data), 0, field="position[2]", sample=None, pixels=8).data
    z = hist2d(e["position"], 0, 1, ux)
    zs = np.histogram2d(e["position"][:, 0], e["position"][:, 1], bins=(ux.x, ux.y),
                        weights=e["position"][:, 2].astype(np.float64))[0].T
    np.testing.assert_allclose(ux.values, zs / z, rtol=1e-12)
    mag = lp.particles(group(data), 0, field="position", sample=None, pixels=4).data
    w = np.linalg.norm(e["position"].astype(np.float64), axis=1)
    ws = np.histogram2d(e["position"][:, 0], e["position"][:, 1], bins=(mag.x, mag.y), weights=w)[0].T
    np.testing.assert_allclose(mag.values, ws / hist2d(e["position"], 0, 1, mag), rtol=1e-12)
    assert mag.label == "mean |position|"


def test_box_projection_equals_numpy_of_the_particles_inside(data):
    e = data["electrons"]["position"]
    box = ((50.0, 100.0, 60.0), (250.0, 200.0, 400.0))   # z beyond the domain: cut to it
    d = lp.particles(group(data), 0, axis="x", box=box, sample=None, pixels=50).data
    inside = np.all((e >= [50, 100, 60]) & (e < [250, 200, 132]), axis=1)
    assert d.x[0] == 100 and d.x[-1] == 200 and d.y[0] == 60 and d.y[-1] == 132
    assert d.values.sum() == inside.sum()
    assert np.array_equal(d.values, hist2d(e[inside], 1, 2, d))


def test_query_matches_over_projection_equal_numpy(data):
    e = data["electrons"]
    fig = lp.query(group(data), 0, "energy > 0.5 && z < 100", axis="z", sample=None, pixels=40)
    d = fig.data
    want = (e["energy"] > np.float32(0.5)) & (e["position"][:, 2] < np.float32(100))
    assert d.kind == "query_projection" and d.stats["matches"] == want.sum() > 0
    assert np.array_equal(d.values, hist2d(e["position"], 0, 1, d))
    assert np.array_equal(d.overlay, hist2d(e["position"][want], 0, 1, d))
    assert len(fig.axes) == 2   # the picture and one colour bar (the matches')
    dots = fig.axes[0].collections[0].get_offsets()   # few matches: one dot per pixel holding any
    assert len(dots) == (d.overlay > 0).sum()


def test_histogram_and_highlighted_matches_equal_numpy(data):
    e = data["electrons"]["energy"].astype(np.float64)
    d = lp.histogram(group(data), 0, "energy", "energy > 0.5", bins=30, log=True).data
    edges = np.histogram_bin_edges(e, bins=30)
    assert np.array_equal(d.x, edges)
    assert np.array_equal(d.values, np.histogram(e, edges)[0])
    assert np.array_equal(d.overlay, np.histogram(e[e > 0.5], edges)[0])
    assert d.overlay.sum() == d.stats["matches"] and d.xlabel == "energy"


def test_histogram_at_a_level_highlights_the_samples_matches(data):
    """At a level, the histogram is of the read's sample and the highlight of the query's matches
    at that level: exactly the sample's particles that pass (the one meaning of level)."""
    g = group(data)
    sample = g.read(0, level=4, fields=["energy"])["energy"].astype(np.float64)
    d = lp.histogram(g, 0, "energy", "energy > 0.5", bins=20, level=4).data
    edges = np.histogram_bin_edges(sample, bins=20)
    assert 0 < len(sample) < len(data["electrons"]["energy"])
    assert np.array_equal(d.values, np.histogram(sample, edges)[0])
    assert np.array_equal(d.overlay, np.histogram(sample[sample > 0.5], edges)[0])
    assert "(level 4)" in d.title


# ---------------------------------------------------------------- grids


def lattice(full: np.ndarray, bitmask: str, r: int) -> np.ndarray:
    """The samples of resolution r from the original: along each axis every 2^(occurrences of the
    axis in the bitmask after position r)-th sample."""
    return full[tuple(slice(None, None, 1 << bitmask[r + 1:].count(str(a))) for a in (2, 1, 0))]


def test_slice_equals_the_grid_read_and_numpy(data):
    g = lodex.open(data["path"]).grids["flow"]
    t = grid_field("temperature", 0)
    d = lp.grid_slice(g, 0, axis="y", index=9, field="temperature", units={"temperature": "K"}).data
    assert np.array_equal(d.values, t[:, 9, :]) and d.values.shape == (12, 40)
    assert np.array_equal(d.values, g.read(0, box=((0, 9, 0), (40, 10, 12)), field="temperature")[:, 0, :])
    assert d.label == "temperature [K]" and (d.xlabel, d.ylabel) == ("x", "z")
    r = g.max_resolution - 3
    coarse = lp.grid_slice(g, 0, axis="z", index=5, resolution=r, field="temperature").data
    sub = lattice(t, g.bitmask, r)
    zs = 1 << g.bitmask[r + 1:].count("2")
    assert np.array_equal(coarse.values, sub[5 // zs])
    assert np.array_equal(coarse.values, g.read(0, resolution=r, field="temperature")[5 // zs])
    assert coarse.x[1] - coarse.x[0] == 1 << g.bitmask[r + 1:].count("0")


def test_slice_of_a_vector_field_box_and_2d_grid(data):
    ds = lodex.open(data["path"])
    u = grid_field("u", 0)
    d = lp.grid_slice(ds.grids["flow"], 0, axis="x", index=7, box=((0, 4, 2), (40, 20, 10)), field="u[1]").data
    assert np.array_equal(d.values, u[2:10, 4:20, 7, 1])
    assert d.x[0] == 4 and d.x[-1] == 20 and d.y[0] == 2 and d.y[-1] == 10
    m = lp.grid_slice(ds.grids["flow"], 0, axis="z", index=3, field="u").data
    np.testing.assert_allclose(m.values, np.linalg.norm(u[3].astype(np.float64), axis=-1), rtol=1e-12)
    flat = lp.grid_slice(ds.grids["surface"], 0).data
    assert np.array_equal(flat.values, np.arange(600, dtype="f8").reshape(20, 30) ** 0.5)
    idx = lp.grid_slice(lodex.open_idx(ds.grids["flow"].idx_path), 0, axis="y", index=9, field="temperature").data
    assert np.array_equal(idx.values, grid_field("temperature", 0)[:, 9, :])


# ---------------------------------------------------------------- series


def test_timeline_equals_the_series_and_numpy(data):
    s = lodex.open(data["path"]).series["geos"]
    geos = data["geos"]
    d = lp.timeline(s, "T", (3, 4, 5)).data
    assert np.array_equal(d.x, GEOS_STEPS)
    want = np.array([geos.field("T", t)[5, 4, 3] for t in GEOS_STEPS])
    assert np.array_equal(d.values, want)
    assert np.array_equal(d.values, s.read("T", steps=GEOS_STEPS, box=((3, 4, 5), (4, 5, 6))).ravel())
    ps = lp.timeline(s, "PS", (2, 1), steps=[1, 4]).data
    assert np.array_equal(ps.values, [geos.field("PS", t)[1, 2] for t in (1, 4)])


def test_hovmoller_equals_numpy(data):
    s = lodex.open(data["path"]).series["geos"]
    geos = data["geos"]
    d = lp.hovmoller(s, "T", "x", (0, 6, 2)).data
    assert d.values.shape == (len(GEOS_STEPS), 20)
    assert np.array_equal(d.values, np.stack([geos.field("T", t)[2, 6, :] for t in GEOS_STEPS]))
    assert d.y[0] == -0.5 and d.y[-1] == 7.5 and d.ylabel == "step"
    dz = lp.hovmoller(s, "T", "z", (4, 3, 0), steps=[2, 7]).data
    assert np.array_equal(dz.values, np.stack([geos.field("T", t)[:, 3, 4] for t in (2, 7)]))


# ---------------------------------------------------------------- files and the command


def is_png(path) -> bool:
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 1000


def is_svg(path) -> bool:
    text = open(path, encoding="utf-8").read()
    return "<svg" in text and "</svg>" in text and len(text) > 1000


COMMANDS = {
    "projection": ["electrons", "--step", "0", "--pixels", "64"],
    "mean": ["electrons", "--step", "0", "--field", "energy", "--log", "--axis", "x", "--level", "4",
             "--units", "energy=MeV,position=de"],
    "query": ["electrons", "--step", "0", "--query", "energy > 0.5", "--box", "0,0,0:200,200,132"],
    "histogram": ["electrons", "--step", "0", "--histogram", "--field", "energy", "--query", "energy > 0.5", "--log"],
    "slice": ["flow", "--step", "0", "--field", "temperature", "--axis", "y", "--resolution", "8"],
    "timeline": ["geos", "T", "--point", "3,4,5"],
    "hovmoller": ["geos", "PS", "--axis", "y", "--steps", "1:5"],
}


@pytest.mark.parametrize("kind", list(COMMANDS))
def test_every_command_writes_png_and_svg(data, kind, tmp_path, capsys):
    for ext, check in ((".png", is_png), (".svg", is_svg)):
        out = tmp_path / f"{kind}{ext}"
        assert cli_main(["render", data["path"], *COMMANDS[kind], "--out", str(out)]) == 0
        assert check(out), out
        assert f"wrote {out}" in capsys.readouterr().out
    assert sorted(os.listdir(tmp_path)) == [f"{kind}.png", f"{kind}.svg"]   # no temporary file left


def test_render_json_reports_what_was_drawn(data, tmp_path, capsys):
    out = tmp_path / "q.png"
    assert cli_main(["render", data["path"], "electrons", "--step", "0", "--query", "energy > 0.5",
                     "--sample", "0", "--out", str(out), "--json"]) == 0
    e = data["electrons"]["energy"]
    res = json.loads(capsys.readouterr().out)
    assert res["kind"] == "query_projection" and res["overlay"] == int((e > np.float32(0.5)).sum())
    with open(out, "rb") as f:
        head = f.read(24)
    assert res["stats"]["particles"] == N and is_png(out)
    assert res["size"] == [int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")]
    assert res["size"][0] == 640


def test_log_scale_and_labels_with_units(data):
    fig = lp.particles(group(data), 0, axis="y", log=True, pixels=32, units={"position": "d_e"})
    assert isinstance(fig.axes[0].images[0].norm, LogNorm)
    assert fig.axes[0].get_xlabel() == "x [d_e]" and fig.axes[0].get_ylabel() == "z [d_e]"
    assert fig.axes[1].get_ylabel() == "particles per pixel"   # the colour bar
    assert "electrons, step 0" in fig.axes[0].get_title()


# ---------------------------------------------------------------- what the pictures say


def drawn(fig):
    """The figure drawn (tick labels are set when it is drawn)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig).draw()
    return fig


def colorbar_axes(fig):
    return [ax for ax in fig.axes if ax is not fig.axes[0]]


def tick_texts(ax):
    return [t.get_text() for t in ax.get_yticklabels() + ax.get_yticklabels(minor=True) if t.get_text()]


def legend_texts(fig):
    return [t.get_text() for leg in fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
            for t in leg.get_texts()]


def test_match_counts_are_plural_and_titles_name_the_axis(data):
    g = group(data)
    e = data["electrons"]["energy"]
    top = float(np.sort(e)[-1])
    one = lp.query(g, 0, f"energy >= {top!r}", axis="y", pixels=32)
    assert one.data.stats["matches"] == 1 and ": 1 match\n" in one.data.title
    many = lp.query(g, 0, "energy > 0.5", axis="x", pixels=32)
    n = int((e > np.float32(0.5)).sum())
    assert f": {n:,} matches\n" in many.data.title and "projected along x" in many.data.title
    h = lp.histogram(g, 0, "energy", "energy > 0.5", bins=8)
    assert f", {n:,} matches\n" in h.data.title
    for axis in "xyz":
        assert f"projected along {axis}" in lp.particles(g, 0, axis=axis, pixels=16).axes[0].get_title()
    assert "projected along z" in lp.particles(g, 0, field="energy", pixels=16).data.title


def test_query_picture_has_one_colour_bar_and_names_the_grey(data):
    fig = drawn(lp.query(group(data), 0, "energy > 0.5", axis="z", pixels=40))
    bars = colorbar_axes(fig)
    assert len(bars) == 1 and bars[0].get_ylabel() == "matches per pixel"
    assert legend_texts(fig) == ["particles (darker: more)", "no particles"]


def test_log_colour_bar_ticks_are_plain_numbers():
    """A log colour bar whose range is within one decade has plain ticks (1, 2, ...), at least
    two, none in matplotlib's 2x10^0 notation; a wide range keeps the decades."""
    from lodex.plot import PlotData, draw
    edges = np.arange(3, dtype=np.float64)
    for values, want in (([[1.0, 2.0], [3.0, 2.0]], ["1", "2"]), ([[1.3, 1.6], [1.4, 1.9]], ["1.3", "1.9"]),
                         ([[1.0, 1e5], [30.0, 2.0]], ["1", "10", "100", "1e+03", "1e+04", "1e+05"])):
        fig = drawn(draw(PlotData("projection", np.array(values), edges, edges, label="particles per pixel", log=True)))
        (bar,) = colorbar_axes(fig)
        got = tick_texts(bar)
        assert got == want, (values, got)
        assert not any("times" in t or "^" in t for t in got)


def test_empty_pixels_have_a_named_colour(data):
    """Pixels without particles (zero counts on the default log scale, or no particle for a
    field's mean) are drawn in a colour of their own that the legend names, not the axes' white."""
    from matplotlib.colors import to_rgba
    from lodex.plot._draw import NO_DATA
    g = group(data)
    for fig in (lp.particles(g, 0, axis="y", level=3, pixels=64),
                lp.particles(g, 0, field="energy", level=3, pixels=64)):
        drawn(fig)
        assert np.isnan(fig.data.values).any() or (fig.data.values == 0).any()
        image = fig.axes[0].images[0]
        bad = image.cmap.get_bad()
        assert tuple(bad) == to_rgba(NO_DATA) and tuple(bad[:3]) != (1.0, 1.0, 1.0)
        assert legend_texts(fig) == ["no particles"]
        assert fig.legends[0].legend_handles[0].get_facecolor() == to_rgba(NO_DATA)
    full = lp.particles(g, 0, axis="z", pixels=4)   # every pixel holds particles: no legend
    assert not legend_texts(drawn(full))


def test_particle_counts_default_to_a_log_scale(data, tmp_path, capsys):
    from matplotlib.colors import Normalize
    g = group(data)
    assert isinstance(lp.particles(g, 0, pixels=16).axes[0].images[0].norm, LogNorm)
    linear = lp.particles(g, 0, pixels=16, log=False).axes[0].images[0].norm
    assert type(linear) is Normalize
    assert type(lp.particles(g, 0, field="energy", pixels=16).axes[0].images[0].norm) is Normalize
    out = tmp_path / "p.png"
    assert cli_main(["render", data["path"], "electrons", "--step", "0", "--linear", "--out", str(out)]) == 0
    assert cli_main(["render", data["path"], "electrons", "--step", "0", "--linear", "--query", "energy > 0.5",
                     "--out", str(tmp_path / "q.png")]) == 2
    assert "--linear: not for" in capsys.readouterr().err


def test_grid_default_plane_is_the_middle_as_in_the_web_viewer(data):
    """n // 2 of n planes (plane 6 of 12, 12 of 24, 20 of 40), as the web viewer's slider starts."""
    g = lodex.open(data["path"]).grids["flow"]
    t = grid_field("temperature", 0)
    for axis, n in zip("xyz", GRID_DIMS):
        d = lp.grid_slice(g, 0, axis=axis, field="temperature").data
        assert f"{axis} = {n // 2}," in d.title, d.title
        assert np.array_equal(d.values, np.take(t, n // 2, axis=2 - "xyz".index(axis)))
    boxed = lp.grid_slice(g, 0, axis="z", box=((0, 0, 3), (40, 24, 8)), field="temperature").data
    assert "z = 5," in boxed.title   # 3 + 5 // 2


# ---------------------------------------------------------------- bad input


BAD = [
    (["missing.lodex", "electrons", "--step", "0"], "NotFoundError", "no lodex dataset"),
    (["DATA", "nope", "--step", "0"], "NotFoundError", "no particle group 'nope'"),
    (["DATA", "electrons", "--step", "3"], "NotFoundError", "step 3"),
    (["DATA", "electrons", "--step", "0", "--field", "nope"], "NotFoundError", "no field 'nope'"),
    (["DATA", "electrons", "--step", "0", "--box", "400,0,0:500,10,10"], "InvalidArgumentError",
     "outside the domain"),
    (["DATA", "electrons"], "InvalidArgumentError", "--step is needed"),
    (["DATA", "electrons", "--step", "0", "--query", "nope > 1"], "InvalidArgumentError", "unknown field 'nope'"),
    (["DATA", "electrons", "--step", "0", "--histogram"], "InvalidArgumentError", "--histogram needs --field"),
    (["DATA", "flow", "--step", "0", "--field", "nope"], "NotFoundError", "no field 'nope'"),
    (["DATA", "flow", "--step", "2"], "NotFoundError", "no step 2"),
    (["DATA", "flow", "--step", "0", "--box", "50,0,0:60,10,10"], "InvalidArgumentError", "outside the grid"),
    (["DATA", "flow", "--step", "0", "--index", "99"], "InvalidArgumentError", "index must be"),
    (["DATA", "flow", "--step", "0", "--level", "2"], "InvalidArgumentError", "--level: not for grid"),
    (["DATA", "geos", "T"], "InvalidArgumentError", "give --point"),
    (["DATA", "geos", "nope", "--point", "1,1"], "NotFoundError", "no variable 'nope'"),
    (["DATA", "geos", "T", "--point", "1,99,0"], "InvalidArgumentError", "outside"),
    (["DATA", "geos", "T", "--point", "1,1", "--steps", "3"], "NotFoundError", "no step 3"),
]


@pytest.mark.parametrize("args,error,words", BAD, ids=[" ".join(b[0][1:]) for b in BAD])
def test_bad_input_is_a_clear_error_and_writes_nothing(data, args, error, words, tmp_path, capsys):
    args = [data["path"] if a == "DATA" else a for a in args]
    out = tmp_path / "picture.png"
    assert cli_main(["render", *args, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lodex render: {error}:") and words in err and err.count("\n") == 1, err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("out,error,words", [
    ("picture.gif", "InvalidArgumentError", "extension must be one of .png, .svg, .pdf"),
    ("a-file/picture.png", "IOFailure", "no directory"),
    ("no-such-dir/picture.png", "IOFailure", "no directory"),
])
def test_bad_output_path_is_refused_before_reading(data, out, error, words, tmp_path, capsys):
    (tmp_path / "a-file").write_text("x")
    assert cli_main(["render", data["path"], "electrons", "--step", "0", "--out", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err
    assert f"{error}:" in err and words in err, err
    assert os.listdir(tmp_path) == ["a-file"]


def test_a_failing_write_leaves_no_partial_file(data, tmp_path, monkeypatch):
    fig = lp.timeline(lodex.open(data["path"]).series["geos"], "T")

    def broken(f, **kw):
        f.write(b"\x89PNG half a picture")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(fig, "savefig", broken)
    with pytest.raises(lodex.IOFailure, match="No space left on device"):
        lp.save(fig, tmp_path / "t.png")
    assert os.listdir(tmp_path) == []
    (tmp_path / "t.png").write_bytes(b"old")   # an existing picture is kept whole on failure
    with pytest.raises(lodex.IOFailure):
        lp.save(fig, tmp_path / "t.png")
    assert (tmp_path / "t.png").read_bytes() == b"old" and os.listdir(tmp_path) == ["t.png"]


def test_api_bad_arguments(data):
    g = group(data)
    s = lodex.open(data["path"]).series["geos"]
    with pytest.raises(lodex.InvalidArgumentError, match="axis must be"):
        lp.particles(g, 0, axis="w")
    with pytest.raises(lodex.InvalidArgumentError, match="either level or fraction"):
        lp.particles(g, 0, level=2, fraction=0.1)
    with pytest.raises(lodex.InvalidArgumentError, match="is empty"):
        lp.particles(g, 0, box=((5, 5, 5), (5, 6, 6)))
    with pytest.raises(lodex.InvalidArgumentError, match="3 component"):
        lp.particles(g, 0, field="position[3]")
    with pytest.raises(lodex.InvalidArgumentError, match="pixels"):
        lp.particles(g, 0, pixels=0)
    with pytest.raises(lodex.InvalidArgumentError, match="2-D: it has no z axis"):
        lp.hovmoller(s, "PS", "z")
    with pytest.raises(lodex.InvalidArgumentError, match="resolution must be"):
        lp.grid_slice(lodex.open(data["path"]).grids["flow"], 0, resolution=99)
    with pytest.raises(lodex.InvalidArgumentError, match="holds no sample of resolution 3"):
        lp.grid_slice(lodex.open(data["path"]).grids["flow"], 0, resolution=3, box=((1, 1, 0), (3, 3, 12)))
    with pytest.raises(lodex.InvalidArgumentError, match="units must map"):
        lp.timeline(s, "T", units=["K"])


@pytest.mark.parametrize("chunk", [777, 1 << 20])
def test_fast_binning_equals_numpy_histogram2d_on_the_edges(chunk, monkeypatch):
    """The projection's binning against numpy.histogram2d, with values on, just below and just
    above every edge (in f4 and f8), outside the range, NaN, and weights; in one chunk and in many."""
    from lodex.plot import _data
    from lodex.plot._data import histogram_2d
    monkeypatch.setattr(_data, "_CHUNK", chunk)
    rng = np.random.default_rng(7)
    eh, ev = np.linspace(0.1, 0.7, 301), np.linspace(-3.0, 5.0, 97)
    for dtype in (np.float32, np.float64):
        e = eh.astype(dtype)
        x = np.concatenate([e, np.nextafter(e, dtype(-1)), np.nextafter(e, dtype(1)),
                            rng.uniform(-0.2, 1, 5000).astype(dtype),
                            np.array([np.nan, np.inf, -np.inf], dtype)])
        y = np.concatenate([rng.uniform(-3.5, 5.5, len(x) - 3).astype(dtype), ev[[0, -1, 50]].astype(dtype)])
        w = rng.random(len(x))
        assert np.array_equal(histogram_2d(x, y, eh, ev), np.histogram2d(x, y, bins=(eh, ev))[0].T)
        np.testing.assert_allclose(histogram_2d(x, y, eh, ev, w), np.histogram2d(x, y, bins=(eh, ev), weights=w)[0].T,
                                   rtol=1e-12)
    # a small box far from the origin: float32 positions 1/16 apart, 512 bins over 3 units
    far = np.float32(1e6) + np.arange(-16, 64, dtype=np.float32) / np.float32(16)
    ef = np.linspace(1e6 + 0.01, 1e6 + 3.01, 513)
    assert np.array_equal(histogram_2d(far, far, ef, ef), np.histogram2d(far, far, bins=(ef, ef))[0].T)


def test_lodex_plot_is_reachable_from_lodex():
    assert lodex.plot is lp and lodex.plot.particles is lp.particles
    with pytest.raises(AttributeError, match="no attribute 'plots'"):
        lodex.plots   # noqa: B018
