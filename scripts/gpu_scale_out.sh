#!/usr/bin/env bash
# gpu_scale_out.sh: weak scaling over the GPUs of one host (issue 24) and the CPU sweep of
# bench/scale_out.sh on its cores (issue 22), in one device call:
#   scripts/gpu_scale_out.sh [BUILD] [OUT]
# BUILD (default build-nccl) is configured with CUDA, MPI and NCCL and built if absent. Open MPI
# from .mpi (scripts/device_mpi_env.sh). Environment: GPUS ("1 2 4", capped at nvidia-smi's count),
# LIFE_GPU_SIZE (each GPU's block, default 32768), LIFE_GPU_GENS (160), CPU_SWEEP (1: run
# bench/scale_out.sh too), KERNELS_GPU (the benches: "life"; conv2d, entropy, gemm, reduce where
# they run on GPUs).
set -u
cd "$(dirname "$0")/.."
. scripts/device_mpi_env.sh
B=${1:-build-nccl}
OUT=${2:-${OUT:-gpu-scale-out}}
mkdir -p "$OUT"
if [ ! -x "$B/parlab" ]; then
    cmake -S . -B "$B" -DPARLAB_CUDA=ON -DPARLAB_MPI=ON -DPARLAB_NCCL=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 &&
        cmake --build "$B" -j "$(nproc)" >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log" "$OUT/configure.log"; exit 1; }
fi
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
echo "== $(nvidia-smi -L | head -1) x $ngpu; $(nproc) cores; $("$B/parlab" list 2>/dev/null | grep -E 'NCCL|MPI' | tr '\n' ' ')"
nvidia-smi topo -m 2>/dev/null | head -8
for k in ${KERNELS_GPU:-life}; do
    for g in ${GPUS:-1 2 4}; do
        [ "$g" -le "$ngpu" ] || continue
        case $k in
        life) args=(life "${LIFE_GPU_SIZE:-32768}" --gens "${LIFE_GPU_GENS:-160}" --variant cuda-tuned) ;;
        conv2d) args=(conv2d "${CONV_GPU_SIZE:-16384}" --variant cuda-tuned) ;;
        entropy) args=(entropy "${ENTROPY_GPU_SIZE:-16384}" --variant cuda-tuned) ;;
        gemm) args=(gemm "${GEMM_GPU_SIZE:-16384}" --variant cuda-tuned) ;;
        reduce) args=(reduce "${REDUCE_GPU_SIZE:-16384}" --variant cuda-tuned) ;;
        esac
        echo "== $k on $g GPUs: mpirun -n $g parlab bench ${args[*]}"
        timeout 300 mpirun -n "$g" --bind-to none "$B/parlab" bench "${args[@]}" --repeats 5 \
            --json "$OUT/gpu-$k-$g.json" 2>&1 | tee "$OUT/gpu-$k-$g.txt" | grep -v "^$"
    done
done
if [ "${CPU_SWEEP:-1}" = 1 ]; then
    THREADS=${THREADS:-1} RANKS=${RANKS:-"1 2 4 8 16"} REPEATS=${REPEATS:-3} LIFE_SIZE=${LIFE_SIZE:-8192} LIFE_GENS=${LIFE_GENS:-100} \
        CONV_SIZE=${CONV_SIZE:-4096} bench/scale_out.sh "$B/parlab" "$OUT/cpu" 2>&1 | tail -20
fi
