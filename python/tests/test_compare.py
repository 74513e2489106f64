"""parlab.compare: two bench runs row by row, the same library call as `parlab compare`. A run
against itself is "same" on every row; the same run with its times doubled is "slower" (speedup
0.5, p below 0.001) and halved "faster"; rows without samples compare medians only; files and
directories are read as the command reads them; renames and ignored parameters match rows; a bad
file or rename raises, naming it."""
import copy
import json

import pytest

import parlab


@pytest.fixture(scope="module")
def run():
    rows = parlab.bench("transpose", [64, 96], ["cpu-naive", "cpu-blocked"], repeats=12)
    assert all(len(r["samples"]) == 12 for r in rows)
    # steady samples (a shared machine's outliers could make a doubling not significant)
    for r in rows:
        r["samples"] = [r["median_s"] * (1 + 0.01 * ((5 * k) % 12 - 5.5)) for k in range(12)]
    return rows


def scaled(rows, factor, samples=True):
    out = copy.deepcopy(rows)
    for r in out:
        r["median_s"] *= factor
        if samples:
            r["samples"] = [factor * t for t in r["samples"]]
        else:
            del r["samples"]
    return out


def test_same(run):
    c = parlab.compare(run, run)
    assert len(c["rows"]) == 4 and not c["only_old"] and not c["only_new"]
    for r in c["rows"]:
        assert r["verdict"] == "same" and r["speedup"] == 1 and r["p"] == 1 and r["low"] <= 1 <= r["high"]
    assert c["geomean"] == pytest.approx(1)


def test_slower_and_faster(run):
    c = parlab.compare(run, scaled(run, 2))
    assert [r["verdict"] for r in c["rows"]] == ["slower"] * 4
    assert all(r["speedup"] == pytest.approx(0.5) and r["p"] < 0.001 and r["high"] < 1 for r in c["rows"])
    assert c["geomean"] == pytest.approx(0.5)
    c = parlab.compare(scaled(run, 2), run)
    assert [r["verdict"] for r in c["rows"]] == ["faster"] * 4


def test_no_samples(run):
    c = parlab.compare(scaled(run, 1, samples=False), scaled(run, 2))
    for r in c["rows"]:
        assert r["verdict"] == "no samples" and r["speedup"] == pytest.approx(0.5)
        assert r["low"] is None and r["p"] is None and not r["samples"]


def test_files_renames_and_kernel(run, tmp_path):
    (tmp_path / "old").mkdir()
    renamed = scaled(run, 1)
    for r in renamed:
        if r["variant"] == "cpu-blocked":
            r["variant"] = "cpu-tiled"
            r["params"]["extra"] = 1
    with open(tmp_path / "old" / "a.json", "w") as f:
        json.dump({"schema": "parlab-bench/2", "results": run}, f)
    with open(tmp_path / "new.json", "w") as f:
        json.dump({"schema": "parlab-bench/2", "results": renamed}, f)
    c = parlab.compare(tmp_path / "old", str(tmp_path / "new.json"))
    assert len(c["rows"]) == 2 and len(c["only_old"]) == 2 and len(c["only_new"]) == 2
    assert c["only_new"][0]["variant"] == "cpu-tiled" and "extra=1" in c["only_new"][0]["params"]
    c = parlab.compare(tmp_path / "old", tmp_path / "new.json", rename=["cpu-blocked=cpu-tiled"], ignore_param="extra")
    assert len(c["rows"]) == 4 and not c["only_old"] and not c["only_new"]
    assert not parlab.compare(run, run, kernel="gemm")["rows"]


def test_errors(run, tmp_path):
    with pytest.raises(parlab.FileError, match="nothere.json"):
        parlab.compare(tmp_path / "nothere.json", run)
    (tmp_path / "bad.json").write_text("not json")
    with pytest.raises(parlab.FormatError, match="bad.json"):
        parlab.compare(run, tmp_path / "bad.json")
    with pytest.raises(parlab.ArgumentError, match="rename 'nothing'"):
        parlab.compare(run, run, rename="nothing")
    with pytest.raises(parlab.ArgumentError):
        parlab.compare(42, run)
