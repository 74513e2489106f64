#!/usr/bin/env python3
"""Write the seed corpus of fuzz_pgm into tests/fuzz/corpus/pgm/.

Valid PGMs (P2 and P5, 8 and 16 bit, comments, odd whitespace, a second image after the
first) named ok_*, and malformed ones named bad_* (bad magic, missing, zero, negative,
overflowing and junk header numbers, a comment after maxval, truncated data, samples above
maxval, P2 text that is not a number), and bad_too_big_* (a header claiming more pixels than
memory holds). tests/test_pgm.c replays them. Run again after changing:
python3 tests/fuzz/gen_corpus_pgm.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "pgm")

FILES = {
    "ok_p5_8bit": b"P5\n3 2\n255\n" + bytes([0, 17, 255, 1, 2, 3]),
    "ok_p5_16bit": b"P5\n2 2\n65535\n" + bytes([0, 0, 1, 0, 255, 255, 0x12, 0x34]),
    "ok_p5_maxval_1": b"P5 2 2 1\n" + bytes([0, 1, 1, 0]),
    "ok_p2_8bit": b"P2\n# made by hand\n3 2\n255\n0 17 255\n1 2 3\n",
    "ok_p2_16bit": b"P2 2 2 1000\n1000 0\n999 256",
    "ok_comments": b"P5#c1\n#c2\n 2#c3\n1 # c4\n255\n\x01\x02",
    "ok_two_images": b"P5 1 1 255\n\x07P5 1 1 255\n\x08",
    "ok_whitespace": b"P2\t1\r\n1\f255\v\n9\n",
    "bad_empty": b"",
    "bad_magic_p6": b"P6\n1 1\n255\n\x01",
    "bad_magic_junk": b"P5x 1 1 255\n\x01",
    "bad_no_width": b"P5\n",
    "bad_no_maxval": b"P5\n3 2",
    "bad_zero_width": b"P5\n0 2 255\n",
    "bad_negative_height": b"P5\n3 -2 255\n",
    "bad_maxval_65536": b"P5\n1 1 65536\n\x00\x00",
    "bad_width_overflow": b"P5\n99999999999999999999999 2 255\n",
    "bad_junk_width": b"P5\n3x 2 255\n",
    "bad_comment_after_maxval": b"P5 1 1 255#x\n\x01",
    "bad_p5_truncated": b"P5\n3 2 255\n\x01\x02",
    "bad_p5_16bit_odd": b"P5\n2 2 65535\n\x01\x02\x03\x04\x05",
    "bad_p5_above_maxval": b"P5\n2 1 100\n\x05\xff",
    "bad_p2_not_number": b"P2\n2 2 255\n1 2 x 4\n",
    "bad_p2_truncated": b"P2\n3 3 255\n100 200 100 200 100 200 100 200\n",
    "bad_p2_above_maxval": b"P2\n2 1 10\n5 11\n",
    "bad_too_big_p5": b"P5\n1000000 1000000\n255\n\x01\x02",
    "bad_too_big_p2": b"P2 1000000 1000000 65535 1 2 3",
}

os.makedirs(OUT, exist_ok=True)
for name, data in FILES.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
print("wrote %d files to %s" % (len(FILES), OUT))
