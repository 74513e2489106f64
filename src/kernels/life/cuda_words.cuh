// cuda_words.cuh: the frame of the word rungs (cuda-bitpacked, cuda-tuned, cuda-register): the
// grid as rows of 32-bit words, a tile's word loaded at any cell and row (the torus's periodic
// extension, the plane's zeros), the plane's mask, the row sums and the count of 32 cells from
// three rows' sums, and the second packed grid the generations alternate with. Included by
// their .cu files only (cuda_common.cuh: the layout).
#ifndef PL_LIFE_CUDA_WORDS_CUH
#define PL_LIFE_CUDA_WORDS_CUH

#include "kernels/life/cuda_common.cuh"

// Rows of a generation: row y's words ld32 apart; n32 words hold cells, the rest is padding.
struct word_grid {
    int64_t W, H, ld32, n32;
    int torus;
    int last_bit;       // the bit of the row's last cell in word n32-1
    uint32_t last_mask; // the bits of word n32-1 that hold cells
};

static inline word_grid make_word_grid(const pl_life_problem *p)
{
    word_grid g;
    g.W = p->W, g.H = p->H;
    g.ld32 = 2 * pl_life_words_per_row(p->W);
    g.n32 = (p->W + 31) / 32;
    g.torus = p->topology == PL_LIFE_TOPO_TORUS;
    g.last_bit = (int)((p->W - 1) % 32);
    g.last_mask = g.last_bit == 31 ? 0xFFFFFFFFu : (1u << (g.last_bit + 1)) - 1u;
    return g;
}

// The 32 cells from cell c of row r (a word that crosses the torus's seam or the plane's edge,
// or starts off a word boundary), cell by cell: on the torus the periodic extension, on the
// plane zero outside. A loop, not unrolled: the rungs call it from unrolled loops, rarely taken.
static __device__ __noinline__ uint32_t gather_word(const uint32_t *__restrict__ r, const word_grid &g, int64_t c)
{
    uint32_t v = 0;
    int64_t x = g.torus ? ((c % g.W) + g.W) % g.W : c;
#pragma unroll 1
    for (int b = 0; b < 32; b++, x++) {
        if (g.torus && x == g.W) x = 0;
        if (x >= 0 && x < g.W) v |= ((r[x >> 5] >> (x & 31)) & 1u) << b;
    }
    return v;
}

// The 32 cells from cell c of grid row y (y, c may lie outside the grid): on the torus the
// periodic extension, on the plane zero outside.
static __device__ __forceinline__ uint32_t load_word(const uint32_t *__restrict__ src, const word_grid &g, int64_t y,
                                                     int64_t c)
{
    if (y < 0 || y >= g.H) {
        if (!g.torus) return 0;
        y = ((y % g.H) + g.H) % g.H; // a halo row: wrap (a division only there)
    }
    const uint32_t *r = src + y * g.ld32;
    if (c >= 0 && c + 31 < g.W && (c & 31) == 0) return r[c >> 5]; // inside the row
    return gather_word(r, g, c);
}

// The cells of word (y, c..c+31) that lie on the plane (all of them on the torus).
static __device__ __forceinline__ uint32_t plane_mask(const word_grid &g, int64_t y, int64_t c)
{
    if (g.torus) return 0xFFFFFFFFu;
    if (y < 0 || y >= g.H || c + 31 < 0 || c >= g.W) return 0;
    uint32_t m = 0xFFFFFFFFu;
    if (c < 0) m &= 0xFFFFFFFFu << (-c);
    if (c + 31 >= g.W) m &= 0xFFFFFFFFu >> (c + 31 - (g.W - 1));
    return m;
}

// The carry of a full adder: set where at least two of a, b, c are (one LOP3).
static __device__ __forceinline__ uint32_t life_maj32(uint32_t a, uint32_t b, uint32_t c)
{
    return (a & b) | (c & (a ^ b));
}

// A row's 32 cells (alive) and the sums of each cell's three-cell row neighbourhood (west + self
// + east: s3 + 2 c3) and of its two row neighbours (west + east: s2 + 2 c2), from the word and
// its west and east neighbour words: the neighbour cells by funnel shifts with their edge cells.
struct row_sums {
    uint32_t alive, s3, c3, s2, c2;
};
static __device__ __forceinline__ row_sums row_sums_of(uint32_t west_word, uint32_t x, uint32_t east_word)
{
    const uint32_t w = __funnelshift_l(west_word, x, 1); // (x << 1) | west_word's last cell
    const uint32_t e = __funnelshift_r(x, east_word, 1); // (x >> 1) | east_word's first cell << 31
    row_sums r;
    r.alive = x;
    r.s3 = w ^ x ^ e, r.c3 = life_maj32(w, x, e);
    r.s2 = w ^ e, r.c2 = w & e;
    return r;
}

// The next state of row mid's 32 cells: the eight-neighbour count as the three-cell sums of the
// rows above and below plus the two-cell sum of its own row, added into bits b0..b3 (two full
// adders, xor3 and majority each: a LOP3 apiece).
template <bool CONWAY>
static __device__ __forceinline__ uint32_t step_rows(const life_masks32 &m, const row_sums &up, const row_sums &mid,
                                                     const row_sums &dn)
{
    const uint32_t b0 = up.s3 ^ mid.s2 ^ dn.s3, k = life_maj32(up.s3, mid.s2, dn.s3); // weight 1, its carry
    const uint32_t x = up.c3 ^ mid.c2 ^ dn.c3, y = life_maj32(up.c3, mid.c2, dn.c3);  // weight 2: three carries
    const uint32_t b1 = x ^ k, y2 = x & k;                                          // ... and k
    const uint32_t b2 = y ^ y2, b3 = y & y2;
    return life_rule32<CONWAY>(m, mid.alive, b0, b1, b2, b3);
}

// The second packed grid, in the device workspace (pl_life_cuda_words_workspace bytes); after
// `passes` passes the result is in bufs[passes & 1]: copied back if odd.
static inline pl_status second_grid(const pl_run_args *a, uint32_t **ws)
{
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    void *w = nullptr;
    pl_status s = pl_ctx_dev_workspace(a->ctx, PL_LIFE_DEV_WS, (size_t)pl_life_cuda_words_workspace(p), &w);
    *ws = (uint32_t *)w;
    return s;
}

static inline pl_status copy_back(const pl_run_args *a, int64_t passes, const uint32_t *ws, const char *rung)
{
    if (!(passes & 1)) return PL_OK;
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    cudaError_t e = cudaMemcpyAsync(a->data[0], ws, (size_t)pl_life_cuda_words_workspace(p), cudaMemcpyDeviceToDevice,
                                    (cudaStream_t)a->stream);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: copy back: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}

#endif
