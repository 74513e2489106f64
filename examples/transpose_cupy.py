"""transpose_cupy.py: your own GPU transpose, written in CUDA C inside Python with a CuPy
RawKernel, on parlab's transpose ladder: verified, timed and placed beside parlab's CUDA rungs
and the cuBLAS peer in one run.

The kernel is the lab's shared-memory transpose: a block of 32 x 8 threads moves a 32 x 32
tile, read along rows of A into shared memory (coalesced) and written along rows of B from
the tile's columns (coalesced); the tile has one padding column, so a column of it spans all
32 banks (no conflicts).

parlab.rung(fn, backend="cuda", arrays="cupy") calls fn with the kernel's operands in order as
CuPy arrays on the GPU (A, M x N; B, N x M, to be written) and the problem's parameters as
keyword arguments; fn launches its work on the current CuPy stream (parlab's, which it times)
and returns without waiting.

    python3 examples/transpose_cupy.py                # sizes 4096 and 4099x1021
    python3 examples/transpose_cupy.py 257x129 1024   # sizes of your own

Needs a GPU, CuPy (pip install cupy-cuda12x) and parlab's Python package (pip install .).
"""
import sys

from rows import print_rows  # rows.py, beside this script

SOURCE = r"""
extern "C" __global__ void transpose_tiles(const float *A, long long lda, float *B, long long ldb, int M, int N)
{
    __shared__ float tile[32][33]; /* one padding column: a column of the tile spans all banks */
    const int col = blockIdx.x * 32 + threadIdx.x, row0 = blockIdx.y * 32;
    for (int dy = threadIdx.y; dy < 32; dy += 8) /* read rows of A: coalesced */
        if (row0 + dy < M && col < N) tile[dy][threadIdx.x] = A[(long long)(row0 + dy) * lda + col];
    __syncthreads();
    const int out_col = row0 + threadIdx.x; /* B's column = A's row */
    for (int dy = threadIdx.y; dy < 32; dy += 8) { /* write rows of B: coalesced */
        const int out_row = blockIdx.x * 32 + dy;
        if (out_row < N && out_col < M) B[(long long)out_row * ldb + out_col] = tile[threadIdx.x][dy];
    }
}
"""


def main(argv):
    try:
        import cupy as cp
        import parlab
    except ImportError as e:
        sys.exit(f"transpose_cupy.py: needs CuPy and parlab's Python package ({e})")
    if cp.cuda.runtime.getDeviceCount() < 1:
        sys.exit("transpose_cupy.py: needs a GPU (CuPy sees none)")
    kernel = cp.RawKernel(SOURCE, "transpose_tiles")
    kernel.compile()  # now, not inside the first (checked) run

    def my_transpose(A, B, **params):
        """B = A^T: A is M x N, B N x M, each with its own row pitch (a padded problem has
        rows longer than the matrix: the pitch comes from the array's strides)."""
        M, N = A.shape
        lda, ldb = A.strides[0] // A.itemsize, B.strides[0] // B.itemsize
        grid, block = ((N + 31) // 32, (M + 31) // 32), (32, 8)
        kernel(grid, block, (A, cp.int64(lda), B, cp.int64(ldb), cp.int32(M), cp.int32(N)))

    sizes = argv[1:] or ["4096", "4099x1021"]
    mine = parlab.rung(my_transpose, backend="cuda", name="mine", arrays="cupy")
    rows = parlab.bench("transpose", sizes, ["cuda-naive-read", "cuda-shared-padded", "cuda-tuned", mine], peer=True)
    return print_rows(rows)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
