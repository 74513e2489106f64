#!/usr/bin/env bash
# packages.sh: the optional system packages parlab's build and tests use, in one table.
#   scripts/packages.sh setup   what `make test` runs first: as root on Debian/Ubuntu, installs
#                               the missing ones (one apt-get line, printed); otherwise one line
#                               for each missing package, saying which part of the tests it enables
#   scripts/packages.sh state   one line saying which of the build's optional pieces are present;
#                               the Makefile configures a build folder again when it changes, so a
#                               package installed after the first build is found (and a stale
#                               build/ never drops the MPI tests)
#   scripts/packages.sh fresh DIR   DIR's CMake cache removed (saying so) when DIR/parlab-packages.txt,
#                               written by `record DIR` after a configure, differs from `state`
#   scripts/packages.sh record DIR  writes `state` to DIR/parlab-packages.txt
#   scripts/packages.sh missing the Debian packages missing here, one line
# PARLAB_NO_INSTALL=1 keeps `setup` from installing anything, even as root.
# Only Debian's packages are named; on another system the lines still say what is missing.
set -u
py=${PYTHON:-python3}
arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

# ------------------------------------------------ the checks (each true when the piece is here)
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_any() { local f; for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
have_venv() { have_cmd "$py" && "$py" -c 'import ensurepip, venv' >/dev/null 2>&1; }
have_python_h() {
    have_cmd "$py" && [ -e "$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)/Python.h" ]
}
have_openblas() { # the library itself, not only a cblas.h (libblas-dev has one too)
    have_any /usr/include/cblas.h "/usr/include/$arch/cblas.h" /usr/include/openblas/cblas.h &&
        have_any "/usr/lib/$arch/libopenblas.so" /usr/lib/libopenblas.so /usr/lib64/libopenblas.so
}
have_png() { have_any /usr/include/png.h /usr/include/libpng/png.h; }
have_zlib() { have_any /usr/include/zlib.h; }
have_mpi() { have_cmd mpicc && have_cmd mpirun; }
have_fuzz() { # clang that links libFuzzer with the sanitizers the fuzz targets use
    have_cmd "${FUZZ_CC:-clang}" &&
        printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' |
        "${FUZZ_CC:-clang}" -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1
}
have_chromium() { have_cmd chromium || have_cmd chromium-browser; }
have_nvcc() { have_cmd nvcc || [ -x /usr/local/cuda/bin/nvcc ]; }
have_cudnn() {
    have_any /usr/include/cudnn.h "/usr/include/$arch/cudnn.h" /usr/local/cuda/include/cudnn.h /usr/local/include/cudnn.h
}

# The clang the fuzz targets need and its libFuzzer runtime: libclang-rt-N-dev for the clang-N
# that the package clang brings (14 on Debian 12, 18 on Ubuntu 24.04), asked of apt's cache.
fuzz_packages() {
    local v=""
    if have_cmd clang; then
        v=$(clang --version | sed -n 's/.*clang version \([0-9][0-9]*\)\..*/\1/p' | head -1)
    elif have_cmd apt-cache; then
        v=$(apt-cache depends clang 2>/dev/null | sed -n 's/.*Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -1)
    fi
    echo "clang libclang-rt-${v:-14}-dev"
}

# ------------------------------------------------ the table: check | Debian packages | what it enables
rows() {
    cat <<EOF
have_venv|python3-venv|the NumPy/SciPy/scikit-image cross-checks and the Python package's tests (a venv, .venv-test)
have_python_h|python3-dev|the Python package's tests (its extension needs Python.h)
have_openblas|libopenblas-dev|the OpenBLAS peer (GEMM, GEMV) and its tests
have_png|libpng-dev|PNG images (parlab conv2d/entropy on .png) and their tests
have_zlib|zlib1g-dev|deflated .npz members and their tests
have_mpi|libopenmpi-dev openmpi-bin|the distributed layer and its tests (mpirun, label mpi)
have_fuzz|$(fuzz_packages)|the fuzz targets (make fuzz)
have_chromium|chromium|the report render test (test_report_render)
have_cmd pkg-config|pkg-config|the install test (parlab.pc) and the build's library search
EOF
}

missing_packages() {
    local check pkgs what out=""
    while IFS='|' read -r check pkgs what; do
        $check || out="$out $pkgs"
    done < <(rows)
    echo "${out# }"
}

state() {
    local s="" piece
    for piece in openblas png zlib mpi nvcc cudnn; do
        if "have_$piece"; then s="$s $piece=yes"; else s="$s $piece=no"; fi
    done
    echo "${s# }"
}

case "${1:-}" in
state)
    state ;;
fresh)
    d=${2:-}; [ -n "$d" ] || { echo "usage: scripts/packages.sh fresh DIR" >&2; exit 2; }
    now=$(state)
    was=$(cat "$d/parlab-packages.txt" 2>/dev/null)
    if [ -f "$d/CMakeCache.txt" ] && [ "$now" != "$was" ]; then
        echo "configure: $d was configured with [${was:-unknown}], now [$now]: configuring again"
        rm -f "$d/CMakeCache.txt" "$d/parlab-packages.txt"
    fi ;;
record)
    d=${2:-}; [ -d "$d" ] || { echo "usage: scripts/packages.sh record DIR (a build folder; '$d' is none)" >&2; exit 2; }
    state >"$d/parlab-packages.txt" ;;
missing)
    missing_packages ;;
setup)
    need=$(missing_packages)
    [ -z "$need" ] && { echo "packages: every optional package is here"; exit 0; }
    if [ "$(id -u)" = 0 ] && have_cmd apt-get && [ "${PARLAB_NO_INSTALL:-0}" != 1 ]; then
        echo "packages: apt-get install -y $need"
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086 # one word a package
        if ! apt-get update -qq; then
            echo "packages: apt-get update failed: the tests that need these packages are skipped"
        elif ! apt-get install -y -qq $need >/dev/null; then
            # One package this system lacks (Ubuntu has no plain `chromium`) fails the whole line:
            # each row's packages are tried on their own, so the others still come.
            echo "packages: apt-get install failed: trying each row's packages on its own"
            while IFS='|' read -r check pkgs what; do
                $check || apt-get install -y -qq $pkgs >/dev/null 2>&1 || echo "packages: apt-get install $pkgs failed"
            done < <(rows)
        fi
    fi
    # What is still missing, one line a package (none after a good install).
    while IFS='|' read -r check pkgs what; do
        $check && continue
        if [ "$(id -u)" = 0 ]; then how="apt-get install $pkgs"; else how="as root: apt-get install $pkgs, or run make test as root"; fi
        echo "packages: not here: $pkgs ($how): skipped: $what"
    done < <(rows)
    ;;
*)
    echo "usage: scripts/packages.sh setup|state|fresh DIR|record DIR|missing" >&2
    exit 2 ;;
esac
