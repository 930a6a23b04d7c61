"""The wheel a user installs (make wheel): built as a package alone (no GoogleTest, no tests),
repaired by auditwheel so it carries CRoaring, xxHash and zlib, installed into a fresh virtual
environment with nothing but its dependencies from PyPI, and used there: its extension must find
those libraries inside the wheel, not on the system, and a dataset written and read by it must
be exact."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, timeout=1500, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))}: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r.stdout


@pytest.fixture(scope="module")
def wheel():
    run(["make", "-C", ROOT, "wheel"])
    (whl,) = glob.glob(os.path.join(ROOT, "dist", "lodex-*.whl"))
    return whl


def test_wheel_is_the_package_alone_with_its_libraries(wheel):
    assert "manylinux" in os.path.basename(wheel), wheel
    names = zipfile.ZipFile(wheel).namelist()
    libs = [n for n in names if n.startswith("lodex.libs/")]
    assert any("libroaring" in n for n in libs) and any("libxxhash" in n for n in libs), libs
    assert not any("libmpi" in n for n in libs), libs   # MPI is the mpich wheel's
    assert not any("test" in n.lower() or n.endswith(".a") for n in names if not n.startswith("lodex-")), names
    assert any(n.startswith("lodex/_lodex") and n.endswith(".so") for n in names)
    assert {"lodex/serve/viewer/index.html", "lodex/serve/viewer/viewer.js"} <= set(names)   # lodex serve's page
    assert {"lodex/paraview/lodex_reader.py", "lodex/paraview/worker.py"} <= set(names)   # the ParaView plugin


def test_wheel_works_in_a_fresh_environment(wheel, tmp_path):
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    py = str(venv / "bin" / "python")
    run([py, "-m", "pip", "install", "--quiet", wheel])
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "PYTHONPATH")}
    ext = run([py, "-c", "import lodex._lodex as m; print(m.__file__)"], env=env, cwd=str(tmp_path)).strip()
    assert ext.startswith(str(venv)), ext
    libs = run(["ldd", ext], env=env)
    for lib in ("libroaring", "libxxhash"):
        line = next(ln for ln in libs.splitlines() if lib in ln)
        assert "lodex.libs" in line, line   # the wheel's copy, not /usr/lib's
    script = r'''
import numpy as np, lodex
rng = np.random.default_rng(1)
data = {"position": rng.random((5000, 3)), "energy": rng.random(5000).astype(np.float32)}
with lodex.create("w.lodex") as ds:
    ds.define_particles("p", schema={"position": ("f8", 3), "energy": "f4"}, domain=((0, 0, 0), (1, 1, 1)),
                        partition=(1, 1, 1)).write(step=0, data=data, index=["energy"])
    ds.define_grid("g", dims=(9, 8, 7), dtype="f4").write(0, ((0, 0, 0), (9, 8, 7)), np.ones((7, 8, 9), np.float32))
r = lodex.open("w.lodex")
got = r.particles["p"].read(0)
assert np.array_equal(np.sort(got["energy"]), np.sort(data["energy"]))
assert r.particles["p"].query(0, "energy < 0.5").count == int((data["energy"] < 0.5).sum())
assert r.grids["g"].read(0).sum() == 9 * 8 * 7
print("ok", lodex.__version__)
'''
    out = run([py, "-c", script], env=env, cwd=str(tmp_path))
    assert out.startswith("ok "), out
