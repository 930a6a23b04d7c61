"""The native package as a simulation developer uses it: ``make install PREFIX=...`` into a
temporary prefix, the examples built as their own CMake project that finds the *installed*
package (only CMAKE_PREFIX_PATH points there), every example run under mpiexec at 1, 3 and 4
ranks, and what each wrote read back with the Python API and compared value by value against
what the example's generator gives. Also: each installed header compiles alone, the shared
library exports only the C API, and pkg-config builds a program too.

Every example runs twice: built against the venv's MPICH (``make install``), and against a second
MPI, the one a cluster user has: Debian's Open MPI, with its own Fortran binding, through plain
``cmake`` + ``cmake --install`` with Open MPI's compiler wrappers, run by ``mpirun.openmpi``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

import lodex

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(sys.prefix, "bin")
# The first test of each MPI builds and installs the whole package in its fixtures (about 5 minutes
# each on 2 cores): more than the suite's per-test limit.
pytestmark = pytest.mark.timeout(2400)
RANKS = (1, 3, 4)


def _env(**extra) -> dict:
    env = dict(os.environ)
    env["PATH"] = BIN + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def _run(cmd, timeout=900, cwd=None, env=None) -> str:
    """Runs cmd (killing its whole process group on timeout); returns stdout, fails with both streams."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
                            env=env or _env(), start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"timed out after {timeout} s: {' '.join(map(str, cmd))}\n{out}\n{err}")
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} exited {proc.returncode}\n{out}\n{err}"
    return out


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """lodex installed the documented way: make install PREFIX=..."""
    where = tmp_path_factory.mktemp("native") / "prefix"
    _run(["make", "-C", ROOT, "install", f"PREFIX={where}"], timeout=1500)
    return where


# Debian's Open MPI: its compiler wrappers, and an environment without the venv (no MPI_HOME, no
# venv first on PATH) as a cluster user's shell would be.
OPENMPI_WRAPPERS = ["-DMPI_C_COMPILER=mpicc.openmpi", "-DMPI_CXX_COMPILER=mpicxx.openmpi",
                    "-DMPI_Fortran_COMPILER=mpif90.openmpi"]


def _openmpi_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("MPI_HOME", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if not p.startswith(sys.prefix) and p)
    if os.geteuid() == 0:   # Open MPI refuses root unless told (CI containers run as root)
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def prefix_openmpi(tmp_path_factory):
    """lodex built and installed against Debian's Open MPI with plain CMake, as docs/native.md says."""
    top = tmp_path_factory.mktemp("native-openmpi")
    build, where = top / "build", top / "prefix"
    env = _openmpi_env()
    # Unoptimized (-O0: 1.5 instead of 5 minutes on 2 cores): this build checks the package's
    # build, install and link against a second MPI; the venv build above is the optimized one.
    _run(["cmake", "-S", ROOT, "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=None",
          "-DCMAKE_C_FLAGS=-O0", "-DCMAKE_CXX_FLAGS=-O0", "-DCMAKE_Fortran_FLAGS=-O0",
          "-DLODEX_BUILD_TESTS=OFF", "-DLODEX_WITH_FORTRAN=ON", *OPENMPI_WRAPPERS,
          f"-DCMAKE_INSTALL_PREFIX={where}"], env=env)
    _run(["cmake", "--build", str(build), "-j2"], timeout=1500, env=env)
    _run(["cmake", "--install", str(build)], env=env)
    return where


@pytest.fixture(scope="module", params=["mpich", "openmpi"])
def examples(request, tmp_path_factory):
    """The examples project configured with only CMAKE_PREFIX_PATH (and, for Open MPI, its
    wrappers), and built; the build folder records how to launch its programs (_mpiexec)."""
    build = tmp_path_factory.mktemp(f"examples-build-{request.param}")
    if request.param == "mpich":
        prefix, extra, env, launcher = request.getfixturevalue("prefix"), [], _env(), [os.path.join(BIN, "mpiexec")]
    else:
        prefix, extra, env = request.getfixturevalue("prefix_openmpi"), OPENMPI_WRAPPERS, _openmpi_env()
        launcher = ["mpirun.openmpi", "--oversubscribe"]
    _run(["cmake", "-S", os.path.join(ROOT, "examples"), "-B", str(build), "-G", "Ninja",
          f"-DCMAKE_PREFIX_PATH={prefix}", *extra], env=env)
    _run(["cmake", "--build", str(build), "-j2"], env=env)
    (build / "launcher.json").write_text(json.dumps({"launcher": launcher, "openmpi": request.param == "openmpi"}))
    return build


def _mpiexec(n: int, program, *args, timeout=300) -> str:
    """Runs an example with the launcher of the MPI its build used (the venv's mpiexec by default)."""
    spec = os.path.join(os.path.dirname(str(program)), "launcher.json")
    launcher, env = [os.path.join(BIN, "mpiexec")], None
    if os.path.exists(spec):
        s = json.load(open(spec))
        launcher, env = s["launcher"], (_openmpi_env() if s["openmpi"] else None)
    return _run([*launcher, "-n", str(n), str(program), *map(str, args)], timeout=timeout, env=env)


def _values(out: str, key: str) -> list[str]:
    for line in out.splitlines():
        if line.startswith(key + " "):
            return line[len(key) + 1:].split()
    raise AssertionError(f"no line '{key} ...' in the output:\n{out}")


# ---- the installed package ------------------------------------------------------------------

def test_install_layout(prefix):
    lib = prefix / "lib"
    assert (prefix / "include" / "lodex.h").is_file()
    for h in ("lodex.hpp", "error.hpp", "dataset.hpp", "particles.hpp", "grid.hpp", "series.hpp", "version.h"):
        assert (prefix / "include" / "lodex" / h).is_file(), h
    assert (lib / "cmake" / "lodex" / "lodexConfig.cmake").is_file()
    assert (lib / "cmake" / "lodex" / "lodexConfigVersion.cmake").is_file()
    assert (lib / "pkgconfig" / "lodex.pc").is_file()
    assert (lib / "pkgconfig" / "lodex-fortran.pc").is_file()
    real = os.path.realpath(lib / "liblodex.so")
    assert re.search(r"liblodex\.so\.\d+\.\d+\.\d+$", real), real
    soname = _run(["readelf", "-d", real])
    assert re.search(r"SONAME.*\[liblodex\.so\.0\.1\]", soname), soname
    assert (lib / "liblodex.so.0.1").exists()
    # No path of the build machine is baked in (the program's own MPI is used).
    runpath = re.findall(r"R(?:UN)?PATH.*\[(.*)\]", soname)
    assert runpath == [], runpath


def test_openmpi_install(prefix_openmpi, tmp_path):
    """Against Debian's Open MPI: the library needs its libmpi.so.40 and no run path; a Fortran
    program built with Open MPI's own wrapper and pkg-config (lodex-fortran.pc) uses Open MPI's
    own Fortran binding (use mpi) and runs under mpirun.openmpi."""
    dyn = _run(["readelf", "-d", os.path.realpath(prefix_openmpi / "lib" / "liblodex.so")])
    assert "[libmpi.so.40]" in dyn and "libmpi.so.12" not in dyn, dyn
    assert not re.findall(r"R(?:UN)?PATH", dyn), dyn
    env = _openmpi_env(PKG_CONFIG_PATH=str(prefix_openmpi / "lib" / "pkgconfig"))
    flags = _run(["pkg-config", "--cflags", "--libs", "lodex-fortran"], env=env).split()
    assert any(f.endswith("include/lodex/fortran") for f in flags) and "-llodex_fortran" in flags, flags
    exe = tmp_path / "md_pc"
    _run(["mpif90.openmpi", os.path.join(ROOT, "examples", "fortran", "md_particles.f90"), *flags, "-o", str(exe)],
         env=env)
    assert "libmpi_mpifh.so" in _run(["ldd", str(exe)], env=env)   # Open MPI's own Fortran binding
    out = _run(["mpirun.openmpi", "--oversubscribe", "-n", "2", str(exe), str(tmp_path), "300"], env=env)
    assert "errors 0" in out, out
    assert lodex.open(tmp_path / "md.lodex").particles["atoms"].steps == [0, 1, 2, 3]


def test_library_exports_only_the_c_api(prefix):
    out = _run(["nm", "-D", "--defined-only", str(prefix / "lib" / "liblodex.so")])
    names = [line.split()[-1] for line in out.splitlines() if line.strip()]
    assert names, "no exported symbols"
    internal = [n for n in names if not n.startswith("lodex_")]
    assert not internal, f"exported symbols outside the C API: {internal[:20]}"
    for wanted in ("lodex_dataset_create", "lodex_particles_write", "lodex_grid_read", "lodex_series_read",
                   "lodex_last_error", "lodex_version", "lodex_dataset_create_f"):
        assert wanted in names
    # Every function the header declares is exported (and nothing it does not declare).
    declared = set(re.findall(r"LODEX_API\s+[\w\s\*]+?\b(lodex_\w+)\s*\(",
                              (prefix / "include" / "lodex.h").read_text()))
    assert declared == set(names), (sorted(declared - set(names)), sorted(set(names) - declared))


@pytest.mark.parametrize("header", ["lodex.h", "lodex/version.h", "lodex/lodex.hpp", "lodex/error.hpp",
                                    "lodex/dataset.hpp", "lodex/particles.hpp", "lodex/grid.hpp",
                                    "lodex/series.hpp"])
def test_each_installed_header_compiles_alone(prefix, tmp_path, header):
    src = tmp_path / "one.cpp"
    src.write_text(f"#include <{header}>\n")
    _run([os.path.join(BIN, "mpicxx"), "-std=c++20", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
          "-I", str(prefix / "include"), str(src)])
    if header.endswith(".h"):
        c = tmp_path / "one.c"
        c.write_text(f"#include <{header}>\ntypedef int translation_unit_not_empty;\n")
        _run([os.path.join(BIN, "mpicc"), "-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only",
              "-I", str(prefix / "include"), str(c)])


def test_pkg_config_builds_a_program(prefix, tmp_path):
    env = _env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    flags = _run(["pkg-config", "--cflags", "--libs", "lodex"], env=env).split()
    exe = tmp_path / "vpic_pc"
    _run([os.path.join(BIN, "mpicc"), "-std=c11", os.path.join(ROOT, "examples", "c", "vpic_particles.c"),
          *flags, "-o", str(exe)], env=env)
    out = _mpiexec(1, exe, tmp_path / "pc.lodex", 2000)
    assert out.strip().endswith("ok"), out


# ---- C: VPIC-like particles, an index and a value query ---------------------------------------

def _splitmix64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def vpic_electrons(size: int, n: int, dims: tuple[int, int, int]) -> dict[str, np.ndarray]:
    """What examples/c/vpic_particles.c writes on `size` ranks (rank grid `dims`), regenerated."""
    out: dict[str, list] = {k: [] for k in ("position", "ux", "uy", "uz", "energy", "id")}
    for rank in range(size):
        cell = (rank % dims[0], rank // dims[0] % dims[1], rank // (dims[0] * dims[1]))
        ids = (np.uint64(rank) << np.uint64(40)) | np.arange(n, dtype=np.uint64)

        def unit(k):
            h = _splitmix64(ids * np.uint64(8) + np.uint64(k)) >> np.uint64(40)
            return h.astype(np.float32) / np.float32(16777216.0)

        pos = np.stack([np.float32(16.0 * cell[a]) + np.float32(16.0) * unit(a) for a in range(3)], axis=1)
        hot = np.where(unit(6) < np.float32(0.01), np.float32(64.0), np.float32(1.0))
        for k, v in (("position", pos), ("ux", unit(3) - np.float32(0.5)), ("uy", unit(4) - np.float32(0.5)),
                     ("uz", unit(5) - np.float32(0.5)), ("energy", hot * unit(7)), ("id", ids)):
            out[k].append(v)
    return {k: np.concatenate(v) for k, v in out.items()}


@pytest.mark.parametrize("ranks", RANKS)
def test_c_vpic_example(examples, tmp_path, ranks):
    out_dir = tmp_path / "vpic.lodex"
    n = 3000
    out = _mpiexec(ranks, examples / "vpic_particles", out_dir, n)
    assert out.strip().endswith("ok"), out
    dims = tuple(int(v) for v in _values(out, "dims"))
    assert np.prod(dims) == ranks
    want = vpic_electrons(ranks, n, dims)
    ds = lodex.open(out_dir)
    got = ds.particles["electrons"].read(0)
    order = np.argsort(got["id"])
    assert np.array_equal(got["id"][order], np.sort(want["id"]))
    wo = np.argsort(want["id"])
    for k in want:
        assert got[k].dtype == want[k].dtype, k
        assert np.array_equal(got[k][order], want[k][wo]), k
    hot = int((want["energy"] > 8).sum())
    assert _values(out, "query count") == [str(hot), "expected", str(hot)]
    assert _values(out, "serial query count")[0] == str(hot)
    assert ds.particles["electrons"].query(0, "energy > 8").count == hot
    assert [x["field"] for x in ds.particles["electrons"].indexes(0)] == ["energy"]


# ---- C++: Uintah-like particles, a box read and a level-of-detail read ----------------------

M64 = (1 << 64) - 1


def uintah_particles(rank: int, step: int, dims, n: int) -> dict[str, np.ndarray]:
    """What examples/cpp/uintah_particles.cpp writes for one rank and step, regenerated (its LCG,
    its patch of the unit cube; the same double operations in the same order)."""
    cell = (rank % dims[0], rank // dims[0] % dims[1], rank // (dims[0] * dims[1]))
    lo = [cell[a] / dims[a] for a in range(3)]
    hi = [(cell[a] + 1) / dims[a] for a in range(3)]
    state = ((0x9E3779B97F4A7C15 * (rank + 1)) & M64) ^ (step << 32)

    def unit():
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) & M64
        return (state >> 11) * 2.0**-53

    for _ in range(4):
        unit()
    pos, vel, mass = np.empty((n, 3)), np.empty((n, 3), np.float32), np.empty(n)
    for i in range(n):
        for a in range(3):
            pos[i, a] = min(lo[a] + unit() * (hi[a] - lo[a]), np.nextafter(hi[a], lo[a]))
        for a in range(3):
            vel[i, a] = np.float32(unit() - 0.5)
        mass[i] = 1e-3 * (1.0 + unit())
    ids = np.int64(rank) * (1 << 32) + np.arange(n, dtype=np.int64)
    return {"position": pos, "velocity": vel, "mass": mass, "id": ids}


@pytest.mark.parametrize("ranks", RANKS)
def test_cpp_uintah_example(examples, tmp_path, ranks):
    out_dir = tmp_path / "uintah.lodex"
    n = 700
    dims = None
    factor = ("2", "1", "1") if ranks == 4 else ("1", "1", "1")
    out = _mpiexec(ranks, examples / "uintah_particles", out_dir, *factor, n)
    assert out.strip().endswith("result ok"), out
    head = _values(out, "ranks")
    dims = tuple(int(v) for v in head[2:5])
    assert head[0] == str(ranks) and head[6:9] == list(factor)
    group = lodex.open(out_dir).particles["particles"]
    assert group.steps == [0, 1]
    for step in (0, 1):
        want = [uintah_particles(r, step, dims, n) for r in range(ranks)]
        want = {k: np.concatenate([w[k] for w in want]) for k in want[0]}
        got = group.read(step)
        order, worder = np.argsort(got["id"]), np.argsort(want["id"])
        for k in want:
            assert got[k].dtype == want[k].dtype, k
            assert np.array_equal(got[k][order], want[k][worder]), (step, k)
    # The box and level-of-detail counts the program printed, against Python's reads.
    octant = ((0, 0, 0), (0.5, 0.5, 0.5))
    in_box = len(group.read(0, box=octant, fields=["id"])["id"])
    assert _values(out, "box_count") == [str(in_box), "expected", str(in_box)]
    for level in (0, 1):
        assert _values(out, f"lod level {level} count") == [str(len(group.read(0, level=level, readers=ranks)["id"]))]


# ---- Fortran: an S3D-like grid and a GEOS-5-like series ---------------------------------------

@pytest.mark.parametrize("ranks", RANKS)
def test_fortran_s3d_grid_example(examples, tmp_path, ranks):
    out_dir = tmp_path / "s3d.lodex"
    out = _mpiexec(ranks, examples / "s3d_grid", out_dir, 20, 12, 10)
    assert "check ok" in out, out
    grid = lodex.open(out_dir).grids["flow"]
    assert grid.steps == [0, 1] and grid.dims == (20, 12, 10)
    z, y, x = np.meshgrid(np.arange(10), np.arange(12), np.arange(20), indexing="ij")
    for step in (0, 1):
        temperature = 1000 + x + 100 * y + 10000 * z + 0.25 * step
        pressure = (0.5 * np.mod(x + 3 * y + 5 * z + 7 * step, 4096)).astype(np.float32)
        got_t = grid.read(step=step, field="temperature")
        got_p = grid.read(step=step, field="pressure")
        assert got_t.dtype == np.float64 and np.array_equal(got_t, temperature)
        assert got_p.dtype == np.float32 and np.array_equal(got_p, pressure)


@pytest.mark.parametrize("ranks", RANKS)
def test_fortran_geos_series_example(examples, tmp_path, ranks):
    out_dir = tmp_path / "geos.lodex"
    out = _mpiexec(ranks, examples / "geos_series", out_dir, 24, 14, 6)
    assert "check ok" in out, out
    series = lodex.open(out_dir).series["atmosphere"]
    assert series.steps == [0, 1, 2, 3, 4]
    s, z, y, x = np.meshgrid(np.arange(5), np.arange(6), np.arange(14), np.arange(24), indexing="ij")
    f4 = np.float32
    want = {"T": (200 + x + 40 * y + 1000 * z + 0.5 * s).astype(f4),
            "U": (-50 + 0.25 * x + 8 * y + 100 * z + s).astype(f4),
            "PS": (100000 + 10 * x + 1000 * y + 100 * s)[:, 0].astype(f4),
            "TS": (250 + x + 0.5 * y + 0.25 * s)[:, 0].astype(f4)}
    for var, values in want.items():
        got = series.read(variable=var)
        assert got.dtype == np.float32 and np.array_equal(got, values), var


@pytest.mark.parametrize("ranks", RANKS)
def test_fortran_md_particles_example(examples, tmp_path, ranks):
    """Asynchronous particle steps from Fortran, then a restart (steps 2 and 3 truncated and written
    again): every value of every step, against the formulas."""
    n = 700
    out = _mpiexec(ranks, examples / "md_particles", tmp_path, n)
    assert "errors 0" in out and "steps 0 1 2 3" in out and "restart removed 2" in out, out
    g = lodex.open(tmp_path / "md.lodex").particles["atoms"]
    assert g.periodic == (True, True, False)
    i = np.arange(n)
    for step in range(4):
        got = g.read(step)
        o = np.argsort(got["id"])
        r = np.repeat(np.arange(ranks), n)
        ii = np.tile(i, ranks)
        # x past the periodic box's face is stored wrapped, as numpy's mod
        want_pos = np.stack([np.mod((ii + 0.5) / n + 0.3, 1.0), np.mod(7 * ii, n) / n, (r + (ii + 0.5) / n) / ranks],
                            axis=1)
        assert np.array_equal(got["id"][o], r * n + ii)
        assert np.array_equal(got["position"][o], want_pos)
        assert np.array_equal(got["energy"][o], (step + ii / n).astype(np.float32))


def test_cpp_refine_matches_python(prefix, tmp_path):
    """The C++ API's refinement of an IDX grid (built against the installed package with
    pkg-config) yields the resolutions and arrays Python's refine() yields: coarse first, even
    when one block holds the whole grid."""
    a = np.sin(np.arange(16 ** 3, dtype=np.float32)).reshape(16, 16, 16)
    idx = str(tmp_path / "r.idx")
    lodex.write_idx(idx, a)   # 16 bits per block: block 0 holds the whole grid
    src = tmp_path / "refine.cpp"
    src.write_text(r'''
#include <lodex/lodex.hpp>
#include <cstdio>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    lodex::IdxDataset d = lodex::IdxDataset::open(argv[1]);
    auto it = d.refine("", 0);
    while (!it.done()) {
      const int r = it.next_resolution();
      const std::vector<float> v = it.next<float>();
      double sum = 0;
      for (float x : v) sum += x;
      std::printf("r %d %zu %.9g\n", r, v.size(), sum);
    }
  }
  MPI_Finalize();
}
''')
    env = _env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    flags = _run(["pkg-config", "--cflags", "--libs", "lodex"], env=env).split()
    exe = tmp_path / "refine"
    _run([os.path.join(BIN, "mpicxx"), "-std=c++17", str(src), *flags, "-o", str(exe)], env=env)
    got = [line.split() for line in _mpiexec(1, exe, idx).splitlines() if line.startswith("r ")]
    it = lodex.open_idx(idx).refine()
    want = [(it.resolution, arr) for arr in it]
    assert len(want) >= 4 and [int(g[1]) for g in got] == [r for r, _ in want]
    for g, (r, arr) in zip(got, want):
        assert int(g[2]) == arr.size and float(g[3]) == pytest.approx(float(arr.astype(np.float64).sum()), rel=1e-6)
