# test_cli_entropy.sh: `parlab entropy` end to end, single images and batches. The fixtures
# (.npy of several dtypes, PGM, parlab's batch file, .npz) are written and the outputs checked
# against a float64 entropy computed here, by a few lines of python3 with the standard library
# only. Run with PARLAB (the parlab executable) and PL_TESTDIR set.
#
# Exit codes checked (see src/cli/cmd_entropy.c): 0 success; 1 runtime failure (missing or
# malformed file, a value that is not an integer in [0, bins), a wrong rank); 2 usage error
# (bad option or value, missing argument, unknown variant).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_entropy python3

cat >ent.py <<'PY'
import io, math, random, struct, sys, zipfile

CODES = {"u1": ("<u1", "B", 1), "u2": ("<u2", "H", 2), "i4": ("<i4", "i", 4), "f4": ("<f4", "f", 4),
         "f8": ("<f8", "d", 8)}

def npy_bytes(dtype, rows, vals, cols=None):
    descr, fmt, size = CODES[dtype]
    shape = "(%d,)" % len(vals) if rows < 0 else "(%d, %d)" % (rows, cols if cols is not None else len(vals) // rows)
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    head = b"\x93NUMPY\x01\x00" + struct.pack("<H", total - 10) + (d + " " * (total - 10 - len(d) - 1) + "\n").encode()
    return head + b"".join(struct.pack("<" + fmt, v) for v in vals)

def seeded(rows, cols, bins, seed):
    rnd = random.Random(seed)
    return [rnd.randrange(bins) for _ in range(rows * cols)]

def read(path):
    b = open(path, "rb").read()
    hl = struct.unpack("<H", b[8:10])[0]
    h = eval(b[10:10 + hl].decode())
    n = 1
    for s in h["shape"]:
        n *= s
    return h["descr"], h["shape"], struct.unpack("<%df" % n, b[10 + hl:10 + hl + 4 * n])

def entropy(vals, H, W, k, base2):
    r, out = k // 2, []
    for i in range(H):
        for j in range(W):
            cnt = {}
            for y in range(max(0, i - r), min(H, i + r + 1)):
                for x in range(max(0, j - r), min(W, j + r + 1)):
                    cnt[vals[y * W + x]] = cnt.get(vals[y * W + x], 0) + 1
            n = sum(cnt.values())
            e = -sum(c / n * math.log(c / n) for c in cnt.values())
            out.append(e / math.log(2) if base2 else e)
    return out

def check(path, vals, H, W, k, base2):
    descr, shape, got = read(path)
    if descr != "<f4" or tuple(shape) != (H, W):
        sys.exit("%s is %s %s, expected <f4 (%d, %d)" % (path, descr, shape, H, W))
    want = entropy(vals, H, W, k, base2)
    for i, (g, w) in enumerate(zip(got, want)):
        if abs(g - w) > 1e-5:
            sys.exit("%s: pixel (%d, %d) = %r, expected %r" % (path, i // W, i % W, g, w))

cmd = sys.argv[1]
if cmd == "write":     # write FILE DTYPE ROWS COLS BINS SEED
    path, dt, rows, cols, bins, seed = sys.argv[2], sys.argv[3], *map(int, sys.argv[4:8])
    open(path, "wb").write(npy_bytes(dt, rows, seeded(max(rows, 1), cols, bins, seed), cols))
elif cmd == "check":   # check OUT ROWS COLS BINS SEED K BASE2
    path, rows, cols, bins, seed, k, base2 = sys.argv[2], *map(int, sys.argv[3:9])
    check(path, seeded(rows, cols, bins, seed), rows, cols, k, base2)
elif cmd == "pgm":     # pgm FILE ROWS COLS BINS SEED: binary 8-bit PGM
    path, rows, cols, bins, seed = sys.argv[2], *map(int, sys.argv[3:7])
    open(path, "wb").write(b"P5\n# a comment\n%d %d\n255\n" % (cols, rows) + bytes(seeded(rows, cols, bins, seed)))
elif cmd == "bad":     # bad FILE DTYPE ROWS COLS ROW COL VALUE: zeros but one value
    path, dt, rows, cols, row, col = sys.argv[2], sys.argv[3], *map(int, sys.argv[4:8])
    vals = [0] * (rows * cols)
    vals[row * cols + col] = float(sys.argv[8]) if dt[0] == "f" else int(sys.argv[8])
    open(path, "wb").write(npy_bytes(dt, rows, vals, cols))
elif cmd == "batch":   # batch FILE (npz|raw) BINS then ROWSxCOLS:SEED:DTYPE[:BINS] ... (names 0, 1, .. or m0, m1, ..)
    path, kind, bins, parts = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    blobs = []
    for p in parts:
        shape, seed, dt, *own = p.split(":")
        rows, cols = map(int, shape.split("x"))
        blobs.append(npy_bytes(dt, rows, seeded(rows, cols, int(own[0]) if own else bins, int(seed)), cols))
    if kind == "raw":
        open(path, "wb").write(b"".join(blobs))
    else:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            for i, b in enumerate(blobs):
                z.writestr("m%d.npy" % i, b)
PY
ent() { python3 ent.py "$@"; }

# ---------------------------------------------------------------- single images
ent write u8.npy u1 7 9 16 1
run 0 "uint8 defaults" entropy u8.npy -o E.npy &&
    { ent check E.npy 7 9 16 1 5 0 && ok || bad "uint8 k=5: wrong values"; }
grep -q "entropy: 7x9, k=5, bins=16, base e, variant cpu-sliding" out.txt && ok || bad "summary line: $(cat out.txt)"

ent write f4.npy f4 13 11 4 2
run 0 "float32 k=3 base 2" entropy f4.npy -k 3 --bins 4 --base 2 -o F.npy &&
    { ent check F.npy 13 11 4 2 3 1 && ok || bad "float32 k=3 base 2: wrong values"; }
ent write i4.npy i4 5 40 200 3
run 0 "int32 bins=200 k=7" entropy i4.npy -k 7 --bins=200 -o I.npy &&
    { ent check I.npy 5 40 200 3 7 0 && ok || bad "int32 k=7: wrong values"; }
ent write u2.npy u2 3 4 16 4
run 0 "uint16" entropy u2.npy -o U.npy && { ent check U.npy 3 4 16 4 5 0 && ok || bad "uint16: wrong values"; }
ent write f8.npy f8 1 1 16 5
run 0 "float64 1x1" entropy f8.npy -o D.npy && { ent check D.npy 1 1 16 5 5 0 && ok || bad "1x1: wrong value"; }
ent pgm img.pgm 20 33 16 6
run 0 "8-bit PGM" entropy img.pgm -o P.npy && { ent check P.npy 20 33 16 6 5 0 && ok || bad "PGM: wrong values"; }
for v in cpu-naive cpu-histogram cpu-histogram-log-table cpu-sliding; do
    run 0 "variant $v" entropy u8.npy --variant "$v" -o V.npy &&
        { ent check V.npy 7 9 16 1 5 0 && ok || bad "$v: wrong values"; }
done
run 0 "--threads 1" entropy u8.npy --threads 1 -o T.npy && { ent check T.npy 7 9 16 1 5 0 && ok || bad "1 thread"; }

# ---------------------------------------------------------------- bad values: exit 1, the pixel named, no output
ent bad nonint.npy f4 4 5 2 3 1.5
run 1 "non-integer" entropy nonint.npy -o X.npy && expect_err "non-integer" "value 1.5 at pixel (row 2, col 3) is not an integer"
no_file "non-integer" X.npy
ent bad big.npy u1 4 5 3 1 16
run 1 "value = bins" entropy big.npy -o X.npy && expect_err "value = bins" "value 16 at pixel (row 3, col 1) is outside [0, 16)"
no_file "value = bins" X.npy
# an ordinary 8-bit image under the default --bins 16: the refusal says what to give
ent pgm full.pgm 6 7 256 9
run 1 "8-bit image, default bins" entropy full.pgm -o X.npy && expect_err "8-bit image hint" "needs --bins 256"
no_file "8-bit image, default bins" X.npy
run 0 "8-bit image, --bins 256" entropy full.pgm --bins 256 -o F8.npy &&
    { ent check F8.npy 6 7 256 9 5 0 && ok || bad "8-bit PGM with 256 bins: wrong values"; }
# the output is float32 NumPy data: an image name is refused before anything runs
run 2 "-o x.pgm" entropy u8.npy -o x.pgm && expect_err "-o x.pgm" "x.pgm" && expect_err "-o x.pgm says .npy" ".npy"
no_file "-o x.pgm" x.pgm
run 2 "-o x.png" entropy u8.npy -o x.png && expect_err "-o x.png" "x.png"
no_file "-o x.png" x.png
ent bad bigf.npy f4 3 3 2 2 16
run 1 "float32 value = bins" entropy bigf.npy -o X.npy && expect_err "float32 value = bins" "value 16 at pixel (row 2, col 2) is outside [0, 16)"
ent bad neg.npy i4 4 5 0 4 -1
run 1 "negative" entropy neg.npy -o X.npy && expect_err "negative" "value -1 at pixel (row 0, col 4) is outside [0, 16)"
ent bad nan.npy f4 2 2 1 1 nan
run 1 "NaN" entropy nan.npy -o X.npy && expect_err "NaN" "pixel (row 1, col 1) is not an integer"
ent write vec.npy f4 -1 5 16 1
run 1 "rank 1" entropy vec.npy -o X.npy && expect_err "rank 1" "rank-1"
run 1 "missing file" entropy nothere.npy -o X.npy && expect_err "missing file" "nothere.npy"
[ "$(grep -c 'error' err.txt)" -eq 1 ] && ok || bad "missing file: the error printed more than once: $(cat err.txt)"
printf 'P5\n3 3\n255\nab' >short.pgm
run 1 "truncated PGM" entropy short.pgm -o X.npy && expect_err "truncated PGM" "short.pgm"
no_file "runtime failures" X.npy
run 2 "unwritable output" entropy u8.npy -o nodir/E.npy

# ---------------------------------------------------------------- usage errors: exit 2, the value named
run 2 "even k" entropy u8.npy -k 4 -o X.npy && expect_err "even k" "-k 4"
run 2 "k = 0" entropy u8.npy -k 0 -o X.npy && expect_err "k = 0" "-k"
run 2 "k = 65" entropy u8.npy -k 65 -o X.npy && expect_err "k = 65" "65"
run 2 "bins = 1" entropy u8.npy --bins 1 -o X.npy && expect_err "bins = 1" "--bins"
run 2 "bins = 300" entropy u8.npy --bins 300 -o X.npy && expect_err "bins = 300" "300"
run 2 "base 10" entropy u8.npy --base 10 -o X.npy && expect_err "base 10" "--base '10'"
run 2 "no output" entropy u8.npy && expect_err "no output" "-o"
run 2 "no input" entropy -o X.npy && expect_err "no input" "IMAGE"
run 2 "two inputs" entropy u8.npy f4.npy -o X.npy && expect_err "two inputs" "f4.npy"
run 2 "image and batch" entropy u8.npy --batch b.bin -o X.npy && expect_err "image and batch" "not both"
run 2 "unknown variant" entropy u8.npy --variant cpu-nope -o X.npy && expect_err "unknown variant" "cpu-nope"
run 2 "unknown option" entropy u8.npy --window 3 -o X.npy && expect_err "unknown option" "--window"
run 0 "help" entropy --help && { grep -q "usage: parlab entropy" out.txt && ok || bad "help text"; }
no_file "usage errors" X.npy

# ---------------------------------------------------------------- batches
ent batch b.bin raw 16 7x9:1:u1 40x3:2:f4 1x1:3:u1
run 0 "batch file" entropy --batch b.bin -o out && {
    ent check out/0.npy 7 9 16 1 5 0 && ent check out/1.npy 40 3 16 2 5 0 && ent check out/2.npy 1 1 16 3 5 0 &&
        ok || bad "batch: wrong values"
    grep -q "^1 .* 40x3 " out.txt && ok || bad "batch: no line for matrix 1: $(cat out.txt)"
    grep -Eq "^0 +7x9 +[0-9.]+ +- +[0-9.]+ +-$" out.txt && ok || bad "batch: matrix 0's line (CPU: no copies): $(cat out.txt)"
    grep -q "^total " out.txt && grep -q "^maximum " out.txt && ok || bad "batch: no total/maximum: $(cat out.txt)"
}
ent batch b.npz npz 4 5x6:7:u1 33x65:8:i4
run 0 "npz k=3 bins=4 base 2" entropy --batch b.npz -k 3 --bins 4 --base 2 -o zout &&
    { ent check zout/m0.npy 5 6 4 7 3 1 && ent check zout/m1.npy 33 65 4 8 3 1 && ok || bad "npz: wrong values"; }
# A bad matrix anywhere: nothing written, the directory not made, the matrix and pixel named.
ent batch bad.bin raw 8 7x9:1:u1 4x4:2:u1:16
run 1 "batch, values >= bins" entropy --batch bad.bin --bins 8 -o badout &&
    expect_err "batch, values >= bins" "matrix '1'"
no_file "batch failure" badout
mkdir -p keep && echo x >keep/other.txt
run 1 "batch into a directory, failure" entropy --batch bad.bin --bins 8 -o keep
[ -e keep/other.txt ] && [ ! -e keep/0.npy ] && ok || bad "batch failure touched keep/: $(ls keep)"
# A write that fails half-way (OUTDIR/1.npy is a directory): the matrix 0 already written goes too.
mkdir -p partial/1.npy
run 1 "batch, a write fails" entropy --batch b.bin -o partial
[ ! -e partial/0.npy ] && [ -d partial/1.npy ] && ok || bad "batch, a write fails: left $(ls partial)"
echo notabatch >junk.bin
run 1 "malformed batch" entropy --batch junk.bin -o jout && expect_err "malformed batch" "junk.bin"
echo x >afile
run 1 "output is a file" entropy --batch b.bin -o afile && expect_err "output is a file" "not a directory"
no_tmp_files

summary test_cli_entropy
