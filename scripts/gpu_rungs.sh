#!/usr/bin/env bash
# gpu_rungs.sh: one call on a GPU machine for users' own rungs: build, the rung tests (CPU and
# GPU), compute-sanitizer over a CUDA user rung run in process, and the same code timed as a
# built-in and as a user rung (GEMM 1024^2 and transpose 16384^2, GPU and CPU), each pair in
# one bench, three times. Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
B=${BUILD:-build-gpu}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j 16 >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
# The Python package, for the Python rungs' GPU tests and the Python examples: the first
# interpreter here that has CuPy and PyTorch.
PY=
for py in /opt/*/.venv/bin/python3 /opt/*/bin/python3 python3; do
    [ -x "$(command -v "$py")" ] && "$py" -c "import cupy, torch" 2>/dev/null && { PY=$(command -v "$py"); break; }
done
if [ -n "$PY" ]; then
    rm -rf /tmp/site && "$PY" -m pip install -q --no-build-isolation --no-deps --target /tmp/site . >"$OUT/pip.log" 2>&1 \
        || { tail -20 "$OUT/pip.log"; }
    export PYTHONPATH=/tmp/site PL_TEST_PYTHON=$PY
    echo "== pytest ($PY): the Python rungs and the checks on the GPU"
    (cd /tmp && "$PY" -m pytest -q -rs -p no:cacheprovider $(ls "$OLDPWD"/python/tests/test_rung*.py "$OLDPWD"/python/tests/test_check*.py "$OLDPWD"/python/tests/test_compare*.py 2>/dev/null)) 2>&1 | tail -15
else
    echo "== no Python with CuPy and PyTorch here: the Python rungs' GPU tests not run"
fi
echo "== rung tests"
ctest --test-dir "$B" -R "${RUNG_TESTS:-rungs|examples|check}" --output-on-failure 2>&1 | tee "$OUT/ctest.log" | grep -E "Test +#|tests passed|FAIL|passed,|skipped"
lib=$B/tests/libpl_wrong_rungs_cuda.so same=$B/tests/libpl_same_code_rungs.so
echo "== parlab check, every kernel, every rung that runs here (seeds 42, 7919)"
for k in gemm gemv transpose reduce dot conv2d entropy life; do
    "$B/parlab" check "$k" --seed 42,7919 >"$OUT/check-$k.log" 2>&1
    echo "check $k: exit $? $(grep -E ': [0-9]+ cases x' "$OUT/check-$k.log" | grep -E 'cuda' | sed 's/^/| /' | tr '\n' ' ')"
    grep -E "^  FAIL" "$OUT/check-$k.log" | head -3
done
if [ -n "${FULL_GPU:-}" ]; then
    echo "== ctest -L gpu"
    ctest --test-dir "$B" -L gpu -j 4 --output-on-failure 2>&1 | tee "$OUT/ctest-gpu.log" | grep -E "Test +#|tests passed|FAIL"
fi
echo "== compute-sanitizer memcheck: a CUDA user rung in process"
compute-sanitizer --tool memcheck --error-exitcode 3 "$B/parlab" bench transpose --size 1000x777 --variant cuda-naive-read \
    --rung "$lib:good_transpose_cuda" --rung-in-process --no-peaks --repeats 3 >"$OUT/sanitizer.log" 2>&1
echo "compute-sanitizer exit $?: $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer.log" | tr '\n' ' ')"
"$B/parlab" peaks --quick >"$OUT/peaks.log" 2>&1
echo "== the same code, built-in and as a user rung"
for i in 1 2 3; do
    "$B/parlab" bench gemm --size 1024 --variant cuda-tuned --rung "$same:same_gemm_cuda_tuned" --rung-name user-cuda-tuned 2>&1 | grep -E "^(cuda-tuned|user-)"
    "$B/parlab" bench transpose --size 16384 --variant cuda-tuned --rung "$same:same_transpose_cuda_tuned" --rung-name user-cuda-tuned 2>&1 | grep -E "^(cuda-tuned|user-)"
    "$B/parlab" bench transpose --size 16384 --variant cpu-blocked --rung "$same:same_transpose_cpu_blocked" --rung-name user-cpu-blocked 2>&1 | grep -E "^(cpu-blocked|user-)"
    "$B/parlab" bench transpose --size 16384 --variant cpu-blocked --rung "$same:same_transpose_cpu_blocked" --rung-name in-process-cpu-blocked --rung-in-process 2>&1 | grep -E "^(cpu-blocked|in-process-)"
    "$B/parlab" bench gemm --size 1024 --variant cpu-packed --rung "$same:same_gemm_cpu_packed" --rung-name user-cpu-packed 2>&1 | grep -E "^(cpu-packed|user-)"
done
