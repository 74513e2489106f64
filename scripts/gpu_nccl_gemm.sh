#!/usr/bin/env bash
# gpu_nccl_gemm.sh: SUMMA GEMM and the reductions on GPUs over NCCL (issues 24, 22), one call
# on a machine with 1-4 GPUs, from the repository root: builds build-nccl (CUDA, MPI, NCCL,
# Release) if it is not built, runs the NCCL GEMM/reduce tests (and the host-path MPI tests of
# the same calls), then the benches, weak scaling, each GPU a 16384 x 16384 block of C (K 16384)
# and a 16384 x 16384 block of the reduced matrix, on G = 1, 2, 4 ranks (as many as there are
# GPUs); the summary table last. Logs and JSON go to $OUT (or ./gpu-logs).
# Target (docs/scale-out-nccl.md): SUMMA at 4 x 16384^2 >= 85% of 4 x one GPU's cuda-tuned rate
# (the efficiency column, weak: T1 / TP).
# usage: scripts/gpu_nccl_gemm.sh [SIZE (16384)] [REDUCE SIZE (16384)]
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
size=${1:-16384}
rsize=${2:-16384}
export PATH="$PATH:/usr/local/cuda/bin" NCCL_NVLS_ENABLE=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-nccl
t0=$(date +%s)
nvidia-smi --query-gpu=index,name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader | tee "$OUT/gpu.txt"
nvidia-smi topo -m >"$OUT/topo.txt" 2>&1
gpus=$(nvidia-smi -L | grep -c '^GPU')
if [ ! -x "$B/parlab" ]; then
    cmake -S . -B "$B" -DPARLAB_CUDA=ON -DPARLAB_MPI=ON -DPARLAB_NCCL=ON -DCMAKE_BUILD_TYPE=Release \
        >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
fi
cmake --build "$B" -j "$(nproc)" --target parlab_cli gemm_check reduce_check dist_check >"$OUT/build.log" 2>&1 ||
    { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
"$B/parlab" list | grep -E "^(NCCL|MPI|GPU)" | head -3
echo "== build done in $(( $(date +%s) - t0 )) s"

echo "== tests"
ctest --test-dir "$B" -R 'test_mpi_(nccl_gemm|gemm|reduce)$' -j 3 --output-on-failure --timeout 170 2>&1 |
    tee "$OUT/ctest.log" | grep -E "Test +#|tests passed|FAIL|skipped|bad|passed, "
echo "== tests done at $(( $(date +%s) - t0 )) s"

# bench KERNEL SIZE G EXTRA...: one weak-scaling bench on G ranks, a GPU each
bench() {
    local k=$1 s=$2 g=$3
    shift 3
    timeout 240 mpirun -n "$g" --oversubscribe --bind-to none "$B/parlab" bench "$k" "$s" --variant cuda-tuned \
        --repeats 5 --json "$OUT/bench_${k}_$g.json" "$@" >"$OUT/bench_${k}_$g.log" 2>&1
    echo "-- bench $k $s on $g rank(s): exit $?"
    cat "$OUT/bench_${k}_$g.log"
}
for g in 1 2 4; do
    [ "$g" -le "$gpus" ] || continue
    bench gemm "$size" "$g"
done
for g in 1 2 4; do
    [ "$g" -le "$gpus" ] || continue
    bench reduce "$rsize" "$g"
done
echo "== benches done at $(( $(date +%s) - t0 )) s"

echo "== summary (weak scaling; rate: the G ranks' product; efficiency: one GPU's time / G ranks' time;"
echo "   bcast GB/s: the busiest rank's panel bytes / its exchange-stream time)"
python3 - "$OUT" <<'EOF'
import glob, json, os, sys
rows = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "bench_*_*.json"))):
    try:
        d = json.load(open(f))
    except Exception as e:
        print("%s: %s" % (f, e)); continue
    ex = d.get("exchange_s") or 0
    bw = d["message_bytes"] / ex / 1e9 if ex > 0 and d["message_bytes"] > 0 else 0
    rows.append((d["kernel"], d["ranks"], "%dx%d" % tuple(d["grid"]), "%dx%d" % tuple(d["problem_rows_cols"]),
                 d["time_s"] * 1e3, d["rate"], d["baseline_s"] * 1e3, 100 * d["efficiency"], d["compute_s"] * 1e3,
                 d["exchange_s"] * 1e3, d["wait_s"] * 1e3, d["model_exchange_s"] * 1e3, bw, d.get("note", "")))
print("%-6s %5s %5s %12s %10s %10s %10s %6s %10s %10s %9s %9s %8s  %s" % ("kernel", "ranks", "grid", "problem",
      "time ms", "rate", "1-GPU ms", "eff %", "compute ms", "exch ms", "wait ms", "model ms", "bcast", "path"))
for r in rows:
    print("%-6s %5d %5s %12s %10.2f %10.1f %10.2f %6.1f %10.2f %10.2f %9.3f %9.3f %8.1f  %s" % r)
EOF
echo "== total $(( $(date +%s) - t0 )) s"
