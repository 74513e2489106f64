"""parlab.check: the correctness suite alone, on a named rung."""
import pytest

import parlab


def test_cpu_naive_passes_every_case():
    r = parlab.check("gemm", "cpu-naive")  # the default seeds: 42, 7919 and one new
    n_cases = len(r) // 3
    assert r.ok and not r.failures and r.raise_for_failures() is r
    assert r.kernel == "gemm" and r.variant == "cpu-naive" and len(r.seeds) == 3 and r.seeds[:2] == [42, 7919]
    assert n_cases >= 8 and [o["seed"] for o in r[:3]] == r.seeds
    sizes = {o["size"] for o in r}
    assert "1" in sizes and "17x31x33" in sizes
    settings = {o["settings"] for o in r}
    assert "beta=1" in settings and any("pad=" in s for s in settings)
    for o in r:
        if "dtype=bf16" in o["settings"]:  # the cases of the BF16 rungs: not taken by an FP32 one
            assert o["verdict"] == "skip" and "an FP32 rung takes dtype=f32 only" in o["message"]
            continue
        assert o["verdict"] == "pass" and o["status"] == "ok" and o["padding_ok"] and o["inputs_ok"]
        assert o["worst"] is None and not o["exact"]
    text = str(r).splitlines()
    assert text[0].startswith("gemm cpu-naive: seeds 42, 7919, ") and text[-1] == f"gemm cpu-naive: {len(r)} runs, 0 failed"


def test_one_seed_replays_and_exact_kernels():
    r = parlab.check("transpose", "cpu-naive", seed=12345)
    assert r.seeds == [12345] and all(o["seed"] == 12345 and o["exact"] for o in r) and r.ok


def test_a_case_the_rung_does_not_take_is_a_skip():
    r = parlab.check("life", "cpu-sparse", seed=[1, 2])
    skips = [o for o in r if o["verdict"] == "skip"]
    assert r.ok and skips and all("torus" in o["message"] or "B0" in o["message"] for o in skips)


def test_a_failure_reads_as_the_worst_element():
    bad = {"size": "17x31x33", "settings": "", "problem": "17x31x33", "seed": 3, "verdict": "fail", "status": "ok",
           "padding_ok": True, "inputs_ok": True, "exact": False, "message": "",
           "worst": {"run": "first", "operand": "C", "row": 0, "col": 30, "value": float("nan"),
                     "reference": 0.96, "bound": 1.5e-5, "wrong": 17, "checked": 527, "error": float("inf"),
                     "error_bound": 1e-5, "elem_ratio": float("inf")}}
    r = parlab.CheckReport("gemm", "mine", [3], [bad])
    assert not r.ok and r.failures == [bad]
    assert "17 of 527 elements wrong (first run); worst C[0][30] = nan, reference 0.96, bound 1.5e-05" in str(r)
    with pytest.raises(parlab.VerifyError, match=r"1 of 1 runs failed; first: fail  17x31x33"):
        r.raise_for_failures()
    # every element within its bound, the whole output's relative error not
    whole = dict(bad, worst=dict(bad["worst"], value=0.0215809941, reference=0.0215778946, bound=0.00391, wrong=0,
                                 checked=1, error=1.4e-4))
    assert "relative error 0.00014 above its bound 1e-05, every element within its own (first run)" in str(
        parlab.CheckReport("gemv", "cpu-naive", [3], [whole]))


def test_errors_name_the_rung():
    with pytest.raises(parlab.ArgumentError, match="no variant 'nope'"):
        parlab.check("gemm", "nope")
    with pytest.raises(parlab.ArgumentError, match="no kernel 'nope'"):
        parlab.check("nope", "cpu-naive")
    if not next(v for v in parlab.list("gemm")["variants"] if v["name"] == "cuda-naive")["runnable"]:
        with pytest.raises(parlab.UnsupportedError, match="check: cuda-naive cannot run here"):
            parlab.check("gemm", "cuda-naive")


def test_a_python_rung_is_checked_like_a_ladder_rung():
    def transpose(A, B, **problem):
        B[...] = A.T

    report = parlab.check("transpose", parlab.rung(transpose, name="mine"), seed=42)
    assert report.ok and len(report) > 5 and all(r["verdict"] == "pass" for r in report)

    def tail(A, B, **problem):  # the last output row left unwritten
        B[:-1, :] = A.T[:-1, :]

    report = parlab.check("transpose", parlab.rung(tail, name="tail"), seed=42)
    assert not report.ok and report.failures

    def boom(A, B, **problem):
        raise ZeroDivisionError("no")

    with pytest.raises(parlab.RungError, match="boom"):
        parlab.check("transpose", parlab.rung(boom), seed=42)
