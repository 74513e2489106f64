#!/usr/bin/env bash
# test_mpi_nccl_life.sh: distributed Life on the GPU path (src/distributed/nccl/nccl_life.c):
# `mpirun -n 1 parlab life ... --variant cuda-tuned|cuda-bitpacked` keeps the block on the GPU,
# packs and unpacks the halo strips there and trades them on NCCL (on a torus one rank is its
# own neighbour in all 8 directions: every strip goes through ncclSend/ncclRecv to itself).
# It must equal the one-process GPU run bit for bit (the RLE and the generation lines): torus
# and plane, two rules, odd sizes, halo 1/9/default, overlap on/off. Then 2 ranks on one GPU:
# NCCL takes one GPU a rank, so they fall back to the host path on MPI, with the same answer.
# On a machine with 2 or 4 GPUs two of the cases (a torus, a plane) also run on 2 and 4 ranks,
# one GPU each (strips between GPUs). Last, `parlab bench life` on the GPU path: each rank checks its block.
# Labels mpi and gpu: skipped (77) without MPI, without NCCL in the build, or without a GPU.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_nccl_life
if [ "${PL_HAVE_NCCL:-OFF}" != ON ]; then echo "skipped: no NCCL (this build has none: PARLAB_NCCL)"; exit 77; fi
if "$PARLAB" list | head -1 | grep -q "no CUDA build\|no GPU"; then echo "skipped: no GPU"; exit 77; fi
data="$(cd "$(dirname "$0")/../data/life" && pwd)"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
ranks="1"
[ "${gpus:-0}" -ge 2 ] && ranks="$ranks 2"
[ "${gpus:-0}" -ge 4 ] && ranks="$ranks 4"
echo "GPUs: ${gpus:-0}; the NCCL path on $ranks rank(s)"

# same CASE GENS ARGS...: the one-process GPU run of each CUDA rung, then the same on one rank
# (NCCL) with three halo settings, and on 2 and 4 ranks where there are GPUs for them; the
# outputs and the "generation" lines must be the same.
same() {
    local case=$1 gens=$2 v opts p ps
    ps=$ranks
    case $case in "1000x1001 torus"* | "67x61 plane"*) ;; *) ps=1 ;; esac # several GPUs: two cases (each NCCL start costs seconds)
    shift 2
    for v in cuda-tuned cuda-bitpacked; do
        "$PARLAB" life "$@" --variant "$v" --gens "$gens" --every 50 -o one.rle >one.txt 2>&1 ||
            { bad "$case, $v: one process: $(head -3 one.txt)"; continue; }
        grep '^generation' one.txt >one.gen
        for p in $ps; do
            for opts in "--halo 1 --overlap off" "--halo 9 --overlap on" ""; do
                rm -f r.rle
                # shellcheck disable=SC2086
                if ! run_n "$p" 120 "$PARLAB" life "$@" --variant "$v" --gens "$gens" --every 50 -o r.rle $opts; then
                    bad "$case, $v on $p rank(s) ($opts): status $?: $(head -3 err.txt)"
                    continue
                fi
                if ! grep -q "between GPUs on NCCL" out.txt; then
                    bad "$case, $v on $p rank(s) ($opts): not the NCCL path: $(tail -1 out.txt)"
                elif cmp -s one.rle r.rle && grep '^generation' out.txt | cmp -s - one.gen; then ok
                else bad "$case, $v on $p rank(s) ($opts): not the one-process run's output ($(grep '^generation' out.txt | tail -1))"; fi
            done
        done
    done
}

same "67x61 torus B3/S23" 300 --soup 67x61 --density 0.4 --seed 3
same "67x61 plane B36/S23" 300 --soup 67x61 --plane 67x61 --rule B36/S23
same "1000x1001 torus B36/S23" 200 --soup 1000x1001 --rule B36/S23 --seed 5
same "1000x1001 plane B3/S23" 200 --soup 1000x1001 --plane 1000x1001
same "Gosper gun on a 100x83 plane" 500 "$data/gosper_gun.rle" --plane 100x83
same "2000x777 torus B3/S23" 100 --soup 2000x777 --seed 7

# two ranks on a node with fewer GPUs: the host path (MPI), the same answer, no NCCL
if [ "${gpus:-0}" -lt 2 ]; then
    "$PARLAB" life --soup 67x61 --variant cuda-tuned --gens 100 -o one.rle >/dev/null 2>&1
    if run_n 2 120 "$PARLAB" life --soup 67x61 --variant cuda-tuned --gens 100 -o r.rle && cmp -s one.rle r.rle &&
        ! grep -q "on NCCL" out.txt; then ok
    else bad "2 ranks on one GPU: $(head -3 err.txt; tail -1 out.txt)"; fi
fi
# the distributed bench on the GPU path (its window filled and read back through the device):
# each rank checks its block against cpu-naive on the block's light cone; odd block sizes
for p in $ranks; do
    for v in cuda-tuned cuda-bitpacked; do
        if run_n "$p" 120 "$PARLAB" bench life 301x203 --gens 40 --variant "$v" --repeats 2 &&
            grep -q "exchanges between GPUs on NCCL" out.txt && grep -q "^check: exact" out.txt; then ok
        else bad "bench life, $v on $p rank(s): status $?: $(head -3 err.txt; grep -E '^(bench|check)' out.txt)"; fi
    done
done
summary test_mpi_nccl_life
