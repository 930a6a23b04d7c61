"""The HTTP server of ``lodex serve``: the standard library's ThreadingHTTPServer, one read-only
dataset opened once, reads serialised by a lock (one dataset handle, one viewer), every failure
answered with a JSON message and the server kept serving."""

from __future__ import annotations

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from .. import errors
from . import endpoints
from .params import Params

VIEWER_DIR = os.path.join(os.path.dirname(__file__), "viewer")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".map": "application/json", ".svg": "image/svg+xml"}
_STATUS = [(errors.InvalidArgumentError, 400), (errors.UnsupportedError, 400),
           (errors.NotFoundError, 404)]   # other lodex errors: 500 (the data, not the request)
ENDPOINTS = {"/api/particles": endpoints.particles, "/api/query": endpoints.query,
             "/api/grid": endpoints.grid, "/api/series": endpoints.series}


def viewer_files() -> dict[str, str]:
    """URL path -> file of the built viewer: a fixed table made at start-up from the package's
    own folder, so no part of a request ever becomes a path."""
    files = {}
    for root, _, names in os.walk(VIEWER_DIR):
        for n in names:
            full = os.path.join(root, n)
            rel = os.path.relpath(full, VIEWER_DIR).replace(os.sep, "/")
            if os.path.splitext(n)[1] in _TYPES:
                files["/" + rel] = full
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, dataset, host: str, port: int, quiet: bool = False):
        self.dataset = dataset
        self.lock = threading.Lock()
        self.static = viewer_files()
        self.quiet = quiet
        self.refinements = endpoints.Refinements()
        self.endpoints = {**ENDPOINTS,
                          "/api/particles": lambda ds, p: endpoints.particles(ds, p, self.refinements)}
        super().__init__((host, port), Handler)

    def server_close(self) -> None:
        """Stop listening, drop the kept refinements and close the dataset."""
        super().server_close()
        with self.lock:
            self.refinements.clear()
            self.dataset.close()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "lodex-serve"

    def do_GET(self) -> None:
        try:
            self._route(urlsplit(self.path))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except errors.Error as e:
            self._error(_status_of(e), f"{type(e).__name__}: {e}")
        except Exception as e:   # noqa: BLE001 - a bug must not stop the server or leak a traceback
            print(f"lodex serve: internal error on {self.path!r}: {type(e).__name__}: {e}", file=sys.stderr)
            self._error(500, "internal error (see the server's log)")

    def do_POST(self) -> None:
        self._error(405, "the API is read-only: use GET")

    do_PUT = do_DELETE = do_PATCH = do_POST

    def _route(self, url) -> None:
        path = url.path
        if path == "/api/info":
            Params(url.query).done()
            with self.server.lock:
                out = endpoints.info(self.server.dataset)
            return self._send(200, json.dumps(out).encode(), "application/json")
        if path == "/api/range":
            with self.server.lock:
                out = endpoints.value_range(self.server.dataset, Params(url.query))
            return self._send(200, json.dumps(out).encode(), "application/json")
        if path in ENDPOINTS:
            with self.server.lock:
                frame = self.server.endpoints[path](self.server.dataset, Params(url.query))
            body = frame.encode()
            return self._send(200, body, "application/octet-stream",
                              {"X-Lodex-Read-Stats": json.dumps(frame.stats),
                               "X-Lodex-Count": str(frame.meta.get("count", ""))})
        if path in self.server.static:
            with open(self.server.static[path], "rb") as f:
                body = f.read()
            return self._send(200, body, _TYPES[os.path.splitext(self.server.static[path])[1]])
        known = ["/api/info", "/api/range", *ENDPOINTS, *sorted(self.server.static)]
        self._error(404, f"no such endpoint {path!r}; known: {', '.join(known)}")

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's errors (a malformed request line, a line too long, an unknown
        method) as JSON like every other error."""
        self.close_connection = True
        self._error(code, message or explain or "bad request")

    def _send(self, status: int, body: bytes, ctype: str, headers: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _error(self, status: int, message: str) -> None:
        self._send(status, json.dumps({"error": message, "status": status}).encode(), "application/json")

    def log_message(self, format: str, *args) -> None:   # noqa: A002 - the base class's name
        if not self.server.quiet:
            super().log_message(format, *args)


def _status_of(e: errors.Error) -> int:
    for cls, status in _STATUS:
        if isinstance(e, cls):
            return status
    return 500


def make_server(path: str, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False) -> Server:
    """A server on ``host:port`` (port 0: any free port; see ``Server.url``) over the dataset at
    ``path``, opened read-only; call ``serve_forever()``."""
    import lodex
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise errors.InvalidArgumentError(f"port must be an integer in 0..65535, got {port!r}")
    ds = lodex.open(path)
    try:
        return Server(ds, host, port, quiet)
    except OSError as e:   # the address is taken, not ours, or not a host name
        ds.close()
        raise errors.IOFailure(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
