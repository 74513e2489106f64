"""conv2d against scipy.ndimage.correlate/convolve (every mode, border, flip, both dtypes) and
entropy against skimage.filters.rank.entropy."""
import numpy as np
import pytest

import parlab
from conftest import LAYOUTS, SHAPES, cpu_rungs, layouts

ndimage = pytest.importorskip("scipy.ndimage", reason="SciPy is not installed")

SCIPY_MODE = {"zero": "constant", "clamp": "nearest", "reflect": "mirror"}


def reference(image, filt, mode, border, flip):
    f = ndimage.convolve if flip else ndimage.correlate
    full = f(image.astype(np.float64), filt.astype(np.float64), mode=SCIPY_MODE[border], cval=0.0)
    if mode == "same":
        return full
    h = filt.shape[0] // 2
    return full[h:image.shape[0] - h, h:image.shape[1] - h]


@pytest.mark.parametrize("H,W", [(1, 1), (33, 65), (1000, 1023)])
@pytest.mark.parametrize("K", [1, 3, 5])
@pytest.mark.parametrize("mode", ["valid", "same"])
@pytest.mark.parametrize("border", ["zero", "clamp", "reflect"])
@pytest.mark.parametrize("flip", [False, True])
def test_conv2d_float32(rng, H, W, K, mode, border, flip):
    if mode == "valid" and K > min(H, W):
        pytest.skip("the filter does not fit (refused: test_errors)")
    if border == "reflect" and mode == "same" and K // 2 >= min(H, W):
        pytest.skip("reflect needs the image wider than the filter's half")
    image = rng.uniform(-1, 1, (H, W)).astype(np.float32)
    filt = rng.uniform(-1, 1, (K, K)).astype(np.float32)
    got = parlab.conv2d(image, filt, mode=mode, border=border, flip=flip)
    np.testing.assert_allclose(got, reference(image, filt, mode, border, flip), atol=1e-5 * K * K)


@pytest.mark.parametrize("mode,border", [("valid", "zero"), ("same", "zero"), ("same", "clamp"), ("same", "reflect")])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_conv2d_int32_exact(rng, mode, border, layout):
    image = rng.integers(0, 256, (67, 45)).astype(np.int32)
    filt = rng.integers(-8, 9, (5, 5)).astype(np.int32)
    got = parlab.conv2d(layouts(image)[layout], filt, mode=mode, border=border)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, reference(image, filt, mode, border, False).astype(np.int64))


@pytest.mark.parametrize("variant", cpu_rungs("conv2d"))
def test_conv2d_rungs_and_list_filter(rng, variant):
    image = rng.uniform(-1, 1, (40, 50)).astype(np.float32)
    filt = [1, 2, 1, 2, 4, 2, 1, 2, 1]
    got = parlab.conv2d(image, np.array(filt, np.float32).reshape(3, 3), mode="same", variant=variant)
    np.testing.assert_allclose(got, reference(image, np.array(filt).reshape(3, 3), "same", "zero", False), atol=1e-4)
    got = parlab.conv2d(image, [[1, 2, 1], [2, 4, 2], [1, 2, 1]], mode="same", variant=variant)
    np.testing.assert_allclose(got, reference(image, np.array(filt).reshape(3, 3), "same", "zero", False), atol=1e-4)


skimage_rank = pytest.importorskip("skimage.filters.rank", reason="scikit-image is not installed")


@pytest.mark.parametrize("H,W", SHAPES)
@pytest.mark.parametrize("k", [1, 3, 5, 9])
@pytest.mark.parametrize("layout", ["C", "rows-strided", "fortran"])
def test_entropy_vs_skimage(rng, H, W, k, layout):
    image = rng.integers(0, 16, (H, W)).astype(np.uint8)
    want = skimage_rank.entropy(image, np.ones((k, k), bool))  # base 2, the window clipped
    got = parlab.entropy(layouts(image)[layout], k=k, bins=16, base="2")
    assert got.dtype == np.float32 and got.shape == (H, W)
    np.testing.assert_allclose(got, want, atol=2e-5)


@pytest.mark.parametrize("variant", cpu_rungs("entropy"))
def test_entropy_rungs_natural_log(rng, variant):
    image = rng.integers(0, 256, (37, 41)).astype(np.uint8)
    want = skimage_rank.entropy(image, np.ones((7, 7), bool)) * np.log(2)
    got = parlab.entropy(image, k=7, bins=256, base="e", variant=variant)
    np.testing.assert_allclose(got, want, atol=2e-5)
