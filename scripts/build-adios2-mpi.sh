#!/usr/bin/env bash
# Builds ADIOS2 WITH MPI against the project's MPI (MPICH from PyPI in VENV), as a benchmark
# peer: the parallel BP5 engine HPC codes use (one engine on a communicator, BP5's aggregation),
# where PyPI's `adios2` wheel (installed in VENV by requirements-dev.txt) is built without MPI.
#
#   scripts/build-adios2-mpi.sh [VENV]     (default .venv; `make bench-peers` runs it)
#
# Fetches the adios2 source distribution from PyPI with VENV's pip (ADIOS2_VERSION, default the
# version pinned below), configures it with CMake + Ninja (Release; MPI and the Python bindings
# on; Fortran, examples, tests, SST/DataMan/HDF5 engines and every optional compressor and
# transport off), builds with -j2 and installs into a SEPARATE prefix
#
#   VENV/opt/adios2-mpi            lib/libadios2_*_mpi.so, include/, bin/bpls, ...
#   VENV/opt/adios2-mpi/lib/pythonX.Y/site-packages/adios2    the MPI-enabled Python module
#
# The serial wheel stays in VENV's site-packages and keeps working: both modules are named
# `adios2`, so the MPI one is imported only with its site-packages first on sys.path
# (bench/bench_common.py: adios2_mpi_path()).
#
# MPI: compiled with the system gcc/g++, FindMPI pointed at VENV's wrappers (MPI_HOME,
# MPI_C_COMPILER, MPI_CXX_COMPILER, MPIEXEC_EXECUTABLE), never at /usr/bin/mpicc (Debian's
# OpenMPI, or Debian's MPICH from libmpich-dev); the installed libraries are checked with ldd to
# load VENV's libmpi.so.12 and no other MPI. HDF5 is off also because Debian's HDF5 here is
# built on OpenMPI.
#
# Idempotent: when VENV/opt/adios2-mpi/.build-ok names the same version and the module imports
# with MPI, it does nothing. The full log is build/adios2-mpi.log (its tail is printed on
# failure); sources and the build tree are in build/adios2-mpi/ (a failed build resumes there).
# A clean build took 11.5 minutes on this project's 2-core machine (-j2; 950 s of CPU).
set -euo pipefail

ADIOS2_VERSION=${ADIOS2_VERSION:-2.12.1.1001}   # the version of the serial wheel checked with it

VENV=$(cd "${1:-.venv}" 2>/dev/null && pwd) || { echo "build-adios2-mpi: no directory ${1:-.venv}" >&2; exit 1; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=$VENV/bin/python
PREFIX=$VENV/opt/adios2-mpi
STAMP=$PREFIX/.build-ok
WORK=$ROOT/build/adios2-mpi
LOG=$ROOT/build/adios2-mpi.log

for f in "$PY" "$VENV/bin/mpicc" "$VENV/bin/mpicxx" "$VENV/bin/mpiexec" "$VENV/lib/libmpi.so.12" "$VENV/include/mpi.h"; do
  [ -e "$f" ] || { echo "build-adios2-mpi: $f missing: run make setup first (MPICH from PyPI in $VENV)" >&2; exit 1; }
done
for tool in cmake ninja gcc g++ ldd; do
  command -v "$tool" >/dev/null || { echo "build-adios2-mpi: $tool not found (scripts/setup-system.sh installs it)" >&2; exit 1; }
done
"$PY" -c "import mpi4py, numpy" 2>/dev/null || { echo "build-adios2-mpi: $PY lacks mpi4py or numpy: run make setup" >&2; exit 1; }

PYVER=$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
PYDIR=lib/python$PYVER/site-packages
SITE=$PREFIX/$PYDIR

# The module under PREFIX imports (and not the serial wheel's), was built with MPI, is the
# wanted version, and the serial wheel in VENV still imports without MPI.
module_ok() {
  PYTHONPATH=$SITE "$PY" - "$SITE" "$ADIOS2_VERSION" <<'EOF'
import os, sys
site, version = sys.argv[1], sys.argv[2]
import adios2
assert os.path.realpath(adios2.__file__).startswith(os.path.realpath(site) + os.sep), adios2.__file__
assert adios2.bindings.is_built_with_mpi, "the module under the prefix has no MPI"
assert adios2.__version__.startswith(version.rsplit(".", 1)[0] if version.count(".") > 2 else version), adios2.__version__
EOF
  "$PY" -c 'import adios2; assert not adios2.bindings.is_built_with_mpi' 2>/dev/null || {
    echo "build-adios2-mpi: note: VENV's own adios2 (the serial wheel) is missing or not serial" >&2; }
}

if [ -f "$STAMP" ] && grep -qx "version $ADIOS2_VERSION" "$STAMP" && module_ok >/dev/null 2>&1; then
  echo "build-adios2-mpi: ADIOS2 $ADIOS2_VERSION with MPI already in $PREFIX ($STAMP)"
  exit 0
fi

mkdir -p "$WORK"
: >"$LOG"
step() {   # step DESCRIPTION COMMAND...: runs COMMAND, its output into the log
  local what=$1; shift
  echo "build-adios2-mpi: $what"
  { echo "==== $what: $*"; } >>"$LOG"
  "$@" >>"$LOG" 2>&1 || {
    echo "build-adios2-mpi: FAILED: $what (log: $LOG, last 60 lines:)" >&2
    tail -60 "$LOG" >&2
    exit 1
  }
}
T0=$(date +%s)

# ---- source: PyPI's sdist --------------------------------------------------------------------
SDIST=$WORK/adios2-$ADIOS2_VERSION.tar.gz
SRC=$WORK/adios2-$ADIOS2_VERSION
if [ ! -f "$SDIST" ]; then
  # --no-build-isolation: pip prepares the sdist's metadata with VENV's scikit-build-core instead
  # of building its build requirements from source (--no-binary :all: applies to those too).
  step "download adios2==$ADIOS2_VERSION (sdist)" \
    "$PY" -m pip download --no-binary :all: --no-deps --no-build-isolation -d "$WORK" "adios2==$ADIOS2_VERSION"
fi
if [ ! -f "$SRC/CMakeLists.txt" ]; then
  rm -rf "$SRC"
  step "unpack $(basename "$SDIST")" tar -xzf "$SDIST" -C "$WORK"
fi

# ---- configure, build, install ---------------------------------------------------------------
off=(BigWhoop Blosc2 BZip2 ZFP SZ SZ3 LIBPRESSIO MGARD PRODM PNG CAESAR Caliper CUDA Kokkos
     DAOS DataMan DataSpaces MHS SSC SST ZeroMQ UCX HDF5 HDF5_VOL IME Fortran Sodium Catalyst
     Campaign OpenSSL AWSSDK XRootD CURL KVCACHE Derived_Variable PIP)
opts=()
for o in "${off[@]}"; do opts+=("-DADIOS2_USE_$o=OFF"); done

rm -rf "$PREFIX"   # the build tree stays: a failed build resumes where it stopped
# The install directories are given typed (:PATH): an untyped relative -D value that the project
# then declares as a PATH cache entry is made absolute against the CURRENT directory by CMake,
# which would install the Python module into ./lib/pythonX.Y of wherever this was run from.
step "configure (CMake, Ninja, Release, MPI + Python on)" \
  env -u CC -u CXX -u CFLAGS -u CXXFLAGS -u LDFLAGS -u CPATH -u LIBRARY_PATH -u LD_LIBRARY_PATH \
  cmake -S "$SRC" -B "$WORK/build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DCMAKE_INSTALL_PREFIX:PATH="$PREFIX" -DCMAKE_INSTALL_LIBDIR:PATH=lib \
    -DCMAKE_INSTALL_PYTHONDIR:PATH="$PYDIR" \
    -DBUILD_SHARED_LIBS=ON -DBUILD_TESTING=OFF -DADIOS2_BUILD_EXAMPLES=OFF \
    -DADIOS2_USE_MPI=ON -DADIOS2_USE_Python=ON \
    -DMPI_HOME="$VENV" -DMPI_C_COMPILER="$VENV/bin/mpicc" -DMPI_CXX_COMPILER="$VENV/bin/mpicxx" \
    -DMPIEXEC_EXECUTABLE="$VENV/bin/mpiexec" \
    -DPython_EXECUTABLE="$PY" -DPython_FIND_VIRTUALENV=ONLY \
    -DEVPATH_TRANSPORT_MODULES=OFF \
    "${opts[@]}"
grep -qx "CMAKE_INSTALL_PYTHONDIR:PATH=$PYDIR" "$WORK/build/CMakeCache.txt" || {
  echo "build-adios2-mpi: CMAKE_INSTALL_PYTHONDIR is not $PYDIR in the cache:" >&2
  grep CMAKE_INSTALL_PYTHONDIR "$WORK/build/CMakeCache.txt" >&2; exit 1; }
for feature in MPI Python; do   # ADIOS2's configure summary: "Build Options: ... MPI : ON"
  grep -Eq "^ +$feature +: ON\$" "$LOG" || { echo "build-adios2-mpi: configured without $feature (log: $LOG)" >&2; exit 1; }
done
step "build (-j2; the long part)" cmake --build "$WORK/build" -j2
step "install into $PREFIX" cmake --install "$WORK/build"

# ---- checks ----------------------------------------------------------------------------------
# Exactly one MPI, the venv's: every installed library and the Python extension resolve
# libmpi.so.12 to VENV/lib, and none loads Debian's OpenMPI (libmpi.so.40) or MPICH (libmpich).
want=$(readlink -f "$VENV/lib/libmpi.so.12")
checked=0
while IFS= read -r -d '' so; do
  deps=$(ldd "$so")
  if echo "$deps" | grep -q "not found"; then
    echo "build-adios2-mpi: $so has unresolved libraries:" >&2; echo "$deps" | grep "not found" >&2; exit 1
  fi
  if echo "$deps" | grep -Eq 'libmpich\.so|libmpi\.so\.40|openmpi'; then
    echo "build-adios2-mpi: $so loads a system MPI:" >&2; echo "$deps" | grep -E 'mpi' >&2; exit 1
  fi
  mpi=$(echo "$deps" | awk '$1 == "libmpi.so.12" {print $3}')
  if [ -n "$mpi" ]; then
    [ "$(readlink -f "$mpi")" = "$want" ] || { echo "build-adios2-mpi: $so loads $mpi, not $want" >&2; exit 1; }
    checked=$((checked + 1))
  fi
done < <(find "$PREFIX/lib" -name '*.so*' -type f -print0)   # the real files, not the symlinks
[ "$checked" -gt 0 ] || { echo "build-adios2-mpi: no installed library links libmpi.so.12" >&2; exit 1; }
echo "build-adios2-mpi: ldd: $checked installed libraries load $want (the venv's MPICH), no other MPI"

module_ok || { echo "build-adios2-mpi: the installed module does not import as an MPI build from $SITE" >&2; exit 1; }
# One collective write and read on one rank, through mpiexec.
step "smoke test (1 rank, BP5 with MPI.COMM_WORLD)" env PYTHONPATH="$SITE" "$VENV/bin/mpiexec" -n 1 "$PY" -c "
import os, tempfile, numpy as np
from mpi4py import MPI
import adios2
d = tempfile.mkdtemp()
a = np.arange(10.0)
with adios2.Stream(os.path.join(d, 't.bp'), 'w', MPI.COMM_WORLD) as s:
    s.begin_step(); s.write('a', a, [10], [0], [10]); s.end_step()
with adios2.FileReader(os.path.join(d, 't.bp')) as f:
    assert (f.read('a') == a).all()
import shutil; shutil.rmtree(d)
print('smoke test ok')
"

T1=$(date +%s)
{
  echo "version $ADIOS2_VERSION"
  echo "python $SITE"
  echo "mpi $want"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((T1 - T0)) s"
} >"$STAMP"
echo "build-adios2-mpi: ADIOS2 $ADIOS2_VERSION with MPI installed in $PREFIX in $((T1 - T0)) s"
echo "  use: PYTHONPATH=$SITE $VENV/bin/mpiexec -n 4 $PY your_script.py"
