#!/usr/bin/env bash
# gpu_validate.sh: one device call on one GPU for the whole tree: one build (CUDA), every GPU
# test (ctest -L gpu, the MPI ones aside), compute-sanitizer's memcheck over the rungs issue 23
# changed (transpose cuda-tuned, entropy cuda-swar, life cuda-tuned/cuda-register), then issue
# 23's rows benched alone on the GPU (each beside its peer or the rung it follows, verified).
# Logs into $OUT/logs.tgz; the summary prints as it goes. LIMIT (s, default 540) bounds the benches.
. "$(dirname "$0")/gpu_lib.sh"
LIMIT=${LIMIT:-540}
gpu_build
echo "build warnings: $(grep -c -i warning "$L/build.log")"
t() { local secs=$1 log=$2; shift 2; timeout "$secs" "$@" >"$L/$log" 2>&1; echo "exit $?" >>"$L/$log"; }
ms() { local secs=$1 log=$2; shift 2; t "$secs" "$log" env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$@"; }
if [ "${TESTS:-1}" = 1 ]; then
    ctest --test-dir "$B" -L gpu -LE mpi -j 4 --timeout 300 --output-on-failure >"$L/ctest_gpu.log" 2>&1 &
    pt=$!
    ms 280 mc_transpose.log "$B/tests/test_transpose_gpu" &
    ms 280 mc_entropy.log "$B/tests/test_entropy_gpu" --quick --rung cuda-swar &
    ms 280 mc_life_tuned.log "$B/tests/test_life_gpu" --quick --rung cuda-tuned &
    ms 280 mc_life_register.log "$B/tests/test_life_gpu" --quick --rung cuda-register &
    wait
    grep -E "Test +#|tests passed|tests failed" "$L/ctest_gpu.log"
    for f in mc_transpose mc_entropy mc_life_tuned mc_life_register; do
        printf '%-18s %s | %s\n' "$f" "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
    done
    stamp "tests"
fi
bench() { local log=$1; shift; left 40 || { echo "no time: $log"; return; }
    timeout 120 "$B/parlab" bench "$@" >"$L/$log.log" 2>&1; echo "== $log: parlab bench $*"
    grep -E "^(variant|cuda|peer|error|parlab)" "$L/$log.log" | cut -c1-160; }
bench life life 65536 --variant cuda-tuned,cuda-register --set gens=100 --set topology=torus
bench entropy16 entropy 10000 --variant cuda-tuned,cuda-swar --set bins=16
bench entropy256 entropy 10000 --variant cuda-tuned,cuda-swar --set bins=256
bench transpose transpose --size 4096,4097x4095,8191x8193 --variant cuda-tuned --peer
bench gemvT gemv --size 4096,8192 --set trans=t --variant cuda-tuned --peer
bench gemvN gemv --size 4096,8192 --variant cuda-tuned --peer
bench reduce_rows reduce --size 10000,30000 --variant cuda-tuned --peer
bench reduce_cols reduce --size 10000,30000 --set axis=0 --variant cuda-tuned
for k in 7 9 11 15; do bench conv2d_k$k conv2d 10000 --set k=$k --variant cuda-tuned; done
stamp "benches"
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
stamp done
