# gpu_lib.sh: sourced (not run) by the one-GPU device scripts (gpu_records.sh, gpu_validate.sh,
# gpu_gemv_cols.sh). It moves to the repository root, sets the log folder L=$OUT/logs (OUT
# default gpu-logs) and the build folder B=${BUILD:-build-gpu}, puts CUDA's tools on PATH,
# starts the clock (el: seconds so far, stamp: a line with them, left N: N more seconds stay
# under LIMIT, default 480) and writes the GPU's name and clocks to $L/gpu.txt.
# gpu_build [--target T...]: configure with CUDA and build (all, or the targets); on a failure
# print the errors, pack the logs and exit 1.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-gpu-logs}
L=$OUT/logs
mkdir -p "$L"
B=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
el() { echo $(($(date +%s) - t0)); }
stamp() { echo "[$(el) s] $*"; }
left() { [ $(($(el) + $1)) -lt "${LIMIT:-480}" ]; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader >"$L/gpu.txt"
gpu_build() {
    cmake -S . -B "$B" -DPARLAB_CUDA=ON -DCMAKE_BUILD_TYPE=Release >"$L/configure.log" 2>&1 &&
        cmake --build "$B" -j "$(nproc)" "$@" >"$L/build.log" 2>&1 ||
        { grep -E "error" "$L/build.log" | head -20; tail -5 "$L/configure.log"; tar czf "$OUT/logs.tgz" -C "$OUT" logs; exit 1; }
    stamp "built ($(cat "$L/gpu.txt"))"
}
