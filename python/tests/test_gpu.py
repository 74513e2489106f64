"""GPU arrays: CuPy arrays and PyTorch CUDA tensors through every CUDA rung, in place on the
device, the results equal to the NumPy results; backend="cuda" on NumPy arrays. Skipped, saying
why, without a GPU, a CUDA build, or CuPy/PyTorch."""
import numpy as np
import pytest

import parlab

GPU = bool(parlab._parlab.machine()[3] & 8)  # PL_FEAT_GPU: a CUDA build and a usable GPU
if not GPU:
    pytest.skip("no GPU or no CUDA build: the GPU tests run on the GPU machine", allow_module_level=True)


def libs():
    found = []
    try:
        import cupy
        found.append(pytest.param("cupy", id="cupy"))
    except ImportError:
        print("skipped: CuPy is not installed")
    try:
        import torch
        if torch.cuda.is_available():
            found.append(pytest.param("torch", id="torch"))
    except ImportError:
        print("skipped: PyTorch is not installed")
    return found or [pytest.param(None, marks=pytest.mark.skip(reason="neither CuPy nor PyTorch is installed"))]


LIBS = libs()


def to_dev(lib, a):
    if lib == "cupy":
        import cupy
        return cupy.asarray(a)
    import torch
    return torch.from_numpy(np.ascontiguousarray(a)).cuda()


def to_host(lib, x):
    assert type(x).__module__.startswith(lib), f"the result is a {type(x)}, not a {lib} array"
    if lib == "cupy":
        return x.get()
    return x.cpu().numpy()


def cuda_rungs(kernel, precision=None):
    """The CUDA rungs (and peers) that run here: of one precision, or (None) all but the BF16
    ones, which take bfloat16 inputs (test_gemm_bf16)."""
    return [v["name"] for v in parlab.list(kernel)["variants"] if v["backend"] == "cuda" and v["runnable"]
            and (v["precision"] == precision if precision else v["precision"] != "BF16")]


def tol(prec):
    return 2e-3 if prec == "TF32" else 1e-4


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("gemm"))
@pytest.mark.parametrize("M,N,K", [(1, 1, 1), (33, 65, 17), (1000, 1023, 129)])
def test_gemm(lib, variant, M, N, K):
    rng = np.random.default_rng(1)
    A, B, C = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((M, K), (K, N), (M, N)))
    got = to_host(lib, parlab.gemm(to_dev(lib, A), to_dev(lib, B), to_dev(lib, C), alpha=2.0, beta=0.5, variant=variant))
    want = 2.0 * (A.astype(np.float64) @ B) + 0.5 * C
    prec = {v["name"]: v["precision"] for v in parlab.list("gemm")["variants"]}[variant]
    np.testing.assert_allclose(got, want, atol=tol(prec) * np.sqrt(K) * 4)


def torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


@pytest.mark.parametrize("variant", cuda_rungs("gemm", "BF16") + [None])
@pytest.mark.parametrize("M,N,K", [(1, 1, 1), (33, 65, 17), (1000, 1023, 129)])
def test_gemm_bf16_torch(variant, M, N, K):
    """torch.bfloat16 CUDA tensors: a BF16 rung (None: the best one) in place on the device, a
    float32 tensor back, equal to the float64 product of the same bfloat16 values within the
    BF16 bound's scale (FP32 accumulation: no input rounding error)."""
    torch = torch_cuda()
    if torch is None:
        pytest.skip("PyTorch with CUDA is not installed")
    g = torch.Generator(device="cpu").manual_seed(3)
    A, B, C = (torch.rand(s, generator=g) * 2 - 1 for s in ((M, K), (K, N), (M, N)))
    A16, B16 = A.to(torch.bfloat16), B.to(torch.bfloat16)
    got = parlab.gemm(A16.cuda(), B16.cuda(), C.cuda(), alpha=2.0, beta=0.5, variant=variant)
    assert got.dtype == torch.float32 and got.is_cuda
    want = 2.0 * (A16.double() @ B16.double()) + 0.5 * C.double()
    np.testing.assert_allclose(got.cpu().double().numpy(), want.numpy(), atol=1e-5 * K)
    with pytest.raises(parlab.DTypeError, match="both float32 or both bfloat16"):
        parlab.gemm(A16.cuda(), B.cuda())


def test_gemm_bf16_host_arrays_on_the_gpu():
    """ml_dtypes bfloat16 NumPy arrays with backend="cuda": copied in, a BF16 CUDA rung, FP32 back."""
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed")
    rng = np.random.default_rng(4)
    A = rng.uniform(-1, 1, (65, 129)).astype(ml_dtypes.bfloat16)
    B = rng.uniform(-1, 1, (129, 33)).astype(ml_dtypes.bfloat16)
    got = parlab.gemm(A, B, backend="cuda")
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, A.astype(np.float64) @ B.astype(np.float64), atol=1e-5 * 129)


@pytest.mark.parametrize("lib", LIBS)
def test_gemm_strided_device_input(lib):
    rng = np.random.default_rng(2)
    A = rng.uniform(-1, 1, (64, 80)).astype(np.float32)
    dA = to_dev(lib, A)
    sub = dA[:, ::2] if lib == "cupy" else dA[:, ::2]
    got = to_host(lib, parlab.gemm(sub, sub.T))
    np.testing.assert_allclose(got, A[:, ::2].astype(np.float64) @ A[:, ::2].T, atol=1e-4)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("gemv"))
@pytest.mark.parametrize("trans", [False, True])
def test_gemv(lib, variant, trans):
    rng = np.random.default_rng(3)
    A = rng.uniform(-1, 1, (333, 257)).astype(np.float32)
    x = rng.uniform(-1, 1, 333 if trans else 257).astype(np.float32)
    got = to_host(lib, parlab.gemv(to_dev(lib, A), to_dev(lib, x), trans=trans, variant=variant))
    np.testing.assert_allclose(got, (A.T if trans else A).astype(np.float64) @ x, atol=1e-3)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("transpose"))
def test_transpose(lib, variant):
    A = np.random.default_rng(4).uniform(-1, 1, (1000, 1023)).astype(np.float32)
    np.testing.assert_array_equal(to_host(lib, parlab.transpose(to_dev(lib, A), variant=variant)), A.T)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("reduce"))
@pytest.mark.parametrize("op", ["sum", "mean", "min", "max", "sumsq"])
@pytest.mark.parametrize("axis", [0, 1])
def test_reduce(lib, variant, op, axis):
    A = np.random.default_rng(5).uniform(-1, 1, (333, 517)).astype(np.float32)
    fn = {"sum": np.sum, "mean": np.mean, "min": np.min, "max": np.max, "sumsq": lambda a, axis: (a * a).sum(axis)}[op]
    try:
        got = parlab.reduce(to_dev(lib, A), op, axis, variant=variant)
    except parlab.UnsupportedError as e:
        pytest.skip(f"{variant}: {e}")
    np.testing.assert_allclose(to_host(lib, got), fn(A.astype(np.float64), axis=axis), atol=1e-3)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("dot"))
def test_dot(lib, variant):
    rng = np.random.default_rng(6)
    x, y = (rng.uniform(-1, 1, 100003).astype(np.float32) for _ in range(2))
    assert abs(parlab.dot(to_dev(lib, x), to_dev(lib, y), variant=variant) - x.astype(np.float64) @ y) < 1e-2


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("conv2d"))
@pytest.mark.parametrize("mode,border", [("valid", "zero"), ("same", "zero"), ("same", "clamp"), ("same", "reflect")])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_conv2d(lib, variant, mode, border, dtype):
    nd = pytest.importorskip("scipy.ndimage")
    rng = np.random.default_rng(7)
    img = (rng.integers(0, 256, (200, 301)) if dtype == np.int32 else rng.uniform(-1, 1, (200, 301))).astype(dtype)
    f = (rng.integers(-8, 9, (5, 5)) if dtype == np.int32 else rng.uniform(-1, 1, (5, 5))).astype(dtype)
    try:
        got = to_host(lib, parlab.conv2d(to_dev(lib, img), to_dev(lib, f), mode=mode, border=border, variant=variant))
    except parlab.UnsupportedError as e:
        pytest.skip(f"{variant}: {e}")
    full = nd.correlate(img.astype(np.float64), f.astype(np.float64),
                        mode={"zero": "constant", "clamp": "nearest", "reflect": "mirror"}[border])
    want = full if mode == "same" else full[2:-2, 2:-2]
    np.testing.assert_allclose(got, want, atol=0 if dtype == np.int32 else 1e-4)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("entropy"))
def test_entropy(lib, variant):
    rank = pytest.importorskip("skimage.filters.rank")
    img = np.random.default_rng(8).integers(0, 16, (123, 200)).astype(np.uint8)
    got = to_host(lib, parlab.entropy(to_dev(lib, img), k=5, bins=16, base="2", variant=variant))
    np.testing.assert_allclose(got, rank.entropy(img, np.ones((5, 5), bool)), atol=1e-4)


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("variant", cuda_rungs("life"))
def test_life(lib, variant):
    """Packed and unpacked on the device: bool and uint8 grids (any nonzero byte alive), widths
    that are not whole words, torus and plane, the grid passed in left as it was."""
    from test_life import numpy_life
    g = np.random.default_rng(9).random((100, 130)) < 0.35
    dg = to_dev(lib, g)
    got = parlab.life(dg, 20, variant=variant)
    np.testing.assert_array_equal(to_host(lib, got), numpy_life(g, 20).astype(bool))
    assert str(got.dtype).endswith("bool")
    np.testing.assert_array_equal(to_host(lib, dg), g)
    u = (np.random.default_rng(10).random((37, 70)) < 0.4).astype(np.uint8) * np.uint8(5)
    got = parlab.life(to_dev(lib, u), 13, variant=variant, topology="plane")
    assert str(got.dtype).endswith("uint8")
    np.testing.assert_array_equal(to_host(lib, got), parlab.life(u, 13, topology="plane"))


@pytest.mark.parametrize("kernel_call", ["gemm", "transpose", "conv2d", "entropy", "life"])
def test_backend_cuda_on_numpy(kernel_call):
    rng = np.random.default_rng(10)
    A = rng.uniform(-1, 1, (65, 33)).astype(np.float32)
    if kernel_call == "gemm":
        np.testing.assert_allclose(parlab.gemm(A, A.T.copy(), backend="cuda"), A.astype(np.float64) @ A.T, atol=1e-4)
    elif kernel_call == "transpose":
        np.testing.assert_array_equal(parlab.transpose(A, backend="cuda"), A.T)
    elif kernel_call == "conv2d":
        np.testing.assert_allclose(parlab.conv2d(A, np.ones((3, 3), np.float32), backend="cuda"),
                                   parlab.conv2d(A, np.ones((3, 3), np.float32)), atol=1e-5)
    elif kernel_call == "entropy":
        img = rng.integers(0, 16, (40, 50)).astype(np.uint8)
        np.testing.assert_allclose(parlab.entropy(img, backend="cuda"), parlab.entropy(img), atol=1e-5)
    else:
        g = rng.random((64, 100)) < 0.4
        np.testing.assert_array_equal(parlab.life(g, 30, backend="cuda"), parlab.life(g, 30))


@pytest.mark.parametrize("lib", LIBS)
def test_callers_stream(lib):
    """The call runs on the caller's current stream: work queued after it on that stream sees
    its result without a synchronize."""
    A = np.random.default_rng(11).uniform(-1, 1, (512, 512)).astype(np.float32)
    if lib == "cupy":
        import cupy
        s = cupy.cuda.Stream(non_blocking=True)
        with s:
            dA = cupy.asarray(A)
            r = parlab.gemm(dA, dA)
            total = float((r * 2).sum())  # queued on s after the GEMM
    else:
        import torch
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            dA = torch.from_numpy(A).cuda()
            r = parlab.gemm(dA, dA)
            total = float((r * 2).sum())
    np.testing.assert_allclose(total, 2 * (A.astype(np.float64) @ A).sum(), rtol=1e-3)


def allocated_during(lib, call):
    """call()'s result and the most device memory its library allocated during it, in bytes."""
    if lib == "cupy":
        import cupy
        pool = cupy.get_default_memory_pool()
        sizes = []

        def counting(n):
            sizes.append(n)
            return pool.malloc(n)

        with cupy.cuda.using_allocator(counting):
            r = call()
        return r, max(sizes, default=0)
    import torch
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    r = call()
    torch.cuda.synchronize()
    return r, torch.cuda.max_memory_allocated() - base


@pytest.mark.parametrize("lib", LIBS)
def test_out_written_in_place(lib):
    """out= on the device: the rung writes out itself (no copy through a new array), and the
    result is out; an out that overlaps an input is written through a new array (the answer
    stays right); out=C with beta updates C in place, as BLAS does."""
    rng = np.random.default_rng(12)
    A = rng.uniform(-1, 1, (96, 64)).astype(np.float32)
    B = rng.uniform(-1, 1, (64, 80)).astype(np.float32)
    C = rng.uniform(-1, 1, (96, 80)).astype(np.float32)
    dA, dB, dC = to_dev(lib, A), to_dev(lib, B), to_dev(lib, C)
    out = to_dev(lib, np.full((96, 80), np.nan, np.float32))
    got, grown = allocated_during(lib, lambda: parlab.gemm(dA, dB, out=out))
    assert got is out and grown < 96 * 80 * 4, f"{grown} bytes allocated: the result went through a new array"
    np.testing.assert_allclose(to_host(lib, out), A.astype(np.float64) @ B, atol=1e-4)
    got = parlab.gemm(dA, dB, dC, alpha=1.0, beta=2.0, out=dC)
    assert got is dC
    np.testing.assert_allclose(to_host(lib, dC), A.astype(np.float64) @ B + 2.0 * C, atol=1e-4)
    S = rng.uniform(-1, 1, (512, 512)).astype(np.float32)  # many blocks: an in-place write would be read back
    dS = to_dev(lib, S)
    got = parlab.gemm(dS, dS, out=dS)  # out is both inputs
    assert got is dS
    np.testing.assert_allclose(to_host(lib, dS), S.astype(np.float64) @ S, atol=1e-3)
    T = to_dev(lib, np.full((64, 96), np.nan, np.float32))
    assert parlab.transpose(dA, out=T) is T
    np.testing.assert_array_equal(to_host(lib, T), A.T)
    img = to_dev(lib, rng.integers(0, 16, (40, 50)).astype(np.uint8))
    E = to_dev(lib, np.full((40, 50), np.nan, np.float32))
    assert parlab.entropy(img, out=E) is E
    np.testing.assert_allclose(to_host(lib, E), parlab.entropy(to_host(lib, img)), atol=1e-5)
