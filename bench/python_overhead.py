#!/usr/bin/env python3
"""The Python package's cost over the C library (issue 21's speed targets; never run in tests).

1. Overhead: a 16x16 GEMM called from Python against the same C call (pl_sgemm_variant) made
   back to back from C (the rung alone in the harness is printed beside it): target within 5 us.
2. Rate: a 4096^2 GEMM and a 16384^2 transpose called from Python against `parlab bench` on the
   same rung (parlab.bench runs the CLI's harness): target within 3%, for calls back to back
   (the rate Python keeps the device at); one call at a time is printed beside it. --gpu: on CuPy arrays and
   the CUDA rungs (zero copies), else NumPy arrays on the CPU rungs.

    python bench/python_overhead.py            # all three (minutes on a small CPU)
    python bench/python_overhead.py --quick    # the 16x16 overhead only
    python bench/python_overhead.py --gpu      # on the GPU machine, with CuPy
"""
import argparse
import statistics
import time

import numpy as np

import parlab
from parlab import _parlab


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
    # warm up (clocks, the context pool, the rung's first-call state) before anything is timed
    t_end = time.perf_counter() + 1.0
    while time.perf_counter() < t_end:
        parlab.gemm(A, A, out=out, variant=variant, threads=1)
    c = min(_parlab.gemm_c_seconds(variant, 1, A, A, out, 20000) for _ in range(20))
    py = best_of(lambda: parlab.gemm(A, A, out=out, variant=variant, threads=1), 20, 20000)
    py_new = best_of(lambda: parlab.gemm(A, A, variant=variant, threads=1), 20, 20000)
    rung, _, _ = harness_median("gemm", "16", variant, threads=1, min_time=0.5)
    print(f"16x16 gemm {variant}, 1 thread: Python call {py * 1e6:.2f} us (out=), {py_new * 1e6:.2f} us "
          f"(new array); the C call {c * 1e6:.2f} us (the rung alone in the harness {rung * 1e6:.2f} us); "
          f"overhead over the C call {(py - c) * 1e6:.2f} us ({(py_new - c) * 1e6:.2f} us with the allocation)")


def rate(kernel, size, variant, call, work, sync=lambda: None, events=None):
    """The Python call's rate against `parlab bench`'s (the harness median) on the same rung.
    Back to back: calls queued one after another, synchronized once at the end: the rate a
    Python program keeps the device at (the target). One at a time: each call synchronized, so
    the call's host time (argument checks, launch) is not hidden behind the previous call's
    kernel. events: (record, elapsed) for the rung's own time on the stream, as the harness
    takes it."""
    t_end = time.perf_counter() + 1.0
    while time.perf_counter() < t_end:  # warm up as the harness does (clocks, pools, contexts)
        call()
    sync()
    n = 20
    t0 = time.perf_counter()
    for _ in range(n):
        call()
    sync()
    back_to_back = (time.perf_counter() - t0) / n
    single, on_stream = [], []
    for _ in range(n):
        t0 = time.perf_counter()
        if events:
            events[0]()
        call()
        if events:
            events[1]()
        sync()
        single.append(time.perf_counter() - t0)
        if events:
            on_stream.append(events[2]())
    med, hrate, hunit = harness_median(kernel, str(size), variant, min_time=1.0)
    scale = 1e6 if hunit == "Mpx/s" else 1e9
    line = (f"{kernel} {size} {variant}: parlab bench {hrate:.1f} {hunit} (median {med * 1e3:.4f} ms); Python back to "
            f"back {work / back_to_back / scale:.1f} {hunit}, Python/bench {med / back_to_back:.3f}; one at a time "
            f"{med / statistics.median(single):.3f}")
    if on_stream:
        line += f"; the rung on the stream {statistics.median(on_stream) * 1e3:.4f} ms"
    print(line)


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
        stream = cp.cuda.get_current_stream()
        ev0, ev1 = cp.cuda.Event(), cp.cuda.Event()
        events = (lambda: ev0.record(stream), lambda: ev1.record(stream),
                  lambda: cp.cuda.get_elapsed_time(ev0, ev1) / 1e3)
        A = cp.random.rand(4096, 4096, dtype=cp.float32)
        C = cp.empty_like(A)
        rate("gemm", 4096, "cuda-tuned", lambda: parlab.gemm(A, A, out=C, variant="cuda-tuned"), 2 * 4096**3,
             stream.synchronize, events)
        rate("gemm", 4096, "cuda-tuned", lambda: parlab.gemm(A, A, variant="cuda-tuned"), 2 * 4096**3,
             stream.synchronize, events)
        T = cp.random.rand(16384, 16384, dtype=cp.float32)
        outT = cp.empty_like(T)
        # the harness counts a transpose's bytes: each element read once and written once
        rate("transpose", 16384, "cuda-tuned", lambda: parlab.transpose(T, out=outT, variant="cuda-tuned"),
             8 * 16384**2, stream.synchronize, events)
    else:
        A = np.random.rand(4096, 4096).astype(np.float32)
        out = np.empty_like(A)
        rate("gemm", 4096, "cpu-packed", lambda: parlab.gemm(A, A, out=out, variant="cpu-packed"), 2 * 4096**3)
        T = np.random.rand(16384, 16384).astype(np.float32)
        outT = np.empty_like(T)
        rate("transpose", 16384, "cpu-blocked", lambda: parlab.transpose(T, out=outT, variant="cpu-blocked"),
             8 * 16384**2)


if __name__ == "__main__":
    main()
