"""What every collective call of the Python side shares: a rank's argument checks reaching the
collective (:func:`_collective_input`, :func:`_join_read`: the core call with a request joined
with the error), the collective truncate, and the one agreement on an outcome computed in Python
(:func:`agreed`: every rank, or rank 0 alone with ``root=0``)."""

from __future__ import annotations

import contextlib
import time
from typing import Any, Callable

from . import _lodex
from ._args import _after
from .errors import Error, InvalidArgumentError, code_of, from_code

@contextlib.contextmanager
def _collective_input(call: Callable[[Any], Any], request: Callable[[], Any], what: str):
    """Checks of one rank's arguments to a collective call: a failure must still reach the
    collective, or the other ranks would wait for this one forever. On a failure, ``call`` (the
    core's collective, e.g. ``group._core.write``) is made with ``request().join(error)`` (an
    empty request of the core's type, e.g. ``_lodex.ParticleWrite``, carrying the error; its
    other fields are not looked at), so every rank raises the same error, this one included."""
    try:
        yield
    except Error as e:
        call(request().join(e))
        raise
    except (TypeError, ValueError, OverflowError) as e:
        call(request().join(InvalidArgumentError(f"cannot use the {what}: {e}")))
        raise


def _join_read(call: Callable[[Any], Any], request: Callable[[], Any], error: BaseException, comm: Any) -> None:
    """A read collective over ``comm`` (mpi4py) whose arguments failed on this rank before it
    reached the core: ``call(request(comm=comm).join(error))``, so every rank raises the lowest failing
    rank's error (prefixed "rank r: "; raised here too; an exception not lodex's becomes an
    internal error, as in :func:`agreed`). Serial or one rank: returns, and the caller raises
    ``error``."""
    if comm is not None and comm.Get_size() > 1:
        call(request(comm=comm).join(error))


def _truncate(core: Any, after: Any) -> list[tuple[str, str, list[int]]]:
    """Collective: ``core.truncate`` (a group's or the dataset's) with its argument checked on
    every rank; (group, kind, removed steps) per group."""
    with _collective_input(core.truncate, _lodex.Truncate, "truncate arguments"):
        after = _after(after)
    return [(name, kind, list(steps)) for name, kind, steps in core.truncate(_lodex.Truncate(after=after))]


def agreed(comm: Any, fn: Callable[[], Any], *, root: int | None = None, undo: Callable[[Any], None] | None = None,
           wait: Callable[[Any], None] | None = None) -> Any:
    """``fn()`` with its outcome agreed on over ``comm`` (mpi4py; None: just ``fn()``), so that no
    rank goes on to a collective alone: every rank returns, or every rank raises the error of the
    lowest failing rank r, prefixed "rank r: " (the failing rank too; an exception not lodex's
    becomes an internal error).

    ``root=None``: every rank runs ``fn`` (one allgather); a rank whose ``fn`` succeeded while
    another's failed calls ``undo(its result)`` first. ``root=r``: rank r alone runs ``fn`` and
    every rank returns its result (one broadcast). ``wait(comm)``, when given, is how the ranks
    done first wait for the others before the agreement (:func:`idle_barrier`: sleeping rather
    than spinning in MPI's allgather or broadcast)."""
    if comm is None:
        return fn()
    out = err = None
    if root is None or comm.Get_rank() == root:
        try:
            out = fn()
        except BaseException as e:   # noqa: BLE001 - agreed on below, then raised everywhere
            err = e
    report = None if err is None else (code_of(err), str(err))
    if wait is not None:
        wait(comm)
    if root is None:
        reports = list(enumerate(comm.allgather(report)))
    else:
        outcome = comm.bcast((report, out if report is None else None), root=root)
        report, out = outcome
        reports = [(root, report)]
    failed = [(r, rep) for r, rep in reports if rep is not None]
    if not failed:
        return out
    if err is None and undo is not None and root is None:
        undo(out)
    if err is not None and not isinstance(err, Exception):
        raise err   # an interrupt stays one, here; the other ranks were told
    r, (code, message) = failed[0]
    raise from_code(code, f"rank {r}: {message}") from err


def idle_barrier(comm: Any) -> None:
    """A barrier that sleeps between polls instead of spinning as MPI's does: ranks with nothing
    to do (waiting for rank 0 to measure or to write a one-file series alone, or done first with
    their share) leave the cores to the ranks at work when there are more ranks than cores."""
    req = comm.Ibarrier()
    while not req.Test():
        time.sleep(0.0005)
