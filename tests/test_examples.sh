# test_examples.sh: the C examples of examples/ (users' own rungs, built as shared libraries in
# $PL_EXAMPLES_DIR) run through `parlab bench --rung` at small odd sizes, as examples/README.md
# runs them: every row verified and exit 0; the conv2d example's refusals (int32 data, a clamp
# border) fail their row with the code it returns. The CUDA and Python examples:
# test_examples_gpu.sh.
. "$(dirname "$0")/cli_lib.sh"
cli_setup examples
: "${PL_EXAMPLES_DIR:?set PL_EXAMPLES_DIR to the build folder of examples/}"
ex=$PL_EXAMPLES_DIR
export PARLAB_PEAKS_SANITY=off

# bench KERNEL ARGS...: out.txt, err.txt, $rc
bench() { "$PARLAB" bench "$@" --no-peaks --repeats 3 >out.txt 2>err.txt; rc=$?; }
# verified WHAT NAME ROWS: the last bench exited 0 and its table has ROWS rows of NAME, each "yes"
verified() {
    local n
    n=$(grep -Ec "^$2 .* yes( |$)" out.txt)
    if [ "$rc" -eq 0 ] && [ "$n" -eq "$3" ]; then ok; else bad "$1: exit $rc, $n of $3 rows of $2 verified"; cat out.txt err.txt; fi
}

# The student's two GEMMs beside parlab's cpu-naive: odd sizes, a square one, and one past every
# block edge of the blocked one (64 rows, 256 columns, 256 along k).
gemm_sizes=33x65x17,64,130x300x270
bench gemm --size $gemm_sizes --variant cpu-naive --rung "$ex/libgemm_naive.so:my_sgemm_naive" --rung-name naive \
    --rung "$ex/libgemm_blocked.so:my_sgemm_blocked" --rung-name blocked
verified "gemm" naive 3
verified "gemm" blocked 3
verified "gemm" cpu-naive 3
# alpha, beta (C read and scaled) and row pitches wider than the rows
bench gemm --size 33x65x17 --set alpha=1.5 --set beta=-0.5 --set pad=3 --rung "$ex/libgemm_naive.so:my_sgemm_naive" \
    --rung-name naive --rung "$ex/libgemm_blocked.so:my_sgemm_blocked" --rung-name blocked --variant cpu-naive
verified "gemm alpha, beta, pad" naive 1
verified "gemm alpha, beta, pad" blocked 1
# The README's first step: results to JSON, the user's rung among them under its name.
bench gemm --size 33x65x17 --variant cpu-naive --rung "$ex/libgemm_naive.so:my_sgemm_naive" --rung-name naive \
    --json old.json
verified "gemm --json" naive 1
grep -q '"variant": "naive"' old.json && ok || bad "old.json has no row of the rung naive"

# The AVX2 conv2d (x86-64 builds only): valid and same (zero border), k 3 and 5, a flipped
# filter and padded rows.
if [ -e "$ex/libconv2d_avx2.so" ]; then
    conv=("$ex/libconv2d_avx2.so:my_conv2d_avx2" --rung-name mine)
    for mode in valid same; do
        for k in 3 5; do
            bench conv2d --size 40x36 --set mode=$mode --set k=$k --variant cpu-naive --rung "${conv[@]}"
            verified "conv2d $mode k=$k" mine 1
        done
    done
    bench conv2d --size 37x41 --set mode=same --set k=5 --set flip=1 --set pad=3 --variant cpu-naive --rung "${conv[@]}"
    verified "conv2d same, flip, pad" mine 1
    # a filter wider than the image's interior in same mode: every column near an edge
    bench conv2d --size 9x6 --set mode=same --set k=7 --variant cpu-naive --rung "${conv[@]}"
    verified "conv2d same, k 7 over 9x6" mine 1
    # What it refuses fails its row with its code; cpu-naive beside it still verified.
    bench conv2d --size 40x36 --set dtype=i32 --variant cpu-naive --rung "${conv[@]}"
    [ "$rc" -eq 1 ] && grep -q "mine returned 10" err.txt && grep -q '^cpu-naive .* yes' out.txt && ok ||
        { bad "conv2d i32: exit $rc, expected 1 with 'mine returned 10'"; cat out.txt err.txt; }
    bench conv2d --size 40x36 --set mode=same --set border=clamp --variant cpu-naive --rung "${conv[@]}"
    [ "$rc" -eq 1 ] && grep -q "mine returned 11" err.txt && ok ||
        { bad "conv2d clamp: exit $rc, expected 1 with 'mine returned 11'"; cat out.txt err.txt; }
else
    echo "skipped: conv2d_avx2 (built only where the compiler targets x86-64)"
fi

echo "test_examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
