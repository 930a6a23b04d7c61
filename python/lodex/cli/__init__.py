"""The ``lodex`` command line: ``lodex info``, ``lodex read``, ``lodex index``, ``lodex query``,
``lodex truncate``, ``lodex export``, ``lodex import``, ``lodex calibrate``, ``lodex advise``, ``lodex demo``,
``lodex serve``, ``lodex render``, ``lodex paraview-plugin``."""

from __future__ import annotations

import argparse
import json
import os
import sys

from .. import errors


def _info(args: argparse.Namespace) -> int:
    import lodex

    ds = lodex.open(args.path)
    out = {"path": ds.path, "groups": {}}
    for name in ds.groups:
        g = ds.particles(name)
        steps = []
        for s in g.steps:
            files = g.files(s)
            steps.append({
                "step": s,
                "particles": sum(f["count"] for f in files),
                "indexes": g.indexes(s),
                "files": [{"file": f["file"], "partition": f["partition"],
                           "partition_box": [list(f["partition_box"]["min"]),
                                             list(f["partition_box"]["max"])],
                           "bounds": [list(f["bounds"]["min"]), list(f["bounds"]["max"])],
                           "count": f["count"], "bytes": f["file_bytes"]} for f in files],
            })
        mode, dims = g.partition
        partition = {"mode": mode, "dims": list(dims)}
        if g.particles_per_file is not None:
            partition["particles_per_file"] = g.particles_per_file
        out["groups"][name] = {
            "kind": "particles",
            "schema": {n: {"dtype": d, "components": c} for n, (d, c) in g.schema.items()},
            "domain": "auto" if g.auto_domain else [list(g.domain[0]), list(g.domain[1])],
            "periodic": list(g.periodic),
            "partition": partition,
            "steps": steps,
        }
    for name in ds.grids:
        g = ds.grid(name)
        m = g._meta
        out["groups"][name] = {
            "kind": "grid",
            "idx": None if g._split else g.idx_path,
            "idx_paths": g.idx_paths,
            "partitions": g.partitions,
            "index_space": g.index_space,
            "dims": list(g.dims),
            "fields": {n: {"dtype": d, "components": c} for n, (d, c) in g.fields.items()},
            "bitmask": g.bitmask,
            "levels": g.max_resolution + 1 if g.bitmask else None,
            "bits_per_block": g.bits_per_block,
            "blocks_per_file": g.blocks_per_file,
            "aggregation": g.aggregation,
            "compression": g.compression,
            "steps": [dict(s) for s in m["steps"]],
        }
    for name in ds.series_names:
        m = ds.series(name).meta
        out["groups"][name] = {
            "kind": "series",
            "dims": list(m["dims"]),
            "variables": {n: {"dtype": d, "ndim": k} for n, (d, k) in m["variables"].items()},
            "settings": {k: (None if isinstance(v, float) and v == float("inf") else v)
                         for k, v in m["settings"].items()},
            **({k: m[k] for k in ("d_tar", "d_sar", "opt_size", "chunk_bytes", "reason", "writer_ranks")}
               if m["planned"] else {}),
            "cuts": [list(c) for c in m["cuts"]] if m["planned"] else None,
            "windows": [dict(w) for w in m["windows"]],
        }
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print(f"dataset {out['path']}")
    for name, g in out["groups"].items():
        if g["kind"] == "grid":
            fields = ", ".join(f"{n}:{v['dtype']}" + (f"x{v['components']}" if v["components"] > 1 else "")
                               for n, v in g["fields"].items())
            where = g["idx"] or f"{len(g['idx_paths'])} IDX datasets, one per partition"
            print(f"grid '{name}'  {' x '.join(str(d) for d in g['dims'])}  fields {{{fields}}}  ({where})")
            print(f"  bitmask {g['bitmask'] or '(derived at the first write)'}, {g['levels'] or '?'} levels, "
                  f"{2 ** g['bits_per_block']} samples per block, {g['blocks_per_file']} blocks per file, "
                  f"{g['aggregation']} aggregation, compression {g['compression'] or 'none'}, "
                  + (f"{g['partitions']} partitions ({g['index_space']} index space), " if g["partitions"] > 1 else "")
                  + f"{len(g['steps'])} steps")
            for s in g["steps"]:
                print(f"  step {s['step']}: {s['files']} files, {s['bytes']:,} bytes, "
                      f"written by {s['writer_ranks']} ranks")
                if args.files:
                    for f, size in _grid_step_files(out["path"], name, s["step"]):
                        print(f"    {f}  {size:,} bytes")
            continue
        if g["kind"] == "series":
            _print_series(name, g)
            if args.files:
                for w in g["windows"]:
                    print(f"    {name}/{w['file']}  steps {_steps_summary(w['steps'])}  {w['bytes']:,} bytes")
            continue
        schema = ", ".join(f"{n}:{v['dtype']}" + (f"x{v['components']}" if v["components"] > 1 else "")
                           for n, v in g["schema"].items())
        print(f"particles '{name}'  schema {{{schema}}}")
        part = g["partition"]
        how = (f"adaptive, {part['particles_per_file']:,} particles per file" if part["mode"] == "adaptive"
               else f"{part['mode']} {tuple(part['dims'])}")
        if g["domain"] == "auto":
            domain = "auto (each step the bounds of its particles)"
        else:
            domain = f"{g['domain'][0]} - {g['domain'][1]}"
            if any(g["periodic"]):
                domain += " periodic in " + "".join(a for a, p in zip("xyz", g["periodic"]) if p)
        print(f"  domain {domain}, partition {how}, {len(g['steps'])} steps")
        for s in g["steps"]:
            idx = "".join(
                f", index {x['field']} ({x['binning']} {x.get('precision', x.get('bins'))}, {x['bytes']:,} bytes)"
                for x in s["indexes"])
            print(f"  step {s['step']}: {s['particles']:,} particles in {len(s['files'])} files{idx}")
            if args.files:
                for f in s["files"]:
                    print(f"    {f['file']}  box {f['partition_box'][0]} - {f['partition_box'][1]}  "
                          f"count {f['count']:,}  {f['bytes']:,} bytes")
    return 0


def _grid_step_files(path: str, name: str, step: int) -> list[tuple[str, int]]:
    """The files of one step of grid `name` (block files and their checksum file), relative to
    the dataset, with their sizes: every file under a directory named like the step's."""
    tdir = f"time_{step:06d}"
    out = []
    for d, _, files in os.walk(path):
        rel = os.path.relpath(d, path)
        parts = rel.split(os.sep)
        if tdir in parts and (parts[0] == name or parts[0] == name + ".checksums"):
            out += [(os.path.join(rel, f), os.path.getsize(os.path.join(d, f))) for f in sorted(files)]
    return sorted(out)


def _print_series(name: str, g: dict) -> None:
    v3 = [n for n, v in g["variables"].items() if v["ndim"] == 3]
    v2 = [n for n, v in g["variables"].items() if v["ndim"] == 2]
    dtypes = sorted({v["dtype"] for v in g["variables"].values()})

    def names(vs):
        return ", ".join(vs[:8]) + (f", ... ({len(vs)})" if len(vs) > 8 else "")
    print(f"series '{name}'  {' x '.join(str(d) for d in g['dims'])}  {len(v3)} 3-D variables "
          f"({names(v3)}), {len(v2)} 2-D ({names(v2)}); {'/'.join(dtypes)}")
    steps = [t for w in g["windows"] for t in w["steps"]]
    st = g["settings"]
    secs = st["max_window_seconds"]
    print(f"  a window is written after at most {st['max_window_steps']} steps"
          + (f" or {secs:g} s from its first step" if secs is not None else "")
          + ": what a crash of the writer can lose")
    if "d_tar" not in g:
        print("  not written yet (d_tar and d_sar are fixed by the first write)")
        return
    cells = " x ".join(str(len(c) - 1) for c in g["cuts"])
    print(f"  d_tar {g['d_tar']} steps, d_sar {g['d_sar']} levels, decomposition {cells} written by "
          f"{g['writer_ranks']} ranks, chunk {g['chunk_bytes']:,} bytes (OptSize {g['opt_size']:,})")
    print(f"  why: {g['reason']}")
    print(f"  {_steps_summary(steps)} in {len(g['windows'])} window files, "
          f"{sum(w['bytes'] for w in g['windows']):,} bytes")


def _read_series(args: argparse.Namespace, s) -> int:
    if args.level is not None or args.fraction is not None or args.fields or args.resolution is not None or args.field:
        raise errors.InvalidArgumentError("series reads take VARIABLE, --steps (or --step) and --box")
    if not args.variable:
        raise errors.InvalidArgumentError(f"name the variable of series '{s.name}' to read: one of "
                                          + ", ".join(s.variables))
    if args.step is not None and args.steps:
        raise errors.InvalidArgumentError("give --step or --steps, not both")
    steps = args.step if args.step is not None else (
        _select_steps(args.steps, s.steps, f"series '{s.name}'") if args.steps else None)
    box = _parse_grid_box(args.box) if args.box else None
    _check_out(args.out, single=True)
    a = s.read(args.variable, steps=steps, box=box)
    st = s.last_read_stats
    if args.out:
        _save(args.out, {args.variable: a}, a)
    if args.count:
        print(a.size)
        return 0
    if args.json:
        _print_json(None, {"kind": "series", "name": s.name, "variable": args.variable, "box": box,
                           **_array_summary(a), "stats": dict(st), "out": args.out})
        return 0
    print(f"series '{s.name}' {args.variable}" + (f", box {box[0]} - {box[1]}" if box else "") + f": {a.dtype} {a.shape}")
    if a.size:
        print(f"  min {a.min():.6g}  max {a.max():.6g}  mean {a.mean():.6g}")
    print(f"read {st['bytes_read']:,} bytes from {st['chunks']} chunks of {st['windows']} window files "
          f"({st['requests']} requests) in {st['seconds'] * 1e3:.2f} ms")
    if args.out:
        print(f"wrote {args.out}")
    return 0


_OUT_FORMATS = {".npy": "one numpy array", ".npz": "numpy arrays by name"}


def _check_out(path: str | None, single: bool) -> None:
    """Refuses an --out whose extension names no format this result can be saved as, before reading."""
    if path is None:
        return
    ext = os.path.splitext(path)[1].lower()
    allowed = [".npy", ".npz"] if single else [".npz"]
    if ext not in allowed:
        raise errors.InvalidArgumentError(
            f"--out {path!r}: the format follows the extension; this result can be saved as "
            + " or ".join(f"{e} ({_OUT_FORMATS[e]})" for e in allowed))


def _save(path: str, arrays: dict, single=None) -> None:
    """Writes exactly ``path`` (.npy: ``single``; .npz: ``arrays``) through a temporary file beside
    it, renamed into place: an unwritable --out is an IOFailure and leaves no partial file."""
    import numpy as np

    from .._files import replace_whole

    def write(f):
        if os.path.splitext(path)[1].lower() == ".npy":
            np.save(f, single)
        else:
            np.savez(f, **arrays)
    replace_whole(path, write, f"--out {path!r}")


def _parse_box(text: str):
    try:
        lo, hi = text.split(":")
        lo = tuple(float(v) for v in lo.split(","))
        hi = tuple(float(v) for v in hi.split(","))
        if len(lo) != 3 or len(hi) != 3:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--box must look like x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max), got {text!r}") from None
    return lo, hi


def _parse_grid_box(text: str):
    try:
        lo, hi = text.split(":")
        lo = tuple(int(v) for v in lo.split(","))
        hi = tuple(int(v) for v in hi.split(","))
        if len(lo) != len(hi) or not 1 <= len(lo) <= 3:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--box of a grid must look like x0,y0,z0:x1,y1,z1 (integers, max exclusive), got {text!r}") from None
    return lo, hi


def _read_grid(args: argparse.Namespace, g) -> int:
    if args.level is not None or args.fraction is not None or args.fields:
        raise errors.InvalidArgumentError("--level, --fraction and --fields are for particles; grids take "
                                          "--resolution and --field")
    box = _parse_grid_box(args.box) if args.box else None
    _check_out(args.out, single=True)
    a = g.read(args.step, box=box, resolution=args.resolution, field=args.field)
    stats = g.last_read_stats
    if args.out:
        _save(args.out, {args.field or next(iter(g.fields)): a}, a)
    if args.count:
        print(a.size)
        return 0
    res = g.max_resolution if args.resolution is None else args.resolution
    if args.json:
        _print_json(None, {"kind": "grid", "name": g.name, "step": args.step, "resolution": res,
                           "max_resolution": g.max_resolution, "box": box, **_array_summary(a),
                           "stats": dict(stats), "out": args.out})
        return 0
    print(f"grid '{g.name}' step {args.step}, resolution {res} of {g.max_resolution}"
          + (f", box {box[0]} - {box[1]}" if box else "") + f": {a.dtype} {a.shape}")
    if a.size:
        print(f"  min {a.min():.6g}  max {a.max():.6g}  mean {a.mean():.6g}")
    print(f"read {stats['bytes_read']:,} bytes in {stats['blocks_read']} blocks from {stats['files_opened']} files")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _read(args: argparse.Namespace) -> int:
    import numpy as np

    import lodex

    ds = lodex.open(args.path)
    if args.group in ds.series_names:
        return _read_series(args, ds.series(args.group))
    if args.variable or args.steps:
        raise errors.InvalidArgumentError(f"'{args.group}' is not a series: VARIABLE and --steps are for series")
    if args.step is None:
        raise errors.InvalidArgumentError("--step is needed")
    if args.group in ds.grids:
        return _read_grid(args, ds.grid(args.group))
    if args.resolution is not None or args.field:
        raise errors.InvalidArgumentError(f"'{args.group}' is not a grid: --resolution and --field are for grids")
    g = ds.particles(args.group)
    box = _parse_box(args.box) if args.box else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    if args.count and fields is None:
        fields = ["position"]   # counting needs no other column
    lod = {k: v for k, v in (("readers", args.readers), ("P", args.P), ("S", args.S)) if v is not None}
    _check_out(args.out, single=fields is not None and len(fields) == 1)
    if args.level is None and args.fraction is None and not lod:
        data, stats = _read_with_progress(args, g, box, fields)
    else:
        data = g.read(args.step, box=box, fields=fields, level=args.level, fraction=args.fraction, **lod)
        stats = g.last_read_stats
    count = stats["particles"]
    if args.out:
        _save(args.out, data, next(iter(data.values())) if len(data) == 1 else None)
    if args.count:
        print(count)
        return 0
    if args.json:
        _print_json(None, {"kind": "particles", "name": args.group, "step": args.step, "box": box,
                           "level": args.level, "fraction": args.fraction, "count": count,
                           "fields": {n: _array_summary(a) for n, a in data.items()}, "stats": dict(stats),
                           "out": args.out})
        return 0
    what = f"step {args.step}" + (f", box {box[0]} - {box[1]}" if box else "") + (
        f", level {args.level}" if args.level is not None else "") + (
        f", fraction {args.fraction}" if args.fraction is not None else "")
    print(f"{count:,} particles ({what})")
    for name, a in data.items():
        if len(a):
            lo = a.min(axis=0)
            hi = a.max(axis=0)
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}  min {np.round(lo, 6).tolist()}  "
                  f"max {np.round(hi, 6).tolist()}")
        else:
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}")
    print(f"read {stats['bytes_read']:,} bytes from {stats['files_opened']} files "
          f"({stats['requests']} requests) for {stats['bytes_returned']:,} bytes returned"
          f" in {stats['seconds'] * 1e3:.2f} ms")
    if args.out:
        print(f"wrote {args.out}")
    return 0


# A full-resolution read of more than this many bytes (the environment's LODEX_READ_PIECE_BYTES,
# default 64 MiB) shows a progress bar on a terminal: it is read in spatial pieces of about this
# size (disjoint boxes covering the query, so together exactly its particles).
_READ_PIECE_BYTES = 64 << 20


def _read_with_progress(args, g, box, fields) -> tuple[dict, dict]:
    """``g.read(step, box, fields)`` and its stats; in pieces with a progress bar when large."""
    import math

    import numpy as np

    from ..tables import Particles
    pieces = 1
    if _shows_progress(args, None):   # the estimate reads the step's metadata: only for a bar
        piece = int(os.environ.get("LODEX_READ_PIECE_BYTES", _READ_PIECE_BYTES))
        names = fields or list(g.schema)
        row = sum(np.dtype(d).itemsize * c for n, (d, c) in g.schema.items() if n in names)
        estimate = sum(rec["count"] for rec in g.files(args.step)) * row   # the whole step: an upper bound
        pieces = min(math.ceil(estimate / max(piece, 1)), 4096)
    if pieces < 2:
        data = g.read(args.step, box=box, fields=fields)
        return data, g.last_read_stats
    with _progress(args, None, pieces, f"reading '{args.group}' step {args.step}", unit="piece") as bar:
        parts, stats = [], {}
        for part in g.spatial_split(args.step, pieces, box):
            parts.append(g.read(args.step, box=part, fields=fields))
            for k, v in g.last_read_stats.items():
                stats[k] = stats.get(k, 0) + v
            bar.update(1)
    data = Particles({n: np.concatenate([p[n] for p in parts]) for n in parts[0]})
    return data, stats


def _index(args: argparse.Namespace) -> int:
    import lodex

    comm = _world_if_mpi()
    ds = lodex.open(args.path, mode="a", comm=comm)
    g = ds.particles(args.group)
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    steps = _select_steps(args.steps, g.steps, f"particle group '{args.group}'") if args.steps else list(g.steps)
    st = lodex.IndexBuildStats()
    with _progress(args, comm, len(steps), f"indexing '{args.group}'") as bar:
        for s in steps:   # a step at a time, so that the bar moves; the same indexes as all at once
            one = g.build_index(fields=fields, precision=args.precision, bins=args.bins, steps=[s])
            for k, v in one.items():   # counts, bytes and seconds add up over the steps
                st[k] = st.get(k, 0) + v
            bar.update(1)
    ds.close()
    if args.json:
        _print_json(comm, dict(st))
    elif comm is None or comm.rank == 0:
        print(f"indexed {st['steps']} step(s), {st['files']} files, {st['indexes']} index files: "
              f"{st['index_bytes']:,} bytes for {st['column_bytes']:,} bytes of columns "
              f"({st.size_ratio:.1%}, {st.bits_per_row:.1f} bits per value) in {st['seconds']:.3f} s")
    return 0


def _truncate(args: argparse.Namespace) -> int:
    import lodex

    comm = _world_if_mpi()
    ds = lodex.open(args.path, mode="a", comm=comm)
    if args.group is None:
        target = ds
    elif args.group in ds.groups:
        target = ds.particles(args.group)
    elif args.group in ds.grids:
        target = ds.grid(args.group)
    elif args.group in ds.series_names:
        target = ds.series(args.group)
    else:
        raise errors.NotFoundError(
            f"no group '{args.group}' in '{args.path}' (particle groups: {', '.join(ds.groups) or 'none'}; "
            f"grids: {', '.join(ds.grids) or 'none'}; series: {', '.join(ds.series_names) or 'none'})")
    removed = target.truncate(args.after)
    if args.group is not None:
        removed = {args.group: removed}
    ds.close()
    if args.json:
        _print_json(comm, {"path": args.path, "after": args.after, "removed": removed})
    elif comm is None or comm.rank == 0:
        kinds = {**{n: "particle group" for n in ds.groups}, **{n: "grid" for n in ds.grids},
                 **{n: "series" for n in ds.series_names}}
        kept = "every step removed" if args.after == -1 else f"steps after {args.after}"
        for name, steps in removed.items():
            what = f"removed {len(steps)} step(s): {_steps_text(steps)}" if steps else "nothing to remove"
            print(f"{kinds.get(name, 'group')} '{name}': {what}")
        print(f"{sum(len(s) for s in removed.values())} step(s) removed ({kept})")
    return 0


def _steps_text(steps: list[int]) -> str:
    """Ascending steps as runs: "0-4, 7, 9-12"."""
    runs: list[list[int]] = []
    for s in steps:
        if runs and s == runs[-1][1] + 1:
            runs[-1][1] = s
        else:
            runs.append([s, s])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _progress(args, comm, total: int | None, what: str, unit: str = "step"):
    """A progress bar on stderr (tqdm) while a long command works through `total` items: only on
    a terminal, on rank 0, and not with --quiet."""
    from tqdm import tqdm
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=not _shows_progress(args, comm),
                leave=False)


def _shows_progress(args, comm) -> bool:
    """Whether this rank draws progress bars: on a terminal, rank 0, without --quiet."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty() and (comm is None or comm.rank == 0)


def _reporter(bar):
    """A ``progress(done, total)`` callback that moves ``bar``."""
    def report(done: int, total: int) -> None:
        if bar.total != total:   # known once the work starts: shown at once
            bar.total = total
            bar.refresh()
        bar.update(done - bar.n)
    return report


def _world_if_mpi():
    """MPI.COMM_WORLD when started by mpiexec with several ranks, else None (serial)."""
    import os
    if not any(k in os.environ for k in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "PMIX_RANK")):
        return None
    from mpi4py import MPI
    return MPI.COMM_WORLD if MPI.COMM_WORLD.size > 1 else None


def _parse_steps(text: str) -> list[int] | tuple[int | None, int | None]:
    """"3" or "0,2,5": those steps (a list); "0:30", "10:" or ":30": the range [a, b) (a tuple),
    which _select_steps turns into the committed steps inside it."""
    try:
        if ":" in text:
            a, b = text.split(":")
            return (int(a) if a.strip() else None, int(b) if b.strip() else None)
        steps = [int(s) for s in text.split(",") if s]
        if not steps:
            raise ValueError
        return steps
    except ValueError:
        raise errors.InvalidArgumentError(f"--steps must look like 3, 0,2,5, 0:30 (every committed step from 0 "
                                          f"up to but not including 30), 10: or :30; got {text!r}") from None


def _select_steps(text: str, committed: list[int], what: str) -> list[int]:
    """--steps against the committed steps of `what`: a list as given (a missing step is the
    reader's error), a range as the committed steps inside it (none: an error listing them)."""
    spec = _parse_steps(text)
    if isinstance(spec, list):
        return spec
    lo, hi = spec
    chosen = [s for s in committed if (lo is None or s >= lo) and (hi is None or s < hi)]
    if not chosen:
        raise errors.NotFoundError(f"{what} has no committed step in --steps {text} "
                                   f"(its steps: {_steps_summary(list(committed))})")
    return chosen


def _query(args: argparse.Namespace) -> int:
    import numpy as np

    import lodex

    ds = lodex.open(args.path)
    g = ds.particles(args.group)
    box = _parse_box(args.box) if args.box else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else []
    if args.out and not fields:
        fields = list(g.schema)
    _check_out(args.out, single=False)
    r = g.query(args.query, args.step, box=box, level=args.level, fields=fields,
                count_only=args.count and not args.out, use_index=not args.scan)
    if not args.json:
        for note in r.notes:
            print(f"note: {note}", file=sys.stderr)
    if args.out:
        arrays = {f"rows/{name}": rows for name, rows in r.rows.items()}
        arrays.update(r.data)
        _save(args.out, arrays)
    if args.count:
        print(r.count)
        return 0
    if args.json:
        _print_json(None, {"query": args.query, "step": args.step, "box": box, "level": args.level,
                           "count": r.count, "notes": r.notes, "stats": dict(r.stats),
                           "fields": {n: _array_summary(a) for n, a in r.data.items()}, "out": args.out})
        return 0
    s = r.stats
    print(f"{r.count:,} particles match {args.query!r} in step {args.step}"
          + (f", box {box[0]} - {box[1]}" if box else "")
          + (f", level {args.level}" if args.level is not None else ""))
    print(f"  files: {s['files']} ({s['files_pruned']} pruned by the spatial metadata, {s['files_indexed']} "
          f"answered from bitmap indexes, {s['files_scanned']} scanned); {s['rows_checked']:,} candidate rows "
          f"checked; {s['index_bytes']:,} index bytes and {s['data_bytes']:,} data bytes read in "
          f"{s['seconds'] * 1e3:.2f} ms")
    for name, a in r.data.items():
        if len(a):
            print(f"  {name:<16} {str(a.dtype):<8} shape {a.shape}  min {np.round(a.min(axis=0), 6).tolist()}  "
                  f"max {np.round(a.max(axis=0), 6).tolist()}")
    if args.out:
        print(f"wrote {args.out}")
    return 0


def _parse_ints(text: str, what: str, n: int) -> tuple[int, ...]:
    try:
        v = tuple(int(x) for x in text.split(","))
        if len(v) != n:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(f"{what} must be {n} comma-separated integers, got {text!r}") from None
    return v


def _parse_domain(text: str):
    try:
        v = [float(x) for x in text.replace(":", ",").split(",")]
        if len(v) != 6:
            raise ValueError
    except ValueError:
        raise errors.InvalidArgumentError(
            f"--domain must look like x0,y0,z0,x1,y1,z1 (inclusive min, exclusive max), got {text!r}") from None
    return tuple(v[:3]), tuple(v[3:])


def _steps_summary(steps: list[int]) -> str:
    if len(steps) > 8:
        return f"{len(steps)} steps ({steps[0]} .. {steps[-1]})"
    return f"{len(steps)} step{'s' if len(steps) != 1 else ''} ({', '.join(map(str, steps))})"


def _export(args: argparse.Namespace) -> int:
    import lodex

    comm = _world_if_mpi()   # under mpiexec rank 0 writes alone (serial HDF5)
    g = lodex.open(args.path).particles(args.group)
    steps = _select_steps(args.steps, g.steps, f"particle group '{args.group}'") if args.steps else None
    fields = [f for f in args.fields.split(",") if f] if args.fields else None
    kw = {} if args.max_bytes is None else {"max_bytes": args.max_bytes}
    with _progress(args, comm, None, f"exporting '{args.group}'") as bar:
        if args.format == "openpmd":   # lodex.openpmd (docs/openpmd.md)
            from ..openpmd.cli import export_command
            st = export_command(args, comm, steps, fields, _reporter(bar))
        else:
            st = g.export(args.out, format=args.format, steps=steps, fields=fields, overwrite=args.overwrite,
                          comm=comm, progress=_reporter(bar), **kw)
    if args.json:
        _print_json(comm, {**dict(st), "out": args.out, "format": args.format})
    elif comm is None or comm.rank == 0:
        print(f"exported {_steps_summary(st['steps'])} of '{args.group}', {st['particles']:,} particles, "
              f"to {args.out} ({args.format}): {st['bytes']:,} bytes in {st['seconds']:.3f} s")
    return 0


def _import(args: argparse.Namespace) -> int:
    import os
    import shutil

    import lodex

    comm = _world_if_mpi()
    domain = _parse_domain(args.domain) if args.domain else None
    grid = _parse_ints(args.partition_grid, "--partition-grid", 3) if args.partition_grid else None
    steps = _import_steps(args.steps) if args.steps else None
    index = [f for f in args.index.split(",") if f] if args.index else None
    created = not os.path.exists(args.path)
    if comm is not None:   # one answer for every rank, before any of them creates it
        created = comm.bcast(created, root=0)
    ds = lodex.create(args.path, comm=comm) if created else lodex.open(args.path, mode="a", comm=comm)
    try:
        before = set(ds.particles(args.group).steps) if args.group in ds.groups else set()
        with _progress(args, comm, None, f"importing {args.input}") as bar:
            if args.format == "openpmd":   # lodex.openpmd (docs/openpmd.md)
                from ..openpmd.cli import import_command
                g = import_command(args, ds, domain, steps, grid, index, _reporter(bar))
            else:
                g = ds.import_h5part(args.input, args.group, domain=domain, steps=steps, partition_grid=grid,
                                     particles_per_file=args.particles_per_file,
                                     partition="adaptive" if args.particles_per_file is not None else None,
                                     index=index, progress=_reporter(bar))
        imported = sorted(set(g.steps) - before)
        count = sum(sum(rec["count"] for rec in g.files(s)) for s in imported)
        ds.close()
    except errors.Error:
        empty = created and not ds.groups
        ds.close()
        if empty:   # a dataset this command created and nothing went into: leave nothing behind
            if comm is not None:
                comm.Barrier()
            if comm is None or comm.rank == 0:
                shutil.rmtree(args.path, ignore_errors=True)
        raise
    if args.json:
        _print_json(comm, {"steps": imported, "particles": count, "input": args.input, "path": args.path,
                           "group": args.group, "domain": [list(g.domain[0]), list(g.domain[1])]})
    elif comm is None or comm.rank == 0:
        lo, hi = g.domain
        print(f"imported {_steps_summary(imported)}, {count:,} particles, from {args.input} into "
              f"'{args.group}' of {args.path} (domain {lo} - {hi})")
    return 0


def _import_steps(text: str) -> list[int]:
    """--steps of an import: the H5Part file's steps, given as a list or a range a:b (b excluded)."""
    spec = _parse_steps(text)
    if isinstance(spec, list):
        return spec
    if spec[0] is None or spec[1] is None:
        raise errors.InvalidArgumentError(f"--steps of an import needs both ends of a range (a:b), got {text!r}")
    return list(range(spec[0], spec[1]))


def _array_summary(a) -> dict:
    """dtype, shape and (when not empty) per-component min, max of an array, for --json."""
    import numpy as np
    out = {"dtype": str(a.dtype), "shape": list(a.shape)}
    if a.size:
        axis = 0 if a.ndim == 2 and a.dtype.names is None and a.shape[1] <= 16 else None
        out["min"] = np.asarray(np.nanmin(a, axis=axis) if a.dtype.kind == "f" else a.min(axis=axis)).tolist()
        out["max"] = np.asarray(np.nanmax(a, axis=axis) if a.dtype.kind == "f" else a.max(axis=axis)).tolist()
    return out


def _unlock(args: argparse.Namespace) -> int:
    from .. import _lodex

    if not os.path.isdir(args.path):
        raise errors.NotFoundError(f"no lodex dataset at '{args.path}'")
    removed = _lodex._unlock(args.path, args.force)
    if args.json:
        _print_json(None, {"path": args.path, "removed": removed})
    elif removed is None:
        print(f"{args.path}: no writer lock")
    else:
        print(f"{args.path}: removed the writer lock of {removed['host']}:{removed['pid']} "
              f"since {removed['since']} (lodex {removed['lodex_version']})")
    return 0


def _print_json(comm, obj: dict) -> None:
    """One JSON object on stdout (rank 0 only under mpiexec)."""
    if comm is None or comm.rank == 0:
        json.dump(obj, sys.stdout, indent=1, default=_json_default)
        print()


def _json_default(v):
    import numpy as np
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    raise TypeError(f"{type(v).__name__} is not JSON")


def _calibrate(args: argparse.Namespace) -> int:
    from ..calibrate import calibrate

    comm = _world_if_mpi()   # under mpiexec: CC between rank 0 and the last rank; rank 0 prints
    if not 0 < args.size < float("inf"):
        raise errors.InvalidArgumentError(f"--size is in MiB and must be positive, got {args.size}")
    with _progress(args, comm, None, f"calibrating {args.directory}", unit="pass") as bar:
        cal = calibrate(args.directory, comm, size=int(args.size * (1 << 20)), repeats=args.repeats,
                        progress=_reporter(bar))
    if comm is not None and comm.rank != 0:
        return 0
    if args.out:
        cal.save(args.out)
    if args.json:
        print(cal.to_json())
        return 0
    print(f"calibration of {cal.directory}: a {cal.size / (1 << 20):g} MiB scratch file read "
          f"{cal.repeats} times, {'cold' if cal.cold else 'WARM'} ({cal.cold_method})")
    print(f"  BW_io    {cal.bw_io / 1e6:12.1f} MB/s")
    print(f"  Ts       {cal.ts * 1e3:12.4f} ms")
    print(f"  CC       {cal.cc * 1e6:12.2f} \u00b5s   ({cal.cc_method})")
    print(f"  OptSize  {cal.opt_size:12,} bytes = BW_io x (CC + Ts)")
    print(f"  fit: {cal.fit}")
    print(f"  {'request':>10}  {'median ms':>10}  {'fit ms':>10}  {'MB/s':>8}")
    for nbytes, t in cal.table:
        size = f"{nbytes >> 20} MiB" if nbytes >= 1 << 20 else f"{nbytes >> 10} KiB"
        print(f"  {size:>10}  {t * 1e3:10.4f}  {cal.predicted(nbytes) * 1e3:10.4f}  {nbytes / t / 1e6:8.1f}")
    if args.out:
        print(f"wrote {args.out} (use it as ds.series(..., calibration={args.out!r}))")
    return 0


def _ints(text: str | None, what: str, n: int | None = None) -> list[int] | None:
    if text is None:
        return None
    try:
        out = [int(x) for x in text.split(",")]
    except ValueError:
        raise errors.InvalidArgumentError(f"{what} is comma-separated integers, got {text!r}") from None
    if n is not None and len(out) != n:
        raise errors.InvalidArgumentError(f"{what} takes {n} integers, got {text!r}")
    return out


def _advise(args: argparse.Namespace) -> int:
    if args.kind == "series":
        return _advise_series(args)
    if args.kind == "grid":
        return _advise_grid(args)
    from ..planning import advise

    if args.particles_per_rank is None:
        raise errors.InvalidArgumentError("--particles-per-rank is required for --kind particles")
    candidates = None
    if args.candidates:
        try:
            candidates = [tuple(int(x) for x in c.split(",")) for c in args.candidates.split(";")]
        except ValueError:
            raise errors.InvalidArgumentError(f"--candidates is px,py,pz;px,py,pz;..., got {args.candidates!r}") from None
    a = advise(args.machine, args.ranks, args.particles_per_rank, bytes_per_particle=args.bytes_per_particle,
               candidates=candidates, adaptive=_ints(args.adaptive, "--adaptive"), curve=not args.no_curve)
    if args.json:
        _print_json(None, a)
        return 0
    rec = a["recommended"]
    print(f"{a['description']}")
    print(f"{a['ranks']:,} ranks x {a['particles_per_rank']:,} particles of {a['bytes_per_particle']} bytes "
          f"= {rec['bytes'] / 1e9:,.1f} GB per write")
    print(f"recommended: partition {tuple(rec['partition'])}: {rec['files']:,} files, "
          f"{rec['throughput'] / 1e9:.1f} GB/s predicted ({rec['seconds']:.2f} s, bound by {rec['bottleneck']})")
    ad = rec["adaptive"]
    print(f"  or partition='adaptive' with particles_per_file={ad['particles_per_file']:,}: {ad['files']:,} files, "
          f"{ad['throughput'] / 1e9:.1f} GB/s predicted")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    print(f"  {'layout':<48} {'files':>9} {'GB/s':>7} {'seconds':>8}  bound by")
    for r in a["alternatives"]:
        memory = "" if r["fits_memory"] else f"  (an aggregator needs {r['aggregator_bytes'] / 2**20:,.0f} MiB: too much)"
        print(f"  {r['label']:<48} {r['files']:>9,} {r['throughput'] / 1e9:7.1f} {r['seconds']:8.2f}  "
              f"{r['bottleneck']}{memory}")
    if "curves" in a:
        sweep = sorted({r for pts in a["curves"].values() for r, _ in pts})
        print("predicted GB/s by ranks:")
        print(f"  {'layout':<14}" + "".join(f"{r:>9,}" for r in sweep))
        for label, pts in a["curves"].items():
            by = dict((r, t) for r, t in pts)
            print(f"  {label:<14}" + "".join(f"{by[r] / 1e9:9.1f}" if r in by else f"{'-':>9}" for r in sweep))
    print("model and its validation: docs/scale.md")
    return 0


def _advise_series(args: argparse.Namespace) -> int:
    from ..planning import advise

    dims = _ints(args.dims, "--dims", 3) or (576, 361, 48)
    variables = [("f4", 3)] * args.vars3d + [("f4", 2)] * args.vars2d
    a = advise(args.machine, args.ranks, kind="series", dims=dims, variables=variables, steps=args.steps,
               readers=args.readers, d_tar=_ints(args.d_tar, "--d-tar"), d_sar=_ints(args.d_sar, "--d-sar"))
    if args.json:
        _print_json(None, a)
        return 0
    print(a["description"])
    print(f"{a['ranks']:,} ranks write {a['steps']} steps of {a['variables']} variables over {tuple(a['dims'])} "
          f"({a['step_bytes'] / 1e9:,.2f} GB per step); {a['readers']} readers read them back")
    rec, star, base = a["recommended"], a["star_choice"], a["baseline"]
    print(f"recommended: d_tar={rec['d_tar']}, d_sar={rec['d_sar']}: {rec['files']} file{'' if rec['files'] == 1 else 's'} of "
          f"{rec['file_bytes'] / 1e9:,.2f} GB, chunks of {rec['chunk_bytes'] / 1e6:,.2f} MB; write {rec['write_seconds']:.2f} s, "
          f"reads {rec['read_seconds']:.2f} s predicted")
    print(f"  STAR's own choice (OptSize {star['opt_size']:,} bytes): d_tar={star['d_tar']}, d_sar={star['d_sar']}: "
          f"write {star['write_seconds']:.2f} s, reads {star['read_seconds']:.2f} s")
    print(f"  NetCDF-4-like baseline ({base['label']}): write {base['write_seconds']:.2f} s, "
          f"reads {base['read_seconds']:.2f} s")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    queries = list(rec["reads"])
    print(f"  {'d_tar':>5} {'d_sar':>5} {'files':>6} {'write s':>8} " + " ".join(f"{q:>22}" for q in queries))
    for r in a["alternatives"]:
        memory = "" if r["fits_memory"] else "  (buffer does not fit memory)"
        print(f"  {r['d_tar']:>5} {r['d_sar']:>5} {r['files']:>6} {r['write_seconds']:8.2f} "
              + " ".join(f"{r['reads'][q]:22.3f}" for q in queries) + memory)
    print("model and its validation: docs/scale.md")
    return 0


def _advise_grid(args: argparse.Namespace) -> int:
    from ..planning import advise

    dims = _ints(args.dims, "--dims", 3) or (1024, 1024, 1024)
    a = advise(args.machine, args.ranks, kind="grid", dims=dims, fields=args.fields, sample_bytes=args.sample_bytes,
               partitions=_ints(args.partitions, "--partitions"))
    if args.json:
        _print_json(None, a)
        return 0
    rec = a["recommended"]
    print(a["description"])
    print(f"{a['ranks']:,} ranks write a {'x'.join(map(str, a['dims']))} grid of {a['fields']} field(s) of "
          f"{a['sample_bytes']} bytes ({rec['bytes'] / 1e9:,.2f} GB per step)")
    print(f"recommended: {rec['partitions']} partition(s), {rec['aggregation']} aggregation: {rec['files']:,} files, "
          f"{rec['throughput'] / 1e9:.1f} GB/s predicted ({rec['seconds']:.2f} s, bound by {rec['bottleneck']})")
    if a["close"]:
        print(f"  within 10 % of it (the model does not tell these apart): {', '.join(a['close'])}")
    print(f"  {'layout':<40} {'files':>7} {'senders':>8} {'GB/s':>7} {'seconds':>8}  bound by")
    for r in a["alternatives"]:
        print(f"  {r['label']:<40} {r['files']:>7,} {r['senders_per_aggregator']:>8,} {r['throughput'] / 1e9:7.1f} "
              f"{r['seconds']:8.2f}  {r['bottleneck']}")
    print("model and its validation: docs/scale.md")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ..demo import main as demo_main

    return demo_main(args.output, args.particles)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="lodex", description="lodex: parallel I/O for simulation output. A dataset holds particle groups "
        "(level of detail, box reads, bitmap-index value queries), grids (multiresolution IDX, readable by "
        "OpenVisus) and series (STAR time series); these commands inspect, read, index, query, export and "
        "import them, and draw pictures of them.")
    parser.add_argument("--version", action="version", version=f"lodex {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="list particle groups, grids and series: schemas, steps and files")
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--files", action="store_true", help="also list every file: particle files' boxes and "
                                                        "counts, grid steps' block files, series windows")
    p.set_defaults(func=_info)
    p = sub.add_parser("read", help="read a step of particles (a box, a level of detail, a fraction) "
                                     "or of a grid (a box at a resolution), or a hyperslab of a series "
                                     "variable (steps and a box)")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("variable", nargs="?", help="series: the variable to read")
    p.add_argument("--step", type=int, help="the step (particles and grids: required)")
    p.add_argument("--steps", help="series: steps to read: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--box", help="x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max)")
    lod = p.add_mutually_exclusive_group()
    lod.add_argument("--level", type=int, help="levels 0..L of the paper's level-of-detail order")
    lod.add_argument("--fraction", type=float, help="this share of the particles, a fair sample")
    p.add_argument("--readers", type=int, help="n in x(n,l) = n*P*S^l (default 1)")
    p.add_argument("--P", type=int, help="particles per reader in level 0 (default 32)")
    p.add_argument("--S", type=float, help="level scale (default 2)")
    p.add_argument("--fields", help="comma-separated fields to read (default all)")
    p.add_argument("--count", action="store_true", help="print only the number of particles")
    p.add_argument("--out", help="save the result to exactly this file; the format follows the extension: .npz "
                                 "(one array per field) or .npy (grids, series, or particles with one --fields)")
    p.add_argument("--resolution", type=int, help="grids: levels 0..R of the IDX hierarchy (default all)")
    p.add_argument("--field", help="grids: the field to read (default the first)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (a full read of more than 64 MiB "
                                                        "shows one on a terminal)")
    p.set_defaults(func=_read)
    p = sub.add_parser("index", help="build bitmap indexes of particle fields (under mpiexec: in parallel)")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("--fields", help="comma-separated fields to index (default all)")
    binning = p.add_mutually_exclusive_group()
    binning.add_argument("--precision", type=int, help="precision binning: bin edges of this many "
                                                      "significant digits (default 3)")
    binning.add_argument("--bins", type=int, help="equal-weight binning with this many bins")
    p.add_argument("--steps", help="steps to index: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_index)
    p = sub.add_parser("query", help="particles whose values match a query, e.g. \"energy > 1.3 && x < 3\"")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("query")
    p.add_argument("--step", type=int, required=True)
    p.add_argument("--box", help="x0,y0,z0:x1,y1,z1 (inclusive min : exclusive max)")
    p.add_argument("--level", type=int, help="only each file's rows of levels 0..L (a fair sample)")
    p.add_argument("--fields", help="comma-separated fields of the matches to return")
    p.add_argument("--count", action="store_true", help="print only the number of matches")
    p.add_argument("--scan", action="store_true", help="ignore the bitmap indexes (for comparison)")
    p.add_argument("--out", help="save the matches as .npz: rows/<file> row ids and one array per field "
                                 "(all fields unless --fields)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_query)
    p = sub.add_parser("truncate", help="remove every step after a checkpoint's step, to restart a simulation "
                                         "from it (under mpiexec: collective)")
    p.add_argument("path")
    p.add_argument("--after", type=int, required=True, help="keep the steps up to this one; -1 removes every step")
    p.add_argument("--group", help="only this particle group, grid or series (default: every group at once)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_truncate)
    p = sub.add_parser("unlock", help="remove the writer lock a writer that is gone left behind (a dead "
                                       "process of this host; --force for one of another host)")
    p.add_argument("path")
    p.add_argument("--force", action="store_true", help="remove it even if its holder may be alive (a holder on "
                                                        "another host cannot be checked): only when sure it is gone")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=_unlock)
    p = sub.add_parser("export", help="write steps of a particle group to another format (H5Part, for "
                                       "VisIt and ParaView)")
    p.add_argument("path")
    p.add_argument("group")
    p.add_argument("--format", default="h5part",
                   help="output format: h5part (the default) or openpmd (--out series_%%T.h5 or .bp)")
    p.add_argument("--out", required=True, help="the file to write")
    p.add_argument("--steps", help="steps to export: 3, 0,2,5 or 0:30 (default all)")
    p.add_argument("--fields", help="comma-separated fields to export (default all)")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    p.add_argument("--max-bytes", type=int, help="read a step larger than this in spatial pieces "
                                                 "(default 1 GiB)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_export)
    p = sub.add_parser("import", help="import an H5Part file into a particle group (under mpiexec: "
                                       "in parallel)")
    p.add_argument("input", help="the H5Part file, or the openPMD series (--format openpmd; group: its species)")
    p.add_argument("--format", default="h5part", choices=("h5part", "openpmd"), help="input format")
    p.add_argument("path", help="the dataset (created if missing)")
    p.add_argument("group")
    p.add_argument("--domain", help="x0,y0,z0,x1,y1,z1 (default: stored by lodex export, else the "
                                    "particles' bounds)")
    p.add_argument("--steps", help="steps to import: 3, 0,2,5 or 0:30 (default all)")
    part = p.add_mutually_exclusive_group()
    part.add_argument("--partition-grid", help="gx,gy,gz: cut the domain into this grid of files")
    part.add_argument("--particles-per-file", type=int, help="adaptive partition with about this many "
                                                             "particles per file")
    p.add_argument("--index", help="comma-separated fields to build bitmap indexes of")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_import)
    p = sub.add_parser("calibrate", help="measure BW_io, Ts and CC (series' OptSize) on a directory's "
                                          "file system (under mpiexec: CC between ranks)")
    p.add_argument("directory", help="where the series will be written (a scratch file goes there)")
    p.add_argument("--size", type=float, default=64, help="scratch file size in MiB (default 64, at least 1)")
    p.add_argument("--repeats", type=int, default=5, help="passes over the request sizes (default 5)")
    p.add_argument("--out", help="save the calibration as JSON (for ds.series(..., calibration=PATH))")
    p.add_argument("--json", action="store_true", help="print the calibration as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none when stderr is not a terminal)")
    p.set_defaults(func=_calibrate)
    p = sub.add_parser("advise", help="recommend a particle partition factor, series degrees (d_tar, d_sar) or "
                                       "grid partitions for a machine and scale (the scale model of docs/scale.md "
                                       "driven by lodex's planners)")
    p.add_argument("--kind", choices=("particles", "series", "grid"), default="particles",
                   help="what is written (default particles)")
    p.add_argument("--machine", required=True, help="mira, theta, jaguar, or a saved lodex calibrate result (*.json) "
                                                    "for this machine")
    p.add_argument("--ranks", type=int, required=True, help="ranks writing (a power of two)")
    p.add_argument("--particles-per-rank", type=int, help="particles: required")
    p.add_argument("--bytes-per-particle", type=int, default=124, help="default 124 (the paper's 15 doubles "
                                                                       "and 1 float)")
    p.add_argument("--candidates", help="partition factors to compare, px,py,pz;px,py,pz;... (default the "
                                        "paper's seven)")
    p.add_argument("--adaptive", help="adaptive particles_per_file targets to compare, n,n,... (default the "
                                      "particles of 2, 8 and 32 ranks)")
    p.add_argument("--no-curve", action="store_true", help="skip the curves over rank counts (faster)")
    p.add_argument("--dims", help="series or grid: the grid, x,y,z (series default 576,361,48, GEOS-5 at 0.5 "
                                  "degrees; grid default 1024,1024,1024)")
    p.add_argument("--vars3d", type=int, default=80, help="series: float32 3-D variables (default 80, GEOS-5's)")
    p.add_argument("--vars2d", type=int, default=185, help="series: float32 2-D variables (default 185)")
    p.add_argument("--steps", type=int, default=30, help="series: steps written (default 30)")
    p.add_argument("--readers", type=int, default=16, help="series: ranks reading them back (default 16)")
    p.add_argument("--d-tar", help="series: d_tar candidates, n,n,... (default 1,2,4,8,16,32 up to --steps)")
    p.add_argument("--d-sar", help="series: d_sar candidates, n,n,... (default 0..3 as the decomposition allows)")
    p.add_argument("--fields", type=int, default=1, help="grid: fields (default 1)")
    p.add_argument("--sample-bytes", type=int, default=4, help="grid: bytes per sample (default 4)")
    p.add_argument("--partitions", help="grid: partition counts to compare, n,n,... (default 1..64)")
    p.add_argument("--json", action="store_true", help="print the advice as one JSON object")
    p.set_defaults(func=_advise)
    p = sub.add_parser("demo", help="write and check the paper's workload (run under mpiexec)")
    p.add_argument("--output", default=None, help="dataset path (default: a temporary folder)")
    p.add_argument("--particles", type=int, default=32768, help="particles per rank")
    p.set_defaults(func=_demo)
    from .serve import add_parser as _add_serve
    _add_serve(sub)
    from .paraview import add_parser as _add_paraview
    _add_paraview(sub)
    from .render import add_parser as _add_render
    _add_render(sub)
    argv = list(sys.argv[1:] if argv is None else argv)
    # "--box -1,0,0:1,1,1": argparse would take the negative value for an option; glue it on.
    for i in range(len(argv) - 1):
        if argv[i] in ("--box", "--domain") and argv[i + 1].startswith("-"):
            argv[i:i + 2] = [f"{argv[i]}={argv[i + 1]}"]
            break
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except errors.Error as e:
        if _mpi_rank() == 0:   # under mpiexec every rank has the same error: say it once
            print(f"lodex {args.command}: {type(e).__name__}: {_as_flags(str(e))}", file=sys.stderr)
        return 2


def _version() -> str:
    from .. import __version__
    return __version__


def _mpi_rank() -> int:
    """This process's rank when started by mpiexec, else 0."""
    for var in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK"):
        if os.environ.get(var, "").isdigit():
            return int(os.environ[var])
    return 0


# The Python API's advice, as the command line's flags.
_FLAG_ADVICE = [
    ("partition_grid=(gx, gy, gz) or partition='adaptive' with particles_per_file",
     "--partition-grid gx,gy,gz or --particles-per-file N"),
    ("partition_grid=(gx, gy, gz)", "--partition-grid gx,gy,gz"),
    ("particles_per_file", "--particles-per-file"),
    ("with steps=...", "with --steps"),
    ("steps=...", "--steps"),
]


def _as_flags(message: str) -> str:
    for python, flags in _FLAG_ADVICE:
        message = message.replace(python, flags)
    return message


if __name__ == "__main__":
    sys.exit(main())
