"""Life on NumPy grids, and Life pattern files (RLE, plaintext .cells).

parlab's Life rungs run a bit-packed grid (64 cells a uint64 word, cell x of a row in bit x % 64
of word x / 64); a bool or uint8 grid is packed here, run, and unpacked into a new array. A long
run goes in slices of about a tenth of a second, so Ctrl-C stops it between two slices with
KeyboardInterrupt; the caller's grid is never written.
"""
import os
import time

import numpy as np

from . import _parlab
from ._arrays import backend_code, choice
from ._device import first_device
from ._parlab import ArgumentError, DTypeError

TOPOLOGIES = ["torus", "plane"]
_SLICE_S = 0.1  # seconds a slice of generations aims at (a rung's rate varies with the pattern)


def pack(grid):
    """A 2-D bool/uint8 grid (nonzero alive) as pl_life's H x ((W + 63) // 64) uint64 words."""
    H, W = grid.shape
    words = (W + 63) // 64
    packed = np.packbits(grid != 0, axis=1, bitorder="little")
    bits = np.zeros((H, words * 8), np.uint8)
    bits[:, :packed.shape[1]] = packed
    return bits.view(np.uint64)


def unpack(bits, W, dtype):
    """pl_life's words back to a W-wide grid of dtype (bool, or uint8 0/1)."""
    cells = np.unpackbits(bits.view(np.uint8), axis=1, count=W, bitorder="little")
    return cells.astype(bool) if dtype == np.bool_ else cells.astype(dtype)


def _grid(grid):
    if isinstance(grid, (list, tuple)):
        grid = np.asarray(grid, dtype=np.uint8)
    g = np.asarray(grid)
    if g.dtype not in (np.bool_, np.uint8):
        raise DTypeError(f"life: the grid has dtype {g.dtype}; parlab takes bool or uint8 (nonzero alive)")
    if g.ndim != 2:
        raise ArgumentError(f"life: the grid has shape {g.shape}; a 2-D array (rows x columns) is needed")
    return g


def life(grid, gens, *, rule="B3/S23", topology="torus", variant=None, backend=None, device=0, threads=None):
    """gens generations of a Life-like rule ("B3/S23" Conway, "B36/S23" HighLife, "23/3", ...)
    on a 2-D bool or uint8 grid (nonzero cells alive; rows are y, columns x), on a torus (the
    edges wrap) or a bounded plane (dead beyond the edge). Returns a new grid of the same dtype
    (uint8: 0/1); the argument is not written. Ctrl-C stops a long run within about a second.

    CuPy/PyTorch grids run on the CUDA rungs and come back as the same kind of array (packed
    on the host: Life's rungs take a bit-packed grid, so this is not a zero-copy path).
    variant, backend, device, threads: as parlab.gemm.
    """
    topo = choice("life", "topology", topology, TOPOLOGIES)
    dev = first_device(grid)
    if dev is not None:
        if backend == "cpu":
            raise ArgumentError("life: GPU arrays run on the CUDA rungs; backend='cpu' takes host arrays")
        return _life_device(grid, gens, rule, topology, variant, device, threads)
    g = _grid(grid)
    gens = int(gens)
    if gens < 0:
        raise ArgumentError(f"life: gens {gens} < 0")
    H, W = g.shape
    if H == 0 or W == 0:
        raise ArgumentError(f"life: the grid is {H}x{W}; at least 1x1")
    bits = pack(g)
    b = 2 if backend == "cuda" else backend_code(backend)
    thr = 0 if threads is None else int(threads)
    done, step = 0, min(gens, 8)
    _parlab.life(variant, b, device, thr, W, H, bits, 0, rule, topo == 0)  # the checks, even for gens 0
    while done < gens:
        t0 = time.perf_counter()
        _parlab.life(variant, b, device, thr, W, H, bits, step, rule, topo == 0)
        done += step
        per_gen = (time.perf_counter() - t0) / step
        step = max(1, min(gens - done, 2 * step, int(_SLICE_S / max(per_gen, 1e-9))))  # at most doubling
    return unpack(bits, W, g.dtype.type)


def _life_device(grid, gens, rule, topology, variant, device, threads):
    mod = type(grid).__module__
    if mod.startswith("torch"):
        host = grid.detach().cpu().numpy()
        out = life(host, gens, rule=rule, topology=topology, variant=variant, backend="cuda",
                   device=grid.device.index or 0, threads=threads)
        import torch
        return torch.from_numpy(out).to(grid.device)
    import cupy
    g = cupy.asarray(grid)
    out = life(g.get(), gens, rule=rule, topology=topology, variant=variant, backend="cuda",
               device=g.device.id, threads=threads)
    with g.device:
        return cupy.asarray(out)


class Pattern:
    """A Life pattern as a file holds it: cells (a 2-D bool array, the pattern's box), rule
    ("B3/S23"), grid ("plane" unbounded, "torus" or "bounded" with grid_size = (W, H)), and
    origin (x, y): the box's top-left on the plane."""

    def __init__(self, cells, rule="B3/S23", grid="plane", grid_size=None, origin=(0, 0)):
        self.cells = np.asarray(cells, dtype=bool)
        self.rule = rule
        self.grid = grid
        self.grid_size = grid_size
        self.origin = origin

    def __repr__(self):
        h, w = self.cells.shape
        return f"Pattern({w}x{h}, rule={self.rule!r}, grid={self.grid!r}, grid_size={self.grid_size}, origin={self.origin})"


_GRIDS = ["plane", "torus", "bounded"]


def life_read(path):
    """Read a Life pattern from an RLE (as Golly writes it) or plaintext .cells file, by its
    content. Returns a Pattern; pattern.cells is the live cells' box as a bool array. A
    malformed file raises FormatError (a ValueError) naming the file, line and column."""
    w, h, bits, rule, grid, gw, gh, x0, y0 = _parlab.life_read(os.fspath(path))
    words = (w + 63) // 64
    cells = unpack(np.frombuffer(bits, np.uint64).reshape(h, words), w, np.bool_) if w and h else np.zeros((h, w), bool)
    return Pattern(cells, rule, _GRIDS[grid], (gw, gh) if grid else None, (x0, y0))


def life_write(path, pattern, *, rule=None):
    """Write a Pattern (or a 2-D bool/uint8 grid) as RLE, or as plaintext .cells for a name
    ending in ".cells". Written to a temporary file and renamed: nothing half-written."""
    if not isinstance(pattern, Pattern):
        pattern = Pattern(_grid(pattern) != 0, rule or "B3/S23")
    cells = _grid(pattern.cells)
    h, w = cells.shape
    grid = choice("life_write", "grid", pattern.grid, _GRIDS)
    gw, gh = pattern.grid_size or (0, 0)
    bits = pack(cells) if w and h else np.zeros(0, np.uint64)
    _parlab.life_write(os.fspath(path), w, h, bits, rule or pattern.rule, grid, gw, gh, *pattern.origin)
