"""``lodex serve``: a read-only HTTP API and a browser viewer over one dataset (docs/serve.md)."""

from .endpoints import Frame, decode
from .params import Limits
from .server import Server, make_server

__all__ = ["Frame", "Limits", "Server", "decode", "make_server"]
