"""life against a NumPy Life on a torus and a bounded plane, and against known patterns;
life_read/life_write on RLE and .cells."""
import numpy as np
import pytest

import parlab


def numpy_life(grid, gens, torus=True, birth=(3,), survive=(2, 3)):
    g = grid.astype(np.uint8)
    for _ in range(gens):
        if torus:
            n = sum(np.roll(np.roll(g, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        else:
            p = np.pad(g, 1)
            n = sum(p[1 + dy:1 + dy + g.shape[0], 1 + dx:1 + dx + g.shape[1]]
                    for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
        g = np.where(g == 1, np.isin(n, survive), np.isin(n, birth)).astype(np.uint8)
    return g


@pytest.mark.parametrize("H,W", [(1, 1), (33, 65), (64, 64), (100, 130)])
@pytest.mark.parametrize("topology", ["torus", "plane"])
def test_life_vs_numpy(rng, H, W, topology):
    grid = rng.random((H, W)) < 0.35
    got = parlab.life(grid, 20, topology=topology)
    assert got.dtype == np.bool_ and got.shape == (H, W)
    np.testing.assert_array_equal(got, numpy_life(grid, 20, topology == "torus").astype(bool))


@pytest.mark.parametrize("variant", ["cpu-naive", "cpu-threads", "cpu-bitpacked"])
def test_life_rungs_highlife_uint8(rng, variant):
    grid = (rng.random((47, 70)) < 0.4).astype(np.uint8)
    got = parlab.life(grid, 15, rule="B36/S23", variant=variant)
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, numpy_life(grid, 15, True, (3, 6), (2, 3)))


def test_known_patterns():
    blinker = np.zeros((5, 5), bool)
    blinker[2, 1:4] = True
    np.testing.assert_array_equal(parlab.life(blinker, 1), blinker.T)
    np.testing.assert_array_equal(parlab.life(blinker, 2), blinker)
    glider = np.zeros((20, 20), bool)
    glider[0, 1] = glider[1, 2] = glider[2, 0] = glider[2, 1] = glider[2, 2] = True
    # a glider moves one cell down and right every 4 generations; 80 wrap it around the torus
    np.testing.assert_array_equal(parlab.life(glider, 4), np.roll(glider, (1, 1), (0, 1)))
    np.testing.assert_array_equal(parlab.life(glider, 80), glider)
    block = np.zeros((4, 4), bool)
    block[1:3, 1:3] = True
    np.testing.assert_array_equal(parlab.life(block, 1000, topology="plane"), block)


def test_life_does_not_write_its_argument(rng):
    grid = rng.random((30, 30)) < 0.5
    g0 = grid.copy()
    parlab.life(grid, 5)
    np.testing.assert_array_equal(grid, g0)
    np.testing.assert_array_equal(parlab.life(grid, 0), grid)


def test_life_files_round_trip(tmp_path, rng):
    grid = rng.random((9, 70)) < 0.5
    for name in ("p.rle", "p.cells"):
        parlab.life_write(tmp_path / name, grid, rule="B36/S23")
        p = parlab.life_read(tmp_path / name)
        # the file holds the live cells' box: compare on it
        ys, xs = np.nonzero(grid)
        np.testing.assert_array_equal(p.cells, grid[ys.min():ys.max() + 1, xs.min():xs.max() + 1])
    assert parlab.life_read(tmp_path / "p.rle").rule == "B36/S23"


def test_life_read_glider_rle(tmp_path):
    (tmp_path / "g.rle").write_text("#N Glider\nx = 3, y = 3, rule = B3/S23:T20,10\nbo$2bo$3o!\n")
    p = parlab.life_read(tmp_path / "g.rle")
    np.testing.assert_array_equal(p.cells, np.array([[0, 1, 0], [0, 0, 1], [1, 1, 1]], bool))
    assert (p.rule, p.grid, p.grid_size) == ("B3/S23", "torus", (20, 10))
