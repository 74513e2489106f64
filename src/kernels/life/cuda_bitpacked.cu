// cuda-bitpacked, cuda-tuned: 32 cells a thread-word, on the packed operand as it is (read as
// 32-bit words, cuda_common.cuh), a second packed grid in the device workspace: the grid and its
// second buffer take 2 bits a cell on the device.
//   cuda-bitpacked: a generation a launch, a thread per word (32 x 8 threads a block: a warp
//                   reads 128 consecutive bytes of a row): the word, its west and east
//                   neighbours in the rows above, at and below, the bit-sliced step
//                   (life_step32); the torus seam and the plane's edge in the row's first and
//                   last word. 2 bits a cell a generation through memory.
//   cuda-tuned:     several generations a launch (temporal blocking, tblock): a block loads a
//                   tile of 30 words x ROWS rows plus a halo of one word a side and tblock rows
//                   above and below into shared memory, runs tblock generations there (the valid
//                   rows shrink by one a side each generation; the halo words go wrong a cell a
//                   generation from the outside in, so 32 generations at most), and writes the
//                   inner tile: the grid crosses memory once per tblock generations. Inside, a
//                   warp walks down a band of rows: each row is loaded and its horizontal sums
//                   formed once, then added vertically for the row above and below it.
// Both take Conway's rule (B3/S23) through a shorter rule step (life_next32<true>).
#include "kernels/life/cuda_words.cuh"
#include "kernels/ladder.h"

// ---------------------------------------------------------------- cuda-bitpacked

template <bool CONWAY>
static __global__ void step_words_kernel(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst, word_grid g,
                                         life_masks32 m)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i >= g.ld32) return;
    for (int64_t y = blockIdx.y * (int64_t)blockDim.y + threadIdx.y; y < g.H; y += (int64_t)gridDim.y * blockDim.y) {
        if (i >= g.n32) { // the row's padding word stays zero
            dst[y * g.ld32 + i] = 0;
            continue;
        }
        const int64_t yu = y > 0 ? y - 1 : g.torus ? g.H - 1 : -1, yd = y < g.H - 1 ? y + 1 : g.torus ? 0 : -1;
        const int64_t rows_y[3] = {yu, y, yd};
        uint32_t row[3], west[3], east[3];
#pragma unroll
        for (int k = 0; k < 3; k++) {
            if (rows_y[k] < 0) { // beyond the plane's edge
                row[k] = west[k] = east[k] = 0;
                continue;
            }
            const uint32_t *r = src + rows_y[k] * g.ld32;
            row[k] = r[i];
            west[k] = i > 0 ? r[i - 1] >> 31 : g.torus ? (r[g.n32 - 1] >> g.last_bit) & 1u : 0u;
            east[k] = i < g.n32 - 1 ? r[i + 1] & 1u : g.torus ? r[0] & 1u : 0u;
        }
        const int east_pos = i == g.n32 - 1 ? g.last_bit : 31;
        uint32_t v = life_step32<CONWAY>(m, row, west, east, east_pos);
        if (i == g.n32 - 1) v &= g.last_mask;
        dst[y * g.ld32 + i] = v;
    }
}

// Device memory beyond the operand: a second packed grid.
extern "C" double pl_life_cuda_words_workspace(const void *problem)
{
    const pl_life_problem *p = (const pl_life_problem *)problem;
    return 8.0 * (double)p->H * (double)pl_life_words_per_row(p->W);
}

extern "C" pl_status pl_life_cuda_bitpacked(const pl_run_args *a)
{
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    uint32_t *ws = nullptr;
    pl_status s = second_grid(a, &ws);
    if (s != PL_OK) return s;
    const word_grid g = make_word_grid(p);
    const life_masks32 m = life_masks32_make(p->rule);
    const bool conway = life_is_conway(p->rule);
    uint32_t *bufs[2] = {(uint32_t *)a->data[0], ws};
    const dim3 block(32, 8);
    const int64_t gy = (p->H + 7) / 8;
    const dim3 blocks((unsigned)((g.ld32 + 31) / 32), (unsigned)(gy < 65535 ? gy : 65535));
    cudaStream_t st = (cudaStream_t)a->stream;
    for (int64_t gen = 0; gen < p->gens; gen++) {
        if (conway) step_words_kernel<true><<<blocks, block, 0, st>>>(bufs[gen & 1], bufs[(gen + 1) & 1], g, m);
        else step_words_kernel<false><<<blocks, block, 0, st>>>(bufs[gen & 1], bufs[(gen + 1) & 1], g, m);
        if ((s = life_launched("cuda-bitpacked")) != PL_OK) return s;
    }
    return copy_back(a, p->gens, ws, "cuda-bitpacked");
}

// ---------------------------------------------------------------- cuda-tuned

enum {
    TILE_WORDS = 32,           // shared words a row: 30 inner words and a halo word a side
    INNER_WORDS = TILE_WORDS - 2,
    TILE_ROWS = 64,            // inner rows a block
    MAX_TBLOCK = 16,
    THREADS_Y = 8
};

// A row of the tile as its word column j sees it (row_sums_of): the halo columns (j = 0, 31) take
// zero from beyond the tile.
static __device__ __forceinline__ row_sums sum_row(const uint32_t *q, int j)
{
    return row_sums_of(j > 0 ? q[j - 1] : 0u, q[j], j < TILE_WORDS - 1 ? q[j + 1] : 0u);
}

// A warp's band of rows lo..hi-1 of one generation, in to out (shared tiles): the row sums of
// the row above and its own kept in registers, so a row is loaded and summed once, not three
// times. MASKED (a tile that reaches past the plane's edge): each word keeps only its cells on
// the plane, rows vlo..vhi-1 of the tile with column mask cmask; other tiles skip the mask (on
// a plane it cost ~27% when made a word at a time from 64-bit coordinates).
template <bool CONWAY, bool MASKED>
static __device__ __forceinline__ void band_generation(const uint32_t *in, uint32_t *out, int j, int lo, int hi,
                                                       const life_masks32 &m, int vlo, int vhi, uint32_t cmask)
{
    row_sums up = sum_row(in + (lo - 1) * TILE_WORDS, j), mid = sum_row(in + lo * TILE_WORDS, j);
    for (int r = lo; r < hi; r++) {
        const row_sums dn = sum_row(in + (r + 1) * TILE_WORDS, j);
        uint32_t v = step_rows<CONWAY>(m, up, mid, dn);
        if (MASKED) v &= r >= vlo && r < vhi ? cmask : 0u;
        out[r * TILE_WORDS + j] = v;
        up = mid, mid = dn;
    }
}

// T generations of the tile (blockIdx.x: inner words from INNER_WORDS * blockIdx.x; blockIdx.y:
// inner rows from TILE_ROWS * blockIdx.y); 32 x THREADS_Y threads, a thread a word column. Each
// generation a warp walks down its own band of the valid rows (band_generation).
template <bool CONWAY>
static __global__ void __launch_bounds__(TILE_WORDS *THREADS_Y)
    tuned_kernel(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst, word_grid g, life_masks32 m, int T)
{
    extern __shared__ uint32_t sh[]; // two buffers of R rows x TILE_WORDS words
    const int R = TILE_ROWS + 2 * T;
    uint32_t *buf[2] = {sh, sh + R * TILE_WORDS};
    const int j = threadIdx.x, ty = threadIdx.y;
    const int64_t word0 = (int64_t)blockIdx.x * INNER_WORDS - 1; // the grid word of shared column 0
    const int64_t row0 = (int64_t)blockIdx.y * TILE_ROWS - T;    // the grid row of shared row 0
    const int64_t c = (word0 + j) * 32;                           // this column's first cell
    for (int r = ty; r < R; r += THREADS_Y) buf[0][r * TILE_WORDS + j] = load_word(src, g, row0 + r, c);
    // on a plane, the tile's rows on it (vlo..vhi-1) and this column's cells on it; a tile wholly
    // on the plane (the same for the whole block) needs no mask
    const int vlo = row0 < 0 ? (int)-row0 : 0, vhi = row0 + R > g.H ? (int)(g.H - row0) : R;
    const uint32_t cmask = plane_mask(g, row0 + vlo, c);
    const bool masked = !g.torus && (vlo > 0 || vhi < R || word0 < 0 || (word0 + TILE_WORDS) * 32 > g.W);
    __syncthreads();
    for (int k = 1; k <= T; k++) {
        const uint32_t *in = buf[(k - 1) & 1];
        uint32_t *out = buf[k & 1];
        // generation k is valid in rows k .. R-1-k: a band of them a warp
        const int band = (R - 2 * k + THREADS_Y - 1) / THREADS_Y;
        const int lo = k + ty * band, hi = min(lo + band, R - k);
        if (lo < hi) {
            if (masked) band_generation<CONWAY, true>(in, out, j, lo, hi, m, vlo, vhi, cmask);
            else band_generation<CONWAY, false>(in, out, j, lo, hi, m, vlo, vhi, cmask);
        }
        __syncthreads();
    }
    const uint32_t *res = buf[T & 1];
    const int64_t gi = word0 + j;
    if (j == 0 || j == TILE_WORDS - 1 || gi >= g.n32) return;
    for (int r = T + ty; r < T + TILE_ROWS; r += THREADS_Y) {
        const int64_t y = row0 + r;
        if (y >= g.H) break;
        uint32_t v = res[r * TILE_WORDS + j];
        if (gi == g.n32 - 1) {
            v &= g.last_mask; // the periodic extension's cells past W are not the grid's
            if (g.ld32 > g.n32) dst[y * g.ld32 + g.n32] = 0; // and the row's padding word
        }
        dst[y * g.ld32 + gi] = v;
    }
}

static const int64_t tblocks[] = {1, 2, 4, 8, 16};
extern "C" const pl_param_def pl_life_cuda_tuned_params[] = {
    [PL_LIFE_CUDA_TUNED_TBLOCK] =
        {.name = "tblock", .help = "generations per launch (temporal blocking in shared memory)",
         .kind = PL_PARAM_LIST, .values = tblocks, .n_values = PL_COUNT(tblocks), .def = 16},
};
PL_CHECK_COUNT(pl_life_cuda_tuned_params, PL_LIFE_CUDA_TUNED_N_PARAMS);

extern "C" pl_status pl_life_cuda_tuned(const pl_run_args *a)
{
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    const int T = (int)a->params[PL_LIFE_CUDA_TUNED_TBLOCK];
    if (T < 1 || T > MAX_TBLOCK) return pl_fail(PL_ERR_ARG, "cuda-tuned: tblock=%d (legal: 1, 2, 4, 8, 16)", T);
    uint32_t *ws = nullptr;
    pl_status s = second_grid(a, &ws);
    if (s != PL_OK) return s;
    const word_grid g = make_word_grid(p);
    const life_masks32 m = life_masks32_make(p->rule);
    const bool conway = life_is_conway(p->rule);
    uint32_t *bufs[2] = {(uint32_t *)a->data[0], ws};
    const int64_t gx = (g.n32 + INNER_WORDS - 1) / INNER_WORDS, gy = (p->H + TILE_ROWS - 1) / TILE_ROWS;
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "cuda-tuned: a %lldx%lld grid needs %lld x %lld blocks (at most 2^31-1 x 65535)",
                       (long long)p->W, (long long)p->H, (long long)gx, (long long)gy);
    const dim3 block(TILE_WORDS, THREADS_Y), blocks((unsigned)gx, (unsigned)gy);
    cudaStream_t st = (cudaStream_t)a->stream;
    const int64_t passes = (p->gens + T - 1) / T;
    for (int64_t pass = 0; pass < passes; pass++) {
        const int t = (int)(p->gens - pass * T < T ? p->gens - pass * T : T);
        const size_t smem = 2 * (size_t)(TILE_ROWS + 2 * t) * TILE_WORDS * sizeof(uint32_t);
        const uint32_t *src = bufs[pass & 1];
        uint32_t *dst = bufs[(pass + 1) & 1];
        if (conway) tuned_kernel<true><<<blocks, block, smem, st>>>(src, dst, g, m, t);
        else tuned_kernel<false><<<blocks, block, smem, st>>>(src, dst, g, m, t);
        if ((s = life_launched("cuda-tuned")) != PL_OK) return s;
    }
    return copy_back(a, passes, ws, "cuda-tuned");
}
