"""H5Part export: steps of a particle group written to one H5Part file, whole or not at all."""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Callable, Iterable

import numpy as np

from .._args import _field_names, _path, _step
from .._collective import agreed
from ..errors import AlreadyExistsError, InternalError, InvalidArgumentError, NotFoundError
from ._common import _CHUNK_BYTES, _STEP_ATTR, DEFAULT_MAX_BYTES, _as_lodex_error, _field_datasets, _h5py, _lodex_error


def _steps_of(group, steps) -> list[int]:
    committed = group.steps
    known = set(committed)
    if steps is None:
        if not committed:
            raise InvalidArgumentError(f"group {group.name!r} has no committed steps to export")
        return committed
    if isinstance(steps, (int, np.integer)) and not isinstance(steps, bool):
        wanted = [_step(steps)]
    else:
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
            raise InvalidArgumentError(f"steps must be a step, a list of steps or None, got {steps!r}")
        wanted = [_step(s) for s in steps]
    if not wanted:
        raise InvalidArgumentError("steps is empty; give None for every step")
    seen = set()
    for s in wanted:
        if s in seen:
            raise InvalidArgumentError(f"step {s} is listed twice")
        seen.add(s)
        if s not in known:
            raise NotFoundError(f"step {s} is not committed in group {group.name!r} "
                                f"(steps: {', '.join(map(str, committed))})")
    return wanted


def _fields_of(group, fields) -> list[tuple[str, str, int]]:
    schema = group.schema
    names = _field_names(fields)
    if names is None:
        names = list(schema)
    if not names:
        raise InvalidArgumentError("fields is empty; give None for every field")
    described = ", ".join(f"{n}:{d}" + (f"x{c}" if c != 1 else "") for n, (d, c) in schema.items())
    for i, n in enumerate(names):
        if n not in schema:
            raise NotFoundError(f"no field {n!r} in schema {{{described}}}")
        if n in names[:i]:
            raise InvalidArgumentError(f"field {n!r} is listed twice")
    chosen = [(n, d, c) for n, (d, c) in schema.items() if n in names]   # schema order
    owner: dict[str, str] = {}
    for n, _, c in chosen:
        for ds_name in _field_datasets(n, c):
            if ds_name in owner:
                raise InvalidArgumentError(
                    f"fields {owner[ds_name]!r} and {n!r} would both be the H5Part dataset {ds_name!r}; "
                    "export one of them (fields=...)")
            owner[ds_name] = n
    return chosen


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------

def export_h5part(group, out: str | os.PathLike, steps: int | Iterable[int] | None = None,
                  fields: Iterable[str] | None = None, *, overwrite: bool = False,
                  max_bytes: int = DEFAULT_MAX_BYTES, comm: Any = None,
                  progress: Callable[[int, int], None] | None = None) -> dict:
    """Write steps of the particle group ``group`` to the H5Part file ``out``.

    ``steps``: None (every committed step), a step or a list of steps; ``fields``: None (every
    schema field) or a list of field names (datasets follow the schema's order). At most one
    step is in memory: a step whose exported columns exceed ``max_bytes`` (default 1 GiB) is read
    in ``ceil(bytes / max_bytes)`` spatial pieces (:meth:`ParticleGroup.spatial_split`, sized
    from the spatial metadata, so a piece is about, not at most, ``max_bytes``) and appended to
    resizable chunked datasets; the pieces must add up to the step's particle count.

    The file is written as ``<out>.tmp-<pid>`` beside ``out`` and renamed onto it at the end, so
    ``out`` is either the complete new file or untouched. An existing ``out`` raises
    AlreadyExistsError unless ``overwrite``. Any failure removes the temporary file and raises a
    lodex error naming ``out`` and the cause (an OSError, e.g. a full disk, becomes IOFailure).

    ``comm``: PyPI's h5py has no parallel HDF5, so the writer is serial: with a communicator
    (collective call) rank 0 reads and writes everything, and every rank returns rank 0's
    statistics or raises rank 0's error (prefixed "rank 0: ").

    ``progress(done, total)``, when given, is called (on the rank writing) after each step.

    Returns {"path", "steps", "particles", "bytes" (the file's size), "pieces" (reads made),
    "seconds"}.
    """
    if comm is not None and comm.size > 1:
        return agreed(comm, _as_lodex_error(lambda: _export(group, out, steps, fields, overwrite, max_bytes, progress),
                                            f"export to {os.fspath(out)} failed"), root=0)
    return _export(group, out, steps, fields, overwrite, max_bytes, progress)


def _export(group, out, steps, fields, overwrite, max_bytes, progress=None) -> dict:
    t0 = time.perf_counter()
    h5py = _h5py()
    out = _path(out, "out")
    max_bytes = _max_bytes(max_bytes)
    step_list = _steps_of(group, steps)
    chosen = _fields_of(group, fields)
    if os.path.lexists(out) and not overwrite:
        raise AlreadyExistsError(f"{out} already exists; pass overwrite=True (--overwrite) to replace it")
    if os.path.isdir(out):
        raise InvalidArgumentError(f"{out} is a directory; give a file name")
    tmp = f"{out}.tmp-{os.getpid()}"
    names = [n for n, _, _ in chosen]
    row_bytes = sum(np.dtype(d).itemsize * c for _, d, c in chosen)
    total = pieces = 0
    f = vfd = None
    closing = False
    try:
        # No chunk cache: every write reaches the file at once, so a full disk fails the write
        # that hit it. (With raw data cached, HDF5 1.14 can crash in the flush at close when the
        # disk is full.) For the same reason every dataset is chunked: a contiguous dataset's
        # small writes sit in HDF5's sieve buffer.
        f = h5py.File(tmp, "w", rdcc_nbytes=0)
        vfd = _vfd(f, tmp)
        f.attrs["lodex_schema"] = json.dumps([[n, d, c] for n, d, c in chosen])
        f.attrs["lodex_domain"] = np.asarray(group.domain, dtype=np.float64)
        f.attrs["lodex_group"] = group.name
        for index, step in enumerate(step_list):
            count = sum(int(rec["count"]) for rec in group.files(step))
            sg = _step_group(f, index, step)
            dsets = {}
            for n, d, c in chosen:
                chunk = max(1, min(count, _CHUNK_BYTES // np.dtype(d).itemsize))
                for comp, ds_name in enumerate(_field_datasets(n, c)):
                    dsets[ds_name] = _label(sg.create_dataset(ds_name, shape=(0,), maxshape=(None,), dtype=d,
                                                              chunks=(chunk,)), n, comp)
            k = 1 if count * row_bytes <= max_bytes else min(math.ceil(count * row_bytes / max_bytes), 2**32 - 1)
            boxes = [None] if k == 1 else group.spatial_split(step, readers=k)
            got = 0
            for box in boxes:
                data = group.read(step, box=box, fields=names)
                m = _rows(data, chosen)
                if got + m > count:
                    raise InternalError(f"step {step}: read {got + m} particles or more, the step's metadata "
                                        f"counts {count}")
                if m:
                    for ds_name, col, _, _ in _columns(data, chosen):
                        dsets[ds_name].resize((got + m,))
                        dsets[ds_name][got:got + m] = col
                got += m
                pieces += 1
                del data
            if got != count:
                what = "read" if k == 1 else f"its {k} spatial pieces hold"
                raise InternalError(f"step {step}: {what} {got} particles, the step's metadata counts {count}")
            del dsets, sg
            total += count
            if progress is not None:
                progress(index + 1, len(step_list))
        closing = True
        f.close()
        f = None
        os.replace(tmp, out)
    except BaseException as e:
        _discard(f, vfd, closing, tmp)
        if not isinstance(e, Exception):
            raise   # KeyboardInterrupt and the like, after the clean-up
        raise _lodex_error(e, f"H5Part export to {out} failed") from e
    return {"path": out, "steps": list(step_list), "particles": total, "bytes": os.path.getsize(out),
            "pieces": pieces, "seconds": time.perf_counter() - t0}


def _step_group(f, index: int, step: int):
    """The group of the ``index``-th exported step, lodex step ``step``: H5Part readers open the
    groups ``Step#0`` .. ``Step#<N-1>`` in turn (ParaView's fails on a gap), and ParaView takes
    each step's time from its float64 ``TimeValue``."""
    sg = f.create_group(f"Step#{index}")
    sg.attrs["TimeValue"] = np.float64(step)
    sg.attrs["Step"] = np.int64(step)
    sg.attrs[_STEP_ATTR] = np.int64(step)
    return sg


def _vfd(f, path: str) -> tuple[int, int, int] | None:
    """(descriptor, device, inode) of the file under an h5py file (the default sec2 driver)."""
    try:
        fd = f.id.get_vfd_handle()
        st = os.stat(path)
    except Exception:   # noqa: BLE001 - another driver
        return None
    return (fd, st.st_dev, st.st_ino) if isinstance(fd, int) and fd >= 0 else None


def _discard(f, vfd: tuple[int, int, int] | None, closed: bool, tmp: str) -> None:
    """Remove the temporary file of a failed export, its space freed even when HDF5 cannot close
    it (a full disk can leave the file open inside HDF5: its descriptor ``vfd`` then points to
    /dev/null, so the unlinked file does not hold on to the space until the process exits).
    ``closed``: f.close() was tried already (calling into the file again can crash HDF5)."""
    try:
        os.truncate(tmp, 0)   # frees the space now, so HDF5's last flush can succeed
    except OSError:
        pass
    if f is not None and not closed:
        try:
            f.close()
        except Exception:   # noqa: BLE001 - the first error is the one to report
            pass
    if vfd is not None:
        fd, dev, ino = vfd
        try:
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) == (dev, ino):   # HDF5 still holds the file open
                null = os.open(os.devnull, os.O_RDWR)
                try:
                    os.dup2(null, fd)
                finally:
                    os.close(null)
        except OSError:
            pass   # closed: nothing to do
    try:
        os.unlink(tmp)
    except OSError:
        pass   # already gone, or nothing more to do: the error raised names out


def _max_bytes(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidArgumentError(f"max_bytes must be a positive integer, got {value!r}")
    return int(value)


def _rows(data: dict, chosen) -> int:
    return len(data[chosen[0][0]])


def _columns(data: dict, chosen):
    """(dataset name, 1-D column, field, component) of each exported dataset."""
    for n, _, c in chosen:
        a = data[n]
        if c == 1:
            yield _field_datasets(n, 1)[0], a.reshape(-1), n, 0
        else:
            for comp, ds_name in enumerate(_field_datasets(n, c)):
                yield ds_name, np.ascontiguousarray(a[:, comp]), n, comp


def _label(dset, field: str, comp: int):
    dset.attrs["lodex_field"] = field
    dset.attrs["lodex_component"] = np.int64(comp)
    return dset
