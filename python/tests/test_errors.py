"""Every bad input is an exception carrying the library's (or the layer's) message: parlab.Error
subclasses that are also ValueError / TypeError / OSError; never a crash or a silent answer."""
import re

import numpy as np
import pytest

import parlab

A = np.ones((4, 5), np.float32)
B = np.ones((5, 3), np.float32)


def test_classes():
    assert issubclass(parlab.ArgumentError, ValueError) and issubclass(parlab.ArgumentError, parlab.Error)
    assert issubclass(parlab.DTypeError, TypeError)
    assert issubclass(parlab.FileError, OSError) and issubclass(parlab.FormatError, ValueError)
    assert issubclass(parlab.OutOfMemoryError, MemoryError)
    assert issubclass(parlab.UnsupportedError, RuntimeError)


@pytest.mark.parametrize("call,dtype", [
    (lambda a: parlab.gemm(a, B), "float64"),
    (lambda a: parlab.transpose(a), "float64"),
    (lambda a: parlab.reduce(a), "float64"),
    (lambda a: parlab.gemv(a, np.ones(5, np.float32)), "float64"),
])
def test_dtype_named(call, dtype):
    with pytest.raises(TypeError, match=f"dtype {dtype}.*float32"):
        call(A.astype(dtype))


def test_dtypes_of_each_call():
    with pytest.raises(TypeError, match="int64.*float32"):
        parlab.dot(np.ones(3, np.int64), np.ones(3, np.float32))
    with pytest.raises(TypeError, match="float64.*float32 or int32"):
        parlab.conv2d(np.ones((5, 5)), np.ones((3, 3)))
    with pytest.raises(TypeError, match="int32.*float32"):
        parlab.conv2d(np.ones((5, 5), np.float32), np.ones((3, 3), np.int32))
    with pytest.raises(TypeError, match="uint16.*uint8"):
        parlab.entropy(np.ones((5, 5), np.uint16))
    with pytest.raises(TypeError, match="float32.*bool or uint8"):
        parlab.life(np.ones((5, 5), np.float32), 1)
    with pytest.raises(TypeError, match="float64"):
        parlab.gemm(A, B, out=np.zeros((4, 3)))


def test_shapes_named():
    with pytest.raises(ValueError, match="A is 4x5 and B is 4x5"):
        parlab.gemm(A, A)
    with pytest.raises(ValueError, match=r"C is \(2, 2\)"):
        parlab.gemm(A, B, np.ones((2, 2), np.float32), beta=1)
    with pytest.raises(ValueError, match=r"out has shape \(3, 3\)"):
        parlab.gemm(A, B, out=np.zeros((3, 3), np.float32))
    with pytest.raises(ValueError, match="A is 4x5 and x has shape 1x4"):
        parlab.gemv(A, np.ones(4, np.float32))
    with pytest.raises(ValueError, match="x has shape 1x3 and y 1x4"):
        parlab.dot(np.ones(3, np.float32), np.ones(4, np.float32))
    with pytest.raises(ValueError, match="1-D or 2-D|2-D"):
        parlab.transpose(np.ones((2, 2, 2), np.float32))
    with pytest.raises(ValueError, match="square"):
        parlab.conv2d(np.ones((9, 9), np.float32), np.ones((3, 5), np.float32))


def test_values_refused_by_the_library():
    with pytest.raises(parlab.ArgumentError, match="odd") as e:
        parlab.conv2d(np.ones((9, 9), np.float32), np.ones((4, 4), np.float32))
    assert e.value.status == "invalid argument"
    with pytest.raises(ValueError, match="5x5 filter to fit the 3x3 image"):
        parlab.conv2d(np.ones((3, 3), np.float32), np.ones((5, 5), np.float32))  # valid: K > H
    with pytest.raises(ValueError, match="int32"):
        parlab.conv2d(np.full((9, 9), 2**30, np.int32), np.ones((3, 3), np.int32))
    with pytest.raises(ValueError, match=r"value 20 .* outside \[0, 16\)"):
        parlab.entropy(np.full((5, 5), 20, np.uint8))
    with pytest.raises(ValueError, match="k"):
        parlab.entropy(np.zeros((5, 5), np.uint8), k=4)
    with pytest.raises(ValueError, match="rule"):
        parlab.life(np.zeros((5, 5), bool), 1, rule="B9/S99x")
    with pytest.raises(ValueError, match="finite|range"):
        parlab.gemm(A, B, alpha=float("nan"))
    with pytest.raises(ValueError, match="axis 2"):
        parlab.reduce(A, "sum", 2)
    with pytest.raises(ValueError, match="'median'"):
        parlab.reduce(A, "median")
    with pytest.raises(ValueError, match="'wrap'"):
        parlab.conv2d(A, np.ones((3, 3), np.float32), mode="same", border="wrap")
    with pytest.raises(ValueError, match="unknown variant 'cpu-fast'"):
        parlab.gemm(A, B, variant="cpu-fast")
    with pytest.raises(ValueError, match="gens -1"):
        parlab.life(np.zeros((5, 5), bool), -1)
    with pytest.raises(ValueError, match="backend"):
        parlab.gemm(A, B, backend="tpu")


@pytest.mark.parametrize("kernel,size,named", [
    ("transpose", "4000000000x4000000000", "4000000000x4000000000 overflows"),  # M x lda x 8 bytes
    ("gemm", "3037000500", "3037000500x3037000500x3037000500 overflows"),
    ("life", "4000000000x4000000000", "4000000000x4000000000 overflows"),
    ("dot", "9000000000000000000", "N=9000000000000000000 overflows"),
    ("transpose", "99999999999999999999x2", "'99999999999999999999x2': a number is too large"),  # past int64
], ids=["transpose", "gemm", "life", "dot", "size-past-int64"])
def test_size_overflow_refused(kernel, size, named):
    """A size whose element or byte count overflows 64 bits (PL_ERR_OVERFLOW) is a bad argument,
    refused before any allocation, the message naming it."""
    cpu = next(v["name"] for v in parlab.list(kernel)["variants"] if v["backend"] == "cpu" and v["runnable"])
    with pytest.raises(parlab.ArgumentError, match=re.escape(named)) as e:
        parlab.bench(kernel, size, cpu)
    assert isinstance(e.value, ValueError) and e.value.status == "size overflow"


def test_empty_arrays_refused_not_crashed():
    with pytest.raises(ValueError):
        parlab.gemm(np.ones((0, 5), np.float32), B)
    with pytest.raises(ValueError):
        parlab.dot(np.ones(0, np.float32), np.ones(0, np.float32))


def test_cuda_without_gpu_or_build():
    if parlab.list("gemm")["variants"][4]["runnable"]:
        pytest.skip("a GPU is here: test_gpu covers backend='cuda'")
    with pytest.raises(parlab.UnsupportedError, match="CUDA|GPU"):
        parlab.gemm(A, B, backend="cuda")


def test_files():
    with pytest.raises(FileNotFoundError.__mro__[1]):  # OSError
        parlab.life_read("/nonexistent/x.rle")


def test_malformed_rle(tmp_path):
    (tmp_path / "bad.rle").write_text("x = 3, y = 3\nbo$2bo$3q!\n")
    with pytest.raises(parlab.FormatError, match="bad.rle"):
        parlab.life_read(tmp_path / "bad.rle")


def test_read_only_out():
    out = np.zeros((4, 3), np.float32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        parlab.gemm(A, B, out=out)
