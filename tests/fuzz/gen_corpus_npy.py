#!/usr/bin/env python3
"""Write the seed corpus of fuzz_npy into tests/fuzz/corpus/npy/ (no numpy needed).

Valid files as numpy writes them (version 1.0, header padded to 64 bytes, 21 spare digits
after the first dimension), in every dtype parlab reads, ranks 0..3, an empty dimension,
versions 2.0 and 3.0; and malformed ones: bad magic, bad version, truncated prefix, header
and data, huge and overflowing shapes, fortran order, big-endian and structured dtypes,
missing and repeated keys, junk after the dict. The files carry no .npy suffix (the
repository ignores *.npy). Run it again after changing it: python3 tests/fuzz/gen_corpus_npy.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "npy")


def shape_text(shape):
    if len(shape) == 1:
        return "(%d,)" % shape[0]
    return "(" + ", ".join(str(d) for d in shape) + ")"


def header(descr, shape, fortran=False, major=1, raw_dict=None, numpy_pad=True):
    d = raw_dict if raw_dict is not None else "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", shape_text(shape))
    if numpy_pad and raw_dict is None and len(shape) > 0:
        d += " " * (21 - len(str(shape[0])))
    prefix = 10 if major == 1 else 12
    total = prefix + len(d) + 1
    pad = 64 - total % 64 if total % 64 else 0
    d = d + " " * pad + "\n"
    hl = len(d)
    lenbytes = struct.pack("<H", hl) if major == 1 else struct.pack("<I", hl)
    return b"\x93NUMPY" + bytes([major, 0]) + lenbytes + d.encode("latin-1")


def data(descr, n):
    code = descr[-2:]
    if code == "f4":
        return b"".join(struct.pack("<f", i * 0.5 - 1.25) for i in range(n))
    if code == "f8":
        return b"".join(struct.pack("<d", i * 1e-3 - 7.0) for i in range(n))
    if code == "i4":
        return b"".join(struct.pack("<i", i * 7919 - 1000) for i in range(n))
    return bytes((i * 37 + 1) & 0xFF for i in range(n))


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


files = {}
# Valid: every dtype at ranks 0..3 (small).
for descr in ("<f4", "<f8", "<i4", "|u1", "<u1"):
    for shape in ((), (5,), (2, 3), (2, 1, 3)):
        name = "ok_%s_r%d" % (descr[1:], len(shape))
        files[name] = header(descr, shape) + data(descr, count(shape))
files["ok_f4_empty_dim"] = header("<f4", (3, 0, 2))
files["ok_f4_empty_r1"] = header("<f4", (0,))
files["ok_v2_f8"] = header("<f8", (2, 2), major=2) + data("<f8", 4)
files["ok_v3_i4"] = header("<i4", (3,), major=3) + data("<i4", 3)
files["ok_trailing_bytes"] = header("<f4", (2,)) + data("<f4", 2) + b"extra"
files["ok_double_quotes"] = header(None, None, raw_dict='{"descr": "<f4", "shape": (1,), "fortran_order": False}') + data("<f4", 1)
files["ok_py2_long"] = header(None, None, raw_dict="{'descr': '<i4', 'fortran_order': False, 'shape': (2L, 1L), }") + data("<i4", 2)
files["ok_nul_padding"] = b"\x93NUMPY\x01\x00\x40\x00" + b"{'descr':'|u1','fortran_order':False,'shape':(3,)}".ljust(64, b"\0") + b"abc"

# Malformed.
good = header("<f4", (2, 3)) + data("<f4", 6)
files["bad_magic"] = b"\x93NUMPX" + good[6:]
files["bad_empty"] = b""
files["bad_magic_only"] = b"\x93NUMPY"
files["bad_prefix_cut"] = good[:9]
files["bad_version_4"] = good[:6] + b"\x04\x00" + good[8:]
files["bad_version_1_1"] = good[:6] + b"\x01\x01" + good[8:]
files["bad_v2_prefix_cut"] = header("<f4", (1,), major=2)[:11]
files["bad_header_cut"] = good[:40]
files["bad_header_len_huge"] = b"\x93NUMPY\x02\x00\xff\xff\xff\x7f{'descr': '<f4'"
files["bad_data_cut"] = good[:-5]
files["bad_huge_shape"] = header("<f4", (1 << 40, 1 << 40))
files["bad_overflow_dim"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }")
files["bad_product_overflow"] = header("<f8", (1 << 31, 1 << 31, 1 << 31))
files["bad_rank_9"] = header("|u1", (1,) * 9) + b"\x01"
files["bad_fortran"] = header("<f4", (2, 3), fortran=True) + data("<f4", 6)
files["bad_big_endian"] = header(">f4", (2,)) + data("<f4", 2)
files["bad_descr_c8"] = header("<c8", (1,)) + b"\0" * 8
files["bad_structured"] = header(None, None, raw_dict="{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }") + b"\0" * 4
files["bad_no_shape"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': False, }")
files["bad_key_twice"] = header(None, None, raw_dict="{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,), }") + b"\0" * 4
files["bad_unknown_key"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}") + b"\0" * 4
files["bad_negative_dim"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }")
files["bad_junk_after"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x") + b"\0" * 4
files["bad_unterminated"] = header(None, None, raw_dict="{'descr': '<f4")
files["bad_bool"] = header(None, None, raw_dict="{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }") + b"\0" * 4

os.makedirs(OUT, exist_ok=True)
for name, b in sorted(files.items()):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(b)
print("wrote %d files to %s" % (len(files), OUT))
