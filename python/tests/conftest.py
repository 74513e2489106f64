"""Shared helpers of the parlab package's tests: seeded data and the layouts each call must
take (C order, a strided slice, Fortran order)."""
import numpy as np
import pytest

import parlab

SHAPES = [(1, 1), (33, 65), (1000, 1023)]


@pytest.fixture
def rng():
    return np.random.default_rng(21)


def layouts(a):
    """a in the layouts parlab must read: C order, a strided view of a wider array (rows with
    a leading dimension), a view with a column step (copied), Fortran order (copied)."""
    wide = np.zeros((a.shape[0], a.shape[1] + 7), a.dtype)
    wide[:, 3:3 + a.shape[1]] = a
    stepped = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
    stepped[:, ::2] = a
    return {
        "C": np.ascontiguousarray(a),
        "rows-strided": wide[:, 3:3 + a.shape[1]],
        "column-step": stepped[:, ::2],
        "fortran": np.asfortranarray(a),
    }


LAYOUTS = ["C", "rows-strided", "column-step", "fortran"]


def cpu_rungs(kernel):
    """The kernel's parlab CPU rungs (peers left out), as the registry lists them: a rung added
    to a ladder is tested with the others. BF16 rungs take bfloat16 inputs: test_bf16.py's."""
    return [v["name"] for v in parlab.list(kernel)["variants"]
            if v["backend"] == "cpu" and not v["peer"] and v["precision"] != "BF16"]


def f32(rng, *shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)
