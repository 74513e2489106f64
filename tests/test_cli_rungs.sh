# test_cli_rungs.sh: users' own rungs from a shared library (parlab bench --rung): a correct one
# joins the table verified and marked as the user's; each known-wrong rung of tests/rungs/wrong.c
# is caught with its own message while the ladder's rungs of the same bench still run; a bad
# library, symbol, declaration or name is a usage error (exit 2) before anything runs.
. "$(dirname "$0")/cli_lib.sh"
cli_setup rungs
: "${PL_WRONG_RUNGS:?set PL_WRONG_RUNGS to the library of known-wrong rungs}"
lib=$PL_WRONG_RUNGS
export PARLAB_PEAKS_SANITY=off


# A correct rung: verified, in the table under its name, beside the ladder's rung.
bench transpose --size 65x33 --variant cpu-naive --rung "$lib:good_transpose" --rung-name mine
bench_said 0 "a correct rung" '^mine .* yes'
grep -q '^cpu-naive .* yes' out.txt && ok || bad "the ladder's rung beside a user's rung"

# Each known-wrong rung: the row fails (exit 1) with its own message; cpu-naive still verified.
check_wrong() { # FN PATTERN [bench args]
    fn=$1 pattern=$2
    shift 2
    bench transpose --size 64x48 --variant cpu-naive --rung "$lib:$fn" --rung-timeout 5 "$@"
    bench_said 1 "$fn" "$pattern"
    grep -q '^cpu-naive .* yes' out.txt && ok || bad "$fn: cpu-naive did not run verified beside it"
}
check_wrong replay_transpose "on fresh inputs .* is wrong"
check_wrong input_write_transpose "changed (its|an) input"
check_wrong unwritten_tail_transpose "FAILED unwritten_tail_transpose .*worst element \[4[0-9], [0-9]+\]"
check_wrong returns_3_transpose "returns_3_transpose returned 3"
check_wrong abort_transpose "crashed: signal 6|abort"
check_wrong hang_transpose "hung: no result after 5 s"
if [ "${PL_SANITIZE:-OFF}" = ON ]; then # AddressSanitizer reports the SIGSEGV and exits 1 itself
    check_wrong crash_transpose "crashed: signal 11|SEGV|without a result"
else
    check_wrong crash_transpose "crashed: signal 11 \(Segmentation fault\)"
fi
# The crash ended its row only: the next size still ran.
bench transpose --size 64x48,33 --variant cpu-naive --rung "$lib:crash_transpose"
bench_said 1 "a crash, then the next size" "crash_transpose 33: crashed|crash_transpose 33: .*without a result"
[ "$(grep -c '^cpu-naive .* yes' out.txt)" = 2 ] && ok || bad "after a crash, cpu-naive ran at both sizes"
# An off-by-one border (conv2d, same mode): the first output row is wrong.
bench conv2d --size 40x36 --set mode=same --set k=5 --variant cpu-naive --rung "$lib:border_conv2d"
bench_said 1 "border off by one" "FAILED border_conv2d .*worst element \[0, [0-9]+\]"

# In the process too (--rung-in-process): the same checks hold.
bench transpose --size 64x48 --variant cpu-naive --rung "$lib:replay_transpose" --rung-in-process
bench_said 1 "replay, in process" "on fresh inputs .* is wrong"

# Every kernel's call_user: parlab's best CPU rung called through the kernel's rung signature
# (tests/rungs/same_code.c), at odd sizes and with the problem parameters away from their
# defaults: an argument passed wrong is a wrong answer.
if [ -n "${PL_SAME_CODE_RUNGS:-}" ]; then
    each_kernel() { # KERNEL SIZE SETTINGS
        set -- "$1" "$2" "${3:-}" ${3:+--set "$3"}
        bench "$1" --size "$2" "${@:4}" --variant cpu-naive --rung "$PL_SAME_CODE_RUNGS:best_$1" --rung-name user
        bench_said 0 "$1 through its rung signature ($3)" '^user .* yes'
    }
    each_kernel gemm 33x65x17 alpha=2,beta=0.5,pad=3
    each_kernel gemv 47x61 trans=t,alpha=-1.5,beta=2,pad=1
    each_kernel gemv 47x61 trans=n,beta=0
    each_kernel transpose 37x53 pad=2
    each_kernel reduce 45x67 op=max,axis=0,offset=1
    each_kernel reduce 45x67 op=sumsq,axis=1
    each_kernel dot 1001
    each_kernel conv2d 40x36 mode=same,border=reflect,flip=1,k=5,pad=1
    each_kernel conv2d 40x36 mode=valid,dtype=i32,k=3
    each_kernel entropy 37x41 k=7,bins=5,base=2,pad=3
    each_kernel life 130x70 rule=B36/S23,topology=plane,gens=3
    each_kernel life 64 topology=torus,gens=2
else
    bad "PL_SAME_CODE_RUNGS is not set: every kernel's call_user untested"
fi

# parlab check --rung: the correctness suite alone on a user's rung.
"$PARLAB" check transpose --rung "$lib:good_transpose" --seed 42 >out.txt 2>err.txt; rc=$?
bench_said 0 "check --rung, a correct rung" "transpose good_transpose: [0-9]+ cases x 1 seed, 0 failed"
"$PARLAB" check transpose --rung "$lib:unwritten_tail_transpose" --rung-name tail --seed 42 >out.txt 2>err.txt; rc=$?
bench_said 1 "check --rung, an unwritten tail" "worst element: B\[16\]\[0\] = NaN \(the poison"
"$PARLAB" check transpose --rung "$lib:no_such_fn" >out.txt 2>err.txt; rc=$?
bench_said 2 "check --rung, a missing symbol" "no function no_such_fn in"

# Usage errors, before anything runs (exit 2, naming what is wrong).
bench transpose --size 8 --rung "$lib:no_such_fn"
bench_said 2 "a missing symbol" "no function no_such_fn in"
bench transpose --size 8 --rung "./no/such/lib.so:f"
bench_said 2 "a missing library" "cannot load the library"
bench transpose --size 8 --rung "$lib"
bench_said 2 "no function named" "expected LIBRARY:FUNCTION"
bench transpose --size 8 --rung "$lib:declared_gemm"
bench_said 2 "declared for another kernel" "declared as a gemm rung, not transpose"
bench gemm --size 8 --rung "$lib:declared_gemm" --rung-backend cuda
bench_said 2 "declared backend contradicted" "declared a cpu rung, but --rung-backend says cuda"
bench transpose --size 8 --rung "$lib:bad_precision"
bench_said 2 "a bad declared precision" "declared precision 'fp16'"
bench transpose --size 8 --rung "$lib:good_transpose" --rung-name cpu-naive
bench_said 2 "a taken name" "transpose has a rung of that name already"
bench transpose --size 8 --rung "$lib:good_transpose" --rung "$lib:good_transpose"
bench_said 2 "two rungs of one name" "the name good_transpose is taken by --rung"
bench transpose --size 8 --rung-name x
bench_said 2 "--rung-name first" "give it after the --rung it belongs to"
bench transpose --size 8 --rung "$lib:good_transpose" --rung-backend gpu
bench_said 2 "a bad backend" "'gpu' is not one of cpu, cuda"
bench transpose --size 8 --rung "$lib:good_transpose" --rung-timeout 0
bench_said 2 "a bad timeout" "--rung-timeout: '0'"
grep -q "skipping" err.txt && bad "a usage error came after the rungs were chosen" || ok
"$PARLAB" __rung-worker </dev/null >out.txt 2>err.txt; rc=$?
bench_said 2 "the worker by hand" "not by hand"

echo "test_cli_rungs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
