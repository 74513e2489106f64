#!/usr/bin/env bash
# gpu_gemv_cols.sh: one device call for gemv cuda-tuned's A^T mappings (issue 23): the maps and
# blocks swept beside cuBLAS at square, odd and skinny shapes, y = A*x at blocks 256 and 512, then
# test_gemv_gpu with memcheck and racecheck beside it.
. "$(dirname "$0")/gpu_lib.sh"
gpu_build --target parlab_cli test_gemv_gpu ${TARGETS:-}
P="$B/parlab"
show() { grep -E "^(variant|cuda|peer|best|error|parlab:)" "$1" | cut -c1-150; }
$P peaks --quick >"$L/peaks.log" 2>&1
S=${SIZES:-4096,8192,2048,4097x4095,16384,1000x100000,100000x1000}
for rep in 1 2; do
    $P bench gemv --size "$S" --set trans=t --variant cuda-tuned,peer-cublas --min-time 0.3 >"$L/gemvT_$rep.log" 2>&1; show "$L/gemvT_$rep.log"
done
$P sweep gemv --variant cuda-tuned --param map=split,cluster --param block=256,512,1024 --set trans=t --size "$S" --min-time 0.2 >"$L/sweepT.log" 2>&1; show "$L/sweepT.log"
$P sweep gemv --variant cuda-tuned --param block=256,512 --size 4096,8192,16384,1000x100000,100000x1000 --min-time 0.2 >"$L/sweepN.log" 2>&1; show "$L/sweepN.log"
stamp "benches"
t() { local secs=$1 log=$2; shift 2; timeout "$secs" "$@" >"$L/$log" 2>&1; echo "exit $?" >>"$L/$log"; }
t 200 test_gemv.log "$B/tests/test_gemv_gpu" &
t 200 mc_gemv.log env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_gemv_gpu" &
t 200 rc_gemv.log env PL_SANITIZER=1 compute-sanitizer --tool racecheck --error-exitcode 3 "$B/tests/test_gemv_gpu" &
t 200 sc_gemv.log env PL_SANITIZER=1 compute-sanitizer --tool synccheck --error-exitcode 3 "$B/tests/test_gemv_gpu" &
wait
for f in test_gemv mc_gemv rc_gemv sc_gemv; do
    printf '%-12s %s | %s\n' "$f" "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
done
grep -h -m8 -i "fail" "$L"/test_gemv.log | head -8
stamp "tests"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
