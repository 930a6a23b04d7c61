"""The spellings of the Python API kept for one release after a rename: each use warns with a
DeprecationWarning naming the new spelling (docs/python.md, "Deprecated spellings")."""

from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, Callable


def warn(old: str, new: str, *, stacklevel: int = 3) -> None:
    """A DeprecationWarning "<old> is deprecated: use <new>", pointing at the caller's caller
    (``stacklevel`` 3: the code that called the public function calling this)."""
    warnings.warn(f"{old} is deprecated and goes in the next release: use {new}", DeprecationWarning,
                  stacklevel=stacklevel)


def keyword_options(positional: int, options: tuple[str, ...], where: str) -> Callable:
    """Makes the parameters ``options`` of a function keyword-only while calls passing them
    positionally (after its first ``positional`` arguments, ``self`` included) keep working with a
    DeprecationWarning. The wrapped function declares them keyword-only."""
    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def call(*args: Any, **kw: Any) -> Any:
            if len(args) > positional:
                extra = args[positional:]
                if len(extra) > len(options):
                    raise TypeError(f"{where} takes at most {positional + len(options)} positional arguments")
                names = options[:len(extra)]
                for name in names:
                    if name in kw:
                        raise TypeError(f"{where} got {name} twice")
                warn(f"passing {', '.join(names)} of {where} by position",
                     "keywords (" + ", ".join(f"{n}=..." for n in names) + ")")
                kw.update(zip(names, extra))
                args = args[:positional]
            return fn(*args, **kw)
        return call
    return wrap


def old_order(old: Callable, is_old: Callable[[tuple, dict], bool], old_spelling: str, new_spelling: str,
              rename: dict[str, str] | None = None) -> Callable:
    """Keeps a call in the previous release's argument order working: when ``is_old(args, kw)``
    says a call is one (a data mapping where the new order has the selection, a query string
    where it has the step), its arguments are bound by ``old``'s signature (a function with the
    old parameters, never called), renamed by ``rename``, and passed by keyword to the new
    function, with a DeprecationWarning naming ``new_spelling``."""
    signature = inspect.signature(old)

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def call(*args: Any, **kw: Any) -> Any:
            if not is_old(args, kw):
                return fn(*args, **kw)
            warn(old_spelling, new_spelling)
            given = dict(signature.bind(*args, **kw).arguments)
            self = given.pop("self")
            return fn(self, **{(rename or {}).get(k, k): v for k, v in given.items()})
        return call
    return wrap
