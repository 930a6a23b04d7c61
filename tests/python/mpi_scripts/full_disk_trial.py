"""MPI worker of the disk-full campaign (tests/python/full_disk_campaign.py): one trial's phase.

usage: full_disk_trial.py PATH KIND SEED fill|retry [FAILED]

fill: creates PATH and runs KIND (particles, grid, series, index, truncate) until the file system
is full: particles, grids and series write steps of random sizes until a write fails; index and
truncate write a few particle and grid steps, fill the disk with a file (FILLER, beside PATH)
up to a random few KiB, then build the bitmap index or truncate. Rank 0 prints what every rank
saw: the error (type, message), the steps committed, and the dataset's file listing before the
failed operation and after it (a failed operation must leave nothing behind).

retry (after the campaign freed space): opens PATH for append and does the failed operation
FAILED again (a step: write it, and for a series every step after the last flushed one up to
it; index: build it; truncate: truncate again).

Every value is a function of (SEED, step, rank, ranks): the campaign reads back and compares.
"""

from __future__ import annotations

import os
import sys

import numpy as np
from mpi4py import MPI

import lodex
import lodex_testutil as tu

SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8"}
FILLER = "filler.bin"
MAX_STEPS = 40


def plan(seed: int, kind: str) -> dict:
    """The trial's shape, the same on every rank and in the campaign."""
    rng = np.random.default_rng([seed, 1])
    p = {"grid": tuple(int(v) for v in rng.integers(40, 88, 3)),
         "series": tuple(int(v) for v in rng.integers(40, 72, 3)),
         "d_tar": int(rng.integers(1, 3)), "leave": int(rng.integers(0, 48 * 1024)),
         "base_steps": int(rng.integers(2, 5)), "after": 0}
    p["after"] = int(rng.integers(-1, p["base_steps"] - 1))
    if kind == "truncate":   # a manifest is small: mostly no free page at all
        p["leave"] = int(rng.integers(0, 8 * 1024))
    if kind in ("particles", "grid", "series"):
        p["counts"] = [int(v) for v in rng.integers(300, 30000, MAX_STEPS)]
    else:
        p["counts"] = [int(v) for v in rng.integers(300, 6000, MAX_STEPS)]
        p["grid"] = (16, 16, 16)
    return p


def particles(seed: int, step: int, rank: int, ranks: int, n: int) -> dict:
    rng = np.random.default_rng([seed, 2, step, rank])
    pos = rng.random((n, 3))
    pos[:, 2] = (rank + pos[:, 2]) / ranks
    return {"position": pos, "energy": rng.random(n).astype(np.float32),
            "id": np.arange(n, dtype=np.int64) + 10**7 * rank + 10**10 * step}


def grid(seed: int, step: int, dims: tuple) -> np.ndarray:
    return np.random.default_rng([seed, 3, step]).random(dims[::-1], dtype=np.float32)


def series(seed: int, step: int, dims: tuple) -> np.ndarray:
    return np.random.default_rng([seed, 4, step]).random(dims[::-1], dtype=np.float32)


def z_range(n: int, rank: int, size: int) -> tuple[int, int]:
    return n * rank // size, n * (rank + 1) // size


def listing(path: str) -> list[str]:
    out = []
    for root, _dirs, files in os.walk(path):
        rel = os.path.relpath(root, path)
        out += [os.path.normpath(os.path.join(rel, f)) for f in files]
        out += [os.path.normpath(os.path.join(rel, d)) + "/" for d in _dirs]
    return sorted(out)


class Trial:
    def __init__(self, path: str, kind: str, seed: int, comm):
        self.path, self.kind, self.seed, self.comm = path, kind, seed, comm
        self.rank, self.size = comm.rank, comm.size
        self.p = plan(seed, kind)

    def groups(self, ds):
        out = {}
        if self.kind in ("particles", "index", "truncate"):
            out["p"] = ds.define_particles("p", schema=SCHEMA, domain=tu.UNIT, partition_grid=(1, 1, 2))
        if self.kind in ("grid", "truncate"):
            out["g"] = ds.define_grid("g", dims=self.p["grid"], dtype="f4", bits_per_block=12, blocks_per_file=4)
        if self.kind == "series":
            out["s"] = ds.define_series("s", dims=self.p["series"], variables={"T": ("f4", 3)}, d_tar=self.p["d_tar"],
                                        d_sar=0)
        return out

    def write(self, gs: dict, name: str, step: int) -> None:
        r, n = self.rank, self.size
        if name == "p":
            gs["p"].write(step=step, data=particles(self.seed, step, r, n, self.p["counts"][step]),
                          patch=((0, 0, r / n), (1, 1, (r + 1) / n)))
        elif name == "g":
            dims = self.p["grid"]
            z0, z1 = z_range(dims[2], r, n)
            gs["g"].write(step, ((0, 0, z0), (dims[0], dims[1], z1)), grid(self.seed, step, dims)[z0:z1])
        else:
            dims = self.p["series"]
            z0, z1 = z_range(dims[2], r, n)
            gs["s"].write(step, ((0, 0, z0), (dims[0], dims[1], z1)), {"T": series(self.seed, step, dims)[z0:z1]})

    def fill_disk(self) -> None:
        """Rank 0 fills the file system up to p['leave'] bytes."""
        if self.rank == 0:
            st = os.statvfs(self.path)
            free = st.f_bavail * st.f_frsize - self.p["leave"]
            with open(os.path.join(os.path.dirname(self.path), FILLER), "wb") as fh:
                block = b"\xa5" * (1 << 20)
                while free > 0:
                    try:
                        free -= fh.write(block[:min(free, len(block))])
                        fh.flush()
                    except OSError:
                        break
        self.comm.Barrier()

    def attempt(self, ds, gs, op, out: dict) -> bool:
        """Run op (collective) between listings; False (and the error in out) when it raised."""
        self.comm.Barrier()
        before = listing(self.path) if self.rank == 0 else None
        try:
            op()
            return True
        except lodex.Error as e:
            out.update(error=type(e).__name__, message=str(e))
        except Exception as e:   # noqa: BLE001 - any other type is what the campaign counts
            out.update(error="foreign:" + type(e).__name__, message=str(e))
        self.comm.Barrier()
        if self.rank == 0:
            out.update(before=before, after=listing(self.path))
        return False

    def fill(self) -> dict:
        out = {"rank": self.rank, "error": None, "failed": None}
        ds = lodex.create(self.path, comm=self.comm)
        gs = self.groups(ds)
        if self.kind in ("particles", "grid", "series"):
            name = self.kind[0]
            for step in range(MAX_STEPS):
                if not self.attempt(ds, gs, lambda: self.write(gs, name, step), out):
                    out["failed"] = step
                    break
        else:
            for step in range(self.p["base_steps"]):
                for name in gs:
                    self.write(gs, name, step)
            self.fill_disk()
            if self.kind == "index":
                op = lambda: gs["p"].build_index(fields=["energy"])   # noqa: E731
            else:
                op = lambda: ds.truncate(self.p["after"])   # noqa: E731
            if not self.attempt(ds, gs, op, out):
                out["failed"] = self.kind
        out["steps"] = {k: list(g.steps) for k, g in gs.items()}
        try:
            ds.close()
        except lodex.Error as e:
            out["close_error"] = f"{type(e).__name__}: {e}"
        return out

    def retry(self, failed: str) -> dict:
        out = {"rank": self.rank}
        ds = lodex.open(self.path, "a", comm=self.comm)
        gs = self.groups(ds)
        if self.kind in ("particles", "grid"):
            self.write(gs, self.kind[0], int(failed))
        elif self.kind == "series":
            s = gs["s"]
            first = max(s.steps) + 1 if s.steps else 0
            for step in range(first, int(failed) + 1):
                self.write(gs, "s", step)
        elif self.kind == "index":
            gs["p"].build_index(fields=["energy"])
        else:
            ds.truncate(self.p["after"])
        ds.close()
        return out


def main() -> None:
    comm = MPI.COMM_WORLD
    path, kind, seed, phase = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    trial = Trial(path, kind, seed, comm)
    out = trial.fill() if phase == "fill" else trial.retry(sys.argv[5])
    outs = comm.gather(out)
    if comm.rank == 0:
        tu.emit({"outs": outs})


if __name__ == "__main__":
    main()
