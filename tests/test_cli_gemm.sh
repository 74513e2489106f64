# test_cli_gemm.sh: `parlab gemm` end to end, on .npy files written here with printf (no
# numpy). Run as `bash test_cli_gemm.sh` with PARLAB (the parlab executable) and PL_TESTDIR
# (a scratch directory) set.
#
# Exit codes checked (see src/cli/cmd_gemm.c): 0 success; 1 runtime failure (missing file,
# malformed .npy, wrong dtype or rank, a write failing after the run); 2 usage error (an output refused
# before the run, unknown option,
# missing argument, bad number, shapes that do not multiply, unknown variant).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_gemm

# ---------------------------------------------------------------- fixtures

npy A.npy '<f4' '(2, 2)' "$f1$f2$f3$f4"            # [[1, 2], [3, 4]]
npy B.npy '<f4' '(2, 3)' "$f5$f6$f7$f8$f0$f1"      # [[5, 6, 7], [8, 0, 1]]
npy I.npy '<f4' '(2, 2)' "$f1$f0$f0$f1"            # identity
npy C0.npy '<f4' '(2, 3)' "$f1$f1$f1$f1$f1$f1"     # ones
npy A64.npy '<f8' '(2, 2)' "000000000000f03f000000000000f03f000000000000f03f000000000000f03f"
npy B32.npy '<f4' '(3, 2)' "$f1$f2$f3$f4$f5$f6"    # 3x2: does not multiply with 2x2 A
npy V.npy '<f4' '(4,)' "$f1$f2$f3$f4"              # rank 1
head -c 136 A.npy >T.npy


# ---------------------------------------------------------------- working runs

# [[1,2],[3,4]] * [[5,6,7],[8,0,1]] = [[21,6,9],[47,18,25]]
if run 0 "A*B" gemm A.npy B.npy -o C.npy --backend cpu; then
    if [ -f C.npy ] && [ "$(wc -c <C.npy)" -eq $((128 + 2 * 3 * 4)) ]; then ok
    else bad "A*B: C.npy missing or not 152 bytes"; fi
    if same_values C.npy "21 6 9 47 18 25"; then ok; else bad "A*B: wrong values"; fi
    if head -c 128 C.npy | grep -qF "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    then ok; else bad "A*B: C.npy header"; fi
    if grep -qE '^C = A\*B: 2x3 \(K=2\), variant [a-z0-9-]+, [0-9.]+ ms$' out.txt; then ok
    else bad "A*B: stdout line: $(cat out.txt)"; fi
fi

run 0 "I*B" gemm I.npy B.npy -o IB.npy --backend cpu --threads 1 &&
    { if same_values IB.npy "5 6 7 8 0 1"; then ok; else bad "I*B: wrong values"; fi; }

# 2*A*B + 1*ones = [[43,13,19],[95,37,51]]
run 0 "alpha, beta" gemm A.npy B.npy -o CB.npy --alpha 2 --beta 1 --c0 C0.npy --backend cpu &&
    { if same_values CB.npy "43 13 19 95 37 51"; then ok; else bad "alpha, beta: wrong values"; fi; }

run 0 "named variant" gemm A.npy B.npy -o CV.npy --variant cpu-naive --backend cpu &&
    { if same_values CV.npy "21 6 9 47 18 25" && grep -q 'variant cpu-naive' out.txt; then ok
      else bad "named variant: wrong values or line: $(cat out.txt)"; fi; }

run 0 "--help" gemm --help && { if grep -q '^usage: parlab gemm' out.txt; then ok
                                else bad "--help: no usage on stdout"; fi; }

# An existing output is replaced whole.
printf 'old' >R.npy
run 0 "replace output" gemm A.npy B.npy -o R.npy --backend cpu &&
    { if same_values R.npy "21 6 9 47 18 25"; then ok; else bad "replace output: wrong values"; fi; }

# ---------------------------------------------------------------- runtime failures: exit 1

run 1 "missing file" gemm nope.npy B.npy -o X1.npy --backend cpu
expect_err "missing file" "nope.npy"
expect_err "missing file" "No such file"
no_file "missing file" X1.npy

run 1 "truncated data" gemm T.npy B.npy -o X2.npy --backend cpu
expect_err "truncated data" "expected 16 bytes of data, found 8"
no_file "truncated data" X2.npy

run 1 "not a .npy file" gemm B.npy out.txt -o X3.npy --backend cpu
expect_err "not a .npy file" "magic"
no_file "not a .npy file" X3.npy

run 1 "float64 input" gemm A64.npy B.npy -o X4.npy --backend cpu
expect_err "float64 input" "A64.npy is float64; parlab gemm takes float32"
no_file "float64 input" X4.npy

run 1 "rank-1 input" gemm A.npy V.npy -o X5.npy --backend cpu
expect_err "rank-1 input" "rank 1"
no_file "rank-1 input" X5.npy

run 2 "unwritable output" gemm A.npy B.npy -o no-such-dir/C.npy --backend cpu
expect_err "unwritable output" "no-such-dir/C.npy"
no_file "unwritable output" no-such-dir/C.npy

# ---------------------------------------------------------------- usage errors: exit 2

run 2 "shape mismatch" gemm A.npy B32.npy -o X6.npy --backend cpu
expect_err "shape mismatch" "2x2"
expect_err "shape mismatch" "3x2"
no_file "shape mismatch" X6.npy

run 2 "C0 shape mismatch" gemm A.npy B.npy -o X7.npy --beta 1 --c0 A.npy --backend cpu
no_file "C0 shape mismatch" X7.npy

run 2 "unknown variant" gemm A.npy B.npy -o X8.npy --variant cpu-magic
expect_err "unknown variant" "unknown variant 'cpu-magic'"
expect_err "unknown variant" "cpu-naive"
no_file "unknown variant" X8.npy

run 2 "unknown option" gemm A.npy B.npy -o X9.npy --frobnicate
expect_err "unknown option" "--frobnicate"
run 2 "no output" gemm A.npy B.npy
run 2 "one input" gemm A.npy -o X9.npy
run 2 "three inputs" gemm A.npy B.npy C0.npy -o X9.npy
run 2 "option without value" gemm A.npy B.npy -o
run 2 "bad number" gemm A.npy B.npy -o X9.npy --alpha two
run 2 "alpha past float32" gemm A.npy B.npy -o X9.npy --alpha 1e40 && expect_err "alpha 1e40" "'1e40' is out of float32 range"
run 2 "alpha past double" gemm A.npy B.npy -o X9.npy --alpha 1e400 && expect_err "alpha 1e400" "'1e400' is out of float32 range"
run 2 "alpha inf" gemm A.npy B.npy -o X9.npy --alpha inf && expect_err "alpha inf" "'inf' is not a finite number"
run 2 "bad threads" gemm A.npy B.npy -o X9.npy --threads 0x
run 2 "bad backend" gemm A.npy B.npy -o X9.npy --backend gpu
run 2 "beta without c0" gemm A.npy B.npy -o X9.npy --beta 0.5
run 2 "c0 without beta" gemm A.npy B.npy -o X9.npy --c0 C0.npy
no_file "usage errors" X9.npy

# ---------------------------------------------------------------- issue 9: memory, empty names
# Beyond what this process may take (available memory and the cgroup limit): exit 2 at once,
# the estimate and the limit in GiB, nothing written. Sparse files: zeros that take no disk.
big Big.npy '(400000, 400000)' 640000000000
run 2 "inputs too big" gemm Big.npy Big.npy -o X10.npy --backend cpu
expect_err "inputs too big" "GiB of host memory, more than the"
no_file "inputs too big" X10.npy
big Col.npy '(400000, 1)' 1600000
big Row.npy '(1, 400000)' 1600000
run 2 "C too big" gemm Col.npy Row.npy -o X11.npy --backend cpu
expect_err "C too big" "C (400000x400000 float32): about 596.05 GiB of host memory"
no_file "C too big" X11.npy
rm -f Big.npy Col.npy Row.npy
run 2 "empty output name" gemm A.npy B.npy -o ''
expect_err "empty output name" "-o: '' is not a value"
run 2 "empty variant name" gemm A.npy B.npy -o X12.npy --variant ''
no_file "empty variant name" X12.npy

# ---------------------------------------------------------------- bfloat16 inputs
# As np.save writes ml_dtypes.bfloat16 arrays: descr '<V2', two bytes an element (the float32's
# high half: 1.0 is 0x3f80). A BF16 rung multiplies them; C is float32. '|V2' (what np.load gives
# back) and 'bfloat16' (a header written with the dtype's name) read the same.
b0=0000 b1=803f b2=0040 b3=4040 b4=8040 b5=a040 b6=c040 b7=e040 b8=0041
npy A16.npy '<V2' '(2, 2)' "$b1$b2$b3$b4"             # [[1, 2], [3, 4]]
npy B16.npy '<V2' '(2, 3)' "$b5$b6$b7$b8$b0$b1"       # [[5, 6, 7], [8, 0, 1]]
npy B16bar.npy '|V2' '(2, 3)' "$b5$b6$b7$b8$b0$b1"
npy B16name.npy 'bfloat16' '(2, 3)' "$b5$b6$b7$b8$b0$b1"
npy U16.npy '<u2' '(2, 3)' "$b5$b6$b7$b8$b0$b1"      # the same bits as uint16: not bfloat16
if run 0 "bf16 A*B" gemm A16.npy B16.npy -o C16.npy --backend cpu; then
    if same_values C16.npy "21 6 9 47 18 25"; then ok; else bad "bf16 A*B: wrong values"; fi
    if head -c 128 C16.npy | grep -qF "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
    then ok; else bad "bf16 A*B: C is not float32"; fi
    if grep -qE '^C = A\*B: 2x3 \(K=2\), variant cpu-naive-bf16, [0-9.]+ ms$' out.txt; then ok
    else bad "bf16 A*B: stdout line: $(cat out.txt)"; fi
fi
run 0 "bf16 |V2" gemm A16.npy B16bar.npy -o C16b.npy --backend cpu &&
    { if same_values C16b.npy "21 6 9 47 18 25"; then ok; else bad "bf16 |V2: wrong values"; fi; }
run 0 "bf16 by name" gemm A16.npy B16name.npy -o C16n.npy --backend cpu --variant cpu-naive-bf16 &&
    { if same_values C16n.npy "21 6 9 47 18 25"; then ok; else bad "bf16 by name: wrong values"; fi; }
# 2*A*B + 1*ones, C0 float32
run 0 "bf16 alpha, beta" gemm A16.npy B16.npy -o C16ab.npy --alpha 2 --beta 1 --c0 C0.npy --backend cpu &&
    { if same_values C16ab.npy "43 13 19 95 37 51"; then ok; else bad "bf16 alpha, beta: wrong values"; fi; }
run 2 "bf16 A, float32 B" gemm A16.npy B.npy -o X13.npy --backend cpu
expect_err "bf16 A, float32 B" "A16.npy is bfloat16 and B.npy is float32: A and B must be both float32 or both bfloat16"
run 2 "FP32 rung on bf16" gemm A16.npy B16.npy -o X13.npy --backend cpu --variant cpu-naive
expect_err "FP32 rung on bf16" "gemm cpu-naive: an FP32 rung takes dtype=f32 only; this problem is dtype=bf16 (the files are bfloat16)"
run 2 "BF16 rung on float32" gemm A.npy B.npy -o X13.npy --backend cpu --variant cpu-naive-bf16
expect_err "BF16 rung on float32" "gemm cpu-naive-bf16: a BF16 rung takes dtype=bf16 only; this problem is dtype=f32"
run 1 "uint16 input" gemm A16.npy U16.npy -o X13.npy --backend cpu
expect_err "uint16 input" "U16.npy is uint16; parlab gemm takes float32 or bfloat16"
no_file "bf16 refusals" X13.npy

# Against NumPy and ml_dtypes (make test's venv has both): np.save of ml_dtypes.bfloat16 arrays
# read as they are, C against the float64 product of the same values (FP32 accumulation).
if bf16_py=$(test_python numpy ml_dtypes); then
    cat >bf16.py <<'PY'
import sys
import ml_dtypes
import numpy as np
what = sys.argv[1]
if what == "make":
    rng = np.random.default_rng(3)
    np.save("NA.npy", rng.uniform(-1, 1, (37, 301)).astype(ml_dtypes.bfloat16))
    np.save("NB.npy", rng.uniform(-1, 1, (301, 23)).astype(ml_dtypes.bfloat16))
    with open("NA.npy", "rb") as f:
        assert b"'descr': '<V2'" in f.read(128), "np.save no longer writes '<V2'"
else:
    A = np.load("NA.npy").view(ml_dtypes.bfloat16).astype(np.float64)
    B = np.load("NB.npy").view(ml_dtypes.bfloat16).astype(np.float64)
    C = np.load("NC.npy")
    assert C.dtype == np.float32 and C.shape == (37, 23), (C.dtype, C.shape)
    err = np.abs(C - A @ B).max()
    assert err <= 4 * 301 * 2.0 ** -24, err
PY
    if "$bf16_py" bf16.py make 2>err.txt; then ok; else bad "np.save of bfloat16: $(cat err.txt)"; fi
    run 0 "bf16 from NumPy" gemm NA.npy NB.npy -o NC.npy --backend cpu &&
        { if "$bf16_py" bf16.py check 2>err.txt; then ok; else bad "bf16 from NumPy: $(cat err.txt)"; fi; }
else
    missing "bfloat16 .npy files from NumPy" "NumPy and ml_dtypes (make test's venv)"
fi

no_tmp_files
summary
