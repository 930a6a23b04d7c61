"""openPMD series -> lodex particle group (docs/openpmd.md), through openPMD-api."""

from __future__ import annotations

import json
import os
import re
import shutil
from typing import Any, Callable, Iterable

import numpy as np

from .._args import _path
from ..dataset import create_or_append
from ..errors import AlreadyExistsError, Error, FormatError, InvalidArgumentError, NotFoundError
from . import _mapping as m

DEFAULT_CHUNK_ROWS = 1 << 20   # rows per openPMD-api load: the read buffer beside the rank's share


class _Source:
    """Where one lodex field comes from: per component, the openPMD record component's name;
    ``si`` its unitSI; ``constant`` its value when the component is constant."""

    def __init__(self, field: str, record: str, dtype: str, comps: list[str]):
        self.field = field
        self.record = record
        self.dtype = dtype
        self.comps = comps


class _Plan:
    """A species over the imported iterations: (iteration, particle count) per step, the lodex
    schema, where each field comes from, and the domain the export recorded (if any)."""

    def __init__(self):
        self.steps: list[tuple[int, int]] = []
        self.schema: list[tuple[str, str, int]] = []
        self.sources: list[_Source] = []
        self.stored_domain = None
        self.add_offset = False   # positions are position + positionOffset (not a constant zero)


def import_series(series_path: str | os.PathLike, dataset_path, species: str, *, group: str | None = None,
                  steps: int | Iterable[int] | None = None, domain=None, partition=None, partition_grid=None,
                  particles_per_file=None, index=None, meshes=False, chunk_rows: int = DEFAULT_CHUNK_ROWS,
                  comm: Any = None, progress: Callable[[int, int], None] | None = None):
    """Import the particle species ``species`` of the openPMD series ``series_path`` (as
    openPMD-api opens it: ``run/diags/openpmd_%T.h5`` for a file-based series, ``run.bp`` for a
    group- or variable-based one) into the particle group ``group`` (default: the species' name)
    of ``dataset_path``: a path (created if missing; removed again if the import fails before
    anything went in) or a :class:`lodex.Dataset` open for writing. Collective over ``comm``
    (default: the dataset's communicator): each rank reads rows [r*N//P, (r+1)*N//P) of each
    iteration of N particles, ``chunk_rows`` rows per openPMD-api load.

    Mapping: each iteration (or those in ``steps``) a step of the same number. ``position`` =
    (``position`` * its unitSI + ``positionOffset`` * its unitSI), float64 (the record's dtype
    when the offset is a constant zero and every unitSI is 1: an export's round trip is exact).
    Every other record a field: a scalar record a field of its name, a record of k components
    (all one dtype) a field of k components (x, y, z first). Values are in SI (times unitSI; a
    record scaled so becomes float64); constant records are expanded. A series written by
    :func:`lodex.openpmd.export` gives back its schema (field order and dtypes) and domain.

    Everything about the series (its iterations, the species' records, their lengths and dtypes)
    is checked before the group is created; FormatError / NotFoundError name the file, the
    iteration and the record. The domain: ``domain``, else the exported one, else ``"auto"``
    (each step the bounds of its particles). Partition arguments as in :meth:`Dataset.particles`
    (default: one partition). A failing step commits nothing (the steps before it stay).

    ``meshes``: True (every mesh) or a list of mesh names: each such mesh of the imported
    iterations becomes a grid of its name (dims reversed from the C-ordered mesh, one component
    per mesh component, values in SI), its iterations the grid's steps; each rank reads and
    writes a slab of the slowest axis. Returns the :class:`ParticleGroup`."""
    import lodex
    if isinstance(dataset_path, lodex.Dataset):
        return _import(series_path, dataset_path, species, group, steps, domain, partition, partition_grid,
                       particles_per_file, index, meshes, chunk_rows,
                       comm if comm is not None else dataset_path._comm, progress)
    try:
        path = os.fspath(dataset_path)
    except TypeError:
        raise InvalidArgumentError(f"dataset must be a path or a lodex.Dataset, got {dataset_path!r}") from None
    ds, created = create_or_append(path, comm)
    try:
        g = _import(series_path, ds, species, group, steps, domain, partition, partition_grid,
                    particles_per_file, index, meshes, chunk_rows, comm, progress)
        ds.close()
    except Error:
        empty = created and not list(ds.particles)
        ds.close()
        if empty:   # a dataset this call created and nothing went into: leave nothing behind
            if comm is not None and comm.size > 1:
                comm.Barrier()
            if comm is None or comm.rank == 0:
                shutil.rmtree(path, ignore_errors=True)
        raise
    return lodex.open(path).particles[g.name]


def _import(series_path, ds, species, group, steps, domain, partition, partition_grid, particles_per_file,
            index, meshes, chunk_rows, comm, progress):
    rank, size = (0, 1) if comm is None else (comm.rank, comm.size)
    name = species if group is None else group

    def prepare():
        io = m.openpmd_api()
        if not isinstance(species, str) or not species:
            raise InvalidArgumentError(f"species must be a name, got {species!r}")
        if not isinstance(name, str) or not name:
            raise InvalidArgumentError(f"group must be a name, got {name!r}")
        if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, (int, np.integer)) or chunk_rows < 1:
            raise InvalidArgumentError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
        p = _series_path(series_path)
        series = _open(io, p)
        try:
            plan = _inspect(io, series, p, species, steps)
            existing = _check_target(ds, name, plan, p)
            mesh_plans = []
            if meshes is not False and meshes is not None:
                from . import meshes as mp
                wanted = True if meshes is True else [meshes] if isinstance(meshes, str) else list(meshes)
                mesh_plans = mp.inspect(io, series, p, [s for s, _ in plan.steps], wanted)
                for mplan in mesh_plans:
                    if mplan.name in ds.grids and set(ds.grids[mplan.name].steps) & set(mplan.iterations):
                        raise AlreadyExistsError(f"grid {mplan.name!r} already has steps of {p}")
        except BaseException:
            series.close()
            raise
        return io, p, series, plan, existing, mesh_plans

    io, p, series, plan, existing, mesh_plans = m.agree(comm, prepare, undo=lambda r: r[2].close())
    try:
        the_domain = domain if domain is not None else plan.stored_domain if plan.stored_domain else "auto"
        g = existing
        for done, (it_index, n) in enumerate(plan.steps, 1):
            lo, hi = m.share(n, rank, size)
            def read():
                rows = _read_rows(series, p, species, it_index, plan, lo, hi, int(chunk_rows))
                if the_domain != "auto":   # checked before the group is created or the step written
                    _check_inside(rows["position"], the_domain, f"{p}: iteration {it_index}, species {species!r}")
                return rows
            data = m.agree(comm, read)
            if g is None:
                g = ds.define_particles(name, schema={f: (d, c) for f, d, c in plan.schema}, domain=the_domain,
                                        partition=partition, partition_grid=partition_grid,
                                        particles_per_file=particles_per_file)
            g.write(it_index, data=data, index=index)
            del data
            for mplan in mesh_plans:
                if it_index in mplan.iterations:
                    _import_mesh(ds, series, p, it_index, mplan, rank, size, comm)
            if progress is not None:
                progress(done, len(plan.steps))
    finally:
        series.close()
    return g


def _import_mesh(ds, series, p: str, it_index: int, mplan, rank: int, size: int, comm) -> None:
    from . import meshes as mp

    def read():
        try:
            return mp.read_slab(series, it_index, mplan, rank, size)
        except Error:
            raise
        except Exception as e:   # noqa: BLE001 - openPMD-api's errors
            raise m.as_lodex_error(e, f"{p}: cannot read iteration {it_index}, mesh {mplan.name!r}") from e
    box, a = m.agree(comm, read)
    grid = ds.define_grid(mplan.name, dims=mplan.dims, dtype=mplan.dtype, components=len(mplan.comps))
    grid.write(it_index, box, a)


def _check_inside(pos: np.ndarray, domain, where: str) -> None:
    lo, hi = (np.asarray(v, dtype=np.float64) for v in domain)
    if not len(pos):
        return
    bad = ~np.all((pos >= lo) & (pos <= hi), axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidArgumentError(f"{where}: {int(bad.sum())} particle(s) outside the domain "
                                   f"[{tuple(lo.tolist())}, {tuple(hi.tolist())}], e.g. at "
                                   f"{tuple(float(v) for v in pos[i])}; give a domain that holds them")


def _series_path(series_path) -> str:
    p = _path(series_path, "series")
    m.backend_of(p)
    if not m.STEP_PATTERN.search(os.path.basename(p)) and not os.path.exists(p):
        raise NotFoundError(f"no openPMD series {p}")
    if m.STEP_PATTERN.search(os.path.basename(p)):
        d, base = os.path.split(p)
        prefix, _, suffix = m.STEP_PATTERN.split(base, maxsplit=1)
        name = re.compile(re.escape(prefix) + r"[0-9]+" + re.escape(suffix) + r"\Z")
        if not os.path.isdir(d or ".") or not any(name.match(e) for e in os.listdir(d or ".")):
            raise NotFoundError(f"no openPMD series {p}: no file in {d or '.'} matches {base}")
    if not m.STEP_PATTERN.search(os.path.basename(p)) and m.backend_of(p) == "HDF5":
        _check_hdf5_root(p)
    return p


def _check_hdf5_root(p: str) -> None:
    """A plain HDF5 file that is not openPMD fails here with a clear error (openPMD-api's own is
    about a missing attribute)."""
    try:
        import h5py
    except ImportError:
        return
    if not h5py.is_hdf5(p):
        raise FormatError(f"{p} is not an HDF5 file")
    with h5py.File(p, "r") as f:
        missing = [a for a in ("openPMD", "iterationEncoding", "basePath") if a not in f.attrs]
        if missing:
            raise FormatError(f"{p} is not an openPMD series: its root has no {' / '.join(missing)} attribute")
        enc = f.attrs["iterationEncoding"]
        enc = enc.decode() if isinstance(enc, bytes) else str(enc)
        if enc not in ("fileBased", "groupBased", "variableBased"):
            raise FormatError(f"{p}: unknown iterationEncoding {enc!r} (openPMD knows fileBased, groupBased, "
                              "variableBased)")


def _open(io, p: str):
    try:
        # records whose components differ in length are an error here, not skipped with a warning
        return io.Series(p, io.Access.read_only, json.dumps({"verify_homogeneous_extents": False}))
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"{p} cannot be read as an openPMD series") from e


def _wanted_iterations(series, p: str, steps) -> list[int]:
    found = sorted(int(i) for i in series.iterations)
    if not found:
        raise FormatError(f"{p}: the series holds no iterations")
    if steps is None:
        return found
    if isinstance(steps, (int, np.integer)) and not isinstance(steps, bool):
        steps = [steps]
    if isinstance(steps, (str, bytes)) or not isinstance(steps, Iterable):
        raise InvalidArgumentError(f"steps must be an iteration, a list of iterations or None, got {steps!r}")
    wanted = [int(s) for s in steps]
    if not wanted:
        raise InvalidArgumentError("steps is empty; give None for every iteration")
    for i, s in enumerate(wanted):
        if s in wanted[:i]:
            raise InvalidArgumentError(f"iteration {s} is listed twice")
        if s not in found:
            raise NotFoundError(f"{p} has no iteration {s} (iterations: {', '.join(map(str, found))})")
    return wanted


def _inspect(io, series, p: str, species: str, steps) -> _Plan:
    plan = _Plan()
    first = None
    try:
        wanted = _wanted_iterations(series, p, steps)
        for it_index in wanted:
            where = f"{p}: iteration {it_index}"
            it = series.iterations[it_index]
            if species not in it.particles:
                raise NotFoundError(f"{where} has no particle species {species!r} "
                                    f"(species: {', '.join(it.particles) or 'none'})")
            sp = it.particles[species]
            layout, n = _layout(io, sp, f"{where}, species {species!r}")
            plain = _plain_position(layout, sp)
            # records, components, dtypes and whether values are scaled must agree over iterations
            shape = {r: {c: (v[0], v[2] == 1.0) for c, v in comps.items()} for r, comps in layout.items()}
            if first is None:
                first = (it_index, shape, sp, layout)
                plan.add_offset = not plain
            elif shape != first[1]:
                raise FormatError(f"{where}: species {species!r} has records {_describe(layout)}, iteration "
                                  f"{first[0]} has {_describe(first[1])}")
            plan.steps.append((it_index, n))
            plan.add_offset = plan.add_offset or not plain
    except Error:
        raise
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"{p}: cannot read species {species!r}") from e
    _map(io, plan, first[3], first[2], f"{p}: species {species!r}")
    return plan


def _layout(io, sp, where: str) -> tuple[dict, int]:
    """{record: {component: (dtype, constant?, unitSI)}} of a species, and its particle count."""
    layout = {}
    lengths = {}
    for rname, record in sp.items():
        comps = {}
        for cname, rc in record.items():
            shape = list(rc.shape)
            label = rname if cname == io.Record_Component.SCALAR else f"{rname}/{cname}"
            if len(shape) != 1:
                raise FormatError(f"{where}: record {label} has shape {shape}; particle records are 1-D")
            dt = m.dtype_name(rc.dtype)
            if dt is None:
                raise FormatError(f"{where}: record {label} has dtype {rc.dtype}, which lodex cannot store "
                                  f"(supported: {', '.join(m.DTYPES)})")
            comps[cname] = (dt, bool(rc.constant), float(rc.unit_SI))
            lengths[label] = int(shape[0])
        layout[rname] = comps
    if "position" not in layout:
        raise FormatError(f"{where} has no record 'position' (records: {', '.join(layout) or 'none'})")
    missing = [c for c in m.COORDS if c not in layout["position"]]
    if missing:
        raise FormatError(f"{where}: record position has no component {', '.join(missing)}; lodex positions "
                          "are 3-D (x, y, z)")
    if "positionOffset" in layout and any(c not in layout["positionOffset"] for c in m.COORDS):
        raise FormatError(f"{where}: record positionOffset lacks one of x, y, z")
    if len(set(lengths.values())) > 1:
        listing = ", ".join(f"{k} ({v})" for k, v in sorted(lengths.items()))
        raise FormatError(f"{where}: the record components differ in length: {listing}")
    return layout, next(iter(lengths.values()))


def _describe(layout: dict) -> str:
    return ", ".join(sorted(layout))


def _si_dtype(dt: str, si: float) -> str:
    return dt if si == 1.0 else "f8"


def _map(io, plan: _Plan, layout: dict, sp, where: str) -> None:
    """The lodex schema of the species and each field's source."""
    pos = layout["position"]
    plan.schema.append(("position", "f8" if plan.add_offset else pos["x"][0], 3))
    plan.sources.append(_Source("position", "position", plan.schema[0][1], list(m.COORDS)))
    for rname in sorted(layout):
        if rname in ("position", "positionOffset"):
            continue
        comps = layout[rname]
        names = [io.Record_Component.SCALAR] if io.Record_Component.SCALAR in comps else m.order_components(list(comps))
        dtypes = {_si_dtype(comps[c][0], comps[c][2]) for c in names}
        if len(dtypes) > 1:
            raise FormatError(f"{where}: the components of record {rname} have different dtypes "
                              f"({', '.join(sorted(dtypes))}); a lodex field has one")
        if rname == "position" or not m.FIELD_NAME.match(rname):
            raise FormatError(f"{where}: record {rname!r} cannot be a lodex field name "
                              "(letters, digits and '_', 1 to 31 bytes)")
        plan.schema.append((rname, dtypes.pop(), len(names)))
        plan.sources.append(_Source(rname, rname, plan.schema[-1][1], names))
    if "lodexSchema" in sp.attributes:   # written by lodex: its field order
        stored = m.parse_schema_attribute(sp.get_attribute("lodexSchema"), where)
        if sorted(stored) == sorted(plan.schema):
            order = {f: i for i, (f, _, _) in enumerate(stored)}
            pairs = sorted(zip(plan.schema, plan.sources), key=lambda t: order[t[0][0]])
            plan.schema = [a for a, _ in pairs]
            plan.sources = [b for _, b in pairs]
    if "lodexAutoDomain" in sp.attributes and int(sp.get_attribute("lodexAutoDomain")):
        return   # each step had its own domain: "auto" again
    if "lodexDomain" in sp.attributes:
        d = np.asarray(sp.get_attribute("lodexDomain"), dtype=np.float64).reshape(-1)
        if d.shape == (6,) and np.all(np.isfinite(d)):
            plan.stored_domain = (tuple(d[:3].tolist()), tuple(d[3:].tolist()))


def _plain_position(layout: dict, sp) -> bool:
    """Whether positions are the position record as stored: x, y, z of one float dtype, unitSI 1,
    and positionOffset absent or a constant zero of unitSI 1 (then no arithmetic touches them)."""
    pos = layout["position"]
    off = layout.get("positionOffset", {})
    return (len({pos[c][0] for c in m.COORDS}) == 1 and pos["x"][0] in ("f4", "f8") and
            all(pos[c][2] == 1.0 for c in m.COORDS) and all(off[c][1] and off[c][2] == 1.0 for c in off) and
            _offset_zero(sp, off))


def _offset_zero(sp, off: dict) -> bool:
    if not off:
        return True
    for c in m.COORDS:
        rc = sp["positionOffset"][c]
        if not rc.constant:
            return False
        v = rc.load_chunk([0], [1]) if rc.shape[0] else np.zeros(1)
        sp.series_flush()
        if float(np.asarray(v).reshape(-1)[0]) != 0.0:
            return False
    return True


def _check_target(ds, name: str, plan: _Plan, p: str):
    """The existing group (schema checked, steps not committed) or None."""
    if name not in ds.particles:
        return None
    g = ds.particles[name]
    want = {f: (d, c) for f, d, c in plan.schema}
    if g.schema != want:
        def describe(s):
            return ", ".join(f"{n}:{d}" + (f"x{c}" if c != 1 else "") for n, (d, c) in s.items())
        raise InvalidArgumentError(f"group {name!r} exists with schema {{{describe(g.schema)}}}, not "
                                   f"{{{describe(want)}}} (the schema of {p})")
    done = sorted(set(g.steps) & {s for s, _ in plan.steps})
    if done:
        raise AlreadyExistsError(f"step{'s' if len(done) > 1 else ''} {', '.join(map(str, done))} of group "
                                 f"{name!r} already committed; steps are written once (import other "
                                 "iterations with steps=...)")
    return g


def _read_rows(series, p: str, species: str, it_index: int, plan: _Plan, lo: int, hi: int, chunk: int) -> dict:
    """This rank's rows [lo, hi) of one iteration, every field in SI, read ``chunk`` rows at a time."""
    try:
        sp = series.iterations[it_index].particles[species]
        n = hi - lo
        data = {}
        for (f, d, c), src in zip(plan.schema, plan.sources):
            a = np.empty((n,) if c == 1 else (n, c), dtype=np.dtype(d))
            for k, cname in enumerate(src.comps):
                dest = a if c == 1 else a[:, k]
                _fill(series, sp[src.record][cname], dest, lo, hi, chunk, d)
                if f == "position" and plan.add_offset and "positionOffset" in sp:
                    off = np.empty(n, dtype=np.float64)
                    _fill(series, sp["positionOffset"][cname], off, lo, hi, chunk, "f8")
                    dest += off.astype(dest.dtype, copy=False)
            data[f] = a
        return data
    except Error:
        raise
    except Exception as e:   # noqa: BLE001 - openPMD-api's errors
        raise m.as_lodex_error(e, f"{p}: cannot read iteration {it_index}, species {species!r}") from e


def _fill(series, rc, dest: np.ndarray, lo: int, hi: int, chunk: int, dtype: str) -> None:
    """``dest`` = rows [lo, hi) of the record component ``rc`` times its unitSI, in ``dtype``."""
    si = float(rc.unit_SI)
    if rc.constant:
        if hi > lo:
            v = rc.load_chunk([0], [1])
            series.flush()
            v = np.asarray(v).reshape(-1)[:1]
            dest[:] = v.astype(np.float64) * si if si != 1.0 else v
        return
    for r0 in range(lo, hi, chunk):
        r1 = min(hi, r0 + chunk)
        block = rc.load_chunk([r0], [r1 - r0])
        series.flush()
        if si != 1.0:
            block = block.astype(np.float64) * si
        dest[r0 - lo:r1 - lo] = block
