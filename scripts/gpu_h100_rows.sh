#!/usr/bin/env bash
# gpu_h100_rows.sh: issue 23's changed rows on one GPU (for the H100 figures): gemv A^T beside
# cuBLAS (the old mapping, map=split block=256, beside the new default), the column reductions
# beside the rows, conv2d cuda-tuned pipe=off/on at K = 7, 9, 11; then the gemv mutation
# (a cluster block's sums left out) that test_gemv_gpu must catch.
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
    cmake --build "$B" -j "$(nproc)" --target parlab_cli test_gemv_gpu >"$L/build.log" 2>&1 ||
    { grep -E "error" "$L/build.log" | head -20; exit 1; }
stamp "built ($(cat "$L/gpu.txt"))"
P="$B/parlab"
show() { grep -E "^(variant|cuda|peer|best|error|parlab:)" "$1" | cut -c1-140; }
$P peaks --quick >"$L/peaks.log" 2>&1
for rep in 1 2; do
    $P bench gemv --size 4096,8192,4097x4095,16384 --set trans=t --variant cuda-tuned,peer-cublas --min-time 0.3 >"$L/gemvT_$rep.log" 2>&1; show "$L/gemvT_$rep.log" | grep -v "^variant"
done
$P sweep gemv --variant cuda-tuned --param map=split --param block=256 --set trans=t --size 4096,8192,16384 --min-time 0.3 >"$L/gemvT_old.log" 2>&1; show "$L/gemvT_old.log" | grep -v "^variant"
for s in 10000 30000; do
    $P bench reduce $s --variant cuda-tuned --min-time 0.3 >"$L/rows$s.log" 2>&1; show "$L/rows$s.log" | grep -v "^variant"
    $P bench reduce $s --set axis=0 --variant cuda-tuned --min-time 0.3 >"$L/cols$s.log" 2>&1; show "$L/cols$s.log" | grep -v "^variant"
done
stamp "gemv, reduce"
for k in 7 9 11; do
    $P sweep conv2d --variant cuda-tuned --param pipe=off,on --set k=$k --verify sample --min-time 0.2 10000 >"$L/conv_k$k.log" 2>&1
    show "$L/conv_k$k.log" | grep -vE "^variant"
done
o=$(find "$B" -path "*conv2d*" -name "cuda_tuned.cu.o" | head -1)
cuobjdump --dump-resource-usage "$o" 2>&1 | grep -A1 "Function" | paste - - |
    sed -nE 's/.*Function _Z[0-9]+([a-z0-9_]+)IfLi([0-9]+)ELi([0-9]+)E.*REG:([0-9]+) STACK:([0-9]+) SHARED:[0-9]+ LOCAL:([0-9]+).*/\1 K=\2 RY=\3 REG=\4 STACK=\5/p' |
    grep -E "pipe.*K=(9|11) RY=16" | sort
stamp "conv2d"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
f=src/kernels/gemv/cuda_tuned.cu
cp "$f" "$L/orig.cu"
sed -i 's/for (int q = 0; q < S; q++) s += cluster/for (int q = 0; q + 1 < S; q++) s += cluster/' "$f"
if ! cmp -s "$f" "$L/orig.cu"; then
    cmake --build "$B" -j "$(nproc)" --target test_gemv_gpu >"$L/build_mutant.log" 2>&1
    timeout 120 "$B/tests/test_gemv_gpu" >"$L/mutant.log" 2>&1; echo "exit $?" >>"$L/mutant.log"
    echo "MUTANT gemv cluster (want failures): $(tail -1 "$L/mutant.log") $(grep -E 'passed|failed' "$L/mutant.log" | tail -1)"
else echo "mutation not applied"; fi
cp "$L/orig.cu" "$f"
stamp done
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
