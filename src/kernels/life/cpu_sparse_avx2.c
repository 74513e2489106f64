/* cpu_sparse_avx2.c: cpu-sparse's Conway row step, four 64-cell rows in one 256-bit vector
 * (sparse_rows.h). The same row sums as the scalar step in cpu_sparse.c: each row's west + self
 * + east as a 2-bit number (h0, h1), the three rows' numbers added into the nine cells' total
 * t, alive next where t == 3 or t == 4 and alive now. The rows above and below come from loads
 * one row up and one row down, so a block's sums are made three times over (no shuffles); the
 * change summary is four movemasks. Built with -mavx2 (CMakeLists.txt: *_avx2.c). */
#include "kernels/life/sparse_rows.h"

#include <immintrin.h>

/* Rows r .. r+3 of the column as (h0, h1): x + its west and east neighbours, bitwise. */
static inline void row_sums(const uint64_t *west, const uint64_t *mid, const uint64_t *east, int r, __m256i *h0,
                            __m256i *h1, __m256i *x_out)
{
    const __m256i x = _mm256_loadu_si256((const __m256i *)(mid + r));
    const __m256i wn = _mm256_loadu_si256((const __m256i *)(west + r));
    const __m256i en = _mm256_loadu_si256((const __m256i *)(east + r));
    const __m256i w = _mm256_or_si256(_mm256_slli_epi64(x, 1), _mm256_srli_epi64(wn, 63));
    const __m256i e = _mm256_or_si256(_mm256_srli_epi64(x, 1), _mm256_slli_epi64(en, 63));
    const __m256i wx = _mm256_xor_si256(w, x);
    *h0 = _mm256_xor_si256(wx, e);
    *h1 = _mm256_or_si256(_mm256_and_si256(w, x), _mm256_and_si256(wx, e));
    if (x_out) *x_out = x;
}

/* Bit i of the result: lane i of v is not zero. */
static inline unsigned nonzero_lanes(__m256i v)
{
    const __m256i zero = _mm256_cmpeq_epi64(v, _mm256_setzero_si256());
    return ~(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(zero)) & 0xFu;
}

void pl_life_sparse_conway_blocks_avx2(const uint64_t *west, const uint64_t *mid, const uint64_t *east,
                                       uint64_t *out, uint32_t blocks, life_rows_summary *sum)
{
    const __m256i one = _mm256_set1_epi64x(1);
    for (; blocks; blocks &= blocks - 1) {
        const int r = 4 * __builtin_ctz(blocks);
        __m256i a0, a1, b0, b1, c0, c1, alive;
        row_sums(west, mid, east, r - 1, &a0, &a1, NULL);
        row_sums(west, mid, east, r, &b0, &b1, &alive);
        row_sums(west, mid, east, r + 1, &c0, &c1, NULL);
        /* t = a + b + c: bit 0 and its carry, then the weight-2 bits and their carries */
        const __m256i ab0 = _mm256_xor_si256(a0, b0), ab1 = _mm256_xor_si256(a1, b1);
        const __m256i t0 = _mm256_xor_si256(ab0, c0);
        const __m256i k0 = _mm256_or_si256(_mm256_and_si256(a0, b0), _mm256_and_si256(ab0, c0));
        const __m256i u = _mm256_xor_si256(ab1, c1);
        const __m256i v = _mm256_or_si256(_mm256_and_si256(a1, b1), _mm256_and_si256(ab1, c1));
        const __m256i t1 = _mm256_xor_si256(u, k0), k1 = _mm256_and_si256(u, k0);
        const __m256i t2 = _mm256_xor_si256(v, k1), t3 = _mm256_and_si256(v, k1);
        /* three: t0 t1 and not (t2 | t3); four: t2 and not (t0 | t1 | t3) */
        const __m256i three = _mm256_andnot_si256(_mm256_or_si256(t2, t3), _mm256_and_si256(t0, t1));
        const __m256i four = _mm256_andnot_si256(_mm256_or_si256(_mm256_or_si256(t0, t1), t3), t2);
        const __m256i next = _mm256_or_si256(three, _mm256_and_si256(four, alive));
        const __m256i before = _mm256_loadu_si256((const __m256i *)(out + r));
        _mm256_storeu_si256((__m256i *)(out + r), next);
        const __m256i d = _mm256_xor_si256(next, alive);
        const uint64_t rows = nonzero_lanes(d), west_bits = nonzero_lanes(_mm256_and_si256(d, one));
        const uint64_t east_bits = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(d)); /* bit 63 of each lane */
        sum->rows |= rows << r;
        sum->west |= west_bits << r;
        sum->east |= east_bits << r;
        sum->chg2 |= (uint64_t)nonzero_lanes(_mm256_xor_si256(next, before)) << r;
        sum->live |= (uint64_t)nonzero_lanes(next) << r;
    }
}
