"""H5Part import: every rank reads its share of the rows of an H5Part file's steps and writes them
as steps of a particle group, after every check has passed on every rank."""

from __future__ import annotations

import json
import os
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from .. import _lodex
from .._args import _box, _field_names, _step
from .._collective import _collective_input, agreed
from ..errors import AlreadyExistsError, Error, FormatError, InvalidArgumentError, IOFailure, NotFoundError
from ._common import (_COORDS, _DTYPES, _FIELD_NAME, _SCAN_ROWS, _STEP_ATTR, _STEP_NAME, _as_lodex_error,
                      _dtype_name, _h5py, _lodex_error, _short)


class _Plan:
    """What an H5Part file holds: its steps (number, group name, particle count), the lodex
    schema, each field's datasets (one per component) and the stored domain if any."""

    def __init__(self):
        self.steps: list[tuple[int, str, int]] = []
        self.schema: list[tuple[str, str, int]] = []
        self.sources: dict[str, list[str]] = {}
        self.stored_domain = None
        self.round_trip = False


def _open_h5(h5py, path: str):
    if not os.path.exists(path):
        raise NotFoundError(f"no H5Part file {path}")
    if os.path.isdir(path):
        raise FormatError(f"{path} is a directory, not an HDF5 (H5Part) file")
    try:
        is_h5 = h5py.is_hdf5(path)
    except OSError as e:
        raise IOFailure(f"cannot read {path}: {_short(e)}") from None
    if not is_h5:
        raise FormatError(f"{path} is not an HDF5 (H5Part) file")
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise _lodex_error(e, f"cannot open {path}") from None


def _lodex_step(g, number: int, key: str, path: str) -> int:
    """The lodex step of the step group ``g`` named ``Step#<number>``: its ``lodex_step``
    attribute (written by lodex), else ``number`` (files of other tools and of lodex before the
    attribute existed)."""
    if _STEP_ATTR not in g.attrs:
        return number
    v = np.asarray(g.attrs[_STEP_ATTR])
    if v.shape not in ((), (1,)) or v.dtype.kind not in "iu":
        raise FormatError(f"{path}: attribute {_STEP_ATTR} of {key} must be one integer, got {v!r}")
    s = int(v.reshape(-1)[0])
    if not -2**63 <= s < 2**63:
        raise FormatError(f"{path}: attribute {_STEP_ATTR} of {key} is {s}, outside int64")
    return s


def _inspect(h5py, f, path: str, steps) -> _Plan:
    plan = _Plan()
    found: dict[int, str] = {}
    for key in f.keys():
        m = _STEP_NAME.match(key)
        if m is None:
            continue
        try:
            is_group = isinstance(f[key], h5py.Group)
        except KeyError:   # a dangling link
            is_group = False
        if not is_group:
            raise FormatError(f"{path}: {key!r} is not an HDF5 group")
        s = _lodex_step(f[key], int(m.group(1)), key, path)
        if s in found:
            raise FormatError(f"{path}: groups {found[s]!r} and {key!r} are both step {s}")
        found[s] = key
    if not found:
        raise FormatError(f"{path} holds no H5Part steps (no 'Step#<n>' groups at the root)")
    if steps is None:
        wanted = sorted(found)
    else:
        if isinstance(steps, (int, np.integer)) and not isinstance(steps, bool):
            steps = [steps]
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
            raise InvalidArgumentError(f"steps must be a step, a list of steps or None, got {steps!r}")
        wanted = [_step(s) for s in steps]
        if not wanted:
            raise InvalidArgumentError("steps is empty; give None for every step")
        for i, s in enumerate(wanted):
            if s in wanted[:i]:
                raise InvalidArgumentError(f"step {s} is listed twice")
            if s not in found:
                raise NotFoundError(f"{path} has no step {s} (steps: {', '.join(map(str, sorted(found)))})")
    schema_attr = f.attrs.get("lodex_schema")
    plan.round_trip = schema_attr is not None
    if plan.round_trip:
        plan.schema = _stored_schema(schema_attr, path)
    if "lodex_domain" in f.attrs:
        try:
            d = np.asarray(f.attrs["lodex_domain"], dtype=np.float64)
            if d.shape != (2, 3):
                raise ValueError
        except (TypeError, ValueError):
            raise FormatError(f"{path}: attribute lodex_domain must be 2 x 3 numbers (min and max corner), "
                              f"got {f.attrs['lodex_domain']!r}") from None
        plan.stored_domain = (tuple(float(v) for v in d[0]), tuple(float(v) for v in d[1]))

    first = None   # (step name, {dataset: dtype name}, {dataset: (field, component)})
    for s in wanted:
        key = found[s]
        g = f[key]
        dtypes: dict[str, str] = {}
        lengths: dict[str, int] = {}
        labels: dict[str, tuple[str, int]] = {}
        for name in g.keys():
            try:
                obj = g[name]
            except KeyError:   # a dangling link
                obj = None
            if not isinstance(obj, h5py.Dataset):
                raise FormatError(f"{path}: {key}/{name} is not a dataset; H5Part steps hold 1-D datasets")
            if obj.ndim != 1:
                raise FormatError(f"{path}: dataset {name!r} of {key} has shape {obj.shape}; "
                                  "H5Part datasets are 1-D")
            dt = obj.dtype
            dname = _dtype_name(dt) if dt.kind in "fiu" else None
            if dname not in _DTYPES:
                raise FormatError(f"{path}: dataset {name!r} of {key} has dtype {dt}, which lodex cannot "
                                  f"store (supported: {', '.join(_DTYPES)})")
            dtypes[name] = dname
            lengths[name] = int(obj.shape[0])
            if plan.round_trip:
                labels[name] = _label_of(obj, name, key, path)
        if not dtypes:
            raise FormatError(f"{path}: {key} holds no datasets")
        if len(set(lengths.values())) > 1:
            listing = ", ".join(f"{n} ({lengths[n]})" for n in sorted(lengths))
            raise FormatError(f"{path}: the datasets of {key} differ in length: {listing}")
        if first is None:
            first = (key, dtypes, labels)
        else:
            k0, d0, l0 = first
            missing = sorted(set(d0) - set(dtypes))
            extra = sorted(set(dtypes) - set(d0))
            if missing or extra:
                raise FormatError(f"{path}: {key} does not hold the datasets of {k0}: "
                                  + "; ".join(p for p in (f"missing {', '.join(missing)}" if missing else "",
                                                          f"extra {', '.join(extra)}" if extra else "") if p))
            for n in dtypes:
                if dtypes[n] != d0[n]:
                    raise FormatError(f"{path}: dataset {n!r} is {d0[n]} in {k0} but {dtypes[n]} in {key}")
                if labels.get(n) != l0.get(n):
                    raise FormatError(f"{path}: dataset {n!r} is {l0.get(n)} (field, component) in {k0} "
                                      f"but {labels.get(n)} in {key}")
        plan.steps.append((s, key, next(iter(lengths.values()))))

    key, dtypes, labels = first
    if plan.round_trip:
        _map_stored(plan, key, dtypes, labels, path)
    else:
        _infer(plan, key, dtypes, path)
    return plan


def _stored_schema(attr, path: str) -> list[tuple[str, str, int]]:
    try:
        raw = json.loads(attr.decode() if isinstance(attr, bytes) else str(attr))
        schema = []
        for item in raw:
            n, d, c = item
            if (not isinstance(n, str) or not isinstance(d, str) or isinstance(c, bool)
                    or not isinstance(c, int)):
                raise ValueError
            schema.append((n, d, c))
        if not schema:
            raise ValueError
    except (ValueError, TypeError, UnicodeDecodeError):
        raise FormatError(f"{path}: attribute lodex_schema must be a JSON list of [field, dtype, "
                          f"components], got {attr!r}") from None
    for n, d, c in schema:
        if not _FIELD_NAME.match(n) or d not in _DTYPES or c < 1:
            raise FormatError(f"{path}: lodex_schema has an invalid field {[n, d, c]!r}")
    return schema


def _label_of(obj, name: str, key: str, path: str) -> tuple[str, int]:
    field = obj.attrs.get("lodex_field")
    comp = obj.attrs.get("lodex_component")
    if isinstance(field, bytes):
        field = field.decode(errors="replace")
    if field is None or comp is None:
        raise FormatError(f"{path}: dataset {name!r} of {key} has no lodex_field / lodex_component "
                          "attributes although the file has lodex_schema")
    try:
        c = int(np.asarray(comp).reshape(()))
    except (TypeError, ValueError):
        raise FormatError(f"{path}: dataset {name!r} of {key}: lodex_component must be an integer, "
                          f"got {comp!r}") from None
    return str(field), c


def _map_stored(plan: _Plan, key: str, dtypes: dict, labels: dict, path: str) -> None:
    by_label = {}
    for name, lab in labels.items():
        if lab in by_label:
            raise FormatError(f"{path}: datasets {by_label[lab]!r} and {name!r} of {key} are both "
                              f"component {lab[1]} of field {lab[0]!r}")
        by_label[lab] = name
    schema_fields = {n for n, _, _ in plan.schema}
    for name, (field, comp) in labels.items():
        if field not in schema_fields:
            raise FormatError(f"{path}: dataset {name!r} of {key} belongs to field {field!r}, "
                              "which lodex_schema does not list")
    for n, d, c in plan.schema:
        srcs = []
        for comp in range(c):
            name = by_label.get((n, comp))
            if name is None:
                raise FormatError(f"{path}: {key} has no dataset for component {comp} of field {n!r}")
            if dtypes[name] != d:
                raise FormatError(f"{path}: dataset {name!r} of {key} is {dtypes[name]}, but lodex_schema "
                                  f"says field {n!r} is {d}")
            srcs.append(name)
        extra = [name for name, (field, comp) in labels.items() if field == n and not 0 <= comp < c]
        if extra:
            raise FormatError(f"{path}: dataset {extra[0]!r} of {key} is a component of field {n!r} "
                              f"beyond its {c}")
        plan.sources[n] = srcs
    _check_position(plan, path)


def _infer(plan: _Plan, key: str, dtypes: dict, path: str) -> None:
    coords = [c for c in _COORDS if c in dtypes]
    if coords and len(coords) != 3:
        raise FormatError(f"{path}: {key} has {', '.join(coords)} but not all of x, y, z")
    if coords:
        kinds = {c: dtypes[c] for c in _COORDS}
        if len(set(kinds.values())) != 1:
            raise FormatError(f"{path}: x, y and z must share a dtype to become the lodex field position; "
                              f"{key} has " + ", ".join(f"{c} {d}" for c, d in kinds.items()))
        plan.schema.append(("position", dtypes["x"], 3))
        plan.sources["position"] = list(_COORDS)
    for name, d in dtypes.items():
        if name in _COORDS:
            continue
        if name == "position" or not _FIELD_NAME.match(name):
            raise FormatError(f"{path}: dataset {name!r} of {key} cannot be a lodex field name "
                              "(letters, digits and '_', 1 to 31 bytes; not 'position')")
        plan.schema.append((name, d, 1))
        plan.sources[name] = [name]
    _check_position(plan, path)


def _check_position(plan: _Plan, path: str) -> None:
    pos = [(d, c) for n, d, c in plan.schema if n == "position"]
    if not pos:
        raise FormatError(f"{path} holds no coordinates (datasets x, y, z); lodex particles need positions")
    d, c = pos[0]
    if c != 3 or d not in ("f4", "f8"):
        raise FormatError(f"{path}: the coordinates x, y, z are {d}; lodex positions are f4 or f8")


_NO_FACTOR = ("a partition factor follows the writers' patches, and imported rows have none; use "
              "partition_grid=(gx, gy, gz) or partition='adaptive' with particles_per_file")


def _share(n: int, rank: int, size: int) -> tuple[int, int]:
    return n * rank // size, n * (rank + 1) // size


def _scan_bounds(f, plan: _Plan, rank: int, size: int) -> list:
    """Per step: (min xyz, max xyz, non-finite count) over this rank's share of the rows."""
    out = []
    xyz = plan.sources["position"]
    for _, key, n in plan.steps:
        lo, hi = _share(n, rank, size)
        mins = np.full(3, np.inf)
        maxs = np.full(3, -np.inf)
        bad = 0
        for a, name in enumerate(xyz):
            d = f[key][name]
            for r0 in range(lo, hi, _SCAN_ROWS):
                col = d[r0:min(hi, r0 + _SCAN_ROWS)]
                finite = np.isfinite(col)
                if not finite.all():
                    bad += int((~finite).sum())
                    col = col[finite]
                if len(col):
                    mins[a] = min(mins[a], float(col.min()))
                    maxs[a] = max(maxs[a], float(col.max()))
        out.append((mins.tolist(), maxs.tolist(), bad))
    return out


def import_h5part(path: str | os.PathLike, dataset, name: str, *, domain=None, steps=None,
                  partition=None, partition_grid=None, particles_per_file=None, comm: Any = None,
                  index=None, progress: Callable[[int, int], None] | None = None):
    """Import the H5Part file ``path`` into the particle group ``name`` of ``dataset`` (a
    :class:`Dataset` open for writing: :func:`lodex.create` or ``lodex.open(..., mode="a")``).
    Collective over ``comm`` (default: the dataset's communicator): every rank reads the file
    with h5py (read-only) and writes rows [r*N//P, (r+1)*N//P) of each step of N particles.

    Steps: every ``Step#<n>`` group in numeric order, or ``steps`` (a step or a list). Schema: a
    file written by :func:`export_h5part` (root attribute ``lodex_schema``) gives back its exact
    schema. Any other H5Part file: ``x``, ``y``, ``z`` (one float dtype) become ``position``,
    every other 1-D dataset a scalar field of its dtype and name; datasets named
    ``<f>_0`` .. ``<f>_<k-1>`` stay separate scalar fields (nothing says they are components).
    FormatError for what lodex cannot hold: no steps, strings, compounds, datasets of more than
    one dimension, datasets of one step differing in length, steps with different datasets, x,
    y, z of different dtypes.

    Domain: ``domain``, else the file's ``lodex_domain``, else the bounds of x, y, z over the
    imported steps with the max moved up to the next float (boxes exclude their max). Everything
    (the file, the domain, that every particle is inside it, an existing group's schema and
    steps) is checked before the group is created or a step written.

    The group may exist: its schema must match (in any field order) and the imported steps must
    not be committed yet; ``domain`` and partition arguments, if given, must match it.
    ``partition_grid=(gx, gy, gz)`` or ``partition="adaptive"`` with ``particles_per_file``
    define a new group as in :meth:`Dataset.define_particles` (default: one partition, one file per
    step). A partition factor (``partition=(Px, Py, Pz)``) is refused: it follows the writers'
    patches, and rows of a file have none. ``index`` goes to every :meth:`ParticleGroup.write`.
    ``progress(done, total)``, when given, is called after each step is written.
    Returns the :class:`ParticleGroup`."""
    if comm is None:
        comm = getattr(dataset, "_comm", None)
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)

    def prepare():
        h5py = _h5py()
        try:
            p = os.fspath(path)
        except TypeError:
            raise InvalidArgumentError(f"path must be a path, got {path!r}") from None
        if not isinstance(name, str):
            raise InvalidArgumentError(f"name must be a string, got {name!r}")
        given = None if domain is None else _box(domain, "domain")
        if partition is not None and not isinstance(partition, str):
            raise InvalidArgumentError(_NO_FACTOR)
        f = _open_h5(h5py, p)
        try:
            plan = _inspect(h5py, f, p, steps)
            bounds = _scan_bounds(f, plan, rank, size)
        except Error:
            f.close()
            raise
        except Exception as e:
            f.close()
            raise _lodex_error(e, f"cannot read {p}") from e
        return p, f, plan, given, bounds

    p, f, plan, given, bounds = agreed(comm, _as_lodex_error(prepare, "H5Part import failed"),
                                       undo=lambda r: r[1].close())
    try:
        if size > 1:
            every = comm.allgather(bounds)
            bounds = [(np.min([b[i][0] for b in every], axis=0), np.max([b[i][1] for b in every], axis=0),
                       sum(b[i][2] for b in every)) for i in range(len(plan.steps))]
        existing, the_domain = agreed(comm, _as_lodex_error(lambda: _check_target(
            dataset, name, plan, given, bounds, p, (partition, partition_grid, particles_per_file), index),
            "H5Part import failed"))
        if existing is None:
            g = dataset.define_particles(name, schema={n: (d, c) for n, d, c in plan.schema}, domain=the_domain,
                                         partition=partition, partition_grid=partition_grid,
                                         particles_per_file=particles_per_file)
        else:
            g = existing
        for done, (s, key, n) in enumerate(plan.steps, 1):
            lo, hi = _share(n, rank, size)
            with _collective_input(g._core.write, _lodex.ParticleWrite, f"rows of {key}"):
                try:
                    data = _read_rows(f[key], plan, lo, hi)
                except Error:
                    raise
                except Exception as e:
                    raise _lodex_error(e, f"cannot read {key} of {p}") from e
            g.write(s, data=data, index=index)
            del data
            if progress is not None:
                progress(done, len(plan.steps))
    finally:
        f.close()
    return g


def _check_target(dataset, name: str, plan: _Plan, given, bounds, path: str, part: tuple, index):
    """(the existing group or None, the domain) after checking that the import can go ahead."""
    schema_names = [n for n, _, _ in plan.schema]
    if part[2] is not None and part[0] != "adaptive":
        raise InvalidArgumentError("particles_per_file goes with partition='adaptive'")
    if index is not None:
        wanted = index.get("fields") if isinstance(index, Mapping) else index
        for n in _field_names(wanted) or []:
            if n not in schema_names:
                raise NotFoundError(f"index: no field {n!r} in the schema of {path} ({', '.join(schema_names)})")
    existing = None
    if name in dataset.particles:
        existing = dataset.particles[name]
        have = existing.schema
        want = {n: (d, c) for n, d, c in plan.schema}
        if have != want:
            def describe(s):
                return ", ".join(f"{n}:{d}" + (f"x{c}" if c != 1 else "") for n, (d, c) in s.items())
            raise InvalidArgumentError(f"group {name!r} exists with schema {{{describe(have)}}}, not "
                                       f"{{{describe(want)}}} (the schema of {path})")
        mode, dims = existing.partition
        if mode == "factor":
            raise InvalidArgumentError(f"group {name!r} has a partition factor: " + _NO_FACTOR)
        partition, partition_grid, per_file = part
        have = (f"grid {tuple(dims)}" if mode == "grid" else
                f"adaptive with {existing.particles_per_file} particles per file")
        if partition_grid is not None and (mode != "grid" or tuple(dims) != tuple(partition_grid)):
            raise InvalidArgumentError(f"group {name!r} exists with partition {have}, not grid "
                                       f"{tuple(partition_grid)}")
        if partition is not None and (mode != "adaptive" or partition != "adaptive" or
                                      (per_file is not None and per_file != existing.particles_per_file)):
            raise InvalidArgumentError(f"group {name!r} exists with partition {have}, not {partition!r}"
                                       + (f" with {per_file} particles per file" if per_file is not None else ""))
        done = sorted(set(existing.steps) & {s for s, _, _ in plan.steps})
        if done:
            raise AlreadyExistsError(f"step{'s' if len(done) > 1 else ''} {', '.join(map(str, done))} of group "
                                     f"{name!r} already committed; steps are written once (import other steps "
                                     "with steps=...)")
        if given is not None:
            g_lo, g_hi = existing.domain
            if (list(g_lo), list(g_hi)) != (list(given[0]), list(given[1])):
                raise InvalidArgumentError(f"group {name!r} exists with domain {existing.domain}, "
                                           f"not {(tuple(given[0]), tuple(given[1]))}")
        lo, hi = (np.asarray(v, float) for v in existing.domain)
    elif given is not None:
        lo, hi = (np.asarray(v, float) for v in given)
    elif plan.stored_domain is not None:
        lo, hi = (np.asarray(v, float) for v in plan.stored_domain)
    else:
        lo = hi = None
    for (s, key, n), (mins, maxs, bad) in zip(plan.steps, bounds):
        if bad:
            raise FormatError(f"{path}: {key} has {bad} non-finite coordinate value(s) (NaN or infinite); "
                              "lodex positions must be finite")
    if lo is None:   # derive: the bounds of every imported particle, the max just above
        mins = [np.asarray(b[0], float) for b in bounds if np.all(np.isfinite(b[0]))]
        maxs = [np.asarray(b[1], float) for b in bounds if np.all(np.isfinite(b[1]))]
        if not mins:
            raise InvalidArgumentError(f"{path}: the imported steps hold no particles, so there is no "
                                       "domain to derive; give domain=")
        lo = np.min(mins, axis=0)
        hi = np.nextafter(np.max(maxs, axis=0), np.inf)
    for (s, key, n), (mins, maxs, _) in zip(plan.steps, bounds):
        mins = np.asarray(mins, float)
        maxs = np.asarray(maxs, float)
        outside = [a for a in range(3) if n and (mins[a] < lo[a] or maxs[a] >= hi[a])]
        if outside:
            a = outside[0]
            raise InvalidArgumentError(
                f"{path}: {key} has particles outside the domain [{tuple(lo.tolist())}, {tuple(hi.tolist())}): "
                f"{_COORDS[a]} from {float(mins[a])!r} to {float(maxs[a])!r}")
    return existing, (tuple(float(v) for v in lo), tuple(float(v) for v in hi))


def _read_rows(g, plan: _Plan, lo: int, hi: int) -> dict:
    data = {}
    for n, d, c in plan.schema:
        srcs = plan.sources[n]
        dt = np.dtype(d)
        if c == 1:
            data[n] = np.asarray(g[srcs[0]][lo:hi]).astype(dt, copy=False)
        else:
            a = np.empty((hi - lo, c), dtype=dt)
            for comp, src in enumerate(srcs):
                a[:, comp] = g[src][lo:hi]
            data[n] = a
    return data
