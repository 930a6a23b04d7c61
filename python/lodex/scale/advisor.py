"""The partition advisor: the model's predicted write throughput for each partition factor lodex
can use at a scale, the best one, and each one's curve over rank counts (docs/scale.md,
"Advisor"). ``lodex.scale.advise`` and ``lodex advise`` call :func:`advise`."""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import InvalidArgumentError
from ..planners import plan_series
from .grid import grid_traffic
from .machines import Machine, cb_aggregators, machine as to_machine
from .model import predict
from .series import GEOS5_VARIABLES, predict_read, preview, queries, rank_grid, read_work, series_boxes, write_traffic
from .traffic import MAX_RANKS, lattice, particle_traffic, shared_file_traffic

FACTORS = ((1, 1, 1), (1, 1, 2), (1, 2, 2), (2, 2, 2), (2, 2, 4), (2, 4, 4), (4, 4, 4))   # Kumar et al. 2019 §5.2
CURVE_FROM = 512
CLOSE = 0.10   # candidates this close to the best are not told apart (held-out errors reach 9 %)


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


ADAPTIVE_GROUPS = (2, 8, 32)   # adaptive targets: a group of this many ranks' particles per file


def _adaptive_targets(ranks: int, ppr: int, adaptive: Sequence | None) -> list[int]:
    """particles_per_file targets to compare: the given ones, or the particles of 2, 8 and 32 ranks
    (the sizes of (1,1,2), (2,2,2) and (2,4,4)'s groups)."""
    if adaptive is None:
        return [ppr * g for g in ADAPTIVE_GROUPS if g <= ranks]
    out = []
    for t in adaptive:
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise InvalidArgumentError(f"an adaptive target is a positive number of particles per file, got {t!r}")
        if t > ppr * ranks:
            raise InvalidArgumentError(f"adaptive target {t:,} particles per file is more than the "
                                       f"{ppr * ranks:,} particles written")
        out.append(t)
    return out


def advise(machine: Any, ranks: int, particles_per_rank: int | None = None, *, kind: str = "particles",
           bytes_per_particle: int = 124, candidates: Sequence | None = None, adaptive: Sequence | None = None,
           curve: bool = True, **kw: Any) -> dict:
    """Advice from the scale model (docs/scale.md) driven by lodex's planners, for a write by
    ``ranks`` ranks on ``machine`` ("mira", "theta", "jaguar", or a lodex.calibrate result or its
    saved path).

    ``kind="particles"`` (default): a partition factor (or adaptive ``particles_per_file``
    target; ``adaptive=`` the targets to compare) for ``particles_per_rank`` particles per rank
    (``ranks`` a power of two). Returns ``recommended`` (partition, files, throughput in
    bytes/s, seconds, bottleneck, phases), ``alternatives`` (every candidate and the shared-file
    baseline) and ``curves`` (predicted throughput from 512 ranks up to ``ranks``).

    ``kind="series"``: STAR's d_tar and d_sar (keywords ``dims``, ``variables``, ``steps``,
    ``readers``, ``d_tar``, ``d_sar``: candidate degrees), with predicted write and read seconds
    for every candidate, STAR's own choice and the NetCDF-4-like baseline
    (lodex.scale.advisor.advise_series).

    ``kind="grid"``: a partition count and aggregation mode (keywords ``dims``, ``fields``,
    ``sample_bytes``, ``partitions``, ``aggregation``; lodex.scale.advisor.advise_grid)."""
    if kind == "series":
        return advise_series(machine, ranks, **kw)
    if kind == "grid":
        return advise_grid(machine, ranks, **kw)
    if kind != "particles":
        raise InvalidArgumentError(f"unknown kind {kind!r}: particles, series or grid")
    if kw:
        raise InvalidArgumentError(f"unexpected argument(s) for particles: {', '.join(sorted(kw))}")
    if particles_per_rank is None:
        raise InvalidArgumentError("particles_per_rank is required for kind='particles'")
    return _advise_particles(machine, ranks, particles_per_rank, bytes_per_particle=bytes_per_particle,
                             candidates=candidates, adaptive=adaptive, curve=curve)


def _advise_particles(machine: Any, ranks: int, particles_per_rank: int, *, bytes_per_particle: int = 124,
                      candidates: Sequence | None = None, adaptive: Sequence | None = None,
                      curve: bool = True) -> dict:
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
    for target in _adaptive_targets(ranks, particles_per_rank, adaptive):
        t = particle_traffic(ranks, particles_per_rank, m.ranks_per_node, partition=("adaptive", target),
                             bytes_per_particle=bytes_per_particle)
        rows.append(_entry(predict(m, t), ["adaptive", target], per_rank + float(t.file_bytes.max()), share))
    rows.sort(key=lambda r: (not r["fits_memory"], -r["throughput"]))
    if not rows[0]["fits_memory"]:
        raise InvalidArgumentError(f"no candidate partition fits a rank's share of a {m.name} node's memory "
                                   f"({share / 2**20:,.0f} MiB): the smallest aggregator needs "
                                   f"{min(r['aggregator_bytes'] for r in rows) / 2**20:,.0f} MiB")
    a = cb_aggregators(m, ranks)
    shared = _entry(predict(m, shared_file_traffic(ranks, particles_per_rank, m.ranks_per_node, a,
                                                   bytes_per_particle=bytes_per_particle)), None,
                    per_rank + 16 * 2**20, share)   # ROMIO's 16 MiB collective buffer
    best = rows[0]
    best["adaptive"] = ({"particles_per_file": best["partition"][1], "files": best["files"],
                         "throughput": best["throughput"], "seconds": best["seconds"]}
                        if best["partition"][0] == "adaptive" else
                        _adaptive(m, ranks, particles_per_rank, bytes_per_particle, best["partition"]))
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
    curves["shared file"] = [[r,
                              predict(m,
                                      shared_file_traffic(r, ppr, m.ranks_per_node, cb_aggregators(m, r),
                                                          bytes_per_particle=bpp)).throughput] for r in sweep]
    return curves


# ---- series (STAR): d_tar and d_sar ------------------------------------------------------------------------------

SERIES_D_TAR = (1, 2, 4, 8, 16, 32)
SERIES_MAX_D_SAR = 3
SERIES_MAX_CHUNKS = 1 << 23   # ranks x variables: the d_sar = 0 candidate plans every rank's chunk of each


def _positive(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise InvalidArgumentError(f"{what} must be a positive integer, got {v!r}")
    return v


def _series_query_set(dims: Sequence[int], steps: int) -> dict:
    """The reads the series advice weighs: each of the three planes through the middle of the
    grid across every step (time-series analytics, Tian et al. 2013 §IV-B) and the (k, j) plane of one
    step (spatial analytics, §IV-A)."""
    out = {f"{name} x {steps} steps": (range(steps), box) for name, box in queries("planes", dims).items()}
    name, box = next(iter(queries("planes", dims).items()))
    out[f"{name} x 1 step"] = ([steps // 2], box)
    return out


def _series_row(m: Machine, dims, ranks, variables, steps, readers, layout, d_tar, d_sar, share) -> dict:
    t = write_traffic(layout, dims, ranks, variables, steps, m, d_tar=d_tar, d_sar=d_sar)
    w = predict(m, t)
    reads = {}
    for label, (st, box) in _series_query_set(dims, steps).items():
        reads[label] = predict_read(m, read_work(layout, dims, ranks, variables, steps, 0, st, box, readers,
                                                 d_tar=d_tar, d_sar=d_sar)).seconds
    row = {"label": t.label, "files": t.files, "file_bytes": t.total_bytes / t.files,
           "write_seconds": w.seconds, "write_bound": w.bottleneck, "reads": reads,
           "read_seconds": sum(reads.values())}
    row["seconds"] = row["write_seconds"] + row["read_seconds"]
    if layout == "star":
        pv = preview(dims, ranks, variables, d_tar, d_sar)
        buffer = pv.step_bytes * d_tar
        row.update(d_tar=d_tar, d_sar=pv.d_sar, chunks_per_variable=int(pv.chunks.shape[0]),
                   chunk_bytes=pv.chunk_bytes, buffer_bytes=buffer, fits_memory=buffer <= share,
                   star_cost_model=_star_cost(m, pv, steps))
    return row


def _star_cost(m: Machine, pv, steps: int) -> float:
    """Tian et al. 2013 eq. (2) for reading the average variable's chunk across every step, alpha = 1:
    (N_ts / d_tar) x T_request + N_ts x DataSize / BW_io (T_seek folded into the request cost)."""
    per_target = m.fs_bandwidth / m.targets
    per_step = pv.chunk_bytes / pv.d_tar
    return math.ceil(steps / pv.d_tar) * m.request_cost + steps * per_step / per_target


def advise_series(machine: Any, ranks: int, *, dims: Sequence[int] = (576, 361, 48), variables: Sequence | None = None,
                  steps: int = 30, readers: int = 16, d_tar: Sequence[int] | None = None,
                  d_sar: Sequence[int] | None = None) -> dict:
    """Recommend STAR's d_tar and d_sar for ``ranks`` ranks (a power of two, a 2-D x-y
    decomposition) writing ``steps`` steps of ``variables`` ((dtype, ndim) pairs; default GEOS-5's
    80 3-D and 185 2-D float32 variables) over a grid of ``dims`` (x, y, z), read back by
    ``readers`` readers. Each candidate's predicted seconds: the write of every step and the
    reads of :func:`_series_query_set`; the best sum is ``recommended``. ``star_choice`` is what
    STAR's own coordination (Tian et al. 2013 eqs. 3-4, the planner's ``coordinate_star``) picks with the
    machine's constants (BW_io one target's bandwidth, Ts the request cost, CC the latency), with
    the model's prediction; ``baseline`` the NetCDF-4-like layout (one file per step)."""
    m = to_machine(machine)
    _positive(ranks, "ranks")
    _positive(steps, "steps")
    _positive(readers, "readers")
    if ranks > m.nodes * m.ranks_per_node:
        raise InvalidArgumentError(f"{m.name} has {m.nodes * m.ranks_per_node:,} ranks, "
                                   f"fewer than the {ranks:,} asked for")
    rank_grid(ranks)
    dims = tuple(int(d) for d in dims)
    if len(dims) != 3 or min(dims) < 1:
        raise InvalidArgumentError(f"dims must be three positive integers (x, y, z), got {dims!r}")
    variables = tuple((str(t), int(n)) for t, n in (variables or GEOS5_VARIABLES))
    if ranks * len(variables) > SERIES_MAX_CHUNKS:
        raise InvalidArgumentError(f"series advice simulates at most {SERIES_MAX_CHUNKS:,} rank-variables (every "
                                   f"rank's chunk of every variable); {ranks:,} ranks x {len(variables)} variables "
                                   "is more")
    series_boxes(dims, ranks)   # the grid must hold the decomposition
    share = m.memory_per_node / m.ranks_per_node
    levels = preview(dims, ranks, variables[:1], 1, 0).max_sar_levels
    tars = sorted({t for t in (d_tar or SERIES_D_TAR + (steps,)) if _positive(t, "d_tar") <= min(steps, 32)})
    sars = sorted({s for s in (d_sar if d_sar is not None else range(min(levels, SERIES_MAX_D_SAR) + 1))
                   if 0 <= int(s) <= levels})
    if not tars or not sars:
        raise InvalidArgumentError(f"no candidate degrees: d_tar must be 1..{min(steps, 32)} and d_sar 0..{levels}")
    rows = [_series_row(m, dims, ranks, variables, steps, readers, "star", t, s, share) for t in tars for s in sars]
    rows.sort(key=lambda r: (not r["fits_memory"], r["seconds"]))
    if not rows[0]["fits_memory"]:
        raise InvalidArgumentError(f"no candidate d_tar fits a rank's share of a {m.name} node's memory "
                                   f"({share / 2**20:,.0f} MiB)")
    choice = _star_choice(m, dims, ranks, variables, steps, readers, share)
    base = _series_row(m, dims, ranks, variables, steps, readers, "nc4", 1, None, share)
    best = rows[0]
    return {"kind": "series", "machine": m.name, "description": m.description, "ranks": ranks, "dims": list(dims),
            "variables": len(variables), "steps": steps, "readers": readers,
            "step_bytes": int(preview(dims, ranks, variables, 1, 0).window_head(1)["bytes"].sum()),
            "recommended": best, "star_choice": choice, "baseline": base, "alternatives": rows,
            "close": [r["label"] for r in rows[1:]
                      if r["fits_memory"] and r["seconds"] <= (1 + CLOSE) * best["seconds"]]}


def _star_choice(m: Machine, dims, ranks, variables, steps, readers, share) -> dict:
    pv = plan_series(dims, series_boxes(dims, ranks), variables, bw_io=m.fs_bandwidth / m.targets,
                     cc=m.latency, ts=max(m.request_cost, 1e-9), memory_budget=int(min(share, 1 << 40)),
                     max_window_steps=min(steps, 32))
    row = _series_row(m, dims, ranks, variables, steps, readers, "star", int(pv.d_tar), int(pv.d_sar), share)
    row.update(opt_size=int(pv.opt_size), reason=pv.reason)
    return row


# ---- grids: partitions and aggregation ---------------------------------------------------------------------------

GRID_PARTITIONS = (1, 2, 4, 8, 16, 32, 64)
GRID_AGGREGATION = ("localized", "uniform")


def advise_grid(machine: Any, ranks: int, *, dims: Sequence[int] = (1024, 1024, 1024), fields: int = 1,
                sample_bytes: int = 4, partitions: Sequence[int] | None = None,
                aggregation: Sequence[str] | None = None, bits_per_block: int = 15, blocks_per_file: int = 256) -> dict:
    """Recommend a partition count and aggregation mode for one step of a grid write by ``ranks``
    ranks (a power of two, an x-fastest lattice of boxes over ``dims``) of ``fields`` fields of
    ``sample_bytes`` bytes, from the model driven by lodex's grid plan. Returns ``recommended``
    (partitions, aggregation, files, file_bytes, senders_per_aggregator, throughput, seconds,
    bottleneck, phases) and ``alternatives`` (every candidate, fastest first)."""
    m = to_machine(machine)
    _positive(ranks, "ranks")
    if ranks > m.nodes * m.ranks_per_node:
        raise InvalidArgumentError(f"{m.name} has {m.nodes * m.ranks_per_node:,} ranks, "
                                   f"fewer than the {ranks:,} asked for")
    if ranks > 1 << 16:
        raise InvalidArgumentError(f"grid advice simulates at most 65,536 ranks, got {ranks:,}")
    lattice(ranks)
    rows = []
    for mode in aggregation or GRID_AGGREGATION:
        if mode not in GRID_AGGREGATION:
            raise InvalidArgumentError(f"unknown aggregation {mode!r}: localized or uniform")
        for p in partitions or GRID_PARTITIONS:
            _positive(p, "partitions")
            if p & (p - 1):
                raise InvalidArgumentError(f"partitions must be a power of two, got {p}")
            if p > ranks:
                continue
            t = grid_traffic(dims, ranks, m.ranks_per_node, partitions=p, aggregation=mode, fields=fields,
                             sample_bytes=sample_bytes, bits_per_block=bits_per_block, blocks_per_file=blocks_per_file)
            e = _entry(predict(m, t), None, 0.0, math.inf)
            for k in ("partition", "aggregator_bytes", "fits_memory"):
                e.pop(k)
            e.update(partitions=p, aggregation=mode)
            rows.append(e)
    if not rows:
        raise InvalidArgumentError(f"no candidate partition count is at most the {ranks:,} ranks")
    rows.sort(key=lambda r: -r["throughput"])
    return {"kind": "grid", "machine": m.name, "description": m.description, "ranks": ranks, "dims": list(dims),
            "fields": fields, "sample_bytes": sample_bytes, "recommended": rows[0], "alternatives": rows,
            "close": [r["label"] for r in rows[1:] if r["throughput"] >= (1 - CLOSE) * rows[0]["throughput"]]}
