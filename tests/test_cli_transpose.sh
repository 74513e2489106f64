# test_cli_transpose.sh: `parlab transpose` end to end. The .npy fixtures are written and the
# results compared (bit for bit against A.T) by a few lines of python3 with the standard
# library only (no numpy). Run with PARLAB (the parlab executable) and PL_TESTDIR set.
#
# Exit codes checked (see src/cli/cmd_transpose.c): 0 success; 1 runtime failure (missing file,
# malformed .npy, wrong dtype or rank, a write failing after the run); 2 usage error (an output refused
# before the run, unknown option,
# missing argument, unknown variant, too big for memory).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_transpose python3

# py_npy: write.py FILE DESCR ROWS COLS [SEED] writes a C-order .npy of seeded values;
# check.py A B exits 0 when B is exactly A.T (shape and every bit), else prints the first
# difference.
cat >npy.py <<'PY'
import random, struct, sys

def header(descr, shape):
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", total - 10) + (d + " " * (total - 10 - len(d) - 1) + "\n").encode()

def read(path):
    b = open(path, "rb").read()
    hl = struct.unpack("<H", b[8:10])[0]
    h = eval(b[10:10 + hl].decode())
    n = 1
    for s in h["shape"]:
        n *= s
    return h["descr"], h["shape"], b[10 + hl:10 + hl + 4 * n]

if sys.argv[1] == "header":
    open(sys.argv[2], "wb").write(header("<f4", sys.argv[3]))
elif sys.argv[1] == "write":
    path, descr, rows, cols = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    rnd = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    size = 8 if descr == "<f8" else 4
    shape = "(%d,)" % cols if rows < 0 else "(%d, %d)" % (rows, cols)
    n = cols * max(rows, 1) if rows != 0 else 0
    fmt = "<d" if size == 8 else "<f"
    data = b"".join(struct.pack(fmt, rnd.uniform(-1, 1) or 0.5) for _ in range(n))
    open(path, "wb").write(header(descr, shape) + data)
else:
    da, sa, a = read(sys.argv[2])
    db, sb, b = read(sys.argv[3])
    m, n = sa
    if db != "<f4" or tuple(sb) != (n, m) or len(b) != 4 * m * n:
        sys.exit("B is %s %s, expected <f4 (%d, %d)" % (db, sb, n, m))
    for j in range(n):
        for i in range(m):
            x, y = a[4 * (i * n + j):4 * (i * n + j) + 4], b[4 * (j * m + i):4 * (j * m + i) + 4]
            if x != y:
                sys.exit("B[%d][%d] = %r, A[%d][%d] = %r" % (j, i, y, i, j, x))
PY
write() { python3 npy.py write "$@"; }
is_transpose() { python3 npy.py check "$1" "$2"; }


# ---------------------------------------------------------------- results
write A.npy '<f4' 33 65 1
write R.npy '<f4' 1000 3 2
write C.npy '<f4' 1 7 3
write S.npy '<f4' 1 1 4
write E.npy '<f4' 0 5
# Every CPU variant this machine can run, and the default, on odd shapes: exactly A.T.
variants=$("$PARLAB" list transpose 2>/dev/null | awk '$1 == "+" && $3 == "cpu" {print $2}')
[ -n "$variants" ] || bad "parlab list transpose names no runnable CPU variant"
for f in R A C S; do
    if run 0 "default $f" transpose $f.npy -o T$f.npy --backend cpu; then
        if is_transpose $f.npy T$f.npy; then ok; else bad "default on $f.npy: not A.T"; fi
        if [ $f = R ]; then
            if grep -qE "^B = A\^T: 3x1000 \(A 1000x3\), variant cpu-[a-z]+, [0-9.]+ ms$" out.txt; then ok
            else bad "summary line: $(cat out.txt)"; fi
        fi
    fi
    for v in $variants; do
        rm -f T$f.npy
        if run 0 "$v $f" transpose $f.npy -o T$f.npy --variant "$v"; then
            if is_transpose $f.npy T$f.npy; then ok; else bad "$v on $f.npy: not A.T"; fi
        fi
    done
done
if run 0 "empty matrix" transpose E.npy -o TE.npy --backend cpu; then
    if is_transpose E.npy TE.npy; then ok; else bad "empty matrix: TE.npy is not 5x0"; fi
fi
run 0 "--help" transpose --help && { if grep -q '^usage: parlab transpose' out.txt; then ok; else bad "--help: no usage line"; fi; }

# ---------------------------------------------------------------- runtime failures (exit 1)
write A64.npy '<f8' 2 2
write V.npy '<f4' -1 4
head -c 150 A.npy >Trunc.npy
run 1 "missing file" transpose nope.npy -o X1.npy --backend cpu
expect_err "missing file" "nope.npy"
run 1 "truncated data" transpose Trunc.npy -o X2.npy --backend cpu
run 1 "not a .npy file" transpose npy.py -o X3.npy --backend cpu
expect_err "not a .npy file" "magic"
run 1 "float64 input" transpose A64.npy -o X4.npy --backend cpu
expect_err "float64 input" "float64"
run 1 "rank-1 input" transpose V.npy -o X5.npy --backend cpu
expect_err "rank-1 input" "rank 1"
run 2 "unwritable output" transpose A.npy -o no-such-dir/B.npy --backend cpu
expect_err "unwritable output" "no-such-dir/B.npy"
for f in X1 X2 X3 X4 X5; do no_file "runtime failures" $f.npy; done

# ---------------------------------------------------------------- usage errors (exit 2)
run 2 "unknown variant" transpose A.npy -o X6.npy --variant cpu-magic
expect_err "unknown variant" "unknown variant 'cpu-magic'"
expect_err "unknown variant" "cpu-blocked"
run 2 "unknown option" transpose A.npy -o X6.npy --alpha 2
expect_err "unknown option" "--alpha"
run 2 "no output" transpose A.npy
run 2 "no input" transpose -o X6.npy
run 2 "two inputs" transpose A.npy R.npy -o X6.npy
run 2 "bad threads" transpose A.npy -o X6.npy --threads 0
run 2 "bad backend" transpose A.npy -o X6.npy --backend gpu
run 2 "empty output name" transpose A.npy -o ''
no_file "usage errors" X6.npy
# Beyond what this process may take: exit 2 at once, in GiB, nothing written (a sparse file).
big Big.npy '(400000, 400000)' 640000000000
run 2 "input too big" transpose Big.npy -o X7.npy --backend cpu
expect_err "input too big" "GiB of host memory, more than the"
no_file "input too big" X7.npy
rm -f Big.npy

no_tmp_files
summary
