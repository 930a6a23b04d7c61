"""The HTTP server of ``lodex serve``: the standard library's ThreadingHTTPServer, one read-only
dataset opened once, reads serialised by a lock (one dataset handle, one viewer), every failure
answered with a JSON message and the server kept serving. Every request is admitted first (a
free request slot, an allowed Host, the token: server.access) and bounded (docs/serve.md,
"Security and limits")."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from .. import errors
from . import access, endpoints
from .params import LimitExceeded, Limits, Params, check_query

VIEWER_DIR = os.path.join(os.path.dirname(__file__), "viewer")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".map": "application/json", ".svg": "image/svg+xml"}
_STATUS = [(LimitExceeded, 413), (errors.InvalidArgumentError, 400), (errors.UnsupportedError, 400),
           (errors.NotFoundError, 404)]   # other lodex errors: 500 (the data, not the request)
_TOKEN = re.compile(r"[A-Za-z0-9._~-]{1,256}")
JSON_ENDPOINTS = {"/api/range": endpoints.value_range, "/api/count": endpoints.count}
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


class Refused(Exception):
    """A request turned away before routing: its status, message and extra headers."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.headers = status, headers or {}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, dataset, host: str, port: int, quiet: bool = False, token: str | None = None,
                 limits: Limits = Limits()):
        self.dataset = dataset
        self.lock = threading.Lock()   # the dataset's objects: one thread at a time
        self.static = viewer_files()
        self.quiet = quiet
        self.token = token
        self.limits = limits
        self.slots = threading.BoundedSemaphore(limits.max_requests)
        self.busy = 0                  # reading requests in progress (for the tests)
        self.connections = 0           # open connections, each with its thread
        self._open: set = set()        # their sockets (closed on server_close)
        self._busy_lock = threading.Lock()
        self.info = _snapshot(dataset)   # /api/info, served without the lock
        self.refinements = endpoints.Refinements()
        self.samples = endpoints.BoxLevels()   # the level counts of the boxes sampled
        self.endpoints = {**ENDPOINTS,
                          "/api/particles": lambda ds, p: endpoints.particles(ds, p, self.refinements,
                                                                              self.samples)}
        super().__init__((host, port), Handler)
        self.host_names = access.allowed_names(host)

    def server_close(self) -> None:
        """Stop listening, end the open connections (their threads hold the server), drop the
        kept refinements and close the dataset."""
        super().server_close()
        self._end_connections()
        with self.lock:
            self.refinements.clear()
            self.samples.clear()
            self.dataset.close()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def login_url(self) -> str:
        """The viewer's address with the token: what the command prints."""
        return f"{self.url}/?token={self.token}" if self.token else f"{self.url}/"

    @property
    def cookie_name(self) -> str:
        # cookies are shared by every port of a host: one name per server port
        return f"lodex-serve-token-{self.server_address[1]}"

    def process_request(self, request, client_address) -> None:
        """A thread for the connection, or over --max-connections a 503 from here and no thread
        (silent connections cannot pile up threads)."""
        with self._busy_lock:
            full = self.connections >= self.limits.max_connections
            if not full:
                self.connections += 1
                self._open.add(request)
        if full:
            return self._turn_away(request)
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._busy_lock:
                self.connections -= 1
                self._open.discard(request)

    def _end_connections(self, wait: float = 5.0) -> None:
        with self._busy_lock:
            open_ = list(self._open)
        for sock in open_:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)   # its thread's read or write ends now
        deadline = time.monotonic() + wait
        while self.connections and time.monotonic() < deadline:
            time.sleep(0.01)

    def _turn_away(self, request) -> None:
        n = self.limits.max_connections
        body = json.dumps({"error": f"busy: this server keeps {n} connections open at once "
                                    f"(--max-connections); retry shortly", "status": 503}).encode()
        head = (f"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nRetry-After: 1\r\n\r\n").encode()
        try:
            request.settimeout(0.5)   # a fresh socket's buffer takes these few bytes at once
            request.sendall(head + body)
            request.settimeout(0.05)   # read the request already sent: closing on unread bytes
            request.recv(65536)        # would reset the connection before the client reads the 503
        except OSError:
            pass
        finally:
            self.shutdown_request(request)

    def take_slot(self) -> bool:
        if not self.slots.acquire(blocking=False):
            return False
        with self._busy_lock:
            self.busy += 1
        return True

    def free_slot(self) -> None:
        with self._busy_lock:
            self.busy -= 1
        self.slots.release()


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "lodex-serve"

    def setup(self) -> None:
        self.timeout = self.server.limits.idle_timeout   # every read and write of the socket
        super().setup()

    def do_GET(self) -> None:
        try:
            url = urlsplit(self.path)
            query = self._admit(url)
            if query is not None:
                self._route(url.path, query)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True   # the client went away, or stopped reading
        except Refused as e:
            self._error(e.status, str(e), e.headers)
        except errors.Error as e:
            self._error(_status_of(e), f"{type(e).__name__}: {e}")
        except Exception as e:   # noqa: BLE001 - a bug must not stop the server or leak a traceback
            print(f"lodex serve: internal error on {self.path!r}: {type(e).__name__}: {e}", file=sys.stderr)
            self._error(500, "internal error (see the server's log)")

    def do_POST(self) -> None:
        self._error(405, "the API is read-only: use GET")

    do_PUT = do_DELETE = do_PATCH = do_POST

    def _admit(self, url) -> str | None:
        """The query string to route (the token taken out), None when answered here (the
        token-in-URL redirect); Refused when the Host or the token is not this server's."""
        host = self.headers.get("Host")
        if host is not None and not access.host_allowed(host, self.server.host_names):
            raise Refused(403, f"Host {host!r} is not an address of this server (a page of another "
                               f"site cannot read through it); use http://127.0.0.1:{self.server.server_address[1]}/")
        token = self.server.token
        query, given = access.pop_token(url.query)
        if token is None:
            return query   # a token given to a server without one is ignored
        if given is not None:
            if not access.same(given, token):
                raise Refused(403, "wrong token: use the URL lodex serve printed at start")
            if url.path.startswith("/api/"):
                return query
            return self._login(url.path, query, token)
        if access.same(access.header_token(self.headers.get("Authorization")), token) or \
                access.same(access.cookie_token(self.headers.get("Cookie"), self.server.cookie_name), token):
            return query
        raise Refused(403, "this server needs its token: open the URL lodex serve printed at start "
                           "(.../?token=...), or send the header 'Authorization: token <token>'")

    def _login(self, path: str, query: str, token: str) -> None:
        """The token as a cookie, and the same page again without it in the address bar."""
        self.send_response(302)
        self.send_header("Location", path + ("?" + query if query else ""))
        self.send_header("Set-Cookie", f"{self.server.cookie_name}={token}; Path=/; HttpOnly; SameSite=Strict")
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def _route(self, path: str, query: str) -> None:
        if path == "/api/info":
            Params(query).done()
            if isinstance(self.server.info, errors.Error):
                raise self.server.info
            return self._send(200, self.server.info, "application/json")
        if path in JSON_ENDPOINTS or path in ENDPOINTS:
            with self._slot():
                return self._read(path, Params(query))
        if path in self.server.static:
            with open(self.server.static[path], "rb") as f:
                body = f.read()
            return self._send(200, body, _TYPES[os.path.splitext(self.server.static[path])[1]])
        known = ["/api/info", *JSON_ENDPOINTS, *ENDPOINTS, *sorted(self.server.static)]
        self._error(404, f"no such endpoint {path!r}; known: {', '.join(known)}")

    @contextlib.contextmanager
    def _slot(self):
        """One of the --max-requests slots for a request that reads the dataset, held until its
        response is written (its memory is freed then); none free: 503 at once."""
        if not self.server.take_slot():
            n = self.server.limits.max_requests
            raise Refused(503, f"busy: this server answers {n} requests at once that read the dataset "
                               f"(--max-requests); retry shortly", {"Retry-After": "1"})
        try:
            yield
        finally:
            self.server.free_slot()

    def _read(self, path: str, p: Params) -> None:
        check_query(p.peek("q") if path in ("/api/query", "/api/count") else None, self.server.limits)
        if path in JSON_ENDPOINTS:
            with self.server.lock:
                out = JSON_ENDPOINTS[path](self.server.dataset, p)
            return self._send(200, json.dumps(out).encode(), "application/json")
        with self.server.lock:
            frame = self.server.endpoints[path](self.server.dataset, p)
        self._send_frame(frame)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's errors (a malformed request line, a line too long, an unknown
        method) as JSON like every other error."""
        self.close_connection = True
        self._error(code, message or explain or "bad request")

    def _send_frame(self, frame: endpoints.Frame) -> None:
        """A data response, refused over the byte budget, else written in pieces (each write
        bounded by the idle timeout)."""
        size, budget = frame.nbytes, self.server.limits.max_response_bytes
        if size > budget:
            raise LimitExceeded(f"the response would be {size} bytes, over this server's budget of {budget} "
                                f"bytes (--max-response-bytes): ask for less: a smaller box, a coarser "
                                f"level or resolution, fewer fields or steps")
        self._head(200, size, "application/octet-stream",
                   {"X-Lodex-Read-Stats": json.dumps(frame.stats),
                    "X-Lodex-Count": str(frame.meta.get("count", ""))})
        for chunk in frame.chunks():
            self.wfile.write(chunk)

    def _send(self, status: int, body: bytes, ctype: str, headers: dict | None = None) -> None:
        self._head(status, len(body), ctype, headers)
        self.wfile.write(body)

    def _head(self, status: int, size: int, ctype: str, headers: dict | None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(size))
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()

    def _error(self, status: int, message: str, headers: dict | None = None) -> None:
        self._send(status, json.dumps({"error": message, "status": status}).encode(), "application/json",
                   headers)

    def log_message(self, format: str, *args) -> None:   # noqa: A002 - the base class's name
        if not self.server.quiet:
            super().log_message(format, *args)


def _snapshot(dataset) -> bytes | errors.Error:
    """/api/info as of the start (the dataset is open read-only), or the error that made it
    unreadable (answered on /api/info while the rest keeps serving)."""
    try:
        return json.dumps(endpoints.info(dataset)).encode()
    except errors.Error as e:
        return e


def _status_of(e: errors.Error) -> int:
    for cls, status in _STATUS:
        if isinstance(e, cls):
            return status
    return 500


def make_server(path: str, host: str = "127.0.0.1", port: int = 8000, quiet: bool = False,
                token: str | bool = True, limits: Limits | None = None) -> Server:
    """A server on ``host:port`` (port 0: any free port; see ``Server.url``) over the dataset at
    ``path``, opened read-only; call ``serve_forever()``. ``token``: True (default) a new random
    token (``Server.token``, in ``Server.login_url``), a string that token, False none (any
    local user can read the dataset); ``limits``: ``Limits()`` by default."""
    import lodex
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise errors.InvalidArgumentError(f"port must be an integer in 0..65535, got {port!r}")
    token = _token(token)
    limits = Limits() if limits is None else limits
    ds = lodex.open(path)
    try:
        return Server(ds, host, port, quiet, token, limits)
    except OSError as e:   # the address is taken, not ours, or not a host name
        ds.close()
        raise errors.IOFailure(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    except BaseException:
        ds.close()
        raise


def _token(token: str | bool) -> str | None:
    if token is True:
        return access.new_token()
    if token is False:
        return None
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise errors.InvalidArgumentError("token must be 1 to 256 of the characters A-Z a-z 0-9 . _ ~ - (it goes "
                                          "in a URL and a cookie as is), True (a random one) or False (none)")
    return token
