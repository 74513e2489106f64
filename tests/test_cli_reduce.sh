# test_cli_reduce.sh: `parlab reduce` and `parlab dot` end to end, on .npy files written here
# with printf, and rank-1 files read and written by NumPy. Run as `bash test_cli_reduce.sh` with PARLAB (the parlab executable) and PL_TESTDIR
# (a scratch directory) set.
#
# The fixtures (npy, values, run, expect_err, no_file) are cli_lib.sh's.
#
# Exit codes checked (see src/cli/cmd_reduce.c): 0 success; 1 runtime failure (missing file,
# wrong dtype or rank); 2 usage error (unknown op or axis, lengths that differ, unknown variant,
# min of an empty axis, missing output).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_reduce

# ---------------------------------------------------------------- fixtures

fnan=0000c07f fm1=000080bf
npy A.npy '<f4' '(2, 3)' "$f1$f2$f3$f4$f5$f6"      # [[1, 2, 3], [4, 5, 6]]
npy N.npy '<f4' '(2, 3)' "$f1$fnan$f3$f4$f5$f6"    # [[1, NaN, 3], [4, 5, 6]]
npy E.npy '<f4' '(2, 0)' ""                        # two empty rows
npy X.npy '<f4' '(3,)' "$f1$f2$f3"
npy Y.npy '<f4' '(3,)' "$f4$fm1$f2"                # x.y = 4 - 2 + 6 = 8
npy Y2.npy '<f4' '(2,)' "$f4$f5"
npy A64.npy '<f8' '(1, 1)' "000000000000f03f"
# raw FILE: the data as 32-bit hex words (NaN checks).
raw() { od -An -v -t x4 -j 128 "$1" | tr -s ' \n' '\n\n' | sed '/^$/d' | tr '\n' ' ' | sed 's/ $//'; }

# ---------------------------------------------------------------- working runs

for v in "" "--variant cpu-naive" "--variant cpu-simd"; do
    run 0 "sum rows $v" reduce A.npy --op sum --axis 1 -o r.npy --backend cpu $v &&
        { if same_values r.npy "6 15"; then ok; else bad "sum rows $v: wrong values"; fi; }
    run 0 "sum columns $v" reduce A.npy --op sum --axis 0 -o c.npy --backend cpu $v &&
        { if same_values c.npy "5 7 9"; then ok; else bad "sum columns $v: wrong values"; fi; }
    run 0 "mean rows $v" reduce A.npy --op mean --axis 1 -o m.npy --backend cpu $v &&
        { if same_values m.npy "2 5"; then ok; else bad "mean rows $v: wrong values"; fi; }
    run 0 "min columns $v" reduce A.npy --op min --axis 0 -o mn.npy --backend cpu $v &&
        { if same_values mn.npy "1 2 3"; then ok; else bad "min columns $v: wrong values"; fi; }
    run 0 "max rows $v" reduce A.npy --op max --axis 1 -o mx.npy --backend cpu $v &&
        { if same_values mx.npy "3 6"; then ok; else bad "max rows $v: wrong values"; fi; }
    run 0 "sumsq rows $v" reduce A.npy --op sumsq --axis 1 -o s.npy --backend cpu $v &&
        { if same_values s.npy "14 77"; then ok; else bad "sumsq rows $v: wrong values"; fi; }
    # NumPy: a NaN in a row makes its min NaN; the other row is untouched.
    run 0 "NaN min rows $v" reduce N.npy --op min --axis 1 -o n.npy --backend cpu $v &&
        { if [ "$(raw n.npy)" = "7fc00000 40800000" ]; then ok; else bad "NaN min rows $v: $(raw n.npy)"; fi; }
    run 0 "dot $v" dot X.npy Y.npy --backend cpu $v &&
        { if [ "$(cat out.txt)" = "8" ]; then ok; else bad "dot $v: printed $(cat out.txt)"; fi; }
done
if head -c 128 r.npy | grep -qF "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"; then ok
else bad "r.npy header: $(head -c 128 r.npy)"; fi
if grep -qE '^r = sum\(A, axis=1\): 2 values from 2x3, variant [a-z0-9-]+, [0-9.]+ ms$' <(
    "$PARLAB" reduce A.npy -o r2.npy --backend cpu); then ok; else bad "stdout line (defaults sum, axis 1)"; fi
# NumPy's negative axes: -1 is the last (per row), -2 the first (per column)
run 0 "sum --axis -1" reduce A.npy --op sum --axis -1 -o rneg.npy --backend cpu &&
    { if same_values rneg.npy "6 15"; then ok; else bad "--axis -1: wrong values"; fi; }
run 0 "sum --axis -2" reduce A.npy --op sum --axis -2 -o cneg.npy --backend cpu &&
    { if same_values cneg.npy "5 7 9"; then ok; else bad "--axis -2: wrong values"; fi; }
run 0 "sum of empty rows" reduce E.npy --op sum -o e.npy --backend cpu &&
    { if same_values e.npy "0 0"; then ok; else bad "sum of empty rows: wrong values"; fi; }
run 0 "mean of empty rows" reduce E.npy --op mean -o em.npy --backend cpu &&
    { if [ "$(raw em.npy)" = "7fc00000 7fc00000" ]; then ok; else bad "mean of empty rows: $(raw em.npy)"; fi; }
run 0 "--help" reduce --help && { if grep -q '^usage: parlab reduce' out.txt; then ok; else bad "reduce --help"; fi; }
run 0 "dot --help" dot --help && { if grep -q '^usage: parlab dot' out.txt; then ok; else bad "dot --help"; fi; }

# ---------------------------------------------------------------- runtime failures: exit 1

run 1 "missing file" reduce nope.npy -o X1.npy --backend cpu
expect_err "missing file" "nope.npy"
no_file "missing file" X1.npy
run 1 "float64 input" reduce A64.npy -o X2.npy --backend cpu
expect_err "float64 input" "float64"
no_file "float64 input" X2.npy
run 1 "rank 1 to reduce" reduce X.npy -o X3.npy --backend cpu
no_file "rank 1 to reduce" X3.npy
run 1 "rank 2 to dot" dot A.npy X.npy --backend cpu

# ---------------------------------------------------------------- usage errors: exit 2

run 2 "unknown op" reduce A.npy --op median -o X4.npy
expect_err "unknown op" "expected sum, mean, min, max or sumsq"
run 2 "bad axis" reduce A.npy --axis 2 -o X5.npy
expect_err "bad axis" "--axis '2': out of range"
run 2 "bad negative axis" reduce A.npy --axis -3 -o X5.npy
expect_err "bad negative axis" "--axis '-3': out of range"
no_file "bad axis" X5.npy
run 2 "no output" reduce A.npy
expect_err "no output" "-o r.npy"
run 2 "unknown variant" reduce A.npy -o X6.npy --variant cpu-fast
expect_err "unknown variant" "cpu-fast"
run 2 "min of empty" reduce E.npy --op min -o X7.npy --backend cpu
expect_err "min of empty" "empty axis"
no_file "min of empty" X7.npy
run 2 "dot lengths" dot X.npy Y2.npy --backend cpu
expect_err "dot lengths" "X.npy has 3 elements, Y2.npy has 2"
run 2 "dot one file" dot X.npy

# ---------------------------------------------------------------- NumPy, both ways
# Rank 1 through NumPy itself, not only parlab's own reader: NumPy writes the vectors parlab's
# dot reads, and reads the rank-1 vectors parlab's reduce writes (values on a grid of 1/64, so
# every sum is exact and compared exactly). NumPy from make test's venv (cli_lib.sh's
# test_python); without it the part says so (PL_REQUIRE_ALL=1: it fails).
if numpy_py=$(test_python numpy); then
    "$numpy_py" - <<'PY'
import numpy as np
rng = np.random.default_rng(11)
np.save("nx.npy", rng.integers(-3, 4, 5001).astype(np.float32))
np.save("ny.npy", rng.integers(-3, 4, 5001).astype(np.float32))
np.save("nA.npy", (rng.integers(-64, 65, (37, 1029)) / 64).astype(np.float32))
PY
    run 0 "dot of NumPy's rank-1 files" dot nx.npy ny.npy --backend cpu &&
        { if "$numpy_py" -c 'import numpy as np, sys; x, y = np.load("nx.npy"), np.load("ny.npy"); w = float(np.dot(x.astype(np.float64), y)); sys.exit(0 if float(open("out.txt").read()) == w else "parlab %s, NumPy %r" % (open("out.txt").read().strip(), w))' >np.txt 2>&1
          then ok; else bad "dot of NumPy's vectors: $(cat np.txt)"; fi; }
    for axis in 0 1; do
        for op in sum max; do
            rm -f nr.npy
            run 0 "$op axis $axis for NumPy" reduce nA.npy --op $op --axis $axis -o nr.npy --backend cpu &&
                { if "$numpy_py" - $op $axis >np.txt 2>&1 <<'PY'
import sys, numpy as np
op, axis = sys.argv[1], int(sys.argv[2])
a, r = np.load("nA.npy"), np.load("nr.npy")
want = getattr(np.asarray(a, np.float64), op)(axis=axis)
if r.ndim != 1 or r.dtype != np.float32 or r.shape != want.shape: sys.exit("read %s %s, want rank 1 %s float32" % (r.dtype, r.shape, want.shape))
if not np.array_equal(r.astype(np.float64), want): sys.exit("%d values differ" % np.sum(r != want))
PY
                  then ok; else bad "NumPy reading parlab's $op axis $axis: $(cat np.txt)"; fi; }
        done
    done
else
    missing "NumPy checks: no interpreter with NumPy" "the venv make test sets up (python3-venv)"
fi

# ---------------------------------------------------------------- the bench's own check
# A long row cut across threads, and dot in pieces: the bench's check is exact on its inputs
# (src/kernels/reduce/spec.c), so a rung that loses one element fails it.
for v in cpu-naive cpu-simd; do
    run 0 "bench reduce 1x100003 $v" bench reduce --size 1x100003,2x70001 --variant $v --threads 2 --repeats 1
    run 0 "bench reduce sumsq columns $v" bench reduce --size 70001x3 --set op=sumsq --set axis=0 --variant $v --threads 2 --repeats 1
    run 0 "bench dot $v" bench dot --size 100003 --variant $v --threads 2 --repeats 1
done

summary test_cli_reduce
