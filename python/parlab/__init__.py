"""parlab: a lab of parallel kernels, each a ladder of rungs from the textbook version to one
measured against the library you would otherwise pick, on NumPy arrays (CPU rungs, or the GPU
with copies) and on CuPy/PyTorch arrays on the GPU (in place, on the caller's stream).

    >>> import numpy as np, parlab
    >>> A = np.ones((3, 4), np.float32); B = np.ones((4, 5), np.float32)
    >>> parlab.gemm(A, B)[0, 0]
    4.0

Kernels: gemm, gemv, transpose, reduce, dot, conv2d, entropy, life; Life files: life_read,
life_write; the lab: list, peaks, bench, machine. Failures raise parlab.Error subclasses that are
also the usual built-ins (ArgumentError is a ValueError, DTypeError a TypeError, ...), with the
library's message. docs/python.md tells the rest.
"""
from ._parlab import (ArgumentError, CudaError, DTypeError, Error, FileError, FormatError, OutOfMemoryError,
                      UnsupportedError, VerifyError, version as __version__)
from ._kernels import conv2d, dot, entropy, gemm, gemv, reduce, transpose
from ._life import Pattern, life, life_read, life_write
from ._registry import bench, list, machine, peaks

__all__ = [
    "gemm", "gemv", "transpose", "reduce", "dot", "conv2d", "entropy", "life", "life_read", "life_write", "Pattern",
    "list", "peaks", "bench", "machine",
    "Error", "ArgumentError", "DTypeError", "OutOfMemoryError", "UnsupportedError", "CudaError", "FileError",
    "FormatError", "VerifyError",
]
