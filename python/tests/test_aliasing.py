"""out= that shares memory with an input: every call that takes out= gives NumPy's answer when
out is an input itself, or a view that overlaps one in part (the rung writes a new array that
is then copied into out), on NumPy arrays (the CPU rungs; backend="cuda") and on CuPy/PyTorch
arrays. gemm's C and gemv's y as out (beta != 0) are still updated in place, as BLAS does.

The device cases skip, saying why, without a GPU and a CUDA build, or without CuPy/PyTorch:
`pytest python/tests/test_aliasing.py` runs them on a GPU machine."""
import importlib.util
import inspect

import numpy as np
import pytest

import parlab

GPU = bool(parlab._parlab.machine()[3] & 8)  # PL_FEAT_GPU: a CUDA build and a usable GPU


def _lib_param(name):
    """pytest.param for one kind of array, skipped with the reason it cannot run here."""
    module = {"cupy": "cupy", "torch": "torch"}.get(name)
    reason = None
    if name != "numpy" and not GPU:
        reason = "no GPU or no CUDA build: the device cases run on a GPU machine"
    elif module and importlib.util.find_spec(module) is None:
        reason = f"{module} is not installed"
    elif module == "torch":
        import torch
        if not torch.cuda.is_available():
            reason = "PyTorch sees no CUDA device"
    return pytest.param(name, id=name, marks=[pytest.mark.skip(reason=reason)] if reason else [])


LIBS = [_lib_param(name) for name in ("numpy", "numpy-cuda", "cupy", "torch")]


class Lib:
    """Arrays of one library: put() a NumPy array there (a copy), get() one back; views of
    them (slices, .T, reshape) are taken in that library, so they share its memory."""

    def __init__(self, name):
        self.name = name
        self.device = name in ("cupy", "torch")
        self.kw = {"backend": "cuda"} if name == "numpy-cuda" else {}
        self.xp = np if not self.device else importlib.import_module(name)

    def put(self, a):
        if self.name == "cupy":
            return self.xp.asarray(a)
        if self.name == "torch":
            return self.xp.from_numpy(np.ascontiguousarray(a)).cuda()
        return a.copy()

    def get(self, x):
        if self.name == "cupy":
            return x.get()
        if self.name == "torch":
            return x.cpu().numpy()
        return x

    def as_float32(self, raw):
        """A 1-D uint8 array's bytes as float32 (its memory, no copy)."""
        return raw.view(self.xp.float32)

    def gemm_atol(self, K):
        """The best CUDA rung may run in TF32 (test_gpu's tolerance); the CPU rungs in FP32."""
        return (8e-3 if self.device or self.kw else 4e-4) * np.sqrt(K)


def f32(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


def conv_ref(image, filt, mode):
    """scipy.ndimage.correlate with a zero border, in NumPy: "valid" and "same"."""
    K = filt.shape[0]
    x = np.pad(image.astype(np.float64), K // 2) if mode == "same" else image.astype(np.float64)
    oh, ow = x.shape[0] - K + 1, x.shape[1] - K + 1
    return sum(filt[i, j] * x[i:i + oh, j:j + ow] for i in range(K) for j in range(K))


def entropy_ref(image, k):
    """Local entropy in nats over the k x k window clipped at the borders, in NumPy."""
    H, W = image.shape
    h = k // 2
    want = np.zeros((H, W))
    for y in range(H):
        for x in range(W):
            counts = np.bincount(image[max(y - h, 0):y + h + 1, max(x - h, 0):x + h + 1].ravel())
            p = counts[counts > 0] / counts.sum()
            want[y, x] = -(p * np.log(p)).sum()
    return want


# Each case: (lib, rng) -> (call(**kw), out, the answer, atol); the call must return out.
CASES = []


def case(f):
    CASES.append(pytest.param(f, id=f.__name__))
    return f


N = 257  # more than one tile or block of every rung (and a CPU gemm packs B in panels of 256): an in-place write would be read back


@case
def gemm_out_is_A_and_B(lib, rng):
    S0 = f32(rng, N, N)
    S = lib.put(S0)
    return lambda **kw: parlab.gemm(S, S, out=S, **kw), S, S0.astype(np.float64) @ S0, lib.gemm_atol(N)


@case
def gemm_out_is_B(lib, rng):
    A0, B0 = f32(rng, N, N), f32(rng, N, N)
    A, B = lib.put(A0), lib.put(B0)
    return lambda **kw: parlab.gemm(A, B, out=B, **kw), B, A0.astype(np.float64) @ B0, lib.gemm_atol(N)


@case
def gemm_out_overlaps_A(lib, rng):
    big0, B0 = f32(rng, N + 1, N), f32(rng, N, N)
    big, B = lib.put(big0), lib.put(B0)
    A, out = big[:N], big[1:]  # out is A one row down
    return lambda **kw: parlab.gemm(A, B, out=out, **kw), out, big0[:N].astype(np.float64) @ B0, lib.gemm_atol(N)


@case
def gemm_out_is_A_transposed(lib, rng):
    S0 = f32(rng, N, N)
    S = lib.put(S0)
    out = S.T  # a layout the rungs do not write: through a new array anyway
    return lambda **kw: parlab.gemm(S, S, out=out, **kw), out, S0.astype(np.float64) @ S0, lib.gemm_atol(N)


@case
def gemm_out_is_C_updated_in_place(lib, rng):
    A0, B0, C0 = f32(rng, N, N), f32(rng, N, N), f32(rng, N, N)
    A, B, C = lib.put(A0), lib.put(B0), lib.put(C0)
    want = 2.0 * (A0.astype(np.float64) @ B0) + 0.5 * C0
    return lambda **kw: parlab.gemm(A, B, C, alpha=2.0, beta=0.5, out=C, **kw), C, want, lib.gemm_atol(N)


@case
def gemm_out_is_A_B_and_C(lib, rng):
    S0 = f32(rng, N, N)
    S = lib.put(S0)
    want = S0.astype(np.float64) @ S0 - S0
    return lambda **kw: parlab.gemm(S, S, S, beta=-1.0, out=S, **kw), S, want, lib.gemm_atol(N)


@case
def gemm_out_overlaps_C(lib, rng):
    A0, B0, big0 = f32(rng, N, N), f32(rng, N, N), f32(rng, N + 1, N)
    A, B, big = lib.put(A0), lib.put(B0), lib.put(big0)
    C, out = big[:N], big[1:]
    want = A0.astype(np.float64) @ B0 + big0[:N]
    return lambda **kw: parlab.gemm(A, B, C, beta=1.0, out=out, **kw), out, want, lib.gemm_atol(N)


@case
def gemv_out_is_x(lib, rng):
    A0, x0 = f32(rng, N, N), f32(rng, N)
    A, x = lib.put(A0), lib.put(x0)
    return lambda **kw: parlab.gemv(A, x, out=x, **kw), x, A0.astype(np.float64) @ x0, 1e-4 * N


def _gemv_into_a_row(trans):
    def make(lib, rng):
        A0, x0 = f32(rng, N, N), f32(rng, N)
        A, x = lib.put(A0), lib.put(x0)
        out = A[5]  # one row of A
        want = (A0.T if trans else A0).astype(np.float64) @ x0
        return lambda **kw: parlab.gemv(A, x, trans=trans, out=out, **kw), out, want, 1e-4 * N
    make.__name__ = f"gemv{'_trans' if trans else ''}_out_is_a_row_of_A"
    return case(make)


_gemv_into_a_row(False)
_gemv_into_a_row(True)


@case
def gemv_out_overlaps_x(lib, rng):
    A0, buf0 = f32(rng, N, N), f32(rng, 2 * N)
    A, buf = lib.put(A0), lib.put(buf0)
    x, out = buf[:N], buf[N // 2:N // 2 + N]
    return lambda **kw: parlab.gemv(A, x, out=out, **kw), out, A0.astype(np.float64) @ buf0[:N], 1e-4 * N


@case
def gemv_out_is_y_updated_in_place(lib, rng):
    A0, x0, y0 = f32(rng, N, N), f32(rng, N), f32(rng, N)
    A, x, y = lib.put(A0), lib.put(x0), lib.put(y0)
    want = A0.astype(np.float64) @ x0 + 2.0 * y0
    return lambda **kw: parlab.gemv(A, x, y, beta=2.0, out=y, **kw), y, want, 1e-4 * N


@case
def gemv_out_is_x_and_y(lib, rng):
    A0, x0 = f32(rng, N, N), f32(rng, N)
    A, x = lib.put(A0), lib.put(x0)
    want = A0.astype(np.float64) @ x0 + x0
    return lambda **kw: parlab.gemv(A, x, x, beta=1.0, out=x, **kw), x, want, 1e-4 * N


@case
def transpose_out_is_A(lib, rng):
    A0 = f32(rng, N, N)
    A = lib.put(A0)
    return lambda **kw: parlab.transpose(A, out=A, **kw), A, A0.T, 0


@case
def transpose_out_overlaps_A(lib, rng):
    big0 = f32(rng, N + 1, N)
    big = lib.put(big0)
    A, out = big[:N], big[1:]
    return lambda **kw: parlab.transpose(A, out=out, **kw), out, big0[:N].T, 0


@case
def transpose_out_is_A_transposed(lib, rng):
    A0 = f32(rng, N, N)
    A = lib.put(A0)
    out = A.T
    return lambda **kw: parlab.transpose(A, out=out, **kw), out, A0.T, 0


def _reduce_into_a_row(axis):
    def make(lib, rng):
        A0 = f32(rng, N, N)
        A = lib.put(A0)
        out = A[N // 2]  # one row of A
        return lambda **kw: parlab.reduce(A, "sum", axis, out=out, **kw), out, A0.astype(np.float64).sum(axis), 1e-4 * N
    make.__name__ = f"reduce_axis{axis}_out_is_a_row_of_A"
    return case(make)


_reduce_into_a_row(0)
_reduce_into_a_row(1)


@case
def reduce_out_is_A_flat(lib, rng):
    A0 = f32(rng, 1, N)
    A = lib.put(A0)
    out = A.reshape(N)  # all of A's memory: its column maxima are its one row
    return lambda **kw: parlab.reduce(A, "max", 0, out=out, **kw), out, A0.max(0), 0


@case
def conv2d_out_is_image(lib, rng):
    image0, filt0 = f32(rng, N, N), f32(rng, 5, 5)
    image, filt = lib.put(image0), lib.put(filt0)
    want = conv_ref(image0, filt0, "same")
    return lambda **kw: parlab.conv2d(image, filt, mode="same", out=image, **kw), image, want, 1e-4 * 25


@case
def conv2d_valid_out_inside_image(lib, rng):
    image0, filt0 = f32(rng, N, N), f32(rng, 3, 3)
    image, filt = lib.put(image0), lib.put(filt0)
    out = image[1:N - 1, 1:N - 1]  # where each output's centre pixel is
    want = conv_ref(image0, filt0, "valid")
    return lambda **kw: parlab.conv2d(image, filt, out=out, **kw), out, want, 1e-4 * 9


@case
def conv2d_out_is_filter(lib, rng):
    filt0 = f32(rng, 5, 5)
    filt = lib.put(filt0)
    want = conv_ref(filt0, filt0, "same")
    return lambda **kw: parlab.conv2d(filt, filt, mode="same", out=filt, **kw), filt, want, 1e-4 * 25


@case
def entropy_out_overlaps_image(lib, rng):
    H, W = 24, 20
    raw0 = np.zeros(4 * H * W, np.uint8)
    raw0[:H * W] = rng.integers(0, 16, H * W)
    raw = lib.put(raw0)
    image, out = raw[:H * W].reshape(H, W), lib.as_float32(raw).reshape(H, W)  # out's first quarter is image
    want = entropy_ref(raw0[:H * W].reshape(H, W), 5)
    return lambda **kw: parlab.entropy(image, k=5, out=out, **kw), out, want, 2e-5


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("make", CASES)
def test_out_overlapping_an_input(lib, make):
    lib = Lib(lib)
    call, out, want, atol = make(lib, np.random.default_rng(31))
    got = call(**lib.kw)
    assert got is out
    np.testing.assert_allclose(lib.get(out), want, rtol=1e-5, atol=atol)


def test_every_call_with_out_has_cases():
    """A call that takes out= (now or later) has aliasing cases here."""
    takes_out = {name for name in parlab.__all__ if inspect.isfunction(getattr(parlab, name))
                 and "out" in inspect.signature(getattr(parlab, name)).parameters}
    covered = {p.id.split("_")[0] for p in CASES}
    assert takes_out == covered, f"calls with out= and no aliasing case: {sorted(takes_out - covered)}"
