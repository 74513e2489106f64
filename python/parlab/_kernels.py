"""parlab's kernels on arrays: one call each, shaped as NumPy users expect.

Host arrays (NumPy, anything with the buffer protocol) run on the CPU rungs, or with
backend="cuda" on the CUDA rungs with copies in and out. CuPy and PyTorch arrays on the GPU run
on the CUDA rungs in place (see _device.py). The GIL is released while a kernel runs.
"""
import numpy as np

from . import _parlab
from ._arrays import backend_code, choice, finish, host, output
from ._device import DeviceArrays, first_device
from ._parlab import ArgumentError, DTypeError

F32 = (np.dtype(np.float32),)  # dtype objects: `in` finds them by identity, the fast way
_COMMON = """
    variant : str, optional
        A rung of the ladder by name ("cpu-naive", "cuda-shared", ...; parlab.list() names
        them); None runs the best rung the backend can run.
    backend : {None, "cpu", "cuda"}
        None: the CPU for host arrays, the GPU for CuPy/PyTorch arrays. "cuda" on host arrays
        copies them to the GPU and back.
    device : int
        The CUDA device for backend="cuda" on host arrays.
    threads : int, optional
        CPU threads (None: one per core, or OMP_NUM_THREADS).
"""


def _doc(f):
    f.__doc__ = f.__doc__.replace("    {common}\n", _COMMON)
    return f


def _threads(threads):
    return 0 if threads is None else int(threads)


def _on_host(backend):
    if backend == "cuda":
        return 2
    return backend_code(backend)


def _no_cpu_backend(kernel, backend):
    if backend == "cpu":
        raise ArgumentError(f"{kernel}: GPU arrays run on the CUDA rungs; backend='cpu' takes host arrays")


@_doc
def gemm(A, B, C=None, *, alpha=1.0, beta=0.0, out=None, variant=None, backend=None, device=0, threads=None):
    """alpha * A @ B + beta * C in float32: A is M x K, B is K x N, C (read only when beta != 0)
    is M x N.

    Returns a new M x N array (C is left as it is), or writes out and returns it (out=C updates
    C in place, as BLAS does). Arrays must be float32 (a list is converted); other dtypes raise
    DTypeError, a TypeError (parlab does not round float64 to float32 behind your back).

    A and B may both be bfloat16 instead (ml_dtypes.bfloat16 NumPy arrays, torch.bfloat16
    tensors on the CPU or the GPU): a BF16 rung multiplies them, accumulating in FP32, and the
    result (and C, out) is float32. parlab never rounds float32 to bfloat16 for you.

    Parameters
    ----------
    {common}
    """
    dev = first_device(A, B, C, out)
    if dev is not None:
        _no_cpu_backend("gemm", backend)
        d = DeviceArrays("gemm", dev)
        A, B = d.take(A, "A", _GEMM_DEVICE_DTYPES), d.take(B, "B", _GEMM_DEVICE_DTYPES)
        bf16 = _same_input_dtype(str(A.dtype).endswith("bfloat16"), str(B.dtype).endswith("bfloat16"))
        if A.shape[1] != B.shape[0]:
            raise ArgumentError(f"gemm: A is {tuple(A.shape)} and B is {tuple(B.shape)}: A's columns must equal B's rows")
        M, K = A.shape
        N = B.shape[1]
        if beta != 0:
            if C is None:
                raise ArgumentError("gemm: beta != 0 needs C")
            C = d.take(C, "C", ("float32",))
            if tuple(C.shape) != (M, N):
                raise ArgumentError(f"gemm: C is {tuple(C.shape)} where A @ B is {(M, N)}")
        else:
            C = None  # not read
        r = d.output(out, (M, N), "float32", (A, B), C)
        if C is not None and r is not C:
            r[...] = C
        size, settings = f"{M}x{N}x{K}", _gemm_settings(alpha, beta, bf16)
        if bf16 and variant is None:
            variant = _best_for("gemm", 2, d.ordinal, 0, size, settings)
        d.run(variant, size, settings, [A, B, r], threads)
        return _device_out(r, out, "gemm")
    A16, B16 = _bf16_bits(A), _bf16_bits(B)
    if _same_input_dtype(A16 is not None, B16 is not None):
        return _gemm_bf16_host(A16, B16, C, alpha, beta, out, variant, backend, device, threads)
    A = host(A, "gemm", "A", F32)
    B = host(B, "gemm", "B", F32)
    shape = (A.shape[0], B.shape[1])
    if beta != 0:
        if C is None:
            raise ArgumentError("gemm: beta != 0 needs C")
        C = host(C, "gemm", "C", F32)
        if C.shape != shape:
            raise ArgumentError(f"gemm: C is {C.shape} where A {A.shape} @ B {B.shape} is {shape}")
    else:
        C = None  # not read
    r = output(out, "gemm", shape, np.float32, (A, B), C)
    if C is not None and r is not C:
        r[...] = C
    _parlab.gemm(variant, _on_host(backend), device, _threads(threads), A, B, r, alpha, beta)
    return finish(r, out)


_GEMM_DEVICE_DTYPES = ("float32", "bfloat16")


def _same_input_dtype(a_bf16, b_bf16):
    """True when A and B are both bfloat16, False when neither is; a mix raises DTypeError."""
    if a_bf16 != b_bf16:
        raise DTypeError(f"gemm: A is {'bfloat16' if a_bf16 else 'not bfloat16'} and B is "
                         f"{'bfloat16' if b_bf16 else 'not bfloat16'}: both float32 or both bfloat16")
    return a_bf16


def _gemm_settings(alpha, beta, bf16):
    settings = [f"alpha={float(alpha)!r}", f"beta={float(beta)!r}"]
    return settings + ["dtype=bf16"] if bf16 else settings


def _best_for(kernel, backend, device, threads, size, settings):
    """The best rung of the backend that takes the problem (gemm's dtype=bf16: a BF16 one)."""
    best = _parlab.best_variant_for(kernel, backend, device, threads, size, settings)
    if best is None:
        raise _parlab.UnsupportedError(f"{kernel}: no rung here takes {size} with {', '.join(settings)}")
    return best


def _bf16_bits(x):
    """The bits of a bfloat16 host array as a uint16 NumPy view (ml_dtypes.bfloat16 arrays:
    no copy; a torch.bfloat16 CPU tensor: its bits through an int16 view), or None for an
    array of another dtype."""
    dt = getattr(x, "dtype", None)
    if type(x) is np.ndarray:
        return x.view(np.uint16) if dt.name == "bfloat16" else None
    if dt is not None and type(x).__module__.startswith("torch") and str(dt) == "torch.bfloat16":
        import torch
        return x.detach().contiguous().view(torch.int16).numpy().view(np.uint16)
    return None


def _gemm_bf16_host(A, B, C, alpha, beta, out, variant, backend, device, threads):
    """gemm on bfloat16 host arrays (their uint16 bits): the problem made with dtype=bf16 and
    run by the best BF16 rung of the backend (or variant), dense operands, FP32 result."""
    for name, x in (("A", A), ("B", B)):
        if x.ndim != 2:
            raise ArgumentError(f"gemm: {name} has shape {x.shape}; a 2-D array is needed")
    if A.shape[1] != B.shape[0]:
        raise ArgumentError(f"gemm: A is {A.shape} and B is {B.shape}: A's columns must equal B's rows")
    (M, K), N = A.shape, B.shape[1]
    A, B = np.ascontiguousarray(A), np.ascontiguousarray(B)
    if beta != 0:
        if C is None:
            raise ArgumentError("gemm: beta != 0 needs C")
        C = host(C, "gemm", "C", F32)
        if C.shape != (M, N):
            raise ArgumentError(f"gemm: C is {C.shape} where A {A.shape} @ B {B.shape} is {(M, N)}")
    else:
        C = None  # not read
    r = output(out, "gemm", (M, N), np.float32, (A, B), C)
    if not r.flags.c_contiguous:  # the run takes dense operands
        r = np.empty((M, N), np.float32)
    if C is not None and r is not C:
        r[...] = C
    size, settings = f"{M}x{N}x{K}", _gemm_settings(alpha, beta, True)
    on = _on_host(backend)
    variant = variant or _best_for("gemm", on, device, _threads(threads), size, settings)
    _parlab.run("gemm", variant, size, settings, on, device, _threads(threads), [A, B, r], None)
    return finish(r, out)


def _device_out(r, out, kernel):
    """out (filled from r where the rung could not write it in place), or r."""
    if out is None or r is out:
        return r
    if tuple(out.shape) != tuple(r.shape):
        raise ArgumentError(f"{kernel}: out has shape {tuple(out.shape)} where the result has shape {tuple(r.shape)}")
    out[...] = r
    return out


@_doc
def gemv(A, x, y=None, *, trans=False, alpha=1.0, beta=0.0, out=None, variant=None, backend=None, device=0,
         threads=None):
    """alpha * op(A) @ x + beta * y in float32, op(A) = A (trans=False: x has A's columns, the
    result A's rows) or A.T (trans=True).

    Returns a new vector (y is left as it is; out=y updates y in place). float32 only, as gemm.

    Parameters
    ----------
    {common}
    """
    dev = first_device(A, x, y, out)
    if dev is not None:
        _no_cpu_backend("gemv", backend)
        d = DeviceArrays("gemv", dev)
        A, x = d.take(A, "A", ("float32",)), d.take(x, "x", ("float32",), (1,))
        M, N = A.shape
        nx, ny = (M, N) if trans else (N, M)
        if x.shape[0] != nx:
            raise ArgumentError(f"gemv: A is {tuple(A.shape)} and x has shape {tuple(x.shape)}: x needs {nx} elements")
        if beta != 0:
            if y is None:
                raise ArgumentError("gemv: beta != 0 needs y")
            y = d.take(y, "y", ("float32",), (1,))
            if y.shape[0] != ny:
                raise ArgumentError(f"gemv: A is {tuple(A.shape)} and y has shape {tuple(y.shape)}: y needs {ny} elements")
        else:
            y = None  # not read
        r = d.output(out, (ny,), "float32", (A, x), y)
        if y is not None and r is not y:
            r[...] = y
        d.run(variant, f"{M}x{N}", [f"alpha={float(alpha)!r}", f"beta={float(beta)!r}", f"trans={'t' if trans else 'n'}"],
              [A, x, r], threads)
        return _device_out(r, out, "gemv")
    A = host(A, "gemv", "A", F32)
    x = host(x, "gemv", "x", F32, (1,))
    ny = A.shape[1] if trans else A.shape[0]
    if beta != 0:
        if y is None:
            raise ArgumentError("gemv: beta != 0 needs y")
        y = host(y, "gemv", "y", F32, (1,))
        if y.shape != (ny,):
            raise ArgumentError(f"gemv: A is {A.shape} and y has shape {y.shape}: y needs {ny} elements")
    else:
        y = None  # not read
    r = output(out, "gemv", (ny,), np.float32, (A, x), y)
    if y is not None and r is not y:
        r[...] = y
    _parlab.gemv(variant, _on_host(backend), device, _threads(threads), bool(trans), A, x, r, alpha, beta)
    return finish(r, out)


@_doc
def transpose(A, *, out=None, variant=None, backend=None, device=0, threads=None):
    """A.T as a new C-ordered float32 array (or written to out), out of place.

    Parameters
    ----------
    {common}
    """
    dev = first_device(A, out)
    if dev is not None:
        _no_cpu_backend("transpose", backend)
        d = DeviceArrays("transpose", dev)
        A = d.take(A, "A", ("float32",))
        M, N = A.shape
        r = d.output(out, (N, M), "float32", (A,))
        d.run(variant, f"{M}x{N}", [], [A, r], threads)
        return _device_out(r, out, "transpose")
    A = host(A, "transpose", "A", F32)
    r = output(out, "transpose", A.shape[::-1], np.float32, (A,))
    _parlab.transpose(variant, _on_host(backend), device, _threads(threads), A, r)
    return finish(r, out)


REDUCE_OPS = ["sum", "mean", "min", "max", "sumsq"]


@_doc
def reduce(A, op="sum", axis=1, *, out=None, variant=None, backend=None, device=0, threads=None):
    """op over each row (axis=1 or -1: one value per row) or each column (axis=0 or -2) of a
    float32 matrix, as NumPy's A.sum(axis=...) etc.; op is "sum", "mean", "min", "max" or
    "sumsq" (the sum of squares). min and max propagate NaN as NumPy does. A vector reduces to
    a float (axis 0 or -1).

    variant: None only on host arrays (the best rung); on GPU arrays any CUDA rung.

    Parameters
    ----------
    {common}
    """
    opi = choice("reduce", "op", op, REDUCE_OPS)
    dev = first_device(A, out)
    if dev is not None:
        _no_cpu_backend("reduce", backend)
        d = DeviceArrays("reduce", dev)
        A = d.take(A, "A", ("float32",), (1, 2))
        vector = A.ndim == 1
        if vector:
            if axis not in (0, -1):
                raise ArgumentError(f"reduce: axis {axis} on a vector: 0 or -1")
            A, axis = A.reshape(1, -1), 1
        if axis not in (-2, -1, 0, 1):
            raise ArgumentError(f"reduce: axis {axis}: 0, 1, -1 or -2 for a matrix")
        ax = axis % 2
        M, N = A.shape
        r = d.empty((M if ax == 1 else N,), "float32") if vector else d.output(out, (M if ax == 1 else N,), "float32", (A,))
        d.run(variant, f"{M}x{N}", [f"op={op}", f"axis={ax}"], [A, r], threads)
        return float(r[0]) if vector else _device_out(r, out, "reduce")
    if variant is not None:
        raise ArgumentError("reduce: variant= is taken on GPU arrays only (host arrays run the best rung)")
    A = host(A, "reduce", "A", F32, (1, 2))
    if A.ndim == 1:
        if axis not in (0, -1):
            raise ArgumentError(f"reduce: axis {axis} on a vector: 0 or -1")
        r = np.empty(1, np.float32)
        _parlab.reduce(_on_host(backend), device, _threads(threads), opi, 1, A.reshape(1, -1), r)
        return float(r[0])
    n = A.shape[0] if axis in (1, -1) else A.shape[1] if axis in (0, -2) else 0
    r = output(out, "reduce", (n,), np.float32, (A,)) if axis in (-2, -1, 0, 1) else np.empty(0, np.float32)
    _parlab.reduce(_on_host(backend), device, _threads(threads), opi, axis, A, r)
    return finish(r, out)


@_doc
def dot(x, y, *, variant=None, backend=None, device=0, threads=None):
    """sum(x * y) of two float32 vectors of one length, as a Python float (accumulated as the
    rung does: cpu-simd and cuda-tuned in double-length sums).

    Parameters
    ----------
    {common}
    """
    dev = first_device(x, y)
    if dev is not None:
        _no_cpu_backend("dot", backend)
        d = DeviceArrays("dot", dev)
        x, y = d.take(x, "x", ("float32",), (1,)), d.take(y, "y", ("float32",), (1,))
        if x.shape != y.shape:
            raise ArgumentError(f"dot: x has shape {tuple(x.shape)} and y {tuple(y.shape)}: two vectors of one length are needed")
        r = d.empty((1,), "float32")
        d.run(variant, f"{x.shape[0]}", [], [x, y, r], threads)
        return float(r[0])
    if variant is not None:
        raise ArgumentError("dot: variant= is taken on GPU arrays only (host arrays run the best rung)")
    x = host(x, "dot", "x", F32, (1,))
    y = host(y, "dot", "y", F32, (1,))
    return _parlab.dot(_on_host(backend), device, _threads(threads), x, y)


CONV_MODES = ["valid", "same"]
CONV_BORDERS = ["zero", "clamp", "reflect"]
_CONV_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.int32): 2}  # pl_dtype PL_F32, PL_I32


def _conv_filter(filt, dtype, backend_arrays=None):
    """The filter in the image's dtype: an array must have it; a list is converted (int32
    images: its values must be whole numbers)."""
    if isinstance(filt, (list, tuple)):
        f = np.asarray(filt)
        g = f.astype(dtype)
        if not np.array_equal(g, f):
            raise ArgumentError(f"conv2d: the filter {filt!r} is not exact in {np.dtype(dtype)} (the image's dtype)")
        return g
    return filt


@_doc
def conv2d(image, filter, *, mode="valid", border="zero", flip=False, out=None, variant=None, backend=None, device=0,
           threads=None):
    """The K x K filter (K odd, 1..15) over a 2-D image, as scipy.ndimage.correlate
    (flip=True: convolve). image and filter are both float32 or both int32 (a list filter is
    converted to the image's dtype). mode "valid": the (H-K+1) x (W-K+1) outputs where the
    filter fits; "same": H x W, the image extended past its edge by border: "zero", "clamp"
    (scipy's 'nearest') or "reflect" (scipy's 'mirror': the edge pixel not repeated). int32
    data whose sums could leave int32 are refused (ArgumentError) before any work.

    Parameters
    ----------
    {common}
    """
    modei = choice("conv2d", "mode", mode, CONV_MODES)
    borderi = choice("conv2d", "border", border, CONV_BORDERS)
    dev = first_device(image, filter, out)
    if dev is not None:
        _no_cpu_backend("conv2d", backend)
        d = DeviceArrays("conv2d", dev)
        image = d.take(image, "image", ("float32", "int32"))
        dt = str(image.dtype).replace("torch.", "")
        if isinstance(filter, (list, tuple)):
            filter = _conv_filter(filter, dt)
            filter = d.lib.tensor(filter, device=d.device) if d.kind == "torch" else d.lib.asarray(filter)
        filter = d.take(filter, "filter", (dt,))
        K = filter.shape[0]
        if filter.shape[0] != filter.shape[1]:
            raise ArgumentError(f"conv2d: the filter is {tuple(filter.shape)}: a square K x K filter is needed")
        H, W = image.shape
        if dt == "int32":
            _int32_sums_fit(image, filter)
        oh, ow = (H, W) if modei == 1 else (H - K + 1, W - K + 1)
        r = d.output(out, (max(oh, 0), max(ow, 0)), dt, (image, filter))
        d.run(variant, f"{H}x{W}", [f"k={K}", f"dtype={'i32' if dt == 'int32' else 'f32'}", f"mode={mode}",
                                    f"border={border}", f"flip={int(bool(flip))}"], [image, filter, r], threads)
        return _device_out(r, out, "conv2d")
    image = host(image, "conv2d", "image", (np.float32, np.int32))
    filter = host(_conv_filter(filter, image.dtype), "conv2d", "filter", (image.dtype.type,))
    H, W = image.shape
    K = filter.shape[0]
    shape = (H, W) if modei == 1 else (H - K + 1, W - K + 1)
    r = output(out, "conv2d", shape, image.dtype, (image, filter)) if min(shape) > 0 else np.empty((0, 0), image.dtype)
    _parlab.conv2d(variant, _on_host(backend), device, _threads(threads), _CONV_DTYPES[image.dtype], image, filter,
                   modei, borderi, bool(flip), r)
    return finish(r, out)


def _int32_sums_fit(image, filter):
    """The library's int32 check (sum |w| x max |x| <= INT32_MAX) for GPU arrays."""
    wsum = int(abs(filter.double() if hasattr(filter, "double") else filter.astype("float64")).sum())
    xmax = int(abs(image).max())
    if wsum * xmax > 2**31 - 1:
        raise ArgumentError(f"conv2d: int32 sums could leave int32: sum |filter| {wsum} x max |image| {xmax} > {2**31 - 1}")


ENTROPY_BASES = {"e": 0, "2": 1, 2: 1}


@_doc
def entropy(image, k=5, bins=16, base="e", *, out=None, variant=None, backend=None, device=0, threads=None):
    """Local entropy: for each pixel of a 2-D uint8 image of values in [0, bins) (bins 2..256),
    the Shannon entropy of the k x k window around it (k odd), the window clipped at the
    borders; base "e" (nats) or "2" (bits). As skimage.filters.rank.entropy with a square
    footprint (which uses base 2). A float32 array of the image's shape.

    Parameters
    ----------
    {common}
    """
    if base not in ENTROPY_BASES:
        raise ArgumentError(f"entropy: base {base!r}: 'e' or '2'")
    base2 = ENTROPY_BASES[base]
    dev = first_device(image, out)
    if dev is not None:
        _no_cpu_backend("entropy", backend)
        d = DeviceArrays("entropy", dev)
        image = d.take(image, "image", ("uint8",))
        H, W = image.shape
        count = image.numel() if d.kind == "torch" else image.size
        top = int(image.max()) if count else 0
        if top >= bins:
            raise ArgumentError(f"entropy: a value {top} >= bins {bins} (an 8-bit image needs bins=256)")
        r = d.output(out, (H, W), "float32", (image,))
        d.run(variant, f"{H}x{W}", [f"k={k}", f"bins={bins}", f"base={'2' if base2 else 'e'}"], [image, r], threads)
        return _device_out(r, out, "entropy")
    image = host(image, "entropy", "image", (np.uint8,))
    r = output(out, "entropy", image.shape, np.float32, (image,))
    _parlab.entropy(variant, _on_host(backend), device, _threads(threads), image, int(k), int(bins), bool(base2), r)
    return finish(r, out)
