"""The Python package's imports point down: every module of python/lodex is parsed (imports inside
functions and methods included, ``import lodex`` too), the import graph is built, and the test
fails on any cycle and on any import from a lower layer of LAYERS to a higher one. A new module
must be placed in a layer (docs/architecture.md, "The Python package")."""

from __future__ import annotations

import ast
import os

import pytest

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "lodex")

# Lowest first. A module may import modules of its own layer or lower ones; a package name
# (lodex.scale) stands for the package and every module under it, except the root package lodex,
# which stands for its __init__ (the front door) alone.
EXTENSION = "lodex._lodex"   # the compiled core (python/bindings), imported by name only
LAYERS = [
    ("extension", [EXTENSION]),
    ("leaf", ["lodex.errors", "lodex._files", "lodex._args", "lodex._deprecation", "lodex.workloads"]),
    ("shared", ["lodex._collective", "lodex.tables", "lodex.pending", "lodex.planners", "lodex.calibrate",
                "lodex.xarray_grid"]),
    ("formats", ["lodex.h5part"]),
    ("groups", ["lodex.buffers", "lodex.particles", "lodex.grids", "lodex.series"]),
    ("dataset", ["lodex.dataset"]),
    # lodex/__init__.py imports lodex.plot, lodex.planning and lodex.openpmd on first use, by name (its
    # __getattr__), which the parse below cannot see: they are in its layer.
    ("front door", ["lodex", "lodex.xarray_backend", "lodex.scale", "lodex.planning", "lodex.plot", "lodex.openpmd"]),
    ("views", ["lodex.summary"]),
    ("services", ["lodex.serve", "lodex.paraview"]),
    ("demo", ["lodex.demo"]),
    ("command line", ["lodex.cli", "lodex.__main__"]),
]


def module_files() -> dict[str, str]:
    """{module name: file} of every .py file under python/lodex (a package is its __init__)."""
    out = {}
    for folder, dirs, files in os.walk(SOURCE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, SOURCE)
        package = ["lodex"] + ([] if rel == "." else rel.split(os.sep))
        for f in sorted(files):
            if f.endswith(".py"):
                name = package if f == "__init__.py" else package + [f[:-3]]
                out[".".join(name)] = os.path.join(folder, f)
    return out


def imports_of(name: str, path: str, modules: set[str]) -> set[str]:
    """The lodex modules ``name`` imports anywhere in its file: ``from . import errors`` is
    lodex.errors, ``from .grids import Grid`` lodex.grids, ``import lodex`` the root package; with
    the packages that importing them runs first (lodex.scale for lodex.scale.advisor), except the
    packages holding ``name`` (they are already running)."""
    is_package = path.endswith("__init__.py")
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[:len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    parts = name.split(".")
    holders = {".".join(parts[:i]) for i in range(1, len(parts))}
    out = set()
    for target in found & modules:
        out.add(target)
        pieces = target.split(".")
        out |= {".".join(pieces[:i]) for i in range(1, len(pieces))} - holders
    out.discard(name)
    return out & modules


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    modules = set(files) | {EXTENSION}
    graph = {name: imports_of(name, path, modules) for name, path in files.items()}
    graph[EXTENSION] = set()
    return graph


def layer_of(module: str) -> int | None:
    """The index in LAYERS of the most specific entry naming ``module`` or a package holding it."""
    best, depth = None, -1
    for i, (_, names) in enumerate(LAYERS):
        for entry in names:
            within = entry != "lodex" and module.startswith(entry + ".")   # the root names itself only
            if (module == entry or within) and entry.count(".") > depth:
                best, depth = i, entry.count(".")
    return best


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_package_is_found():
    graph = import_graph()
    assert {"lodex", "lodex.errors", "lodex.cli", "lodex.scale.advisor"} <= set(graph), sorted(graph)
    assert "lodex.errors" in graph["lodex"]


def test_no_import_cycles():
    found = cycles(import_graph())
    assert not found, "import cycles (imports inside functions included): " + "; ".join(
        " <-> ".join(c) for c in found)


def test_every_module_has_a_layer():
    missing = sorted(m for m in import_graph() if layer_of(m) is None)
    assert not missing, f"modules in no layer of LAYERS (place them): {missing}"


def test_imports_point_down():
    graph = import_graph()
    upward = []
    for module, targets in sorted(graph.items()):
        here = layer_of(module)
        for t in sorted(targets):
            there = layer_of(t)
            if here is not None and there is not None and there > here:
                upward.append(f"{module} ({LAYERS[here][0]}) imports {t} ({LAYERS[there][0]})")
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


@pytest.mark.parametrize("graph,expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set(), "c": {"b"}}, []),
])
def test_the_cycle_finder_finds_cycles(graph, expected):
    assert cycles(graph) == expected
