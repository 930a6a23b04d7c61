"""The ``lodex`` command line: ``lodex info``, ``lodex demo``."""

from __future__ import annotations

import argparse
import json
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
                "files": [{"file": f["file"], "partition": f["partition"],
                           "partition_box": [list(f["partition_box"]["min"]),
                                             list(f["partition_box"]["max"])],
                           "bounds": [list(f["bounds"]["min"]), list(f["bounds"]["max"])],
                           "count": f["count"], "bytes": f["file_bytes"]} for f in files],
            })
        mode, dims = g.partition
        out["groups"][name] = {
            "kind": "particles",
            "schema": {n: {"dtype": d, "components": c} for n, (d, c) in g.schema.items()},
            "domain": [list(g.domain[0]), list(g.domain[1])],
            "partition": {"mode": mode, "dims": list(dims)},
            "steps": steps,
        }
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
        return 0
    print(f"dataset {out['path']}")
    for name, g in out["groups"].items():
        schema = ", ".join(f"{n}:{v['dtype']}" + (f"x{v['components']}" if v["components"] > 1 else "")
                           for n, v in g["schema"].items())
        print(f"particles '{name}'  schema {{{schema}}}")
        print(f"  domain {g['domain'][0]} - {g['domain'][1]}, partition {g['partition']['mode']} "
              f"{tuple(g['partition']['dims'])}, {len(g['steps'])} steps")
        for s in g["steps"]:
            print(f"  step {s['step']}: {s['particles']:,} particles in {len(s['files'])} files")
            if args.files:
                for f in s["files"]:
                    print(f"    {f['file']}  box {f['partition_box'][0]} - {f['partition_box'][1]}  "
                          f"count {f['count']:,}  {f['bytes']:,} bytes")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from ..demo import main as demo_main

    return demo_main(args.output, args.particles)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="lodex", description="lodex parallel particle I/O")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("info", help="list groups, schemas, steps and files of a dataset")
    p.add_argument("path")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--files", action="store_true", help="also list every file's box and count")
    p.set_defaults(func=_info)
    p = sub.add_parser("demo", help="write and check the paper's workload (run under mpiexec)")
    p.add_argument("--output", default=None, help="dataset path (default: a temporary folder)")
    p.add_argument("--particles", type=int, default=32768, help="particles per rank")
    p.set_defaults(func=_demo)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except errors.Error as e:
        print(f"lodex {args.command}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
