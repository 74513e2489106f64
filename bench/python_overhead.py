#!/usr/bin/env python3
"""The Python package's cost over the C library (issue 21's speed targets; never run in tests).

1. Overhead: a 16x16 GEMM called from Python against the same rung timed by parlab's harness
   (the rung's run alone, the C call's floor): target within 5 us.
2. Rate: a 4096^2 GEMM and a 16384^2 transpose called from Python against `parlab bench` on the
   same rung (parlab.bench runs the CLI's harness): target within 3%. --gpu: on CuPy arrays and
   the CUDA rungs (zero copies), else NumPy arrays on the CPU rungs.

    python bench/python_overhead.py            # all three (minutes on a small CPU)
    python bench/python_overhead.py --quick    # the 16x16 overhead only
    python bench/python_overhead.py --gpu      # on the GPU machine, with CuPy
"""
import argparse
import time

import numpy as np

import parlab


def best_of(fn, repeats, inner):
    """The fastest of `repeats` timings of `inner` calls, per call (seconds)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        best = min(best, (time.perf_counter() - t0) / inner)
    return best


def harness_median(kernel, size, variant, **kw):
    row = parlab.bench(kernel, size, [variant], **kw)[0]
    return row["median_s"], row["rate"], row["rate_unit"]


def overhead(variant):
    A = np.ones((16, 16), np.float32)
    out = np.empty((16, 16), np.float32)
    py = best_of(lambda: parlab.gemm(A, A, out=out, variant=variant, threads=1), 20, 2000)
    py_new = best_of(lambda: parlab.gemm(A, A, variant=variant, threads=1), 20, 2000)
    c, _, _ = harness_median("gemm", "16", variant, threads=1, min_time=0.5)
    print(f"16x16 gemm {variant}, 1 thread: Python call {py * 1e6:.2f} us (out=), {py_new * 1e6:.2f} us "
          f"(new array); the rung in the harness {c * 1e6:.2f} us; overhead {(py - c) * 1e6:.2f} us "
          f"({(py_new - c) * 1e6:.2f} us with the allocation)")


def rate(kernel, size, variant, call, work, unit, sync=lambda: None):
    call()
    sync()
    t = best_of(lambda: (call(), sync()), 5, 1)
    med, hrate, hunit = harness_median(kernel, str(size), variant, repeats=5)
    scale = 1e6 if hunit == "Mpx/s" else 1e9
    prate = work / t / scale
    print(f"{kernel} {size} {variant}: Python {prate:.1f} {hunit} (best of 5), parlab bench {hrate:.1f} {hunit} "
          f"(median); Python/bench {prate / hrate:.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="the 16x16 overhead only")
    ap.add_argument("--gpu", action="store_true", help="CuPy arrays on the CUDA rungs")
    a = ap.parse_args()
    print(parlab.machine())
    overhead("cpu-simd")
    if a.quick:
        return
    if a.gpu:
        import cupy as cp
        sync = cp.cuda.get_current_stream().synchronize
        A = cp.random.rand(4096, 4096, dtype=cp.float32)
        rate("gemm", 4096, "cuda-tuned", lambda: parlab.gemm(A, A, variant="cuda-tuned"), 2 * 4096**3, "GFLOP/s", sync)
        T = cp.random.rand(16384, 16384, dtype=cp.float32)
        # the harness counts a transpose's bytes: each element read once and written once
        rate("transpose", 16384, "cuda-tuned", lambda: parlab.transpose(T, variant="cuda-tuned"), 8 * 16384**2, "GB/s",
             sync)
    else:
        A = np.random.rand(4096, 4096).astype(np.float32)
        out = np.empty_like(A)
        rate("gemm", 4096, "cpu-packed", lambda: parlab.gemm(A, A, out=out, variant="cpu-packed"), 2 * 4096**3, "GFLOP/s")
        T = np.random.rand(16384, 16384).astype(np.float32)
        outT = np.empty_like(T)
        rate("transpose", 16384, "cpu-blocked", lambda: parlab.transpose(T, out=outT, variant="cpu-blocked"), 8 * 16384**2,
             "GB/s")


if __name__ == "__main__":
    main()
