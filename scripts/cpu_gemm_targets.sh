#!/usr/bin/env bash
# cpu_gemm_targets.sh: cpu-packed against OpenBLAS (its default kernels and, on an AVX-512 CPU,
# its SkylakeX kernels) at the shapes issue 3 sets targets for, in one run per group.
# usage: scripts/cpu_gemm_targets.sh [THREADS]   (default: one per core). Logs to $OUT.
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
P=${PARLAB:-build-gpu/parlab}
[ -x "$P" ] || P=build/parlab
thr=${1:-0}
targs=()
[ "$thr" != 0 ] && targs=(--threads "$thr")
v=cpu-packed,peer-openblas,peer-openblas-skx
for group in "64,128,256" "1024,2048,4096" "1000,1023,4097" "4096x4096x64,64x4096x4096"; do
  $P bench gemm --size "$group" --variant "$v" --skip-unavailable --min-time 0.5 "${targs[@]}" 2>&1 | tee -a "$OUT/cpu_t${thr}.log"
done
