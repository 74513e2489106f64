# parlab: the short commands. Everything builds with CMake in build/ (and build-asan/ for the
# sanitizer run of the CPU tests).
#   make          build
#   make bench    build, then run the default benchmark suite (bench/default.suite)
#   make test     build, then run every test; then the CPU tests again under ASan + UBSan
#   make install  install the libraries, parlab.h, the parlab command and parlab.pc (PREFIX=...)
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all build configure bench test test-fast test-asan test-gpu install clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

bench: build
	$(BUILD)/parlab bench --suite bench/default.suite

test: test-fast test-asan

# ctest shows a skipped test's reason only in its log: print those lines ("skipped: no GPU").
test-fast: build
	ctest --test-dir $(BUILD) --output-on-failure
	@grep -h "^skipped:" $(BUILD)/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | sed 's/^/ctest: a test was /' || true

test-gpu: build
	ctest --test-dir $(BUILD) --output-on-failure -L gpu

# The CPU tests again with AddressSanitizer and UndefinedBehaviorSanitizer (no CUDA in this build).
test-asan:
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPARLAB_SANITIZE=ON -DPARLAB_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build build-asan -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-asan --output-on-failure -LE gpu

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) build-asan
