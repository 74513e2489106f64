"""GPU arrays without copies: CuPy and PyTorch arrays (anything with __cuda_array_interface__,
or __dlpack__ on a CUDA device) run on parlab's CUDA rungs in place, on the caller's current
stream, and the result is a new array of the same kind on the same device.

parlab's rungs take dense row-major operands: a device array with other strides is made
contiguous by its own library first (as CuPy/PyTorch do for their own kernels).
"""
import numpy as np

from . import _parlab
from ._arrays import overlaps
from ._parlab import ArgumentError, DTypeError

_KDL_CUDA = 2  # DLPack's kDLCUDA
_ndarray = np.ndarray


def _on_gpu(x):
    """x is a CuPy array or a PyTorch CUDA tensor. A torch tensor is asked is_cuda: its
    __cuda_array_interface__ raises (not AttributeError) for dtypes the interface has no code
    for, torch.bfloat16 among them."""
    if type(x).__module__.startswith("torch"):
        return bool(getattr(x, "is_cuda", False))
    return hasattr(x, "__cuda_array_interface__")


def is_device(x):
    """True for an array in CUDA device memory (CuPy, a PyTorch CUDA tensor, a DLPack CUDA array)."""
    if _on_gpu(x):
        return True
    dev = getattr(x, "__dlpack_device__", None)
    if dev is None or type(x).__module__.startswith("numpy"):
        return False
    try:
        return dev()[0] == _KDL_CUDA
    except Exception:
        return False


def _kind(x):
    """'torch' or 'cupy' for x's library; a DLPack-only array is taken into CuPy (zero copy)."""
    mod = type(x).__module__
    if mod.startswith("torch"):
        return "torch", x
    if mod.startswith("cupy"):
        return "cupy", x
    try:
        import cupy
    except ImportError:
        raise DTypeError(f"a {type(x).__name__} on the GPU: parlab takes CuPy and PyTorch arrays "
                         "(DLPack-only arrays need CuPy installed)") from None
    return "cupy", cupy.from_dlpack(x)


class DeviceArrays:
    """The device arrays of one call: one library, one device, that library's current stream."""

    def __init__(self, kernel, first):
        self.kernel = kernel
        self.kind, _ = _kind(first)
        if self.kind == "torch":
            import torch
            self.lib = torch
            self.device = first.device
            self.ordinal = first.device.index if first.device.index is not None else torch.cuda.current_device()
            self.stream = torch.cuda.current_stream(first.device).cuda_stream
        else:
            import cupy
            self.lib = cupy
            self.device = first.device
            self.ordinal = first.device.id
            self.stream = cupy.cuda.get_current_stream().ptr

    _DTYPES = {"float32": "float32", "int32": "int32", "uint8": "uint8"}

    def take(self, x, name, dtypes, ndim=(2,)):
        """x as a contiguous array of this call's library and device, dtype one of dtypes."""
        kind, x = _kind(x) if not _on_gpu(x) else (_kind(x)[0], x)
        if kind != self.kind:
            raise DTypeError(f"{self.kernel}: {name} is a {kind} array beside {self.kind} ones; pass one library's arrays")
        dt = str(x.dtype).replace("torch.", "")
        if dt not in dtypes:
            raise DTypeError(f"{self.kernel}: {name} has dtype {dt}; parlab computes {self.kernel} in "
                             f"{' or '.join(dtypes)}")
        if x.ndim not in ndim:
            raise ArgumentError(f"{self.kernel}: {name} has shape {tuple(x.shape)}; a "
                                f"{' or '.join(f'{d}-D' for d in ndim)} array is needed")
        ordinal = x.device.index if self.kind == "torch" else x.device.id
        if ordinal != self.ordinal:
            raise ArgumentError(f"{self.kernel}: {name} is on device {ordinal}, the other operands on {self.ordinal}")
        if self.kind == "torch":
            return x.contiguous()
        return x if x.flags.c_contiguous else self.lib.ascontiguousarray(x)

    def empty(self, shape, dtype):
        if self.kind == "torch":
            return self.lib.empty(tuple(shape), dtype=getattr(self.lib, dtype), device=self.device)
        with self.device:
            return self.lib.empty(tuple(shape), dtype=dtype)

    def output(self, out, shape, dtype, inputs, updated=None):
        """The array the rung writes: out itself where it can be written in place (an array of
        this call's library on its device, the result's dtype and shape, C order, overlapping
        no input: _arrays.overlaps, the host's rule), else a new one (_device_out then copies
        it into out)."""
        if out is None or not _on_gpu(out):
            return self.empty(shape, dtype)
        torch = self.kind == "torch"
        if (type(out).__module__.split(".")[0] != self.kind or str(out.dtype).replace("torch.", "") != dtype
                or tuple(out.shape) != tuple(shape)
                or (out.device.index if torch else out.device.id) != self.ordinal
                or not (out.is_contiguous() if torch else out.flags.c_contiguous)
                or overlaps(out, inputs, self.meets, updated)):
            return self.empty(shape, dtype)
        return out

    def meets(self, a, b):
        """True if the memory of a and b (contiguous arrays of this call's library) overlaps,
        as np.may_share_memory on the host: an empty array meets none."""
        (alo, ahi), (blo, bhi) = self.span(a), self.span(b)
        return alo < ahi and blo < bhi and alo < bhi and blo < ahi

    def span(self, x):
        """x's memory as (first byte, the byte past its last): x is contiguous."""
        lo = self.ptr(x)
        return lo, lo + (x.numel() * x.element_size() if self.kind == "torch" else x.nbytes)

    @staticmethod
    def ptr(x):
        if type(x).__module__.startswith("torch"):
            return x.data_ptr()  # torch.bfloat16 has no __cuda_array_interface__ (see _on_gpu)
        return x.__cuda_array_interface__["data"][0]

    def run(self, variant, size, settings, operands, threads=None):
        """The rung `variant` (None: the best CUDA rung) once on operands, in place, on the stream."""
        variant = variant or best_cuda(self.kernel, self.ordinal)
        _parlab.run(self.kernel, variant, size, list(settings), 2, self.ordinal, threads or 0,
                    [self.ptr(o) for o in operands], self.stream)


def best_cuda(kernel, ordinal):
    """The rung the BLAS-like call would run on this GPU (the registry's best-first pick)."""
    best = _parlab.best_variant(kernel, 2, ordinal, 0)
    if best is None:
        raise _parlab.UnsupportedError(f"{kernel}: no CUDA rung can run here")
    return best


def first_device(*xs):
    """The first device array among xs, or None (NumPy arrays and None are skipped at once:
    this runs on every call, and a small call's cost is mostly such checks)."""
    for x in xs:
        if x is not None and type(x) is not _ndarray and is_device(x):
            return x
    return None
