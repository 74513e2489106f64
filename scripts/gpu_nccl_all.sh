#!/usr/bin/env bash
# gpu_nccl_all.sh: one device call for the distributed kernels on several GPUs (issue 24) and the
# CPU sweep of the MPI path (issue 22), on a lent machine of several GPUs:
#   1. one build (CUDA, MPI, NCCL; Open MPI from .mpi: scripts/device_mpi_env.sh);
#   2. the NCCL tests side by side (each compares 1, 2 and 4 ranks with one process);
#      meanwhile the CPU weak-scaling sweep of Life (bench/scale_out.sh, one thread a rank);
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

ctest --test-dir "$B" -R 'test_mpi_nccl_(life|gemm|stencil)$' -j 3 --timeout 240 --output-on-failure >"$L/ctest_nccl.log" 2>&1 &
pt=$!
if [ "${CPU_SWEEP:-1}" = 1 ]; then
    (THREADS=1 RANKS="1 2 4 8 16" REPEATS=3 LIFE_SIZE=8192 LIFE_GENS=96 CONV_SIZE=4096 KERNELS=life \
        timeout 200 bench/scale_out.sh "$B/parlab" "$L/cpu" >"$L/cpu_sweep.log" 2>&1) &
    pc=$!
fi
wait $pt
stamp "NCCL tests: $(grep -E 'tests passed' "$L/ctest_nccl.log")"
grep -E "Test +#|passed, |bad:|FAIL" "$L/ctest_nccl.log" | head -20
[ "${CPU_SWEEP:-1}" = 1 ] && wait $pc && stamp "CPU sweep done"

bench() { # bench KERNEL SIZE ARGS...: on G ranks, a GPU each
    local k=$1 s=$2
    shift 2
    timeout 200 mpirun -n "$G" --bind-to none "$B/parlab" bench "$k" "$s" --variant cuda-tuned --repeats 5 \
        --json "$L/bench_${k}_$G.json" "$@" >"$L/bench_${k}_$G.log" 2>&1
    echo "-- bench $k $s $* on $G GPUs: exit $?"
    grep -vE "^$|^\(time" "$L/bench_${k}_$G.log" | grep -v "^prterun\|^---\|Process name\|Exit code\|thus causing" | tail -8
}
bench life 32768 --gens 160
bench conv2d 16384
bench entropy 16384
bench gemm 16384
bench reduce 16384
stamp "benches"
[ "${CPU_SWEEP:-1}" = 1 ] && { echo "== CPU sweep (one thread a rank)"; tail -9 "$L/cpu_sweep.log"; }
tar czf "$OUT/logs.tgz" -C "$OUT" logs && rm -rf "$L"
stamp "done"
