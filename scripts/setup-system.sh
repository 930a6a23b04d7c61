#!/usr/bin/env bash
# Installs the Debian packages lodex builds against, when they are missing.
# MPI, mpi4py, numpy and the Python build tools come from PyPI into .venv (see Makefile);
# only C/C++ libraries without a PyPI form come from here. gfortran, libmpich-dev (for its Fortran
# binding only) and patchelf give the venv's MPICH a Fortran interface: scripts/setup-fortran-mpi.sh.
# `setup-system.sh fuzz` adds clang 19 and its compiler-rt (libclang_rt.fuzzer, for `make fuzz`;
# clang 14, Debian 12's default, cannot compile lambdas capturing structured bindings).
# paraview, python3-paraview and xvfb: tests/python/test_paraview.py and bench/paraview.py drive
# the real ParaView (pvpython, and the GUI on an Xvfb display).
# python3-h5py-mpi, python3-mpi4py and openmpi-bin: bench/phdf5_write_worker.py runs parallel HDF5
# (h5py's mpio driver) under Debian's own OpenMPI (mpirun.openmpi, /usr/bin/python3) as a baseline;
# lodex itself builds and runs against the venv's MPICH only (the Makefile passes its mpicc).
set -euo pipefail
pkgs=(libroaring-dev libxxhash-dev nlohmann-json3-dev libgtest-dev zlib1g-dev cmake ninja-build g++
      gfortran libmpich-dev patchelf pkg-config chromium paraview python3-paraview xvfb
      python3-h5py-mpi python3-mpi4py openmpi-bin)
if [ "${1:-}" = fuzz ]; then
  pkgs+=(clang-19 libclang-rt-19-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup-system: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-system: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
