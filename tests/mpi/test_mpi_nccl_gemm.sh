#!/usr/bin/env bash
# test_mpi_nccl_gemm.sh: SUMMA GEMM and the reductions on the GPU path (src/distributed/
# nccl/nccl_summa.c, nccl_reduce.c): with a CUDA rung under mpirun the blocks stay on the GPUs and the
# panels and partials travel on NCCL. `parlab gemm|reduce` on 1 rank (NCCL to itself) against
# the one-process GPU call: shapes that do not divide (67x61x45, 1000x1001x999), alpha/beta,
# beta 0 with a NaN-poisoned C0 (C0 must not be read), within the GEMM bound; reduce sum within
# its bound, min/max exact with a NaN kept, on both axes. `parlab bench gemm|reduce` says which
# path ran and checks each rank's block. On >= 2 GPUs the same on 2 (and, with 4, 4) ranks;
# on one GPU, 2 ranks fall back to the host path (MPI) with the right answer.
# Labels mpi and gpu: skipped (77) without MPI, without NCCL in the build, or without a GPU.
. "$(dirname "$0")/mpi_lib.sh"
mpi_setup test_mpi_nccl_gemm
if [ "${PL_HAVE_NCCL:-OFF}" != ON ]; then echo "skipped: no NCCL (this build has none: PARLAB_NCCL)"; exit 77; fi
if "$PARLAB" list | head -1 | grep -q "no CUDA build\|no GPU"; then echo "skipped: no GPU"; exit 77; fi
command -v python3 >/dev/null || { echo "skipped: no python3 (the .npy inputs)"; exit 77; }
here="$(cd "$(dirname "$0")" && pwd)"
mk() { python3 "$here/mknpy.py" "$@"; }
close() { python3 "$here/npy_close.py" "$@"; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
ranks="1"
[ "${gpus:-0}" -ge 2 ] && ranks="1 2"
[ "${gpus:-0}" -ge 4 ] && ranks="1 2 4"

# poison FILE: every element of a float32 .npy made NaN (same header)
poison() {
    python3 - "$1" <<'EOF'
import array, sys
raw = open(sys.argv[1], "rb").read()
start = 10 + int.from_bytes(raw[8:10], "little")
data = array.array("f", [float("nan")] * ((len(raw) - start) // 4))
open(sys.argv[1], "wb").write(raw[:start] + data.tobytes())
EOF
}
# nans FILE: a few elements of a float32 .npy made NaN (the first, one in the middle, the last)
nans() {
    python3 - "$1" <<'EOF'
import array, sys
raw = open(sys.argv[1], "rb").read()
start = 10 + int.from_bytes(raw[8:10], "little")
data = array.array("f"); data.frombytes(raw[start:])
for i in (0, len(data) // 2 + 7, len(data) - 1): data[i] = float("nan")
open(sys.argv[1], "wb").write(raw[:start] + data.tobytes())
EOF
}

# gemm_case NAME M N K ARGS...: the one-process GPU call, then the same on each count of ranks
gemm_case() {
    local name=$1 M=$2 N=$3 K=$4 p
    shift 4
    mk A.npy f4 "$M" "$K" 11
    mk B.npy f4 "$K" "$N" 12
    "$PARLAB" gemm A.npy B.npy -o one.npy --variant cuda-tuned "$@" >one.txt 2>&1 ||
        { bad "$name: one process: $(head -3 one.txt)"; return; }
    for p in $ranks; do
        rm -f r.npy
        if ! run_n "$p" 120 "$PARLAB" gemm A.npy B.npy -o r.npy --variant cuda-tuned "$@"; then
            bad "$name on $p ranks: $(head -3 err.txt)"
        elif msg=$(close r.npy one.npy 1e-3 2>&1); then ok
        else bad "$name on $p ranks: not the one-process result: $msg"; fi
    done
}

gemm_case "gemm 67x61x45" 67 61 45
gemm_case "gemm 1000x1001x999" 1000 1001 999
mk C0.npy f4 67 61 13
gemm_case "gemm 67x61x45, alpha 1.5, beta -0.75" 67 61 45 --alpha 1.5 --beta -0.75 --c0 C0.npy
mk C0.npy f4 1000 1001 13
gemm_case "gemm 1000x1001x999, alpha -2, beta 0.5" 1000 1001 999 --alpha -2 --beta 0.5 --c0 C0.npy
poison C0.npy
gemm_case "gemm 1000x1001x999, beta 0, C0 all NaN" 1000 1001 999 --beta 0 --c0 C0.npy

# reduce_case OP AXIS TOL: a 1000x1001 matrix, with three NaN for min and max (they must keep
# them) and mean, without for sum; one process against each count of ranks
mk plain.npy f4 1000 1001 21
cp plain.npy nan.npy && nans nan.npy
reduce_case() {
    local op=$1 axis=$2 tol=$3 m=nan.npy p
    [ "$op" = sum ] && m=plain.npy
    "$PARLAB" reduce "$m" --op "$op" --axis "$axis" -o one.npy --variant cuda-tuned >one.txt 2>&1 ||
        { bad "reduce $op axis $axis: one process: $(head -3 one.txt)"; return; }
    for p in $ranks; do
        rm -f r.npy
        if ! run_n "$p" 120 "$PARLAB" reduce "$m" --op "$op" --axis "$axis" -o r.npy --variant cuda-tuned; then
            bad "reduce $op axis $axis on $p ranks: $(head -3 err.txt)"
        elif msg=$(close r.npy one.npy "$tol" nan 2>&1); then ok
        else bad "reduce $op axis $axis on $p ranks: not the one-process result: $msg"; fi
    done
}
reduce_case sum 1 1e-4
reduce_case sum 0 1e-4
reduce_case min 1 0
reduce_case max 0 0
reduce_case min 0 0
reduce_case mean 1 1e-5

# the bench says which path ran; each rank's block checked
for p in $ranks; do
    run_n "$p" 120 "$PARLAB" bench gemm 67x61x45 --scale strong --variant cuda-tuned --repeats 2
    if [ $? -eq 0 ] && grep -q 'GPU path (NCCL)' out.txt && grep -q '^check: every element' out.txt; then ok
    else bad "bench gemm on $p ranks: $(head -3 out.txt; head -3 err.txt)"; fi
    run_n "$p" 120 "$PARLAB" bench reduce 1000x1001 --scale strong --variant cuda-tuned --repeats 2
    if [ $? -eq 0 ] && grep -q 'GPU path (NCCL)' out.txt && grep -q "^check: each rank's rows" out.txt; then ok
    else bad "bench reduce on $p ranks: $(head -3 out.txt; head -3 err.txt)"; fi
done

# two ranks on a node with fewer GPUs: NCCL needs a GPU a rank, so the host path, the same answer
if [ "${gpus:-0}" -lt 2 ]; then
    mk A.npy f4 67 45 11
    mk B.npy f4 45 61 12
    "$PARLAB" gemm A.npy B.npy -o one.npy --variant cuda-tuned >/dev/null 2>&1
    if run_n 2 120 "$PARLAB" gemm A.npy B.npy -o r.npy --variant cuda-tuned && close r.npy one.npy 1e-3; then ok
    else bad "gemm on 2 ranks, one GPU: $(head -3 err.txt)"; fi
    run_n 2 120 "$PARLAB" bench gemm 67x61x45 --scale strong --variant cuda-tuned --repeats 2
    if [ $? -eq 0 ] && grep -q 'host path (MPI)' out.txt; then ok
    else bad "bench gemm on 2 ranks, one GPU: not the host path: $(head -3 out.txt; head -3 err.txt)"; fi
fi
summary test_mpi_nccl_gemm
