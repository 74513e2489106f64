# parlab: the short commands. Everything builds with CMake in build/ (and build-asan/ for the
# sanitizer run of the CPU tests).
#   make          build
#   make bench    build, then run the default benchmark suite (bench/default.suite)
#   make test     set up what the tests need (scripts/packages.sh: as root on Debian/Ubuntu it
#                 installs the missing optional packages; a venv .venv-test with NumPy, SciPy,
#                 scikit-image from the package index), build, run every test; then the Python
#                 package's tests (pytest, in the venv); then the CPU tests again under ASan +
#                 UBSan; then the fuzz targets. A part whose package is missing is skipped with a
#                 line naming it; REQUIRE_ALL=1 (CI) makes such a skip a failure instead.
#   make install  install the libraries, parlab.h, the parlab command and parlab.pc (PREFIX=...)
#   make fuzz     build the libFuzzer targets (tests/fuzz/) with clang in build-fuzz/ and run each
#                 for FUZZ_SECONDS (default 60); `make test` runs them too, 10 s each unless
#                 FUZZ_SECONDS is set (CI sets 60)
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build configure bench test test-fast test-venv test-python test-python-run test-asan test-gpu test-fuzz fuzz install clean

all: build

# A build folder is configured again from scratch when the optional packages present differ from
# those it was configured with (scripts/packages.sh state, kept in DIR/parlab-packages.txt): a
# package installed after the first build is found, and a stale build/ never drops the MPI tests.
# scripts/packages.sh fresh DIR removes DIR's CMake cache when it is stale; record DIR notes the
# packages after a good configure (a configure that failed left no record and runs again).
configure:
	@scripts/packages.sh fresh $(BUILD)
	@[ -f $(BUILD)/CMakeCache.txt ] && [ -f $(BUILD)/parlab-packages.txt ] || { \
	  rm -f $(BUILD)/parlab-packages.txt; \
	  cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) && \
	  scripts/packages.sh record $(BUILD); }

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The suite's results as JSON (one file a line) and the report drawn from them.
bench: build
	rm -rf $(BUILD)/bench-json && mkdir -p $(BUILD)/bench-json
	$(BUILD)/parlab bench --suite bench/default.suite --json-dir $(BUILD)/bench-json
	$(BUILD)/parlab report $(BUILD)/bench-json/*.json -o $(BUILD)/report.html --svg $(BUILD)/report-svg

# The system packages first (they change what configure finds), then the parts in order.
test:
	scripts/packages.sh setup
	@$(MAKE) --no-print-directory test-fast test-python test-asan test-fuzz

# REQUIRE_ALL=1: a part skipped for a missing optional package fails instead (CI; the tests read
# PL_REQUIRE_ALL). A skip for a missing GPU stays a skip.
ifeq ($(REQUIRE_ALL),1)
export PL_REQUIRE_ALL = 1
FUZZ_REQUIRED = 1
endif

# ctest shows a skipped test's reason only in its log: print those lines ("skipped: no GPU").
# The tests' cross-checks with NumPy, SciPy and scikit-image run in the venv (PL_TEST_PYTHON).
test-fast: build test-venv
	PL_TEST_PYTHON=$(PY_TEST_PYTHON) ctest --test-dir $(BUILD) --output-on-failure
	@grep -h "^skipped:" $(BUILD)/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^/ctest: a test was /' || true

# The Python package (python/, docs/python.md): `pip install .` into a venv of its own, with
# NumPy, SciPy and scikit-image from the package index, then pytest. CMAKE_FLAGS reach its build
# (CMAKE_ARGS); the build stays in build-python/ between runs. GPU tests skip without a GPU.
# Without a GPU the package's test build is CPU-only: its GPU tests skip there anyway, and a
# second CUDA build of the library would double the CI machine's build time.
PYTHON ?= python3
PY_VENV ?= .venv-test
PY_TEST_PYTHON = $(abspath $(PY_VENV))/bin/python
PY_TEST_PACKAGES = pytest numpy scipy scikit-image pillow ml_dtypes
PY_CUDA ?= $(shell nvidia-smi -L >/dev/null 2>&1 && echo AUTO || echo OFF)
# The venv of the tests: made once, its packages installed (or found) each run. Without Python's
# venv module (Debian: python3-venv) the parts that need it say so and are skipped.
test-venv:
	@if [ -x $(PY_VENV)/bin/python ] || $(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1; then \
	  { [ -x $(PY_VENV)/bin/python ] || $(PYTHON) -m venv $(PY_VENV); } && \
	  $(PY_VENV)/bin/python -m pip install -q --disable-pip-version-check $(PY_TEST_PACKAGES); \
	else \
	  echo "skipped: the venv $(PY_VENV) ($(PYTHON) has no venv module; Debian: apt-get install python3-venv)"; \
	  if [ "$${PL_REQUIRE_ALL:-0}" = 1 ]; then exit 1; fi; \
	fi

# Python's headers are needed to build the package's extension (Debian: python3-dev).
test-python: test-venv
	@if [ ! -x $(PY_VENV)/bin/python ]; then \
	  echo "skipped: the Python package's tests (no venv; Debian: apt-get install python3-venv)"; \
	elif [ ! -e "$$($(PY_VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then \
	  echo "skipped: the Python package's tests (no Python.h; Debian: apt-get install python3-dev)"; \
	  if [ "$${PL_REQUIRE_ALL:-0}" = 1 ]; then exit 1; fi; \
	else \
	  $(MAKE) --no-print-directory test-python-run; \
	fi

# The package's build folder (pyproject.toml: build-python/) is configured again when the
# optional packages changed, as build/ is.
test-python-run:
	@[ "$(PY_CUDA)" = AUTO ] || echo "test-python: no GPU here: the package is built and tested without CUDA (PARLAB_CUDA=OFF)"
	@for d in build-python/*/; do [ ! -d "$$d" ] || scripts/packages.sh fresh "$${d%/}"; done
	CMAKE_ARGS="-DPARLAB_CUDA=$(PY_CUDA) $(CMAKE_FLAGS)" $(PY_VENV)/bin/pip install -q .
	@for d in build-python/*/; do [ ! -d "$$d" ] || scripts/packages.sh record "$${d%/}"; done
	$(PY_VENV)/bin/python -m pytest -q -rs python/tests

test-gpu: build
	ctest --test-dir $(BUILD) --output-on-failure -L gpu

# The CPU tests again with AddressSanitizer and UndefinedBehaviorSanitizer (no CUDA in this build).
test-asan: test-venv
	@scripts/packages.sh fresh build-asan
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPARLAB_SANITIZE=ON -DPARLAB_CUDA=OFF $(CMAKE_FLAGS)
	@scripts/packages.sh record build-asan
	cmake --build build-asan -j $(JOBS)
	PL_TEST_PYTHON=$(PY_TEST_PYTHON) ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -LE gpu
	@grep -h "^skipped:" build-asan/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^/ctest (asan): a test was /' || true

# ---------------------------------------------------------------- fuzzing (tests/fuzz/README.md)
# Built with clang -fsanitize=fuzzer,address,undefined straight from the sources each target
# needs, outside CMake, so the normal build never needs clang. Each target runs on a copy of
# its seed corpus (tests/fuzz/corpus/NAME/) in build-fuzz/corpus-NAME/; a crash, leak or UB
# report leaves the input in build-fuzz/crash-NAME-* and fails the run.
# -malloc_limit_mb: the readers see 64 MiB of host memory (fuzz_image.h), so any single
# allocation above 256 MiB is a header believed too far (libpng once took 1.5 GiB for a
# 45-byte PNG) and fails the run at once, not after the RSS has slowly filled up.
FUZZ_CC ?= clang
FUZZ_DIR ?= build-fuzz
FUZZ_TARGETS = npy pgm arrays png life json
FUZZ_SRC_npy = src/io/npy.c src/io/file.c src/core/error.c src/core/memory.c
FUZZ_SRC_pgm = src/io/pgm.c src/io/npy.c src/io/file.c src/io/memcheck.c src/core/error.c src/core/memory.c
FUZZ_SRC_arrays = src/io/arrays.c src/io/npy.c src/io/file.c src/io/memcheck.c src/core/error.c src/core/memory.c
FUZZ_SRC_png = src/io/png.c src/io/npy.c src/io/file.c src/io/memcheck.c src/core/error.c src/core/memory.c
FUZZ_SRC_json = src/io/json.c src/io/file.c src/io/memcheck.c src/core/error.c src/core/memory.c
FUZZ_SRC_life = src/io/life_pattern.c src/kernels/life/rule.c src/io/file.c src/io/memcheck.c src/core/error.c src/core/memory.c
# Extra flags and libraries of a target (the .npz reader inflates deflated members with zlib).
FUZZ_LIBS_arrays = -DPL_HAVE_ZLIB=1 -lz
FUZZ_LIBS_png = -DPL_HAVE_PNG=1 -lpng -lz
ifeq ($(origin FUZZ_SECONDS),undefined)
FUZZ_SECONDS = 60
FUZZ_TEST_SECONDS = 10
else
FUZZ_TEST_SECONDS = $(FUZZ_SECONDS)
endif
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer -Iinclude -Isrc \
             -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

# The prerequisites name each target's FUZZ_SRC_<name> (second expansion).
.SECONDEXPANSION:
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_SRC_$$*) include/parlab.h src/core/core.h src/io/io.h tests/fuzz/fuzz_input.h tests/fuzz/fuzz_image.h
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*)

# Without a clang that links -fsanitize=fuzzer, `make test` says so and goes on (FUZZ_REQUIRED=1
# or REQUIRE_ALL=1, as in CI, fail instead).
test-fuzz:
	@if printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_TEST_SECONDS); \
	elif [ "$(FUZZ_REQUIRED)" = 1 ]; then \
	  echo "fuzz: $(FUZZ_CC) cannot link -fsanitize=fuzzer (Debian: apt-get install clang libclang-rt-14-dev)"; exit 1; \
	else \
	  echo "skipped: fuzz targets ($(FUZZ_CC) cannot link -fsanitize=fuzzer; Debian: apt-get install clang libclang-rt-14-dev)"; \
	fi

fuzz: $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
	@for t in $(FUZZ_TARGETS); do \
	  rm -rf $(FUZZ_DIR)/corpus-$$t && mkdir -p $(FUZZ_DIR)/corpus-$$t || exit 1; \
	  dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256 \
	    -print_final_stats=1 $$dict -artifact_prefix=$(FUZZ_DIR)/crash-$$t- \
	    $(FUZZ_DIR)/corpus-$$t tests/fuzz/corpus/$$t 2>$(FUZZ_DIR)/fuzz-$$t.log; \
	  rc=$$?; tail -n 12 $(FUZZ_DIR)/fuzz-$$t.log; \
	  if [ $$rc -ne 0 ]; then echo "fuzz: $$t FAILED (exit $$rc; log $(FUZZ_DIR)/fuzz-$$t.log)"; exit 1; fi; \
	done

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) build-asan build-python $(PY_VENV) $(FUZZ_DIR)
