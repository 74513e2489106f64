#!/usr/bin/env bash
# gpu_stencil_overlap.sh: conv2d and entropy on all GPUs of the machine, weak scaling, blocks of
# 8192^2 and 16384^2 a GPU, overlap auto (interior and rims apart) against off (one launch after
# the halo): which the GPU path should do by default (issue 24). Build: parlab_cli only.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/device_mpi_env.sh
B=${BUILD:-build-nccl}
G=$(nvidia-smi -L | grep -c '^GPU')
cmake -S . -B "$B" -DPARLAB_CUDA=ON -DPARLAB_MPI=ON -DPARLAB_NCCL=ON -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1 &&
    cmake --build "$B" -j "$(nproc)" --target parlab_cli >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for k in conv2d entropy; do
    for s in ${SIZES:-8192 16384}; do
        for ov in auto off; do
            [ "$k" = entropy ] && [ "$s" = 16384 ] && [ "$ov" = auto ] && continue
            echo "== $k $s a GPU, $G GPUs, overlap $ov"
            timeout 100 mpirun -n "$G" --bind-to none "$B/parlab" bench "$k" "$s" --variant cuda-tuned --overlap "$ov" \
                --repeats 10 2>&1 | grep -E "^(path|model|check)|^ +[0-9]+ +[0-9]+x[0-9]+ "
        done
    done
done
