#!/usr/bin/env bash
# gpu_check.sh: one call on a GPU machine: build, the GPU tests, compute-sanitizer over them,
# and the GEMM ladder at the sizes given (default 4096). Logs go to $OUT (or ./gpu-logs).
# usage: scripts/gpu_check.sh [SIZES] [extra bench args...]
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
sizes=${1:-4096}
shift || true
export PATH="$PATH:/usr/local/cuda/bin"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,utilization.gpu --format=csv | tee "$OUT/gpu.txt"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build-gpu -j 16 >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
echo "== ctest (all labels)"
ctest --test-dir build-gpu --output-on-failure -j 4 2>&1 | tee "$OUT/ctest.log" | grep -E "Test +#|tests passed|skipped|FAIL" 
echo "== compute-sanitizer (memcheck) over the GPU test"
PL_SANITIZER=1 timeout 300 compute-sanitizer --tool memcheck --error-exitcode 3 build-gpu/tests/test_gemm_gpu >"$OUT/sanitizer.log" 2>&1
echo "compute-sanitizer exit $?: $(grep -E 'ERROR SUMMARY|passed' "$OUT/sanitizer.log" | tr '\n' ' ')"
echo "== peaks"
build-gpu/parlab peaks --quick 2>&1 | tee "$OUT/peaks.log" | tail -12
echo "== bench"
build-gpu/parlab bench gemm --size "$sizes" --peer --json "$OUT/bench.json" "$@" 2>&1 | tee "$OUT/bench.log"
