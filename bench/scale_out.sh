#!/usr/bin/env bash
# scale_out.sh: the weak-scaling sweep of docs/scale-out.md: `parlab bench KERNEL` under mpirun on
# 1, 2, 4, 8 and 16 ranks for Life (cpu-bitpacked) and conv2d, each rank's block the same size,
# one JSON per run (schema parlab-bench-dist/1) and one markdown table at the end, the model's
# exchange time beside the measured one and, for conv2d, the shared-bandwidth bound (which limits,
# the time against it): the rows to paste into docs/scale-out.md.
#
#   bench/scale_out.sh [PARLAB] [OUTDIR]      (defaults: build-mpi/parlab, scale-out-results)
#
# Environment: RANKS ("1 2 4 8 16"), LIFE_SIZE (each rank's block, default 8192: 8192x8192 cells),
# LIFE_GENS (200), CONV_SIZE (4096), KERNELS ("life conv2d"), REPEATS (5), THREADS (threads a rank, passed as --threads;
# default: the node's cores shared by its ranks), MPIRUN_FLAGS (extra mpirun flags; as root the
# script allows it, as the tests do). Each rank gets cores / ranks threads (parlab's default);
# --bind-to core keeps Open MPI's ranks apart. A kernel that does not run distributed in this
# build is reported and skipped, not failed.
set -u
PARLAB=${1:-build-mpi/parlab}
OUT=${2:-scale-out-results}
RANKS=${RANKS:-"1 2 4 8 16"}
LIFE_SIZE=${LIFE_SIZE:-8192}
LIFE_GENS=${LIFE_GENS:-200}
CONV_SIZE=${CONV_SIZE:-4096}
REPEATS=${REPEATS:-5}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT" || exit 1
cores=$(nproc)
flags=()
if mpirun --version 2>&1 | grep -q "Open MPI"; then flags=(--bind-to core --map-by core); fi
# shellcheck disable=SC2206
flags+=(${MPIRUN_FLAGS:-})

echo "== model: ping-pong between ranks 0 and 1"
mpirun -n 2 "${flags[@]}" "$PARLAB" mem pingpong | tee "$OUT/pingpong.txt"

run() { # run KERNEL P ARGS...: one bench, its table to OUT/KERNEL-P.txt, JSON to OUT/KERNEL-P.json
    local k=$1 p=$2
    shift 2
    if [ "$p" -gt "$cores" ]; then
        echo "skipping $k on $p ranks: this machine has $cores cores"
        return
    fi
    echo "== $k on $p ranks"
    if ! mpirun -n "$p" "${flags[@]}" "$PARLAB" bench "$k" "$@" ${THREADS:+--threads "$THREADS"} --repeats "$REPEATS" --json "$OUT/$k-$p.json" \
        >"$OUT/$k-$p.txt" 2>"$OUT/$k-$p.err"; then
        grep "^parlab" "$OUT/$k-$p.err" || tail -3 "$OUT/$k-$p.err"
        rm -f "$OUT/$k-$p.json"
        return
    fi
    cat "$OUT/$k-$p.txt"
}
for k in ${KERNELS:-life conv2d}; do
    for p in $RANKS; do
        case $k in
        life) run life "$p" "$LIFE_SIZE" --gens "$LIFE_GENS" --variant cpu-bitpacked ;;
        conv2d) run conv2d "$p" "$CONV_SIZE" --variant cpu-blocked ;; # the CPU rung: ranks share one GPU
        esac
    done
done

echo
echo "== the table for docs/scale-out.md"
python3 - "$OUT" <<'PY'
import json, glob, os, sys
rows = []
for f in glob.glob(os.path.join(sys.argv[1], "*.json")):
    d = json.load(open(f))
    if d.get("schema") != "parlab-bench-dist/1":
        continue
    rows.append(d)
rows.sort(key=lambda d: (d["kernel"], d["ranks"]))
# the shared-bandwidth bound's columns (conv2d on the host: bytes a run, every rank streaming
# them at once, the larger of that and the rung's own time, which one, time against it); "-"
# for a kernel without one (Life)
print("| kernel | ranks | grid | block a rank | time (ms) | rate | efficiency | compute (ms) | exchange + wait (ms) | model (ms)"
      " | MB a run | memory (ms) | bound (ms) | limit | vs bound |")
print("| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
for d in rows:
    h, w = d["baseline_rows_cols"]
    bound = "| - | - | - | - | - |"
    if "bound_s" in d:
        bound = "| %.4g | %.2f | %.2f | %s | %.1f%% |" % (
            (d["run_bytes_read"] + d["run_bytes_written"]) / 1e6, d["memory_s"] * 1e3, d["bound_s"] * 1e3,
            d["limit"], 100 * d["bound_efficiency"])
    print("| %s (%s) | %d | %dx%d | %dx%d | %.2f | %.3g %s | %.1f%% | %.2f | %.3f | %.3f %s" % (
        d["kernel"], d["rung"], d["ranks"], d["grid"][0], d["grid"][1], w, h, d["time_s"] * 1e3, d["rate"],
        d["unit"], 100 * d["efficiency"], d["compute_s"] * 1e3, (d["exchange_s"] + d["wait_s"]) * 1e3,
        d["model_exchange_s"] * 1e3, bound))
PY
