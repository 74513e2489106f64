"""Host arrays in and out: what a kernel takes, as NumPy arrays the C extension can read.

Anything with the buffer protocol (or a list) goes in; an array in a dtype parlab does not
compute in raises DTypeError (a TypeError) naming it and the ones taken. A row-major layout with
unit column stride (a C-ordered array, or a slice of its rows or columns) goes in without a copy;
other layouts (Fortran order, negative or column strides) are copied to C order first, as
NumPy's own functions do.
"""
import numpy as np

from ._parlab import ArgumentError, DTypeError

BACKENDS = {None: 1, "cpu": 1, "cuda": 2}  # pl_backend: CPU, CUDA (None: the data's own)


def backend_code(backend):
    """pl_backend of a backend name ("cpu", "cuda"; None: the CPU for host arrays)."""
    try:
        return BACKENDS[backend]
    except (KeyError, TypeError):
        raise ArgumentError(f"backend {backend!r}: one of 'cpu', 'cuda' (or None)") from None


def choice(kernel, what, value, names):
    """The index of value among names, or ArgumentError naming them."""
    try:
        return names.index(value)
    except ValueError:
        raise ArgumentError(f"{kernel}: {what} {value!r}: one of {', '.join(map(repr, names))}") from None


def _fits2(a):
    """_fits for a 2-D array."""
    item = a.itemsize
    rows, cols = a.shape
    r, c = a.strides
    return (cols <= 1 or c == item) and (rows <= 1 or (r > 0 and r % item == 0 and r >= cols * item))


def _fits(a):
    """True if a is row-major with unit column stride (a leading dimension is enough)."""
    item = a.itemsize
    if a.ndim == 1:
        return a.shape[0] <= 1 or a.strides[0] == item
    rows, cols = a.shape
    return (cols <= 1 or a.strides[1] == item) and (
        rows <= 1 or (a.strides[0] > 0 and a.strides[0] % item == 0 and a.strides[0] >= cols * item))


def host(obj, kernel, name, dtypes, ndim=(2,)):
    """obj as a NumPy array parlab reads in place: one of dtypes (the first for a list or a
    scalar), rank in ndim, a layout with unit column stride (else copied to C order)."""
    if type(obj) is np.ndarray and obj.dtype in dtypes and obj.ndim == 2 and 2 in ndim and _fits2(obj):
        return obj  # the common case, checked in the fewest steps (a small call's cost is here)
    if isinstance(obj, np.ndarray):
        a = obj
    elif isinstance(obj, (list, tuple, int, float)):
        a = np.asarray(obj, dtype=dtypes[0])
    else:
        a = np.asarray(obj)  # the buffer protocol, __array__, __array_interface__
    if a.dtype not in dtypes:
        takes = " or ".join(str(np.dtype(d)) for d in dtypes)
        raise DTypeError(f"{kernel}: {name} has dtype {a.dtype}; parlab computes {kernel} in {takes} "
                         f"(convert it with {name}.astype(np.{np.dtype(dtypes[0])}))")
    if a.ndim not in ndim:
        want = " or ".join(f"{d}-D" for d in ndim)
        raise ArgumentError(f"{kernel}: {name} has shape {a.shape}; a {want} array is needed")
    return a if _fits(a) else np.ascontiguousarray(a)


def overlaps(out, inputs, meets, updated=None):
    """The out= aliasing rule, one for host and device arrays: True when out may share memory
    with an array the kernel reads (meets(a, b): a test of the two arrays' memory bounds, as
    np.may_share_memory), so the rung writes a new array that is then copied into out (a kernel
    writing into its own input would read what it has already written). `updated` (gemm's C,
    gemv's y: copied into the result before the kernel runs) may be out itself: then it is
    updated in place, as BLAS does; an out that only overlaps it goes through a new array."""
    for x in inputs:  # a plain loop: this runs on every call with out=
        if meets(out, x):
            return True
    return updated is not None and updated is not out and meets(out, updated)


def output(out, kernel, shape, dtype, inputs, updated=None):
    """The array to write: out itself when it fits and overlaps none of inputs (see overlaps),
    else (None given) a new one; with an out whose layout does not fit or that overlaps an
    input, a new one that finish() copies into out."""
    if out is None:
        return np.empty(shape, dtype)
    if (type(out) is np.ndarray and out.ndim == 2 and out.dtype == dtype and out.shape == shape and _fits2(out)
            and out.flags.writeable):  # the common case first (shape is a tuple of two here)
        return np.empty(shape, dtype) if overlaps(out, inputs, np.may_share_memory, updated) else out
    if not isinstance(out, np.ndarray):
        raise DTypeError(f"{kernel}: out must be a NumPy array (or a CuPy/PyTorch array on the GPU), not {type(out).__name__}")
    if out.dtype != dtype:
        raise DTypeError(f"{kernel}: out has dtype {out.dtype}; {kernel} writes {np.dtype(dtype)}")
    if out.shape != tuple(shape):
        raise ArgumentError(f"{kernel}: out has shape {out.shape} where the result has shape {tuple(shape)}")
    if not out.flags.writeable:
        raise ArgumentError(f"{kernel}: out is read-only")
    if not _fits(out) or overlaps(out, inputs, np.may_share_memory, updated):
        return np.empty(shape, dtype)
    return out


def finish(result, out):
    """out (filled from result when it needed a copy), or result."""
    if out is None or result is out:
        return result
    out[...] = result
    return out
