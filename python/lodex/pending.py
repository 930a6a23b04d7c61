"""What a write returns: :class:`PendingWrite` for an asynchronous step of a particle group, grid
or series, and :class:`WriteProfile`, a particle write's timings."""

from __future__ import annotations

import json
from typing import Any


class WriteProfile(dict):
    """Per-phase timings of the last collective write, reduced over ranks (seconds). ``phases``
    are this rank's wall time in each step of the write; ``threads`` the busy time of helper
    threads that overlap them (``order``: the level-of-detail order computed while particles
    arrive; ``writer``: the write-behind thread that writes one chunk while the next is prepared).
    ``plan_reused``: the step reused the previous step's aggregation plan (factor and grid
    partitions, every rank's patch and whether it holds particles unchanged). ``path``: how the
    particles reached the files: "node" (the ranks of a partition on one node wrote its file
    together, each a slice), "p2p" or "shm" (one writer per file)."""

    PHASES = ("check", "agree", "plan", "exchange", "reorder", "file_write", "commit")

    def to_json(self, **kw) -> str:
        return json.dumps(self, **kw)

    @property
    def throughput(self) -> float:
        """Bytes written per second of the slowest rank's end-to-end time."""
        return self["bytes"] / self["total_s"] if self.get("total_s") else 0.0

    def __str__(self) -> str:
        if not self:
            return "no write yet"
        lines = [
            f"step {self['step']}: {self['particles']:,} particles, {self['files']} files, "
            f"{self['bytes'] / 2**20:.2f} MiB in {self['total_s'] * 1e3:.2f} ms "
            f"({self.throughput / 2**30:.2f} GiB/s) on {self['ranks']} ranks, "
            f"{self['aggregators']} aggregators, {'aligned' if self['aligned'] else 'non-aligned'}"
            f"{', fsync' if self['fsync'] else ''}{', plan reused' if self.get('plan_reused') else ''}"
            f"{', path ' + self['path'] if self.get('path') else ''}",
            f"  {'phase':<18}{'min ms':>10}{'mean ms':>10}{'max ms':>10}",
        ]
        for name, t in self["phases"].items():
            lines.append(f"  {name:<18}{t['min_s'] * 1e3:>10.3f}{t['mean_s'] * 1e3:>10.3f}"
                         f"{t['max_s'] * 1e3:>10.3f}")
        for name, t in self.get("threads", {}).items():
            lines.append(f"  {name + ' thread':<18}{t['min_s'] * 1e3:>10.3f}{t['mean_s'] * 1e3:>10.3f}"
                         f"{t['max_s'] * 1e3:>10.3f}")
        return "\n".join(lines)


class PendingWrite:
    """An asynchronous step (``ParticleGroup.write``, ``Grid.write`` or ``Series.write`` with
    ``wait=False``): its files are written on a helper thread; it commits at the group's next
    collective call. A series step that completed no window is done at once."""

    def __init__(self, group: Any, step: int, keep: Any = None):
        self._group = group
        self.step = step
        self._keep = keep   # the caller's arrays of a copy=False step, alive until it is done

    def done(self) -> bool:
        """Local: whether this rank finished the step's files (it still commits at the next
        collective call)."""
        return self._group._core.step_written(self.step)

    def wait(self) -> WriteProfile:
        """Collective over the dataset's ranks: completes and commits the step (if no later call
        did already) and returns the group's profile; the step's error is raised on every rank."""
        try:
            self._group._core.wait_step(self.step)   # and the group's steps pending before it
        finally:
            self._keep = None
        return self._group.profile

    def __repr__(self) -> str:
        return f"<lodex.PendingWrite step={self.step} {'done' if self.done() else 'writing'}>"
