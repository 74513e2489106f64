#!/usr/bin/env bash
# gpu_sanitize.sh: compute-sanitizer's four tools (memcheck, racecheck, initcheck, synccheck)
# over every GPU test (build/tests/test_*_gpu), each test in its short sanitizer mode
# (PL_SANITIZER=1: small shapes, default parameters). One line per tool and test with the
# errors the tool counted; a table at the end; exit 0 only when every run reports 0 errors and
# its test passed.
# usage: scripts/gpu_sanitize.sh [BUILD_DIR] [TOOLS]   (default: build, all four tools)
#   TIMEOUT=S  seconds a run may take (default 600); LOGS=DIR  logs (default BUILD_DIR/sanitize)
set -uo pipefail
build=${1:-build}
tools=${2:-memcheck racecheck initcheck synccheck}
timeout_s=${TIMEOUT:-600}
logs=${LOGS:-$build/sanitize}
export PATH="$PATH:/usr/local/cuda/bin"
command -v compute-sanitizer >/dev/null || { echo "gpu_sanitize: compute-sanitizer not found" >&2; exit 2; }
tests=$(ls "$build"/tests/test_*_gpu 2>/dev/null)
[ -n "$tests" ] || { echo "gpu_sanitize: no GPU tests in $build/tests (build first)" >&2; exit 2; }
mkdir -p "$logs"
export PL_SANITIZER=1
bad=0
summary=()
for tool in $tools; do
    extra=()
    # racecheck: shared-memory hazards; also the races it can only warn of
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    for t in $tests; do
        name=$(basename "$t")
        log="$logs/$tool-$name.log"
        start=$(date +%s)
        timeout "$timeout_s" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 3 "$t" >"$log" 2>&1
        rc=$?
        secs=$(( $(date +%s) - start ))
        errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9][0-9]*\) error.*/\1/p' "$log" | tail -1)
        [ "$tool" = racecheck ] && hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9][0-9]*\) hazard.*/\1/p' "$log" | tail -1)
        verdict=ok
        if [ "$rc" = 124 ]; then verdict="timed out after ${timeout_s}s"; bad=1
        elif [ "$rc" = 77 ]; then verdict="skipped: $(grep -m1 '^skipped:' "$log")"
        elif [ -z "$errors" ]; then verdict="no ERROR SUMMARY (exit $rc)"; bad=1
        elif [ "$errors" != 0 ] || [ "$rc" != 0 ]; then verdict="FAILED (exit $rc)"; bad=1
        fi
        line=$(printf '%-10s %-20s errors %-4s %s%5ss  %s' "$tool" "$name" "${errors:--}" \
            "$([ "$tool" = racecheck ] && printf 'hazards %-4s ' "${hazards:--}")" "$secs" "$verdict")
        echo "$line"
        summary+=("$line")
    done
done
echo "== gpu_sanitize summary ($(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
printf '%s\n' "${summary[@]}"
[ "$bad" = 0 ] && echo "gpu_sanitize: all runs report 0 errors" || echo "gpu_sanitize: some runs failed (logs in $logs)"
exit $bad
