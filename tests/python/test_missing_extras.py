"""A missing optional dependency (matplotlib, h5py, pandas, xarray, openpmd_api: the extras
lodex[plot], lodex[h5part], lodex[pandas], lodex[xarray], lodex[openpmd]) gives one clear line
naming what to install, from the command line and from Python, never a traceback. The dependency
is hidden by a module of its name that fails to import, placed first on the path."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import lodex


def hidden(tmp_path, *modules) -> dict:
    fake = tmp_path / "hide"
    for m in modules:
        (fake / m).mkdir(parents=True, exist_ok=True)
        (fake / m / "__init__.py").write_text(f'raise ImportError("no module {m} (hidden by the test)")\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = str(fake) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    path = tmp_path_factory.mktemp("extras") / "d.lodex"
    ds = lodex.create(str(path))
    g = ds.define_particles("a", {"position": ("f8", 3), "e": "f4"}, domain=((0, 0, 0), (1, 1, 1)))
    g.write(0, data={"position": np.random.default_rng(1).random((500, 3)), "e": np.ones(500, np.float32)})
    ds.close()
    return str(path)


def lodex_cli(env, *args):
    return subprocess.run([sys.executable, "-m", "lodex", *args], env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("module,extra,args", [
    ("matplotlib", "plot", ["render", "{d}", "a", "--step", "0", "--out", "{tmp}/p.png"]),
    ("h5py", "h5part", ["export", "{d}", "a", "--out", "{tmp}/a.h5part"]),
    ("openpmd_api", "openpmd", ["export", "{d}", "a", "--format", "openpmd", "--out", "{tmp}/a_%T.h5"]),
    ("openpmd_api", "openpmd", ["import", "{tmp}/none.bp", "{tmp}/n.lodex", "e", "--format", "openpmd"]),
])
def test_cli_says_what_to_install_in_one_line(tmp_path, dataset, module, extra, args):
    r = lodex_cli(hidden(tmp_path, module), *[a.format(d=dataset, tmp=tmp_path) for a in args])
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert f"pip install 'lodex[{extra}]'" in lines[0] and "MissingDependencyError" in lines[0], lines[0]


@pytest.mark.parametrize("module,code", [
    ("matplotlib", "import lodex.plot"),
    ("pandas", "lodex.open(D).particles['a'].read(0).to_pandas()"),
    ("xarray", "import lodex.xarray_backend"),
    ("openpmd_api", "import lodex.openpmd; lodex.openpmd.export(D, 'a', 'a_%T.h5')"),
])
def test_python_raises_missing_dependency(tmp_path, dataset, module, code):
    script = f"D = {dataset!r}\nimport lodex\ntry:\n    {code}\nexcept lodex.MissingDependencyError as e:\n" \
             f"    assert isinstance(e, ImportError)\n    print('MISSING', e)\n"
    r = subprocess.run([sys.executable, "-c", script], env=hidden(tmp_path, module), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    extra = {"matplotlib": "plot", "openpmd_api": "openpmd"}.get(module, module)
    assert r.stdout.startswith("MISSING") and f"lodex[{extra}]" in r.stdout, r.stdout
