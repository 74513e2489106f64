#!/usr/bin/env bash
# gpu_gemm_ladder.sh: the GEMM ladder's top rungs on a GPU machine, one call: build, the GEMM
# tests (test_gemm_gpu runs every CUDA rung and peer, BF16 ones on dtype=bf16 problems), the
# benches beside the peers (FP32 cuda-tuned, TF32 old and new copy-engine rungs, BF16), the
# CPU top rung beside OpenBLAS's AVX-512 kernels, and (PYTHON=1) the Python BF16 calls on
# PyTorch/ml_dtypes. SANITIZE=1 instead (SANITIZE=after: also) runs compute-sanitizer's tools
# ($SAN_TOOLS, default all four) over test_gemm_gpu restricted to the rungs in
# $PL_TEST_VARIANTS. REUSE=1 keeps a build an earlier call left; NO_TESTS, NO_BENCH, NO_FP32 skip.
# Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
B=${BUILD:-build-gpu}
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
if [ ! -x "$B/parlab" ] || [ -z "${REUSE:-}" ]; then
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
    cmake --build "$B" -j 16 >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
    stamp built
fi
P=$B/parlab
sanitize() {
    export PL_TEST_VARIANTS=${PL_TEST_VARIANTS:-cuda-mma-bf16,cuda-wgmma-bf16,cuda-wgmma-persistent-tf32,peer-cublas-bf16}
    for tool in ${SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
        san=1; [ $tool = racecheck ] && san=racecheck
        PL_SANITIZER=$san timeout ${SAN_TIMEOUT:-150} compute-sanitizer --tool $tool --error-exitcode 3 \
            "$B/tests/test_gemm_gpu" >"$OUT/san-$tool.log" 2>&1
        stamp "compute-sanitizer $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed' "$OUT/san-$tool.log" | tr '\n' ' ')"
        grep -E "^=========     at " "$OUT/san-$tool.log" | sort | uniq -c | sort -rn | head -3
    done
}
[ "${SANITIZE:-}" = 1 ] && { sanitize; exit 0; }
if [ -z "${NO_TESTS:-}" ]; then
echo "== tests"
ctest --test-dir "$B" -R "${TESTS:-test_gemm_gpu|test_gemm_bf16|test_gemm_tuning}" --output-on-failure -j 4 2>&1 | tee "$OUT/ctest.log" | grep -E "Test +#|tests passed|FAIL"
stamp tested
fi
if [ -z "${NO_BENCH:-}" ]; then
echo "== FP32 (CUDA cores), TF32 (the copy-engine rung before, the persistent one after, the pick) beside cuBLAS"
[ -z "${NO_FP32:-}" ] && "$P" bench gemm --size ${SIZES:-4096,8192,4095,4097} --variant cuda-tuned,peer-cublas --json "$OUT/fp32.json" 2>&1 | tee "$OUT/fp32.log"
"$P" bench gemm --size ${SIZES:-4096,8192,4095,4097} \
    --variant cuda-wgmma-tma-tf32,cuda-wgmma-persistent-tf32,cuda-tf32,peer-cublas-tf32 --json "$OUT/tf32.json" 2>&1 | tee "$OUT/tf32.log"
"$P" sweep gemm --variant cuda-wgmma-persistent-tf32 --param config=1,2 --param splitk=1 --size ${SIZES:-4096,8192,4095,4097} \
    2>&1 | tee "$OUT/sweep-persistent.log" | grep -E "^cuda"
echo "== BF16 beside cuBLAS BF16"
"$P" bench gemm --set dtype=bf16 --size ${SIZES:-4096,8192,4095,4097} --variant cuda-mma-bf16,cuda-wgmma-bf16,peer-cublas-bf16 \
    --json "$OUT/bf16.json" 2>&1 | tee "$OUT/bf16.log"
stamp benched
fi
if [ -n "${CPU:-}" ]; then
    echo "== CPU: cpu-packed beside OpenBLAS's AVX-512 kernels ($(nproc) cores)"
    "$P" bench gemm --size 1024,2048,4096 --variant cpu-packed,peer-openblas-skx --repeats 5 2>&1 | tee "$OUT/cpu.log"
    for kc in 384 192; do
        "$P" bench gemm --size 1024,2048,4096 --variant cpu-packed,peer-openblas-skx --repeats 5 --param kc=$kc 2>&1 |
            tee -a "$OUT/cpu.log" | grep -E "^(cpu-packed|peer)"
    done
    PARLAB_ISA_MAX=avx2 "$P" bench gemm --size 1024,2048,4096 --variant cpu-packed,peer-openblas --repeats 5 2>&1 |
        tee -a "$OUT/cpu.log" | grep -E "^(cpu-packed|peer)"
    stamp cpu
fi
[ "${SANITIZE:-}" = after ] && sanitize
if [ -n "${PROFILE:-}" ]; then
    echo "== ncu: one launch of each top kernel at 4096 (speed of light, warp stalls)"
    for v in cuda-tuned peer-cublas cuda-wgmma-persistent-tf32 peer-cublas-tf32 "cuda-wgmma-bf16 --set dtype=bf16" \
        "peer-cublas-bf16 --set dtype=bf16"; do
        name=${v%% *}
        timeout 120 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis \
            --launch-skip 2 --launch-count 1 -k 'regex:^(?!.*(transpose|fill|poison|reduce|splitk|busy_wait)).*' \
            "$P" bench gemm --size 4096 --variant $v --repeats 3 --no-peaks >"$OUT/ncu-$name.txt" 2>&1
        echo "ncu $name: exit $? $(grep -E '^  [a-z_0-9]+.*\(|Compute \(SM\) Throughput|Memory Throughput|Duration|SM Frequency|Issue Slots Busy|Executed Ipc A' "$OUT/ncu-$name.txt" | head -8 | tr -s ' ' | tr '\n' ';')"
    done
    stamp profiled
fi
if [ -n "${PYTHON:-}" ]; then
    PY=
    for py in /opt/*/.venv/bin/python3 /opt/*/bin/python3 python3; do
        [ -x "$(command -v "$py")" ] && "$py" -c "import cupy, torch, ml_dtypes" 2>/dev/null && { PY=$(command -v "$py"); break; }
    done
    if [ -n "$PY" ]; then
        export PARLAB=$PWD/$P
    rm -rf /tmp/site && "$PY" -m pip install -q --no-build-isolation --no-deps --target /tmp/site . >"$OUT/pip.log" 2>&1 \
            || tail -20 "$OUT/pip.log"
        export PYTHONPATH=/tmp/site PL_TEST_PYTHON=$PY
        (cd /tmp && "$PY" -m pytest -q -rs -p no:cacheprovider $(ls "$OLDPWD"/python/tests/test_*bf16*.py "$OLDPWD"/python/tests/test_*gpu*.py 2>/dev/null)) >"$OUT/pytest.log" 2>&1
        grep -E "^(FAILED|ERROR)|Error|assert|passed|failed" "$OUT/pytest.log" | head -30
        stamp python
    else
        echo "== no Python with CuPy, PyTorch and ml_dtypes here: the Python BF16 calls not run"
    fi
fi
