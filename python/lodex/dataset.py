"""Datasets: ``lodex.create``, ``lodex.open`` and the :class:`Dataset` holding a dataset's
particle groups, grids and series."""

from __future__ import annotations

import atexit
import os
import sys
import weakref
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Sequence

from . import _lodex
from ._args import DEFAULT_LOD, Box, _box, _count, _partition_spec, _periodic, _schema
from ._collective import _collective_input, _truncate
from .calibrate import settings_of
from ._deprecation import keyword_options, warn
from .errors import AlreadyExistsError, InvalidArgumentError
from .errors import Error as LodexError
from .grids import Grid, define_grid
from .h5part import import_h5part
from .particles import ParticleGroup
from .series import Series, define_series


class GroupMap(Mapping):
    """The groups of one kind of a dataset by name, read-only (:attr:`Dataset.particles`,
    :attr:`Dataset.grids`, :attr:`Dataset.series`): ``ds.particles["electrons"]`` opens a group
    (local, no MPI), ``"electrons" in ds.particles`` and ``list(ds.grids)`` look at the names. A
    name that is not there raises NotFoundError (a LookupError)."""

    def __init__(self, dataset: "Dataset", kind: str, names: Callable[[], list[str]], open_: Callable[[str], Any],
                 legacy: Callable[..., Any] | None = None, old_list: str | None = None):
        self._dataset = dataset
        self._kind = kind
        self._names = names
        self._open = open_
        self._legacy = legacy        # the method this property replaced (deprecated)
        self._old_list = old_list    # the list property this mapping replaced (deprecated), for its warning

    def __getitem__(self, name: str) -> Any:
        if isinstance(name, int) and not isinstance(name, bool) and self._old_list:
            warn(f"{self._old_list}[i] (a list of names)", f"list({self._old_list})[i]")
            return list(self._names())[name]
        return self._open(name)   # the core's NotFoundError names what is there

    def __contains__(self, name: object) -> bool:
        return name in list(self._names())

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names()))

    def __len__(self) -> int:
        return len(list(self._names()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple)) and self._old_list:
            warn(f"comparing {self._old_list} with a list (it was a list of names)",
                 f"list({self._old_list})")
            return list(self) == list(other)
        return super().__eq__(other)

    __hash__ = None

    def __add__(self, other: Any) -> list[str]:
        if isinstance(other, (list, tuple)) and self._old_list:
            warn(f"{self._old_list} + a list (it was a list of names)", f"list({self._old_list}) + ...")
            return list(self) + list(other)
        return NotImplemented

    def __radd__(self, other: Any) -> list[str]:
        if isinstance(other, (list, tuple)) and self._old_list:
            warn(f"a list + {self._old_list} (it was a list of names)", f"... + list({self._old_list})")
            return list(other) + list(self)
        return NotImplemented

    def __call__(self, *args: Any, **kw: Any) -> Any:
        if self._legacy is None:
            raise TypeError(f"the {self._kind}s of a dataset are a mapping, not callable")
        return self._legacy(*args, **kw)

    def __repr__(self) -> str:
        return f"<lodex {self._kind}s {list(self)}>"


class Dataset:
    """A lodex dataset directory: :func:`create` or :func:`open` one. Its groups, by kind:
    :attr:`particles`, :attr:`grids` and :attr:`series` (mappings name -> group); new ones come
    from :meth:`define_particles`, :meth:`define_grid` and :meth:`define_series`."""

    def __init__(self, core: Any, comm: Any):
        self._core = core
        self._comm = comm
        self._groups: dict[str, ParticleGroup] = {}
        self._series: dict[str, Series] = {}
        if core.writable:
            _unclosed.add(self)

    @property
    def path(self) -> str:
        return self._core.path

    @property
    def particles(self) -> GroupMap:
        """The particle groups: ``ds.particles["electrons"]`` (a :class:`ParticleGroup`)."""
        return GroupMap(self, "particle group", self._core.particle_group_names, self._particle_group,
                        legacy=self._particles_call)

    @property
    def grids(self) -> GroupMap:
        """The grids: ``ds.grids["rho"]`` (a :class:`Grid`)."""
        return GroupMap(self, "grid", self._core.grid_names, lambda name: Grid(self, self._core.grid(name)),
                        old_list="Dataset.grids")

    @property
    def series(self) -> GroupMap:
        """The series: ``ds.series["geos"]`` (a :class:`Series`)."""
        return GroupMap(self, "series", self._core.series_names, lambda name: self._series_of(self._core.series(name)),
                        legacy=self._series_call)

    def _particle_group(self, name: str) -> ParticleGroup:
        core = self._core.particles(name)   # NotFound, or a closed dataset, raises here
        if name not in self._groups:
            self._groups[name] = ParticleGroup(self, core)
        return self._groups[name]

    def _series_of(self, core: Any) -> Series:
        if core.name not in self._series:
            self._series[core.name] = Series(self, core)
        return self._series[core.name]

    def define_particles(self, name: str, schema: Mapping[str, Any] | None = None, *, domain: Box | str | None = None,
                         partition: Sequence[int] | str | None = None, partition_grid: Sequence[int] | None = None,
                         lod: Mapping[str, int] | None = None, particles_per_file: int | None = None,
                         file_bytes: int | None = None,
                         periodic: bool | Sequence[bool] | None = None) -> ParticleGroup:
        """Collective: define the particle group ``name`` of ``schema`` (``{"position": ("f8", 3),
        "energy": "f4"}``), or check that the existing group matches (a restarted writer defines
        it again); returns it. ``partition=(Px, Py, Pz)`` is the aggregation partition factor
        relative to the ranks' patches; ``partition_grid=(gx, gy, gz)`` instead cuts the domain
        into a fixed grid independent of the patches; ``partition="adaptive"`` cuts it by a k-d
        tree over where the particles are, into files of about ``particles_per_file`` particles
        (or ``file_bytes`` bytes of columns) each, the files' aggregators spread over the ranks
        (several files per rank when there are more files than ranks; docs/adaptive.md). With
        none, the whole domain is one partition (one file per step: right for a serial writer, a
        bottleneck for many ranks).

        ``domain``: the box ``((x0, y0, z0), (x1, y1, z1))`` every particle lies in, its maximum
        included; a particle outside it is an error. ``periodic=(True, True, False)`` (or one bool
        for every axis) makes axes periodic: positions are wrapped into ``[min, max)`` on write
        (the maximum maps to the minimum), and a read box may reach past the domain on those axes
        to get the wrapped images. ``domain="auto"``: no fixed box; each step's domain is the
        bounding box of its particles (:meth:`ParticleGroup.step_domain`), for shrinking or
        expanding systems (docs/writes.md, "Domains")."""
        with _collective_input(self._core.define_particles, _lodex.ParticleDefinition, "group definition"):
            request = _lodex.ParticleDefinition(name=name, **self._definition(
                schema, domain, partition, partition_grid, lod, particles_per_file, file_bytes, periodic))
        core = self._core.define_particles(request)
        if name not in self._groups:
            self._groups[name] = ParticleGroup(self, core)
        return self._groups[name]

    def define_grid(self, name: str, dims: Sequence[int] | None = None, dtype: Any = None, *, components: int = 1,
                    fields: Mapping[str, Any] | None = None, bitmask: str | None = None,
                    bits_per_block: int | None = None, blocks_per_file: int = 256, aggregation: str = "localized",
                    partitions: int = 1, compression: str | None = None, index_space: str = "global") -> Grid:
        """Collective: define the grid variable ``name``, an IDX dataset (``<name>.idx``) OpenVisus
        opens, or check that the existing one matches; returns it. ``dims=(x, y[, z])``;
        one field ``dtype`` x ``components`` named like the grid, or several with
        ``fields={"p": "f8", "u": ("f8", 3)}``. ``bitmask`` (the indexing template) default:
        derived at the first write from how the ranks' boxes are laid out (rank-conforming,
        Kumar et al. 2017 §III-B). ``bits_per_block`` default 15 (or the whole grid if smaller);
        ``aggregation``: "localized" (each file's aggregator inside the file's group of ranks)
        or "uniform"; ``compression``: None or "zip". ``partitions`` (a power of two, Kumar et al. 2017
        §IV): the first log2(partitions) template characters split the grid into boxes, each
        rank's box inside one, each aggregated by its own ranks; ``index_space="global"`` keeps
        one IDX dataset (the coarse blocks partitions share are merged), ``"local"`` writes one
        IDX dataset per partition (``Grid.idx_paths``) that lodex reads as one grid."""
        core = define_grid(self, name, dims, dtype, components, bitmask, bits_per_block, blocks_per_file,
                           aggregation, partitions, compression, fields, index_space)
        return Grid(self, core)

    def define_series(self, name: str, dims: Sequence[int] | None = None,
                      variables: Mapping[str, Any] | None = None, *, memory_budget: int | None = None,
                      d_tar: int | None = None, d_sar: int | None = None,
                      bw_io: float | None = None, cc: float | None = None, ts: float | None = None,
                      calibration: Any = None, max_window_steps: int | None = None,
                      max_window_seconds: float | None = None) -> Series:
        """The series ``name`` (Tian et al. 2013, STAR; docs/series.md): variables of a regular grid
        ``dims=(x, y, z)`` written every step, ``variables={"T": ("f4", 3), "PS": ("f4", 2)}``
        (3-D: (z, y, x); 2-D: (y, x)). Collective: define it, or check that the existing one
        matches; returns it. Each rank keeps d_tar steps in memory (temporal
        aggregation) and groups of 2^n neighbouring ranks merge their chunks over d_sar levels
        (spatial aggregation). Both follow from OptSize = bw_io x (cc + ts) and
        ``memory_budget`` (bytes per rank, default 256 MiB) unless forced.

        ``bw_io`` (bytes/s of one storage target), ``cc`` (s, the communication cost unit) and
        ``ts`` (s per request) default to Lustre-like 500e6, 1e-3 and 5e-3. ``calibration``
        replaces all three by measured values: a :class:`lodex.Calibration` (from
        :func:`lodex.calibrate`), a mapping with bw_io, cc and ts, or the path of a calibration
        saved by ``Calibration.save`` or ``lodex calibrate --out``; giving it with any of bw_io,
        cc or ts is an InvalidArgumentError.

        What a crash of the writer can lose is bounded: a window holds at most
        ``max_window_steps`` steps (default 32; d_tar is capped there), and a window whose first
        step is ``max_window_seconds`` old (default 600; ``math.inf``: no bound) is written at the
        next write, full or not. The plan (``d_tar``, ``d_sar``) is fixed and visible from the
        first write on; ``buffered_steps`` lists what is not on disk yet. Every rank must pass the
        same values."""
        if calibration is not None:
            with _collective_input(self._core.define_series, _lodex.SeriesDefinition, "series calibration"):
                given = [k for k, v in (("bw_io", bw_io), ("cc", cc), ("ts", ts)) if v is not None]
                if given:
                    raise InvalidArgumentError(f"give calibration or {', '.join(given)}, not both "
                                               "(the calibration sets bw_io, cc and ts)")
                cal = settings_of(calibration)
            bw_io, cc, ts = cal["bw_io"], cal["cc"], cal["ts"]
        bw_io = 500e6 if bw_io is None else bw_io
        cc = 1e-3 if cc is None else cc
        ts = 5e-3 if ts is None else ts
        return self._series_of(define_series(self, name, dims, variables, memory_budget, d_tar, d_sar, bw_io, cc,
                                             ts, max_window_steps, max_window_seconds))

    @staticmethod
    def _definition(schema, domain, partition, partition_grid, lod, particles_per_file=None,
                    file_bytes=None, periodic=None) -> dict[str, Any]:
        if domain is None:
            raise InvalidArgumentError('a new particle group needs a domain (a box, or "auto")')
        auto = isinstance(domain, str)
        if auto and domain != "auto":
            raise InvalidArgumentError(f'domain must be a box ((x0, y0, z0), (x1, y1, z1)) or "auto", got {domain!r}')
        lo, hi = ([0.0] * 3, [1.0] * 3) if auto else _box(domain, "domain")
        fields = _schema(schema)
        mode, dims, target = _partition_spec(partition, partition_grid, particles_per_file, file_bytes, fields)
        opts = dict(DEFAULT_LOD)
        for k, v in (lod or {}).items():
            if k not in opts:
                raise InvalidArgumentError(f"unknown lod setting {k!r}; known: {sorted(opts)}")
            opts[k] = int(v)
        return dict(fields=fields, lo=lo, hi=hi, mode=mode, dims=dims, particles_per_file=target,
                    scale=opts["scale"], level0_max=opts["level0_max"], brick_target=opts["brick_target"],
                    seed=opts["seed"], periodic=_periodic(periodic), auto_domain=auto)

    def import_h5part(self, path: str | os.PathLike, name: str, **kw) -> ParticleGroup:
        """Import the H5Part file ``path`` into the particle group ``name`` (collective over this
        dataset's communicator; mode "a" or a new dataset). Keywords: domain, steps, partition,
        partition_grid, particles_per_file, index, progress (see :func:`lodex.h5part.import_h5part`)."""
        kw.setdefault("comm", self._comm)
        return import_h5part(path, self, name, **kw)

    # The spellings of the previous release (deprecated).

    @property
    def groups(self) -> list[str]:
        """Deprecated: ``list(ds.particles)``."""
        warn("Dataset.groups", "Dataset.particles (a mapping name -> group; list(ds.particles) for the names)")
        return list(self._core.particle_group_names())

    @property
    def series_names(self) -> list[str]:
        """Deprecated: ``list(ds.series)``."""
        warn("Dataset.series_names", "Dataset.series (a mapping name -> series; list(ds.series) for the names)")
        return list(self._core.series_names())

    def _particles_call(self, name: str, schema: Mapping[str, Any] | None = None, domain: Any = None,
                        partition: Any = None, partition_grid: Any = None, lod: Any = None, **kw: Any):
        """``ds.particles(name)`` and ``ds.particles(name, schema, ...)``, deprecated."""
        options = dict(domain=domain, partition=partition, partition_grid=partition_grid, lod=lod, **kw)
        if schema is None:
            warn("ds.particles(name)", "ds.particles[name]", stacklevel=4)
            if any(v is not None for v in options.values()):
                raise InvalidArgumentError("domain, periodic and partition need a schema")
            return self.particles[name]
        warn("ds.particles(name, schema, ...)", "ds.define_particles(name, schema, ...)", stacklevel=4)
        return self.define_particles(name, schema, **options)

    def grid(self, name: str, dims: Sequence[int] | None = None, dtype: Any = None, components: int = 1,
             bitmask: str | None = None, bits_per_block: int | None = None, blocks_per_file: int = 256,
             aggregation: str = "localized", partitions: int = 1, compression: str | None = None, *,
             fields: Mapping[str, Any] | None = None, index_space: str = "global") -> Grid:
        """Deprecated: ``ds.grids[name]`` opens a grid, :meth:`define_grid` defines one."""
        if dims is None and dtype is None and fields is None:
            warn("ds.grid(name)", "ds.grids[name]")
            return self.grids[name]
        warn("ds.grid(name, dims, ...)", "ds.define_grid(name, dims, ...)")
        return self.define_grid(name, dims, dtype, components=components, fields=fields, bitmask=bitmask,
                                bits_per_block=bits_per_block, blocks_per_file=blocks_per_file,
                                aggregation=aggregation, partitions=partitions, compression=compression,
                                index_space=index_space)

    def _series_call(self, name: str, dims: Sequence[int] | None = None, variables: Mapping[str, Any] | None = None,
                     memory_budget: int | None = None, d_tar: int | None = None, d_sar: int | None = None,
                     **kw: Any) -> Series:
        """``ds.series(name)`` and ``ds.series(name, dims, variables, ...)``, deprecated."""
        options = dict(memory_budget=memory_budget, d_tar=d_tar, d_sar=d_sar, **kw)
        if dims is None and variables is None:
            warn("ds.series(name)", "ds.series[name]", stacklevel=4)
            if any(v is not None for v in options.values()):
                raise InvalidArgumentError("memory_budget, d_tar, d_sar, bw_io, cc, ts, calibration and the "
                                           "window bounds need dims and variables")
            return self.series[name]
        warn("ds.series(name, dims, variables, ...)", "ds.define_series(name, dims, variables, ...)", stacklevel=4)
        return self.define_series(name, dims, variables, **options)

    @property
    def pending_bytes(self) -> int:
        """The bytes this rank passed to the asynchronous steps still in flight (``wait=False``),
        over every group; ``max_pending_bytes`` of :func:`create` or :func:`open` bounds them."""
        return self._core.pending_bytes

    def truncate(self, after: int) -> dict[str, list[int]]:
        """Collective (mode "a"): ``truncate(after)`` of every particle group, grid and series of
        the dataset at once (one atomic manifest replace): restart a simulation from the
        checkpoint of step ``after``. Returns the steps removed per group. A series whose window
        holds steps on both sides of ``after`` refuses it (InvalidArgumentError naming the window
        and the steps a truncate may keep), and then nothing is removed from any group."""
        return {name: steps for name, _kind, steps in _truncate(self._core, after)}

    def close(self) -> None:
        """Collective in write modes: series write their buffered steps first and the steps still
        in flight (``wait=False``) are completed and committed. Committed steps are already
        durable; close only ends use. A program that ends without closing a dataset it writes
        commits neither: lodex then names them on standard error as the interpreter exits."""
        _unclosed.discard(self)
        self._core.close()

    def _uncommitted(self) -> list[str]:
        """Local: the steps of this rank's groups that close would still commit or write (in flight,
        or buffered in a series' window), as phrases naming the group and the steps."""
        out = []
        for kind, names, group in (("particle group", self._core.particle_group_names, self._core.particles),
                                   ("grid", self._core.grid_names, self._core.grid),
                                   ("series", self._core.series_names, self._core.series)):
            for name in names():
                g = group(name)
                if g.pending_step >= 0:
                    out.append(f"{kind} {name!r}: the steps in flight up to {g.pending_step}")
                buffered = list(g.buffered_steps) if kind == "series" else []   # a series' window
                if buffered:
                    out.append(f"{kind} {name!r}: the steps {buffered} buffered in its window")
        return out

    def __enter__(self) -> "Dataset":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<lodex.Dataset {self.path!r} particles={list(self.particles)} grids={list(self.grids)} "
                f"series={list(self.series)}>")


# The datasets open to write and not closed: as the interpreter exits (before mpi4py ends MPI),
# the steps a close would have committed are named on standard error (by the dataset's rank 0),
# since they are lost. No collective call is made then (a close at exit would commit them, but one
# rank ending early, on an error, would hang the others' exit in it).
_unclosed: "weakref.WeakSet[Dataset]" = weakref.WeakSet()


@atexit.register
def _name_uncommitted_steps() -> None:
    for ds in list(_unclosed):
        try:
            lost = ds._uncommitted()
        except LodexError:   # a dataset its core closed already (a failed collective): nothing to name
            continue
        if lost and ds._core.rank == 0:   # every rank holds the same steps: one line, not one a rank
            sys.stderr.write(f"lodex: dataset {ds.path!r} was not closed; not committed: {'; '.join(lost)} "
                             "(call close(), or write in a with block)\n")


def _exchange(exchange: str | None) -> str:
    return exchange if exchange is not None else os.environ.get("LODEX_EXCHANGE", "node")


def _pending_budget(max_pending_bytes: Any) -> int | None:
    """None (no bound) or a byte count, checked as every count argument is (_args._count)."""
    return None if max_pending_bytes is None else _count(max_pending_bytes, "max_pending_bytes", 0, 2**63 - 1)


@keyword_options(1, ("comm", "fsync", "exchange", "allow_outside"), "lodex.create")
def create(path: str | os.PathLike, *, comm: Any = None, fsync: bool = False, exchange: str | None = None,
           allow_outside: bool = False, max_pending_bytes: int | None = None) -> Dataset:
    """Create a new dataset (collective over ``comm``; serial when ``comm`` is None).
    Raises AlreadyExistsError if ``path`` exists. The dataset is held by this writer's lock until
    closed (as ``open(mode="a")``). ``fsync=True`` makes every committed step
    durable on disk before the write returns. ``exchange``: how particles reach their files:
    "node" (default: the ranks of a partition on one node copy their particles into an MPI-3
    shared-memory window and write its file together, each a slice; where no partition has two
    writers on a node, as "p2p"), "p2p" (non-blocking point-to-point messages to one aggregator
    per partition, which writes the file alone, as in the paper) or "shm" (that one aggregator,
    same-node ranks copying into its shared window); the files' bytes are the same with every
    method. The LODEX_EXCHANGE environment variable sets the default. ``allow_outside=True``:
    reads may open files whose real location, symbolic links resolved, is outside the dataset's
    directory (by default such a file is a FormatError; see docs/reliability.md). ``max_pending_bytes``:
    the bytes of asynchronous steps (``wait=False``) in flight on each rank, over every group (None,
    the default: one step in flight per group, no bound over the groups); an asynchronous write first
    completes the oldest pending steps until its own bytes fit, and a step larger than the budget by
    itself is written before the call returns. With a budget a particle group keeps up to four steps
    in flight (docs/writes.md, "Asynchronous steps")."""
    budget = _pending_budget(max_pending_bytes)
    try:
        core = _lodex.Dataset.create(os.fspath(path), comm=comm, fsync=fsync, exchange=_exchange(exchange),
                                     allow_outside=bool(allow_outside), max_pending_bytes=budget)
    except AlreadyExistsError as e:
        raise AlreadyExistsError(f"{e}; to add steps to it, open it with lodex.open({os.fspath(path)!r}, "
                                 f"mode=\"a\"){_serial_under_mpiexec_hint(comm)}") from None
    return Dataset(core, comm)


def _serial_under_mpiexec_hint(comm: Any) -> str:
    """A hint for the processes of an mpiexec run that each called create without comm=: every
    one of them but the first finds the dataset the first one made."""
    if comm is not None:
        return ""
    for var in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"):
        size = os.environ.get(var, "")
        if size.isdigit() and int(size) > 1:
            return (f". This process is one of {size} started by mpiexec and passed no comm=, so each process "
                    f"tried to create the dataset on its own: pass comm=MPI.COMM_WORLD (from mpi4py import MPI)")
    return ""


@keyword_options(2, ("comm", "fsync", "exchange", "allow_outside"), "lodex.open")
def open(path: str | os.PathLike, mode: str = "r", *, comm: Any = None, fsync: bool = False,  # noqa: A001 - as builtins.open
         exchange: str | None = None, allow_outside: bool = False, max_pending_bytes: int | None = None) -> Dataset:
    """Open a dataset: ``mode="r"`` to read (no MPI needed), ``mode="a"`` to append steps
    (collective over ``comm``; ``fsync``, ``exchange``, ``allow_outside`` and ``max_pending_bytes`` as
    in :func:`create`).
    Appending takes the dataset's writer lock (``lodex.lock``, held until :meth:`Dataset.close`,
    the dataset's release or the process's normal exit): while another process holds it, every
    rank raises AlreadyExistsError naming its host:pid and since when; a lock left by a dead
    process of this host is taken over, one of another host is removed with ``lodex unlock``.
    A commit finding that another writer replaced the manifest since is refused the same way.
    Reading never locks (docs/reliability.md, "Writer lock")."""
    budget = _pending_budget(max_pending_bytes)
    return Dataset(_lodex.Dataset.open(os.fspath(path), mode=mode, comm=comm, fsync=fsync, exchange=_exchange(exchange),
                                       allow_outside=bool(allow_outside), max_pending_bytes=budget), comm)


def create_or_append(path: str | os.PathLike, comm: Any = None) -> tuple[Dataset, bool]:
    """Collective: the dataset at ``path`` opened to append, or created when there is none
    (rank 0 decides for every rank, before any of them creates it); and whether it was created."""
    created = not os.path.exists(path)
    if comm is not None and comm.Get_size() > 1:
        created = comm.bcast(created, root=0)
    return (create(path, comm=comm) if created else open(path, mode="a", comm=comm)), created

