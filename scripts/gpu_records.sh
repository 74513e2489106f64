#!/usr/bin/env bash
# gpu_records.sh: one device call for issue 23's new top rungs (Life cuda-register, entropy
# cuda-swar) on one GPU: one build of the command and the two GPU tests; the tests and
# compute-sanitizer side by side; then the benches alone (each new rung beside the rung it
# follows, verified), short sweeps, and the entropy mutation the test must catch, while time is
# left (LIMIT seconds, default 480). Logs into $OUT/logs.tgz; the summary prints last.
. "$(dirname "$0")/gpu_lib.sh"
gpu_build --target parlab_cli test_life_gpu test_entropy_gpu
t() { local secs=$1 log=$2; shift 2; timeout "$secs" "$@" >"$L/$log" 2>&1; echo "exit $?" >>"$L/$log"; }
t 170 life_register.log "$B/tests/test_life_gpu" --rung cuda-register &
t 170 entropy_swar.log "$B/tests/test_entropy_gpu" --rung cuda-swar &
t 170 entropy_quick.log "$B/tests/test_entropy_gpu" --quick &
t 120 life_memcheck.log env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_life_gpu" --rung cuda-register --quick &
t 120 life_racecheck.log env PL_SANITIZER=1 compute-sanitizer --tool racecheck --error-exitcode 3 "$B/tests/test_life_gpu" --rung cuda-register --quick &
t 120 entropy_memcheck.log env PL_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_entropy_gpu" --quick --rung cuda-swar &
wait
for f in life_register entropy_swar entropy_quick life_memcheck life_racecheck entropy_memcheck; do
    printf '%-18s %s | %s\n' "$f" "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
done
grep -h -m3 -i "fail" "$L"/life_register.log "$L"/entropy_swar.log | head -6
stamp "tests"
"$B/parlab" bench life 65536 --variant cuda-tuned,cuda-register --set gens=100 --json "$L/life.json" >"$L/bench_life.log" 2>&1
grep -E "^(variant|cuda|parlab)" "$L/bench_life.log" | cut -c1-150
for bins in 16 256; do
    "$B/parlab" bench entropy 10000 --variant cuda-tuned,cuda-swar --set bins=$bins >"$L/bench_entropy$bins.log" 2>&1
    echo "entropy bins=$bins:"; grep -E "^(variant|cuda|parlab)" "$L/bench_entropy$bins.log" | cut -c1-150
done
stamp "benches"
if left 80; then
    timeout 60 "$B/parlab" sweep life --variant cuda-register --size 65536 --set gens=100 --param tblock=12,16,24 \
        --param warps=8,16 --repeats 3 >"$L/sweep_life.log" 2>&1
    grep -iE "^best|error" "$L/sweep_life.log" | tail -2
fi
if left 60; then
    timeout 45 "$B/parlab" sweep entropy --variant cuda-swar --param ahead=0,5 --param warps=4,8 10000 >"$L/sweep_entropy.log" 2>&1
    grep -iE "^best|error" "$L/sweep_entropy.log" | tail -2
fi
stamp "sweeps"
if left 60; then # the entropy mutation: a window sum shuffled by 1, not 2 (wrong counts)
    f=src/kernels/entropy/cuda_swar.cu
    cp "$f" "$L/orig.cu"
    sed -i 's/(0xFFFFFFFFu, h_lo + __shfl_down_sync(0xFFFFFFFFu, s2_lo, 1), 2)/(0xFFFFFFFFu, h_lo + __shfl_down_sync(0xFFFFFFFFu, s2_lo, 1), 1)/' "$f"
    if ! cmp -s "$f" "$L/orig.cu"; then
        cmake --build "$B" -j "$(nproc)" --target test_entropy_gpu >"$L/build_mutant.log" 2>&1
        t 40 entropy_mutant.log "$B/tests/test_entropy_gpu" --quick --rung cuda-swar
        echo "MUTANT entropy (want failures): $(tail -1 "$L/entropy_mutant.log") $(grep -E 'passed|failed' "$L/entropy_mutant.log" | tail -1)"
    else echo "mutation not applied"; fi
    cp "$L/orig.cu" "$f"
fi
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
stamp done
