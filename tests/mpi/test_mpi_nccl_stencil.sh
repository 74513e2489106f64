#!/usr/bin/env bash
# test_mpi_nccl_stencil.sh: distributed conv2d and entropy on the GPU path
# (src/distributed/nccl/nccl_window.c): the window on each rank's GPU, halos packed there and traded on
# NCCL, the CUDA rung through pl_run_device on device pointers. tests/mpi/stencil_check.c in
# its cuda mode: every border and mode, int32 and float32, K = 3, 5, 7, entropy k = 3, 5, 7
# with 16 and 256 bins, sizes that do not divide (7x5, 67x61, 1000x1001), overlap on, off
# and auto (auto through the resident calls), against the one-process GPU run (int32 and
# entropy bit for bit, float32 within the bound), the path checked on every plan:
#   - 1 rank on the NCCL path (one GPU; no neighbour, so no message: the device window, the
#     border on the device and the parts on device pointers);
#   - on a machine with one GPU, 2 ranks fall back to the host path (NCCL takes a GPU a rank)
#     with the same answer;
#   - with 2 or 3 GPUs 2 ranks, with >= 4 GPUs 4 ranks on the NCCL path: the exchange itself.
# Then the bench on one rank: `bench conv2d|entropy --variant cuda-tuned` checks its run and
# says it ran between GPUs on NCCL.
# Labels mpi and gpu: skipped (77) without MPI, without NCCL in the build, or without a GPU.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_nccl_stencil
if [ "${PL_HAVE_NCCL:-OFF}" != ON ]; then echo "skipped: no NCCL (this build has none: PARLAB_NCCL)"; exit 77; fi
if "$PARLAB" list | head -1 | grep -q "no CUDA build\|no GPU"; then echo "skipped: no GPU"; exit 77; fi
check="$(dirname "$PL_DIST_CHECK")/stencil_check"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

# stencil P PATH: stencil_check's cuda mode on P ranks, every plan on PATH (nccl or host)
stencil() {
    if OMP_NUM_THREADS=1 run_n "$1" 280 "$check" cuda "$2"; then
        ok
        grep "stencil_check cuda" out.txt
    else
        bad "stencil_check cuda $2 on $1 ranks: status $? $(cat out.txt err.txt | grep -v '^---\|^ *$' | head -20)"
    fi
}

stencil 1 nccl
if [ "${gpus:-0}" -lt 2 ]; then
    stencil 2 host
elif [ "$gpus" -ge 4 ]; then
    stencil 4 nccl # a 2x2 grid: sides and corners (1 and 4 ranks took 20 s on 4 H200s once the NCCL communicator was kept)
else
    stencil 2 nccl
fi

# the bench on the GPU path: its own check passes and its table names the path
for k in conv2d entropy; do
    if run_n 1 120 "$PARLAB" bench "$k" 512 --variant cuda-tuned --repeats 2 && grep -q "between GPUs on NCCL" out.txt &&
        grep -q "^check: every pixel" out.txt; then ok
    else bad "bench $k on 1 rank: status $?: $(head -3 err.txt; head -4 out.txt)"; fi
done
summary test_mpi_nccl_stencil
