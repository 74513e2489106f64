#!/usr/bin/env python3
"""make_io_fixtures.py: the tiny image and array files tests/test_pgm.c and tests/test_arrays.c
read (run once, here in tests/data/; the files are committed, so the tests need no Python).

PNGs are written by hand (zlib + the chunk layout), so no imaging library is needed: 4-bit and
16-bit gray that parlab reads, and RGB, palette and gray+alpha images it must refuse, naming
the colour type. The .npz/.npy files need numpy: np.savez (stored members), np.savez_compressed
(deflated members) and np.save of a uint16 array. The values are the ones the tests expect."""
import struct
import zlib


def png(name, width, height, depth, colour, rows, extra=b""):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + r for r in rows)  # filter type 0 (none) on every row
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    body = chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(name, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + body)


# 4-bit gray 3 x 2: [[0, 5, 15], [7, 1, 9]], two samples a byte, high nibble first.
png("gray4_3x2.png", 3, 2, 4, 0, [bytes([0x05, 0xF0]), bytes([0x71, 0x90])])
# 16-bit gray 2 x 3 (w x h): [[0, 1], [256, 4660], [65535, 1000]], big-endian.
png("gray16_2x3.png", 2, 3, 16, 0,
    [struct.pack(">HH", 0, 1), struct.pack(">HH", 256, 4660), struct.pack(">HH", 65535, 1000)])
png("rgb_2x2.png", 2, 2, 8, 2, [bytes(6), bytes(6)])
png("gray_alpha_2x2.png", 2, 2, 8, 4, [bytes(4), bytes(4)])
plte = struct.pack(">I", 6) + b"PLTE" + bytes(6)
plte += struct.pack(">I", zlib.crc32(b"PLTE" + bytes(6)))
png("palette_2x2.png", 2, 2, 8, 3, [bytes(2), bytes(2)], extra=plte)

try:
    import numpy as np
except ImportError:
    print("numpy not found: the .npz/.npy fixtures were not remade")
else:
    arrays = dict(
        a=np.arange(15, dtype=np.uint8).reshape(3, 5),
        b=((np.arange(6, dtype=np.float32) - 2.5) / 4).reshape(2, 3),
        c=np.int32(-7),
        d=np.array([0, 1, 65535, 4242], dtype=np.uint16),
        e=np.zeros((0, 3), dtype=np.float64),
    )
    np.savez("numpy_savez.npz", **arrays)
    np.savez_compressed("numpy_savez_compressed.npz", **arrays)
    np.save("numpy_u16.npy", arrays["d"])
