"""What export and import share: the names, units and layout of the openPMD side of a lodex
particle group (docs/openpmd.md), and the error handling around openPMD-api."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Mapping

import numpy as np

from .._collective import agreed, idle_barrier
from ..errors import Error, FormatError, InternalError, InvalidArgumentError, IOFailure, NotFoundError

COORDS = ("x", "y", "z")
FIELD_NAME = re.compile(r"[A-Za-z0-9_]{1,31}\Z")   # what a lodex schema accepts
DTYPES = ("f4", "f8", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8")
STEP_PATTERN = re.compile(r"%(0?[0-9]*)T")         # openPMD-api's file-based placeholder
BACKENDS = {".h5": "HDF5", ".bp": "ADIOS2", ".bp4": "ADIOS2", ".bp5": "ADIOS2"}
ENCODINGS = ("file", "group", "variable")

# The level-of-detail convention recorded on every exported species (docs/openpmd.md).
LOD_P = 32
LOD_S = 2.0
LOD_RULE = ("rows of each particle patch are in lodex level-of-detail order: the first "
            "min(numParticles, sum_{l<=L} floor(lodexLevelP * lodexLevelS**l)) rows of a patch are the "
            "particles lodex returns for read(step, box=patch, level=L, readers=1)")

# openPMD's unitDimension order: L, M, T, I, theta, N, J (length, mass, time, current,
# temperature, amount of substance, luminous intensity).
DIMENSIONS = ("L", "M", "T", "I", "theta", "N", "J")


def openpmd_api():
    """openPMD-api (``pip install 'lodex[openpmd]'``), imported on first use."""
    from ..errors import require
    return require("openpmd_api", "openPMD support (export and import)", "openpmd")


def short(e: BaseException) -> str:
    """An exception's message on one line."""
    return " ".join(str(e).split()) or type(e).__name__


def as_lodex_error(e: BaseException, context: str, default=FormatError) -> Error:
    """``e`` as a lodex error whose message starts with ``context`` (lodex errors keep their
    class; OS errors become IOFailure or NotFoundError; anything openPMD-api raises ``default``)."""
    if isinstance(e, Error):
        cls = type(e)
    elif isinstance(e, FileNotFoundError):
        cls = NotFoundError
    elif isinstance(e, OSError):
        cls = IOFailure
    else:
        cls = default
    err = cls(f"{context}: {short(e)}")
    err.__cause__ = e
    return err


def agree(comm, fn, undo=None):
    """``fn()`` agreed on over ``comm`` (:func:`lodex._collective.agreed`, the ranks done first
    sleeping in :func:`lodex._collective.idle_barrier`): every rank returns, or every rank raises
    the lowest failing rank's error, "rank r: ..." (after ``undo(result)`` where ``fn``
    succeeded), so no rank goes on to a collective call alone. What openPMD-api or the OS raises
    becomes a lodex error first (:func:`as_lodex_error`)."""
    def run():
        try:
            return fn()
        except Error:
            raise
        except Exception as e:   # noqa: BLE001 - a lodex error, then agreed on
            raise as_lodex_error(e, "openPMD", InternalError) from e
    return agreed(comm, run, undo=undo, wait=idle_barrier)


def share(n: int, rank: int, size: int) -> tuple[int, int]:
    """Rows [lo, hi) of n that rank ``rank`` of ``size`` takes."""
    return n * rank // size, n * (rank + 1) // size


def component_names(comps: int) -> list[str]:
    """The openPMD components of a lodex field of ``comps`` components: the scalar component for
    one, x, y, z for three (vectors, as openPMD names them), "0" .. "k-1" otherwise."""
    if comps == 1:
        return [openpmd_api().Record_Component.SCALAR]
    if comps == 3:
        return list(COORDS)
    return [str(c) for c in range(comps)]


def order_components(names: list[str]) -> list[str]:
    """Components in field order: x, y, z first (in that order), then numerals, then the rest."""
    def key(n):
        if n in COORDS:
            return (0, COORDS.index(n), "")
        if n.isdigit():
            return (1, int(n), "")
        return (2, 0, n)
    return sorted(names, key=key)


def dtype_name(dt) -> str | None:
    """lodex's name of a numpy dtype ("f8", "u4", ...), None when lodex cannot store it."""
    dt = np.dtype(dt)
    name = dt.str.lstrip("<>|=")
    return name if dt.kind in "fiu" and name in DTYPES else None


def check_units(units: Mapping[str, Any] | None, schema: Mapping[str, Any], what: str = "units",
                default_dims: Mapping[str, tuple] | None = None) -> dict:
    """``units`` of an export: field -> unitSI (a number), or (unitSI, {dimension: power}) with the
    dimensions of :data:`DIMENSIONS`; returns field -> (unitSI, 7 powers). position defaults to a
    length (L = 1), every other field to dimensionless (``default_dims``: name -> 7 powers
    instead); unitSI defaults to 1. ``what``: the argument's name in errors."""
    if default_dims is None:
        default_dims = {"position": (1.0,) + (0.0,) * 6}
    out = {n: (1.0, tuple(default_dims.get(n, (0.0,) * 7))) for n in schema}
    if units is None:
        return out
    if not isinstance(units, Mapping):
        raise InvalidArgumentError(f"{what} must be a dict name -> unitSI or (unitSI, {{dimension: power}}), "
                                   f"got {units!r}")
    for field, spec in units.items():
        if field not in schema:
            kind = "field" if what == "units" else "exported mesh"
            raise NotFoundError(f"{what}: no {kind} {field!r} ({', '.join(schema) or 'none'})")
        dims = dict(zip(DIMENSIONS, out[field][1]))
        if isinstance(spec, tuple) and len(spec) == 2:
            si, given = spec
            if not isinstance(given, Mapping):
                raise InvalidArgumentError(f"{what}[{field!r}]: the dimensions must be a dict like "
                                           f"{{'L': 1, 'T': -1}}, got {given!r}")
            dims = {d: 0.0 for d in DIMENSIONS}
            for d, p in given.items():
                if d not in DIMENSIONS:
                    raise InvalidArgumentError(f"{what}[{field!r}]: unknown dimension {d!r}; known: "
                                               f"{', '.join(DIMENSIONS)}")
                dims[d] = float(p)
        else:
            si = spec
        if isinstance(si, bool) or not isinstance(si, (int, float, np.integer, np.floating)) \
                or not np.isfinite(si) or si <= 0:
            raise InvalidArgumentError(f"{what}[{field!r}]: unitSI must be a positive number, got {si!r}")
        out[field] = (float(si), tuple(dims[d] for d in DIMENSIONS))
    return out


def encoding_of(pattern: str, encoding: str | None) -> str:
    """The iteration encoding of an export to ``pattern``: "file" when it holds %T (and then it
    must), else ``encoding``, by default "group" for HDF5 and "variable" for ADIOS2 (what
    openPMD-api advises there: it warns that group-based ADIOS2 files grow metadata with every
    iteration); "variable" needs ADIOS2 (.bp)."""
    file_based = STEP_PATTERN.search(os.path.basename(pattern)) is not None
    if encoding is None:
        return "file" if file_based else "variable" if backend_of(pattern) == "ADIOS2" else "group"
    if encoding not in ENCODINGS:
        raise InvalidArgumentError(f"unknown iteration encoding {encoding!r}; known: {', '.join(ENCODINGS)}")
    if (encoding == "file") != file_based:
        raise InvalidArgumentError(f"{pattern}: a file-based series names its files with %T (series_%T.h5), "
                                   "and only a file-based one does")
    if encoding == "variable" and backend_of(pattern) != "ADIOS2":
        raise InvalidArgumentError(f"{pattern}: variable-based iteration encoding needs ADIOS2 (.bp)")
    return encoding


def backend_of(pattern: str) -> str:
    ext = os.path.splitext(pattern)[1].lower()
    if ext not in BACKENDS:
        raise InvalidArgumentError(f"{pattern}: openPMD file extension must be one of "
                                   f"{', '.join(sorted(BACKENDS))} (HDF5 or ADIOS2 BP)")
    return BACKENDS[ext]


def schema_attribute(schema: Mapping[str, tuple[str, int]]) -> str:
    return json.dumps([[n, d, c] for n, (d, c) in schema.items()])


def parse_schema_attribute(text, where: str) -> list[tuple[str, str, int]]:
    try:
        raw = json.loads(text.decode() if isinstance(text, bytes) else str(text))
        out = []
        for n, d, c in raw:
            if (not isinstance(n, str) or not FIELD_NAME.match(n) or d not in DTYPES or isinstance(c, bool)
                    or not isinstance(c, int) or c < 1):
                raise ValueError
            out.append((n, d, c))
    except (ValueError, TypeError, UnicodeDecodeError):
        raise FormatError(f"{where}: attribute lodexSchema must be a JSON list of [field, dtype, components], "
                          f"got {text!r}") from None
    return out
