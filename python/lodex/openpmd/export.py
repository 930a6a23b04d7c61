"""lodex particle group -> openPMD series (docs/openpmd.md), through openPMD-api."""

from __future__ import annotations

import math
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable, Mapping

import numpy as np

from .._args import _path
from ..errors import AlreadyExistsError, Error, InternalError, InvalidArgumentError, NotFoundError
from . import _mapping as m


def export(dataset_path, group: str, out_pattern: str | os.PathLike, steps: int | Iterable[int] | None = None,
           fields: Iterable[str] | None = None, *, units: Mapping[str, Any] | None = None,
           encoding: str | None = None, meshes: Iterable[str] | None = None,
           grid_geometry: Mapping[str, Mapping[str, Any]] | None = None, mesh_units: Mapping[str, Any] | None = None,
           overwrite: bool = False, comm: Any = None, progress: Callable[[int, int], None] | None = None) -> dict:
    """Write steps of the particle group ``group`` of the dataset ``dataset_path`` (a path, or an
    open :class:`lodex.Dataset`) as the openPMD series ``out_pattern``: each step an iteration
    (iteration index = step), the group one species of the same name. The extension picks the
    backend (``.h5``: HDF5, ``.bp``/``.bp4``/``.bp5``: ADIOS2); ``%T`` in the name makes the
    series file-based (one file per iteration), else it is one file: group-based for HDF5,
    variable-based for ADIOS2 (openPMD-api's advice), or as ``encoding=`` ("group",
    "variable") says.

    Records: ``position/x,y,z``, ``positionOffset/x,y,z`` (constant zero), every other field a
    record (one component: scalar; three: x, y, z; k: "0" .. "k-1") with ``unitSI`` and
    ``unitDimension`` from ``units`` (field -> unitSI, or (unitSI, {"L": 1, "T": -1, ...}); by
    default 1, position a length). ``particlePatches``: one patch per lodex file of the step,
    ``offset``/``extent`` its partition box, its rows contiguous and in level-of-detail order (a
    coarse preview is a prefix of every patch; the rule is the species attribute
    ``lodexPatchOrder``). ``steps``/``fields``: None for all, or a selection.

    ``meshes``: names of grids and series of the dataset, written as openPMD meshes in each
    exported iteration where they have that step: a grid field ``f`` of grid ``g`` as the mesh
    ``g`` (one field) or ``g_f``, a series variable ``v`` of series ``s`` as the mesh ``s_v``;
    ``axisLabels`` z, y, x (x, y for 2-D data), ``dataOrder`` "C", ``gridSpacing`` 1,
    ``gridGlobalOffset`` 0, ``gridUnitSI`` 1 (lodex grids are in index space), one component
    per field component (x, y, z for three). ``grid_geometry`` gives a grid or series physical
    coordinates: {name: {"spacing": (dx, dy[, dz]), "offset": (x0, y0[, z0]), "unit_si": s}}
    (lodex's axis order x, y, z; each optional) become ``gridSpacing``, ``gridGlobalOffset`` (in
    the mesh's z, y, x order) and ``gridUnitSI``; ``mesh_units`` {mesh name: unitSI or (unitSI,
    {"L": -3, ...})} the mesh's ``unitSI`` and ``unitDimension``, as ``units`` does for records.
    One mesh step is in memory at a time. ``group`` may
    name a grid or series instead (when no particle group has that name): it and ``meshes`` are
    then exported alone, the iterations the union of their steps, without a species.

    At most two lodex files' rows are in memory at a time (the next file is read in a helper
    thread while a patch is written). The series is written into a
    temporary directory beside ``out_pattern`` and moved into place when every rank has
    succeeded; existing outputs raise AlreadyExistsError unless ``overwrite``.

    ``comm`` (collective): openPMD-api's PyPI build has no MPI, so a file-based series is split
    by iterations (each rank writes a contiguous share of the steps' files) and any other series
    is written by rank 0 alone. ``progress(done, total)`` is called after each step a rank writes.

    Returns {"path", "steps", "particles", "patches", "bytes", "seconds"} (sums over ranks)."""
    import lodex
    t0 = time.perf_counter()
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)

    def prepare():
        io = m.openpmd_api()
        out = _path(out_pattern, "out")
        m.backend_of(out)
        enc = m.encoding_of(out, encoding)
        ds = dataset_path if isinstance(dataset_path, lodex.Dataset) else lodex.open(dataset_path)
        if isinstance(group, str) and group not in ds.particles and (group in ds.grids or group in ds.series):
            # a grid or series alone: iterations of meshes only
            if fields is not None or units is not None:
                raise InvalidArgumentError(f"{group!r} is a {'grid' if group in ds.grids else 'series'}: "
                                           "fields and units select and describe a particle group's fields")
            g, chosen, unit = None, [], {}
            mesh_sources = _with_geometry(_meshes_of(ds, [group] + _names(meshes), chosen_names=[]),
                                          grid_geometry, mesh_units)
            step_list = _steps_of(sorted(set().union(*(src[1].steps for src in mesh_sources))),
                                  f"{mesh_sources[0][0]} {group!r}", steps)
        else:
            if not isinstance(group, str) or group not in ds.particles:
                raise NotFoundError(f"no particle group, grid or series {group!r} in {ds.path} (groups: "
                                    f"{', '.join(ds.particles) or 'none'}; grids: {', '.join(ds.grids) or 'none'}; "
                                    f"series: {', '.join(ds.series) or 'none'})")
            g = ds.particles[group]
            step_list = _steps_of(g.steps, f"group {g.name!r}", steps)
            chosen = _fields_of(g, fields)
            unit = m.check_units(units, {n: g.schema[n] for n in chosen})
            mesh_sources = _with_geometry(_meshes_of(ds, meshes, chosen_names=[g.name]), grid_geometry,
                                          mesh_units)
        targets = _targets(out, enc, step_list)
        existing = [t for t in targets if os.path.lexists(t)]
        if existing and not overwrite:
            raise AlreadyExistsError(f"{existing[0]} already exists; pass overwrite=True (--overwrite) to replace it")
        return io, out, enc, ds, g, step_list, chosen, unit, mesh_sources

    io, out, enc, ds, g, step_list, chosen, unit, mesh_sources = m.agree(comm, prepare)
    if enc == "file":
        mine = step_list[slice(*m.share(len(step_list), rank, size))]
    else:
        mine = step_list if rank == 0 else []
    tmp = os.path.join(os.path.dirname(os.path.abspath(out)),
                       f".{os.path.basename(out).replace('%', '_')}.tmp-{os.getpid()}-{rank}")

    def write():
        if not mine:
            return {"particles": 0, "patches": 0}
        os.makedirs(tmp)
        return _write_series(io, g, os.path.join(tmp, os.path.basename(out)), out, enc, mine, chosen, unit,
                             mesh_sources, progress)

    try:
        stats = m.agree(comm, write)
        m.agree(comm, lambda: _move_into_place(tmp, os.path.dirname(os.path.abspath(out)), overwrite))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    totals = {"particles": stats["particles"], "patches": stats["patches"]}
    if comm is not None and size > 1:
        totals = {k: comm.allreduce(v) for k, v in totals.items()}
    targets = _targets(out, enc, step_list)
    return {"path": out, "steps": list(step_list), **totals, "bytes": sum(_size(t) for t in targets),
            "seconds": time.perf_counter() - t0}


def _steps_of(committed: list[int], what: str, steps) -> list[int]:
    """The steps to export of ``committed`` (those of ``what``, e.g. "group 'e'")."""
    if steps is None:
        if not committed:
            raise InvalidArgumentError(f"{what} has no committed steps to export")
        wanted = committed
    else:
        if isinstance(steps, (int, np.integer)) and not isinstance(steps, bool):
            steps = [steps]
        if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
            raise InvalidArgumentError(f"steps must be a step, a list of steps or None, got {steps!r}")
        wanted = [int(s) for s in steps]
        if not wanted:
            raise InvalidArgumentError("steps is empty; give None for every step")
        for i, s in enumerate(wanted):
            if s in wanted[:i]:
                raise InvalidArgumentError(f"step {s} is listed twice")
            if s not in committed:
                raise NotFoundError(f"step {s} is not committed in {what} "
                                    f"(steps: {', '.join(map(str, committed))})")
    negative = [s for s in wanted if s < 0]
    if negative:
        raise InvalidArgumentError(f"step {negative[0]}: openPMD iterations are unsigned; export steps >= 0")
    return list(wanted)


def _fields_of(g, fields) -> list[str]:
    schema = g.schema
    if fields is None:
        names = list(schema)
    else:
        if isinstance(fields, str):
            fields = [fields]
        names = list(fields)
        for i, n in enumerate(names):
            if n not in schema:
                raise NotFoundError(f"no field {n!r} in group {g.name!r} ({', '.join(schema)})")
            if n in names[:i]:
                raise InvalidArgumentError(f"field {n!r} is listed twice")
    if "position" not in names:
        raise InvalidArgumentError("an openPMD species needs position; export it (fields=...)")
    if "positionOffset" in names:
        raise InvalidArgumentError("field 'positionOffset' would clash with the openPMD record of that name")
    return [n for n in schema if n in names]   # schema order


def _targets(out: str, enc: str, step_list: list[int]) -> list[str]:
    """The files (or BP directories) the series consists of."""
    if enc != "file":
        return [out]
    d, base = os.path.split(out)

    def name(s):
        return m.STEP_PATTERN.sub(lambda mt: f"{s:{mt.group(1) or ''}d}", base)
    return [os.path.join(d, name(s)) for s in step_list]


def _size(path: str) -> int:
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path) for f in fs)
    return os.path.getsize(path) if os.path.exists(path) else 0


def _move_into_place(tmp: str, dest: str, overwrite: bool) -> None:
    if not os.path.isdir(tmp):
        return
    for entry in sorted(os.listdir(tmp)):
        target = os.path.join(dest, entry)
        if os.path.lexists(target):
            if not overwrite:
                raise AlreadyExistsError(f"{target} already exists; pass overwrite=True (--overwrite) to replace it")
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            else:
                os.unlink(target)
        os.replace(os.path.join(tmp, entry), target)


def _write_series(io, g, path: str, out: str, enc: str, step_list: list[int], chosen: list[str], unit: dict,
                  mesh_sources: list, progress) -> dict:
    import lodex
    try:
        series = io.Series(path, io.Access.create)
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"openPMD export: cannot create {out}", InternalError) from e
    totals = {"particles": 0, "patches": 0}
    try:
        series.set_software("lodex", lodex.__version__)
        if enc != "file":   # (openPMD-api's default for a .bp series written step by step is variable-based)
            series.set_iteration_encoding(io.Iteration_Encoding.variable_based if enc == "variable"
                                          else io.Iteration_Encoding.group_based)
        iterations = series.write_iterations()
        for done, step in enumerate(step_list, 1):
            it = iterations[step]
            it.set_time(float(step))
            it.set_dt(1.0)
            it.set_time_unit_SI(1.0)
            for source in mesh_sources:
                _write_meshes(io, series, it, source, step)
            if g is not None:
                n, p = _write_iteration(io, series, it, g, step, chosen, unit)
                totals["particles"] += n
                totals["patches"] += p
            else:
                it.close()
            if progress is not None:
                progress(done, len(step_list))
        series.close()
        series = None
    except Error:
        raise
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"openPMD export to {out} failed", InternalError) from e
    finally:
        if series is not None:
            try:
                series.close()
            except Exception:   # noqa: BLE001 - the first error is the one to report
                pass
    return totals


def _write_iteration(io, series, it, g, step: int, chosen: list[str], unit: dict) -> tuple[int, int]:
    files = g.files(step)
    counts = [int(f["count"]) for f in files]
    total = sum(counts)
    schema = g.schema
    pos_dtype = np.dtype(schema["position"][0])
    sp = it.particles[g.name]
    _species_attributes(sp, g, step, chosen, unit["position"][0])
    comps = {}
    for name in chosen:
        dt, k = schema[name]
        record = sp[name]
        si, dims = unit[name]
        record.unit_dimension = _dimension_map(io, dims)
        for c, cname in enumerate(m.component_names(k)):
            rc = record[cname]
            rc.reset_dataset(io.Dataset(np.dtype(dt), [total]))
            rc.unit_SI = si
            comps[(name, c)] = rc
    offset = sp["positionOffset"]
    offset.unit_dimension = _dimension_map(io, unit["position"][1])
    for cname in m.COORDS:
        rc = offset[cname]
        rc.reset_dataset(io.Dataset(pos_dtype, [total]))
        rc.make_constant(pos_dtype.type(0))
        rc.unit_SI = unit["position"][0]
    # an iteration without files (no particles) has no patches: openPMD-api cannot read back
    # patch records of extent 0
    patches = _declare_patches(io, sp, len(files), unit["position"]) if files else None
    boxes = _patch_boxes(files, g.step_domain(step)[1])
    start = 0
    for i, columns in enumerate(_prefetched(lambda i: _patch_columns(g, step, boxes[i], counts[i], chosen,
                                                                     files[i]["file"], schema), len(files))):
        count = counts[i]
        if count:
            for key, rc in comps.items():
                rc.store_chunk(columns[key], [start], [count])
        _store_patch(patches, i, start, count, *boxes[i])
        series.flush()   # the patch's columns are written: at most two files' rows in memory
        del columns
        start += count
    it.close()
    return total, len(files)


def _names(names) -> list[str]:
    return [] if names is None else [names] if isinstance(names, str) else list(names)


def _meshes_of(ds, names, chosen_names) -> list:
    """(kind, object, [(mesh name, field or variable, dtype, components)]) per grid or series."""
    names = _names(names)
    out = []
    taken = set(chosen_names)
    for name in names:
        if name in ds.grids:
            grid = ds.grids[name]
            fields = grid.fields
            items = [(name if len(fields) == 1 else f"{name}_{f}", f, d, c) for f, (d, c) in fields.items()]
            out.append(("grid", grid, items))
        elif name in ds.series:
            series = ds.series[name]
            items = [(f"{name}_{v}", v, d, 1) for v, (d, _) in series.variables.items()]
            out.append(("series", series, items))
        else:
            raise NotFoundError(f"meshes: no grid or series {name!r} in {ds.path} (grids: "
                                f"{', '.join(ds.grids) or 'none'}; series: {', '.join(ds.series) or 'none'})")
        for mesh_name, *_ in out[-1][2]:
            if mesh_name in taken:
                raise InvalidArgumentError(f"meshes: two meshes would be named {mesh_name!r}")
            taken.add(mesh_name)
    return out


GEOMETRY_KEYS = ("spacing", "offset", "unit_si")


def _with_geometry(sources: list, geometry, units) -> list:
    """Each (kind, object, items) of :func:`_meshes_of` with its geometry (spacing, offset in x, y,
    z order; gridUnitSI) and its meshes' (unitSI, unitDimension), checked: names must be exported
    grids and series (meshes), lengths the grid's dimensions, numbers finite (spacing and unitSI
    positive)."""
    by_name = {obj.name: (kind, obj, items) for kind, obj, items in sources}
    geometry = {} if geometry is None else geometry
    if not isinstance(geometry, Mapping):
        raise InvalidArgumentError(f"grid_geometry must be a dict grid or series -> {{spacing, offset, unit_si}}, "
                                   f"got {geometry!r}")
    for name in geometry:
        if name not in by_name:
            raise NotFoundError(f"grid_geometry: {name!r} is not an exported grid or series "
                                f"({', '.join(by_name) or 'none'})")
    mesh_names = [item[0] for _, _, items in sources for item in items]
    unit = m.check_units(units, {n: None for n in mesh_names}, what="mesh_units", default_dims={})
    out = []
    for kind, obj, items in sources:
        geo = _geometry(obj.name, len(obj.dims), geometry.get(obj.name, {}))
        out.append((kind, obj, items, geo, {n: unit[n] for n, *_ in items}))
    return out


def _geometry(name: str, nd: int, given) -> dict:
    if not isinstance(given, Mapping) or set(given) - set(GEOMETRY_KEYS):
        raise InvalidArgumentError(f"grid_geometry[{name!r}] must be a dict with keys among "
                                   f"{', '.join(GEOMETRY_KEYS)}, got {given!r}")
    geo = {"spacing": (1.0,) * nd, "offset": (0.0,) * nd, "unit_si": 1.0}
    for key in ("spacing", "offset"):
        if key in given:
            v = given[key]
            try:
                t = tuple(float(x) for x in v)
            except (TypeError, ValueError):
                t = ()
            if len(t) != nd or not all(np.isfinite(t)) or (key == "spacing" and min(t) <= 0):
                raise InvalidArgumentError(f"grid_geometry[{name!r}][{key!r}] must be {nd} finite numbers "
                                           f"(x, y{', z' if nd == 3 else ''}){', each > 0' if key == 'spacing' else ''}"
                                           f", got {v!r}")
            geo[key] = t
    if "unit_si" in given:
        u = given["unit_si"]
        if isinstance(u, bool) or not isinstance(u, (int, float, np.integer, np.floating)) or not np.isfinite(u) \
                or u <= 0:
            raise InvalidArgumentError(f"grid_geometry[{name!r}]['unit_si'] must be a positive number, got {u!r}")
        geo["unit_si"] = float(u)
    return geo


def _write_meshes(io, series, it, source, step: int) -> None:
    """The grid's fields or the series' variables at ``step`` as meshes of the iteration ``it``
    (nothing when the grid or series has no such step)."""
    kind, obj, items, geo, units = source
    if step not in obj.steps:
        return
    for mesh_name, field, dtype, comps in items:
        a = obj.read(step, field=field) if kind == "grid" else obj.read(step, None, field)
        a = np.ascontiguousarray(a).view(np.dtype(dtype))
        spatial = a.shape if comps == 1 else a.shape[:-1]
        nd = len(spatial)
        mesh = it.meshes[mesh_name]
        mesh.geometry = io.Geometry.cartesian
        mesh.axis_labels = ["z", "y", "x"][3 - nd:]
        mesh.data_order = "C"
        # lodex's x, y, z of a grid; openPMD's in the mesh's axis order (z, y, x)
        mesh.grid_spacing = list(geo["spacing"][:nd][::-1])
        mesh.grid_global_offset = list(geo["offset"][:nd][::-1])
        mesh.grid_unit_SI = geo["unit_si"]
        si, dims = units[mesh_name]
        mesh.unit_dimension = _dimension_map(io, dims)
        mesh.set_attribute("lodexSource", f"{kind} {obj.name}" + (f", field {field}" if kind == "grid" else
                                                                  f", variable {field}"))
        for c, cname in enumerate(m.component_names(comps)):
            rc = mesh[cname]
            rc.reset_dataset(io.Dataset(np.dtype(dtype), list(spatial)))
            rc.unit_SI = si
            rc.position = [0.0] * nd
            col = a if comps == 1 else np.ascontiguousarray(a[..., c])
            rc.store_chunk(col, [0] * nd, list(spatial))
        series.flush()   # one mesh step in memory at a time
        del a


def _species_attributes(sp, g, step: int, chosen: list[str], pos_si: float) -> None:
    schema = g.schema
    lo, hi = (tuple(v * pos_si for v in corner) for corner in g.step_domain(step))   # in SI
    sp.set_attribute("lodexGroup", g.name)
    sp.set_attribute("lodexSchema", m.schema_attribute({n: schema[n] for n in chosen}))
    sp.set_attribute("lodexDomain", [float(v) for v in tuple(lo) + tuple(hi)])   # the step's
    sp.set_attribute("lodexAutoDomain", np.int64(bool(g.auto_domain)))   # each step its own domain
    sp.set_attribute("lodexPatchOrder", m.LOD_RULE)
    sp.set_attribute("lodexLevelP", np.uint64(m.LOD_P))
    sp.set_attribute("lodexLevelS", float(m.LOD_S))


def _dimension_map(io, dims: tuple) -> dict:
    keys = [io.Unit_Dimension.L, io.Unit_Dimension.M, io.Unit_Dimension.T, io.Unit_Dimension.I,
            io.Unit_Dimension.theta, io.Unit_Dimension.N, io.Unit_Dimension.J]
    return {k: float(v) for k, v in zip(keys, dims) if v}


def _declare_patches(io, sp, n: int, pos_unit) -> dict:
    """The patch records of ``n`` patches; offset and extent in float64 whatever the positions'
    dtype (a float32 corner could round to the wrong side of a particle)."""
    pp = sp.particle_patches
    out = {}
    for name in ("numParticles", "numParticlesOffset"):
        rc = pp[name][io.Record_Component.SCALAR]
        rc.reset_dataset(io.Dataset(np.dtype("u8"), [n]))
        out[name] = rc
    for name in ("offset", "extent"):
        pp[name].unit_dimension = _dimension_map(io, pos_unit[1])
        for cname in m.COORDS:
            rc = pp[name][cname]
            rc.reset_dataset(io.Dataset(np.dtype("f8"), [n]))
            rc.unit_SI = pos_unit[0]
            out[(name, cname)] = rc
    return out


def _store_patch(patches: dict, i: int, start: int, count: int, lo, hi) -> None:
    patches["numParticles"].store(i, np.uint64(count))
    patches["numParticlesOffset"].store(i, np.uint64(start))
    for a, cname in enumerate(m.COORDS):
        extent = hi[a] - lo[a]
        while lo[a] + extent < hi[a]:   # offset + extent reaches the box's (excluded) max
            extent = math.nextafter(extent, math.inf)
        patches[("offset", cname)].store(i, np.float64(lo[a]))
        patches[("extent", cname)].store(i, np.float64(extent))


def _patch_boxes(files: list[dict], d_hi) -> list[tuple[list[float], list[float]]]:
    """Each file's partition box as its patch: boxes exclude their max, as openPMD's patches do
    (offset + extent is outside); the domain includes its max, so a face on it moves just past it."""
    out = []
    for f in files:
        lo = [float(v) for v in f["partition_box"]["min"]]
        hi = [math.nextafter(float(h), math.inf) if h >= dh else float(h)
              for h, dh in zip(f["partition_box"]["max"], d_hi)]
        out.append((lo, hi))
    return out


def _prefetched(load: Callable[[int], Any], n: int):
    """load(0), ..., load(n - 1) in order, each computed in a helper thread while the caller
    works on the one before (lodex's reads release the GIL): at most two results alive."""
    if n == 0:
        return
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="lodex-openpmd") as pool:
        ahead = pool.submit(load, 0)
        for i in range(n):
            current = ahead.result()
            if i + 1 < n:
                ahead = pool.submit(load, i + 1)
            yield current
            del current


def _patch_columns(g, step: int, box, count: int, chosen: list[str], file: str, schema: dict) -> dict:
    """{(field, component): contiguous column} of one lodex file's rows in level-of-detail order,
    each in the dtype as declared (numpy's uint64 'Q' and 'L' are one type to lodex, two to
    openPMD-api)."""
    rows = _patch_rows(g, step, box, count, chosen, file)
    out = {}
    for name in chosen:
        a = rows[name]
        dt = np.dtype(schema[name][0])
        for c in range(schema[name][1]):
            out[(name, c)] = np.ascontiguousarray(a if a.ndim == 1 else a[:, c]).view(dt)
    return out


def _patch_rows(g, step: int, box, count: int, chosen: list[str], file: str) -> dict:
    """The rows of one lodex file in level-of-detail order: the levels of a refinement of its
    partition box (max excluded), coarse to fine."""
    lo, hi = box
    schema = g.schema
    if count == 0:
        return {n: np.empty((0,) if schema[n][1] == 1 else (0, schema[n][1]), dtype=schema[n][0]) for n in chosen}
    levels = list(g.refine(step, box=(lo, hi), fields=chosen))
    rows = {n: np.concatenate([lv[n] for lv in levels]) for n in chosen}
    got = len(rows["position"])
    if got != count:
        raise InternalError(f"step {step}: the partition box of {file} holds {got} particles, its metadata "
                            f"counts {count}")
    return rows
