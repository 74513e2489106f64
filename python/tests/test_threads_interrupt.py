"""Calls from many Python threads at once each get their own right answer (the GIL is released
and each call holds its own context); Ctrl-C (SIGINT to a subprocess) stops a long Life run and
a long bench with KeyboardInterrupt within a second."""
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import parlab


def test_threads_at_once():
    rng = np.random.default_rng(7)
    jobs = [(rng.uniform(-1, 1, (60 + i, 70)).astype(np.float32), rng.uniform(-1, 1, (70, 50 + i)).astype(np.float32))
            for i in range(16)]

    def one(i):
        A, B = jobs[i]
        out = []
        for _ in range(20):
            out.append(parlab.gemm(A, B, threads=1))
            out.append(parlab.conv2d(A, B[:3, :3].copy(), mode="same", threads=1))
        return out

    with ThreadPoolExecutor(8) as ex:
        results = list(ex.map(one, range(16)))
    import scipy.ndimage as nd
    for (A, B), res in zip(jobs, results):
        want_g = A.astype(np.float64) @ B
        want_c = nd.correlate(A.astype(np.float64), B[:3, :3].astype(np.float64), mode="constant")
        for g, c in zip(res[::2], res[1::2]):
            np.testing.assert_allclose(g, want_g, atol=1e-4)
            np.testing.assert_allclose(c, want_c, atol=1e-5)


def test_gil_released():
    """While a slow call runs on one thread, Python code runs on another: a held GIL would stop
    this thread for the whole call (a C call holding it does not yield at switch intervals), so
    its longest pause would be about the call's length; released, it pauses for a few switch
    intervals at most."""
    import threading
    A = np.ones((600, 600), np.float32)
    done = threading.Event()
    t = threading.Thread(target=lambda: (parlab.gemm(A, A, variant="cpu-naive", threads=1), done.set()))
    start = last = time.perf_counter()
    t.start()
    longest = time.perf_counter() - start  # the new thread may run (and call) before start() returns
    last = time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    t.join()
    took = last - start
    assert took > 0.05, f"the call took {took:.3f} s: too short to tell whether it holds the GIL"
    assert longest < took / 2, f"this thread stopped for {longest:.3f} s of the call's {took:.3f} s: the GIL is held"


def interrupted(code):
    """Run code in a subprocess, SIGINT it once it says 'ready' (plus 1 s), and return the
    seconds from the signal to its end and its stderr. The child takes Python's own SIGINT
    handler first, as an interactive Python has it: a test run started in the background by a
    non-interactive shell inherits SIGINT ignored, and Python then installs no handler at all."""
    child = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + textwrap.dedent(code)
    p = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    t0 = time.perf_counter()
    p.send_signal(signal.SIGINT)
    try:
        _, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError("the subprocess did not stop within 20 s of SIGINT")
    return time.perf_counter() - t0, err, p.returncode


def test_ctrl_c_stops_a_long_life_run():
    took, err, rc = interrupted("""
        import numpy as np, parlab
        g = np.random.default_rng(1).random((512, 512)) < 0.3
        parlab.life(g, 4)
        print("ready", flush=True)
        parlab.life(g, 10**9)
        print("finished")
    """)
    assert "KeyboardInterrupt" in err and rc != 0, err
    assert took < 1.0, f"{took:.2f} s from SIGINT to the end"


def test_ctrl_c_stops_a_long_bench():
    took, err, rc = interrupted("""
        import parlab
        print("ready", flush=True)
        parlab.bench("gemm", 256, ["cpu-naive"], repeats=100000, threads=1)
        print("finished")
    """)
    assert "KeyboardInterrupt" in err and rc != 0, err
    assert took < 1.0, f"{took:.2f} s from SIGINT to the end"
