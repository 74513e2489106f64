/* cpu_sliding_avx512.c: cpu-sliding's vector path for k <= 7 and bins <= 64 (AVX-512 F + BW).
 * Each window then holds at most 49 values, so every count fits a byte and c log c fits a
 * float table of 32 entries (k <= 5: two registers, looked up 16 lanes at a time by one
 * vpermt2ps) or 64 (k = 7: two look-ups and a blend on bit 5 of the count).
 *
 * Layout: per bin b, a row of byte counters colcount[b][x] = how many of the k rows around the
 * current row hold b in column x (bins planes of W bytes, zero margins left and right, kept in
 * L2). Moving down one row adds the entering row and drops the leaving one: per bin, a compare
 * of 64 values with b (a mask) and a masked +1 / -1 on 64 counters. The window count of b for
 * 64 pixels at once is the sum of k shifted loads of the plane (clipped columns read the zero
 * margins). The 64 byte counts are looked up four times, the low 5 bits of each 32-bit lane
 * after shifting it by 0, 8, 16, 24 bits (vpermt2ps ignores the bits above), and summed into
 * four float accumulators; after the last bin they are put back in pixel order and
 * E = log n - S / n is stored (base 2 folded into the table and log n). No horizontal sums,
 * no per-pixel branches. The bands over threads and the row walk are cpu_sliding_bands.c's. */
#include "core/simd_avx512.h"
#include "kernels/entropy/cpu_sliding_vector.h"

#include <math.h>
#include <string.h>

enum { MARGIN = 64 }; /* zero counters left of column 0 (aligned) and right of column W-1 */

/* The counters are bins planes of pitch bytes, column x of bin b at b*pitch + MARGIN + x; the
 * last chunk of 64 columns reads r < MARGIN past it. */
static int64_t plane_pitch(int64_t W) { return MARGIN + (W + 63) / 64 * 64 + MARGIN; }

static int takes_avx512(const pl_entropy_problem *p) { return p->k <= SLIDING_MAX_K && p->bins <= SLIDING_MAX_BINS; }

/* c log c for c = 0..63 as floats (0 past k^2), in the base. */
static void plan_avx512(sliding_plan *pl)
{
    float table[64] = {0};
    for (int c = 2; c <= pl->p->k * pl->p->k; c++) table[c] = (float)(c * log((double)c) * pl->to_base);
    memcpy(pl->table, table, sizeof table);
    pl->sum_unit = 1.0;
    pl->counter_bytes = plane_pitch(pl->p->W) * pl->p->bins;
}

/* Add row `in` (may be NULL) and drop row `out` (may be NULL) from the column counters. */
static void update_avx512(const sliding_plan *pl, unsigned char *counters, const uint8_t *in, const uint8_t *out)
{
    const int64_t W = pl->p->W, pitch = plane_pitch(W);
    const int bins = pl->p->bins;
    const __m512i one = _mm512_set1_epi8(1), none = _mm512_set1_epi8((char)0xFF);
    for (int64_t x = 0; x < W; x += 64) {
        __mmask64 tail = W - x >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (W - x)) - 1);
        /* lanes past W read as 0xFF, a value no bin has */
        __m512i vin = in ? _mm512_mask_loadu_epi8(none, tail, in + x) : none;
        __m512i vout = out ? _mm512_mask_loadu_epi8(none, tail, out + x) : none;
        uint8_t *col = counters + MARGIN + x;
        for (int b = 0; b < bins; b++, col += pitch) {
            __m512i vb = _mm512_set1_epi8((char)b);
            __m512i c = _mm512_loadu_si512(col);
            c = _mm512_mask_add_epi8(c, _mm512_cmpeq_epi8_mask(vin, vb), c, one);
            c = _mm512_mask_sub_epi8(c, _mm512_cmpeq_epi8_mask(vout, vb), c, one);
            _mm512_storeu_si512(col, c);
        }
    }
}

/* Lanes of s0..s3 hold pixels 4i+0, 4i+1, 4i+2, 4i+3 (i = lane); o[q] gets pixels 16q..16q+15. */
static inline void pixel_order(__m512 s0, __m512 s1, __m512 s2, __m512 s3, __m512 o[4])
{
    const __m512i lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const __m512i hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    __m512d a_lo = _mm512_castps_pd(_mm512_permutex2var_ps(s0, lo, s1)); /* (s0,s1) pairs, i = 0..7 */
    __m512d a_hi = _mm512_castps_pd(_mm512_permutex2var_ps(s0, hi, s1)); /* i = 8..15 */
    __m512d b_lo = _mm512_castps_pd(_mm512_permutex2var_ps(s2, lo, s3));
    __m512d b_hi = _mm512_castps_pd(_mm512_permutex2var_ps(s2, hi, s3));
    const __m512i q0 = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), q1 = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
    o[0] = _mm512_castpd_ps(_mm512_permutex2var_pd(a_lo, q0, b_lo));
    o[1] = _mm512_castpd_ps(_mm512_permutex2var_pd(a_lo, q1, b_lo));
    o[2] = _mm512_castpd_ps(_mm512_permutex2var_pd(a_hi, q0, b_hi));
    o[3] = _mm512_castpd_ps(_mm512_permutex2var_pd(a_hi, q1, b_hi));
}

typedef struct row_consts {
    __m512 t[4];                  /* f(c) = c log c for c = 0..15, 16..31, 32..47, 48..63 (0 past k^2) */
    const float *logn, *inv;      /* log n and 1/n for the pixels of this row (clipped columns) */
    __m512 logn_in, inv_in;       /* the same for interior columns (n = rows * k) */
} row_consts;

/* f(count) for the low byte of each 32-bit lane of idx (the bits above it are ignored):
 * counts up to 31 (r <= 2) from one pair of registers; up to 63 (r = 3) from two pairs, the
 * one picked by bit 5 of the count. */
static inline __attribute__((always_inline)) __m512 lookup(const row_consts *rc, __m512i idx, const int r)
{
    __m512 lo = _mm512_permutex2var_ps(rc->t[0], idx, rc->t[1]);
    if (r <= 2) return lo;
    __m512 hi = _mm512_permutex2var_ps(rc->t[2], idx, rc->t[3]);
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(idx, _mm512_set1_epi32(32)), lo, hi);
}

/* One output row from the planes; r = k/2 is a constant in each inlined copy. */
static inline __attribute__((always_inline)) void window_row(const unsigned char *counters, int64_t pitch,
                                                              int bins, const row_consts *rc, float *out, int64_t W,
                                                              const int r)
{
    for (int64_t x = 0; x < W; x += 64) {
        __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        const uint8_t *col = counters + MARGIN + x;
        for (int b = 0; b < bins; b++, col += pitch) {
            __m512i w = _mm512_loadu_si512(col - r);
            for (int d = -r + 1; d <= r; d++) w = _mm512_add_epi8(w, _mm512_loadu_si512(col + d));
            s0 = _mm512_add_ps(s0, lookup(rc, w, r));
            s1 = _mm512_add_ps(s1, lookup(rc, _mm512_srli_epi32(w, 8), r));
            s2 = _mm512_add_ps(s2, lookup(rc, _mm512_srli_epi32(w, 16), r));
            s3 = _mm512_add_ps(s3, lookup(rc, _mm512_srli_epi32(w, 24), r));
        }
        __m512 o[4];
        pixel_order(s0, s1, s2, s3, o);
        int interior = x >= r && x + 64 + r <= W;
        for (int q = 0; q < 4; q++) {
            int64_t x0 = x + 16 * q;
            if (x0 >= W) break;
            __m512 ln = interior ? rc->logn_in : _mm512_maskz_loadu_ps(TAIL_MASK(W - x0), rc->logn + x0);
            __m512 iv = interior ? rc->inv_in : _mm512_maskz_loadu_ps(TAIL_MASK(W - x0), rc->inv + x0);
            __m512 e = _mm512_max_ps(_mm512_fnmadd_ps(o[q], iv, ln), _mm512_setzero_ps()); /* no -0.0000001 */
            if (W - x0 >= 16) _mm512_storeu_ps(out + x0, e);
            else _mm512_mask_storeu_ps(out + x0, TAIL_MASK(W - x0), e);
        }
    }
}

/* The counters moved down a row, then the output row (if any) from them: two walks. */
static void step_avx512(const sliding_plan *pl, unsigned char *counters, const uint8_t *enter, const uint8_t *leave,
                        const sliding_row *rw, float *out)
{
    if (enter || leave) update_avx512(pl, counters, enter, leave);
    if (!out) return;
    const float *t = (const float *)pl->table;
    const row_consts rc = {{_mm512_loadu_ps(t), _mm512_loadu_ps(t + 16), _mm512_loadu_ps(t + 32),
                            _mm512_loadu_ps(t + 48)},
                           rw->logn, rw->inv, _mm512_set1_ps(rw->logn_in), _mm512_set1_ps(rw->inv_in)};
    const int64_t W = pl->p->W, pitch = plane_pitch(W);
    const int bins = pl->p->bins;
    switch (pl->r) {
    case 0: window_row(counters, pitch, bins, &rc, out, W, 0); break;
    case 1: window_row(counters, pitch, bins, &rc, out, W, 1); break;
    case 2: window_row(counters, pitch, bins, &rc, out, W, 2); break;
    default: window_row(counters, pitch, bins, &rc, out, W, 3); break;
    }
}

const sliding_isa pl_entropy_sliding_avx512 = {takes_avx512, plan_avx512, step_avx512};
