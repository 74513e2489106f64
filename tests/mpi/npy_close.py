"""npy_close.py GOT WANT TOL [nan]: exit 0 when two float32 .npy files (numpy's header, as parlab writes
them) have the same shape and every element agrees within TOL * (1 + |want|); else 1, naming the
worst element. A NaN fails, unless the fourth argument is "nan": then a NaN agrees with a NaN (and
nothing else), for results that must keep the inputs' NaN. For results whose order of summation differs between ranks (GEMM, reduce)."""
import array
import ast
import sys


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    n = int.from_bytes(raw[8:10], "little")
    head = ast.literal_eval(raw[10:10 + n].decode())
    data = array.array("f")
    data.frombytes(raw[10 + n:])
    return head["shape"], data


(sg, got), (sw, want) = load(sys.argv[1]), load(sys.argv[2])
tol = float(sys.argv[3])
nan_ok = len(sys.argv) > 4 and sys.argv[4] == "nan"
if sg != sw:
    sys.exit("shapes differ: %s and %s" % (sg, sw))
worst, at = 0.0, -1
for i, (g, w) in enumerate(zip(got, want)):
    if w != w or g != g:
        err = 0.0 if nan_ok and w != w and g != g else float("inf")
    else:
        err = abs(g - w) / (1 + abs(w))
    if err > worst:
        worst, at = err, i
if worst > tol:
    sys.exit("element %d: %r, want %r (error %.3g > %g)" % (at, got[at], want[at], worst, tol))
