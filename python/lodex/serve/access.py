"""Who may use a ``lodex serve`` server: its token (random by default, as Jupyter does) and the
Host header check that stops DNS rebinding. Pure functions over request text; the server calls
them before any read."""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from http.cookies import CookieError, SimpleCookie
from urllib.parse import unquote

WILDCARDS = ("", "0.0.0.0", "::")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def same(given: str | None, token: str) -> bool:
    """Constant-time comparison (no timing hint of how much of a guess was right)."""
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


def pop_token(query: str) -> tuple[str, str | None]:
    """The query string without its ``token`` parameter(s), and the first token given."""
    kept, token = [], None
    for part in query.split("&") if query else []:
        key, eq, value = part.partition("=")
        if key == "token" and eq:
            token = unquote(value) if token is None else token
        else:
            kept.append(part)
    return "&".join(kept), token


def header_token(authorization: str | None) -> str | None:
    """``Authorization: token <t>`` (Jupyter's spelling)."""
    scheme, _, value = (authorization or "").strip().partition(" ")
    return value.strip() if scheme.lower() == "token" and value.strip() else None


def cookie_token(cookie_header: str | None, name: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(cookie_header or "")
    except CookieError:
        return None
    return jar[name].value if name in jar else None


def allowed_names(bound: str) -> frozenset[str]:
    """Host names a request may carry: localhost, the address bound, and when every interface
    is bound, this machine's own names (IP literals are always accepted: see host_allowed)."""
    names = {"localhost", bound.lower().strip("[]")}
    if bound in WILDCARDS:
        names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
    return frozenset(names)


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """A Host header naming an IP address or one of ``names``, any port. DNS rebinding needs the
    browser to send the attacker's own name (its page's origin); an IP literal is the address
    the browser itself connected to, and a tunnel may forward any local port."""
    h = host.strip().lower()
    if h.startswith("["):
        name = h[1:h.find("]")] if "]" in h else h
    else:
        name = h.partition(":")[0]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name in names
