# cli_lib.sh: the helpers the file-tool tests (test_cli_gemm.sh, test_cli_gemv.sh,
# test_cli_transpose.sh, test_cli_reduce.sh) share. Not a test itself (tests/CMakeLists.txt
# runs test_*.sh); each test sources it with `. "$(dirname "$0")/cli_lib.sh"`, then calls
# cli_setup. PARLAB names the parlab executable, PL_TESTDIR a scratch directory.
set -u

# cli_setup NAME [python3]: a fresh scratch directory $dir under PL_TESTDIR (removed on exit),
# made the current one; the pass/fail counters at zero. With python3, a test that needs it
# is skipped (exit 77) where there is none.
cli_setup() {
    : "${PARLAB:?set PARLAB to the parlab executable}"
    : "${PL_TESTDIR:=${TMPDIR:-/tmp}}"
    if [ "${2:-}" = python3 ]; then
        command -v python3 >/dev/null || { echo "skipped: no python3 to write the .npy fixtures"; exit 77; }
    fi
    mkdir -p "$PL_TESTDIR"
    dir=$(mktemp -d "$PL_TESTDIR/$1.XXXXXX") || exit 1
    trap 'rm -rf "$dir"' EXIT
    cd "$dir" || exit 1
    passed=0
    failed=0
}

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# A part that needs an optional package (tests/README: scripts/packages.sh has the table) is
# skipped where the package is missing, with one line naming it; with PL_REQUIRE_ALL=1 (CI,
# `make test REQUIRE_ALL=1`) the skip is a failure instead.
#   missing WHAT PACKAGE   inside a test: the part WHAT is skipped (or failed)
#   skip_test WHAT PACKAGE the whole test: exit 77 (or 1)
missing() {
    if [ "${PL_REQUIRE_ALL:-0}" = 1 ]; then bad "$1: needs $2 (PL_REQUIRE_ALL=1)"
    else echo "skipped: $1 (needs $2)"; fi
}
skip_test() {
    if [ "${PL_REQUIRE_ALL:-0}" = 1 ]; then echo "FAIL: $1: needs $2 (PL_REQUIRE_ALL=1)"; exit 1; fi
    echo "skipped: $1 (needs $2)"
    exit 77
}

# test_python MODULE...: prints the interpreter the cross-checks run with, the first of
# $PL_TEST_PYTHON (`make test` sets it to its venv, .venv-test, with NumPy, SciPy, scikit-image
# and Pillow from the package index), the source tree's .venv-test and /usr/bin/python3 (Debian's
# python3-numpy ...) that imports every MODULE; returns 1 (printing nothing) where none does.
test_python() {
    local py mods
    mods=$(IFS=,; echo "$*")
    for py in "${PL_TEST_PYTHON:-}" "$(dirname "${BASH_SOURCE[0]}")/../.venv-test/bin/python" /usr/bin/python3; do
        [ -n "$py" ] && [ -x "$py" ] && "$py" -c "import $mods" >/dev/null 2>&1 && { echo "$py"; return 0; }
    done
    return 1
}

# npy FILE DESCR SHAPE HEXDATA: a version 1.0 .npy file. DESCR like '<f4', SHAPE like '(2, 3)',
# HEXDATA the data as hex digits ("0000803f..."), written as bytes.
npy() {
    local file=$1 descr=$2 shape=$3 hex=$4
    local dict="{'descr': '$descr', 'fortran_order': False, 'shape': $shape, }"
    local total=$(( (10 + ${#dict} + 1 + 63) / 64 * 64 ))
    local hl=$((total - 10)) pad
    pad=$(printf '%*s' $((hl - ${#dict} - 1)) '')
    {
        printf '\x93NUMPY\x01\x00'
        printf "\\x$(printf %02x $((hl & 255)))\\x$(printf %02x $((hl >> 8)))"
        printf '%s%s\n' "$dict" "$pad"
        printf "$(echo "$hex" | sed 's/../\\x&/g')"
    } >"$file"
}

# big FILE SHAPE BYTES: a float32 .npy header for SHAPE followed by BYTES of data as a sparse
# file (zeros that take no disk): inputs beyond what the process may take.
big() { npy "$1" '<f4' "$2" ""; truncate -s $(( $(stat -c %s "$1") + $3 )) "$1"; }

# float32 little-endian bytes, as hex
f0=00000000 f1=0000803f f2=00000040 f3=00004040 f4=00008040
f5=0000a040 f6=0000c040 f7=0000e040 f8=00000041

# values FILE: the float32 data of a 2-D .npy file whose header is 128 bytes, one per line.
values() { od -An -v -t f4 -j 128 "$1" | tr -s ' \n' '\n\n' | sed '/^$/d'; }

# same_values FILE "v1 v2 ...": exact comparison (the values are small integers).
same_values() {
    local got
    got=$(values "$1" | awk '{printf "%s%g", (NR > 1 ? " " : ""), $1}')
    [ "$got" = "$2" ] || { echo "  $1 holds: $got; expected: $2"; return 1; }
}

# run EXPECTED_EXIT NAME ARGS...: run parlab, check the exit status; output in out.txt, err.txt.
run() {
    local want=$1 name=$2
    shift 2
    "$PARLAB" "$@" >out.txt 2>err.txt
    local rc=$?
    if [ "$rc" -eq "$want" ]; then
        ok
        return 0
    fi
    bad "$name: exit $rc, expected $want ($*)"
    sed 's/^/  stdout: /' out.txt
    sed 's/^/  stderr: /' err.txt
    return 1
}

# expect_err NAME TEXT: stderr holds TEXT.
expect_err() {
    if grep -qF -- "$2" err.txt; then ok; else bad "$1: stderr lacks '$2': $(cat err.txt)"; fi
}

# no_file NAME FILE: FILE does not exist, nor any temporary file next to it.
no_file() {
    if [ ! -e "$2" ] && ! ls "$2".tmp.* >/dev/null 2>&1; then ok; else bad "$1: $2 was created"; fi
}

# no_tmp_files: no temporary output file is left in the scratch directory.
no_tmp_files() {
    if ls ./*.tmp.* >/dev/null 2>&1; then bad "temporary files left: $(ls ./*.tmp.*)"; else ok; fi
}

# summary [LABEL]: the counts; returns nonzero when any check failed (the test's last command).
summary() {
    echo "${1:+$1: }$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

# bench ARGS...: `parlab bench ARGS --no-peaks --repeats ${BENCH_REPEATS:-3}`, what it printed in
# out.txt and err.txt, its exit status in $rc (the user-rung tests and the examples).
bench() { "$PARLAB" bench "$@" --no-peaks --repeats "${BENCH_REPEATS:-3}" >out.txt 2>err.txt; rc=$?; }
# bench_said RC WHAT PATTERN: the last command exited RC and printed PATTERN (stdout or stderr).
bench_said() {
    if [ "$rc" -ne "$1" ]; then bad "$2: exit $rc, expected $1"; cat out.txt err.txt; return; fi
    if grep -Eq -- "$3" out.txt err.txt; then ok; else bad "$2: no '$3' in the output"; cat out.txt err.txt; fi
}
