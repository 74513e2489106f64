# test_cli_gemv.sh: `parlab gemv` end to end. The .npy fixtures are written, and the results
# compared with a float64 product, by a few lines of python3 (standard library only). Run
# with PARLAB (the parlab executable) and PL_TESTDIR set.
#
# Exit codes checked (see src/cli/cmd_gemv.c): 0 success; 1 runtime failure (missing file,
# malformed .npy, wrong dtype or rank, a write failing after the run); 2 usage error (an output refused
# before the run, unknown option,
# missing argument, bad number, shapes that do not fit, unknown variant, too big for memory).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_gemv python3

# npy.py write FILE DESCR SHAPE [SEED]: seeded values in [-1, 1) (SHAPE "(3, 4)" or "(5,)");
# npy.py check A x y ALPHA TRANS: exits 0 when y is alpha*A*x (A^T with TRANS=t) within
# 1e-5 of each element's sum of magnitudes, with y's shape; else says where it is not.
cat >npy.py <<'PY'
import random, struct, sys

def write(path, descr, shape, data):
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    h = b"\x93NUMPY\x01\x00" + struct.pack("<H", total - 10) + (d + " " * (total - 11 - len(d)) + "\n").encode()
    open(path, "wb").write(h + data)

def read(path):
    b = open(path, "rb").read()
    hl = struct.unpack("<H", b[8:10])[0]
    h = eval(b[10:10 + hl].decode())
    n = 1
    for s in h["shape"]:
        n *= s
    return h["shape"], list(struct.unpack("<%df" % n, b[10 + hl:10 + hl + 4 * n]))

if sys.argv[1] == "write":
    path, descr, shape = sys.argv[2], sys.argv[3], sys.argv[4]
    rnd = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    n = 1
    for s in eval(shape):
        n *= s
    fmt = "<d" if descr == "<f8" else "<f"
    write(path, descr, shape, b"".join(struct.pack(fmt, rnd.uniform(-1, 1) or 0.5) for _ in range(n)))
else:
    (m, n), a = read(sys.argv[2])
    _, x = read(sys.argv[3])
    sy, y = read(sys.argv[4])
    alpha, t = float(sys.argv[5]), sys.argv[6] == "t"
    ny, nk = (n, m) if t else (m, n)
    if tuple(sy) != (ny,):
        sys.exit("y has shape %s, expected (%d,)" % (sy, ny))
    for i in range(ny):
        terms = [(a[k * n + i] if t else a[i * n + k]) * x[k] for k in range(nk)]
        ref, mag = alpha * sum(terms), abs(alpha) * sum(abs(v) for v in terms)
        if not abs(y[i] - ref) <= 1e-5 * mag + 1e-30:
            sys.exit("y[%d] = %r, expected %r" % (i, y[i], ref))
PY
w() { python3 npy.py write "$@"; }
w A.npy '<f4' '(33, 65)' 1
w x65.npy '<f4' '(65,)' 2
w x33.npy '<f4' '(33,)' 3
w A64.npy '<f8' '(33, 65)' 4
w xcol.npy '<f4' '(65, 1)' 5
w R.npy '<f4' '(1, 7)' 6
w x7.npy '<f4' '(7,)' 7
w x1.npy '<f4' '(1,)' 8
head -c 200 A.npy >T.npy

# product NAME A x y ALPHA TRANS: y holds the product.
product() { if msg=$(python3 npy.py check "$2" "$3" "$4" "$5" "$6" 2>&1); then ok; else bad "$1: $msg"; fi; }

# ---------------------------------------------------------------- working runs
if run 0 "A*x" gemv A.npy x65.npy -o y.npy --backend cpu; then
    product "A*x" A.npy x65.npy y.npy 1 n
    if grep -qE '^y = A\*x: 33x65, variant [a-z0-9-]+, [0-9.]+ ms$' out.txt; then ok
    else bad "A*x: stdout line: $(cat out.txt)"; fi
fi
run 0 "A^T*x" gemv A.npy x33.npy -o yt.npy --trans --alpha -2.5 --backend cpu &&
    { product "A^T*x" A.npy x33.npy yt.npy -2.5 t
      if grep -qF 'y = -2.5*A^T*x: 33x65' out.txt; then ok; else bad "A^T*x: stdout: $(cat out.txt)"; fi; }
for v in cpu-naive cpu-simd peer-openblas; do
    for t in n t; do
        flag=; xv=x65.npy; [ $t = t ] && { flag=--trans; xv=x33.npy; }
        "$PARLAB" list gemv | grep -q "^  + $v " || { echo "skipped: $v cannot run here"; continue; }
        run 0 "$v $t" gemv A.npy $xv -o yv.npy $flag --variant $v --threads 2 &&
            { product "$v $t" A.npy $xv yv.npy 1 $t
              if grep -q "variant $v," out.txt; then ok; else bad "$v: stdout: $(cat out.txt)"; fi; }
    done
done
run 0 "one row" gemv R.npy x7.npy -o y1.npy --backend cpu && product "one row" R.npy x7.npy y1.npy 1 n
run 0 "one row, A^T" gemv R.npy x1.npy -o y7.npy --trans --backend cpu && product "one row, A^T" R.npy x1.npy y7.npy 1 t
run 0 "--help" gemv --help && { if grep -q '^usage: parlab gemv' out.txt; then ok; else bad "--help: no usage"; fi; }

# ---------------------------------------------------------------- runtime failures: exit 1
run 1 "missing file" gemv nope.npy x65.npy -o X1.npy --backend cpu
expect_err "missing file" "nope.npy"
no_file "missing file" X1.npy
run 1 "truncated data" gemv T.npy x65.npy -o X2.npy --backend cpu
no_file "truncated data" X2.npy
run 1 "not a .npy file" gemv A.npy npy.py -o X3.npy --backend cpu
no_file "not a .npy file" X3.npy
run 1 "float64 input" gemv A64.npy x65.npy -o X4.npy --backend cpu
expect_err "float64 input" "A64.npy"
no_file "float64 input" X4.npy
run 1 "rank-2 x" gemv A.npy xcol.npy -o X5.npy --backend cpu
expect_err "rank-2 x" "xcol.npy"
no_file "rank-2 x" X5.npy
run 1 "rank-1 A" gemv x65.npy x65.npy -o X6.npy --backend cpu
no_file "rank-1 A" X6.npy
run 2 "unwritable output" gemv A.npy x65.npy -o no-such-dir/y.npy --backend cpu
expect_err "unwritable output" "no-such-dir/y.npy"

# ---------------------------------------------------------------- usage errors: exit 2
run 2 "shapes do not fit" gemv A.npy x33.npy -o X7.npy --backend cpu
expect_err "shapes do not fit" "A.npy is 33x65"
expect_err "shapes do not fit" "x33.npy has 33 elements"
no_file "shapes do not fit" X7.npy
run 2 "shapes do not fit, A^T" gemv A.npy x65.npy -o X8.npy --trans --backend cpu
expect_err "shapes do not fit, A^T" "x65.npy has 65 elements"
no_file "shapes do not fit, A^T" X8.npy
run 2 "unknown variant" gemv A.npy x65.npy -o X9.npy --variant cpu-magic
expect_err "unknown variant" "cpu-magic"
expect_err "unknown variant" "cpu-simd"
no_file "unknown variant" X9.npy
run 2 "unknown option" gemv A.npy x65.npy -o X9.npy --frobnicate
run 2 "no output" gemv A.npy x65.npy
run 2 "one input" gemv A.npy -o X9.npy
run 2 "three inputs" gemv A.npy x65.npy x33.npy -o X9.npy
run 2 "option without value" gemv A.npy x65.npy -o
run 2 "bad number" gemv A.npy x65.npy -o X9.npy --alpha two
run 2 "--trans takes no value" gemv A.npy x33.npy -o X9.npy --trans=1
run 2 "empty output name" gemv A.npy x65.npy -o ''
no_file "usage errors" X9.npy
# Beyond what this process may take: exit 2 at once, nothing written (a sparse file).
big Big.npy '(400000, 400000)' 640000000000
run 2 "too big" gemv Big.npy x65.npy -o X10.npy --backend cpu
expect_err "too big" "GiB"
no_file "too big" X10.npy
rm -f Big.npy

no_tmp_files
summary
