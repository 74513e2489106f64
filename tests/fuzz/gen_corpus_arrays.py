#!/usr/bin/env python3
"""Write the seed corpus of fuzz_arrays into tests/fuzz/corpus/arrays/ (no numpy needed).

ok_*: parlab batch files (.npy records back to back) and .npz archives (stored members, as
np.savez and pl_arrays_write make them, with zip64 extra fields as Python's zipfile writes for
numpy); z_*: a deflated .npz (reads where the build has zlib, refused where not); bad_*:
truncated and corrupted ones (bad CRC, directory and member offsets past the end, bad
signatures, a member not named .npy, an unknown method, junk after a batch record).
tests/test_arrays.c replays them. Run again after changing:
python3 tests/fuzz/gen_corpus_arrays.py
"""
import io
import os
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "arrays")


def npy(descr, shape, data):
    shape_text = "(%d,)" % shape[0] if len(shape) == 1 else "(" + ", ".join(map(str, shape)) + ")"
    d = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    total = (10 + len(d) + 1 + 63) // 64 * 64
    d = d + " " * (total - 10 - len(d) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode() + data


A = npy("<f4", (2, 3), struct.pack("<6f", -1, -0.5, 0, 0.5, 1, 1.5))
B = npy("|u1", (4,), bytes([0, 1, 254, 255]))
C = npy("<u2", (), struct.pack("<H", 4242))


def npz(members, method=zipfile.ZIP_STORED, force_zip64=False):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as z:
        for name, data in members:
            with z.open(name, "w", force_zip64=force_zip64) as f:
                f.write(data)
    return buf.getvalue()


good_npz = npz([("a.npy", A), ("b.npy", B), ("c.npy", C)])
files = {
    "ok_batch_three": A + B + C,
    "ok_batch_one": B,
    "ok_npz_stored": good_npz,
    "ok_npz_zip64_extra": npz([("a.npy", A), ("b.npy", B)], force_zip64=True),
    "ok_npz_empty": npz([]),
    # Bytes after a member's .npy data: numpy ignores them, and so does parlab, but they are
    # part of the member's CRC-32.
    "ok_npz_trailing_bytes": npz([("a.npy", A + b"xyz"), ("b.npy", B)]),
    "z_npz_deflated": npz([("a.npy", A), ("c.npy", C)], method=zipfile.ZIP_DEFLATED),
    "bad_batch_cut": (A + B)[:-2],
    "bad_batch_junk_after": A + b"junk",
    "bad_npz_cut": good_npz[: len(good_npz) // 2],
    "bad_not_either": b"hello world",
}
# Corruptions of good_npz, located through its end record.
eocd = len(good_npz) - 22
cd = struct.unpack_from("<I", good_npz, eocd + 16)[0]


def patched(offset, value, fmt="<I"):
    b = bytearray(good_npz)
    struct.pack_into(fmt, b, offset, value)
    return bytes(b)


files["bad_npz_crc"] = patched(cd + 16, struct.unpack_from("<I", good_npz, cd + 16)[0] ^ 1)
files["bad_npz_cd_offset"] = patched(eocd + 16, len(good_npz) + 100)
files["bad_npz_local_offset"] = patched(cd + 42, cd - 3)
files["bad_npz_member_size"] = patched(cd + 20, 0x7FFFFFFF)
files["bad_npz_method"] = patched(cd + 10, 12, "<H")
files["bad_npz_name"] = patched(cd + 46 + 2, ord("x"), "<B")  # "a.xpy"
b = bytearray(good_npz)
b[30 + 5 + 70] ^= 0xFF  # a byte of a.npy's data
files["bad_npz_data_bit"] = bytes(b)

os.makedirs(OUT, exist_ok=True)
for name, data in files.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("wrote %d files to %s" % (len(files), OUT))
