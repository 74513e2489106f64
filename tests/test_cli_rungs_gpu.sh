# test_cli_rungs_gpu.sh: CUDA user rungs (parlab bench --rung on the GPU): a correct rung on the
# stream parlab passes verifies; one that launches on a stream of its own is caught as
# off-stream work; a CUDA fault (an illegal address) ends its own row, not the bench; parlab's
# own cuda-tuned loaded as a user rung verifies beside the built-in one. Skipped without a GPU.
. "$(dirname "$0")/cli_lib.sh"
cli_setup rungs_gpu
"$PARLAB" list 2>/dev/null | grep -q "GPU: " || { echo "skipped: no GPU"; exit 77; }
[ -n "${PL_WRONG_RUNGS_CUDA:-}" ] || { echo "skipped: no GPU (a build without CUDA)"; exit 77; }
lib=$PL_WRONG_RUNGS_CUDA
export PARLAB_PEAKS_SANITY=off

bench() { "$PARLAB" bench "$@" --no-peaks --repeats 5 >out.txt 2>err.txt; rc=$?; }
expect() {
    if [ "$rc" -ne "$1" ]; then bad "$2: exit $rc, expected $1"; cat out.txt err.txt; return; fi
    if grep -Eq -- "$3" out.txt err.txt; then ok; else bad "$2: no '$3' in the output"; cat out.txt err.txt; fi
}

bench transpose --size 4097x3071,8192 --variant cuda-naive-read --rung "$lib:good_transpose_cuda" --rung-name mine
expect 0 "a correct CUDA rung" '^mine .* yes'
[ "$(grep -c '^mine .* yes' out.txt)" = 2 ] && ok || bad "the correct CUDA rung at both sizes"

bench transpose --size 8192 --variant cuda-naive-read --rung "$lib:off_stream_transpose_cuda"
expect 1 "off-stream launch" "off-stream work"
grep -q '^cuda-naive-read .* yes' out.txt && ok || bad "off-stream: cuda-naive-read beside it"

bench transpose --size 2048,1024 --variant cuda-naive-read --rung "$lib:fault_transpose_cuda" --rung-timeout 60
expect 1 "a CUDA fault" "fault_transpose_cuda 2048: .*(illegal|CUDA|crashed|without a result)"
[ "$(grep -c '^cuda-naive-read .* yes' out.txt)" = 2 ] && ok || bad "after a CUDA fault, cuda-naive-read ran at both sizes"
grep -Eq "fault_transpose_cuda 1024: .*(illegal|CUDA|crashed|without a result)" err.txt && ok || bad "the fault at the second size too (a fresh worker)"

if [ -n "${PL_SAME_CODE_RUNGS:-}" ]; then
    bench gemm --size 1024,4095 --variant cuda-tuned --rung "$PL_SAME_CODE_RUNGS:same_gemm_cuda_tuned" --rung-name user-cuda-tuned
    expect 0 "parlab's cuda-tuned as a user rung" '^user-cuda-tuned .* yes'
    cat out.txt
fi

echo "test_cli_rungs_gpu: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
