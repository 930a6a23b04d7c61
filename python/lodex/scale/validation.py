"""Calibration on a stated subset of the papers' numbers and validation on the rest
(docs/scale.md, "Calibration" and "Validation").

The published numbers are in ``published.json`` next to this module, each with its source.
:func:`fit` solves for the free parameters from the calibration points alone (bisection on
monotone one-parameter problems: no optimiser, no starting guess); :func:`validate` recomputes
the model's prediction for every published number and its error."""

from __future__ import annotations

import functools
import json
import math
import os
from typing import Callable

from .machines import MACHINES, Machine, cb_aggregators
from .model import predict
from .traffic import particle_traffic, shared_file_traffic

SWEEP = tuple(1 << e for e in range(12, 19))     # 4,096 ... 262,144 simulated ranks
BYTES_PER_PARTICLE = 124
TOLERANCE = 0.25                                 # the goal: every held-out point within 25 %
SATURATION_GAIN = 1.25                           # doubling the ranks gains less than 25 %
CALIBRATION = {"theta": ("theta-fpp-32k", "theta-crossover"),
               "mira": ("mira-best-64k", "mira-fpp-saturation-32k")}


@functools.lru_cache(maxsize=1)
def published() -> dict:
    """The papers' numbers (published.json)."""
    with open(os.path.join(os.path.dirname(__file__), "published.json")) as fh:
        return json.load(fh)


def point(pid: str) -> dict:
    return next(p for p in published()["points"] if p["id"] == pid)


def throughput(m: Machine, ranks: int, ppr: int, partition) -> float:
    """Predicted bytes/s of lodex's plan (a factor, or ("adaptive", target))."""
    return predict(m, particle_traffic(ranks, ppr, m.ranks_per_node, partition=tuple(partition),
                                       bytes_per_particle=BYTES_PER_PARTICLE)).throughput


def crossover(m: Machine, ppr: int, a, b, sweep=SWEEP) -> float | None:
    """The rank count at which plan ``a`` overtakes plan ``b``: the first sweep interval where
    log(throughput_a / throughput_b) turns from negative to positive, interpolated in log2 R;
    None when it never does."""
    logs = [math.log(throughput(m, r, ppr, a) / throughput(m, r, ppr, b)) for r in sweep]
    for i in range(1, len(sweep)):
        if logs[i - 1] < 0 <= logs[i]:
            f = logs[i - 1] / (logs[i - 1] - logs[i])
            return 2 ** (math.log2(sweep[i - 1]) + f)
    return None


def saturation(m: Machine, ppr: int, partition, sweep=SWEEP) -> int | None:
    """The first sweep rank count R after which doubling the ranks gains less than 25 %."""
    tp = [throughput(m, r, ppr, partition) for r in sweep]
    for i in range(len(sweep) - 1):
        if tp[i + 1] < SATURATION_GAIN * tp[i]:
            return sweep[i]
    return None


def _bisect(f: Callable[[float], float], lo: float, hi: float, iters: int = 40) -> float:
    """x in [lo, hi] (geometric) with f(x) = 0, f monotone with a sign change over [lo, hi]."""
    flo = f(lo)
    if flo * f(hi) > 0:
        raise ArithmeticError("no sign change: the calibration point is out of the model's reach")
    for _ in range(iters):
        mid = math.sqrt(lo * hi)
        fm = f(mid)
        if (fm < 0) == (flo < 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return math.sqrt(lo * hi)


def fit_theta(base: Machine = MACHINES["theta"]) -> Machine:
    """md_rate from file per process at 262,144 ranks (32K particles, 83 GB/s), md_contention
    from the crossover: (1,2,2) behind at 32,768 and ahead at 65,536 ranks by the same ratio."""
    fpp, cross = point("theta-fpp-32k"), point("theta-crossover")
    target = fpp["value"] * 1e9

    def with_rate(fc: float) -> Machine:
        m = base.with_(md_contention=fc)
        rate = _bisect(lambda mu: throughput(m.with_(md_rate=mu), fpp["ranks"], fpp["particles_per_rank"],
                                             (1, 1, 1)) - target, 1e2, 1e8)
        return m.with_(md_rate=rate)

    lo, hi = cross["value"] // 2, cross["value"]
    ppr, part = cross["particles_per_rank"], tuple(cross["partition"])

    def asymmetry(fc: float) -> float:
        m = with_rate(fc)
        return (math.log(throughput(m, lo, ppr, part) / throughput(m, lo, ppr, (1, 1, 1)))
                + math.log(throughput(m, hi, ppr, part) / throughput(m, hi, ppr, (1, 1, 1))))

    return with_rate(_bisect(asymmetry, 1e3, 1e8))


def fit_mira(base: Machine = MACHINES["mira"]) -> Machine:
    """forwarding_bandwidth from the best of (2,2,4), (2,4,4) at 262,144 ranks (64K particles,
    98 GB/s); md_rate so that file per process (32K particles) turns metadata-bound exactly at
    131,072 ranks (metadata seconds = data seconds there)."""
    best, sat = point("mira-best-64k"), point("mira-fpp-saturation-32k")

    def best_of(m: Machine) -> float:
        return max(throughput(m, best["ranks"], best["particles_per_rank"], p) for p in best["partitions"])

    bw = _bisect(lambda b: best_of(base.with_(forwarding_bandwidth=b)) - best["value"] * 1e9, 1e7, 1e12)
    m = base.with_(forwarding_bandwidth=bw)
    t = particle_traffic(sat["value"], sat["particles_per_rank"], m.ranks_per_node, partition=(1, 1, 1),
                         bytes_per_particle=BYTES_PER_PARTICLE)

    def knee(mu: float) -> float:
        p = predict(m.with_(md_rate=mu), t)
        return p.data - p.metadata
    return m.with_(md_rate=_bisect(knee, 1e2, 1e8))


def fit() -> dict[str, Machine]:
    """Both machines with their free parameters fitted on the calibration points."""
    return {"theta": fit_theta(), "mira": fit_mira()}


def _row(p: dict, role: str, predicted, error: float | None, ok: bool, note: str = "") -> dict:
    return {"id": p["id"], "machine": p["machine"], "kind": p["kind"], "layout": p["layout"],
            "particles_per_rank": p["particles_per_rank"], "ranks": p.get("ranks"), "role": role,
            "published": p.get("value", p.get("files")), "unit": p.get("unit", "files"), "predicted": predicted,
            "error": error, "ok": ok, "note": note, "source": p["source"], "where": p["where"]}


def _evaluate(p: dict, machines: dict[str, Machine]) -> tuple:
    """(predicted, relative error or None, ok, note) of one published point."""
    kind, ppr = p["kind"], p["particles_per_rank"]
    if kind == "plan":
        t = particle_traffic(p["ranks"], ppr, 1, partition=tuple(p["partition"]),
                             bytes_per_particle=BYTES_PER_PARTICLE)
        mb = float(t.file_bytes.max()) / 1e6
        err = t.files / p["files"] - 1
        note = f"planner: {t.files:,} files of {mb:.1f} MB"
        if "file_mb" in p and abs(mb / p["file_mb"] - 1) > 0.1:
            note += (f"; the paper states {p['files']:,} files of {p['file_mb']} MB, which is a group of "
                     f"{p['ranks'] // p['files']} ranks, not the {math.prod(p['partition'])} of its factor")
        return t.files, err, err == 0, note
    m = machines[p["machine"]]
    if kind == "throughput":
        parts = p.get("partitions") or [p["partition"]]
        tp = max(throughput(m, p["ranks"], ppr, q) for q in parts) / 1e9
        err = tp / p["value"] - 1
        return round(tp, 1), err, abs(err) <= TOLERANCE, ""
    if kind == "crossover":
        r = crossover(m, ppr, tuple(p["partition"]), (1, 1, 1))
        ok = r is not None and p["value"] / 2 < r <= p["value"]
        return (None if r is None else round(r)), None, ok, \
            f"right if (1,2,2) is behind at {p['value'] // 2:,} ranks and ahead at {p['value']:,}"
    if kind == "saturation":
        r = saturation(m, ppr, tuple(p["partition"]))
        return r, (None if r is None else r / p["value"] - 1), r == p["value"], \
            f"first R where doubling gains < {SATURATION_GAIN - 1:.0%}"
    if kind == "scales":
        bad = [q for q in p["partitions"] if saturation(m, ppr, tuple(q)) is not None]
        return (None if bad else p["value"]), None, not bad, "no saturation up to 262,144 ranks"
    if kind in ("below-best", "does-not-scale"):
        return _shared(p, m)
    raise ValueError(f"unknown kind {kind}")


def _shared(p: dict, m: Machine) -> tuple:
    """The shared-file baseline: below the best partition at the point's scale, or saturating."""
    ppr = p["particles_per_rank"]

    def shared(r: int) -> float:
        return predict(m, shared_file_traffic(r, ppr, m.ranks_per_node, cb_aggregators(m, r),
                                              bytes_per_particle=BYTES_PER_PARTICLE)).throughput
    if p["kind"] == "below-best":
        tp = shared(p["ranks"]) / 1e9
        return round(tp, 1), None, tp < p["value"], "must be below the published best partition"
    tps = [shared(r) for r in SWEEP]
    sat = next((SWEEP[i] for i in range(len(SWEEP) - 1) if tps[i + 1] < SATURATION_GAIN * tps[i]), None)
    return sat, None, sat is not None and sat < p["value"], "first R where doubling gains < 25 % (must exist)"


def validate(machines: dict[str, Machine] | None = None) -> list[dict]:
    """Every published point with the model's prediction and its error, calibration points
    marked as such."""
    machines = machines or fit()
    calibration = {pid for ids in CALIBRATION.values() for pid in ids}
    rows = []
    for p in published()["points"]:
        predicted, err, ok, note = _evaluate(p, machines)
        role = "calibration" if p["id"] in calibration else ("plan check" if p["kind"] == "plan" else "held out")
        rows.append(_row(p, role, predicted, err, ok, note))
    return rows


def _fmt(v, unit: str) -> str:
    if v is None:
        return "none"
    if unit == "GB/s":
        return f"{v:g} GB/s"
    return f"{v:,}"


def table_markdown(rows: list[dict]) -> str:
    """The validation table as docs/scale.md shows it (the tests compare the two)."""
    lines = ["| point | machine | layout | particles/rank | ranks | role | published | model | error | within goal |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        err = "" if r["error"] is None else f"{100 * r['error']:+.1f} %"
        ok = "yes" if r["ok"] else "**no**"
        ranks = "" if r["ranks"] is None else f"{r['ranks']:,}"
        lines.append(f"| {r['id']} | {r['machine'] or 'planner'} | {r['layout']} | {r['particles_per_rank']:,} | "
                     f"{ranks} | {r['role']} | {_fmt(r['published'], r['unit'])} | {_fmt(r['predicted'], r['unit'])} | "
                     f"{err} | {ok} |")
    return "\n".join(lines)


ASSUMED = {"theta": {"injection": (4e9, 16e9), "request_cost": (1e-4, 3e-4, 1e-3), "latency": (15e-6,)},
           "mira": {"injection": (10e9, 40e9), "request_cost": (1e-4, 3e-4, 1e-3), "targets": (8, 32)}}


def sensitivity(machines: dict[str, Machine] | None = None) -> list[dict]:
    """How the held-out and calibration throughputs move when an assumed (not published, not
    fitted) parameter changes: refit on the calibration points with the parameter changed, then
    recompute the throughput rows. One row per (machine, parameter, value)."""
    machines = machines or fit()
    fits = {"theta": fit_theta, "mira": fit_mira}
    base = {r["id"]: r["predicted"] for r in validate(machines) if r["kind"] == "throughput"}
    out = []
    for name, params in ASSUMED.items():
        for field, values in params.items():
            for v in values:
                changes = {field: v}
                if field == "targets":
                    changes["stripe_count"] = v
                entry = {"machine": name, "parameter": field, "value": v, "was": getattr(MACHINES[name], field)}
                try:
                    refit = dict(machines, **{name: fits[name](MACHINES[name].with_(**changes))})
                except ArithmeticError as e:
                    out.append({**entry, "fit": f"fails: {e}"})
                    continue
                rows = [r for r in validate(refit) if r["kind"] == "throughput" and r["machine"] == name]
                out.append({**entry, "fit": "ok",
                            "throughput": {r["id"]: r["predicted"] for r in rows},
                            "change": {r["id"]: r["predicted"] / base[r["id"]] - 1 for r in rows},
                            "errors": {r["id"]: r["error"] for r in rows}})
    return out


def sensitivity_markdown(rows: list[dict]) -> str:
    """The sensitivity rows as a table (docs/scale.md)."""
    ids = sorted({k for r in rows for k in r.get("errors", {})})
    lines = ["| machine | assumed parameter | value (was) | " + " | ".join(ids) + " |",
             "|---|---|---|" + "---|" * len(ids)]
    for r in rows:
        cells = [f"{100 * r['errors'][i]:+.1f} %" if i in r.get("errors", {}) else "" for i in ids]
        if r["fit"] != "ok":
            cells = ["calibration cannot be met"] + [""] * (len(ids) - 1)
        lines.append(f"| {r['machine']} | {r['parameter']} | {r['value']:g} ({r['was']:g}) | "
                     + " | ".join(cells) + " |")
    return "\n".join(lines)
