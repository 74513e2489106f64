"""mknpy.py FILE DTYPE ROWS COLS SEED [LO HI]: a seeded random 2D .npy (version 1.0, numpy's own
header bytes) without numpy, for the MPI tool tests. DTYPE: f4 (uniform in [-1, 1)), i4 or u1
(integers in [LO, HI], default -100..100 and 0..255)."""
import array
import random
import sys

path, dtype, rows, cols, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
n = rows * cols
if dtype == "f4":
    data, descr = array.array("f", (rng.uniform(-1, 1) for _ in range(n))), "<f4"
else:
    lo = int(sys.argv[6]) if len(sys.argv) > 6 else (-100 if dtype == "i4" else 0)
    hi = int(sys.argv[7]) if len(sys.argv) > 7 else (100 if dtype == "i4" else 255)
    data = array.array("i" if dtype == "i4" else "B", (rng.randint(lo, hi) for _ in range(n)))
    descr = "<i4" if dtype == "i4" else "|u1"
d = "{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }" % (descr, rows, cols)
d += " " * (21 - len(str(rows)))
d += " " * (64 - (10 + len(d) + 1) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(d).to_bytes(2, "little") + d.encode() + data.tobytes())
