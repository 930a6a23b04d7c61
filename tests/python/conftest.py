"""Shared pytest helpers for the lodex Python and multi-rank MPI tests.

Multi-rank tests run worker scripts from ``mpi_scripts/`` under ``mpiexec`` (see
:func:`run_mpi`); rank 0 of a worker prints one line ``LODEX_RESULT <json>`` that the test
parses and checks. The data generators shared by the workers and the tests live in
``mpi_scripts/lodex_testutil.py`` so both sides regenerate exactly the same particles.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "mpi_scripts")
if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)

from lodex_testutil import RESULT_MARK   # noqa: E402 (mpi_scripts is on sys.path now)

# Test files of the viewer, the ParaView plugin and the pictures, whose library code (lodex.serve,
# lodex.paraview, lodex.plot, lodex render) still calls the Python API's spellings of the previous
# release: their DeprecationWarnings are not shown there (tests/python/test_deprecations.py checks
# each old spelling). Every other test uses the current spellings only.
LEGACY_SPELLING_FILES = {"test_serve.py", "test_serve_browser.py", "test_serve_load.py", "test_paraview.py",
                         "test_plot.py"}


def pytest_collection_modifyitems(items):
    for item in items:
        if os.path.basename(str(item.fspath)) in LEGACY_SPELLING_FILES:
            item.add_marker(pytest.mark.filterwarnings("ignore::DeprecationWarning"))


class LaunchCache:
    """Results of expensive launches (mpiexec runs, draws) shared by the tests of a module:
    ``cached(key, fn)`` runs fn once per key. A launch that failed is remembered and raised again,
    so every test that needs it reports the failure."""

    def __init__(self):
        self._results: dict = {}

    def __call__(self, key, fn):
        if key not in self._results:
            try:
                self._results[key] = fn()
            except AssertionError as e:
                self._results[key] = e
        if isinstance(self._results[key], BaseException):
            raise self._results[key]
        return self._results[key]


class MPIRunError(AssertionError):
    """An MPI worker failed, timed out, or printed no result line."""


def _env() -> dict:
    env = dict(os.environ)
    bindir = os.path.join(sys.prefix, "bin")
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.setdefault("PYTHONUNBUFFERED", "1")
    env["PYTHONPATH"] = SCRIPTS + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def script_path(script: str) -> str:
    return script if os.path.isabs(script) else os.path.join(SCRIPTS, script)


def run_mpi_raw(n: int, script: str, *args, timeout: float = 120, env: dict | None = None,
                cwd: str | None = None):
    """Run ``script`` on ``n`` ranks (in folder ``cwd``); returns (returncode, stdout, stderr,
    timed_out). ``env`` adds environment variables (e.g. LODEX_EXCHANGE)."""
    cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", str(n), sys.executable,
           script_path(script), *[str(a) for a in args]]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**_env(), **(env or {})}, cwd=cwd, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err, False
    except subprocess.TimeoutExpired:
        # Kill the whole process group this test started (mpiexec and its ranks).
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        return proc.returncode, out, err, True


def parse_result(out: str):
    lines = [ln for ln in out.splitlines() if ln.startswith(RESULT_MARK)]
    if not lines:
        return None
    return json.loads(lines[-1][len(RESULT_MARK):])


def run_mpi(n: int, script: str, *args, timeout: float = 120, env: dict | None = None):
    """Run an MPI worker script on ``n`` ranks and return the JSON object rank 0 printed.

    Fails the calling test when the job times out (a hang), exits non-zero, or prints no result.
    """
    rc, out, err, timed_out = run_mpi_raw(n, script, *args, timeout=timeout, env=env)
    settings = " ".join(f"{k}={v}" for k, v in (env or {}).items())
    cmd = f"{settings} mpiexec -n {n} {os.path.basename(script)} {' '.join(map(str, args))}"
    if timed_out:
        raise MPIRunError(f"{cmd}: timed out after {timeout} s (hang?)\n--- stdout ---\n{out[-4000:]}"
                          f"\n--- stderr ---\n{err[-4000:]}")
    if rc != 0:
        raise MPIRunError(f"{cmd}: exit code {rc}\n--- stdout ---\n{out[-4000:]}"
                          f"\n--- stderr ---\n{err[-4000:]}")
    res = parse_result(out)
    if res is None:
        raise MPIRunError(f"{cmd}: no {RESULT_MARK!r} line\n--- stdout ---\n{out[-4000:]}"
                          f"\n--- stderr ---\n{err[-4000:]}")
    return res


# The parts of `make demo` (python -m lodex.demo), small: (ranks, arguments); tests/python/test_demo.py
# checks what each prints and writes, tests/python/test_docs_run.py runs the commands it suggests.
DEMO_PARTS = {
    "uintah": (4, ["--particles", "2000"]),
    "clustered": (4, ["--particles", "3000", "--workload", "clustered"]),
    "vpic": (3, ["--particles", "20000", "--workload", "vpic"]),
    "geos": (4, ["--workload", "geos"]),
    "grid": (3, ["--workload", "grid"]),
}


@pytest.fixture(scope="session")
def demo_runs(tmp_path_factory):
    """``demo_runs(part)`` runs that part of the demo once per session as `make demo` does (from a
    folder ``demo_runs.base``, keeping its dataset as ``demo-output/<part>.lodex``) and returns what
    it printed; a failed run fails every test that asks for it."""
    base = str(tmp_path_factory.mktemp("demo"))
    os.makedirs(os.path.join(base, "demo-output"))
    cache = LaunchCache()

    def launch(part):
        n, args = DEMO_PARTS[part]
        cmd = [os.path.join(sys.prefix, "bin", "mpiexec"), "-n", str(n), sys.executable, "-m", "lodex.demo",
               *args, "--output", f"demo-output/{part}.lodex"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
                                cwd=base, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)   # mpiexec and its ranks
            out, err = proc.communicate()
            raise MPIRunError(f"{' '.join(cmd[2:])}: timed out after 300 s\n{out[-3000:]}\n{err[-3000:]}")
        assert proc.returncode == 0, f"{' '.join(cmd[2:])}: exit {proc.returncode}\n{out[-3000:]}\n{err[-3000:]}"
        return out

    def run(part: str) -> str:
        return cache(part, lambda: launch(part))

    run.base = base
    return run


@pytest.fixture
def copy(pristine, tmp_path):
    """A private copy of the module's ``pristine`` dataset, for tests that damage files."""
    dst = str(tmp_path / "copy.lodex")
    shutil.copytree(pristine, dst)
    return dst


@contextlib.contextmanager
def small_tmpfs(size: str, prefix: str):
    """A tmpfs of `size` (e.g. "4m") mounted for the test: a real full disk. Skips without root."""
    mnt = tempfile.mkdtemp(prefix=prefix)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mnt], capture_output=True, text=True)
    if r.returncode != 0:
        os.rmdir(mnt)
        pytest.skip(f"cannot mount a small tmpfs here ({r.stderr.strip()}); needs root")
    try:
        yield mnt
    finally:
        if subprocess.run(["umount", mnt], check=False).returncode == 0:
            os.rmdir(mnt)
