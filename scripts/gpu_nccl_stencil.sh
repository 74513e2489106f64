#!/usr/bin/env bash
# gpu_nccl_stencil.sh: distributed conv2d and entropy on GPUs, halos on NCCL (issue 24), in one
# call on a GPU machine, from the repo root: build build-nccl (CUDA, MPI, NCCL, Release; only
# the command and the MPI checks), run test_mpi_nccl_stencil, then the weak-scaling bench
# `mpirun -n G parlab bench conv2d|entropy 8192 --variant cuda-tuned` for G = 1, 2, 4 (at most
# the GPUs nvidia-smi lists; at the largest G also --overlap off), and print one table last: per G the time, the efficiency against
# the same rung on one GPU with its data resident, compute / exchange / wait (CUDA events),
# and the alpha-beta model's exchange time. Needs mpirun on PATH (Open MPI as root: the
# OMPI_ALLOW_RUN_AS_ROOT* variables set). Logs go to $OUT (or ./gpu-logs).
# usage: scripts/gpu_nccl_stencil.sh [SIZE]   (each rank's block, default 8192)
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
size=${1:-8192}
export PATH="$PATH:/usr/local/cuda/bin" NCCL_NVLS_ENABLE=0
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
nvidia-smi -L | tee "$OUT/gpus.txt"
t0=$(date +%s)
cmake -S . -B build-nccl -DPARLAB_CUDA=ON -DPARLAB_MPI=ON -DPARLAB_NCCL=ON -DCMAKE_BUILD_TYPE=Release \
    >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build-nccl -j "$(nproc)" --target parlab_cli stencil_check dist_check >"$OUT/build.log" 2>&1 ||
    { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
echo "== built in $(($(date +%s) - t0)) s; test_mpi_nccl_stencil"
ctest --test-dir build-nccl -R 'test_mpi_nccl_stencil' --output-on-failure 2>&1 | tee "$OUT/ctest.log" |
    grep -E "stencil_check|passed|failed|skipped|FAIL|Test +#"

MPI_FLAGS=(--bind-to none)
if mpirun --version 2>&1 | grep -q "Open MPI"; then MPI_FLAGS+=(--mca btl self,vader --mca pml ob1); fi
rows=()
most=1
for G in 1 2 4; do [ "$G" -le "${gpus:-0}" ] && most=$G; done
# bench KERNEL G OVERLAP: one weak-scaling bench; its distributed row into the summary
bench() {
    local k=$1 G=$2 ov=$3 log="$OUT/bench_$1_$2_$3.log" rc row base path
    echo "== mpirun -n $G parlab bench $k $size --variant cuda-tuned --overlap $ov"
    timeout 150 mpirun -n "$G" "${MPI_FLAGS[@]}" build-nccl/parlab bench "$k" "$size" --variant cuda-tuned \
        --overlap "$ov" --repeats 10 --json "$OUT/bench_${k}_${G}_$ov.json" >"$log" 2>&1
    rc=$?
    cat "$log"
    # the distributed row of the table (the one that is not the baseline), and the path line
    row=$(awk '/^ *[0-9]+  +[0-9]+x[0-9]+ / && !/baseline/' "$log" | tail -1)
    base=$(awk '/baseline/ {print $4}' "$log" | tail -1)
    path=$(grep -q "between GPUs on NCCL" "$log" && echo nccl || echo host)
    grep -q "the interior computed while" "$log" && path="$path+overlap"
    rows+=("$(printf '%-8s %-4s %s rc=%d base=%sms path=%s' "$k" "$ov" "${row:-(no row)}" "$rc" "${base:--}" "$path")")
}
for k in conv2d entropy; do
    for G in 1 2 4; do
        [ "$G" -le "$most" ] && bench "$k" "$G" auto
    done
    [ "$most" -ge 2 ] && bench "$k" "$most" off # the exchange not hidden: which is faster on GPUs?
done
echo
echo "== summary ($gpus GPUs; $size x $size a rank, weak scaling; total $(($(date +%s) - t0)) s)"
echo "kernel   ovl  ranks  grid     problem        time (ms)  pixels/s   efficiency  compute  exchange  wait  model (ms)"
for r in "${rows[@]}"; do echo "$r"; done
