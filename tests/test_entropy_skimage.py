"""test_entropy_skimage.py: parlab's entropy against scikit-image's rank.entropy.

skimage.filters.rank.entropy(img, footprint) is the base-2 Shannon entropy of the values under
the footprint centred on each pixel. With footprint np.ones((5, 5)) and parlab's --base 2 -k 5
the two definitions coincide wherever the window lies inside the image: the interior pixels,
rows 2..H-3 and columns 2..W-3. (At the borders scikit-image counts only the pixels inside the
image, as parlab does, so the border pixels are compared to 1e-5 too and reported apart.) First a few hand-made images confirm the definitions
agree (a constant image: 0; 25 distinct values: log2 25), then seeded images of 16 values and
camera.png (256 values) are compared to 1e-5.

Usage: test_entropy_skimage.py PARLAB WORKDIR. Exit 0 on agreement, 1 otherwise."""
import os
import subprocess
import sys

import numpy as np
from skimage import data
from skimage.filters import rank

parlab, work = sys.argv[1], sys.argv[2]
failed = 0


def parlab_entropy(img, bins, name):
    slug = "".join(c if c.isalnum() else "_" for c in name)
    src, dst = os.path.join(work, slug + ".npy"), os.path.join(work, slug + "_E.npy")
    np.save(src, img)
    subprocess.run([parlab, "entropy", src, "--base", "2", "-k", "5", "--bins", str(bins), "-o", dst],
                   check=True, stdout=subprocess.DEVNULL)
    return np.load(dst)


def compare(img, bins, name):
    global failed
    ours = parlab_entropy(img, bins, name).astype(np.float64)
    theirs = rank.entropy(img, np.ones((5, 5), dtype=np.uint8)).astype(np.float64)
    inner = (slice(2, -2), slice(2, -2))
    diff = np.abs(ours - theirs)
    worst = diff[inner].max()
    border = diff.copy()
    border[inner] = 0
    ok = worst <= 1e-5 and border.max() <= 1e-5
    failed += not ok
    print("%-28s %dx%d max |parlab - skimage|: interior %.2e, border pixels %.2e (%s)" %
          (name, img.shape[0], img.shape[1], worst, border.max(), "ok" if ok else "FAIL"))


# The definitions agree on hand-made images (interior of each).
compare(np.full((9, 9), 7, dtype=np.uint8), 16, "constant (E = 0)")
distinct = np.zeros((9, 9), dtype=np.uint8)
distinct[2:7, 2:7] = np.arange(25, dtype=np.uint8).reshape(5, 5) + 1
ours = parlab_entropy(distinct, 26, "distinct")
if abs(ours[4, 4] - np.log2(25)) > 1e-5:
    print("distinct: centre %r, expected log2 25 = %r FAIL" % (ours[4, 4], np.log2(25)))
    failed += 1
else:
    print("distinct 5x5 window centre: %.7f = log2 25 ok" % ours[4, 4])
compare(distinct, 26, "25 distinct values")

rng = np.random.default_rng(11)
compare(rng.integers(0, 16, (200, 317), dtype=np.uint8), 16, "random 16 values")
compare(rng.integers(0, 2, (64, 65), dtype=np.uint8), 2, "random 2 values")
camera = data.camera()
compare(camera, 256, "camera.png 256 values")
compare(camera // 16, 16, "camera.png // 16")
sys.exit(1 if failed else 0)
