"""A dataset described: what ``lodex info`` shows (as JSON or text), for the command line and
the demos."""

from __future__ import annotations

import os


def describe(ds) -> dict:
    """What ``lodex info --json`` prints of the open dataset ``ds``: every particle group's schema,
    domain, partition and steps (their files and indexes), every grid's and series' definition,
    steps and files."""
    groups = {name: _particle_group(g) for name, g in ds.particles.items()}
    groups.update({name: _grid(g) for name, g in ds.grids.items()})
    groups.update({name: _series(s.meta) for name, s in ds.series.items()})
    return {"path": ds.path, "groups": groups}


def _particle_group(g) -> dict:
    steps = []
    for s in g.steps:
        files = g.files(s)
        steps.append({
            "step": s,
            "particles": sum(f["count"] for f in files),
            "indexes": g.indexes(s),
            "files": [{"file": f["file"], "partition": f["partition"],
                       "partition_box": [list(f["partition_box"]["min"]), list(f["partition_box"]["max"])],
                       "bounds": [list(f["bounds"]["min"]), list(f["bounds"]["max"])],
                       "count": f["count"], "bytes": f["file_bytes"]} for f in files],
        })
    mode, dims = g.partition
    partition = {"mode": mode, "dims": list(dims)}
    if g.particles_per_file is not None:
        partition["particles_per_file"] = g.particles_per_file
    return {
        "kind": "particles",
        "schema": {n: {"dtype": d, "components": c} for n, (d, c) in g.schema.items()},
        "domain": "auto" if g.auto_domain else [list(g.domain[0]), list(g.domain[1])],
        "periodic": list(g.periodic),
        "partition": partition,
        "steps": steps,
    }


def _grid(g) -> dict:
    return {
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
        "steps": [dict(s) for s in g._meta["steps"]],
    }


def _series(m: dict) -> dict:
    return {
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


def print_description(out: dict, files: bool = False) -> None:
    """``lodex info``'s text: ``describe(ds)`` one line per group and step (with ``files``, one
    per file too)."""
    print(f"dataset {out['path']}")
    for name, g in out["groups"].items():
        if g["kind"] == "grid":
            _print_grid(out["path"], name, g, files)
        elif g["kind"] == "series":
            _print_series(name, g)
            if files:
                for w in g["windows"]:
                    print(f"    {name}/{w['file']}  steps {steps_summary(w['steps'])}  {w['bytes']:,} bytes")
        else:
            _print_particles(name, g, files)


def _fields_text(fields: dict) -> str:
    return ", ".join(f"{n}:{v['dtype']}" + (f"x{v['components']}" if v["components"] > 1 else "")
                     for n, v in fields.items())


def _print_grid(path: str, name: str, g: dict, files: bool) -> None:
    where = g["idx"] or f"{len(g['idx_paths'])} IDX datasets, one per partition"
    print(f"grid '{name}'  {' x '.join(str(d) for d in g['dims'])}  fields {{{_fields_text(g['fields'])}}}  ({where})")
    print(f"  bitmask {g['bitmask'] or '(derived at the first write)'}, {g['levels'] or '?'} levels, "
          f"{2 ** g['bits_per_block']} samples per block, {g['blocks_per_file']} blocks per file, "
          f"{g['aggregation']} aggregation, compression {g['compression'] or 'none'}, "
          + (f"{g['partitions']} partitions ({g['index_space']} index space), " if g["partitions"] > 1 else "")
          + f"{len(g['steps'])} steps")
    for s in g["steps"]:
        print(f"  step {s['step']}: {s['files']} files, {s['bytes']:,} bytes, "
              f"written by {s['writer_ranks']} ranks")
        if files:
            for f, size in _grid_step_files(path, name, s["step"]):
                print(f"    {f}  {size:,} bytes")


def _print_particles(name: str, g: dict, files: bool) -> None:
    print(f"particles '{name}'  schema {{{_fields_text(g['schema'])}}}")
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
        if files:
            for f in s["files"]:
                print(f"    {f['file']}  box {f['partition_box'][0]} - {f['partition_box'][1]}  "
                      f"count {f['count']:,}  {f['bytes']:,} bytes")


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
    print(f"  {steps_summary(steps)} in {len(g['windows'])} window files, "
          f"{sum(w['bytes'] for w in g['windows']):,} bytes")


def steps_summary(steps: list[int]) -> str:
    """"3 steps (0, 1, 2)", or for more than 8 "20 steps (0 .. 19)"."""
    if len(steps) > 8:
        return f"{len(steps)} steps ({steps[0]} .. {steps[-1]})"
    return f"{len(steps)} step{'s' if len(steps) != 1 else ''} ({', '.join(map(str, steps))})"
