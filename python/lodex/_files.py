"""Writing a whole file or none of it, for the files lodex's Python side writes for users
(pictures, --out arrays, calibrations, the ParaView loader)."""

from __future__ import annotations

import os
import tempfile
from typing import IO, Callable

from .errors import IOFailure


def replace_whole(path: str | os.PathLike, write: Callable[[IO], None], what: str, *, text: bool = False) -> None:
    """Writes ``path`` through ``write(f)`` into a temporary file in the same directory, renamed
    onto ``path`` at the end: ``path`` is then the complete new file, or untouched (the temporary
    file is removed whatever fails). The file gets the mode a new file would (0666 less the
    umask). An OSError becomes IOFailure "cannot write <what>: <reason>"."""
    path = os.fspath(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                   dir=os.path.dirname(os.path.abspath(path)))
    except OSError as e:
        raise IOFailure(f"cannot write {what}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w" if text else "wb") as f:
            write(f)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        _unlink(tmp)
        raise IOFailure(f"cannot write {what}: {e.strerror or e}") from None
    except BaseException:
        _unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
