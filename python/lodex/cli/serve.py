"""``lodex serve DATASET [--port P] [--host H] [--token T | --no-token] [limits]``: the HTTP API
and viewer of docs/serve.md."""

from __future__ import annotations

import argparse
import os
import sys

TOKEN_ENV = "LODEX_SERVE_TOKEN"


def add_parser(sub) -> None:
    from ..serve.params import Limits
    d = Limits()
    p = sub.add_parser("serve", help="serve a dataset to a browser: a read-only HTTP API and a viewer "
                                     "that streams level of detail (docs/serve.md)")
    p.add_argument("path", help="the dataset directory")
    p.add_argument("--port", type=int, default=8000, help="TCP port (0: any free port; default 8000)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; reach it "
                        "from elsewhere through an SSH tunnel)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--token", help=f"the token a client must give (default: ${TOKEN_ENV}, else a new "
                                     "random one, printed in the URL)")
    who.add_argument("--no-token", action="store_true",
                     help="no token: any user of this machine can read the dataset")
    p.add_argument("--max-response-bytes", type=int, default=d.max_response_bytes,
                   help=f"largest data response; bigger is a 413 (default {d.max_response_bytes})")
    p.add_argument("--max-query-chars", type=int, default=d.max_query_chars,
                   help=f"longest query text on /api/query (default {d.max_query_chars})")
    p.add_argument("--max-query-terms", type=int, default=d.max_query_terms,
                   help=f"most comparisons in a query (default {d.max_query_terms})")
    p.add_argument("--max-requests", type=int, default=d.max_requests,
                   help=f"requests answered at once; more get 503 (default {d.max_requests})")
    p.add_argument("--idle-timeout", type=float, default=d.idle_timeout,
                   help=f"seconds a connection may stay silent or stop reading (default {d.idle_timeout:g})")
    p.add_argument("--max-connections", type=int, default=d.max_connections,
                   help=f"connections open at once, one thread each; more get 503 (default {d.max_connections})")
    p.add_argument("--quiet", action="store_true", help="no request log")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..serve import Limits, make_server

    limits = Limits(args.max_response_bytes, args.max_query_chars, args.max_query_terms,
                    args.max_requests, args.idle_timeout, args.max_connections)
    token = False if args.no_token else args.token or os.environ.get(TOKEN_ENV) or True
    server = make_server(args.path, args.host, args.port, args.quiet, token, limits)
    try:   # Ctrl-C right after the address is printed stops cleanly too
        if server.token is None:
            print(f"lodex serve: warning: --no-token: any user of this machine can read {args.path} "
                  f"through {server.url}/", file=sys.stderr, flush=True)
        print(f"lodex serve: {args.path} at {server.login_url} (Ctrl-C stops)", flush=True)
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
