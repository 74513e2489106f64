# test_cli_conv2d.sh: `parlab conv2d` end to end. Small cases computed by hand (written with
# cli_lib.sh's npy helper, no python); with NumPy (/usr/bin/python3, a failure without it), a round trip of every mode,
# border, flip and dtype against numpy's own padding (np.pad 'constant', 'edge', 'reflect')
# and sliding windows; PGM in and out (8 and 16 bit, rounding and the clamped count); the
# usage errors and runtime failures. Run with PARLAB (the parlab executable) and PL_TESTDIR set.
#
# Exit codes checked (see src/cli/cmd_conv2d.c): 0 success; 1 runtime failure (missing or
# malformed file, a type conv2d does not take, a write failing after the run); 2 usage error (an output refused
# before the run, bad option,
# value or filter, a filter larger than the image in valid mode, int32 overflow, unknown
# variant, too big for memory).
. "$(dirname "$0")/cli_lib.sh"
cli_setup cli_conv2d

# int32 little-endian bytes, as hex
i1=01000000 i2=02000000 i3=03000000

# ---------------------------------------------------------------- by hand
# A 3x4 float32 image 1..12 (the row 1 2 3 4 / 5 6 7 8 / 9 10 11 12).
f9=00001041 f10=00002041 f11=00003041 f12=00004041
npy A.npy '<f4' '(3, 4)' "$f1$f2$f3$f4$f5$f6$f7$f8$f9$f10$f11$f12"
# valid 3x3 box: 1+2+3+5+6+7+9+10+11 = 54, then 63.
if run 0 "box valid" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1 -o B.npy --backend cpu; then
    same_values B.npy "54 63" && ok || bad "box valid"
    if grep -qE "^out = image \(\*\) 3x3 filter: 1x2 float32 \(image 3x4, valid\), variant cpu-[a-z]+, [0-9.]+ ms$" out.txt
    then ok; else bad "summary line: $(cat out.txt)"; fi
fi
# same, zero border: corner (0,0) = 1+2+5+6 = 14; row 0: 14 24 30 22; row 1: 33 54 63 45; row 2: 30 48 54 38.
if run 0 "box same zero" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1 --mode same -o Z.npy --backend cpu; then
    same_values Z.npy "14 24 30 22 33 54 63 45 30 48 54 38" && ok || bad "box same zero"
fi
# clamp: (0,0) reads rows 0,0,1 and columns 0,0,1: 4*1 + 2*2 + 2*5 + 6 = 24.
if run 0 "box same clamp" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1 --mode same --border clamp -o C.npy; then
    [ "$(values C.npy | head -1)" = 24 ] && ok || bad "clamp corner: $(values C.npy | head -1)"
fi
# reflect: (0,0) reads rows 1,0,1 and columns 1,0,1: 4*6 + 2*5 + 2*2 + 1 = 39.
if run 0 "box same reflect" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1 --mode same --border reflect -o R.npy; then
    [ "$(values R.npy | head -1)" = 39 ] && ok || bad "reflect corner: $(values R.npy | head -1)"
fi
# A flip that matters: the filter "right neighbour" reads x+1; flipped, x-1.
if run 0 "shift" conv2d A.npy --filter 0,0,0,0,0,1,0,0,0 -o S.npy; then
    same_values S.npy "7 8" && ok || bad "shift (cross-correlation)"
fi
if run 0 "shift flipped" conv2d A.npy --filter 0,0,0,0,0,1,0,0,0 --flip -o SF.npy; then
    same_values SF.npy "5 6" && ok || bad "shift (flipped)"
fi
# A 1x1 filter from a .npy file (float64 is fine for a filter): the image times 2.
npy W1.npy '<f8' '(1, 1)' 0000000000000040
if run 0 "filter file" conv2d A.npy --filter W1.npy -o W.npy; then
    same_values W.npy "2 4 6 8 10 12 14 16 18 20 22 24" && ok || bad "1x1 filter file"
fi
# int32 in, int32 out (exact): a 1x3 image needs a 1x1 filter in valid mode.
npy I.npy '<i4' '(1, 3)' "$i1$i2$i3"
if run 0 "int32" conv2d I.npy --filter 3 -o IO.npy; then
    got=$(od -An -v -t d4 -j 128 IO.npy | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
    [ "$got" = "3 6 9" ] && ok || bad "int32 output: $got"
    grep -q "int32" out.txt && ok || bad "int32 summary: $(cat out.txt)"
fi

# ---------------------------------------------------------------- PGM in and out
# A 2x3 8-bit P5 image 10 20 30 / 40 50 60.
printf 'P5\n3 2\n255\n\x0a\x14\x1e\x28\x32\x3c' >G.pgm
# same clamp, 3x3 filter -1..: the Laplacian-like filter 0,-1,0,-1,4,-1,0,-1,0 gives
# negatives at some pixels: they are clamped to 0 and counted.
if run 0 "pgm laplacian" conv2d G.pgm --filter 0,-1,0,-1,4,-1,0,-1,0 --mode same --border clamp -o L.pgm; then
    # (0,0): 4*10 - 10 - 40 - 10 - 20 = -40 -> 0; (0,1): 80 - 20 - 50 - 10 - 30 = -30 -> 0;
    # (0,2): 120 - 30 - 60 - 20 - 30 = -20 -> 0; (1,0): 160 - 10 - 40 - 40 - 50 = 20;
    # (1,1): 200 - 20 - 50 - 40 - 60 = 30; (1,2): 240 - 30 - 60 - 50 - 60 = 40.
    got=$(tail -c 6 L.pgm | od -An -v -t u1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
    [ "$got" = "0 0 0 20 30 40" ] && ok || bad "8-bit Laplacian: $got"
    [ "$(head -c 2 L.pgm)" = P5 ] && ok || bad "L.pgm is not a P5 file"
    grep -q "3 of 6 pixels clamped to 0..255" out.txt && ok || bad "clamped count: $(cat out.txt)"
fi
# Rounding: a box of 1/9 gives means; in clamp mode (0,0) is (4*10+2*20+2*40+50)/9 = 23.33 -> 23,
# (0,1) is (2*60 + 150)/9 = 30 computed as 29.9999997 in float32 -> 30 (truncation would give 29).
if run 0 "pgm mean" conv2d G.pgm --filter 0.1111111111,0.1111111111,0.1111111111,0.1111111111,0.1111111111,0.1111111111,0.1111111111,0.1111111111,0.1111111111 --mode same --border clamp -o M.pgm; then
    got=$(tail -c 6 M.pgm | od -An -t u1 | awk '{print $1, $2}')
    [ "$got" = "23 30" ] && ok || bad "mean rounding: $got"
    grep -q "0 of 6 pixels clamped" out.txt && ok || bad "mean: $(cat out.txt)"
fi
# 16 bit: a filter of 1000 lifts 60 to 60000 (kept) and the rest too.
if run 0 "pgm 16-bit" conv2d G.pgm --filter 1000 --depth 16 -o D.pgm; then
    grep -qa "65535" D.pgm && ok || bad "16-bit header"
    got=$(tail -c 4 D.pgm | od -An -v -t u1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
    [ "$got" = "195 80 234 96" ] && ok || bad "16-bit samples (big-endian 50000, 60000): $got"
fi
# The same image as int32 (--dtype i32): exact sums.
if run 0 "pgm int32" conv2d G.pgm --filter 1,1,1,1,1,1,1,1,1 --dtype i32 --mode same -o GI.npy; then
    got=$(od -An -v -t d4 -j 128 GI.npy | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
    [ "$got" = "120 210 160 120 210 160" ] && ok || bad "int32 box of the PGM: $got"
fi

# PNG out and back in, where this build has libpng (else the write is refused: exit 1, named).
"$PARLAB" conv2d G.pgm --filter 2 -o G.png >out.txt 2>err.txt
rc=$?
if [ $rc -eq 0 ]; then
    ok
    if run 0 "png in" conv2d G.png --filter 1 --dtype i32 -o GP.npy; then
        got=$(od -An -v -t d4 -j 128 GP.npy | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
        [ "$got" = "20 40 60 80 100 120" ] && ok || bad "png round trip: $got"
    fi
elif [ $rc -eq 1 ] && grep -qi "png" err.txt; then
    missing "PNG round trip ($(cat err.txt))" "libpng-dev"
else
    bad "png out: exit $rc: $(cat err.txt)"
fi

# ---------------------------------------------------------------- numpy round trip
# With make test's venv (cli_lib.sh's test_python), not whatever python3 is first on PATH;
# without NumPy the part says so (PL_REQUIRE_ALL=1: it fails).
if numpy_py=$(test_python numpy); then
    cat >ref.py <<'PY'
import sys
import numpy as np
img, filt, out, mode, border, flip = sys.argv[1:7]
x = np.load(img)
w = np.array([float(v) for v in filt.split(",")]) if "," in filt or not filt.endswith(".npy") else np.load(filt).ravel()
k = int(round(len(w) ** 0.5))
w = w.reshape(k, k).astype(np.float64)
if flip == "1":
    w = w[::-1, ::-1]
xf = x.astype(np.float64)
if mode == "same":
    r = k // 2
    xf = np.pad(xf, r, mode={"zero": "constant", "clamp": "edge", "reflect": "reflect"}[border])
win = np.lib.stride_tricks.sliding_window_view(xf, (k, k))
ref = np.einsum("yxij,ij->yx", win, w)
got = np.load(out)
if got.shape != ref.shape:
    sys.exit("shape %s, want %s" % (got.shape, ref.shape))
if x.dtype == np.int32 or got.dtype == np.int32:
    if got.dtype != np.int32 or not np.array_equal(got.astype(np.float64), ref):
        sys.exit("int32: not equal, %d differ" % np.sum(got != ref))
else:
    mag = np.einsum("yxij,ij->yx", np.abs(win), np.abs(w))
    err = np.abs(got.astype(np.float64) - ref) / (mag + 1e-30)
    if got.dtype != np.float32 or err.max() > 1e-5:
        sys.exit("float32: worst relative error %g" % err.max())
PY
    "$numpy_py" - <<'PY'
import numpy as np
rng = np.random.default_rng(5)
np.save("F.npy", rng.uniform(-1, 1, (37, 53)).astype(np.float32))
np.save("N.npy", rng.integers(-50, 50, (29, 40)).astype(np.int32))
np.save("U.npy", rng.integers(0, 256, (21, 33)).astype(np.uint8))
np.save("K5.npy", rng.uniform(-1, 1, (5, 5)))
PY
    filter3=0.5,-1,0.25,2,1,-0.5,0.125,0.75,-2
    for img in F N U; do
        for mode in valid "same zero" "same clamp" "same reflect"; do
            set -- $mode
            for flip in 0 1; do
                case $img in F) filters="$filter3 K5.npy" ;; *) filters=1,2,-1,3,0,-2,1,1,4 ;; esac
                for filt in $filters; do
                    args=(conv2d $img.npy --filter "$filt" --mode $1 -o O.npy --backend cpu)
                    [ $# -eq 2 ] && args+=(--border $2)
                    [ $flip = 1 ] && args+=(--flip)
                    [ $img = U ] && args+=(--dtype i32)
                    rm -f O.npy
                    if run 0 "numpy $img $mode flip=$flip $filt" "${args[@]}"; then
                        if msg=$("$numpy_py" ref.py $img.npy "$filt" O.npy $1 ${2:-zero} $flip 2>&1); then ok
                        else bad "numpy $img $mode flip=$flip $filt: $msg"; fi
                    fi
                done
            done
        done
    done
    # Every CPU variant on one of them.
    for v in $("$PARLAB" list conv2d 2>/dev/null | awk '$1 == "+" && $3 == "cpu" {print $2}'); do
        rm -f O.npy
        if run 0 "$v" conv2d F.npy --filter K5.npy --mode same --border reflect --flip -o O.npy --variant $v; then
            if msg=$("$numpy_py" ref.py F.npy K5.npy O.npy same reflect 1 2>&1); then ok; else bad "$v: $msg"; fi
        fi
    done
else
    missing "numpy round trip: no interpreter with NumPy" "the venv make test sets up (python3-venv)"
fi

run 0 "--help" conv2d --help && { grep -q '^usage: parlab conv2d' out.txt && ok || bad "--help: no usage line"; }

# ---------------------------------------------------------------- runtime failures (exit 1)
npy A64.npy '<f8' '(1, 1)' 0000000000000040
npy V.npy '<f4' '(3,)' "$f1$f2$f3"
printf 'P5\n3 2\n255\n\x0a\x14' >Trunc.pgm
run 1 "missing image" conv2d nope.npy --filter 1 -o X1.npy
expect_err "missing image" "nope.npy"
run 1 "missing filter file" conv2d A.npy --filter nofilter.npy -o X2.npy
expect_err "missing filter file" "nofilter.npy"
run 1 "float64 image" conv2d A64.npy --filter 1 -o X3.npy
expect_err "float64 image" "float64"
run 1 "rank-1 image" conv2d V.npy --filter 1 -o X4.npy
expect_err "rank-1 image" "rank 1"
run 1 "truncated pgm" conv2d Trunc.pgm --filter 1 -o X5.npy
run 2 "unwritable output" conv2d A.npy --filter 1 -o no-such-dir/B.npy
expect_err "unwritable output" "no-such-dir/B.npy"
for f in X1 X2 X3 X4 X5; do no_file "runtime failures" $f.npy; done

# ---------------------------------------------------------------- usage errors (exit 2)
run 2 "filter not a square" conv2d A.npy --filter 1,2,3,4 -o X6.npy
expect_err "filter not a square" "4 values"
run 2 "filter of even side" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 -o X6.npy
expect_err "filter of even side" "16 values"
run 2 "bad number" conv2d A.npy --filter 1,2,x3,4,5,6,7,8,9 -o X6.npy
expect_err "bad number" "'x3'"
run 2 "empty value" conv2d A.npy --filter 1,,3,4,5,6,7,8,9 -o X6.npy
expect_err "empty value" "value 2"
run 2 "fraction in an int32 filter" conv2d I.npy --filter 0.5 -o X6.npy
expect_err "fraction in an int32 filter" "int32"
run 2 "filter larger than the image" conv2d A.npy --filter 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 -o X6.npy
expect_err "filter larger than the image" "3x4 image"
run 2 "int32 overflow" conv2d G.pgm --dtype i32 --filter 100000000 -o X6.npy
expect_err "int32 overflow" "int32"
run 2 "no filter" conv2d A.npy -o X6.npy
expect_err "no filter" "--filter"
run 2 "bad mode" conv2d A.npy --filter 1 --mode full -o X6.npy
expect_err "bad mode" "'full'"
run 2 "bad border" conv2d A.npy --filter 1 --mode same --border wrap -o X6.npy
expect_err "bad border" "'wrap'"
run 2 "border in valid mode" conv2d A.npy --filter 1 --border clamp -o X6.npy
expect_err "border in valid mode" "--mode same"
run 2 "bad dtype" conv2d A.npy --filter 1 --dtype f64 -o X6.npy
run 2 "dtype against the file" conv2d A.npy --filter 1 --dtype i32 -o X6.npy
expect_err "dtype against the file" "float32"
run 2 "depth for a .npy" conv2d A.npy --filter 1 --depth 16 -o X6.npy
run 2 "output format by name" conv2d A.npy --filter 1 -o X6.jpg
expect_err "output format by name" "'.jpg' is not an output format"
no_file "output format by name" X6.jpg
run 2 "bad depth" conv2d A.npy --filter 1 --depth 12 -o X6.pgm
run 2 "unknown variant" conv2d A.npy --filter 1 -o X6.npy --variant cpu-magic
expect_err "unknown variant" "unknown variant 'cpu-magic'"
run 2 "unknown option" conv2d A.npy --filter 1 -o X6.npy --alpha 2
expect_err "unknown option" "--alpha"
run 2 "no output" conv2d A.npy --filter 1
run 2 "no input" conv2d --filter 1 -o X6.npy
run 2 "two inputs" conv2d A.npy A.npy --filter 1 -o X6.npy
run 2 "bad threads" conv2d A.npy --filter 1 -o X6.npy --threads 0
no_file "usage errors" X6.npy
no_file "usage errors" X6.pgm
# Beyond what this process may take: exit 2 at once, in GiB, nothing written (a sparse file).
big Big.npy '(400000, 400000)' 640000000000
run 2 "input too big" conv2d Big.npy --filter 1 -o X7.npy
expect_err "input too big" "GiB of host memory, more than the"
no_file "input too big" X7.npy
rm -f Big.npy

no_tmp_files
summary
