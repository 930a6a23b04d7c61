"""lodex data in the real ParaView (Debian's ParaView 5.11, driven by pvpython as a subprocess).

H5Part: ParaView's own H5PartReader opens lodex's exports of gapped steps (0, 2, 5) and of a
single step (1); its time values are the lodex steps, and every step's points and point arrays
equal ParticleGroup.read bit for bit, particles matched by id (vector fields as ParaView's
combined arrays).
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest

import lodex

HERE = os.path.dirname(os.path.abspath(__file__))
PV_SCRIPTS = os.path.join(HERE, "paraview_scripts")
PVPYTHON = shutil.which("pvpython")
SCHEMA = {"position": ("f8", 3), "energy": "f4", "id": "i8", "u": ("f4", 3), "kind": "u2"}
DOMAIN = ((0.0, 0.0, 0.0), (2.0, 1.0, 1.0))
STEPS = {0: 700, 1: 311, 2: 0, 5: 1000}   # step -> particles; step 2 is empty


def particles(step: int, n: int) -> dict:
    rng = np.random.default_rng(100 + step)
    lo, hi = (np.asarray(v) for v in DOMAIN)
    return {"position": lo + rng.random((n, 3)) * (hi - lo), "energy": rng.random(n).astype("f4"),
            "id": rng.permutation(n).astype("i8") + 10_000 * step,
            "u": rng.standard_normal((n, 3)).astype("f4"), "kind": rng.integers(0, 7, n).astype("u2")}


def pvpython(script: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run a script of paraview_scripts/ with pvpython; its output when it fails."""
    assert PVPYTHON, "pvpython is missing: scripts/setup-system.sh installs ParaView"
    proc = subprocess.run([PVPYTHON, os.path.join(PV_SCRIPTS, script), *args], capture_output=True,
                          text=True, timeout=timeout)
    assert proc.returncode == 0, f"pvpython {script} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("pv") / "run.lodex")
    with lodex.create(path) as ds:
        g = ds.particles("electrons", schema=SCHEMA, domain=DOMAIN, partition_grid=(2, 1, 1))
        for step, n in STEPS.items():
            g.write(step=step, data=particles(step, n))
    return path


def by_id(data: dict) -> dict:
    order = np.argsort(data["id"], kind="stable")
    return {k: v[order] for k, v in data.items()}


def test_h5part_in_paraview(dataset, tmp_path):
    g = lodex.open(dataset).particles("electrons")
    files = {(0, 2, 5): str(tmp_path / "gap.h5part"), (1,): str(tmp_path / "one.h5part")}
    for steps, path in files.items():
        g.export(path, steps=list(steps))
    out = str(tmp_path / "pv.npz")
    pvpython("h5part_dump.py", out, *files.values())
    got = np.load(out)
    for i, steps in enumerate(files):
        assert got[f"{i}/times"].tolist() == [float(s) for s in steps]
        for k, step in enumerate(steps):
            if STEPS[step] == 0:   # ParaView's reader gives an empty step no arrays at all
                assert got[f"{i}/{k}/points"].shape[0] == 0 and g.files(step) == []
                continue
            pv = {"position": got[f"{i}/{k}/points"]}
            pv.update({name: got[f"{i}/{k}/array/{name}"] for name in ("energy", "id", "u", "kind")})
            want = g.read(step)
            assert len(want["id"]) == STEPS[step] and len(pv["id"]) == STEPS[step], (step, len(pv["id"]))
            pv, want = by_id(pv), by_id(want)
            for name, (dtype, comps) in ((n, (v, 1) if isinstance(v, str) else v) for n, v in SCHEMA.items()):
                a, b = pv[name], want[name]
                assert a.dtype == np.dtype(dtype) and a.shape == b.shape, (step, name, a.dtype, a.shape)
                assert a.tobytes() == b.tobytes(), (step, name)
            for c, axis in enumerate("xyz"):   # the coordinates are point arrays too
                assert got[f"{i}/{k}/array/{axis}"][np.argsort(got[f"{i}/{k}/array/id"])].tobytes() == \
                    want["position"][:, c].tobytes()
