"""Particle reads and query answers as tables: pandas DataFrames on request (the optional extra
``lodex[pandas]``). A read's result stays a dict of numpy arrays; ``to_pandas()`` makes one
column per scalar field and per component of a vector field (``x``, ``y``, ``z`` for a
3-component ``position``, as the query language names them; ``name[i]`` otherwise)."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from .errors import require


def pandas_module():
    return require("pandas", "to_pandas()", "pandas")   # an optional dependency


def columns(fields: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """{column name: 1-D array}: vector fields split into their components."""
    out: dict[str, np.ndarray] = {}
    for name, a in fields.items():
        a = np.asarray(a)
        if a.ndim == 1:
            out[name] = a
            continue
        labels = ("x", "y",
                  "z") if name == "position" and a.shape[1] == 3 else [f"{name}[{i}]" for i in range(a.shape[1])]
        for i, label in enumerate(labels):
            out[label] = a[:, i]
    return out


class Particles(dict):
    """The particles of a read: {field: numpy array (n,) or (n, components)}, plus to_pandas()."""

    def to_pandas(self) -> Any:
        return pandas_module().DataFrame(columns(self))
