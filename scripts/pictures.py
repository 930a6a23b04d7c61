"""The README's pictures (docs/images/*.png), one of each kind lodex.plot draws, from a small
dataset this script writes with one process: VPIC-like electrons with an energy index, an S3D-like
grid and a GEOS-5-like series (lodex.workloads). Run by `make pictures`; small PNGs (80 dpi)."""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

import lodex
import lodex.plot as lp
from lodex.workloads import VPIC_DOMAIN, VPIC_SCHEMA, Geos, vpic

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUERY = "energy > 0.5 && 60 < z < 72"


def write(path: str) -> None:
    parts = [vpic(r, 8, 100_000, seed=1)[0] for r in range(8)]
    electrons = {k: np.concatenate([p[k] for p in parts]) for k in VPIC_SCHEMA}
    geos = Geos(n2d=1, n3d=1, steps=24)
    dims = (96, 64, 48)
    z, y, x = np.meshgrid(*(np.arange(d, dtype=np.float32) for d in dims[::-1]), indexing="ij")
    temperature = 300 + 50 * np.sin(x / 9) * np.cos(y / 7) + z / 4
    with lodex.create(path) as ds:
        g = ds.define_particles("electrons", schema=VPIC_SCHEMA, domain=VPIC_DOMAIN, partition_grid=(2, 2, 1))
        g.write(0, data=electrons, index=["energy", "position"])
        flow = ds.define_grid("flow", dims=dims, fields={"temperature": "f4"})
        flow.write(0, ((0, 0, 0), dims), {"temperature": temperature})
        s = ds.define_series("geos", dims=geos.dims, variables=geos.variables())
        for t in range(geos.steps):
            s.write(t, *geos.local(0, 1, t))


def pictures(path: str) -> dict:
    ds = lodex.open(path)
    g = ds.particles["electrons"]
    units = {"position": "d_e", "energy": "m_e c²"}
    return {
        "particles.png": lp.particles(g, 0, axis="y", field="energy", log=True, pixels=160, units=units),
        "query.png": lp.query(g, 0, QUERY, axis="y", pixels=160, units=units),
        "histogram.png": lp.histogram(g, 0, "energy", QUERY, log=True, units=units),
        "grid.png": lp.grid_slice(ds.grids["flow"], 0, axis="z", index=20, resolution=14, units={"temperature": "K"}),
        "timeline.png": lp.timeline(ds.series["geos"], "T", (72, 45, 10)),
        "hovmoller.png": lp.hovmoller(ds.series["geos"], "T", "x", (0, 45, 10)),
    }


def main(out: str) -> None:
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.lodex")
        write(path)
        for name, fig in pictures(path).items():
            lp.save(fig, os.path.join(out, name), dpi=70)
            print(f"{os.path.join(out, name)}: {os.path.getsize(os.path.join(out, name)):,} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "images"))
