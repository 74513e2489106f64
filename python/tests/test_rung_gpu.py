"""Your own CUDA rung from Python: CuPy arrays (a RawKernel transpose, a cuBLAS GEMM through
CuPy) and PyTorch tensors (a reduction) over parlab's device buffers, launched on the stream
parlab times, verified beside the ladder's CUDA rungs; work left on another stream is caught.
Skipped, saying why, without a GPU, a CUDA build, or CuPy/PyTorch."""
import numpy as np
import pytest

import parlab

GPU = bool(parlab._parlab.machine()[3] & 8)  # PL_FEAT_GPU: a CUDA build and a usable GPU
if not GPU:
    pytest.skip("no GPU or no CUDA build: the GPU tests run on the GPU machine", allow_module_level=True)


def have(name):
    try:
        mod = __import__(name)
    except ImportError:
        return False
    return name != "torch" or mod.cuda.is_available()


CUPY = pytest.mark.skipif(not have("cupy"), reason="CuPy is not installed")
TORCH = pytest.mark.skipif(not have("torch"), reason="PyTorch (with CUDA) is not installed")
QUICK = {"warmup": 1, "repeats": 3}


def row_of(rows, name):
    return next(r for r in rows if r["variant"] == name)


@CUPY
def test_cupy_rawkernel_transpose_on_parlabs_stream():
    import cupy
    kernel = cupy.RawKernel(r"""
    extern "C" __global__ void transpose(const float *A, float *B, long long M, long long N, long long lda,
                                         long long ldb) {
        long long j = blockIdx.x * (long long)blockDim.x + threadIdx.x;
        long long i = blockIdx.y * (long long)blockDim.y + threadIdx.y;
        if (i < M && j < N) B[j * ldb + i] = A[i * lda + j];
    }""", "transpose")
    streams = []

    def raw_transpose(A, B):
        streams.append(cupy.cuda.get_current_stream().ptr)
        M, N = A.shape
        kernel(((N + 15) // 16, (M + 15) // 16), (16, 16),
               (A, B, np.int64(M), np.int64(N), np.int64(A.strides[0] // 4), np.int64(B.strides[0] // 4)))

    rows = parlab.bench("transpose", ["1000x777", 2048], ["cuda-naive-read", parlab.rung(raw_transpose, backend="cuda")],
                        set={"pad": 3}, **QUICK)
    mine = [r for r in rows if r["variant"] == "raw_transpose"]
    assert len(mine) == 2, [(r["variant"], r["size"]) for r in rows]
    for r in mine:
        assert r["verification"]["passed"] and r["backend"] == "cuda", r["verification"]
    assert streams and len(set(streams)) == 1 and streams[0] != 0  # parlab's own stream, never the default


@CUPY
def test_cupy_gemm_returned_array_is_copied_on_the_stream():
    import cupy

    def cupy_gemm(A, B, C, *, alpha, beta):
        assert isinstance(A, cupy.ndarray)
        return cupy.float32(alpha) * (A @ B) + cupy.float32(beta) * C

    rows = parlab.bench("gemm", [512, "300x257x129"], ["cuda-shared", parlab.rung(cupy_gemm, backend="cuda")],
                        set={"beta": 0.5}, peer=True, **QUICK)
    assert all(r["verification"]["passed"] for r in rows if r["variant"] == "cupy_gemm")
    assert any(r["variant"].startswith("peer-") for r in rows)


@TORCH
def test_torch_reduction():
    import torch

    def torch_sum(A, r, *, op, axis):
        assert isinstance(A, torch.Tensor) and A.is_cuda and op == "sum"
        return A.sum(dim=axis)

    rows = parlab.bench("reduce", ["777x1000", 4096], ["cuda-naive", parlab.rung(torch_sum, backend="cuda",
                                                                                 arrays="torch")],
                        set={"axis": 0}, **QUICK)
    assert all(r["verification"]["passed"] for r in rows if r["variant"] == "torch_sum"), rows


@TORCH
def test_torch_writes_its_output_in_place():
    import torch

    def torch_gemm(A, B, C, *, alpha, beta):
        torch.matmul(A, B, out=C)

    rows = parlab.bench("gemm", 256, [parlab.rung(torch_gemm, backend="cuda", arrays="torch")], **QUICK)
    assert row_of(rows, "torch_gemm")["verification"]["passed"]


@CUPY
def test_off_stream_work_fails_the_row():
    import cupy
    side = cupy.cuda.Stream(non_blocking=True)

    def elsewhere(A, B, C, **params):
        with side:  # not the stream parlab passes: its events time nothing
            cupy.matmul(A, B, out=C)

    rows = parlab.bench("gemm", 4096, [parlab.rung(elsewhere, backend="cuda")], **QUICK)
    v = row_of(rows, "elsewhere")["verification"]
    assert not v["passed"] and "off-stream" in v["failed_why"], v


@CUPY
def test_cuda_rung_failures_name_the_rung():
    import cupy

    def host_answer(A, B, C, **params):
        return np.zeros(C.shape, np.float32)

    with pytest.raises(parlab.DTypeError, match=r"gemm rung 'host_answer' returned a numpy array; this rung's arrays "
                                                r"are cupy arrays"):
        parlab.bench("gemm", 64, [parlab.rung(host_answer, backend="cuda", arrays="cupy")], **QUICK)

    def boom(A, B, C, **params):
        raise cupy.cuda.runtime.CUDARuntimeError(1)

    with pytest.raises(parlab.RungError, match=r"gemm rung 'boom' raised CUDARuntimeError"):
        parlab.bench("gemm", 64, [parlab.rung(boom, backend="cuda", arrays="cupy")], **QUICK)
