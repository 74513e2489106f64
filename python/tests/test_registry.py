"""list, peaks, machine and bench: the registry and the harness from Python."""
import numpy as np

import parlab


def test_list():
    ks = parlab.list()
    names = [k["name"] for k in ks]
    for k in ("gemm", "gemv", "transpose", "reduce", "dot", "conv2d", "entropy", "life"):
        assert k in names
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
