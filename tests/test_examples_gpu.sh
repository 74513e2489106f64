# test_examples_gpu.sh: the GPU examples of examples/: the CUDA shared-memory SGEMM (a shared
# library in $PL_EXAMPLES_DIR) through `parlab bench --rung` at odd sizes, every row verified;
# the Python rungs (transpose_cupy.py, reduce_torch.py) run as the README runs them, where an
# interpreter has CuPy or PyTorch and parlab's package with parlab.rung. Skipped (exit 77)
# without a GPU; a Python example without its packages is skipped with the reason.
examples_src=$(cd "$(dirname "$0")/../examples" && pwd)
. "$(dirname "$0")/cli_lib.sh"
cli_setup examples_gpu
: "${PL_EXAMPLES_DIR:?set PL_EXAMPLES_DIR to the build folder of examples/}"
ex=$PL_EXAMPLES_DIR
export PARLAB_PEAKS_SANITY=off

# A GPU here: parlab's own cuda-shared GEMM can run ("+" in parlab list).
if ! "$PARLAB" list gemm 2>/dev/null | grep -Eq '^ *\+ cuda-shared '; then
    echo "skipped: no GPU"
    exit 77
fi
[ -e "$ex/libgemm_shared.so" ] || { bad "a GPU, but no $ex/libgemm_shared.so (a build without CUDA?)"; exit 1; }

bench() { "$PARLAB" bench "$@" --no-peaks --repeats 3 >out.txt 2>err.txt; rc=$?; }
verified() { # WHAT NAME ROWS
    local n
    n=$(grep -Ec "^$2 .* yes( |$)" out.txt)
    if [ "$rc" -eq 0 ] && [ "$n" -eq "$3" ]; then ok; else bad "$1: exit $rc, $n of $3 rows of $2 verified"; cat out.txt err.txt; fi
}

# Sizes that are no multiple of the 32 x 32 tile, one of them, and a larger odd one.
gemm=("$ex/libgemm_shared.so:my_sgemm_shared" --rung-name mine)
bench gemm --size 33x65x17,64,1000x1001x999 --variant cuda-naive,cuda-shared --rung "${gemm[@]}"
verified "cuda gemm" mine 3
verified "cuda gemm" cuda-shared 3
bench gemm --size 33x65x17 --set alpha=1.5 --set beta=-0.5 --set pad=3 --variant cuda-shared --rung "${gemm[@]}"
verified "cuda gemm alpha, beta, pad" mine 1

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
python_example transpose_cupy.py cupy "cupy.cuda.runtime.getDeviceCount() > 0" 257x129 1024
python_example reduce_torch.py torch "torch.cuda.is_available()" sum 257x129 1024

echo "test_examples_gpu: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
