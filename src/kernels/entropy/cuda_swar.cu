// cuda-swar: cuda-tuned's counters leave shared memory. For k = 5 and bins <= 16 (the default
// problem) the counts live in registers, 4 or 8 bits a bin side by side (SWAR: SIMD within a
// register); every other k and bins runs cuda-tuned at its defaults.
//   - A thread owns one image column and walks down it, keeping the counts of its column's 5
//     rows around the current row: 16 four-bit fields (<= 5) in two words. Value v adds
//     1 << 4v: a clamped funnel shift gives it in the low word (v < 8) or in the high word
//     (v >= 8) and 0 in the other, with no register indexed by a value. Moving down a row is
//     h += inc(entering) - inc(leaving), the leaving row's increments kept from when it entered.
//   - The window is the sum of 5 neighbouring columns, by warp shuffles: s2 = h + h(L+1) (<= 10),
//     s3 = h + s2(L+1) (<= 15: still 4 bits), window(L+2) = s2(L) + s3(L+2), the last add in
//     8-bit fields (even and odd bins apart, scaled by 4: fields 4c <= 100). A warp's 32 lanes
//     hold 32 columns and write the 28 windows that lie inside them.
//   - S = sum_b F(c_b) with F(c) = round(c ln c 2^23) (exact integer sums, as in cuda-tuned)
//     from a pair table P[26 a + b] = F(a) + F(b) in shared memory: in a word of four fields
//     4c0..4c3, w - 230 z (z its odd bytes) holds 4(26 c1 + c0) and 4(26 c3 + c2) in its two
//     halves, the byte offsets of two entries: 8 table loads a pixel, bank (26 a + b) mod 32,
//     distinct for every a, b <= 4.
// Per 28 pixels: 6 shuffles, 8 table loads, one byte load and one float store a lane, about 80
// integer instructions (docs/notes/entropy-cuda.md has the count and the SASS): issue-bound,
// not memory-bound. What a next step would fix: the 4 lanes of 32 that write nothing, the
// 64-bit address arithmetic of the loads and stores, the split of the last add into 8-bit fields.
// Error: F's rounding, at most 2^-24 per bin present plus F(n)'s, over n 2^23 (k = 5: under
// 1e-7 nats), then the float conversion and product: inside the spec's (m + 8) 2^-24 log n.
#include "kernels/entropy/cuda_entropy.cuh"
#include "kernels/ladder.h"

enum {
    SWAR_K = 5,                 // the window side of the fast path
    SWAR_R = SWAR_K / 2,        // its radius
    SWAR_N = SWAR_K * SWAR_K,   // values in a full window
    SWAR_F = SWAR_N + 1,        // entries of F: c = 0 .. 25
    SWAR_OUT = 32 - 2 * SWAR_R, // columns a warp writes
    SWAR_NONE = 16,             // a "value" whose increment is 0 (rows and columns outside the image)
    SWAR_THREADS = 1536,        // threads an SM should hold: 40 registers (72 unbounded), no spills
    SWAR_THREADS_AHEAD = 1152,  // with ahead = 5: 56 registers (64 unbounded), no spills
};

// 1 << s for s < 32, and 0 for any larger s (as unsigned): the increment of a count in one word.
static __device__ __forceinline__ uint32_t bit_or_zero(uint32_t s) { return __funnelshift_lc(0u, 1u, s); }

// Value v (or SWAR_NONE) as increments of the 4-bit field v of the pair (lo, hi).
static __device__ __forceinline__ void swar_inc(uint32_t v, uint32_t &lo, uint32_t &hi)
{
    const uint32_t s = v * 4;
    lo = bit_or_zero(s);
    hi = bit_or_zero(s - 32);
}

// P(a, b) for the four 8-bit fields 4c of w: the two pair entries it addresses.
static __device__ __forceinline__ int swar_pairs(const int *pair, uint32_t w)
{
    const uint32_t z = __byte_perm(w, 0, 0x4341); // the odd fields, each in the low byte of its half
    const uint32_t a = w - 230u * z;              // halves 4 (26 c_odd + c_even): 1024 - 920 = 104 = 4 x 26
    const char *base = (const char *)pair;
    return *(const int *)(base + (a & 0xFFFFu)) + *(const int *)(base + (a >> 16));
}

// What the kernel reads for a window of n values, made on the host once a call: F(n) (the
// pair table is built from it) and 1/(n 2^23) in the output's base.
struct SwarTables {
    int F[SWAR_F];
    float inv[SWAR_F];
};

// WARPS: warps a block, side by side (WARPS x 28 columns). R: rows a warp walks down (a strip).
// AHEAD: the entering row's byte is loaded 5 steps before it is used (more registers, fewer
// warps an SM) rather than in its own step (the load's latency hidden by other warps only).
template <int WARPS, bool AHEAD>
static __global__ void __launch_bounds__(WARPS * 32, (AHEAD ? SWAR_THREADS_AHEAD : SWAR_THREADS) / (WARPS * 32))
    entropy_swar_kernel(pl_entropy_problem p, const uint8_t *__restrict__ in, float *__restrict__ out, int R,
                        const SwarTables t)
{
    __shared__ int pair[SWAR_F * SWAR_F];
    const int tid = threadIdx.x;
    for (int i = tid; i < SWAR_F * SWAR_F; i += WARPS * 32) pair[i] = t.F[i / SWAR_F] + t.F[i % SWAR_F];
    __syncthreads();

    const int lane = tid & 31;
    const int64_t xo0 = ((int64_t)blockIdx.x * WARPS + (tid >> 5)) * SWAR_OUT; // the warp's first output column
    if (xo0 >= p.W) return;                                                    // the whole warp
    const int64_t x = xo0 - SWAR_R + lane; // this lane's column
    const int64_t xo = xo0 + lane;         // the column it writes, for lanes < SWAR_OUT
    const bool col_in = x >= 0 && x < p.W;
    const bool writer = lane < SWAR_OUT && xo < p.W;
    const int cols_in = writer ? (int)((xo + SWAR_R < p.W ? xo + SWAR_R : p.W - 1) -
                                       (xo - SWAR_R > 0 ? xo - SWAR_R : 0) + 1)
                               : SWAR_K;
    // Rows in 32 bits: the launch keeps H under 65536 strips of at most 256 rows.
    const int H = (int)p.H, ys = (int)blockIdx.y * R;
    const int rows = ys + R < H ? R : H - ys;

    // inc_lo/hi[j]: the increments of the row that leaves the column at step j (mod 5). Before
    // the first step the column holds rows ys-3 .. ys+1 (those inside the image).
    uint32_t inc_lo[SWAR_K], inc_hi[SWAR_K], h_lo = 0, h_hi = 0;
#pragma unroll
    for (int j = 0; j < SWAR_K; j++) {
        const int row = ys - SWAR_R - 1 + j;
        const uint32_t v = col_in && row >= 0 && row < H ? in[row * p.ld_in + x] : SWAR_NONE;
        swar_inc(v, inc_lo[j], inc_hi[j]);
        h_lo += inc_lo[j], h_hi += inc_hi[j];
    }

    // AHEAD: the entering row's byte is loaded 5 steps ahead, into the slot it is read from
    // (no register moves): cur[j] holds row y + 2's at step y = ys + s0 + j.
    const uint8_t *src = in + (ys + SWAR_R) * p.ld_in + x;
    uint32_t cur[SWAR_K];
    if (AHEAD) {
#pragma unroll
        for (int j = 0; j < SWAR_K; j++, src += p.ld_in) cur[j] = col_in && ys + SWAR_R + j < H ? *src : SWAR_NONE;
    }
    float *o = out + ys * p.ld_out + xo;
    const int Fn_full = t.F[SWAR_K * cols_in];
    const float inv_full = t.inv[SWAR_K * cols_in];
    const unsigned inner = H > 2 * SWAR_R ? (unsigned)(H - 2 * SWAR_R) : 0u; // rows 2 .. H-3: y - 2 < inner
    // Whole groups of 5 steps, so that the ring of increments stays in registers; the steps
    // past the strip's last row (at most 4) compute and write nothing.
    for (int s0 = 0; s0 < rows; s0 += SWAR_K) {
#pragma unroll
        for (int j = 0; j < SWAR_K; j++) {
            const int y = ys + s0 + j;
            // Row y + 2 enters, row y - 3 leaves (AHEAD: row y + 7's byte is loaded for 5 steps on).
            uint32_t v;
            if (AHEAD) {
                v = cur[j];
                cur[j] = col_in && y + SWAR_R + SWAR_K < H ? *src : SWAR_NONE;
            } else {
                v = col_in && y + SWAR_R < H ? *src : SWAR_NONE;
            }
            src += p.ld_in;
            uint32_t lo, hi;
            swar_inc(v, lo, hi);
            h_lo += lo - inc_lo[j], h_hi += hi - inc_hi[j];
            inc_lo[j] = lo, inc_hi[j] = hi;

            // The window of column x + 2 (lane L + 2's column): s2(L) + s3(L + 2).
            const uint32_t s2_lo = h_lo + __shfl_down_sync(0xFFFFFFFFu, h_lo, 1);
            const uint32_t s2_hi = h_hi + __shfl_down_sync(0xFFFFFFFFu, h_hi, 1);
            const uint32_t s3_lo = __shfl_down_sync(0xFFFFFFFFu, h_lo + __shfl_down_sync(0xFFFFFFFFu, s2_lo, 1), 2);
            const uint32_t s3_hi = __shfl_down_sync(0xFFFFFFFFu, h_hi + __shfl_down_sync(0xFFFFFFFFu, s2_hi, 1), 2);
            const uint32_t M = 0x0F0F0F0Fu, M4 = 0x3C3C3C3Cu;
            int S = swar_pairs(pair, ((s2_lo & M) + (s3_lo & M)) << 2);       // bins 0, 2, 4, 6
            S += swar_pairs(pair, ((s2_lo >> 2) & M4) + ((s3_lo >> 2) & M4)); // 1, 3, 5, 7
            S += swar_pairs(pair, ((s2_hi & M) + (s3_hi & M)) << 2);          // 8, 10, 12, 14
            S += swar_pairs(pair, ((s2_hi >> 2) & M4) + ((s3_hi >> 2) & M4)); // 9, 11, 13, 15

            // Away from the image's top and bottom 2 rows n = 5 cols_in (F(n) and 1/(n 2^23)
            // made once); on those rows (the same for the whole warp) n = rows_in x cols_in.
            int Fn = Fn_full;
            float inv = inv_full;
            if ((unsigned)(y - SWAR_R) >= inner) {
                const int rows_in = min(y + SWAR_R, H - 1) - max(y - SWAR_R, 0) + 1; // >= 1 inside the strip
                const int n = max(rows_in, 1) * cols_in; // rows_in <= 0 only on the steps past the image
                Fn = t.F[n];
                inv = t.inv[n];
            }
            const int d = Fn - S; // n E 2^23; below 0 by rounding only when E = 0
            const float e = d > 0 ? (float)d * inv : 0.0f;
            if (writer && s0 + j < rows) __stcs(o, e);
            o += p.ld_out;
        }
    }
}

static const int64_t strip_sizes[] = {32, 64, 128, 256};
static const int64_t warp_counts[] = {2, 4, 8};
static const int64_t ahead_rows[] = {0, 5};
extern "C" const pl_param_def pl_entropy_cuda_swar_params[] = {
    [PL_ENTROPY_CUDA_SWAR_STRIP] =
        {.name = "strip", .help = "rows each warp walks down (k = 5, bins <= 16; otherwise cuda-tuned's defaults)",
         .kind = PL_PARAM_LIST, .values = strip_sizes, .n_values = PL_COUNT(strip_sizes), .def = 128},
    [PL_ENTROPY_CUDA_SWAR_WARPS] =
        {.name = "warps", .help = "warps per block, side by side, 28 columns each",
         .kind = PL_PARAM_LIST, .values = warp_counts, .n_values = PL_COUNT(warp_counts), .def = 4},
    [PL_ENTROPY_CUDA_SWAR_AHEAD] =
        {.name = "ahead", .help = "rows between an input byte's load and its use: 0 (latency hidden by more warps) "
                                  "or 5 (by the load's distance; more registers)",
         .kind = PL_PARAM_LIST, .values = ahead_rows, .n_values = PL_COUNT(ahead_rows), .def = 5},
};
PL_CHECK_COUNT(pl_entropy_cuda_swar_params, PL_ENTROPY_CUDA_SWAR_N_PARAMS);

template <int WARPS, bool AHEAD>
static pl_status launch(const pl_entropy_problem *p, const pl_run_args *a, int R, const char *rung)
{
    dim3 grid;
    pl_status s = entropy_grid(p, (int64_t)WARPS * SWAR_OUT, R, rung, &grid);
    if (s != PL_OK) return s;
    const double scale = entropy_fixed_scale(SWAR_N), out_scale = p->base2 ? 1.4426950408889634 : 1.0;
    SwarTables t;
    for (int c = 0; c < SWAR_F; c++) {
        t.F[c] = entropy_fixed_cln(c, scale);
        t.inv[c] = c ? (float)(out_scale / (c * scale)) : 0.0f;
    }
    entropy_swar_kernel<WARPS, AHEAD><<<grid, WARPS * 32, 0, (cudaStream_t)a->stream>>>(
        *p, (const uint8_t *)a->data[0], (float *)a->data[1], R, t);
    return entropy_launched(rung);
}

extern "C" pl_status pl_entropy_cuda_swar(const pl_run_args *a)
{
    static const char rung[] = "cuda-swar";
    const pl_entropy_problem *p = (const pl_entropy_problem *)a->problem;
    const int R = (int)a->params[PL_ENTROPY_CUDA_SWAR_STRIP], warps = (int)a->params[PL_ENTROPY_CUDA_SWAR_WARPS];
    const int ahead = (int)a->params[PL_ENTROPY_CUDA_SWAR_AHEAD];
    if (R != 32 && R != 64 && R != 128 && R != 256)
        return pl_fail(PL_ERR_ARG, "%s: strip=%d (legal: 32, 64, 128, 256)", rung, R);
    if (warps != 2 && warps != 4 && warps != 8)
        return pl_fail(PL_ERR_ARG, "%s: warps=%d (legal: 2, 4, 8)", rung, warps);
    if (ahead != 0 && ahead != 5) return pl_fail(PL_ERR_ARG, "%s: ahead=%d (legal: 0, 5)", rung, ahead);
    if (p->k != SWAR_K || p->bins > 16) { // not the fast path: cuda-tuned at its defaults
        int64_t tuned[PL_ENTROPY_CUDA_TUNED_N_PARAMS];
        for (int i = 0; i < PL_ENTROPY_CUDA_TUNED_N_PARAMS; i++) tuned[i] = (int64_t)pl_entropy_cuda_tuned_params[i].def;
        pl_run_args t = *a;
        t.params = tuned;
        return pl_entropy_cuda_tuned(&t);
    }
    switch (warps * 2 + (ahead > 0)) {
    case 4: return launch<2, false>(p, a, R, rung);
    case 5: return launch<2, true>(p, a, R, rung);
    case 8: return launch<4, false>(p, a, R, rung);
    case 9: return launch<4, true>(p, a, R, rung);
    case 16: return launch<8, false>(p, a, R, rung);
    default: return launch<8, true>(p, a, R, rung);
    }
}
