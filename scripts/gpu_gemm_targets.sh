#!/usr/bin/env bash
# gpu_gemm_targets.sh: the GEMM top rungs against cuBLAS at the shapes issue 3 sets targets
# for, in one run each (the peer timed beside the rung), then the tile-configuration sweeps.
# Expects a built build-gpu (scripts/gpu_check.sh builds it). Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
P=build-gpu/parlab
shapes=${SHAPES:-1024,2048,4096,8192,4095,4097,8192x8192x256,256x256x65536}
echo "== FP32 on CUDA cores: cuda-tuned vs cuBLAS (pedantic FP32)"
$P bench gemm --size "$shapes" --variant cuda-tuned,peer-cublas --json "$OUT/tuned.json" 2>&1 | tee "$OUT/tuned.log"
echo "== TF32 on tensor cores: cuda-tf32 (the best tensor-core rung per shape) vs cuBLAS TF32"
$P bench gemm --size "${TF32_SHAPES:-4096,8192,2048,4097}" --variant cuda-tf32,peer-cublas-tf32 --json "$OUT/tf32.json" 2>&1 | tee "$OUT/tf32.log"
if [ -z "${NO_SWEEP:-}" ]; then
  echo "== sweeps"
  $P sweep gemm --variant cuda-tuned --param config=1,2,3,4,5,6,7,8 --param splitk=1 --size ${SWEEP_SIZE:-4096} 2>&1 | tee "$OUT/sweep_tuned.log"
  $P sweep gemm --variant cuda-mma-tf32 --param config=1,2,3,4,5,6 --param splitk=1 --size ${SWEEP_SIZE:-4096} 2>&1 | tee "$OUT/sweep_mma_tf32.log"
  $P sweep gemm --variant cuda-wgmma-tf32 --param config=1,2,3,4 --param splitk=1 --size ${SWEEP_SIZE:-4096} 2>&1 | tee "$OUT/sweep_wgmma_tf32.log"
  $P sweep gemm --variant cuda-wgmma-tma-tf32 --param config=1,2 --param splitk=1 --size ${SWEEP_SIZE:-4096} 2>&1 | tee "$OUT/sweep_wgmma_tma_tf32.log"
fi
