"""The partition advisor: the model's predicted write throughput for each partition factor lodex
can use at a scale, the best one, and each one's curve over rank counts (docs/scale.md,
"Advisor"). ``lodex.planning.advise`` and ``lodex advise`` call :func:`advise`."""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import InvalidArgumentError
from .machines import Machine, machine as to_machine
from .model import predict
from .traffic import MAX_RANKS, lattice, particle_traffic, shared_file_traffic

FACTORS = ((1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2), (2, 2, 4), (2, 4, 4), (4, 4, 4))   # [P0] §5.2
CURVE_FROM = 512
CLOSE = 0.10   # candidates this close to the best are not told apart (held-out errors reach 9 %)


def cb_aggregators(m: Machine, ranks: int) -> int:
    """Collective-buffering aggregators of a shared-file write: ROMIO's defaults, one per stripe
    on Lustre (stripe count), eight per I/O node on Blue Gene/Q, else one per node."""
    nodes = -(-ranks // m.ranks_per_node)
    if m.forwarding_ratio:
        return max(1, -(-nodes // m.forwarding_ratio) * 8)
    if m.stripe_count > 1:
        return min(nodes, m.stripe_count)
    return nodes


def _check(m: Machine, ranks: Any, particles_per_rank: Any, bytes_per_particle: Any) -> None:
    for v, what in ((ranks, "ranks"), (particles_per_rank, "particles_per_rank"),
                    (bytes_per_particle, "bytes_per_particle")):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidArgumentError(f"{what} must be a positive integer, got {v!r}")
    if ranks > m.nodes * m.ranks_per_node:
        raise InvalidArgumentError(f"{m.name} has {m.nodes:,} nodes of {m.ranks_per_node} ranks "
                                   f"({m.nodes * m.ranks_per_node:,} ranks), fewer than the {ranks:,} asked for")
    share = m.memory_per_node / m.ranks_per_node
    if particles_per_rank * bytes_per_particle > share:
        raise InvalidArgumentError(f"{particles_per_rank:,} particles of {bytes_per_particle} bytes per rank "
                                   f"({particles_per_rank * bytes_per_particle / 2**20:,.0f} MiB) do not fit a rank's "
                                   f"share of a {m.name} node's memory ({share / 2**20:,.0f} MiB)")
    if ranks > MAX_RANKS:
        raise InvalidArgumentError(f"ranks must be at most {MAX_RANKS:,}, got {ranks:,}")
    lattice(ranks)   # a power of two


def _factors(ranks: int, candidates: Sequence | None) -> list[tuple[int, int, int]]:
    g = lattice(ranks)
    wanted = FACTORS if candidates is None else [tuple(int(x) for x in c) for c in candidates]
    for c in wanted:
        if len(c) != 3 or min(c) < 1:
            raise InvalidArgumentError(f"a partition factor is three positive integers, got {c!r}")
    fits = [c for c in wanted if all(gi % ci == 0 for gi, ci in zip(g, c))]
    if not fits:
        raise InvalidArgumentError(f"no candidate partition factor divides the {g[0]}x{g[1]}x{g[2]} lattice of "
                                   f"{ranks:,} ranks")
    return fits


def _entry(p, partition, aggregator_bytes: float, share: float) -> dict:
    return {"partition": partition, "label": p.label, "files": p.files, "bytes": p.bytes,
            "file_bytes": p.bytes / p.files, "senders_per_aggregator": p.senders,
            "aggregator_bytes": aggregator_bytes, "fits_memory": aggregator_bytes <= share,
            "throughput": p.throughput, "seconds": p.seconds, "bottleneck": p.bottleneck,
            "phases": {"metadata": p.metadata, "data": p.data, "exchange": p.exchange, "reorder": p.reorder,
                       "collective": p.collective}}


def advise(machine: Any, ranks: int, particles_per_rank: int, *, bytes_per_particle: int = 124,
           candidates: Sequence | None = None, curve: bool = True) -> dict:
    """Recommend a partition factor for a particle write by ``ranks`` ranks (a power of two)
    holding ``particles_per_rank`` particles each, on ``machine`` ("mira", "theta", a Machine,
    or a lodex.calibrate result or its saved path). Returns a dict: ``recommended`` (partition,
    files, bytes, throughput in bytes/s, seconds, bottleneck, phases, and ``adaptive``: the
    equivalent ``particles_per_file`` target with its own prediction), ``close`` (the layouts
    predicted within 10 % of it: the model does not tell those apart), ``alternatives`` (every
    candidate, the best that fits memory first, each with ``aggregator_bytes`` and
    ``fits_memory``: an aggregator holds its particles and its partition's, within its rank's
    share of a node's memory; then the shared-file baseline), and ``curves`` (label ->
    [[ranks, throughput], ...] from 512 ranks up to ``ranks``)."""
    m = to_machine(machine)
    _check(m, ranks, particles_per_rank, bytes_per_particle)
    factors = _factors(ranks, candidates)
    share = m.memory_per_node / m.ranks_per_node
    per_rank = particles_per_rank * bytes_per_particle
    rows = []
    for f in factors:
        t = particle_traffic(ranks, particles_per_rank, m.ranks_per_node, partition=f,
                             bytes_per_particle=bytes_per_particle)
        # An aggregator holds its own particles and the partition it gathers (lodex's exchange).
        rows.append(_entry(predict(m, t), list(f), per_rank + float(t.file_bytes.max()), share))
    rows.sort(key=lambda r: (not r["fits_memory"], -r["throughput"]))
    if not rows[0]["fits_memory"]:
        raise InvalidArgumentError(f"no candidate partition fits a rank's share of a {m.name} node's memory "
                                   f"({share / 2**20:,.0f} MiB): the smallest aggregator needs "
                                   f"{min(r['aggregator_bytes'] for r in rows) / 2**20:,.0f} MiB")
    a = cb_aggregators(m, ranks)
    shared = _entry(predict(m, shared_file_traffic(ranks, particles_per_rank, m.ranks_per_node, a,
                                                   bytes_per_particle=bytes_per_particle)), None,
                    per_rank + 16 * 2**20, share)   # ROMIO's 16 MiB collective buffer
    rows[0]["adaptive"] = _adaptive(m, ranks, particles_per_rank, bytes_per_particle, rows[0]["partition"])
    out = {"machine": m.name, "description": m.description, "ranks": ranks,
           "particles_per_rank": particles_per_rank, "bytes_per_particle": bytes_per_particle,
           "recommended": rows[0], "alternatives": rows + [shared],
           "close": [r["label"] for r in rows + [shared] if r is not rows[0] and r["fits_memory"]
                     and r["throughput"] >= (1 - CLOSE) * rows[0]["throughput"]]}
    if curve:
        out["curves"] = _curves(m, ranks, particles_per_rank, bytes_per_particle, factors)
    return out


def _adaptive(m: Machine, ranks: int, ppr: int, bpp: int, partition) -> dict:
    """The adaptive target equivalent to a factor (``particles_per_file`` = a group's particles)
    and its own prediction: on uniform data the adaptive planner makes the same number of files."""
    target = ppr * partition[0] * partition[1] * partition[2]
    p = predict(m, particle_traffic(ranks, ppr, m.ranks_per_node, partition=("adaptive", target),
                                    bytes_per_particle=bpp))
    return {"particles_per_file": target, "files": p.files, "throughput": p.throughput, "seconds": p.seconds}


def _curves(m: Machine, ranks: int, ppr: int, bpp: int, factors) -> dict:
    sweep = [r for r in (1 << e for e in range(CURVE_FROM.bit_length() - 1, ranks.bit_length())) if r <= ranks]
    curves: dict[str, list] = {}
    for f in factors:
        pts = []
        for r in sweep:
            g = lattice(r)
            if all(gi % fi == 0 for gi, fi in zip(g, f)):
                p = predict(m, particle_traffic(r, ppr, m.ranks_per_node, partition=f, bytes_per_particle=bpp))
                pts.append([r, p.throughput])
        curves[f"({f[0]},{f[1]},{f[2]})"] = pts
    curves["shared file"] = [[r, predict(m, shared_file_traffic(r, ppr, m.ranks_per_node, cb_aggregators(m, r),
                                                                bytes_per_particle=bpp)).throughput] for r in sweep]
    return curves
