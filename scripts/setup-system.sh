#!/usr/bin/env bash
# Installs the Debian packages lodex needs, when they are missing, by profile:
#   setup-system.sh core    what the build and `make demo` need (the Makefile's setup): the C/C++
#                           libraries without a PyPI form, CMake, Ninja, the compilers, and
#                           gfortran + libmpich-dev + patchelf, which give the venv's MPICH a
#                           Fortran interface (scripts/setup-fortran-mpi.sh)
#   setup-system.sh test    core + what `make test` and `make bench` drive: paraview,
#                           python3-paraview and xvfb (tests/python/test_paraview.py,
#                           bench/paraview.py), chromium (the lodex serve viewer tests), nodejs and
#                           npm (tests/python/test_viewer_bundle.py rebuilds the viewer), Debian's
#                           Open MPI with its headers and Fortran binding (libopenmpi-dev: the
#                           native package built and run against a second MPI,
#                           tests/python/test_native.py), python3-h5py-mpi and python3-mpi4py
#                           (parallel HDF5 under that Open MPI, a benchmark baseline), ccache
#                           (the tests compile the library several times; CMakeLists.txt) and
#                           clang-format-19 (the C/C++ style check, scripts/format-code)
#   setup-system.sh format  core + clang-format-19 (`make format`, scripts/format-code)
#   setup-system.sh fuzz    core + clang 19 and its compiler-rt (libclang_rt.fuzzer, `make fuzz`;
#                           clang 14, Debian 12's default, cannot compile lambdas capturing
#                           structured bindings)
# MPI, mpi4py, numpy and the Python tools come from PyPI into .venv (see Makefile); lodex's own
# build uses the venv's MPICH (the Makefile passes MPI_HOME).
#
# Debian's `mpi` alternative (/usr/bin/mpicc, mpif90, ...) points at Open MPI once it is installed
# (higher priority than MPICH). Open MPI comes here with its headers, so a user's own project
# built with the system's mpicc keeps working; the core profile installs no Open MPI at all.
set -euo pipefail
profile=${1:-core}
pkgs=(libroaring-dev libxxhash-dev nlohmann-json3-dev libgtest-dev zlib1g-dev cmake ninja-build g++
      gfortran libmpich-dev patchelf pkg-config)
case "$profile" in
  core) ;;
  test) pkgs+=(chromium nodejs paraview python3-paraview xvfb libopenmpi-dev openmpi-bin python3-h5py-mpi python3-mpi4py
              ccache clang-format-19)
        command -v npm >/dev/null || pkgs+=(npm) ;;   # a nodejs from elsewhere may bring its own npm
  format) pkgs+=(clang-format-19) ;;
  fuzz) pkgs+=(clang-19 libclang-rt-19-dev) ;;
  *) echo "setup-system: unknown profile '$profile' (core, test, format or fuzz)" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup-system ($profile): installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-system: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
