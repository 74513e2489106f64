"""Your own rung from Python (parlab.rung): a NumPy callable on a kernel's ladder, verified and
timed as parlab's rungs are, under its own name; every kernel's call as docs/python.md gives it;
the failures a rung can make, each caught with a message naming the rung: an exception, a wrong
shape or dtype returned, a replayed answer, a write into an input."""
import ctypes

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

import parlab
from parlab._life import pack, unpack

QUICK = {"warmup": 1, "repeats": 3}  # a few timed runs: these tests check results, not times


def row_of(rows, name):
    found = [r for r in rows if r["variant"] == name]
    assert found, f"no row of {name} in {[r['variant'] for r in rows]}"
    return found[0]


def passed(rows, name):
    return all(r["verification"]["passed"] for r in rows if r["variant"] == name)


# ---------------------------------------------------------------- a correct rung


def mine(A, B, C, *, alpha, beta):
    np.matmul(A, B, out=C)
    C *= np.float32(alpha)


def test_numpy_gemm_rung_is_verified_beside_the_ladder():
    rows = parlab.bench("gemm", [64, "33x65x17"], ["cpu-naive", parlab.rung(mine)], **QUICK)
    assert [(r["variant"], r["size"]) for r in rows] == [
        ("cpu-naive", "64"), ("mine", "64"), ("cpu-naive", "33x65x17"), ("mine", "33x65x17")]
    for r in rows:
        assert r["verification"]["passed"], r["verification"]
        assert "failed_why" not in r["verification"]
        assert r["median_s"] > 0 and r["repeats"] == 3
    assert row_of(rows, "mine")["backend"] == "cpu" and row_of(rows, "mine")["precision"] == "FP32"


def test_rows_with_padding_are_strided_views_and_alpha_beta_arrive_by_name():
    seen = []

    def padded(A, B, C, *, alpha, beta):
        seen.append((A.strides, C.strides, A.flags.writeable, C.flags.writeable, alpha, beta))
        C[...] = np.float32(alpha) * (A @ B) + np.float32(beta) * C

    rows = parlab.bench("gemm", "20x30x10", [parlab.rung(padded)], set={"pad": 3, "alpha": 2, "beta": 0.5}, **QUICK)
    assert passed(rows, "padded")
    a_strides, c_strides, a_writable, c_writable, alpha, beta = seen[0]
    assert a_strides == (4 * (10 + 3), 4) and c_strides == (4 * (30 + 3), 4)
    assert not a_writable and c_writable  # inputs are const, as a C rung's
    assert (alpha, beta) == (2.0, 0.5)


def test_a_returned_array_is_copied_into_the_output_and_the_peers_are_beside_it():
    rows = parlab.bench("gemm", 48, [parlab.rung(lambda A, B, C, alpha, beta: A @ B, name="returns")], peer=True,
                        **QUICK)
    assert passed(rows, "returns")
    peers = [r["variant"] for r in rows if r["peer"]]  # none in a build without a CPU peer library
    assert [p["name"] for p in row_of(rows, "returns")["peers"]] == peers


def test_a_bare_callable_is_a_cpu_rung_named_as_the_function():
    rows = parlab.bench("gemm", 16, ["cpu-naive", mine], **QUICK)
    assert passed(rows, "mine")


# Each kernel's call, as the table in docs/python.md gives it: a NumPy rung that must verify.
def gemv(A, x, y, *, trans, alpha, beta):
    ax = np.float32(alpha) * ((A.T if trans else A) @ x)
    y[...] = ax + np.float32(beta) * y if beta else ax  # beta 0: y is not read (parlab poisons it)


def transpose(A, B):
    B[...] = A.T


def reduce(A, r, *, op, axis):
    r[...] = (A * A).sum(axis=axis) if op == "sumsq" else getattr(np, op)(A, axis=axis)


def dot(x, y, r):
    return np.dot(x, y)  # a 0-d result for the one-element output


def conv2d(image, filter, out, *, mode, border, flip):
    assert (mode, border) == ("valid", "zero")
    f = filter[::-1, ::-1] if flip else filter
    out[...] = np.einsum("ijkl,kl->ij", sliding_window_view(image, f.shape), f)


def entropy(values, out, *, k, bins, base):
    H, W = values.shape
    r = k // 2
    for i in range(H):
        for j in range(W):
            win = values[max(i - r, 0):i + r + 1, max(j - r, 0):j + r + 1]
            p = np.bincount(win.ravel(), minlength=bins) / win.size
            p = p[p > 0]
            out[i, j] = -(p * (np.log2(p) if base == "2" else np.log(p))).sum()


def life(grid, *, gens, rule, topology, width):
    assert (rule, topology) == ("B3/S23", "torus")
    cells = unpack(grid, width, np.uint8)
    for _ in range(gens):
        n = sum(np.roll(np.roll(cells, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)) - cells
        cells = ((n == 3) | ((cells == 1) & (n == 2))).astype(np.uint8)
    grid[...] = pack(cells)


CALLS = [
    ("gemv", "37x29", {"trans": "t", "alpha": 1.5, "beta": 0.5}, gemv),
    ("gemv", "37x29", {}, gemv),
    ("transpose", "37x29", {}, transpose),
    ("reduce", "37x29", {"op": "max", "axis": 0}, reduce),
    ("reduce", "37x29", {"op": "sumsq"}, reduce),
    ("dot", "1000", {}, dot),
    ("conv2d", "40x33", {"k": 5, "flip": 1}, conv2d),
    ("entropy", "20x17", {"k": 5, "bins": 16, "base": "2"}, entropy),
    ("life", "130x20", {"gens": 3}, life),
]


@pytest.mark.parametrize("kernel,size,settings,fn", CALLS, ids=[f"{c[0]}-{'-'.join(map(str, c[2].values()))}"
                                                                for c in CALLS])
def test_every_kernels_call(kernel, size, settings, fn):
    rows = parlab.bench(kernel, size, [parlab.rung(fn, name="numpy")], set=settings, **QUICK)
    assert passed(rows, "numpy"), row_of(rows, "numpy")["verification"]


# ---------------------------------------------------------------- failures, each naming the rung


def test_an_exception_stops_the_bench_before_anything_is_timed():
    calls = []

    def boom(A, B, C, **params):
        calls.append(1)
        return 1 / 0

    with pytest.raises(parlab.RungError, match=r"gemm rung 'boom' raised ZeroDivisionError: division by zero") as e:
        parlab.bench("gemm", 32, [parlab.rung(boom)], **QUICK)
    assert isinstance(e.value.__cause__, ZeroDivisionError)
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, parlab.Error)
    assert len(calls) == 1  # the warm-up only


def test_a_wrong_shape_names_the_rung_and_the_operand():
    def short(A, B, C, **params):
        return np.zeros((3, 3), np.float32)

    with pytest.raises(parlab.ArgumentError, match=r"gemm rung 'short' returned an array of shape \(3, 3\) where C "
                                                   r"has shape \(32, 32\)"):
        parlab.bench("gemm", 32, ["cpu-naive", parlab.rung(short)], **QUICK)


def test_a_wrong_dtype_names_the_rung_and_the_operand():
    def wide(A, B, C, **params):
        return A.astype(np.float64) @ B

    with pytest.raises(parlab.DTypeError, match=r"gemm rung 'wide' returned an array of dtype float64 where C has "
                                                r"dtype float32"):
        parlab.bench("gemm", 32, [parlab.rung(wide)], **QUICK)
    with pytest.raises(parlab.DTypeError, match=r"gemm rung 'listy' returned a list"):
        parlab.bench("gemm", 8, [parlab.rung(lambda A, B, C, **p: [[0.0]], name="listy")], **QUICK)


def test_a_replayed_answer_fails_on_fresh_inputs():
    cache = []

    def replay(A, B, C, **params):
        if not cache:
            cache.append(A @ B)
        C[...] = cache[0]

    rows = parlab.bench("gemm", 40, [parlab.rung(replay)], **QUICK)
    v = row_of(rows, "replay")["verification"]
    assert not v["passed"]
    assert "fresh inputs" in v["failed_why"], v


def test_writing_an_input():
    def scribble(A, B, C, **params):
        C[...] = A @ B
        A[0, 0] = 0  # the inputs are read-only arrays

    with pytest.raises(parlab.RungError, match=r"rung 'scribble' raised ValueError: .*read-only") as e:
        parlab.bench("gemm", 16, [parlab.rung(scribble)], **QUICK)
    assert isinstance(e.value.__cause__, ValueError)

    def behind_the_back(A, B, C, **params):
        C[...] = A @ B
        ctypes.memset(A.ctypes.data, 0, A.itemsize)  # past the read-only flag: the checksum sees it

    rows = parlab.bench("gemm", 16, [parlab.rung(behind_the_back)], **QUICK)
    v = row_of(rows, "behind_the_back")["verification"]
    assert not v["passed"] and not v["inputs_ok"], v


def test_names():
    with pytest.raises(parlab.ArgumentError, match=r"parlab.rung 'cpu-naive': gemm has a rung of that name already; "
                                                   r"give yours another"):
        parlab.bench("gemm", 8, [parlab.rung(mine, name="cpu-naive")])
    with pytest.raises(parlab.ArgumentError, match="no name of its own"):
        parlab.rung(lambda A, B, C, **p: None)
    with pytest.raises(parlab.ArgumentError, match="commas"):
        parlab.rung(mine, name="a,b")
    with pytest.raises(parlab.ArgumentError, match="backend 'gpu'"):
        parlab.rung(mine, backend="gpu")
    with pytest.raises(parlab.ArgumentError, match="precision"):
        parlab.rung(mine, precision="fp16")
    with pytest.raises(parlab.ArgumentError, match=r"arrays 'cupy': a cpu rung takes 'numpy'"):
        parlab.rung(mine, arrays="cupy")


def test_a_cuda_rung_needs_cupy_or_torch():
    import importlib.util
    if importlib.util.find_spec("cupy") or importlib.util.find_spec("torch"):
        pytest.skip("CuPy or PyTorch is installed here: test_rung_gpu.py has the CUDA rungs")
    with pytest.raises(parlab.UnsupportedError, match="a CUDA rung takes CuPy or PyTorch arrays, and neither is "
                                                      "installed"):
        parlab.rung(mine, backend="cuda")


def test_the_rungs_variant_for_the_c_extension():
    """What parlab.check (and any C function of the extension taking a `const pl_variant *`)
    receives: a capsule named parlab.pl_variant, made per kernel."""
    cap = parlab.rung(mine).variant("gemm")
    assert type(cap).__name__ == "PyCapsule" and "parlab.pl_variant" in repr(cap)
    from parlab._rung import as_variant
    assert as_variant("gemm", "cpu-naive") == "cpu-naive"
    assert "parlab.pl_variant" in repr(as_variant("gemm", mine))
