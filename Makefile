# Two commands do everything on a fresh clone:
#   make demo   set up (.venv with MPICH from PyPI, build, install) and run the demos on 4 ranks
#               (particle write + read back; VPIC-like value queries + H5Part export; a GEOS-5-like
#               series; an S3D-like grid), keeping their datasets and pictures in demo-output/
#   make test   set up, then the C++ tests (ctest), ruff check and the Python + multi-rank MPI tests (pytest)
VENV     := .venv
PY       := $(VENV)/bin/python
MPIEXEC  := $(VENV)/bin/mpiexec
export PATH := $(abspath $(VENV))/bin:$(PATH)
export MPI_HOME := $(abspath $(VENV))
# ccache (when installed, CMakeLists.txt) keys its entries on paths relative to the repository,
# so a second clone, or the same sources built in another build folder, reuses them.
export CCACHE_BASEDIR := $(abspath .)
export CCACHE_NOHASHDIR := 1

.PHONY: demo test setup setup-test build install wheel docs cpp-test asan-test py-test lint bench stress fuzz clean viewer pictures bench-peers format

# make install PREFIX=/some/dir: the C, C++ and Fortran package (headers, liblodex.so, the
# Fortran module, the CMake package lodex and lodex.pc), built against the venv's MPI.
PREFIX ?= /usr/local

# The demo's datasets are kept in demo-output/ (replaced on every run); each part ends with
# commands to try on its dataset.
demo: build
	rm -rf demo-output && mkdir -p demo-output
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --output demo-output/uintah.lodex
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --workload vpic --output demo-output/vpic.lodex
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --workload geos --output demo-output/geos.lodex
	$(MPIEXEC) -n 4 $(PY) -m lodex.demo --workload grid --output demo-output/grid.lodex

test: setup-test build cpp-test asan-test py-test

# What the tests and benchmarks drive beyond the core (ParaView, Chromium, Open MPI: scripts/setup-system.sh).
setup-test: setup
	bash scripts/setup-system.sh test

setup: $(VENV)/.deps-ok

$(VENV)/.deps-ok: requirements-dev.txt scripts/setup-system.sh scripts/setup-fortran-mpi.sh
	bash scripts/setup-system.sh core
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	bash scripts/setup-fortran-mpi.sh $(VENV)
	touch $@

# The development build: the package plus the C++ tests and micro-benchmark in build/py (a plain
# `pip install .` builds the package alone).
build: setup
	@mkdir -p build
	@echo "make build: compiling lodex (2 to 8 minutes on 2 cores); ninja's progress below, the whole log in build/build.log"
	@bash -o pipefail -c '$(PY) -m pip install -v --no-build-isolation --no-deps \
	    -Ccmake.define.LODEX_BUILD_TESTS=ON . 2>&1 | tee build/build.log | awk "/^ *\\[[0-9]+\\/[0-9]+\\]/ {print; fflush()}"' \
	  || { tail -60 build/build.log; exit 1; }

install: setup
	mkdir -p build
	( cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release -DLODEX_BUILD_TESTS=OFF \
	    -DMPI_HOME=$(MPI_HOME) -DLODEX_WITH_FORTRAN=ON -DCMAKE_INSTALL_PREFIX=$(abspath $(PREFIX)) \
	  && cmake --build build/native -j2 ) > build/native.log 2>&1 || { tail -50 build/native.log; exit 1; }
	cmake --install build/native

# A wheel for any x86-64 Linux with this machine's glibc or newer: auditwheel copies CRoaring,
# xxHash and zlib into it; MPI comes from the mpich wheel it depends on (excluded here). It is
# built in make build's tree (build/py, same Release options), so after make build it compiles
# nothing; the wheel holds only what the package installs (no tests, no GoogleTest).
wheel: setup
	rm -rf build/wheel dist
	$(PY) -m pip wheel --quiet --no-build-isolation --no-deps -w build/wheel -Ccmake.define.LODEX_BUILD_TESTS=ON .
	$(PY) -m auditwheel repair --exclude 'libmpi.so.*' -w build/wheel/repaired build/wheel/lodex-*.whl
	# auditwheel's RPATH points at the copied libraries only: add back <venv>/lib, where the mpich
	# wheel puts libmpi (site-packages/lodex/../../..), and pack the wheel again.
	cd build/wheel && $(abspath $(PY)) -m wheel unpack -d unpacked repaired/lodex-*.whl
	patchelf --add-rpath '$$ORIGIN/../../..' build/wheel/unpacked/lodex-*/lodex/_lodex*.so
	mkdir -p dist && $(PY) -m wheel pack -d dist build/wheel/unpacked/lodex-*

# The Python API reference, generated from the docstrings (pdoc), into build/api/index.html.
docs: build
	$(PY) -m pdoc lodex -o build/api

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

# ruff check first (pyproject.toml [tool.ruff]: pyflakes, syntax and lines of at most 120 characters).
py-test: setup-test build lint
	$(PY) -m pytest -q -ra --durations=25 tests/python

lint: setup
	$(PY) -m ruff check .

# Writers killed with SIGKILL at random points, KILLS in all over 1 and 2 ranks; every dataset is
# checked after every kill (tests/python/writer_kill.py). make test runs a bounded 24 kills.
# Then two processes racing APPENDS appends each to one dataset, different steps and the same
# steps (tests/python/lock_race.py): none lost or torn, every refusal explained; make test runs 20.
# Then FULL_TRIALS writes, index builds and truncates on a full tmpfs (root; 1 and 2 ranks) and
# FORGE_CASES randomized forgeries, checksums recomputed (tests/python/full_disk_campaign.py,
# forge_campaign.py; each prints a JSON summary, exits 1 on a violation); make test runs 10 and 70.
# Then lodex serve under SERVE_CLIENTS clients x 280 valid requests, 9,300 fuzzed ones and clients
# that never read (tests/python/serve_load.py); make test runs a small load.
KILLS ?= 1000
APPENDS ?= 100
FULL_TRIALS ?= 60
FORGE_CASES ?= 2000
SERVE_CLIENTS ?= 50
stress: build
	$(PY) tests/python/writer_kill.py --kills $(KILLS)
	$(PY) tests/python/lock_race.py --appends $(APPENDS)
	$(PY) tests/python/full_disk_campaign.py --trials $(FULL_TRIALS)
	$(PY) tests/python/forge_campaign.py --cases $(FORGE_CASES)
	$(PY) tests/python/serve_load.py --clients $(SERVE_CLIENTS)

bench: setup-test build
	$(PY) bench/particle_write.py
	$(PY) bench/particle_read.py
	$(PY) bench/particle_adaptive.py

# Opt-in, not part of build or test: ADIOS2 built WITH MPI against the venv's MPICH, the parallel
# BP5 peer of the benchmarks (PyPI's adios2 wheel has no MPI), installed apart from the wheel into
# .venv/opt/adios2-mpi (bench/bench_common.py: adios2_mpi_path()). Once, about 12 minutes on 2
# cores; does nothing when already built. Check: mpiexec -n 4 python bench/adios2_mpi_check.py.
bench-peers: setup
	bash scripts/build-adios2-mpi.sh $(VENV)

# The README's pictures (docs/images/*.png, one of each kind lodex.plot draws), from a small
# dataset the script writes (docs/plot.md).
pictures: build
	$(PY) scripts/pictures.py docs/images

# The browser viewer of lodex serve is committed built (python/lodex/serve/viewer/, shipped in
# the Python package, so installing lodex needs no Node.js); this rebuilds it from viewer/src with
# the exact three.js and esbuild of viewer/package-lock.json (needs node and npm).
viewer:
	cd viewer && npm ci --no-audit --no-fund && npm run build

# Every tracked C and C++ file formatted by clang-format 19 with .clang-format (make test checks it:
# tests/python/test_format.py).
format: setup
	bash scripts/setup-system.sh format
	bash scripts/format-code

clean:
	rm -rf build dist $(VENV) demo-output
