# test_cli_check.sh: `parlab check` end to end: every kernel's cpu-naive passes its check cases
# at three fixed seeds (a line per case and seed, the summary line, exit 0); the default seeds'
# line; --seed replays one seed; --cases lists the cases; the usage errors (exit 2: no kernel, an unknown kernel or
# variant, a bad seed) and a variant that cannot run here (exit 1, as bench). The failure lines
# (the worst element named) are test_check.c's, with rungs broken on purpose.
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_check

# expect_out NAME TEXT: stdout holds TEXT.
expect_out() {
    if grep -qF -- "$2" out.txt; then ok; else bad "$1: stdout lacks '$2': $(head -5 out.txt)"; fi
}

for k in gemm gemv transpose reduce dot conv2d entropy life; do
    if run 0 "check $k" check "$k" --variant cpu-naive --threads 2 --seed 42,7919,1234567; then
        cases=$(grep -c '^  ok ' out.txt)
        n=$("$PARLAB" check "$k" --cases | sed -n '1s/^[a-z0-9]*: \([0-9]*\) check cases.*/\1/p')
        # gemm's dtype=bf16 cases are for its BF16 rungs: cpu-naive skips them
        skip=$([ "$k" = gemm ] && "$PARLAB" check gemm --cases | grep -c 'dtype=bf16' || echo 0)
        [ "$cases" -eq $((3 * (n - skip))) ] && [ "$n" -ge 8 ] && [ "$(grep -c '^  skip ' out.txt)" -eq $((3 * skip)) ] ||
            bad "check $k: $cases ok lines for $n cases ($skip not taken) x 3 seeds"
        expect_out "check $k summary" "$k cpu-naive: $n cases x 3 seeds, 0 failed"
        grep -q "^$k cpu-naive: seeds 42, 7919, 1234567 (replay one with --seed S)$" out.txt || bad "check $k: seeds line"
        ! grep -q FAIL out.txt || bad "check $k: a FAIL line"
    fi
done

# gemm's BF16 rung without a GPU: the dtype=bf16 cases pass, the float32 ones are not taken
if run 0 "check gemm cpu-naive-bf16" check gemm --variant cpu-naive-bf16 --seed 42; then
    expect_out "cpu-naive-bf16 summary" "gemm cpu-naive-bf16: 27 cases x 1 seed, 0 failed, 15 not taken by this rung"
    grep -q "^  ok  *127x129x65  *dtype=bf16,pad=3  *seed 42" out.txt && ok || bad "cpu-naive-bf16: no ok line for 127x129x65"
    grep -q "^  skip  1  *-  *seed 42 *not taken: gemm cpu-naive-bf16: a BF16 rung takes dtype=bf16 only; this problem is dtype=f32" out.txt &&
        ok || bad "cpu-naive-bf16: the float32 1x1x1 case is not a skip: $(grep -m1 '^  skip' out.txt)"
fi

# the default seeds: 42, 7919 and one drawn now (transpose: exact, whatever the inputs)
run 0 "default seeds" check transpose --variant cpu-naive
grep -q "^transpose cpu-naive: seeds 42, 7919, [0-9]* (replay one with --seed S)$" out.txt && ok || bad "default seeds line"

# one seed, as a failed line is replayed
run 0 "one seed" check reduce --variant cpu-naive --seed 12345
expect_out "one seed" "reduce cpu-naive: seed 12345 (replay"
[ "$(grep -c '^  ok .* seed 12345 ' out.txt)" -eq 20 ] && ok || bad "one seed: $(grep -c '^  ok .* seed 12345 ' out.txt) lines, expected 20"
expect_out "one seed summary" "reduce cpu-naive: 20 cases x 1 seed, 0 failed"

# every rung that runs here, peers left out; a case a rung does not take is a skip, not a failure
run 0 "all life rungs" check life --seed 1
grep -q "^  skip  1 *gens=3  *seed 1 *not taken: cpu-sparse runs the plane" out.txt && ok || bad "cpu-sparse skips the torus"
expect_out "cpu-sparse summary" "life cpu-sparse: 19 cases x 1 seed, 0 failed, 10 not taken by this rung"

run 0 "--cases" check conv2d --cases
grep -q "^  31x17 *mode=same,border=reflect,flip=1$" out.txt && ok || bad "--cases"

run 2 "no kernel" check
expect_err "no kernel" "check: name a kernel"
run 2 "unknown kernel" check nope
expect_err "unknown kernel" "check: unknown kernel 'nope'"
run 2 "unknown variant" check gemm --variant cpu-nope
expect_err "unknown variant" "check: gemm has no variant 'cpu-nope'"
run 2 "bad seed" check gemm --seed -4
expect_err "bad seed" "check: --seed: '-4' is not a seed"
run 2 "bad seed in a list" check gemm --seed 1,x2
expect_err "bad seed in a list" "check: --seed: 'x2' is not a seed"
run 2 "unknown option" check gemm --size 17
expect_err "unknown option" "unknown option '--size'"
if [ $(( $("$PARLAB" list | grep -c 'no GPU' || true) )) -gt 0 ]; then
    run 1 "cuda rung without a GPU" check gemm --variant cuda-naive
    expect_err "cuda rung without a GPU" "check: cuda-naive cannot run here"
fi
run 0 "--help" check --help
expect_out "--help" "usage: parlab check KERNEL"

summary
