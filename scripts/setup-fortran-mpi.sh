#!/usr/bin/env bash
# Gives the project's MPI (MPICH 5.x from PyPI in VENV, which ships C only: no mpif90, no mpi.mod)
# a Fortran interface, so Fortran programs and CMake's FindMPI (MPI_HOME=VENV) work with it:
#
#   scripts/setup-fortran-mpi.sh VENV        (e.g. .venv; idempotent, ~10 ms when already done)
#
# creates
#   VENV/lib/mpich-fortran/libmpichfort.so.12   Debian's MPICH 4.0.2 Fortran binding, retargeted
#                         /libmpichfort.so      at VENV's libmpi.so.12 (+ the dev symlink)
#                         /libmpichfort_compat.so  3 forwarders for symbols MPICH 5 renamed
#                         /include/             mpif.h, mpiof.h and the gfortran .mod files
#   VENV/bin/mpifort, VENV/bin/mpif90           the compiler wrapper (-show, -compile-info, -link-info)
#
# from the Debian packages gfortran, libmpich-dev and patchelf (scripts/setup-system.sh installs
# them). Why this works (checked by a probe against MPICH 5.0.2 and Debian bookworm's 4.0.2):
#  - MPICH's Fortran binding is a thin layer over the C library's MPI_* / PMPI_* functions, and
#    the two versions share the handle ABI the binding depends on: MPI_Comm etc. are 4-byte ints
#    with the same predefined values (MPI_COMM_WORLD = 0x44000000, datatypes, ops), MPI_Fint 4,
#    MPI_Aint/Count/Offset 8 bytes, MPI_Status 20 bytes (MPI_F_STATUS_SIZE 5, SOURCE/TAG/ERROR
#    at 8/12/16), the same combiner, topology, thread-level and window enums. The constants of
#    Debian's mpif.h / mpi.mod agree with the venv's mpi.h (attribute keyvals being C + 1 and
#    MPI_MAX_*_STRING being C - 1 are MPICH's Fortran convention in both). Only MPI_VERSION
#    differs: Fortran reports 4.0.
#  - Debian's libmpichfort.so.12 NEEDs libmpich.so.12, Debian's own C MPICH. Linked as it is,
#    a process maps two MPI libraries (Debian's and the venv's libmpi.so.12): it works or not by
#    accident of symbol interposition, and with another link order fails at start-up
#    ("libuct.so.0: undefined symbol: ucs_config_doc_nop", the venv's bundled UCX bound to
#    Debian's). So a copy is retargeted at libmpi.so.12: exactly one MPI per process.
#  - MPICH 5 renamed MPIX_Delete_error_{class,code,string} (4.x) to the MPI-5 MPI_Remove_error_*;
#    those 3 PMPIX_ symbols are the only ones libmpichfort needs that the venv's libmpi lacks
#    (CFI_is_contiguous comes from libgfortran), hence libmpichfort_compat.so.
#  - The .mod files are gfortran 12's format (module version 15): use Debian's gfortran 12.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 VENV   (a virtual environment with the PyPI mpich package, e.g. .venv)" >&2
  exit 2
fi
VENV=$(cd "$1" 2>/dev/null && pwd) || { echo "setup-fortran-mpi: no directory $1" >&2; exit 1; }
LIBMPI=$VENV/lib/libmpi.so.12
if [ ! -e "$LIBMPI" ] || [ ! -e "$VENV/include/mpi.h" ]; then
  echo "setup-fortran-mpi: $VENV has no MPICH (lib/libmpi.so.12, include/mpi.h): pip install mpich first" >&2
  exit 1
fi

# ---- Debian packages ------------------------------------------------------------------------
missing=()
command -v gfortran >/dev/null 2>&1 || missing+=(gfortran)
command -v patchelf >/dev/null 2>&1 || missing+=(patchelf)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
MULTIARCH=$( (gfortran -print-multiarch || cc -print-multiarch) 2>/dev/null || true)
MULTIARCH=${MULTIARCH:-x86_64-linux-gnu}
FORT_SO=/usr/lib/$MULTIARCH/libmpichfort.so.12
FORT_INC=/usr/include/$MULTIARCH/mpich
if [ ! -e "$FORT_SO" ] || [ ! -e "$FORT_INC/mpi.mod" ] || [ ! -e "$FORT_INC/mpif.h" ]; then
  missing+=(libmpich-dev)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-fortran-mpi: missing Debian packages: ${missing[*]}" >&2
  echo "  install them with scripts/setup-system.sh, or: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
FORT_SO=$(readlink -f "$FORT_SO")   # libmpichfort.so.12.2.2
FC=$(command -v gfortran)

D=$VENV/lib/mpich-fortran
STAMP=$D/.stamp
# What the result depends on: this recipe, the Debian binding, the compiler, the venv's MPI.
# Sizes and modification times only, so the check stays fast.
want="recipe 1
venv $VENV
fort $(stat -c '%n %s %Y' "$FORT_SO" "$FORT_INC/mpi.mod")
fc $FC $($FC -dumpversion)
mpi $(stat -L -c '%n %s %Y' "$LIBMPI")"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -e "$D/libmpichfort.so.12" ] &&
   [ -e "$D/libmpichfort_compat.so" ] && [ -e "$D/include/mpi.mod" ] &&
   [ -x "$VENV/bin/mpifort" ] && [ -x "$VENV/bin/mpif90" ]; then
  echo "setup-fortran-mpi: $VENV already has Fortran MPI ($VENV/bin/mpifort)"
  exit 0
fi

echo "setup-fortran-mpi: building the Fortran MPI binding in $D"
# Built in N beside D, then swapped in: a program using D meanwhile never sees half a binding
# (the runpaths below are relative, so the directory may move).
N=$D.new.$$
TMP=$(mktemp -d)
trap 'rm -rf "$TMP" "$N"' EXIT
mkdir -p "$N/include" "$VENV/bin"

# 1. Forwarders for the 3 symbols MPICH 5 renamed (MPIX_Delete_error_* -> MPI_Remove_error_*),
#    linked against the venv's libmpi and found by libmpichfort through its $ORIGIN runpath.
cat > "$TMP/mpichfort_compat.c" <<'EOF'
/* Debian's libmpichfort (MPICH 4.0.2) calls these MPICH 4 names; MPICH 5 has the MPI-5 names. */
#include <mpi.h>
int PMPIX_Delete_error_class(int errorclass) { return PMPI_Remove_error_class(errorclass); }
int PMPIX_Delete_error_code(int errorcode) { return PMPI_Remove_error_code(errorcode); }
int PMPIX_Delete_error_string(int errorcode) { return PMPI_Remove_error_string(errorcode); }
EOF
cc -shared -fPIC -O2 -I"$VENV/include" "$TMP/mpichfort_compat.c" -o "$N/libmpichfort_compat.so" \
   -Wl,-soname,libmpichfort_compat.so -L"$VENV/lib" -lmpi -Wl,-rpath,'$ORIGIN/..'

# 2. A copy of Debian's libmpichfort retargeted from libmpich.so.12 (Debian's C MPICH) to the
#    venv's libmpi.so.12, with the compat forwarders added and a runpath to both: $ORIGIN for
#    the compat library, $ORIGIN/.. for libmpi (the venv may move as a whole). patchelf 0.14
#    mis-handles several operations in one call: one operation per call.
cp "$FORT_SO" "$TMP/libmpichfort.so.12"
patchelf --replace-needed libmpich.so.12 libmpi.so.12 "$TMP/libmpichfort.so.12"
patchelf --add-needed libmpichfort_compat.so "$TMP/libmpichfort.so.12"
patchelf --set-rpath '$ORIGIN:$ORIGIN/..' "$TMP/libmpichfort.so.12"
mv "$TMP/libmpichfort.so.12" "$N/libmpichfort.so.12"
ln -sfn libmpichfort.so.12 "$N/libmpichfort.so"
# Every symbol must now resolve (to libmpi.so.12, the compat library or libgfortran), and
# Debian's libmpich.so.12 must not be loaded at all.
if ldd -r "$N/libmpichfort.so.12" 2>&1 | grep -E 'undefined symbol|not found|libmpich\.so'; then
  echo "setup-fortran-mpi: the retargeted libmpichfort.so.12 does not link against $LIBMPI" >&2
  exit 1
fi

# 3. The Fortran headers and modules. A directory of copies of the Fortran files only (not a
#    link to Debian's include directory, which also holds Debian's C mpi.h: a mixed C/Fortran
#    target given that directory could compile its C against the wrong mpi.h), and copies so
#    they stay consistent with the copied library when libmpich-dev is upgraded.
cp "$FORT_INC"/mpif.h "$FORT_INC"/mpiof.h "$FORT_INC"/*.mod "$N/include/"
rm -rf "$D"
mv "$N" "$D"

# 4. The compiler wrapper, as MPICH's mpifort: compile with gfortran (-fallow-argument-mismatch:
#    gfortran >= 10 rejects the type-mismatched buffer arguments that mpif.h codes pass), and
#    link libmpichfort and the venv's libmpi. libmpi.so.12 is forced (--no-as-needed) to be a
#    direct NEEDED of the program, since Debian's gcc links with --as-needed: C libraries the
#    program loads without a runpath to the venv then resolve to it too. RUNPATHs to both
#    directories, like the venv's mpicc.
cat > "$TMP/mpifort" <<EOF
#!/bin/sh
# mpifort / mpif90 for the PyPI MPICH in $VENV (made by lodex's scripts/setup-fortran-mpi.sh):
# gfortran with Debian's MPICH 4.0.2 Fortran binding retargeted at $LIBMPI.
# -show, -compile-info, -link-info print the command lines as MPICH's wrappers do.
FC="\${MPICH_FC:-$FC}"
CFLAGS="-fallow-argument-mismatch -I$D/include"
LIBS="-L$D -lmpichfort -Wl,--no-as-needed -L$VENV/lib -lmpi -Wl,--as-needed -Wl,-rpath,$D -Wl,-rpath,$VENV/lib -Wl,--enable-new-dtags"
case "\${1:-}" in
  -show) shift; echo "\$FC" \$CFLAGS "\$@" \$LIBS; exit 0;;
  -compile-info|-compile_info) shift; echo "\$FC" \$CFLAGS "\$@"; exit 0;;
  -link-info|-link_info) shift; echo "\$FC" \$CFLAGS "\$@" \$LIBS; exit 0;;
  -showme*) echo "\$0: \$1 is an Open MPI option; this is MPICH (-show)" >&2; exit 1;;
esac
link=yes
for a in "\$@"; do
  case "\$a" in -c|-S|-E|-fsyntax-only) link=no;; esac
done
if [ \$link = yes ]; then
  exec "\$FC" \$CFLAGS "\$@" \$LIBS
else
  exec "\$FC" \$CFLAGS "\$@"
fi
EOF
chmod 755 "$TMP/mpifort"
cp "$TMP/mpifort" "$VENV/bin/mpifort.tmp.$$" && mv -f "$VENV/bin/mpifort.tmp.$$" "$VENV/bin/mpifort"
cp "$TMP/mpifort" "$VENV/bin/mpif90.tmp.$$" && mv -f "$VENV/bin/mpif90.tmp.$$" "$VENV/bin/mpif90"

# 5. Smoke test: a `use mpi` program built by the wrapper initialises the venv's MPI (one
#    process, no mpiexec) and maps no other MPI library.
cat > "$TMP/t.f90" <<'EOF'
program t
  use mpi
  implicit none
  integer :: ierr, n, s
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  call MPI_Allreduce(n, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. s /= n) stop 1
  call MPI_Finalize(ierr)
end program
EOF
(cd "$TMP" && "$VENV/bin/mpifort" t.f90 -o t)
if ! (cd "$TMP" && ./t); then
  echo "setup-fortran-mpi: a test program built with $VENV/bin/mpifort does not run" >&2
  exit 1
fi
if ldd "$TMP/t" | grep -q 'libmpich\.so'; then
  echo "setup-fortran-mpi: a test program loads Debian's libmpich.so.12 besides $LIBMPI" >&2
  exit 1
fi

printf '%s\n' "$want" > "$STAMP"
echo "setup-fortran-mpi: done: $VENV/bin/mpifort (and mpif90), $D"
