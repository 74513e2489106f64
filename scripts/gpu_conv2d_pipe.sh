#!/usr/bin/env bash
# gpu_conv2d_pipe.sh: one device call for conv2d cuda-tuned's pipelined tiles (issue 23, K = 7..11):
# the build, the kernels' registers, pipe=off/on x rows swept at 10000^2 for K = 3..15 on a quiet
# GPU, then the GPU tests (conv2d, gemm after cp.async moved to core, gemv) with memcheck and
# racecheck, and two mutations the tests must catch (MUTANTS=1).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-gpu-logs}
L=$OUT/logs
mkdir -p "$L"
B=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader >"$L/gpu.txt"
cmake -S . -B "$B" -DPARLAB_CUDA=ON -DCMAKE_BUILD_TYPE=Release >"$L/configure.log" 2>&1 &&
    cmake --build "$B" -j "$(nproc)" --target parlab_cli test_conv2d_gpu test_gemm_gpu test_gemv_gpu >"$L/build.log" 2>&1 ||
    { grep -E "error" "$L/build.log" | head -20; tar czf "$OUT/logs.tgz" -C "$OUT" logs; exit 1; }
stamp "built ($(cat "$L/gpu.txt"))"
o=$(find "$B" -path "*conv2d*" -name "cuda_tuned.cu.o" | head -1)
cuobjdump --dump-resource-usage "$o" 2>&1 | grep -A1 "Function" | paste - - |
    sed -nE 's/.*Function _Z[0-9]+([a-z0-9_]+)IfLi([0-9]+)ELi([0-9]+)E.*REG:([0-9]+) STACK:([0-9]+) SHARED:[0-9]+ LOCAL:([0-9]+).*/\1 K=\2 RY=\3 REG=\4 STACK=\5 LOCAL=\6/p' |
    grep -E "K=(7|9|11|15) RY=(8|16)" | sort | tee "$L/regs.txt"
P="$B/parlab"
show() { grep -E "^(variant|cuda|peer|best|error|parlab:)" "$1" | cut -c1-150; }
$P peaks --quick >"$L/peaks.log" 2>&1
for k in ${KS:-7 9 11 15 5 3}; do
    $P sweep conv2d --variant cuda-tuned --param pipe=off,on --param rows=8,16 --set k=$k --verify sample --min-time 0.2 10000 >"$L/sweep_k$k.log" 2>&1
    echo "== k=$k"; show "$L/sweep_k$k.log" | grep -vE "^variant"
done
stamp "benches"
t() { local secs=$1 log=$2; shift 2; timeout "$secs" "$@" >"$L/$log" 2>&1; echo "exit $?" >>"$L/$log"; }
san() { local tool=$1 log=$2; shift 2; t 240 "$log" env PL_SANITIZER=1 compute-sanitizer --tool "$tool" --error-exitcode 3 "$@"; }
t 260 test_conv2d.log "$B/tests/test_conv2d_gpu" --only cuda-tuned &
t 260 test_gemm.log "$B/tests/test_gemm_gpu" &
t 200 test_gemv.log "$B/tests/test_gemv_gpu" &
san memcheck mc_conv2d.log "$B/tests/test_conv2d_gpu" --quick --only cuda-tuned &
san racecheck rc_conv2d.log "$B/tests/test_conv2d_gpu" --quick --only cuda-tuned &
san synccheck sc_conv2d.log "$B/tests/test_conv2d_gpu" --quick --only cuda-tuned &
wait
for f in test_conv2d test_gemm test_gemv mc_conv2d rc_conv2d sc_conv2d; do
    printf '%-12s %s | %s\n' "$f" "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
done
grep -h -m6 -iE "fail|pipe=on" "$L"/test_conv2d.log "$L"/test_gemm.log "$L"/test_gemv.log | head -10
stamp "tests"
tar czf "$OUT/logs.tgz" -C "$OUT" logs # again at the end: a call cut short keeps these
mutant() { # mutant NAME FILE SED TARGET TEST...: the test must fail on the mutated code
    local name=$1 f=$2 expr=$3 target=$4; shift 4
    cp "$f" "$L/orig_$name"
    sed -i "$expr" "$f"
    if cmp -s "$f" "$L/orig_$name"; then echo "MUTANT $name: not applied"; return; fi
    cmake --build "$B" -j "$(nproc)" --target "$target" >"$L/build_$name.log" 2>&1
    t 120 "mutant_$name.log" "$@"
    echo "MUTANT $name (want failures): $(tail -1 "$L/mutant_$name.log") $(grep -E 'passed|failed' "$L/mutant_$name.log" | tail -1)"
    cp "$L/orig_$name" "$f"
}
if [ "${MUTANTS:-1}" = 1 ]; then
    mutant conv2d_buffer src/kernels/conv2d/cuda_tuned.cu 's/vec, s_buf + ((k + 1) \& 1) \* TILE);/vec, s_buf + (k \& 1) * TILE);/' \
        test_conv2d_gpu "$B/tests/test_conv2d_gpu" --quick --only cuda-tuned
    mutant gemv_cluster src/kernels/gemv/cuda_tuned.cu 's/for (int q = 0; q < S; q++) s += cluster/for (int q = 0; q + 1 < S; q++) s += cluster/' \
        test_gemv_gpu "$B/tests/test_gemv_gpu"
    cmake --build "$B" -j "$(nproc)" --target test_conv2d_gpu test_gemv_gpu >/dev/null 2>&1
fi
stamp done
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
