"""gemm in BF16 on the CPU: ml_dtypes bfloat16 NumPy arrays and torch.bfloat16 CPU tensors in,
float32 out, against the float64 product of the same bfloat16 values; the bfloat16 .npy layout
(np.save's '<V2') read by `parlab gemm`; bench and check with dtype='bf16'. Each part is skipped,
saying why, where ml_dtypes or PyTorch is missing. The GPU paths are test_gpu.py's."""
import os
import subprocess

import numpy as np
import pytest

import parlab

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None
    print("skipped: ml_dtypes is not installed (pip install ml_dtypes): the bfloat16 NumPy tests")
needs_ml_dtypes = pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes is not installed")


def bf16(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(ml_dtypes.bfloat16)


def exact(A, B):
    """The float64 product of the bfloat16 values (widening is exact)."""
    return A.astype(np.float64) @ B.astype(np.float64)


def fp32_close(got, want, K):
    """FP32 accumulation of K exact products of magnitude <= 1: the only error there is."""
    np.testing.assert_allclose(got, want, rtol=0, atol=4 * K * np.finfo(np.float32).eps + 1e-7)


@needs_ml_dtypes
@pytest.mark.parametrize("M,N,K", [(1, 1, 1), (7, 13, 5), (33, 65, 129), (100, 3, 1000)])
def test_gemm_ml_dtypes(M, N, K):
    rng = np.random.default_rng(M * N + K)
    A, B = bf16(rng, M, K), bf16(rng, K, N)
    got = parlab.gemm(A, B)
    assert got.dtype == np.float32 and got.shape == (M, N)
    fp32_close(got, exact(A, B), K)


@needs_ml_dtypes
def test_gemm_ml_dtypes_alpha_beta_out_and_views():
    rng = np.random.default_rng(5)
    A, B = bf16(rng, 40, 70), bf16(rng, 70, 50)
    C = rng.uniform(-1, 1, (20, 25)).astype(np.float32)
    A_view, B_view = A[::2, :], B[:, ::2]  # a row step (a leading dimension) and a column step (copied)
    want = 0.5 * exact(A_view, B_view) - 2.0 * C
    C0 = C.copy()
    r = parlab.gemm(A_view, B_view, C, alpha=0.5, beta=-2.0, out=C)
    assert r is C
    fp32_close(C, want, 70)
    assert not np.array_equal(C, C0)
    A2 = bf16(rng, 50, 70)
    out = np.empty((50, 25), np.float32, order="F")  # a layout the rung cannot write: copied into
    assert parlab.gemm(A2, B_view, out=out) is out
    fp32_close(out, exact(A2, B_view), 70)


@needs_ml_dtypes
def test_gemm_bf16_refusals():
    rng = np.random.default_rng(6)
    A, B = bf16(rng, 4, 5), bf16(rng, 5, 6)
    with pytest.raises(parlab.DTypeError, match="both float32 or both bfloat16"):
        parlab.gemm(A, B.astype(np.float32))
    with pytest.raises(parlab.ArgumentError, match="A's columns must equal B's rows"):
        parlab.gemm(A, A)
    with pytest.raises(parlab.UnsupportedError, match="an FP32 rung takes dtype=f32 only; this problem is dtype=bf16"):
        parlab.gemm(A, B, variant="cpu-naive")
    with pytest.raises(parlab.UnsupportedError, match="a BF16 rung takes dtype=bf16 only; this problem is dtype=f32"):
        parlab.gemm(A.astype(np.float32), B.astype(np.float32), variant="cpu-naive-bf16")
    # parlab never rounds float32 to bfloat16: float32 arrays run in FP32
    got = parlab.gemm(A.astype(np.float32), B.astype(np.float32))
    fp32_close(got, exact(A, B), 5)


def test_gemm_torch_cpu_bf16():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    g = torch.Generator().manual_seed(7)
    A = (torch.rand(33, 65, generator=g) * 2 - 1).to(torch.bfloat16)
    B = (torch.rand(65, 17, generator=g) * 2 - 1).to(torch.bfloat16)
    got = parlab.gemm(A, B)
    assert isinstance(got, np.ndarray) and got.dtype == np.float32
    fp32_close(got, (A.double() @ B.double()).numpy(), 65)


@needs_ml_dtypes
def test_npy_layout_read_by_the_file_tool(tmp_path):
    """np.save of an ml_dtypes.bfloat16 array writes descr '<V2' (its bytes, a 2-byte opaque
    type); `parlab gemm` reads that as bfloat16 and writes float32 C."""
    exe = os.environ.get("PARLAB")
    if not exe:
        pytest.skip("PARLAB (the parlab executable) is not set")
    rng = np.random.default_rng(8)
    A, B = bf16(rng, 9, 31), bf16(rng, 31, 7)
    np.save(tmp_path / "A.npy", A)
    np.save(tmp_path / "B.npy", B)
    with open(tmp_path / "A.npy", "rb") as f:
        assert b"'descr': '<V2'" in f.read(128)
    # what np.load gives back: opaque 2-byte elements, numbers again through .view
    assert np.array_equal(np.load(tmp_path / "A.npy").view(ml_dtypes.bfloat16), A)
    out = subprocess.run([exe, "gemm", str(tmp_path / "A.npy"), str(tmp_path / "B.npy"), "-o", str(tmp_path / "C.npy"),
                          "--backend", "cpu"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "variant cpu-naive-bf16" in out.stdout
    C = np.load(tmp_path / "C.npy")
    assert C.dtype == np.float32
    fp32_close(C, exact(A, B), 31)


def test_bench_and_check_dtype_bf16():
    notes = []
    rows = parlab.bench("gemm", "17x33x65", set={"dtype": "bf16"}, repeats=2, notes=notes)
    # the BF16 rungs that run here: cpu-naive-bf16 everywhere, the CUDA ones on a GPU machine
    assert "cpu-naive-bf16" in [r["variant"] for r in rows]
    assert all(r["verification"]["passed"] and r["precision"] == "BF16" for r in rows), rows
    assert any("skipping cpu-naive: an FP32 rung takes dtype=f32 only" in n for n in notes), notes
    report = parlab.check("gemm", "cpu-naive-bf16", seed=42)
    assert report.ok
    verdicts = {(o["settings"] or "").startswith("dtype=bf16"): o["verdict"] for o in report}
    assert verdicts == {True: "pass", False: "skip"}, verdicts
