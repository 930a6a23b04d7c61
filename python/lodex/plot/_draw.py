"""Drawing a :class:`PlotData` on a matplotlib Figure (the object-oriented API: no pyplot, no
global state), and saving it to exactly one file."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
from matplotlib.colors import LinearSegmentedColormap, LogNorm, Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

from .._files import replace_whole
from ..errors import InvalidArgumentError, IOFailure
from ._data import PlotData

FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
# The particles under a query's matches: white to mid grey, so that the matches stand out.
_LIGHT_GREYS = LinearSegmentedColormap.from_list("lodex_light_greys", ["white", "0.45"])
# Pixels without a value (no particle, or not positive on a log scale): a colour viridis does
# not use, named in a legend, rather than the axes' white, which looked like a value.
NO_DATA = "0.82"


class Picture(Figure):
    """A matplotlib Figure drawn by ``lodex.plot``; ``data`` (a :class:`PlotData`) holds the
    numbers it shows: the image, line or histogram, its bin edges, labels and read statistics."""

    def __init__(self, data: PlotData, **kw):
        super().__init__(**kw)
        self.data = data

    def save(self, path: str | os.PathLike, dpi: float | None = None) -> None:
        """:func:`lodex.plot.save` of this picture."""
        save(self, path, dpi)


def draw(data: PlotData, width: float = 6.4, dpi: float = 100) -> Picture:
    """``data`` drawn on a new :class:`Picture` ``width`` inches wide (the height follows the
    picture's shape), at ``dpi`` pixels per inch."""
    fig = Picture(data, figsize=(width, _height(data, width)), dpi=dpi, layout="constrained")
    ax = fig.add_subplot()
    if data.kind == "timeline":
        _line(ax, data)
    elif data.kind == "histogram":
        _histogram(ax, data)
    else:
        _image(fig, ax, data)
    ax.set_title(data.title, fontsize="medium")
    ax.set_xlabel(data.xlabel)
    ax.set_ylabel(data.ylabel)
    return fig


def _height(data: PlotData, width: float) -> float:
    """Inches: 3/4 of the width, or for a picture of space (equal axes) what its shape needs."""
    if data.kind in ("timeline", "histogram", "hovmoller"):
        return 0.75 * width
    shape = (data.y[-1] - data.y[0]) / (data.x[-1] - data.x[0])
    return float(np.clip((width - 1.3) * shape + 1.2, 0.4 * width, 0.9 * width))


def _norm(values: np.ndarray, log: bool):
    """A colour scale over the finite values (positive ones for a log scale)."""
    finite = values[np.isfinite(values)]
    if log:
        finite = finite[finite > 0]
    lo, hi = (finite.min(), finite.max()) if finite.size else (1.0, 1.0)
    if log:
        return LogNorm(lo, hi) if hi > lo else LogNorm(lo / 2, lo * 2)
    return Normalize(lo, hi) if hi > lo else Normalize(lo - 0.5, hi + 0.5)


def _image(fig: Figure, ax, data: PlotData) -> None:
    values = np.asarray(data.values, dtype=np.float64)
    if data.log:
        values = np.where(values > 0, values, np.nan)   # zero and below: no colour on a log scale
    norm = _norm(values, data.log)
    if data.kind == "query_projection":   # the particles behind the matches: grey, no colour bar of their own
        extent = (data.x[0], data.x[-1], data.y[0], data.y[-1])
        ax.imshow(values, origin="lower", extent=extent, cmap=_LIGHT_GREYS, norm=norm, interpolation="nearest")
        _matches(fig, ax, data, extent)
        return
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad=NO_DATA)
    if data.kind == "hovmoller":   # rows are steps, whose spacing may vary: cells between the edges
        im = ax.pcolormesh(data.x, data.y, values, cmap=cmap, norm=norm)
    else:
        extent = (data.x[0], data.x[-1], data.y[0], data.y[-1])
        im = ax.imshow(values, origin="lower", extent=extent, cmap=cmap, norm=norm, interpolation="nearest")
    _colorbar(fig, ax, im, data.label)
    if np.isnan(values).any():
        _legend(fig, [Patch(facecolor=NO_DATA, edgecolor="0.4", label=_no_data_text(data))])


def _no_data_text(data: PlotData) -> str:
    """What a pixel without a value means."""
    if data.kind.startswith("projection"):
        return "no particles"
    return "not positive (log scale)" if data.log else "no value (NaN)"


def _colorbar(fig: Figure, ax, mappable, label: str):
    """A colour bar; on a log scale with plainly written ticks (1, 2, 5 of each decade when the
    range spans less than a few decades, else the decades; at least its two ends), not
    matplotlib's lone minor label such as 2x10^0 on a range within one decade."""
    bar = fig.colorbar(mappable, ax=ax, label=label, shrink=0.85)
    norm = mappable.norm
    if isinstance(norm, LogNorm):
        lo, hi = float(norm.vmin), float(norm.vmax)
        subs = (1.0, 2.0, 5.0) if hi / lo < 1e3 else (1.0,)
        decades = range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
        ticks = [m * 10.0 ** d for d in decades for m in subs if lo * (1 - 1e-9) <= m * 10.0 ** d <= hi * (1 + 1e-9)]
        if len(ticks) < 2:
            ticks = [lo, hi]
        bar.ax.yaxis.set_major_locator(FixedLocator(ticks))
        bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.3g}"))
        bar.ax.yaxis.set_minor_formatter(NullFormatter())
    return bar


# Matches in at most this many pixels are drawn as dots (visible at any size), more as an image.
_DOTS = 20000


def _matches(fig: Figure, ax, data: PlotData, extent) -> None:
    """A query's matches per pixel over the particles, in colour, with their colour bar (the one
    colour bar of the picture; a legend names the grey particles behind)."""
    counts = np.asarray(data.overlay, dtype=np.float64)
    rows, cols = np.nonzero(counts > 0)
    norm = _norm(counts[rows, cols], data.log)
    if len(rows) <= _DOTS:
        xc = (data.x[cols] + data.x[cols + 1]) / 2
        yc = (data.y[rows] + data.y[rows + 1]) / 2
        om = ax.scatter(xc, yc, c=counts[rows, cols], s=6, cmap="autumn", norm=norm, linewidths=0)
    else:
        om = ax.imshow(np.where(counts > 0, counts, np.nan), origin="lower", extent=extent, cmap="autumn",
                       norm=norm, interpolation="nearest")
    _colorbar(fig, ax, om, "matches per pixel")
    _legend(fig, [Patch(facecolor="0.6", edgecolor="0.4", label="particles (darker: more)"),
                  Patch(facecolor="white", edgecolor="0.4", label="no particles")])


def _legend(fig: Figure, handles: list) -> None:
    """A one-line legend under the picture (it hides no data)."""
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small", frameon=False)


def _line(ax, data: PlotData) -> None:
    ax.plot(data.x, data.values, marker="o", markersize=3)
    if data.log:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)


def _histogram(ax, data: PlotData) -> None:
    ax.stairs(data.values, data.x, fill=True, color="0.7", label="all particles")
    if data.overlay is not None:
        ax.stairs(data.overlay, data.x, fill=True, color="tab:red", alpha=0.85, label="matches")
        ax.legend()
    if data.log:
        ax.set_yscale("log")


def check_output(path: str | os.PathLike) -> str:
    """The picture format of ``path`` (from its extension), once its directory is known to be
    writable: checked before anything is read."""
    path = os.fspath(path)
    fmt = FORMATS.get(os.path.splitext(path)[1].lower())
    if fmt is None:
        raise InvalidArgumentError(f"cannot tell the picture format of {path!r}: its extension must be one of "
                                   f"{', '.join(FORMATS)}")
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise IOFailure(f"cannot write {path!r}: no directory {directory!r}")
    if os.path.isdir(path):
        raise IOFailure(f"cannot write {path!r}: it is a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise IOFailure(f"cannot write {path!r}: the directory {directory!r} is not writable")
    return fmt


def save(fig: Figure, path: str | os.PathLike, dpi: float | None = None) -> None:
    """Writes ``fig`` to exactly ``path`` in the format its extension names (.png, .svg, .pdf):
    into a temporary file in the same directory, renamed into place, so that a failure leaves no
    partial file (IOFailure)."""
    fmt = check_output(path)
    path = os.fspath(path)
    replace_whole(path, lambda f: fig.savefig(f, format=fmt, dpi=dpi if dpi is not None else "figure"), repr(path))
