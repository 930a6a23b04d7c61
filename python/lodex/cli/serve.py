"""``lodex serve DATASET [--port P] [--host H]``: the HTTP API and viewer of docs/serve.md."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="serve a dataset to a browser: a read-only HTTP API and a viewer "
                                     "that streams level of detail (docs/serve.md)")
    p.add_argument("path", help="the dataset directory")
    p.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port; default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; reach it "
                        "from elsewhere through an SSH tunnel)")
    p.add_argument("--quiet", action="store_true", help="no request log")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..serve import make_server

    server = make_server(args.path, args.host, args.port, args.quiet)
    print(f"lodex serve: {args.path} at {server.url}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    # The server and its endpoints refer to each other: free the cycle (and with it the dataset's
    # native objects) now, not whenever the collector would have run before the interpreter ends.
    del server
    import gc
    gc.collect()
    print("lodex serve: stopped", file=sys.stderr)
    return 0
