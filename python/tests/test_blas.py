"""gemm, gemv, transpose, reduce and dot against NumPy (float64 references), on odd shapes,
every layout, every op and axis, and with out=."""
import numpy as np
import pytest

import parlab
from conftest import LAYOUTS, SHAPES, cpu_rungs, f32, layouts


def close(got, want, k):
    """Within a float32 accumulation bound over k terms of magnitude <= 1."""
    tol = 4 * k * np.finfo(np.float32).eps + 1e-6
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)


@pytest.mark.parametrize("M,N", SHAPES)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_gemm_shapes_layouts(rng, M, N, layout):
    K = 17 if M > 100 else 65
    A, B = f32(rng, M, K), f32(rng, K, N)
    got = parlab.gemm(layouts(A)[layout], layouts(B)[layout])
    assert got.shape == (M, N) and got.dtype == np.float32 and got.flags.c_contiguous
    close(got, A.astype(np.float64) @ B, K)


@pytest.mark.parametrize("variant", cpu_rungs("gemm"))
def test_gemm_every_cpu_rung_alpha_beta(rng, variant):
    A, B, C = f32(rng, 33, 65), f32(rng, 65, 31), f32(rng, 33, 31)
    C0 = C.copy()
    got = parlab.gemm(A, B, C, alpha=0.5, beta=-2.0, variant=variant)
    close(got, 0.5 * (A.astype(np.float64) @ B) - 2.0 * C0, 65)
    np.testing.assert_array_equal(C, C0)  # C is read, not written, without out=


def test_gemm_out_in_place_and_fortran_out(rng):
    A, B, C = f32(rng, 20, 30), f32(rng, 30, 40), f32(rng, 20, 40)
    want = A.astype(np.float64) @ B + C
    r = parlab.gemm(A, B, C, beta=1.0, out=C)
    assert r is C
    close(C, want, 30)
    out = np.asfortranarray(np.zeros((20, 40), np.float32))
    assert parlab.gemm(A, B, out=out) is out
    close(out, A.astype(np.float64) @ B, 30)


def test_gemm_takes_buffers_and_lists():
    A = memoryview(np.arange(6, dtype=np.float32).reshape(2, 3))
    B = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    np.testing.assert_array_equal(parlab.gemm(A, B), np.array([[2, 3], [8, 9]], np.float32))


@pytest.mark.parametrize("M,N", SHAPES)
@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_gemv(rng, M, N, trans, layout):
    A = f32(rng, M, N)
    x = f32(rng, M if trans else N)
    y = f32(rng, N if trans else M)
    op = A.T if trans else A
    close(parlab.gemv(layouts(A)[layout], x, trans=trans), op.astype(np.float64) @ x, max(M, N))
    close(parlab.gemv(A, x, y, trans=trans, alpha=2.0, beta=0.5), 2.0 * (op.astype(np.float64) @ x) + 0.5 * y,
          max(M, N))


def test_gemv_strided_vector(rng):
    A, x = f32(rng, 40, 50), f32(rng, 100)
    close(parlab.gemv(A, x[::2]), A.astype(np.float64) @ x[::2], 50)


@pytest.mark.parametrize("M,N", SHAPES + [(1, 4097), (513, 1)])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_transpose(rng, M, N, layout):
    A = f32(rng, M, N)
    got = parlab.transpose(layouts(A)[layout])
    np.testing.assert_array_equal(got, A.T)
    assert got.flags.c_contiguous


@pytest.mark.parametrize("variant", cpu_rungs("transpose"))
def test_transpose_rungs(rng, variant):
    A = f32(rng, 67, 129)
    np.testing.assert_array_equal(parlab.transpose(A, variant=variant), A.T)


OPS = {"sum": np.sum, "mean": np.mean, "min": np.min, "max": np.max, "sumsq": lambda a, axis: np.sum(a * a, axis)}


@pytest.mark.parametrize("M,N", SHAPES)
@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("axis", [0, 1, -1, -2])
@pytest.mark.parametrize("layout", ["C", "rows-strided", "fortran"])
def test_reduce(rng, M, N, op, axis, layout):
    A = f32(rng, M, N)
    want = OPS[op](A.astype(np.float64), axis=axis)
    got = parlab.reduce(layouts(A)[layout], op, axis)
    assert got.shape == want.shape
    close(got, want, max(M, N))


def test_reduce_nan_and_vector(rng):
    A = f32(rng, 5, 6)
    A[2, 3] = np.nan
    got = parlab.reduce(A, "max", 1)
    assert np.isnan(got[2]) and not np.isnan(np.delete(got, 2)).any()
    x = f32(rng, 1001)
    close(parlab.reduce(x, "sum", 0), x.astype(np.float64).sum(), 1001)


@pytest.mark.parametrize("n", [1, 33, 1000, 1023, 100003])
def test_dot(rng, n):
    x, y = f32(rng, n), f32(rng, n)
    close(parlab.dot(x, y), x.astype(np.float64) @ y, n)
    assert isinstance(parlab.dot(x, y), float)


def test_dot_strided(rng):
    x, y = f32(rng, 2000), f32(rng, 1000)
    close(parlab.dot(x[::2], y), x[::2].astype(np.float64) @ y, 1000)
