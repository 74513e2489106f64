#!/usr/bin/env bash
# gpu_sanitize.sh: compute-sanitizer's four tools (memcheck, racecheck, initcheck, synccheck)
# over every GPU test (BUILD/tests/test_*_gpu), each test in its short sanitizer mode
# (PL_SANITIZER=1: small shapes, default parameters; racecheck runs with PL_SANITIZER=racecheck,
# which test_gemm_gpu narrows to two shapes that reach every shared-memory path of every rung and
# configuration: tests/gemm_cases.h). One line per tool and test with the
# errors the tool counted (racecheck: hazards), then the same lines again as a summary; exit 0
# only when every run reports 0 and its test passed.
# initcheck runs with PL_SANITIZER_PEERS=0: the tests skip the peers (cuDNN's implicit-GEMM
# kernels read workspace they never wrote, thousands of reports that are not parlab's).
# usage: scripts/gpu_sanitize.sh [BUILD_DIR] [TOOLS]   (default: build, all four tools)
#   JOBS=N     runs at once on the one GPU (default 4); TIMEOUT=S seconds a run (default 600)
#   LOGS=DIR   the logs (default BUILD_DIR/sanitize)
set -uo pipefail
build=${1:-build}
tools=${2:-racecheck memcheck initcheck synccheck} # the slowest first
export TIMEOUT=${TIMEOUT:-600}
export LOGS=${LOGS:-$build/sanitize}
jobs=${JOBS:-4}
export PATH="$PATH:/usr/local/cuda/bin"
command -v compute-sanitizer >/dev/null || { echo "gpu_sanitize: compute-sanitizer not found" >&2; exit 2; }
tests=$(ls "$build"/tests/test_*_gpu 2>/dev/null)
[ -n "$tests" ] || { echo "gpu_sanitize: no GPU tests in $build/tests (build first)" >&2; exit 2; }
mkdir -p "$LOGS"

# one_run TOOL TEST: run it, print its line; the line starts with "ok" or "BAD".
one_run() {
    local tool=$1 t=$2 name log start rc secs errors verdict extra=()
    name=$(basename "$t")
    log="$LOGS/$tool-$name.log"
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    start=$(date +%s)
    if [ "$tool" = initcheck ]; then
        PL_SANITIZER=1 PL_SANITIZER_PEERS=0 timeout "$TIMEOUT" compute-sanitizer --tool "$tool" "${extra[@]}" \
            --error-exitcode 3 "$t" >"$log" 2>&1
    elif [ "$tool" = racecheck ]; then
        PL_SANITIZER=racecheck timeout "$TIMEOUT" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 3 "$t" >"$log" 2>&1
    else
        PL_SANITIZER=1 timeout "$TIMEOUT" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 3 "$t" >"$log" 2>&1
    fi
    rc=$?
    secs=$(($(date +%s) - start))
    if [ "$tool" = racecheck ]; then
        errors=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9][0-9]*\) hazard.*/\1/p' "$log" | tail -1)
    else
        errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' "$log" | tail -1)
    fi
    verdict=ok
    if [ "$rc" = 124 ]; then verdict="BAD: timed out after ${TIMEOUT}s"
    elif [ "$rc" = 77 ]; then verdict="ok: $(grep -m1 '^skipped:' "$log")"
    elif [ -z "$errors" ]; then verdict="BAD: no summary line (exit $rc)"
    elif [ "$errors" != 0 ] || [ "$rc" != 0 ]; then verdict="BAD: exit $rc"
    fi
    printf '%-10s %-20s %s %-6s %5ss  %s\n' "$tool" "$name" "$([ "$tool" = racecheck ] && echo hazards || echo "errors ")" \
        "${errors:--}" "$secs" "$verdict"
}
export -f one_run

# Each line as its run ends (stdout and LOGS/lines.txt), then the lines sorted as a summary.
: >"$LOGS/lines.txt"
for tool in $tools; do for t in $tests; do echo "$tool $t"; done; done |
    xargs -P "$jobs" -L 1 bash -c 'one_run "$0" "$1"' | tee -a "$LOGS/lines.txt"
out=$(cat "$LOGS/lines.txt")
echo "== gpu_sanitize summary ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
echo "$out" | sort
if echo "$out" | grep -q "BAD"; then
    echo "gpu_sanitize: some runs failed (logs in $LOGS)"
    exit 1
fi
echo "gpu_sanitize: every run reports 0"
