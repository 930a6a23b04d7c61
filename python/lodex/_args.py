"""Checks of the arguments the Python API passes to the core: boxes, steps, counts, schemas,
partitions, field lists and write data. A leaf module: the dataset, particle, grid, series and
H5Part modules all use it, and it imports nothing of lodex but its errors."""

from __future__ import annotations

import os
from typing import Any, Mapping

import numpy as np

from .errors import InvalidArgumentError

Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def _native(a: np.ndarray) -> np.ndarray:
    """The array in native byte order and C order (a copy only when needed)."""
    if a.dtype.byteorder not in "=|":
        a = a.astype(a.dtype.newbyteorder("="))
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def _write_fields(data: Mapping[str, Any]) -> list[tuple[str, np.ndarray]]:
    """(name, array) per field of a write. A tuple or list of numpy arrays is a field given one
    array per component (positions as x, y, z arrays): "name/x", "name/y", "name/z" for up to
    three components, "name/0", "name/1", ... beyond; the engine interleaves them itself."""
    fields = []
    for name, value in data.items():
        name = str(name)
        if isinstance(value, (tuple, list)) and value and all(isinstance(v, np.ndarray) for v in value):
            labels = "xyz" if len(value) <= 3 else [str(i) for i in range(len(value))]
            fields += [(f"{name}/{c}", _native(v)) for c, v in zip(labels, value)]
        else:
            fields.append((name, _native(np.asarray(value))))
    return fields


DEFAULT_LOD = {"scale": 2, "level0_max": 256, "brick_target": 0, "seed": 0}   # brick_target 0: sized for the data


def _box(value: Any, what: str) -> tuple[list[float], list[float]]:
    try:
        lo, hi = value
        lo = [float(v) for v in lo]
        hi = [float(v) for v in hi]
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"{what} must be ((x0, y0, z0), (x1, y1, z1)), got {value!r}") from None
    if len(lo) != 3 or len(hi) != 3:
        raise InvalidArgumentError(f"{what} must have 3 coordinates per corner, got {value!r}")
    return lo, hi


def _count(value: Any, what: str, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not least <= value <= most:
        raise InvalidArgumentError(f"{what} must be an integer in [{least}, {most}], got {value!r}")
    return int(value)


def _path(value: Any, what: str) -> str:
    """A file or folder argument as a str (os.PathLike accepted); not a path, or empty: InvalidArgumentError."""
    try:
        path = os.fspath(value)
    except TypeError:
        raise InvalidArgumentError(f"{what} must be a path, got {value!r}") from None
    if not path:
        raise InvalidArgumentError(f"{what} must be a path, got ''")
    return path


def _step(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -2**63 <= value < 2**63:
        raise InvalidArgumentError(f"step must be an integer, got {value!r}")
    return int(value)


def _after(value: Any) -> int:
    """The ``after`` of a truncate: a step (the steps up to it stay), or -1 (every step goes)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not -2**63 <= value < 2**63:
        raise InvalidArgumentError(f"after must be a step (an integer; -1 removes every step), got {value!r}")
    return int(value)


def _field_names(fields: Any) -> list[str] | None:
    """A list of field names (a single name becomes a list of one), or None."""
    if isinstance(fields, str):
        return [fields]
    if fields is not None and (not isinstance(fields, (list, tuple)) or
                               not all(isinstance(f, str) for f in fields)):
        raise InvalidArgumentError(f"fields must be a list of field names, got {fields!r}")
    return None if fields is None else list(fields)


def _periodic(value: Any) -> tuple[bool, bool, bool]:
    if value is None:
        return (False, False, False)
    if isinstance(value, (bool, np.bool_)):
        return (bool(value),) * 3
    try:
        axes = tuple(value)
    except TypeError:
        axes = ()
    if len(axes) != 3 or not all(isinstance(a, (bool, np.bool_)) for a in axes):
        raise InvalidArgumentError(f"periodic must be a bool or 3 bools (x, y, z), got {value!r}")
    return tuple(bool(a) for a in axes)


def _partition_spec(partition, partition_grid, particles_per_file, file_bytes,
                    fields: list[tuple[str, str, int]] | None) -> tuple[str, list[int], int]:
    """(mode, dims, particles per file) of a group definition: ``partition=(Px, Py, Pz)`` (factor),
    ``partition_grid=(gx, gy, gz)``, ``partition="adaptive"`` with exactly one of
    ``particles_per_file`` and ``file_bytes`` (bytes per file, over the rows of ``fields``), or
    nothing (one partition for the whole domain: right for serial writers)."""
    if partition is not None and partition_grid is not None:
        raise InvalidArgumentError("give either partition (a factor) or partition_grid")
    if isinstance(partition, str):
        if partition != "adaptive":
            raise InvalidArgumentError(
                f"partition must be 'adaptive' or 3 positive integers (a factor), got {partition!r}")
        if (particles_per_file is None) == (file_bytes is None):
            raise InvalidArgumentError("partition='adaptive' needs exactly one of particles_per_file "
                                       "and file_bytes (the target size of each file)")
        if particles_per_file is not None:
            return "adaptive", [1, 1, 1], _count(particles_per_file, "particles_per_file", 1, 2**63 - 1)
        size = _count(file_bytes, "file_bytes", 1, 2**63 - 1)
        if fields is None:
            raise InvalidArgumentError("file_bytes needs the group's schema; give particles_per_file")
        row = 0
        for _, dtype, comps in fields:
            try:
                row += np.dtype(dtype).itemsize * comps
            except TypeError:
                raise InvalidArgumentError(f"unknown dtype {dtype!r}") from None
        return "adaptive", [1, 1, 1], max(1, size // row)
    if particles_per_file is not None or file_bytes is not None:
        raise InvalidArgumentError("particles_per_file and file_bytes go with partition='adaptive'")
    if partition is not None:
        mode, dims = "factor", partition
    else:
        mode, dims = "grid", partition_grid if partition_grid is not None else (1, 1, 1)
    if isinstance(dims, str) or len(tuple(dims)) != 3:
        raise InvalidArgumentError(f"partition must be 3 positive integers, got {dims!r}")
    dims = tuple(dims)
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1 for d in dims):
        raise InvalidArgumentError(f"partition must be 3 positive integers, got {dims!r}")
    return mode, [int(d) for d in dims], 0


def _schema(schema: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    if not isinstance(schema, Mapping) or not schema:
        raise InvalidArgumentError(
            "schema must be a non-empty dict like {'position': ('f8', 3), 'energy': 'f4'}")
    fields = []
    for name, spec in schema.items():
        if isinstance(spec, str):
            dtype, comps = spec, 1
        else:
            try:
                dtype, comps = spec
            except (TypeError, ValueError):
                raise InvalidArgumentError(
                    f"field {name!r}: expected a dtype string or (dtype, components), "
                    f"got {spec!r}") from None
        try:   # numpy spellings ("float64", np.float64, np.dtype) to lodex's short codes
            dtype = np.dtype(dtype).str.lstrip("<>|=")
        except TypeError:
            pass   # not a dtype numpy knows: the core names the problem
        if not isinstance(comps, (int, np.integer)) or isinstance(comps, bool) or comps < 1:
            raise InvalidArgumentError(f"field {name!r}: components must be a positive integer")
        fields.append((str(name), str(dtype), int(comps)))
    return fields
