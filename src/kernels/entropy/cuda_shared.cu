// cuda-shared: cuda-log-table with the block's input in shared memory. A block of tile x tile
// threads (one pixel each) first copies its tile plus a halo of r = k/2 on every side,
// (tile + 2r)^2 bytes, from global memory into shared memory: each input byte is read from
// global memory by about one thread instead of by k^2. Then every thread counts its window
// from shared memory (conflict-free: the lanes of a warp read neighbouring bytes of a row)
// into its local-memory histogram and sums c (ln n - ln c) with the __constant__ ln table.
// What remains is the per-pixel histogram itself: bins clears, k^2 scattered increments and
// bins reads for every pixel. Next rung: slide the histogram from pixel to pixel.
#include "kernels/entropy/cuda_entropy.cuh"
#include "kernels/ladder.h"

template <int T, int MAXB>
static __global__ void entropy_shared_kernel(pl_entropy_problem p, const uint8_t *__restrict__ in,
                                             float *__restrict__ out)
{
    extern __shared__ uint8_t tile[]; // (T + 2r) rows of (T + 2r) bytes
    const int r = p.k / 2, side = T + 2 * r;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t top = (int64_t)blockIdx.y * T - r, left = (int64_t)blockIdx.x * T - r;
    // The copy: thread (tx, ty) takes columns tx, tx + T, ... of rows ty, ty + T, ...; bytes
    // outside the image are never counted (windows are clipped) but are set anyway.
    for (int i = ty; i < side; i += T) {
        const int64_t gy = top + i;
        const bool row_in = gy >= 0 && gy < p.H;
        for (int j = tx; j < side; j += T) {
            const int64_t gx = left + j;
            tile[i * side + j] = row_in && gx >= 0 && gx < p.W ? in[gy * p.ld_in + gx] : 0;
        }
    }
    __syncthreads();
    const int64_t y = top + r + ty, x = left + r + tx;
    if (x >= p.W || y >= p.H) return;
    const EntropyWindow w(p, y, x);
    uint16_t hist[MAXB];
    for (int b = 0; b < p.bins; b++) hist[b] = 0;
    for (int64_t i = w.y0; i <= w.y1; i++) {
        const uint8_t *row = tile + (i - top) * side;
        for (int j = (int)(w.x0 - left); j <= (int)(w.x1 - left); j++) hist[row[j] & (MAXB - 1)]++;
    }
    out[y * p.ld_out + x] = entropy_of_histogram(hist, p.bins, w.count(), p.base2, EntropyLnTable());
}

static const int64_t tile_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_entropy_cuda_shared_params[] = {
    [PL_ENTROPY_CUDA_SHARED_TILE] =
        {.name = "tile", .help = "output tile edge: tile x tile threads, (tile + k - 1)^2 input bytes in shared memory",
         .kind = PL_PARAM_LIST, .values = tile_sizes, .n_values = PL_COUNT(tile_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_entropy_cuda_shared_params, PL_ENTROPY_CUDA_SHARED_N_PARAMS);

template <int T>
static void launch(const pl_entropy_problem *p, const pl_run_args *a, dim3 grid, size_t smem)
{
    const uint8_t *in = (const uint8_t *)a->data[0];
    float *out = (float *)a->data[1];
    cudaStream_t st = (cudaStream_t)a->stream;
    const dim3 block(T, T);
    if (p->bins <= 16) entropy_shared_kernel<T, 16><<<grid, block, smem, st>>>(*p, in, out);
    else if (p->bins <= 64) entropy_shared_kernel<T, 64><<<grid, block, smem, st>>>(*p, in, out);
    else entropy_shared_kernel<T, 256><<<grid, block, smem, st>>>(*p, in, out);
}

extern "C" pl_status pl_entropy_cuda_shared(const pl_run_args *a)
{
    static const char rung[] = "cuda-shared";
    const pl_entropy_problem *p = (const pl_entropy_problem *)a->problem;
    const int t = (int)a->params[PL_ENTROPY_CUDA_SHARED_TILE];
    if (t != 8 && t != 16 && t != 32) return pl_fail(PL_ERR_ARG, "%s: tile=%d (legal: 8, 16, 32)", rung, t);
    dim3 grid;
    pl_status s = entropy_grid(p, t, t, rung, &grid);
    if (s == PL_OK) s = entropy_ln_table_upload(a, rung);
    if (s != PL_OK) return s;
    const int side = t + 2 * (p->k / 2); // at most 32 + 62: 8836 bytes, under the 48 KiB default
    const size_t smem = (size_t)side * side;
    switch (t) {
    case 8: launch<8>(p, a, grid, smem); break;
    case 16: launch<16>(p, a, grid, smem); break;
    default: launch<32>(p, a, grid, smem); break;
    }
    return entropy_launched(rung);
}
