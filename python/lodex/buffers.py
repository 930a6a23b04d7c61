"""Zero-copy input of a particle step (``ParticleGroup.buffers``): numpy arrays over the memory the
write reads, filled in place, then committed."""

from __future__ import annotations

import weakref
from typing import Any, Iterator, Mapping

import numpy as np

from . import _lodex
from .errors import Error, InvalidArgumentError
from .pending import PendingWrite


class StepBuffers(Mapping):
    """One rank's buffers of an open particle step (returned by :meth:`ParticleGroup.buffers`): a
    mapping of field name -> writable numpy array, to be filled in place and committed.

    ``b[name]`` is field ``name``'s rows: shape (count,) for a field of one component, (count, c)
    for c components, the schema's dtype, C order. With ``positions="components"`` the position
    field is three arrays (structure of arrays): ``b["position"]`` is a (3, count) array whose
    rows are x, y and z (``x, y, z = b["position"]``), and ``b["position/x"]`` (``/y``, ``/z``)
    is one row of it. The same name gives the same array every time.

    The commit is collective (every rank commits, as every rank writes): leaving a ``with`` block
    normally commits and waits, as ``write``; :meth:`commit` with ``wait=False`` returns a
    :class:`PendingWrite`, as ``write(..., wait=False)`` (the buffers are lodex's: nothing of the
    caller's to keep unchanged). An exception inside the ``with`` block discards the step on
    every rank: the raising rank joins the commit with its error, so the other ranks' commits
    raise it, prefixed "rank r: " (a lodex error as it is, any other exception as an
    InvalidArgumentError naming it), and nothing of the step is written; the raising rank gets
    its own exception. Buffers dropped without a commit are discarded on this rank.

    Memory safety: the arrays never point at the buffers themselves, which the group reuses for
    its next step, but at a second mapping of their pages that the arrays own. The commit (or a
    discard) replaces the mapping of every array still alive by fresh zero pages before the write
    reads the rows, and marks the arrays handed out read-only: an array kept after the commit
    reads zeros, and a view made of it still writable writes only into pages nothing else sees.
    No use of an array can crash, reach the step being written or alias a later step's buffers.
    (A mapping no array holds at the commit is unreachable; it is kept and serves the next step
    whose rows lie in the same memory, so a loop that keeps no array pays no mapping per step.)
    After the commit ``b[name]`` is an InvalidArgumentError, as is a second commit (local
    misuses: nothing is collective then)."""

    def __init__(self, group: Any, views: Any, step: int, count: int, components: bool):
        self._group = group
        self._views = views
        self.step = step
        self.count = count
        self._arrays: dict[str, np.ndarray] = {}
        names = list(group.schema)
        if components:
            names += [f"position/{a}" for a in "xyz"]
        self._names = names

    def __getitem__(self, name: str) -> np.ndarray:
        if not self._views.open:
            raise InvalidArgumentError(f"the buffers of step {self.step} of group '{self._group.name}' are committed "
                                       "or discarded; their arrays read zeros now: open buffers for another step")
        if not isinstance(name, str):
            raise InvalidArgumentError(f"field names are strings, got {name!r}")
        a = self._arrays.get(name)
        if a is None:
            a = self._arrays[name] = self._views.array(name)
        return a

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names

    @property
    def open(self) -> bool:
        """Whether the step is still open (not committed nor discarded)."""
        return bool(self._views.open)

    @property
    def in_window(self) -> bool:
        """Whether some field of this rank lies in a node's shared window (the write then copies
        nothing of it); False once committed."""
        return bool(self._views.in_window)

    def commit(self, wait: bool = True) -> PendingWrite | None:
        """Collective: writes the step from the rows filled in, as ``ParticleGroup.write`` with
        the same data would (the same files, byte for byte). The positions are checked here
        (finite, inside the domain and inside the patch the buffers were opened with); an error
        is raised on every rank and discards the step. ``wait=False``: returns a
        :class:`PendingWrite` and the step completes at the group's next collective call."""
        if not self._views.open:
            raise InvalidArgumentError(f"the buffers of step {self.step} of group '{self._group.name}' are already "
                                       "committed or discarded")
        alive = self._release()
        try:
            self._views.commit(_lodex.BuffersCommit(wait=bool(wait)))
        finally:
            self._seal(alive)
        return None if wait else PendingWrite(self._group, self.step)

    def _abort(self, error: BaseException) -> None:
        """Collective: the commit joined with ``error`` (raised on every rank; the step discarded)."""
        if not isinstance(error, Error):
            error = InvalidArgumentError(f"step {self.step}'s buffers were discarded: {type(error).__name__} "
                                         f"raised while they were filled: {error}")
        alive = self._release()
        try:
            self._views.commit(_lodex.BuffersCommit().join(error))
        except Error:
            pass   # this rank raises its own exception
        finally:
            self._seal(alive)

    def _release(self) -> list:
        """Drops this object's references to the arrays (weak ones returned): an array nobody
        else holds is gone before the commit, and its mapping is kept for the next step."""
        alive = [weakref.ref(a) for a in self._arrays.values()]
        self._arrays.clear()
        return alive

    @staticmethod
    def _seal(alive: list) -> None:
        for ref in alive:
            a = ref()
            if a is not None:   # revoked by the commit: read-only from now on
                a.flags.writeable = False

    def __enter__(self) -> "StepBuffers":
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if not self._views.open:
            return False   # committed inside the block
        if exc is not None:
            self._abort(exc)
            return False
        self.commit()
        return False

    def __del__(self) -> None:
        views = getattr(self, "_views", None)
        if views is not None and views.open:   # dropped uncommitted: nothing of the step is written here
            alive = self._release()
            views.discard()
            self._seal(alive)

    def __repr__(self) -> str:
        state = "open" if self.open else "closed"
        return f"<lodex.StepBuffers step={self.step} count={self.count} {state} fields={self._names}>"
