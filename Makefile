# Two commands do everything on a fresh clone:
#   make demo   set up (.venv with MPICH from PyPI, build, install) and run the demos on 4 ranks
#               (particle write + read back; VPIC-like value queries + H5Part export)
#   make test   set up, then the C++ tests (ctest) and the Python + multi-rank MPI tests (pytest)
VENV     := .venv
PY       := $(VENV)/bin/python
MPIEXEC  := $(VENV)/bin/mpiexec
export PATH := $(abspath $(VENV))/bin:$(PATH)
export MPI_HOME := $(abspath $(VENV))

.PHONY: demo test setup build install cpp-test asan-test py-test bench fuzz clean

# make install PREFIX=/some/dir: the C, C++ and Fortran package (headers, liblodex.so, the
# Fortran module, the CMake package lodex and lodex.pc), built against the venv's MPI.
PREFIX ?= /usr/local

demo: build
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --workload vpic
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --workload geos

test: build cpp-test asan-test py-test

setup: $(VENV)/.deps-ok

$(VENV)/.deps-ok: requirements-dev.txt scripts/setup-system.sh scripts/setup-fortran-mpi.sh
	bash scripts/setup-system.sh
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	bash scripts/setup-fortran-mpi.sh $(VENV)
	touch $@

build: setup
	$(PY) -m pip install --quiet --no-build-isolation --no-deps .

install: setup
	mkdir -p build
	( cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DLODEX_BUILD_TESTS=OFF \
	    -DMPI_HOME=$(MPI_HOME) -DLODEX_WITH_FORTRAN=ON -DCMAKE_INSTALL_PREFIX=$(abspath $(PREFIX)) \
	  && cmake --build build/native -j2 ) > build/native.log 2>&1 || { tail -50 build/native.log; exit 1; }
	cmake --install build/native

cpp-test: build
	ctest --test-dir build/py --output-on-failure -j2 --timeout 300

# The C++ tests again under AddressSanitizer + UndefinedBehaviorSanitizer (MPICH's own
# allocations are not ours to fix, so leak checking is off).
asan-test: setup
	mkdir -p build
	( cmake -S . -B build/asan -G Ninja -DLODEX_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
	    -DMPI_HOME=$(MPI_HOME) && cmake --build build/asan -j2 ) > build/asan.log 2>&1 \
	  || { tail -50 build/asan.log; exit 1; }
	ASAN_OPTIONS=detect_leaks=0 ctest --test-dir build/asan --output-on-failure -j2 --timeout 300

# libFuzzer (clang) on every decoder for FUZZ_SECONDS each (default 60): docs/reliability.md,
# "Fuzzing". Fails on any crash, sanitizer report, leak or timeout; new inputs stay in build/fuzz.
FUZZ_SECONDS ?= 60
fuzz: setup
	bash scripts/setup-system.sh fuzz
	mkdir -p build
	( cmake -S . -B build/fuzz -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
	    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLODEX_FUZZ=ON -DLODEX_BUILD_TESTS=OFF -DMPI_HOME=$(MPI_HOME) \
	  && cmake --build build/fuzz -j2 --target fuzz_all ) > build/fuzz.log 2>&1 \
	  || { tail -50 build/fuzz.log; exit 1; }
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash fuzz/run.sh

py-test: build
	$(PY) -m pytest -q -ra tests/python

bench: build
	$(PY) bench/particle_write.py
	$(PY) bench/particle_read.py
	$(PY) bench/particle_adaptive.py

clean:
	rm -rf build $(VENV)
