"""What H5Part export and import share: the layout's names, the dtypes lodex keeps, h5py on
first use and its errors as lodex errors."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from ..errors import Error, InternalError, IOFailure, NotFoundError, require

DEFAULT_MAX_BYTES = 1 << 30
_STEP_NAME = re.compile(r"Step#(-?[0-9]+)\Z")
_STEP_ATTR = "lodex_step"    # the lodex step of an exported step group (the group is Step#<index>)
_FIELD_NAME = re.compile(r"[A-Za-z0-9_]{1,31}\Z")   # what a lodex schema accepts
_DTYPES = ("f4", "f8", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8")
_COORDS = ("x", "y", "z")
_CHUNK_BYTES = 1 << 20       # chunk size of the exported (resizable) datasets
_SCAN_ROWS = 1 << 22         # rows per h5py read when scanning coordinates
_OS_FAILURE = re.compile(r"errno = [1-9]|file (write|read) failed|No space left on device")


def _h5py():
    return require("h5py", "H5Part support (export and import)", "h5part")


def _short(e: BaseException) -> str:
    """An exception's message on one line (HDF5 messages span several)."""
    return " ".join(str(e).split()) or type(e).__name__


def _lodex_error(e: BaseException, context: str) -> Error:
    """``e`` as a lodex typed error whose message starts with ``context``."""
    if isinstance(e, Error):
        cls = type(e)
    elif isinstance(e, FileNotFoundError):
        cls = NotFoundError
    elif isinstance(e, OSError) or _OS_FAILURE.search(str(e)):
        cls = IOFailure   # h5py raises some of these as RuntimeError (e.g. a flush failing at close)
    else:
        cls = InternalError
    err = cls(f"{context}: {_short(e)}")
    err.__cause__ = e
    return err


def _as_lodex_error(fn: Callable[[], Any], context: str) -> Callable[[], Any]:
    """``fn`` raising a lodex error for any exception (:func:`_lodex_error` with ``context``)."""
    def run():
        try:
            return fn()
        except Error:
            raise
        except Exception as e:
            raise _lodex_error(e, context) from e
    return run


def _dtype_name(dt: np.dtype) -> str:
    return np.dtype(dt).str.lstrip("<>|=")


def _field_datasets(field: str, comps: int) -> list[str]:
    """The H5Part datasets of one lodex field, one per component."""
    if field == "position":
        return list(_COORDS)
    if comps == 1:
        return [field]
    return [f"{field}_{c}" for c in range(comps)]
