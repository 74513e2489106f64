#!/usr/bin/env bash
# gpu_entropy_record.sh: one call on a GPU machine for the entropy rungs (issue 23): build
# parlab_cli and test_entropy_gpu, run the test (cuda-swar in full, every CUDA rung in --quick),
# compute-sanitizer memcheck over cuda-swar's quick cases, one mutation of cuda-swar that the
# test must catch (MUTATE=0 skips it; it runs after the bench), and `parlab bench entropy 10000`
# for cuda-tuned and cuda-swar at bins 16 and 256, a sweep of cuda-swar's parameters; a summary
# table last. Logs go to $OUT (or ./gpu-logs). BUILD=DIR: the build directory (default build-gpu).
# usage: scripts/gpu_entropy_record.sh [SIZE]   (default 10000)
set -uo pipefail
OUT=${OUT:-gpu-logs}
mkdir -p "$OUT"
size=${1:-10000}
build=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,utilization.gpu --format=csv | tee "$OUT/gpu.txt"
cmake -S . -B "$build" -DPARLAB_CUDA=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/configure.log" 2>&1 ||
    { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$build" -j 16 --target parlab_cli test_entropy_gpu >"$OUT/build.log" 2>&1 ||
    { grep -E "error" "$OUT/build.log" | head -30; exit 1; }
stamp "built"
summary=()
line() { summary+=("$(printf '%-44s %s' "$1" "$2")"); }
passed() { grep -E "passed|failed" "$1" | tail -1; }

# The tests, side by side on the GPU (nothing here is timed): cuda-swar in full (its fast
# path and the fallback, every strip, warps and ahead value); every CUDA rung in --quick
# (cuda-tuned after its shared code moved; pl_entropy's pick); memcheck over cuda-swar's
# quick cases.
timeout 150 "$build/tests/test_entropy_gpu" --rung cuda-swar >"$OUT/test-swar.log" 2>&1 &
p1=$!
timeout 150 "$build/tests/test_entropy_gpu" --quick >"$OUT/test-quick.log" 2>&1 &
p2=$!
PL_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 \
    "$build/tests/test_entropy_gpu" --quick --rung cuda-swar >"$OUT/memcheck.log" 2>&1 &
p3=$!
wait $p1; rc=$?; line "test_entropy_gpu --rung cuda-swar (exit $rc)" "$(passed "$OUT/test-swar.log")"
wait $p2; rc=$?; line "test_entropy_gpu --quick, all rungs (exit $rc)" "$(passed "$OUT/test-quick.log")"
wait $p3; rc=$?; line "memcheck --quick --rung cuda-swar (exit $rc)" \
    "$(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) / $(passed "$OUT/memcheck.log")"
grep -h -m5 FAIL "$OUT/test-swar.log" "$OUT/test-quick.log"
stamp "tests, memcheck"

# The bench: kernel time, sampled check at 10000^2 (bins 16: the fast path; 256: cuda-tuned's).
for bins in 16 256; do
    "$build/parlab" bench entropy "$size" --variant cuda-tuned,cuda-swar --set bins="$bins" \
        --csv "$OUT/bench-bins$bins.csv" >"$OUT/bench-bins$bins.log" 2>&1
    rc=$?; line "bench $size bins=$bins (exit $rc)" "$OUT/bench-bins$bins.log"
done
# cuda-swar's parameters at the same size: ahead (load distance vs warps an SM), strip, warps.
timeout 120 "$build/parlab" sweep entropy --variant cuda-swar --param ahead=0,5 --param strip=64,128,256 \
    --param warps=2,4,8 "$size" >"$OUT/sweep.log" 2>&1
rc=$?; line "sweep cuda-swar ahead x strip x warps (exit $rc)" "$OUT/sweep.log"
stamp "bench, sweep"

# A mutation the test must catch: the window of bins 0..7 adds s3 one column early (columns
# L..L+3, one of them twice: wrong counts, still inside the table).
if [ "${MUTATE:-1}" = 1 ]; then
    f=src/kernels/entropy/cuda_swar.cu
    cp "$f" "$OUT/cuda_swar.cu.orig"
    sed -i 's/(0xFFFFFFFFu, h_lo + __shfl_down_sync(0xFFFFFFFFu, s2_lo, 1), 2)/(0xFFFFFFFFu, h_lo + __shfl_down_sync(0xFFFFFFFFu, s2_lo, 1), 1)/' "$f"
    if cmp -s "$f" "$OUT/cuda_swar.cu.orig"; then
        line "mutation (s3_lo shuffled by 1, not 2)" "NOT APPLIED (pattern not found)"
    else
        cmake --build "$build" -j 16 --target test_entropy_gpu >"$OUT/build-mutant.log" 2>&1
        timeout 60 "$build/tests/test_entropy_gpu" --quick --rung cuda-swar >"$OUT/test-mutant.log" 2>&1
        rc=$?; line "MUTANT test --quick --rung cuda-swar (exit $rc)" "$(passed "$OUT/test-mutant.log") (want failures)"
    fi
    cp "$OUT/cuda_swar.cu.orig" "$f" # the source back; the build dir keeps the mutant test until rebuilt
    stamp "mutation"
fi

echo "== logs in $OUT"
for b in 16 256; do echo "== bench bins=$b"; grep -E "^(variant|cuda-)" "$OUT/bench-bins$b.log"; done
echo "== sweep"; grep -E "^(variant|cuda-|best)" "$OUT/sweep.log" | cut -c1-150
echo "== summary ($(head -2 "$OUT/gpu.txt" | tail -1))"
printf '%s\n' "${summary[@]}"
if command -v python3 >/dev/null; then
    python3 - "$OUT"/bench-bins16.csv "$OUT"/bench-bins256.csv <<'PY'
import csv, sys
print("%-11s %-22s %-5s %10s %10s %9s %7s %6s" % ("variant", "params", "bins", "kernel ms", "median ms", "Gpx/s", "elem", "ok"))
for path in sys.argv[1:]:
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError:
        print("(no %s)" % path); continue
    bins = "16" if "bins16" in path else "256"
    for r in rows:
        k = float(r["kernel_s"] or r["median_s"]) * 1e3
        gpx = float(r["work"]) / (k / 1e3) / 1e9
        print("%-11s %-22s %-5s %10.4f %10.4f %9.1f %7.3f %6s" % (r["variant"], r["params"], bins, k,
              float(r["median_s"]) * 1e3, gpx, float(r["elem_ratio"] or "nan"), r["passed"]))
PY
fi
