// cuda-swar: cuda-tuned's counters leave shared memory. For k = 5 and bins <= 16 (the default
// problem) the counts live in registers, 4 or 8 bits a bin side by side (SWAR: SIMD within a
// register); every other k and bins runs cuda-tuned at its defaults.
//   - A lane owns two adjacent image columns, A and B, and walks down them, keeping the counts of
//     each column's 5 rows around the current row: 16 four-bit fields (<= 5) in two words. Value
//     v adds 1 << 4v, one 64-bit shift (two SHF, no register indexed by a value). Moving down a
//     row is h += inc(entering) - inc(leaving), the leaving row's increments kept from when it
//     entered (a ring of 5 in registers; the fast loop unrolled by 10, the general one by 5).
//   - The window is the sum of 5 neighbouring columns, by warp shuffles: with P = a + b (the
//     lane's two columns, <= 10), window(A) = P(L-1) + [P(L) + a(L+1)] and window(B) =
//     [b(L-1) + P(L)] + P(L+1), the bracketed sums <= 15 (still 4 bits), the outer add in 8-bit
//     fields (even and odd bins apart, scaled by 4: fields 4c <= 100). A warp's 32 lanes hold 64
//     columns and write the 60 windows that lie inside them (lanes 1..30).
//   - S = sum_b F(c_b) with F(c) = round(c ln c 2^23) (exact integer sums, as in cuda-tuned)
//     from a pair table P[26 a + b] = F(a) + F(b) in shared memory: in a word of four fields
//     4c0..4c3, w - 230 z (z its odd bytes) holds 4(26 c1 + c0) and 4(26 c3 + c2) in its two
//     halves, the byte offsets of two entries: 8 table loads a pixel, bank (26 a + b) mod 32,
//     distinct for every a, b <= 4.
//   - Strips inside the image (all but the image's first and last ones and the last warp of a
//     row) run a fast loop: no row tests, one n, unpredicated loads, stores predicated on the
//     lane alone. Border strips and a strip's last rows % 5 take the general step.
// Per 60 pixels (a warp-row): 8 shuffles, 16 table loads, two byte loads and two float stores a
// lane, about 142 instructions in all, 2.4 a pixel (docs/notes/entropy-cuda.md has the SASS and
// the measurements): issue-bound, not memory-bound.
// Error: F's rounding, at most 2^-24 per bin present plus F(n)'s, over n 2^23 (k = 5: under
// 1e-7 nats), then the float conversion and product: inside the spec's (m + 8) 2^-24 log n.
#include "kernels/entropy/cuda_entropy.cuh"
#include "kernels/ladder.h"

enum {
    SWAR_K = 5,                 // the window side of the fast path
    SWAR_R = SWAR_K / 2,        // its radius
    SWAR_N = SWAR_K * SWAR_K,   // values in a full window
    SWAR_F = SWAR_N + 1,        // entries of F: c = 0 .. 25
    SWAR_OUT = 64 - 2 * SWAR_R, // columns a warp writes (two a lane, lanes 1..30)
    SWAR_NONE = 16,             // a "value" whose increment is 0 (rows and columns outside the image)
    SWAR_THREADS = 768,         // threads an SM should hold: 80 registers (8 bytes of spill)
    SWAR_THREADS_AHEAD = 640,   // with ahead = 5: 95 registers at 2 and 4 warps, 122 at 8, no spills
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

// The fast path's increment: value v < 16 of a column inside the image (one = 1) or outside it
// (one = 0, the load read a clamped column) as one 64-bit shift, two SHF (no test, no s - 32).
static __device__ __forceinline__ void swar_inc_fast(uint32_t v, uint32_t one, uint32_t &lo, uint32_t &hi)
{
    const uint64_t b = (uint64_t)one << (v * 4);
    lo = (uint32_t)b;
    hi = (uint32_t)(b >> 32);
}

// P(a, b) for the four 8-bit fields 4c of w: the two pair entries it addresses.
static __device__ __forceinline__ int swar_pairs(const int *pair, uint32_t w)
{
    const uint32_t z = __byte_perm(w, 0, 0x4341); // the odd fields, each in the low byte of its half
    const uint32_t a = w - 230u * z;              // halves 4 (26 c_odd + c_even): 1024 - 920 = 104 = 4 x 26
    const char *base = (const char *)pair;
    return *(const int *)(base + (a & 0xFFFFu)) + *(const int *)(base + (a >> 16));
}

// S = sum_b F(c_b) of the window whose 16 counts are the 4-bit fields of s2 + s3 (lo: bins
// 0..7, hi: 8..15): the last add in 8-bit fields, even and odd bins apart, scaled by 4
// (fields 4c <= 100), then 8 pair-table reads.
static __device__ __forceinline__ int swar_window_S(const int *pair, uint32_t s2_lo, uint32_t s2_hi, uint32_t s3_lo,
                                                    uint32_t s3_hi)
{
    const uint32_t M = 0x0F0F0F0Fu, M4 = 0x3C3C3C3Cu;
    int S = swar_pairs(pair, ((s2_lo & M) + (s3_lo & M)) << 2);       // bins 0, 2, 4, 6
    S += swar_pairs(pair, ((s2_lo >> 2) & M4) + ((s3_lo >> 2) & M4)); // 1, 3, 5, 7
    S += swar_pairs(pair, ((s2_hi & M) + (s3_hi & M)) << 2);          // 8, 10, 12, 14
    S += swar_pairs(pair, ((s2_hi >> 2) & M4) + ((s3_hi >> 2) & M4)); // 9, 11, 13, 15
    return S;
}

// The two windows of a lane (columns A = 2L and B = 2L + 1 of the warp's 64) from the column
// counts a (column A) and b (column B), 4-bit fields in lo (bins 0..7) and hi (8..15) words.
// With P = a + b (<= 10):
//   window(A) = P(L-1) + [P(L) + a(L+1)]   window(B) = [b(L-1) + P(L)] + P(L+1)
// the bracketed sums <= 15 still 4 bits, the outer adds in 8-bit fields (swar_window_S):
// 8 shuffles for 2 pixels. Lanes 0 and 31 get their own values at the warp's edge (not written).
static __device__ __forceinline__ void swar_two_windows(const int *pair, uint32_t a_lo, uint32_t a_hi, uint32_t b_lo,
                                                        uint32_t b_hi, int &Sa, int &Sb)
{
    const uint32_t P_lo = a_lo + b_lo, P_hi = a_hi + b_hi;
    const uint32_t Pu_lo = __shfl_up_sync(0xFFFFFFFFu, P_lo, 1), Pu_hi = __shfl_up_sync(0xFFFFFFFFu, P_hi, 1);
    const uint32_t Pd_lo = __shfl_down_sync(0xFFFFFFFFu, P_lo, 1), Pd_hi = __shfl_down_sync(0xFFFFFFFFu, P_hi, 1);
    const uint32_t Q_lo = P_lo + __shfl_down_sync(0xFFFFFFFFu, a_lo, 1);
    const uint32_t Q_hi = P_hi + __shfl_down_sync(0xFFFFFFFFu, a_hi, 1);
    const uint32_t R_lo = P_lo + __shfl_up_sync(0xFFFFFFFFu, b_lo, 1);
    const uint32_t R_hi = P_hi + __shfl_up_sync(0xFFFFFFFFu, b_hi, 1);
    Sa = swar_window_S(pair, Pu_lo, Pu_hi, Q_lo, Q_hi);
    Sb = swar_window_S(pair, Pd_lo, Pd_hi, R_lo, R_hi);
}

// A streaming store at p and another at p + 1, each done only where its flag is nonzero, as
// predicated instructions: written as ifs, the compiler may branch around the stores and the
// values' conversions instead.
static __device__ __forceinline__ void store2_if(float *ptr, float va, uint32_t wa, float vb, uint32_t wb)
{
    asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %2, 0;\n\tsetp.ne.u32 q, %4, 0;\n\t"
                 "@p st.global.cs.f32 [%0], %1;\n\t@q st.global.cs.f32 [%0+4], %3;\n\t}" ::"l"(ptr),
                 "f"(va), "r"(wa), "f"(vb), "r"(wb)
                 : "memory");
}

// What the kernel reads for a window of n values, made on the host once a call: F(n) (the
// pair table is built from it) and 1/(n 2^23) in the output's base.
struct SwarTables {
    int F[SWAR_F];
    float inv[SWAR_F];
};

// WARPS: warps a block, side by side (WARPS x 60 columns). R: rows a warp walks down (a strip).
// AHEAD: the entering row's bytes are loaded 5 steps before their use (more registers, fewer
// warps an SM) rather than in their own step (the loads' latency hidden by other warps only).
// A lane owns two adjacent columns, A = xo0 - 2 + 2L and B = A + 1: a warp holds 64 columns
// and writes the 60 (lanes 1..30) whose windows lie inside them.
// A warp's strip whose rows and loads all lie inside the image (all but the image's first strip,
// its last one or two and its last warp of a row) runs its whole groups of 5 rows on the fast
// path: no row tests, the same n for every row, loads with no predicate, writes predicated on
// the lane alone. The rest (border strips, a strip's last rows % 5) takes the general step,
// which tests everything.
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
    const int64_t xa = xo0 - SWAR_R + 2 * lane, xb = xa + 1; // this lane's columns A and B
    const bool in_a = xa >= 0 && xa < p.W, in_b = xb >= 0 && xb < p.W;
    const uint32_t one_a = in_a ? 1u : 0u, one_b = in_b ? 1u : 0u;
    const bool inner_lane = lane >= 1 && lane <= 30;
    const bool writer_a = inner_lane && xa < p.W, writer_b = inner_lane && xb < p.W;
    const int cols_a = (int)((xa + SWAR_R < p.W ? xa + SWAR_R : p.W - 1) - (xa - SWAR_R > 0 ? xa - SWAR_R : 0) + 1);
    const int cols_b = (int)((xb + SWAR_R < p.W ? xb + SWAR_R : p.W - 1) - (xb - SWAR_R > 0 ? xb - SWAR_R : 0) + 1);
    const int na = writer_a ? cols_a : SWAR_K, nb = writer_b ? cols_b : SWAR_K; // columns of the windows
    // Rows in 32 bits: the launch keeps H under 65536 strips of at most 256 rows, and the
    // pitches under 2^31 (the fast path's offsets are 32-bit products).
    const int H = (int)p.H, ys = (int)blockIdx.y * R;
    const int rows = ys + R < H ? R : H - ys;
    const uint32_t ld = (uint32_t)p.ld_in, ldo = (uint32_t)p.ld_out;

    // inc_*[j]: the increments of the rows that leave the columns at step j (mod 5). Before the
    // first step the columns hold rows ys-3 .. ys+1 (those inside the image).
    uint32_t ia_lo[SWAR_K], ia_hi[SWAR_K], ib_lo[SWAR_K], ib_hi[SWAR_K];
    uint32_t a_lo = 0, a_hi = 0, b_lo = 0, b_hi = 0;
#pragma unroll
    for (int j = 0; j < SWAR_K; j++) {
        const int row = ys - SWAR_R - 1 + j;
        const bool row_in = row >= 0 && row < H;
        const uint32_t va = in_a && row_in ? in[row * p.ld_in + xa] : SWAR_NONE;
        const uint32_t vb = in_b && row_in ? in[row * p.ld_in + xb] : SWAR_NONE;
        swar_inc(va, ia_lo[j], ia_hi[j]);
        swar_inc(vb, ib_lo[j], ib_hi[j]);
        a_lo += ia_lo[j], a_hi += ia_hi[j], b_lo += ib_lo[j], b_hi += ib_hi[j];
    }

    // The fast path reads columns xc and xc + 1: A and B, except in the image's first warp,
    // whose lane 0 (columns -2 and -1, both outside) reads columns 0 and 1 and adds 0 (one_a,
    // one_b). A warp whose 64 columns pass the image's right edge takes the general path.
    const int64_t xc = xa < 0 ? 0 : xa;
    // AHEAD: the entering rows' bytes are loaded 5 steps ahead, into the slots they are read
    // from: cur_*[j] holds row y + 2's at step y = ys + s0 + j. src: the row that enters at the
    // group's first step (AHEAD: the row loaded then), column xc (general path: xa, xb apart).
    const uint8_t *src = in + (ys + SWAR_R) * p.ld_in + xc;
    const int64_t da = xa - xc, db = xb - xc; // the general path's columns, from src
    uint32_t cur_a[SWAR_K], cur_b[SWAR_K];
    if (AHEAD) {
#pragma unroll
        for (int j = 0; j < SWAR_K; j++, src += p.ld_in) {
            const bool row_in = ys + SWAR_R + j < H;
            cur_a[j] = in_a && row_in ? src[da] : SWAR_NONE;
            cur_b[j] = in_b && row_in ? src[db] : SWAR_NONE;
        }
    }
    float *o = out + ys * p.ld_out + (inner_lane ? xa : 0);
    const int Fa_full = t.F[SWAR_K * na], Fb_full = t.F[SWAR_K * nb];
    const float inva_full = t.inv[SWAR_K * na], invb_full = t.inv[SWAR_K * nb];
    const int *pr = pair;

    // The fast strip: every row of its whole groups has 5 rows inside the image (2 <= y <= H-3),
    // and every byte those groups load (rows up to ys + 5 groups + 1, AHEAD + 5) is inside it.
    const int fast_rows = rows - rows % SWAR_K;
    const bool fast = xo0 + SWAR_OUT + SWAR_R <= p.W && ys >= SWAR_R && ys + fast_rows + SWAR_R + (AHEAD ? SWAR_K : 0) <= H;
    int s0 = 0;
    if (fast) {
        // Step jj of a group (row ys + s0 + jj), ring slot jj % 5. Groups of 10 steps, then
        // one of 5 where left: unrolled by 10 the compiler keeps each ring value in one
        // register (unrolled by 5 it copied the whole ring back at every group's end).
        auto step = [&](const int jj) {
            const int j = jj % SWAR_K;
            uint32_t va, vb;
            const uint8_t *sj = src + (uint64_t)ld * jj;
            if (AHEAD) {
                va = cur_a[j], vb = cur_b[j];
                cur_a[j] = sj[0], cur_b[j] = sj[1];
            } else {
                va = sj[0], vb = sj[1];
            }
            uint32_t lo, hi;
            swar_inc_fast(va, one_a, lo, hi);
            a_lo += lo - ia_lo[j], a_hi += hi - ia_hi[j];
            ia_lo[j] = lo, ia_hi[j] = hi;
            swar_inc_fast(vb, one_b, lo, hi);
            b_lo += lo - ib_lo[j], b_hi += hi - ib_hi[j];
            ib_lo[j] = lo, ib_hi[j] = hi;
            int Sa, Sb;
            swar_two_windows(pr, a_lo, a_hi, b_lo, b_hi, Sa, Sb);
            // n E 2^23 >= 0: S = F(n) exactly when one bin holds the window, and otherwise
            // F(n) - sum F(c) >= n ln n - (n-1) ln(n-1) > 1 (x 2^23) against rounding of 1/2 a bin.
            float *oj = o + (uint64_t)ldo * jj;
            store2_if(oj, (float)(Fa_full - Sa) * inva_full, writer_a, (float)(Fb_full - Sb) * invb_full, writer_b);
        };
        for (; s0 + 2 * SWAR_K <= fast_rows; s0 += 2 * SWAR_K) {
#pragma unroll
            for (int jj = 0; jj < 2 * SWAR_K; jj++) step(jj);
            src += (uint64_t)ld * (2 * SWAR_K);
            o += (uint64_t)ldo * (2 * SWAR_K);
        }
        if (s0 < fast_rows) { // fast_rows is a multiple of 5: one group of 5 is left, or none
#pragma unroll
            for (int jj = 0; jj < SWAR_K; jj++) step(jj);
            src += (uint64_t)ld * SWAR_K;
            o += (uint64_t)ldo * SWAR_K;
            s0 += SWAR_K;
        }
        // The general step reads cur_*[] as loaded: a column outside the image must hold the
        // ghost value there, not its neighbour's (lane 0 of the image's first warp).
        if (AHEAD) {
#pragma unroll
            for (int j = 0; j < SWAR_K; j++) {
                if (!in_a) cur_a[j] = SWAR_NONE;
                if (!in_b) cur_b[j] = SWAR_NONE;
            }
        }
    }
    const unsigned inner = H > 2 * SWAR_R ? (unsigned)(H - 2 * SWAR_R) : 0u; // rows 2 .. H-3: y - 2 < inner
    // Whole groups of 5 steps, so that the rings of increments stay in registers; the steps
    // past the strip's last row (at most 4) compute and write nothing.
    for (; s0 < rows; s0 += SWAR_K) {
#pragma unroll
        for (int j = 0; j < SWAR_K; j++) {
            const int y = ys + s0 + j;
            // Row y + 2 enters, row y - 3 leaves (AHEAD: row y + 7's bytes are loaded for 5 steps on).
            uint32_t va, vb;
            if (AHEAD) {
                const bool row_in = y + SWAR_R + SWAR_K < H;
                va = cur_a[j], vb = cur_b[j];
                cur_a[j] = in_a && row_in ? src[da] : SWAR_NONE;
                cur_b[j] = in_b && row_in ? src[db] : SWAR_NONE;
            } else {
                const bool row_in = y + SWAR_R < H;
                va = in_a && row_in ? src[da] : SWAR_NONE;
                vb = in_b && row_in ? src[db] : SWAR_NONE;
            }
            src += p.ld_in;
            uint32_t lo, hi;
            swar_inc(va, lo, hi);
            a_lo += lo - ia_lo[j], a_hi += hi - ia_hi[j];
            ia_lo[j] = lo, ia_hi[j] = hi;
            swar_inc(vb, lo, hi);
            b_lo += lo - ib_lo[j], b_hi += hi - ib_hi[j];
            ib_lo[j] = lo, ib_hi[j] = hi;
            int Sa, Sb;
            swar_two_windows(pr, a_lo, a_hi, b_lo, b_hi, Sa, Sb);

            // Away from the image's top and bottom 2 rows n = 5 x columns (F(n) and 1/(n 2^23)
            // made once); on those rows (the same for the whole warp) n = rows_in x columns.
            int Fa = Fa_full, Fb = Fb_full;
            float inva = inva_full, invb = invb_full;
            if ((unsigned)(y - SWAR_R) >= inner) {
                const int rows_in = max(min(y + SWAR_R, H - 1) - max(y - SWAR_R, 0) + 1, 1); // <= 0 only past the image
                Fa = t.F[rows_in * na], inva = t.inv[rows_in * na];
                Fb = t.F[rows_in * nb], invb = t.inv[rows_in * nb];
            }
            const bool row_out = s0 + j < rows; // >= 0 where written (the fast path says why)
            store2_if(o, (float)(Fa - Sa) * inva, writer_a && row_out, (float)(Fb - Sb) * invb, writer_b && row_out);
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
        {.name = "warps", .help = "warps per block, side by side, 60 columns each",
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
    // Not the fast path (or pitches past 32 bits, which its offsets are): cuda-tuned at its defaults.
    if (p->k != SWAR_K || p->bins > 16 || p->ld_in > INT32_MAX || p->ld_out > INT32_MAX) {
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
