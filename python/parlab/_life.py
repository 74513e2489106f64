"""Life on NumPy grids, and Life pattern files (RLE, plaintext .cells).

parlab's Life rungs run a bit-packed grid (64 cells a uint64 word, cell x of a row in bit x % 64
of word x / 64); a bool or uint8 grid is packed here, run, and unpacked into a new array. A long
run goes in slices of about a tenth of a second, so Ctrl-C stops it between two slices with
KeyboardInterrupt; the caller's grid is never written.
"""
import contextlib
import os
import time

import numpy as np

from . import _parlab
from ._arrays import backend_code, choice
from ._device import DeviceArrays, best_cuda, first_device
from ._parlab import ArgumentError, DTypeError

TOPOLOGIES = ["torus", "plane"]
_SLICE_S = 0.1  # seconds a slice of generations aims at (a rung's rate varies with the pattern)
_MAX_GENS = 100000  # the most generations one run of a rung takes (the harness's gens= range)


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

    CuPy/PyTorch grids run on the CUDA rungs and come back as a new array of the same kind on
    the same device: packed into the rungs' bit-packed words and unpacked on the device (no
    copy through the host), run on the caller's current stream.
    variant, backend, device, threads: as parlab.gemm.
    """
    topo = choice("life", "topology", topology, TOPOLOGIES)
    dev = first_device(grid)
    if dev is not None:
        if backend == "cpu":
            raise ArgumentError("life: GPU arrays run on the CUDA rungs; backend='cpu' takes host arrays")
        return _life_device(grid, gens, rule, topology, variant, device, threads)
    g = _grid(grid)
    gens, H, W = _checked(gens, g.shape)
    bits = pack(g)
    b = 2 if backend == "cuda" else backend_code(backend)
    thr = 0 if threads is None else int(threads)
    _parlab.life(variant, b, device, thr, W, H, bits, 0, rule, topo == 0)  # the checks, even for gens 0
    _in_slices(gens, lambda step: _parlab.life(variant, b, device, thr, W, H, bits, step, rule, topo == 0))
    return unpack(bits, W, g.dtype.type)


def _checked(gens, shape):
    """gens as an int >= 0 and the grid's H, W (at least 1x1), or ArgumentError."""
    gens = int(gens)
    if gens < 0:
        raise ArgumentError(f"life: gens {gens} < 0")
    H, W = shape
    if H == 0 or W == 0:
        raise ArgumentError(f"life: the grid is {H}x{W}; at least 1x1")
    return gens, H, W


def _in_slices(gens, run):
    """run(step) for steps adding up to gens, each aiming at _SLICE_S seconds (growing at most
    twofold), so that Ctrl-C is seen between two."""
    done, step = 0, min(gens, 8)
    while done < gens:
        t0 = time.perf_counter()
        run(step)
        done += step
        per_gen = (time.perf_counter() - t0) / step
        step = max(1, min(gens - done, 2 * step, _MAX_GENS, int(_SLICE_S / max(per_gen, 1e-9))))


def _life_device(grid, gens, rule, topology, variant, device, threads):
    """Life on a CuPy/PyTorch grid: packed into pl_life's words on the device by the array's
    own library (no copy to the host), run in place by a CUDA rung on the caller's stream in
    slices (Ctrl-C between two), unpacked on the device into a new array of the grid's kind."""
    d = DeviceArrays("life", grid)
    g = d.take(grid, "the grid", ("bool", "uint8"))
    gens, H, W = _checked(gens, tuple(g.shape))
    lib, torch = d.lib, d.kind == "torch"
    on = {"device": d.device} if torch else {}
    words = (W + 63) // 64
    u8 = lib.uint8
    with _on_device(d):
        cells = lib.zeros((H, words * 64), dtype=u8, **on)
        cells[:, :W] = g != 0
        shifts = lib.arange(8, dtype=u8, **on)
        # bit x % 8 of byte x / 8: the words' little-endian bytes (pl_life's layout)
        bits = (cells.reshape(H, words * 8, 8) << shifts).sum(-1).to(u8) if torch else \
            (cells.reshape(H, words * 8, 8) << shifts).sum(-1, dtype=u8)
        bits = bits.contiguous() if torch else lib.ascontiguousarray(bits)
    variant = variant or best_cuda("life", d.ordinal)
    settings = [f"rule={rule}", f"topology={topology}"]

    def one_slice(step):
        d.run(variant, f"{W}x{H}", settings + [f"gens={step}"], [bits], threads)
        _sync(d)  # a slice at a time: Ctrl-C is seen between two

    _in_slices(gens, one_slice)
    with _on_device(d):
        alive = ((bits.reshape(H, words * 8, 1) >> shifts) & 1).reshape(H, words * 64)[:, :W]
        if str(g.dtype).replace("torch.", "") == "bool":
            return alive.to(lib.bool).contiguous() if torch else alive.astype(bool)
        return alive.contiguous() if torch else lib.ascontiguousarray(alive)


def _on_device(d):
    """The CuPy device context of d's arrays (PyTorch places by its device= argument)."""
    return contextlib.nullcontext() if d.kind == "torch" else d.device


def _sync(d):
    if d.kind == "torch":
        d.lib.cuda.current_stream(d.device).synchronize()
    else:
        d.lib.cuda.get_current_stream().synchronize()


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
