"""``lodex render DATASET NAME [VARIABLE] --out picture.png``: a picture of a particle group, grid
or series variable (docs/plot.md), drawn by ``lodex.plot``."""

from __future__ import annotations

import argparse

from .. import errors


def add_parser(sub) -> None:
    p = sub.add_parser("render", help="draw a picture (PNG, SVG or PDF) of particles (a projection, a "
                                      "query's matches, a histogram), a grid plane or a series variable "
                                      "(a time line, a Hovmöller diagram)")
    p.add_argument("path", help="the dataset directory")
    p.add_argument("name", help="a particle group, grid or series of the dataset")
    p.add_argument("variable", nargs="?", help="series: the variable to draw")
    p.add_argument("--out", required=True, help="the picture to write; the format follows the extension: "
                                                ".png, .svg or .pdf")
    p.add_argument("--step", type=int, help="particles and grids: the step (required)")
    p.add_argument("--steps", help="series: steps to draw: 0,2,5 or 0:30 (default all)")
    p.add_argument("--box", help="particles: x0,y0,z0:x1,y1,z1 (numbers); grids: integers, max exclusive")
    p.add_argument("--axis", choices=("x", "y", "z"), help="particles: project along this axis; grids: "
                   "the plane across it (default z); series: a Hovmöller diagram along it (without --axis: a "
                   "time line at --point)")
    p.add_argument("--field", help="particles: draw the mean of this field per pixel (name, name[i] or x/y/z), "
                                   "or with --histogram its histogram; grids: the field (default the first)")
    lod = p.add_mutually_exclusive_group()
    lod.add_argument("--level", type=int, help="particles: levels 0..L of the level-of-detail order")
    lod.add_argument("--fraction", type=float, help="particles: this share of the particles, a fair sample")
    lod.add_argument("--sample", type=int, help="particles: about this many particles, a fair sample "
                                                "(default 2,097,152; 0: all)")
    lod.add_argument("--resolution", type=int, help="grids: levels 0..R of the IDX hierarchy (default all)")
    p.add_argument("--index", type=int, help="grids: the plane's coordinate along --axis (default the middle)")
    p.add_argument("--point", help="series: x,y[,z] grid point of a time line (or the line of a Hovmöller "
                                   "diagram; default the middle)")
    p.add_argument("--query", help="particles: draw the matches of this query over all particles, e.g. "
                                   "\"energy > 0.5\" (with --histogram: highlight them)")
    p.add_argument("--histogram", action="store_true", help="particles: the histogram of --field")
    p.add_argument("--bins", type=int, default=64, help="--histogram: bins (default 64)")
    p.add_argument("--pixels", type=int, help="particles: pixels along the longer side (default 512)")
    scale = p.add_mutually_exclusive_group()
    scale.add_argument("--log", action="store_true", help="a logarithmic colour scale (histograms, time lines: "
                       "the vertical axis; particle counts and --query pictures: the default)")
    scale.add_argument("--linear", action="store_true", help="particle counts: a linear colour scale instead of "
                       "the default logarithmic one")
    p.add_argument("--units", help="units to label axes with (lodex records none): field=unit,... e.g. "
                                   "energy=MeV,position=m")
    p.add_argument("--dpi", type=float, help="PNG resolution in pixels per inch (default 100: 640 pixels wide)")
    p.add_argument("--json", action="store_true", help="print what was drawn as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import lodex
    from .. import plot

    plot.check_output(args.out)   # before any read: a bad --out costs nothing
    units = _units(args.units)
    ds = lodex.open(args.path)
    if args.name in ds.series:
        fig = _series(args, ds.series[args.name], units)
    elif args.name in ds.grids:
        fig = _grid(args, ds.grids[args.name], units)
    else:
        fig = _particles(args, ds.particles[args.name], units)
    plot.save(fig, args.out, dpi=args.dpi)
    _report(args, fig)
    return 0


def _refuse(args, flags: tuple[str, ...], what: str) -> None:
    given = [f"--{f}" for f in flags if getattr(args, f) not in (None, False)]
    if given:
        raise errors.InvalidArgumentError(f"{', '.join(given)}: not for {what}")


def _need_step(args, what: str) -> int:
    if args.step is None:
        raise errors.InvalidArgumentError(f"--step is needed for {what}")
    return args.step


def _particles(args, g, units):
    from .. import plot
    from ._common import _parse_box

    what = f"particle group '{g.name}'"
    _refuse(args, ("variable", "steps", "resolution", "index", "point"), what)
    step = _need_step(args, what)
    box = _parse_box(args.box) if args.box else None
    if args.histogram or args.query:
        _refuse(args, ("linear",), "a histogram (linear unless --log) or a query's matches (log)")
    if args.histogram:
        _refuse(args, ("fraction", "sample", "pixels", "axis"), "a histogram (every particle, or --level)")
        if not args.field:
            raise errors.InvalidArgumentError("--histogram needs --field: the field to count")
        return plot.histogram(g, step, args.field, args.query, box, bins=args.bins, log=args.log, units=units,
                              level=args.level)
    lod = {"level": args.level, "fraction": args.fraction,
           "sample": plot.DEFAULT_SAMPLE if args.sample is None else (args.sample or None),
           "pixels": plot.DEFAULT_PIXELS if args.pixels is None else args.pixels, "units": units}
    if args.query:
        if args.field:
            raise errors.InvalidArgumentError("--query draws matches over particle counts: drop --field "
                                              "(or add --histogram for the field's histogram)")
        return plot.query(g, step, args.query, args.axis or "z", box, log=True, **lod)
    log = True if args.log else False if args.linear else None   # None: log for counts, linear for a field
    return plot.particles(g, step, args.axis or "z", box, args.field, log=log, **lod)


def _grid(args, g, units):
    from .. import plot
    from ._common import _parse_grid_box

    what = f"grid '{g.name}'"
    _refuse(args, ("variable", "steps", "level", "fraction", "sample", "point", "query", "histogram", "pixels",
                   "linear"), what)
    step = _need_step(args, what)
    box = _parse_grid_box(args.box) if args.box else None
    return plot.grid_slice(g, step, args.axis or "z", args.index, box, resolution=args.resolution, field=args.field,
                           log=args.log, units=units)


def _series(args, s, units):
    from .. import plot
    from ._common import _select_steps

    what = f"series '{s.name}'"
    _refuse(args, ("step", "box", "field", "level", "fraction", "sample", "resolution", "index", "query",
                   "histogram", "pixels", "linear"), what + " (give VARIABLE, --point, --axis, --steps)")
    if not args.variable:
        raise errors.InvalidArgumentError(f"name the variable of {what} to draw: one of " + ", ".join(s.variables))
    if args.point is None and args.axis is None:
        raise errors.InvalidArgumentError("give --point x,y[,z] for a time line at a grid point, or --axis "
                                          "x|y|z for a Hovmöller diagram (time x that axis)")
    point = _point(args.point) if args.point else None
    steps = _select_steps(args.steps, s.steps, what) if args.steps else None
    if args.axis is not None:
        return plot.hovmoller(s, args.variable, args.axis, point, steps, log=args.log, units=units)
    return plot.timeline(s, args.variable, point, steps, log=args.log, units=units)


def _point(text: str) -> tuple[int, ...]:
    try:
        p = tuple(int(v) for v in text.split(","))
        if len(p) not in (2, 3):
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(f"--point must look like x,y,z or x,y (integers), got {text!r}") from None
    return p


def _units(text: str | None) -> dict[str, str] | None:
    if not text:
        return None
    try:
        pairs = [item.split("=", 1) for item in text.split(",") if item]
        out = {k.strip(): v.strip() for k, v in pairs}
        if not out or any(not k or not v for k, v in out.items()):
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(f"--units must look like energy=MeV,position=m, got {text!r}") from None
    return out


def _report(args, fig) -> None:
    from ._common import _print_json

    d = fig.data
    w, h = (int(round(v * (args.dpi or fig.dpi))) for v in fig.get_size_inches())
    if args.json:
        _print_json(None, {"out": args.out, "kind": d.kind, "title": d.title, "shape": list(d.values.shape),
                           "overlay": None if d.overlay is None else int(d.overlay.sum()),
                           "stats": d.stats, "size": [w, h]})
        return
    print(f"wrote {args.out} ({w} x {h}): {d.title}")
    st = d.stats
    if "bytes_read" in st:
        print(f"  read {st['bytes_read']:,} bytes" + (f" in {st['seconds'] * 1e3:.1f} ms" if "seconds" in st else ""))
