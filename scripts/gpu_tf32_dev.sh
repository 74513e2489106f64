#!/usr/bin/env bash
# gpu_tf32_dev.sh: development loop for the copy-engine rung (cuda-wgmma-tma-tf32) on a GPU
# machine: build the CLI and the GPU test, check its configs on odd shapes, time them against
# cuBLAS. usage: scripts/gpu_tf32_dev.sh [CONFIGS] (default 1,2). Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
cfgs=${1:-1,2}
R=cuda-wgmma-tma-tf32
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build build-gpu -j 16 --target parlab_cli test_gemm_gpu >"$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
grep -A2 "wgmma_tma" "$OUT/build.log" | grep -E "registers|spill" | head -4
P=build-gpu/parlab
echo "== odd shapes, each config, split 1 and 2 (verified)"
timeout 150 $P sweep gemm --variant $R --param config=$cfgs --param splitk=1,2 --repeats 1 --warmup 1 --no-peaks \
   --size 1x1x1,257x129x300,70x300x40,300x70x1000,1000x333x77,4097x100x33 2>&1 | grep -E "$R|rror|FAIL" | tail -40
echo "== 4096 / 8192, splitk=1"
timeout 150 $P sweep gemm --variant $R --param config=$cfgs --param splitk=1 --size 4096,8192,4097 --no-peaks 2>&1 | grep -E "$R|best|rror"
timeout 100 $P bench gemm --variant $R,cuda-tf32,peer-cublas-tf32 --size 4096,8192 --no-peaks 2>&1 | grep -E "cuda-|cublas|rror"
if [ -n "${FULL:-}" ]; then
  echo "== transpose cost: a thin M (128x4096x4096) against cuda-wgmma-tf32's 256x128 (no transpose)"
  timeout 100 $P bench gemm --variant cuda-wgmma-tf32 --param config=4 --param splitk=1 --size 128x4096x4096 --no-peaks 2>&1 | grep -E "^cuda-"
  timeout 100 $P bench gemm --variant $R --param config=1 --param splitk=1 --size 128x4096x4096 --no-peaks 2>&1 | grep -E "^cuda-"
  echo "== test_gemm_gpu"
  timeout 300 build-gpu/tests/test_gemm_gpu 2>&1 | tail -3
  echo "== memcheck"
  PL_SANITIZER=1 timeout 400 compute-sanitizer --tool memcheck --error-exitcode 3 build-gpu/tests/test_gemm_gpu >"$OUT/memcheck.log" 2>&1
  echo "exit $?: $(grep -E 'ERROR SUMMARY|passed' "$OUT/memcheck.log" | tr '\n' ' ')"
  echo "== racecheck / synccheck over configs $cfgs"
  for tool in racecheck synccheck; do
    timeout 200 compute-sanitizer --tool $tool $P sweep gemm --variant $R --param config=$cfgs --param splitk=1,2 \
      --size 257x129x300,70x300x40 --repeats 1 --no-peaks >"$OUT/$tool.log" 2>&1
    echo "$tool exit $?: $(grep -E 'SUMMARY' "$OUT/$tool.log")"
  done
  echo "== cuda-tuned with odd ldb (B re-pitched) vs cuBLAS"
  timeout 100 $P bench gemm --variant cuda-tuned,peer-cublas --size 4095,4097,4096 --no-peaks 2>&1 | grep -E "^cuda|^peer"
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass build-gpu/CMakeFiles/parlab_obj.dir/src/kernels/gemm/cuda_wgmma_tma_tf32.cu.o > "$OUT/tf32.sass" 2>&1
    echo "SASS of the TMA kernels: $(awk '/Function : .*wgmma_tma/{f=1;next} /Function :/{f=0} f' "$OUT/tf32.sass" | grep -oE 'HGMMA[.0-9A-Zx]*|UTMALDG[.0-9A-Z]*|SYNCS[.A-Z0-9]*|USETMAXREG[.A-Z]*|LDL|STL' | sort | uniq -c | tr '\n' ' ')"
  fi
fi
