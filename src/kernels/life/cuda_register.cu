// cuda-register: cuda-tuned's temporal blocking with the tile in registers instead of shared
// memory. A thread holds a vertical strip of ROWS words of one 32-bit column in registers; a warp
// is 32 adjacent columns (1024 cells of a row), a block `warps` warps stacked vertically, so a
// block's tile is 32 words x warps * ROWS rows. A generation, for each row of the strip:
//   - the west and east neighbour words by __shfl_up/down_sync, their edge cells by funnel
//     shifts (2 SHFL, 2 SHF); the row's three-cell sums once (2 LOP3);
//   - the next state from the sums of the rows above, at and below: two full adders (xor3,
//     majority: 4 LOP3) into the nine-cell sum, and Conway's rule on it (4 LOP3) or any other
//     rule's mux tree (22), written as LOP3s with their truth tables (ptxas's own fusion of
//     the C expressions spent 11 a row for Conway, 38 for other rules);
//   - the rows above and below the strip: the first and last rows' three-cell sums go through
//     shared memory to the neighbouring warps, one barrier a generation.
// Nothing comes from beyond the tile: lanes 0 and 31 are the horizontal halo (their outer cells
// go wrong a cell a generation, so lanes 1..30 stay right for 32 generations) and the block's
// first and last tblock rows the vertical halo. The block writes 30 words x (warps * ROWS -
// 2 tblock) rows. Cost: ~12.4 logic ops and 2 shuffles a word-generation (Conway), x 1.14 for
// the halo at warps 16, rows 32, tblock 16 (docs/notes/life-cuda.md: counts, SASS, prediction).
#include "kernels/life/cuda_words.cuh"
#include "kernels/ladder.h"

enum {
    REG_LANES = 32,             // words a warp's row
    REG_INNER = REG_LANES - 2,  // words a block writes: lanes 1..30
    REG_MAX_WARPS = 16,
    REG_MAX_TBLOCK = 24,        // <= 32 (the horizontal halo) and 2 tblock < warps x rows
    REG_XCH = REG_MAX_WARPS * 4 * REG_LANES // a generation's exchange: (s3, c3) of 2 rows a warp
};

// f(a, b, c) bitwise, f given by its truth table LUT (bit 4a + 2b + c of LUT is f(a, b, c); a =
// 0xF0, b = 0xCC, c = 0xAA give LUT from the expression): one LOP3. Outside the device compiler
// (a host emulation), the same from the table's minterms.
template <unsigned LUT>
static __device__ __forceinline__ uint32_t lop3(uint32_t a, uint32_t b, uint32_t c)
{
#ifdef __CUDA_ARCH__
    uint32_t d;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(LUT));
    return d;
#else
    uint32_t d = 0;
    for (int i = 0; i < 8; i++)
        if ((LUT >> i) & 1) d |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return d;
#endif
}
enum { LOP_XOR3 = 0x96, LOP_MAJ = 0xE8 };

// The nine-cell sums (self included) of a row's 32 cells from the three-cell sums (s3 + 2 c3) of
// the rows above, at and below, by two full adders: sum9 = b0 + 2 (k + x) + 4 y.
struct nine_sums {
    uint32_t b0, k, x, y;
};
static __device__ __forceinline__ nine_sums nine_of(const row_sums &up, const row_sums &mid, const row_sums &dn)
{
    return {lop3<LOP_XOR3>(up.s3, mid.s3, dn.s3), lop3<LOP_MAJ>(up.s3, mid.s3, dn.s3),
            lop3<LOP_XOR3>(up.c3, mid.c3, dn.c3), lop3<LOP_MAJ>(up.c3, mid.c3, dn.c3)};
}

// The next state of 32 cells (alive) from their nine-cell sums. Conway's rule: alive next where
// sum9 = 3, or sum9 = 4 and alive (4 LOP3). Any other rule: birth[sum9] where dead and
// survive[sum9 - 1] where alive, ten leaves (the rule's masks chosen by alive) and a mux tree
// over sum9's bits (b0, s1, s2, s3 = k + x + 2 y in bits): 22 LOP3.
template <bool CONWAY>
static __device__ __forceinline__ uint32_t next9(const life_masks32 &m, uint32_t alive, const nine_sums &n)
{
    if constexpr (CONWAY) {
        const uint32_t one = lop3<0x14>(n.k, n.x, n.y);       // k + x = 1, y = 0: the twos make 2
        const uint32_t two = lop3<0x42>(n.k, n.x, n.y);       // k + x + 2 y = 2: the twos make 4
        const uint32_t four = lop3<0x08>(n.b0, alive, two);   // sum9 = 4 and alive
        return lop3<0xEA>(n.b0, one, four);                   // sum9 = 3, or the above
    } else {
        enum { LOP_MUX = 0xCA, LOP_PICK = 0xAC }; // a ? b : c, and a ? c : b
        const uint32_t s1 = n.k ^ n.x, s2 = lop3<0x6A>(n.k, n.x, n.y), s3 = lop3<0x80>(n.k, n.x, n.y);
        uint32_t leaf[10], q[5];
#pragma unroll
        for (int s = 0; s < 10; s++)
            leaf[s] = lop3<LOP_PICK>(alive, s < 9 ? m.birth[s] : 0u, s > 0 ? m.survive[s - 1] : 0u);
#pragma unroll
        for (int i = 0; i < 5; i++) q[i] = lop3<LOP_MUX>(n.b0, leaf[2 * i + 1], leaf[2 * i]);
        const uint32_t n0 = lop3<LOP_MUX>(s1, q[1], q[0]), n1 = lop3<LOP_MUX>(s1, q[3], q[2]);
        return lop3<LOP_MUX>(s3, q[4], lop3<LOP_MUX>(s2, n1, n0));
    }
}

// The row sums of x with its west and east neighbour words from lanes j-1 and j+1 (lane 0's
// west and lane 31's east are their own: the halo lanes' outer cells, wrong anyway).
static __device__ __forceinline__ row_sums warp_row_sums(uint32_t x)
{
    return row_sums_of(__shfl_up_sync(0xFFFFFFFFu, x, 1), x, __shfl_down_sync(0xFFFFFFFFu, x, 1));
}

// gens generations of the strip `row` (warp `warp` of nw, lane `lane`), in place. MASKED (a
// plane block at the grid's edge): cells off the plane stay dead, row r keeping only the bits
// of colmask, and only where rlo <= r < rhi.
template <bool CONWAY, int ROWS, bool MASKED>
static __device__ __forceinline__ void strip_generations(uint32_t (&row)[ROWS], int gens, uint32_t *xch, int warp,
                                                         int nw, int lane, const life_masks32 &m, uint32_t colmask,
                                                         int rlo, int rhi)
{
    for (int k = 0; k < gens; k++) {
        // the masks anew each generation: hoisted out of the loop, a mask a row, they spill
        if (MASKED) asm volatile("" : "+r"(colmask), "+r"(rlo), "+r"(rhi));
        row_sums mid = warp_row_sums(row[0]);
        const row_sums last = warp_row_sums(row[ROWS - 1]);
        // the strip's edges to the warps above and below: xch[warp][first.s3, first.c3,
        // last.s3, last.c3][lane], a buffer a generation's parity (one barrier a generation:
        // no warp writes a buffer again before every warp passed the barrier after reading it)
        uint32_t *x = xch + (k & 1) * REG_XCH;
        x[(warp * 4 + 0) * REG_LANES + lane] = mid.s3, x[(warp * 4 + 1) * REG_LANES + lane] = mid.c3;
        x[(warp * 4 + 2) * REG_LANES + lane] = last.s3, x[(warp * 4 + 3) * REG_LANES + lane] = last.c3;
        __syncthreads();
        row_sums up = {0, 0, 0, 0, 0}; // the block's halo rows: zero
        if (warp > 0)
            up.s3 = x[((warp - 1) * 4 + 2) * REG_LANES + lane], up.c3 = x[((warp - 1) * 4 + 3) * REG_LANES + lane];
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            // the row below: the strip's next row (its sums formed here again for the last row:
            // fewer live registers than keeping `last`), or the next warp's first row
            row_sums dn = {0, 0, 0, 0, 0};
            if (r < ROWS - 1) dn = warp_row_sums(row[r + 1]);
            else if (warp < nw - 1)
                dn.s3 = x[((warp + 1) * 4 + 0) * REG_LANES + lane], dn.c3 = x[((warp + 1) * 4 + 1) * REG_LANES + lane];
            uint32_t v = next9<CONWAY>(m, mid.alive, nine_of(up, mid, dn));
            if (MASKED) v &= (unsigned)(r - rlo) < (unsigned)(rhi - rlo) ? colmask : 0u;
            row[r] = v;
            up = mid, mid = dn;
        }
    }
}

// The strip's words: rows y0..y0+ROWS-1 from cell c (load_word's cells, with one division a
// thread for the torus's wrap and the words gathered cell by cell only in a column that crosses
// the seam or the edge).
template <int ROWS>
static __device__ __forceinline__ void load_strip(uint32_t (&row)[ROWS], const uint32_t *__restrict__ src,
                                                  const word_grid &g, int64_t y0, int64_t c)
{
    int64_t y = g.torus ? ((y0 % g.H) + g.H) % g.H : y0; // the row's index in src
    const bool inside = c >= 0 && c + 31 < g.W;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        uint32_t v = 0;
        if (g.torus || (y >= 0 && y < g.H)) {
            const uint32_t *q = src + y * g.ld32;
            v = inside ? q[c >> 5] : gather_word(q, g, c);
        }
        row[r] = v;
        if (++y == g.H && g.torus) y = 0;
    }
}

// halo generations' worth of tile (the pass's geometry), gens <= halo of them run. Block
// (x, y): grid words from REG_INNER x - 1, grid rows from (warps * ROWS - 2 halo) y - halo.
template <bool CONWAY, int ROWS, bool PLANE>
static __global__ void __launch_bounds__(REG_LANES *REG_MAX_WARPS, 2)
    register_kernel(const uint32_t *__restrict__ src, uint32_t *__restrict__ dst, word_grid g, life_masks32 m,
                    int halo, int gens)
{
    __shared__ uint32_t xch[2 * REG_XCH];
    const int lane = threadIdx.x, warp = threadIdx.y, nw = blockDim.y, tile_rows = nw * ROWS;
    const int64_t word0 = (int64_t)blockIdx.x * REG_INNER - 1;                  // lane 0's grid word
    const int64_t row0 = (int64_t)blockIdx.y * (tile_rows - 2 * halo) - halo; // the tile's first grid row
    const int64_t c = (word0 + lane) * 32, y0 = row0 + (int64_t)warp * ROWS;    // this strip's first cell, row
    uint32_t row[ROWS];
    load_strip<ROWS>(row, src, g, y0, c);
    if (PLANE && (row0 < 0 || row0 + tile_rows > g.H || word0 < 0 || (word0 + REG_LANES) * 32 > g.W)) {
        const int rlo = (int)max((int64_t)0, min((int64_t)ROWS, -y0));
        const int rhi = (int)max((int64_t)0, min((int64_t)ROWS, g.H - y0));
        strip_generations<CONWAY, ROWS, true>(row, gens, xch, warp, nw, lane, m, plane_mask(g, 0, c), rlo, rhi);
    } else {
        strip_generations<CONWAY, ROWS, false>(row, gens, xch, warp, nw, lane, m, 0u, 0, 0);
    }
    const int64_t gi = word0 + lane;
    if (lane == 0 || lane == REG_LANES - 1 || gi >= g.n32) return;
    // rows halo .. tile_rows - halo - 1 of the tile, and on the grid
    const int slo = max(0, halo - warp * ROWS);
    const int shi = (int)min((int64_t)(tile_rows - halo - warp * ROWS), g.H - y0);
    uint32_t *out = dst + y0 * g.ld32 + gi;
    const bool last_word = gi == g.n32 - 1, pad = last_word && g.ld32 > g.n32;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
        if (r < slo || r >= shi) continue;
        // the last word: the periodic extension's cells past W are not the grid's; the row's
        // padding word is zero
        out[r * g.ld32] = last_word ? row[r] & g.last_mask : row[r];
        if (pad) out[r * g.ld32 + 1] = 0;
    }
}

static const int64_t reg_tblocks[] = {1, 2, 4, 8, 12, 16, 24};
static const int64_t reg_warps[] = {4, 8, 16};
static const int64_t reg_rows[] = {16, 32};
extern "C" const pl_param_def pl_life_cuda_register_params[] = {
    [PL_LIFE_CUDA_REGISTER_TBLOCK] =
        {.name = "tblock", .help = "generations per launch (the tile's halo: tblock rows and a word a side)",
         .kind = PL_PARAM_LIST, .values = reg_tblocks, .n_values = PL_COUNT(reg_tblocks), .def = 16},
    [PL_LIFE_CUDA_REGISTER_WARPS] =
        {.name = "warps", .help = "warps a block, stacked vertically (the tile's height: warps x rows)",
         .kind = PL_PARAM_LIST, .values = reg_warps, .n_values = PL_COUNT(reg_warps), .def = 16},
    [PL_LIFE_CUDA_REGISTER_ROWS] =
        {.name = "rows", .help = "rows a thread holds in registers, one 32-cell word each",
         .kind = PL_PARAM_LIST, .values = reg_rows, .n_values = PL_COUNT(reg_rows), .def = 32},
};
PL_CHECK_COUNT(pl_life_cuda_register_params, PL_LIFE_CUDA_REGISTER_N_PARAMS);

typedef void (*register_fn)(const uint32_t *, uint32_t *, word_grid, life_masks32, int, int);
template <bool CONWAY, bool PLANE> static register_fn register_pick(int rows)
{
    return rows == 16 ? register_kernel<CONWAY, 16, PLANE> : register_kernel<CONWAY, 32, PLANE>;
}

extern "C" pl_status pl_life_cuda_register(const pl_run_args *a)
{
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    const int T = (int)a->params[PL_LIFE_CUDA_REGISTER_TBLOCK], nw = (int)a->params[PL_LIFE_CUDA_REGISTER_WARPS];
    const int rows = (int)a->params[PL_LIFE_CUDA_REGISTER_ROWS];
    if (rows != 16 && rows != 32) return pl_fail(PL_ERR_ARG, "cuda-register: rows=%d (legal: 16, 32)", rows);
    if (nw < 1 || nw > REG_MAX_WARPS) return pl_fail(PL_ERR_ARG, "cuda-register: warps=%d (legal: 1..16)", nw);
    if (T < 1 || T > REG_MAX_TBLOCK || 2 * T >= nw * rows)
        return pl_fail(PL_ERR_ARG, "cuda-register: tblock=%d (legal: 1..%d, and 2 tblock < warps x rows = %d)", T,
                       (int)REG_MAX_TBLOCK, nw * rows);
    uint32_t *ws = nullptr;
    pl_status s = second_grid(a, &ws);
    if (s != PL_OK) return s;
    const word_grid g = make_word_grid(p);
    const life_masks32 m = life_masks32_make(p->rule);
    const bool conway = life_is_conway(p->rule), plane = !g.torus;
    const register_fn k = conway ? (plane ? register_pick<true, true>(rows) : register_pick<true, false>(rows))
                                 : (plane ? register_pick<false, true>(rows) : register_pick<false, false>(rows));
    uint32_t *bufs[2] = {(uint32_t *)a->data[0], ws};
    const int64_t inner = nw * rows - 2 * T;
    const int64_t gx = (g.n32 + REG_INNER - 1) / REG_INNER, gy = (p->H + inner - 1) / inner;
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "cuda-register: a %lldx%lld grid needs %lld x %lld blocks (at most 2^31-1 x 65535)",
                       (long long)p->W, (long long)p->H, (long long)gx, (long long)gy);
    const dim3 block(REG_LANES, nw), blocks((unsigned)gx, (unsigned)gy);
    cudaStream_t st = (cudaStream_t)a->stream;
    const int64_t passes = (p->gens + T - 1) / T;
    for (int64_t pass = 0; pass < passes; pass++) {
        const int t = (int)(p->gens - pass * T < T ? p->gens - pass * T : T); // the last pass: what is left
        k<<<blocks, block, 0, st>>>(bufs[pass & 1], bufs[(pass + 1) & 1], g, m, T, t);
        if ((s = life_launched("cuda-register")) != PL_OK) return s;
    }
    return copy_back(a, passes, ws, "cuda-register");
}
