"""list, peaks, machine and bench: the registry and the harness from Python."""
import numpy as np
import pytest

import parlab


def test_list():
    ks = parlab.list()
    assert [k["name"] for k in ks] == list(parlab.KERNELS)
    for k in ks:  # a ladder, and a Python call where the package has one
        assert k["variants"] and all(v["name"] for v in k["variants"])
    assert "gemm" in parlab.__all__ and parlab.gemm is parlab._kernels.gemm and parlab.life is parlab._life.life
    g = parlab.list("gemm")
    v = {x["name"]: x for x in g["variants"]}
    assert v["cpu-naive"]["runnable"] and v["cpu-naive"]["backend"] == "cpu" and not v["cpu-naive"]["peer"]
    assert g["unit"] == "GFLOP/s"
    if not (parlab._parlab.machine()[3] & 8):  # PL_FEAT_GPU
        assert not v["cuda-naive"]["runnable"] and v["cuda-naive"]["why_not"]


def test_bench_rows():
    notes = []
    rows = parlab.bench("gemm", ["48", "33x65x17"], ["cpu-naive", "cpu-simd"], peer=True, repeats=3, notes=notes)
    got = {(r["variant"], r["size"]) for r in rows}
    assert ("cpu-naive", "33x65x17") in got and ("cpu-simd", "48") in got
    for r in rows:
        assert r["kernel"] == "gemm" and r["verification"]["passed"] is True and r["median_s"] > 0
    rows = parlab.bench("reduce", 100, "cpu-simd", set={"op": "max", "axis": 0}, repeats=2)
    assert rows[0]["problem"]["op"] == "max" and rows[0]["problem"]["axis"] == "0"
    assert rows[0]["verification"]["passed"]


def test_machine_and_peaks():
    assert "cores" in parlab.machine()
    p = parlab.peaks()
    assert p is None or p["cpu_threads"] > 0


def test_version():
    assert parlab.__version__.count(".") == 2
    assert np.__version__


def test_named_rung_through_operands_host_and_pointer_paths():
    """The generic path the GPU arrays take (pl_run_device on pointers), exercised with a CPU
    rung on host pointers, and pl_run_host on buffers: both against NumPy."""
    from parlab import _parlab
    rng = np.random.default_rng(3)
    A, B = rng.uniform(-1, 1, (33, 17)).astype(np.float32), rng.uniform(-1, 1, (17, 9)).astype(np.float32)
    ops = _parlab.operands("gemm", "33x9x17", ["alpha=2"])
    assert [o[:2] for o in ops] == [("A", "float32"), ("B", "float32"), ("C", "float32")] and ops[2][3:] == (33, 9, 9)
    C = np.empty((33, 9), np.float32)
    _parlab.run("gemm", "cpu-simd", "33x9x17", ["alpha=2"], 1, 0, 0, [A, B, C], None)
    np.testing.assert_allclose(C, 2 * (A.astype(np.float64) @ B), atol=1e-5)
    C2 = np.empty((33, 9), np.float32)
    _parlab.run("gemm", "cpu-naive", "33x9x17", ["alpha=2"], 1, 0, 0, [a.ctypes.data for a in (A, B, C2)], 0)
    np.testing.assert_allclose(C2, C, atol=1e-5)
    import pytest
    with pytest.raises(ValueError, match="bytes where"):
        _parlab.run("gemm", "cpu-simd", "33x9x17", [], 1, 0, 0, [A[:10], B, C], None)


@pytest.mark.parametrize("kernel", parlab.KERNELS)
def test_best_rung_of_every_kernel(kernel):
    """Every kernel of the registry: the best-first pick on the CPU is a runnable parlab rung of
    the ladder, and it passes a bench at a small size."""
    v = {x["name"]: x for x in parlab.list(kernel)["variants"]}
    best = parlab._parlab.best_variant(kernel, 1, 0, 0)
    assert best in v and v[best]["backend"] == "cpu" and v[best]["runnable"] and not v[best]["peer"]
    assert parlab._parlab.best_variant(kernel, 1, 0, 0, "64") == best
    rows = parlab.bench(kernel, 64, best, repeats=1)
    assert rows[0]["variant"] == best and rows[0]["verification"]["passed"]


def test_best_rung_unknown_kernel():
    with pytest.raises(parlab.ArgumentError, match="unknown kernel 'nope'"):
        parlab._parlab.best_variant("nope", 1, 0, 0)
