"""Query-string parameters of the ``lodex serve`` API, checked once at the boundary: every
malformed value is an InvalidArgumentError naming the parameter; names are only ever looked up
in the dataset's own lists, never turned into paths."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from urllib.parse import parse_qs

from ..errors import InvalidArgumentError, NotFoundError

_INT = re.compile(r"-?[0-9]{1,19}")
MAX_LEVEL = 2**16   # far above any real level count (levels grow geometrically); bigger is malformed
MAX_TAKE = 2**62    # a sample's size (the library's largest P): past every real step's particles
MAX_HAVE = 16       # samples a request may name as already held
_COMPARISON = re.compile(r"<=|>=|==|!=|<|>")


class LimitExceeded(InvalidArgumentError):
    """A request over one of the server's limits (HTTP 413): the message names the limit, its
    flag, and how to ask for less."""


@dataclass(frozen=True)
class Limits:
    """What one request may cost (docs/serve.md, "Security and limits")."""
    max_response_bytes: int = 256 * 2**20   # a data response's size
    max_query_chars: int = 4096             # the text of q on /api/query
    max_query_terms: int = 64               # comparisons in q
    max_requests: int = 8                   # reads in progress at once (others: 503)
    idle_timeout: float = 60.0              # seconds a connection may stay silent or not read
    max_connections: int = 64               # open connections, one thread each (others: 503)

    def __post_init__(self):
        for name in ("max_response_bytes", "max_query_chars", "max_query_terms", "max_requests",
                     "max_connections"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidArgumentError(f"{name} must be a positive integer, got {v!r}")
        t = self.idle_timeout
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 < t < math.inf:
            raise InvalidArgumentError(f"idle_timeout must be a positive number of seconds, got {t!r}")


def check_query(q: str | None, limits: Limits) -> None:
    """Refuse a query text over the length or comparison limits before it is parsed or run (a
    query's cost grows with its comparisons, and it holds the dataset while it runs)."""
    if q is None:
        return
    if len(q) > limits.max_query_chars:
        raise LimitExceeded(f"q is {len(q)} characters, over the limit of {limits.max_query_chars} "
                            f"characters (--max-query-chars)")
    n = len(_COMPARISON.findall(q))
    if n > limits.max_query_terms:
        raise LimitExceeded(f"q has {n} comparisons, over the limit of {limits.max_query_terms} "
                            f"(--max-query-terms): split it into several queries")


class Params:
    """The parameters of one request; ``take_*`` consume them, ``done`` rejects the rest."""

    def __init__(self, query: str):
        try:
            raw = parse_qs(query, keep_blank_values=True, strict_parsing=bool(query),
                           max_num_fields=64)
        except ValueError as e:
            raise InvalidArgumentError(f"malformed query string: {e}") from None
        for key, values in raw.items():
            if len(values) > 1:
                raise InvalidArgumentError(f"parameter {key!r} given {len(values)} times")
        self._raw = {k: v[0] for k, v in raw.items()}

    def text(self, key: str, default: str | None = None, required: bool = False) -> str | None:
        if key not in self._raw:
            if required:
                raise InvalidArgumentError(f"missing parameter {key!r}")
            return default
        return self._raw.pop(key)

    def peek(self, key: str) -> str | None:
        """A parameter's value, left in place for the endpoint."""
        return self._raw.get(key)

    def integer(self, key: str, default: int | None = None, required: bool = False,
                least: int = -2**63, most: int = 2**63 - 1) -> int | None:
        s = self.text(key, required=required)
        if s is None:
            return default
        return _int(s, key, least, most)

    def name(self, key: str, known: list[str], kind: str) -> str:
        """A name that must be one of ``known`` (the dataset's own list)."""
        s = self.text(key, required=True)
        if s not in known:
            raise NotFoundError(f"no {kind} {s!r}; the dataset has: {', '.join(known) or 'none'}")
        return s

    def names(self, key: str, known: list[str], kind: str) -> list[str] | None:
        s = self.text(key)
        if s is None:
            return None
        out = s.split(",") if s else []
        for n in out:
            if n not in known:
                raise NotFoundError(f"no {kind} {n!r}; known: {', '.join(known) or 'none'}")
        if len(set(out)) != len(out):
            raise InvalidArgumentError(f"{key} names a {kind} twice: {s!r}")
        return out

    def float_box(self, key: str) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
        """``x0,y0,z0,x1,y1,z1``: finite numbers, min <= max on every axis."""
        s = self.text(key)
        return None if s is None else _float_box(s, key)

    def samples(self, key: str) -> list[tuple[tuple, int, tuple | None]] | None:
        """``x0,y0,z0,x1,y1,z1,T[,cx0,cy0,cz0,cx1,cy1,cz1]`` entries separated by ``;`` (at most
        MAX_HAVE): each a box (as :meth:`float_box`), a sample size T (1 <= T <= MAX_TAKE) and
        optionally a clip box (the part of the sample held; None: all of it)."""
        s = self.text(key)
        if s is None:
            return None
        entries = s.split(";")
        if len(entries) > MAX_HAVE:
            raise InvalidArgumentError(f"{key} names {len(entries)} samples, over the limit of {MAX_HAVE}")
        out = []
        for e in entries:
            parts = e.split(",")
            if len(parts) not in (7, 13):
                raise InvalidArgumentError(f"{key} entries must be x0,y0,z0,x1,y1,z1,T with an optional clip "
                                           f"box of 6 more numbers, got {e!r}")
            clip = _float_box(",".join(parts[7:]), key) if len(parts) == 13 else None
            out.append((_float_box(",".join(parts[:6]), key), _int(parts[6], f"{key}'s sample size", 1, MAX_TAKE),
                        clip))
        return out

    def int_box(self, key: str, ndims: int) -> tuple[list[int], list[int]] | None:
        """``ndims`` integer minima then ``ndims`` maxima (max exclusive, min <= max)."""
        s = self.text(key)
        if s is None:
            return None
        parts = s.split(",")
        if len(parts) != 2 * ndims:
            raise InvalidArgumentError(f"{key} must be {2 * ndims} integers (min then max per axis), got {s!r}")
        v = [_int(p, key, -2**62, 2**62) for p in parts]
        lo, hi = v[:ndims], v[ndims:]
        if any(h < l for l, h in zip(lo, hi)):
            raise InvalidArgumentError(f"{key} {s!r} is not a box: a max is below its min")
        return lo, hi

    def steps(self, key: str) -> list[int] | None:
        """``a,b,c`` or ``a:b`` (b exclusive)."""
        s = self.text(key)
        if s is None:
            return None
        if ":" in s:
            a, _, b = s.partition(":")
            lo, hi = _int(a, key, -2**62, 2**62), _int(b, key, -2**62, 2**62)
            if hi <= lo or hi - lo > 100_000:
                raise InvalidArgumentError(f"{key} {s!r} must be a:b with a < b and at most 100000 steps")
            return list(range(lo, hi))
        return [_int(p, key, -2**63, 2**63 - 1) for p in s.split(",")]

    def done(self) -> None:
        if self._raw:
            raise InvalidArgumentError(f"unknown parameter(s) {', '.join(sorted(self._raw))}")


def _float_box(s: str, key: str) -> tuple[tuple[float, ...], tuple[float, ...]]:
    parts = s.split(",")
    if len(parts) != 6:
        raise InvalidArgumentError(f"{key} must be 6 numbers x0,y0,z0,x1,y1,z1, got {s!r}")
    try:
        v = [float(p) for p in parts]
    except ValueError:
        raise InvalidArgumentError(f"{key} must be 6 numbers x0,y0,z0,x1,y1,z1, got {s!r}") from None
    if not all(math.isfinite(x) for x in v):
        raise InvalidArgumentError(f"{key} must be finite numbers, got {s!r}")
    lo, hi = tuple(v[:3]), tuple(v[3:])
    if any(h < l for l, h in zip(lo, hi)):
        raise InvalidArgumentError(f"{key} {s!r} is not a box: a max is below its min")
    return lo, hi


def _int(s: str, key: str, least: int, most: int) -> int:
    if not _INT.fullmatch(s):
        raise InvalidArgumentError(f"{key} must be an integer, got {s!r}")
    v = int(s)
    if not least <= v <= most:
        raise InvalidArgumentError(f"{key} must be in [{least}, {most}], got {s}")
    return v
