"""parlab: a lab of parallel kernels, each a ladder of rungs from the textbook version to one
measured against the library you would otherwise pick, on NumPy arrays (CPU rungs, or the GPU
with copies) and on CuPy/PyTorch arrays on the GPU (in place, on the caller's stream).

    >>> import numpy as np, parlab
    >>> A = np.ones((3, 4), np.float32); B = np.ones((4, 5), np.float32)
    >>> parlab.gemm(A, B)[0, 0]
    4.0

Kernels: one call each, named as `parlab list` names them (parlab.KERNELS, read from the C
library's registry); Life files: life_read, life_write; the lab: list, peaks, bench, check,
compare, machine; your own rungs: rung (a Python callable on a kernel's ladder, for bench).
Failures raise parlab.Error subclasses that are also the usual built-ins (ArgumentError is a
ValueError, DTypeError a TypeError, ...), with the library's message. docs/python.md tells the
rest.
"""
from . import _kernels, _life
from ._parlab import (ArgumentError, CudaError, DTypeError, Error, FileError, FormatError, OutOfMemoryError,
                      RungError, UnsupportedError, VerifyError, kernel_names as _kernel_names,
                      version as __version__)
from ._compare import compare
from ._life import Pattern, life_read, life_write
from ._registry import CheckReport, bench, check, list, machine, peaks
from ._rung import Rung, rung

# The registry's kernels, in `parlab list` order. Each one's call is its Python wrapper (the
# argument conversion: _kernels.py, _life.py), exported under the kernel's name; a kernel
# without a wrapper is still in list() and bench().
KERNELS = tuple(_kernel_names())
globals().update({name: getattr(_kernels, name, None) or getattr(_life, name) for name in KERNELS
                  if hasattr(_kernels, name) or hasattr(_life, name)})

__all__ = [name for name in KERNELS if name in globals()] + [
    "life_read", "life_write", "Pattern", "list", "peaks", "bench", "check", "CheckReport", "compare", "machine", "rung", "Rung",
    "KERNELS",
    "Error", "ArgumentError", "DTypeError", "OutOfMemoryError", "UnsupportedError", "CudaError", "FileError",
    "FormatError", "VerifyError", "RungError",
]
