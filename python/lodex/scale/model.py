"""The model: seconds a write takes on a machine (docs/scale.md, "The model", equations 1-8).

Closed forms, not a discrete-event simulation: in a weak-scaling write every rank does the same
thing at the same time, so the write is paced by its busiest resource in each phase, and the
time of a phase is that resource's work divided by its rate (a fluid bottleneck bound, exact
for the model's resources, which serve work at a constant rate). Nothing is random: the same
inputs give the same seconds, to the bit.

    T = T_exchange + T_reorder + T_collective + max(T_metadata, T_data)
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .machines import Machine
from .traffic import Traffic


@dataclasses.dataclass(frozen=True)
class Prediction:
    """The model's seconds per phase, the total, and the throughput (bytes/s); ``senders`` is
    the most ranks one aggregator receives from."""

    label: str
    ranks: int
    files: int
    bytes: int
    senders: int
    metadata: float
    data: float
    exchange: float
    reorder: float
    collective: float
    bottleneck: str

    @property
    def seconds(self) -> float:
        return self.exchange + self.reorder + self.collective + max(self.metadata, self.data)

    @property
    def throughput(self) -> float:
        return self.bytes / self.seconds

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.update(seconds=self.seconds, throughput=self.throughput)
        return d


def metadata_seconds(m: Machine, operations: int) -> float:
    """(1) T_md = N / mu * (1 + N / F_c): N creates or opens at rate mu, slowed by contention."""
    contention = 0.0 if math.isinf(m.md_contention) else operations / m.md_contention
    return operations / m.md_rate * (1.0 + contention)


def target_load(m: Machine, file_bytes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bytes and requests at each storage target: file i is cut into stripe-size pieces, piece j
    on target (i + j mod stripe_count) mod targets (round-robin starting targets, as Lustre's
    allocator and GPFS's block striping place them)."""
    s = np.asarray(file_bytes, dtype=np.int64)
    pieces = np.maximum(1, -(-s // m.stripe_size))
    file_of = np.repeat(np.arange(s.size), pieces)
    first = np.concatenate(([0], np.cumsum(pieces)[:-1]))
    j = np.arange(file_of.size) - first[file_of]
    size = np.where(j == pieces[file_of] - 1, s[file_of] - (pieces[file_of] - 1) * m.stripe_size, m.stripe_size)
    stripe_count = min(m.stripe_count, m.targets)
    target = (file_of + j % stripe_count) % m.targets
    return (np.bincount(target, weights=size, minlength=m.targets),
            np.bincount(target, minlength=m.targets).astype(np.float64))


_LOADS: dict = {}   # (id of traffic, striping) -> (traffic, bytes, requests): the fit reuses them


def _target_load(m: Machine, t: Traffic) -> tuple[np.ndarray, np.ndarray]:
    if t.target_bytes is not None:
        return t.target_bytes, t.target_requests
    key = (id(t), m.stripe_size, m.stripe_count, m.targets)
    hit = _LOADS.get(key)
    if hit is None or hit[0] is not t:
        if len(_LOADS) > 512:
            _LOADS.clear()
        hit = _LOADS[key] = (t, *target_load(m, t.file_bytes))
    return hit[1], hit[2]


def write_load(m: Machine, file_of: np.ndarray, offset: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bytes and requests at each target of writes (file, offset, bytes): each write is cut at
    stripe boundaries, stripe j of file i on target (i + j mod stripe_count) mod targets (the
    placement of :func:`target_load`), one request per piece."""
    f, o, b = (np.asarray(a, dtype=np.int64) for a in (file_of, offset, size))
    keep = b > 0
    f, o, b = f[keep], o[keep], b[keep]
    s0, s1 = o // m.stripe_size, (o + b - 1) // m.stripe_size
    n = s1 - s0 + 1
    w = np.repeat(np.arange(f.size), n)
    j = s0[w] + np.arange(w.size) - np.repeat(np.cumsum(n) - n, n)
    lo = np.maximum(o[w], j * m.stripe_size)
    hi = np.minimum(o[w] + b[w], (j + 1) * m.stripe_size)
    stripe_count = min(m.stripe_count, m.targets)
    target = (f[w] + j % stripe_count) % m.targets
    return (np.bincount(target, weights=hi - lo, minlength=m.targets),
            np.bincount(target, minlength=m.targets).astype(np.float64))


def data_seconds(m: Machine, t: Traffic) -> tuple[float, str]:
    """(2)-(4) T_data = max(busiest target, busiest node's injection, busiest I/O node)."""
    tb, tr = _target_load(m, t)
    per_target = m.fs_bandwidth / m.targets
    terms = {"storage targets": float(np.max(tb / per_target + tr * m.request_cost))}
    node = t.node_write_bytes()
    terms["node injection"] = float(node.max() / m.injection) if node.size else 0.0
    if m.forwarding_ratio:
        ion = np.bincount(np.arange(node.size) // m.forwarding_ratio, weights=node)
        terms["I/O forwarding nodes"] = float(ion.max() / m.forwarding_bandwidth)
    worst = max(terms, key=terms.get)
    return terms[worst], worst


def exchange_seconds(m: Machine, t: Traffic) -> float:
    """(5) T_x = max over nodes of max(bytes out, bytes in) / injection + messages * latency."""
    if not t.node_out.size:
        return 0.0
    busiest = float(np.max(np.maximum(t.node_out, t.node_in)))
    return busiest / m.injection + float(t.node_messages.max()) * m.latency


def predict(m: Machine, t: Traffic) -> Prediction:
    """The model's prediction for traffic ``t`` on machine ``m``."""
    md = metadata_seconds(m, t.files + t.opens)
    data, where = data_seconds(m, t)
    return Prediction(
        label=t.label, ranks=t.ranks, files=t.files, bytes=t.total_bytes, senders=t.max_senders,
        metadata=md, data=data,
        exchange=exchange_seconds(m, t),
        reorder=t.max_reorder * m.reorder_per_particle,                       # (6)
        collective=2 * math.ceil(math.log2(max(t.ranks, 2))) * m.latency,     # (7)
        bottleneck="metadata service" if md > data else where)
