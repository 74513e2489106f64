# test_cli_rungs_gpu.sh: CUDA user rungs (parlab bench --rung on the GPU): a correct rung on the
# stream parlab passes verifies; one that launches on a stream of its own is caught as
# off-stream work; a CUDA fault (an illegal address) ends its own row, not the bench; parlab's
# own cuda-tuned loaded as a user rung verifies beside the built-in one. Skipped without a GPU.
. "$(dirname "$0")/cli_lib.sh"
cli_setup rungs_gpu
"$PARLAB" list 2>/dev/null | grep -q "GPU: " || { echo "skipped: no GPU"; exit 77; }
[ -n "${PL_WRONG_RUNGS_CUDA:-}" ] || { echo "skipped: no CUDA build (no GPU rungs to load)"; exit 77; }
lib=$PL_WRONG_RUNGS_CUDA
export PARLAB_PEAKS_SANITY=off

BENCH_REPEATS=5

bench transpose --size 4097x3071,8192 --variant cuda-naive-read --rung "$lib:good_transpose_cuda" --rung-name mine
bench_said 0 "a correct CUDA rung" '^mine .* yes'
[ "$(grep -c '^mine .* yes' out.txt)" = 2 ] && ok || bad "the correct CUDA rung at both sizes"

bench transpose --size 8192 --variant cuda-naive-read --rung "$lib:off_stream_transpose_cuda"
bench_said 1 "off-stream launch" "off-stream work"
grep -q '^cuda-naive-read .* yes' out.txt && ok || bad "off-stream: cuda-naive-read beside it"

bench transpose --size 2048,1024 --variant cuda-naive-read --rung "$lib:fault_transpose_cuda" --rung-timeout 60
bench_said 1 "a CUDA fault" "fault_transpose_cuda 2048: .*(illegal|CUDA|crashed|without a result)"
[ "$(grep -c '^cuda-naive-read .* yes' out.txt)" = 2 ] && ok || bad "after a CUDA fault, cuda-naive-read ran at both sizes"
grep -Eq "fault_transpose_cuda 1024: .*(illegal|CUDA|crashed|without a result)" err.txt && ok || bad "the fault at the second size too (a fresh worker)"

if [ -n "${PL_SAME_CODE_RUNGS:-}" ]; then
    bench gemm --size 1024,4095 --variant cuda-tuned --rung "$PL_SAME_CODE_RUNGS:same_gemm_cuda_tuned" --rung-name user-cuda-tuned
    bench_said 0 "parlab's cuda-tuned as a user rung" '^user-cuda-tuned .* yes'
    cat out.txt
fi

# Every kernel's CUDA call_user: its first CUDA rung called through the kernel's rung signature
# on the stream parlab passes (tests/rungs/same_code.c), odd sizes, parameters off their defaults.
if [ -n "${PL_SAME_CODE_RUNGS:-}" ]; then
    each_kernel() { # KERNEL SIZE [SETTINGS]
        set -- "$1" "$2" "${3:-}" ${3:+--set "$3"}
        bench "$1" --size "$2" "${@:4}" --rung "$PL_SAME_CODE_RUNGS:best_$1_cuda" --rung-name user
        bench_said 0 "$1 through its CUDA rung signature (${3:-})" '^user .* yes'
    }
    each_kernel gemm 33x65x17 alpha=2,beta=0.5,pad=3
    each_kernel gemv 47x61 trans=t,alpha=-1.5,beta=2,pad=1
    each_kernel transpose 37x53 pad=2
    each_kernel reduce 45x67 op=max,axis=0,offset=1
    each_kernel dot 1001
    each_kernel conv2d 40x36 mode=same,border=reflect,flip=1,k=5,pad=1
    each_kernel entropy 37x41 k=7,bins=5,base=2,pad=3
    each_kernel life 130x70 rule=B36/S23,topology=plane,gens=3
fi

echo "test_cli_rungs_gpu: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
