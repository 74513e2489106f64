#!/usr/bin/env bash
# gpu_nccl_all.sh: one device call for the distributed kernels on several GPUs (issue 24) and the
# CPU sweep of the MPI path (issue 22), on a lent machine of several GPUs:
#   1. one build (CUDA, MPI, NCCL; Open MPI from .mpi: scripts/device_mpi_env.sh);
#   2. the NCCL tests side by side (each compares 1, 2 and 4 ranks with one process); beside
#      them compute-sanitizer's memcheck over the GPU path on 2 ranks (SANITIZE=1, default);
#      with CPU_SWEEP=1 the CPU weak-scaling sweep of Life (bench/scale_out.sh, a thread a rank);
#   3. the weak-scaling benches on G GPUs (GPUS, default the machine's count), each alone: life
#      32768^2 a GPU (160 generations), conv2d and entropy 16384^2 a GPU, gemm 16384^2 of C a GPU
#      (SUMMA), reduce 16384^2 a GPU; each table has the one-GPU baseline of the same run.
# scripts/gpu_stencil_overlap.sh is the overlap study of the stencils; scripts/gpu_records.sh
# the one-GPU records of issue 23.
# The logs go into $OUT/logs.tgz (the device tool brings back few files); the summary prints last.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/device_mpi_env.sh
OUT=${OUT:-gpu-logs}
L=$OUT/logs
mkdir -p "$L"
B=${BUILD:-build-nccl}
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
gpus=$(nvidia-smi -L | grep -c '^GPU')
G=${GPUS:-$gpus}
nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader >"$L/gpu.txt"
cmake -S . -B "$B" -DPARLAB_CUDA=ON -DPARLAB_MPI=ON -DPARLAB_NCCL=ON -DCMAKE_BUILD_TYPE=Release >"$L/configure.log" 2>&1 &&
    cmake --build "$B" -j "$(nproc)" >"$L/build.log" 2>&1 || { grep -E "error|Error" "$L/build.log" | head -30; tail -20 "$L/configure.log"; }
stamp "built: $(head -1 "$L/gpu.txt") x $gpus; $("$B/parlab" list | grep -E '^NCCL' | cut -c1-40)"

# the NCCL tests, and beside them compute-sanitizer (memcheck) over the GPU path on 2 ranks:
# the stencils (stencil_check's cuda mode: device window, packing, border, exchange), Life
# (`parlab life` on a torus), SUMMA and the reductions (their benches, which check each block)
ctest --test-dir "$B" -R "${NCCL_TESTS:-test_mpi_nccl_(life|gemm|stencil)\$}" -j 3 --timeout 420 --output-on-failure >"$L/ctest_nccl.log" 2>&1 &
pt=$!
# the one-GPU Life rungs (cuda-tuned's plane mask is made once a tile): the test and memcheck
if [ "${LIFE_GPU:-1}" = 1 ]; then
    (CUDA_VISIBLE_DEVICES=3 timeout 300 "$B/tests/test_life_gpu" --rung cuda-tuned >"$L/life_gpu.log" 2>&1; echo "exit $?" >>"$L/life_gpu.log"
     CUDA_VISIBLE_DEVICES=3 PL_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 "$B/tests/test_life_gpu" --quick --rung cuda-tuned >"$L/life_gpu_memcheck.log" 2>&1; echo "exit $?" >>"$L/life_gpu_memcheck.log") &
    pl=$!
fi
san() { # san LOG GPUS CMD...: 2 ranks, each under memcheck, on the GPUs named
    local log=$1 gpus=$2
    shift 2
    CUDA_VISIBLE_DEVICES=$gpus timeout 300 mpirun -n 2 --bind-to none compute-sanitizer --tool memcheck \
        --report-api-errors no --error-exitcode 3 --print-limit 20 "$@" >"$L/$log" 2>&1
    echo "exit $?" >>"$L/$log"
}
if [ "${SANITIZE:-1}" = 1 ]; then
    (san san_stencil.log 2,3 "$B/tests/stencil_check" cuda nccl) &
    ps1=$!
    (san san_life.log 0,1 "$B/parlab" life --soup 1000x1001 --torus 1000x1001 --gens 64 --variant cuda-tuned &&
        san san_gemm.log 0,1 "$B/parlab" bench gemm 1000 --variant cuda-tuned --repeats 1 &&
        san san_reduce.log 0,1 "$B/parlab" bench reduce 2000 --variant cuda-tuned --repeats 1) &
    ps2=$!
fi
if [ "${CPU_SWEEP:-0}" = 1 ]; then
    (THREADS=1 RANKS="1 2 4 8 16" REPEATS=3 LIFE_SIZE=8192 LIFE_GENS=96 CONV_SIZE=4096 KERNELS=life \
        timeout 200 bench/scale_out.sh "$B/parlab" "$L/cpu" >"$L/cpu_sweep.log" 2>&1) &
    pc=$!
fi
wait $pt
stamp "NCCL tests: $(grep -E 'tests passed' "$L/ctest_nccl.log")"
grep -E "Test +#|passed, |bad:|FAIL|stencil_check cuda" "$L/ctest_nccl.log" | head -24
if [ "${SANITIZE:-1}" = 1 ]; then
    wait $ps1 $ps2
    for f in "$L"/san_*.log; do
        printf '%-16s %s | %s\n' "$(basename "$f")" "$(tail -1 "$f")" "$(grep -E 'ERROR SUMMARY|stencil_check cuda|population|^check' "$f" | sort | uniq -c | head -4 | tr '\n' ' ')"
    done
    stamp "sanitizer"
fi
[ "${CPU_SWEEP:-0}" = 1 ] && wait $pc && stamp "CPU sweep done"
if [ "${LIFE_GPU:-1}" = 1 ]; then
    wait $pl
    for f in life_gpu life_gpu_memcheck; do
        printf '%-18s %s | %s\n' $f "$(tail -1 "$L/$f.log")" "$(grep -E 'passed|failed|ERROR SUMMARY' "$L/$f.log" | tail -2 | tr '\n' ' ')"
    done
    # Life on one GPU: the torus against the plane, and a plane of the distributed window's width
    for t in "32768 torus" "32768 plane" "32832 plane"; do
        set -- $t
        "$B/parlab" bench life "$1" --variant cuda-tuned --set gens=160,topology="$2" --repeats 5 2>&1 | grep -E "^cuda-tuned" | cut -c1-110
    done
    stamp "one-GPU Life"
fi

bench() { # bench KERNEL SIZE ARGS...: on G ranks, a GPU each (skipped past LIMIT s)
    local k=$1 s=$2
    shift 2
    local left=$((${LIMIT:-560} - $(date +%s) + t0))
    if [ "$left" -lt 40 ]; then echo "-- bench $k: no time left"; return; fi
    [ "$left" -gt 200 ] && left=200
    timeout "$left" mpirun -n "$G" --bind-to none "$B/parlab" bench "$k" "$s" --variant cuda-tuned --repeats 5 \
        --json "$L/bench_${k}_$G.json" "$@" >"$L/bench_${k}_$G.log" 2>&1
    echo "-- bench $k $s $* on $G GPUs: exit $?"
    grep -vE "^$|^\(time" "$L/bench_${k}_$G.log" | grep -v "^prterun\|^---\|Process name\|Exit code\|thus causing" | tail -8
}
for k in ${BENCHES:-reduce gemm conv2d life entropy}; do
    case $k in
    life) bench life 32768 --gens 160 ;;
    *) bench "$k" 16384 ;;
    esac
done
stamp "benches"
[ "${CPU_SWEEP:-0}" = 1 ] && { echo "== CPU sweep (one thread a rank)"; tail -9 "$L/cpu_sweep.log"; }
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
stamp "done"
