# test_examples.sh: the examples of examples/ (users' own rungs, shared libraries built in
# $PL_EXAMPLES_DIR) run as examples/README.md runs them, at small odd sizes: every row verified
# and exit 0. The CPU part (this test): the naive and blocked GEMMs and the AVX2 conv2d through
# `parlab bench --rung`, and the conv2d's refusals (int32 data, a clamp border) failing their row
# with the code it returns. The GPU part (test_examples_gpu.sh runs this script with
# PL_EXAMPLES_PART=gpu; skipped without a GPU): the CUDA shared-memory GEMM, and the Python rungs
# (transpose_cupy.py, reduce_torch.py) where an interpreter has CuPy or PyTorch and parlab's
# package with parlab.rung.
examples_src=$(cd "$(dirname "$0")/../examples" && pwd)
. "$(dirname "$0")/cli_lib.sh"
part=${PL_EXAMPLES_PART:-cpu}
cli_setup "examples_$part"
: "${PL_EXAMPLES_DIR:?set PL_EXAMPLES_DIR to the build folder of examples/}"
ex=$PL_EXAMPLES_DIR
export PARLAB_PEAKS_SANITY=off

# bench KERNEL ARGS...: out.txt, err.txt, $rc
# verified WHAT NAME ROWS: the last bench exited 0 and its table has ROWS rows of NAME, each "yes"
verified() {
    local n
    n=$(grep -Ec "^$2 .* yes( |$)" out.txt)
    if [ "$rc" -eq 0 ] && [ "$n" -eq "$3" ]; then ok; else bad "$1: exit $rc, $n of $3 rows of $2 verified"; cat out.txt err.txt; fi
}

cpu_examples() {
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
}

# python_example SCRIPT MODULE CHECK ARGS...: runs SCRIPT where an interpreter imports MODULE and
# parlab with parlab.rung and CHECK (Python) says a GPU is there; every row of mine verified.
python_example() {
    local script=$1 module=$2 check=$3 py
    shift 3
    if ! py=$(test_python "$module" parlab); then
        echo "skipped: $script (no Python with $module and parlab's package)"; return
    fi
    if ! "$py" -c "import parlab, sys; sys.exit(0 if hasattr(parlab, 'rung') else 1)"; then
        echo "skipped: $script (this parlab package has no parlab.rung)"; return
    fi
    if ! "$py" -c "import $module, sys; sys.exit(0 if $check else 1)" >/dev/null 2>&1; then
        echo "skipped: $script ($module sees no GPU)"; return
    fi
    "$py" "$examples_src/$script" "$@" >out.txt 2>err.txt; rc=$?
    if [ "$rc" -eq 0 ] && grep -Eq '^mine .* yes$' out.txt && ! grep -q ' NO$' out.txt; then ok
    else bad "$script: exit $rc"; cat out.txt err.txt; fi
}

gpu_examples() {
    # A GPU here: parlab's own cuda-shared GEMM can run ("+" in parlab list).
    if ! "$PARLAB" list gemm 2>/dev/null | grep -Eq '^ *\+ cuda-shared '; then
        echo "skipped: no GPU"
        exit 77
    fi
    [ -e "$ex/libgemm_shared.so" ] || { bad "a GPU, but no $ex/libgemm_shared.so (a build without CUDA?)"; exit 1; }

    # Sizes that are no multiple of the 32 x 32 tile, one of them, and a larger odd one.
    gemm=("$ex/libgemm_shared.so:my_sgemm_shared" --rung-name mine)
    bench gemm --size 33x65x17,64,1000x1001x999 --variant cuda-naive,cuda-shared --rung "${gemm[@]}"
    verified "cuda gemm" mine 3
    verified "cuda gemm" cuda-shared 3
    bench gemm --size 33x65x17 --set alpha=1.5 --set beta=-0.5 --set pad=3 --variant cuda-shared --rung "${gemm[@]}"
    verified "cuda gemm alpha, beta, pad" mine 1

    python_example transpose_cupy.py cupy "cupy.cuda.runtime.getDeviceCount() > 0" 257x129 1024
    python_example reduce_torch.py torch "torch.cuda.is_available()" sum 257x129 1024
}

${part}_examples
echo "test_examples ($part): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
