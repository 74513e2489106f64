"""parlab.rung: your own rung from a Python callable, on any kernel's ladder, verified, timed
and placed by the harness as parlab's own rungs are (docs/python.md, "Your own rung").

The harness calls fn(*operands, **params) on its thread: the kernel's operands in its order
(inputs, then the output; the in-out one of life and of gemm with beta != 0 once), as arrays over
parlab's own buffers, no copies: NumPy arrays on the CPU (inputs read-only), CuPy arrays or
PyTorch tensors on the GPU (with the current stream set to the one parlab times); params are the
problem's values by name (gemm alpha and beta, reduce op and axis, ...). A matrix is a 2-D view
(rows x cols, its rows may be padded: the view's strides say so); a vector (gemv's x and y,
reduce's r, dot's x, y and r) is 1-D. fn writes the output it is given, or returns an array of
its shape and dtype, which is copied into it.
"""
import numpy as np

from . import _parlab
from ._device import _kind, is_device
from ._kernels import CONV_BORDERS, CONV_MODES, REDUCE_OPS
from ._life import TOPOLOGIES
from ._parlab import ArgumentError, DTypeError, RungError, UnsupportedError

_BACKENDS = {"cpu": 1, "cuda": 2}  # pl_backend
_PRECISIONS = {None: -1, "fp32": 0, "tf32": 1, "exact": 2, "bf16": 3}  # pl_precision; -1: the kernel's first rung's
_ARRAYS = {"cpu": ("numpy",), "cuda": ("cupy", "torch")}
# The values the kernels give as an index (rung.c), by name: as parlab's own calls take them.
_NAMED = {
    "reduce": {"op": REDUCE_OPS},
    "conv2d": {"mode": CONV_MODES, "border": CONV_BORDERS},
    "entropy": {"base": ["e", "2"]},
    "life": {"topology": TOPOLOGIES},
}


def _installed(lib):
    try:
        __import__(lib)
        return True
    except ImportError:
        return False


def _dtype_name(x):
    return str(x.dtype).replace("torch.", "")


class Rung:
    """A Python callable as a rung: give it to parlab.bench in the list of variants (and to
    parlab.check). Made by parlab.rung; its attributes are the arguments given there."""

    def __init__(self, fn, backend="cpu", name=None, precision=None, arrays=None):
        if not callable(fn):
            raise ArgumentError(f"parlab.rung: {fn!r} is not callable")
        if backend not in _BACKENDS:
            raise ArgumentError(f"parlab.rung: backend {backend!r}: 'cpu' or 'cuda'")
        if precision not in _PRECISIONS:
            raise ArgumentError(f"parlab.rung: precision {precision!r}: 'fp32', 'tf32', 'bf16' or 'exact' (None: the "
                                "kernel's first rung's)")
        name = getattr(fn, "__name__", None) if name is None else name
        if not isinstance(name, str) or not name or name == "<lambda>":
            raise ArgumentError(f"parlab.rung: {fn!r} has no name of its own: give it one (name='mine')")
        if any(c in name for c in ", \t=:") or len(name) > 63:
            raise ArgumentError(f"parlab.rung: the name {name!r}: at most 63 characters, no commas, spaces, ':' or '='")
        if arrays is None:
            arrays = next((lib for lib in _ARRAYS[backend] if lib == "numpy" or _installed(lib)), None)
            if arrays is None:
                raise UnsupportedError(f"parlab.rung {name!r}: a CUDA rung takes CuPy or PyTorch arrays, and neither "
                                       "is installed")
        elif arrays not in _ARRAYS[backend]:
            raise ArgumentError(f"parlab.rung {name!r}: arrays {arrays!r}: a {backend} rung takes "
                                f"{' or '.join(map(repr, _ARRAYS[backend]))}")
        self.fn, self.backend, self.name, self.precision, self.arrays = fn, backend, name, precision, arrays
        self._streams = {}

    def __repr__(self):
        return f"parlab.rung({self.name!r}, backend={self.backend!r}, arrays={self.arrays!r})"

    def variant(self, kernel):
        """The rung on kernel's ladder as the C extension takes it: a capsule named
        "parlab.pl_variant" holding its `const pl_variant *` (rung.c: plx_rung_variant reads
        it, plx_rung_raise_pending raises a failed call's exception). A new one each call; the
        rung lives while the capsule does."""
        ladder = next((k["variants"] for k in _parlab.kernels() if k["name"] == kernel), None)
        if ladder is None:
            raise ArgumentError(f"parlab.rung {self.name!r}: no kernel {kernel!r} (parlab.list() names them)")
        if any(v["name"] == self.name for v in ladder):
            raise ArgumentError(f"parlab.rung {self.name!r}: {kernel} has a rung of that name already; give yours "
                                "another (parlab.rung(fn, name=...))")
        named = _NAMED.get(kernel, {})

        def call(ops, params, stream):
            for key, values in named.items():
                params[key] = values[params[key]]
            self._call(kernel, ops, params, stream)

        return _parlab.rung_make(kernel, self.name, _BACKENDS[self.backend], _PRECISIONS[self.precision], call)

    # ---- a call, on the harness's thread

    def _call(self, kernel, ops, params, stream):
        """One run: ops from rung.c, (name, memory, rows, cols, ld, dtype, writable, vector) each;
        stream: the cudaStream_t of a CUDA rung, None on the CPU."""
        out = next(i for i, op in enumerate(ops) if op[6])  # the kernel's one output (or in-out)
        if stream is None:
            arrays = [_host_array(*op) for op in ops]
            got = self._run(kernel, arrays, params)
            if got is not None and got is not arrays[out]:
                np.copyto(arrays[out], self._checked(kernel, got, arrays[out], ops[out][0]))
            return
        arrays = [self._device_array(*op) for op in ops]
        with self._on(stream):  # the callable's launches, and the copy of what it returns
            got = self._run(kernel, arrays, params)
            if got is not None and got is not arrays[out]:
                got = self._checked(kernel, got, arrays[out], ops[out][0])
                if self.arrays == "torch":
                    arrays[out].copy_(got)
                else:
                    arrays[out][...] = got

    def _run(self, kernel, arrays, params):
        try:
            return self.fn(*arrays, **params)
        except Exception as e:
            raise RungError(f"{kernel} rung {self.name!r} raised {type(e).__name__}: {e}") from e

    def _checked(self, kernel, got, out, name):
        """got, an array the callable returned, if it fits out, the operand name (its shape and
        dtype; a 0-d array for a one-element output), else ArgumentError or DTypeError naming
        the rung."""
        what = f"{kernel} rung {self.name!r} returned"
        shape, dtype = tuple(out.shape), _dtype_name(out)
        if not hasattr(got, "shape") or not hasattr(got, "dtype"):
            raise DTypeError(f"{what} a {type(got).__name__}: return an array of {name}'s shape {shape} and dtype "
                             f"{dtype}, or None after writing {name}")
        kind = _kind(got)[0] if is_device(got) else "numpy"
        if kind != self.arrays:
            raise DTypeError(f"{what} a {kind} array; this rung's arrays are {self.arrays} arrays")
        if _dtype_name(got) != dtype:
            raise DTypeError(f"{what} an array of dtype {_dtype_name(got)} where {name} has dtype {dtype}")
        if tuple(got.shape) != shape and not (len(got.shape) == 0 and int(np.prod(shape)) == 1):
            raise ArgumentError(f"{what} an array of shape {tuple(got.shape)} where {name} has shape {shape}")
        return got

    def _device_array(self, name, ptr, rows, cols, ld, dtype, writable, vector):
        item = np.dtype(dtype).itemsize
        shape, strides = ((cols,), (item,)) if vector else ((rows, cols), (ld * item, item))
        if self.arrays == "torch":
            import torch
            # the device named: as_tensor would copy to the default device (the CPU) otherwise
            return torch.as_tensor(_Interface(ptr, shape, strides, dtype),
                                   device=torch.device("cuda", torch.cuda.current_device()))
        import cupy
        nbytes = ((rows - 1) * ld + cols) * item if rows > 0 else 0
        memory = cupy.cuda.UnownedMemory(ptr, nbytes, None, cupy.cuda.runtime.getDevice())
        return cupy.ndarray(shape, dtype, cupy.cuda.MemoryPointer(memory, 0), strides=strides)

    def _on(self, stream):
        """A context in which the rung's library launches on stream (a cudaStream_t)."""
        s = self._streams.get(stream)
        if s is None:
            if self.arrays == "torch":
                import torch
                s = torch.cuda.ExternalStream(stream)
            else:
                import cupy
                s = cupy.cuda.ExternalStream(stream)
            self._streams[stream] = s
        if self.arrays == "torch":
            import torch
            return torch.cuda.stream(s)
        return s


class _Interface:
    """Device memory by its __cuda_array_interface__ (version 3), for torch.as_tensor."""

    def __init__(self, ptr, shape, strides, dtype):
        self.__cuda_array_interface__ = {"shape": shape, "strides": strides, "typestr": np.dtype(dtype).str,
                                         "data": (ptr, False), "version": 3, "stream": None}


def _host_array(name, memory, rows, cols, ld, dtype, writable, vector):
    """A NumPy array over parlab's host memory (a memoryview, read-only for an input)."""
    dt = np.dtype(dtype)
    if vector:
        return np.ndarray((cols,), dt, memory)
    return np.ndarray((rows, cols), dt, memory, 0, (ld * dt.itemsize, dt.itemsize))


def rung(fn, backend="cpu", name=None, precision=None, arrays=None):
    """fn as a rung of your own, for parlab.bench (in its list of variants) and parlab.check:

        parlab.bench("gemm", [1024, 4095], ["cpu-naive", "cpu-packed", parlab.rung(my_gemm, name="mine")])

    fn(*operands, **params) gets the kernel's operands as arrays over parlab's buffers (NumPy on
    the CPU; on the GPU CuPy arrays or PyTorch tensors, arrays="cupy" or "torch", None: CuPy if
    installed, else PyTorch, with the current stream the one parlab times) and the problem's
    values by name; it writes the output it is given or returns an array of its shape and
    dtype. docs/python.md gives each kernel's call. name: its name in the rows (None: fn's
    __name__), no rung of the ladder's; precision: "fp32", "tf32" or "exact", the bounds it is
    held to (None: those of the kernel's first rung). A failed call (an exception, a returned
    array of the wrong shape or dtype) stops the bench with an exception naming the rung
    (RungError, chained to the callable's own; ArgumentError; DTypeError).
    """
    return Rung(fn, backend, name, precision, arrays)


def as_variant(kernel, v):
    """A variant as parlab.bench and parlab.check pass it to the C extension: a rung's name as
    it is, a Rung (or a bare callable, made a CPU rung) as its capsule on kernel's ladder."""
    if isinstance(v, str):
        return v
    if isinstance(v, Rung):
        return v.variant(kernel)
    if callable(v):
        return Rung(v).variant(kernel)
    raise ArgumentError(f"{kernel}: a variant is a rung's name or parlab.rung(fn), not {v!r}")
