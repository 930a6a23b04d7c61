"""Machine descriptions for the scale model (docs/scale.md, "Machines").

Every field is either a published specification (``sources`` names it; keys as in
docs/references.md), a number the particle paper states (Kumar et al. 2019), an assumption the docs state,
or a value fitted by :func:`lodex.scale.validation.fit` on the calibration points (the test
suite refits and checks these stored values are what the fit gives).
"""

from __future__ import annotations

import dataclasses
import math
import os
from typing import Any, Mapping

from ..calibrate import Calibration, settings_of
from ..errors import InvalidArgumentError

GB = 1e9
MiB = 1 << 20


@dataclasses.dataclass(frozen=True)
class Machine:
    """A parallel file system and network, at the level of detail the model needs.

    Metadata: ``md_rate`` creates (or opens) per second the metadata service completes when
    uncontended, ``md_contention`` the operation count F_c at which contention doubles the cost
    (inf: none). Storage: ``fs_bandwidth`` bytes/s in aggregate over ``targets`` targets, files
    striped over ``stripe_count`` targets in ``stripe_size`` pieces, ``request_cost`` seconds per
    request at a target. Network: ``injection`` bytes/s into and out of a node, ``latency``
    seconds per message. I/O forwarding: ``forwarding_ratio`` compute nodes per I/O node
    (0: none) each moving at most ``forwarding_bandwidth`` bytes/s. ``ranks_per_node``, ``nodes``
    (the machine's size), and ``reorder_per_particle`` seconds an aggregator spends per particle
    it orders; ``memory_per_node`` bytes (a rank may use its 1/ranks_per_node share)."""

    name: str
    description: str
    ranks_per_node: int
    nodes: int
    fs_bandwidth: float
    targets: int
    stripe_size: int
    stripe_count: int
    request_cost: float
    md_rate: float
    md_contention: float
    injection: float
    latency: float
    forwarding_ratio: int
    forwarding_bandwidth: float
    reorder_per_particle: float
    memory_per_node: float = math.inf
    sources: Mapping[str, str] = dataclasses.field(default_factory=dict)

    def with_(self, **changes: Any) -> "Machine":
        """A copy with some fields changed (what-if studies and the fit)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["sources"] = dict(self.sources)
        return {k: (None if isinstance(v, float) and math.isinf(v) else v) for k, v in d.items()}


# Fitted values (lodex.scale.validation.fit; docs/scale.md "Calibration"). tests/python/
# test_scale.py refits them from the calibration points and checks they agree to 0.5 %.
THETA_MD_RATE = 58_140.0          # creates/s
THETA_MD_CONTENTION = 143_370.0   # operations
MIRA_MD_RATE = 12_680.0           # creates/s
MIRA_FORWARDING_BANDWIDTH = 0.8050e9   # bytes/s per I/O node

MIRA = Machine(
    name="mira",
    description="ALCF Mira: IBM Blue Gene/Q, 5-D torus, GPFS (mira-fs0), 16 ranks per node",
    ranks_per_node=16,
    nodes=49_152,
    fs_bandwidth=240 * GB,
    targets=16,
    stripe_size=8 * MiB,
    stripe_count=16,
    request_cost=0.0,
    md_rate=MIRA_MD_RATE,
    md_contention=math.inf,
    injection=10 * 2 * GB,
    latency=1.5e-6,
    forwarding_ratio=128,
    forwarding_bandwidth=MIRA_FORWARDING_BANDWIDTH,
    reorder_per_particle=0.033 / 32768,
    memory_per_node=16 * 2**30,
    sources={
        "memory_per_node": "HPPIO-ALCF: 16 GB of RAM per node",
        "nodes, ranks_per_node, network": "HPPIO-ALCF: 49,152 nodes of 16 cores, 5-D torus",
        "injection": "HPPIO-ALCF: 10 torus links (5 dimensions, both ways) of 2 GB/s per direction",
        "latency": "HPPIO-ALCF: 1.5 us maximum torus latency",
        "forwarding_ratio": "ALCF-MIRA: 128 compute nodes per I/O node",
        "fs_bandwidth, targets": "ALCF-STORAGE: mira-fs0, 16 DDN SFA12Ke arrays, 240 GB/s by IOR",
        "stripe_size": "assumed: an 8 MiB GPFS block (the block only sets how bytes spread over targets)",
        "request_cost": "assumed 0: the published numbers do not separate it from bandwidth",
        "md_contention": "assumed none: one Mira number cannot identify it",
        "md_rate, forwarding_bandwidth": "fitted (docs/scale.md, Calibration)",
        "reorder_per_particle": "Kumar et al. 2019 §3.4: 33 ms per 32K particles",
    },
)

THETA = Machine(
    name="theta",
    description="ALCF Theta: Cray XC40, Aries Dragonfly, Lustre (theta-fs0) with 48 OSTs x 8 MiB "
                "stripes as Kumar et al. 2019 set them, 64 ranks per node",
    ranks_per_node=64,
    nodes=4_392,
    fs_bandwidth=240 * GB,
    targets=48,
    stripe_size=8 * MiB,
    stripe_count=48,
    request_cost=0.0,
    md_rate=THETA_MD_RATE,
    md_contention=THETA_MD_CONTENTION,
    injection=8 * GB,
    latency=1.5e-6,
    forwarding_ratio=0,
    forwarding_bandwidth=math.inf,
    reorder_per_particle=0.080 / 32768,
    memory_per_node=192 * 2**30,
    sources={
        "memory_per_node": "ALCF-THETA: 192 GiB DDR4 per node (the 16 GiB MCDRAM not counted)",
        "nodes, ranks_per_node": "ALCF-THETA: 4,392 Intel KNL 7230 nodes of 64 cores, Aries Dragonfly",
        "fs_bandwidth": "ALCF-STORAGE: theta-fs0, Lustre on a Sonexion 3000, 240 GB/s aggregate",
        "targets, stripe_size, stripe_count": "Kumar et al. 2019 §5.1: 48 stripes (48 OSTs), 8 MB stripe size",
        "injection": "assumed 8 GB/s per direction, below the Aries NIC's PCIe Gen3 x16 host link (CRAY-XC)",
        "latency": "assumed equal to Mira's; it is negligible at these message sizes",
        "request_cost": "assumed 0: the published numbers do not separate it from bandwidth",
        "md_rate, md_contention": "fitted (docs/scale.md, Calibration)",
        "reorder_per_particle": "Kumar et al. 2019 §3.4: 80 ms per 32K particles",
    },
)

# Fitted on the STAR paper's speedups (lodex.scale.series.fit_jaguar; docs/scale.md "Series").
# tests/python/test_scale_series.py refits them and checks they agree to 0.5 %.
JAGUAR_REQUEST_COST = 3.426e-3    # seconds per request at an OST (request + seek)
JAGUAR_INJECTION = 1.379e9        # bytes/s a node's Lustre client moves
JAGUAR_OPEN_RATE = 5_000.0        # opens/s at the file system's one metadata server (assumed)

JAGUAR = Machine(
    name="jaguar",
    description="ORNL Jaguar: Cray XT5, SeaStar2+ 3-D torus, Lustre (Spider, the Widow 2 partition of 336 "
                "OSTs [Tian et al. 2013]), 16 ranks per node",
    ranks_per_node=16,
    nodes=18_688,
    fs_bandwidth=336 * (240 * GB / 1344),
    targets=336,
    stripe_size=1 * MiB,
    stripe_count=336,
    request_cost=JAGUAR_REQUEST_COST,
    md_rate=JAGUAR_OPEN_RATE,
    md_contention=math.inf,
    injection=JAGUAR_INJECTION,
    latency=5e-6,
    forwarding_ratio=0,
    forwarding_bandwidth=math.inf,
    reorder_per_particle=0.0,
    memory_per_node=32 * 2**30,
    sources={
        "nodes, ranks_per_node, memory_per_node": "Tian et al. 2013 §IV: 18,688 nodes of one 16-core Opteron and 32 GB",
        "targets": "Tian et al. 2013 §IV: Widow 2, 336 OSTs",
        "fs_bandwidth": "SPIDER: 240 GB/s aggregate over 1,344 OSTs, so 178.6 MB/s per OST; Widow 2 has 336 of them "
                        "(Tian et al. 2013 §IV)",
        "stripe_size, stripe_count": "assumed: 1 MiB stripes (Lustre's default) over all 336 OSTs (lfs setstripe "
                                     "-c -1 on the output directory, as large shared files are written; the paper "
                                     "does not say)",
        "latency": "assumed 5 us (SeaStar2+); negligible next to the request cost",
        "md_rate": "assumed 5,000 opens/s at Spider's one metadata server (OLCF-SPIDER: one MDS per file "
                   "system); the sensitivity table varies it",
        "md_contention": "assumed none: no published contention number",
        "request_cost, injection": "fitted (docs/scale.md, Series)",
    },
)

MACHINES = {"mira": MIRA, "theta": THETA, "jaguar": JAGUAR}


def from_calibration(calibration: Any, *, ranks_per_node: int | None = None) -> Machine:
    """"This machine" from a :func:`lodex.calibrate` result (or the path of a saved one): as
    many nodes like this one as a write needs (``ranks_per_node`` ranks each, default the CPU
    count), sharing one storage target of the measured BW_io, Ts as the per-request cost and as the cost of a
    metadata operation (one synchronous request: an assumption, docs/scale.md), CC as the
    message latency, memory-speed "injection" (the ranks share one node)."""
    s = settings_of(calibration)
    rpn = int(ranks_per_node or os.cpu_count() or 1)
    return Machine(
        name="local", description=f"this machine, from lodex.calibrate (BW_io {s['bw_io'] / 1e6:.0f} MB/s, "
                                  f"Ts {s['ts'] * 1e3:.3f} ms, CC {s['cc'] * 1e6:.2f} us)",
        ranks_per_node=rpn, nodes=1 << 22, fs_bandwidth=s["bw_io"], targets=1, stripe_size=1 << 20,
        stripe_count=1, request_cost=s["ts"], md_rate=1.0 / s["ts"], md_contention=math.inf,
        injection=math.inf, latency=s["cc"], forwarding_ratio=0, forwarding_bandwidth=math.inf,
        reorder_per_particle=0.0, memory_per_node=_memory(),
        sources={"memory_per_node": "this machine's physical memory",
                 "fs_bandwidth, request_cost, latency": "lodex.calibrate on this machine",
                 "md_rate": "assumed 1 / Ts (a create is one synchronous request)"})


def _memory() -> float:
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return math.inf


def machine(spec: Any) -> Machine:
    """A Machine from a name ("mira", "theta"), a Machine, or a lodex.calibrate result or the
    path of a saved one ("this machine")."""
    if isinstance(spec, Machine):
        return spec
    if isinstance(spec, str) and spec.lower() in MACHINES:
        return MACHINES[spec.lower()]
    if isinstance(spec, str) and not spec.lower().endswith(".json"):
        raise InvalidArgumentError(f"unknown machine {spec!r}: use one of {', '.join(sorted(MACHINES))}, "
                                   "or a lodex.calibrate result (or the path of a saved one, *.json)")
    if not isinstance(spec, (str, os.PathLike, Calibration, Mapping)):
        raise InvalidArgumentError(f"machine must be one of {', '.join(sorted(MACHINES))}, a Machine, or a "
                                   f"lodex.calibrate result (or the path of a saved one); got {type(spec).__name__}")
    return from_calibration(spec)


def cb_aggregators(m: Machine, ranks: int) -> int:
    """Collective-buffering aggregators of a shared-file write: ROMIO's defaults, one per stripe
    on Lustre (stripe count), eight per I/O node on Blue Gene/Q, else one per node."""
    nodes = -(-ranks // m.ranks_per_node)
    if m.forwarding_ratio:
        return max(1, -(-nodes // m.forwarding_ratio) * 8)
    if m.stripe_count > 1:
        return min(nodes, m.stripe_count)
    return nodes
