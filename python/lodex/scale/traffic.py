"""What a write moves, taken from lodex's real plans (docs/scale.md, "Traffic").

A :class:`Traffic` is the model's whole input: the files a write creates (or opens) and their
sizes, which node writes each file, and the bytes each node sends to and receives from other
nodes in the aggregation exchange. :func:`particle_traffic` asks lodex's particle planner
(``lodex.planning.plan_write``, the C++ planner a real write runs) for the plan of a weak-scaling
write by R simulated ranks; :func:`shared_file_traffic` is the baseline of one shared file
written with collective buffering (ROMIO's two-phase I/O)."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ..errors import InvalidArgumentError
from ..planners import plan_write

DOMAIN = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
MAX_RANKS = 1 << 22


@dataclasses.dataclass(frozen=True)
class Traffic:
    """One write, as the model sees it. ``file_bytes[i]`` is file i's size and ``file_node[i]``
    the node that writes it; ``node_out``/``node_in`` the exchange bytes each node sends to or
    receives from other nodes and ``node_messages`` the messages it sends or receives;
    ``max_reorder`` the most particles one aggregator orders, ``max_senders`` the most ranks one
    aggregator receives from (its own included); ``opens`` metadata operations on
    existing files (a shared file's opens)."""

    label: str
    ranks: int
    ranks_per_node: int
    file_bytes: np.ndarray
    file_node: np.ndarray
    node_out: np.ndarray
    node_in: np.ndarray
    node_messages: np.ndarray
    max_reorder: int
    opens: int = 0
    write_node: np.ndarray | None = None    # nodes that write to storage (default: file_node)
    write_bytes: np.ndarray | None = None   # and the bytes each writes (default: file_bytes)
    max_senders: int = 1                     # the most ranks sending to one aggregator
    # Bytes and requests at each storage target when the writes are not whole files cut at stripe
    # boundaries (a series window's chunks, each its own write): default from file_bytes.
    target_bytes: np.ndarray | None = None
    target_requests: np.ndarray | None = None

    @property
    def nodes(self) -> int:
        return -(-self.ranks // self.ranks_per_node)

    @property
    def files(self) -> int:
        return int(self.file_bytes.size)

    @property
    def total_bytes(self) -> int:
        return int(self.file_bytes.sum())

    def node_write_bytes(self) -> np.ndarray:
        """Bytes each node writes to storage."""
        if self.write_node is None:
            return np.bincount(self.file_node, weights=self.file_bytes, minlength=self.nodes)
        return np.bincount(self.write_node, weights=self.write_bytes, minlength=self.nodes)


def lattice(ranks: int) -> tuple[int, int, int]:
    """The x-fastest rank lattice (gx, gy, gz) of a power-of-two rank count, as near a cube as it
    gets with gx >= gy >= gz (4,096 -> 16^3, 8,192 -> 32 x 16 x 16)."""
    if not isinstance(ranks, (int, np.integer)) or isinstance(ranks, bool) or ranks < 1:
        raise InvalidArgumentError(f"ranks must be a positive integer, got {ranks!r}")
    if ranks & (ranks - 1):
        raise InvalidArgumentError(f"ranks must be a power of two (the simulated rank lattice), got {ranks:,}")
    if ranks > MAX_RANKS:
        raise InvalidArgumentError(f"ranks must be at most {MAX_RANKS:,}, got {ranks:,}")
    e = ranks.bit_length() - 1
    ez, ey = e // 3, (e - e // 3) // 2
    return (1 << (e - ey - ez), 1 << ey, 1 << ez)


@functools.lru_cache(maxsize=16)
def _patches(ranks: int) -> np.ndarray:
    """(R, 6) patches of the lattice: lodex.workloads.patch_of's arithmetic on whole arrays
    (the same float64 operations, so the same bits as lodex.planning.lattice_patches)."""
    n = np.array(lattice(ranks), dtype=np.int64)
    r = np.arange(ranks, dtype=np.int64)
    idx = np.stack([r % n[0], (r // n[0]) % n[1], r // (n[0] * n[1])], axis=1)
    lo, hi = (np.array(b, dtype=np.float64) for b in DOMAIN)
    size = (hi - lo) / n
    pmin = lo + idx * size
    pmax = np.where(idx + 1 == n, hi, lo + (idx + 1) * size)
    out = np.ascontiguousarray(np.concatenate([pmin, pmax], axis=1))
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=16)
def _patch_centres(ranks: int) -> np.ndarray:
    p = _patches(ranks)
    out = np.ascontiguousarray((p[:, :3] + p[:, 3:]) / 2)
    out.flags.writeable = False
    return out


def _check_sizes(particles_per_rank: int, bytes_per_particle: int) -> None:
    for v, what in ((particles_per_rank, "particles_per_rank"), (bytes_per_particle, "bytes_per_particle")):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidArgumentError(f"{what} must be a positive integer, got {v!r}")
    if particles_per_rank * bytes_per_particle > 1 << 40:
        raise InvalidArgumentError(f"{particles_per_rank:,} particles of {bytes_per_particle} bytes per rank is "
                                   "more than 1 TiB per rank")


def particle_traffic(ranks: int, particles_per_rank: int, ranks_per_node: int, *, partition=(1, 1, 1),
                     bytes_per_particle: int = 124) -> Traffic:
    """The traffic of lodex's plan for R ranks of a uniform lattice, each holding
    ``particles_per_rank`` particles, partitioned by ``partition``: a factor (Px, Py, Pz) or
    ("adaptive", particles_per_file). Cached: a plan is made once per argument set."""
    _check_sizes(particles_per_rank, bytes_per_particle)
    lattice(ranks)
    if isinstance(ranks_per_node, bool) or not isinstance(ranks_per_node, (int, np.integer)) or ranks_per_node < 1:
        raise InvalidArgumentError(f"ranks_per_node must be a positive integer, got {ranks_per_node!r}")
    try:
        key = tuple(partition)
        hash(key)
    except TypeError:
        raise InvalidArgumentError(f"partition must be (Px, Py, Pz) or ('adaptive', particles_per_file), "
                                   f"got {partition!r}") from None
    return _particle_traffic(int(ranks), int(particles_per_rank), int(ranks_per_node), key, int(bytes_per_particle))


@functools.lru_cache(maxsize=256)
def _particle_traffic(ranks: int, particles_per_rank: int, ranks_per_node: int, partition: tuple,
                      bytes_per_particle: int) -> Traffic:
    plan, label = _plan(ranks, particles_per_rank, partition)
    counts = np.full(ranks, particles_per_rank, dtype=np.int64)
    if plan.aligned:   # every rank sends all it holds to one partition: the one its patch is in
        dest = plan.partition_of(_patch_centres(ranks)).astype(np.int64)
        src_rank, dest_part, moved = np.arange(ranks), dest, counts
    else:
        src_rank, dest_part, moved = _split(plan, ranks, counts)
    agg = np.asarray(plan.aggregators, dtype=np.int64)
    part_particles = np.bincount(dest_part, weights=moved, minlength=agg.size).astype(np.int64)
    used = agg >= 0
    t = _traffic(label, ranks, ranks_per_node, src_rank, agg[dest_part], moved * bytes_per_particle,
                 part_particles[used] * bytes_per_particle, agg[used], int(part_particles.max()))
    return dataclasses.replace(t, max_senders=int(np.bincount(dest_part[moved > 0]).max()))


SPLIT_SAMPLES = 8   # per axis: a rank split over partitions is sampled at 8^3 cell centres


def _split(plan, ranks: int, counts: np.ndarray):
    """(rank, partition, particles) sends of an unaligned plan. A rank's particles are uniform in
    its patch, so each partition gets the share of the patch it covers: measured by binning a
    regular 8^3 lattice of points of the patch with the planner's own rule (partition_of), and
    rounded by largest remainders so every particle goes exactly once."""
    patches = _patches(ranks)
    s = SPLIT_SAMPLES
    u = (np.arange(s) + 0.5) / s
    unit = np.stack(np.meshgrid(u, u, u, indexing="ij"), axis=-1).reshape(-1, 3)      # (s^3, 3)
    lo, size = patches[:, None, :3], patches[:, None, 3:] - patches[:, None, :3]
    pts = np.ascontiguousarray((lo + unit[None] * size).reshape(-1, 3))
    part = plan.partition_of(pts).astype(np.int64).reshape(ranks, s**3)
    nparts = int(part.max()) + 1
    key = np.repeat(np.arange(ranks, dtype=np.int64), s**3) * nparts + part.ravel()
    pairs, hits = np.unique(key, return_counts=True)
    src, dst = pairs // nparts, pairs % nparts
    exact = counts[src] * hits / s**3
    moved = np.floor(exact).astype(np.int64)
    short = counts - np.bincount(src, weights=moved, minlength=ranks).astype(np.int64)   # per rank
    order = np.lexsort((-(exact - moved), src))                   # by rank, largest remainder first
    first = np.concatenate(([0], np.cumsum(np.bincount(src, minlength=ranks))[:-1]))
    rank_place = np.empty_like(order)
    rank_place[order] = np.arange(order.size) - first[src[order]]
    moved += rank_place < short[src]
    return src, dst, moved


def _plan(ranks: int, particles_per_rank: int, partition):
    counts = np.full(ranks, particles_per_rank, dtype=np.uint64)
    if isinstance(partition, (tuple, list)) and len(partition) == 2 and partition[0] == "adaptive":
        target = partition[1]
        return (plan_write(DOMAIN, _patches(ranks), counts, partition="adaptive", particles_per_file=target),
                f"adaptive {target:,} particles/file")
    factor = tuple(int(f) for f in partition)
    g = lattice(ranks)
    if len(factor) != 3 or any(f < 1 or gi % f for f, gi in zip(factor, g)):
        raise InvalidArgumentError(f"partition factor {partition!r} does not divide the {g[0]}x{g[1]}x{g[2]} "
                                   f"lattice of {ranks:,} ranks")
    label = "file per process" if factor == (1, 1, 1) else f"partition ({factor[0]},{factor[1]},{factor[2]})"
    return plan_write(DOMAIN, _patches(ranks), counts, partition=factor), label


def _traffic(label, ranks, rpn, src_rank, dst_rank, nbytes, file_bytes, file_rank, max_reorder, opens=0) -> Traffic:
    """Per-node exchange volumes from (source rank, destination rank, bytes) sends."""
    nodes = -(-ranks // rpn)
    src_node, dst_node = src_rank // rpn, dst_rank // rpn
    remote = src_node != dst_node
    w = np.asarray(nbytes, dtype=np.float64)
    if w.ndim == 0:
        w = np.full(src_rank.shape, float(w))
    out = np.bincount(src_node[remote], weights=w[remote], minlength=nodes)
    inn = np.bincount(dst_node[remote], weights=w[remote], minlength=nodes)
    msgs = (np.bincount(src_node[remote], minlength=nodes) + np.bincount(dst_node[remote], minlength=nodes))
    return Traffic(label, ranks, rpn, np.asarray(file_bytes, dtype=np.int64), np.asarray(file_rank) // rpn,
                   out, inn, msgs, max_reorder, opens)


def shared_file_traffic(ranks: int, particles_per_rank: int, ranks_per_node: int, aggregators: int, *,
                        bytes_per_particle: int = 124) -> Traffic:
    """One shared file written with collective buffering: ``aggregators`` ranks (the first rank
    of evenly spaced nodes, at most one per node) each own a contiguous 1/A of the file, receive
    from every rank the piece of its data that falls there, and write it; every rank opens the
    file (one create, R - 1 opens)."""
    _check_sizes(particles_per_rank, bytes_per_particle)
    lattice(ranks)
    nodes = -(-ranks // ranks_per_node)
    a = max(1, min(int(aggregators), nodes))
    agg_node = np.arange(a, dtype=np.int64) * nodes // a
    per_rank = particles_per_rank * bytes_per_particle
    piece = per_rank / a                   # what one rank sends one aggregator
    rpn = np.full(nodes, ranks_per_node, dtype=np.float64)
    rpn[-1] = ranks - ranks_per_node * (nodes - 1)
    hosts = np.zeros(nodes, dtype=bool)
    hosts[agg_node] = True
    out = rpn * piece * (a - hosts)        # to every aggregator on another node
    inn = np.zeros(nodes)
    inn[agg_node] = piece * (ranks - rpn[agg_node])
    msgs = rpn * (a - hosts)
    msgs[agg_node] += ranks - rpn[agg_node]
    total = ranks * per_rank
    return Traffic(f"shared file ({a} collective-buffering aggregators)", ranks, ranks_per_node,
                   np.array([total], dtype=np.int64), np.array([0]), out, inn, msgs, 0, opens=ranks - 1,
                   write_node=agg_node, write_bytes=np.full(a, total / a), max_senders=ranks)
