#!/usr/bin/env bash
# gpu_columns.sh: one device call for issue 23's column rows (gemv A^T x, reduce axis=0): the
# benches first on a quiet GPU (cuda-tuned's maps and blocks beside cuBLAS, the column
# reductions beside the rows), then the two GPU tests and memcheck.
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
    cmake --build "$B" -j "$(nproc)" --target parlab_cli test_gemv_gpu test_reduce_gpu >"$L/build.log" 2>&1 ||
    { grep -E "error" "$L/build.log" | head -20; exit 1; }
stamp "built ($(cat "$L/gpu.txt"))"
P="$B/parlab"
show() { grep -E "^(variant|cuda|peer|best|error|parlab:)" "$1" | cut -c1-150; }
$P peaks --quick >"$L/peaks.log" 2>&1
for s in 4096 8192; do
    $P bench gemv $s --set trans=t --variant cuda-tuned,peer-cublas --min-time 0.3 >"$L/gemvT$s.log" 2>&1; show "$L/gemvT$s.log"
    $P sweep gemv --variant cuda-tuned --param map=auto,cluster --param block=256,512,1024 --set trans=t --min-time 0.3 $s >"$L/sweepT$s.log" 2>&1; show "$L/sweepT$s.log"
done
$P bench gemv --size 2048,4097x4095,16384,1000x100000,100000x1000 --set trans=t --variant cuda-tuned,peer-cublas >"$L/gemvT_more.log" 2>&1; show "$L/gemvT_more.log"
$P sweep gemv --variant cuda-tuned --param map=auto,cluster --param block=256,512,1024 --set trans=t --size 2048,4097x4095,16384,1000x100000,100000x1000 >"$L/sweepT_more.log" 2>&1; show "$L/sweepT_more.log" | grep -E "best|parlab"
$P bench gemv 4096 --set trans=t --variant cuda-tuned,peer-cublas --set trans=t --min-time 0.3 >"$L/gemvT4096b.log" 2>&1; show "$L/gemvT4096b.log"
for s in 10000 30000; do
    $P bench reduce $s --variant cuda-tuned --min-time 0.3 >"$L/rows$s.log" 2>&1; show "$L/rows$s.log"
    $P bench reduce $s --set axis=0 --variant cuda-tuned,cuda-warp --min-time 0.3 >"$L/cols$s.log" 2>&1; show "$L/cols$s.log"
done
stamp "benches"
t() { local secs=$1 log=$2; shift 2; timeout "$secs" "$@" >"$L/$log" 2>&1; echo "exit $?" >>"$L/$log"; }
t 230 test_gemv.log "$B/tests/test_gemv_gpu" &
t 230 test_reduce.log "$B/tests/test_reduce_gpu" &
t 230 mc_gemv.log env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_gemv_gpu" &
t 230 mc_reduce.log env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_reduce_gpu" &
t 230 rc_gemv.log env PL_SANITIZER=1 compute-sanitizer --tool racecheck --error-exitcode 3 "$B/tests/test_gemv_gpu" &
wait
for f in test_gemv test_reduce mc_gemv mc_reduce rc_gemv; do
    printf '%-12s %s | %s\n' "$f" "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
done
grep -h -m5 -i "fail" "$L"/test_gemv.log "$L"/test_reduce.log | head -8
stamp "tests"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
