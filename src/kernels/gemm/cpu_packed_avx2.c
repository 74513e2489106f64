/* cpu_packed_avx2.c: the AVX2 + FMA micro-kernel of cpu-packed, 6 x 16.
 *
 * 16 ymm registers: 12 accumulators (6 rows x 2 vectors of 8), 2 for the B row, 1 for the
 * broadcast A value = 15. Per k step: 2 vector loads of B (from the L1-resident B sliver),
 * 6 broadcasts of A, 12 FMAs; with 2 FMA pipes that is 6 cycles, 8 loads: within the 2-3
 * loads a cycle of Haswell/Zen. 12 independent FMA chains cover the 4-5 cycle latency x 2
 * pipes. See cpu_packed.h for the contract. */
#include "kernels/gemm/cpu_packed.h"

#include <immintrin.h>

enum { MR = PL_PACKED_AVX2_MR, NR = PL_PACKED_AVX2_NR };

static inline __attribute__((always_inline)) void update_row(float *cr, __m256 v0, __m256 v1,
                                                             float beta, int nr, __m256i m0,
                                                             __m256i m1)
{
    if (nr == NR) {
        if (beta == 0.0f) {
        } else if (beta == 1.0f) {
            v0 = _mm256_add_ps(v0, _mm256_loadu_ps(cr));
            v1 = _mm256_add_ps(v1, _mm256_loadu_ps(cr + 8));
        } else {
            __m256 bv = _mm256_set1_ps(beta);
            v0 = _mm256_fmadd_ps(bv, _mm256_loadu_ps(cr), v0);
            v1 = _mm256_fmadd_ps(bv, _mm256_loadu_ps(cr + 8), v1);
        }
        _mm256_storeu_ps(cr, v0);
        _mm256_storeu_ps(cr + 8, v1);
        return;
    }
    /* Edge: masked loads read nothing past column nr (no fault, no NaN from poisoned C). */
    if (beta != 0.0f) {
        __m256 bv = _mm256_set1_ps(beta);
        v0 = _mm256_fmadd_ps(bv, _mm256_maskload_ps(cr, m0), v0);
        v1 = _mm256_fmadd_ps(bv, _mm256_maskload_ps(cr + 8, m1), v1);
    }
    _mm256_maskstore_ps(cr, m0, v0);
    _mm256_maskstore_ps(cr + 8, m1, v1);
}

static inline __attribute__((always_inline)) void
ukr_body(int64_t k, const float *a, int64_t lda, const int packed, const float *restrict b,
         float *c, int64_t ldc, float beta, int mr, int nr)
{
    __m256 acc[MR][2];
#pragma GCC unroll 6
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
    for (int i = 0; i < mr; i++) {
        _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + i * ldc + NR - 1), _MM_HINT_T0);
    }
    if (packed) {
        const float *restrict ap = a;
#pragma GCC unroll 4
        for (int64_t p = 0; p < k; p++) {
            __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
            for (int i = 0; i < MR; i++) {
                __m256 av = _mm256_broadcast_ss(ap + i);
                acc[i][0] = _mm256_fmadd_ps(av, b0, acc[i][0]);
                acc[i][1] = _mm256_fmadd_ps(av, b1, acc[i][1]);
            }
            ap += MR;
            b += NR;
        }
    } else {
        const float *ar[MR];
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) ar[i] = a + (i < mr ? i : mr - 1) * lda;
#pragma GCC unroll 4
        for (int64_t p = 0; p < k; p++) {
            __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
            for (int i = 0; i < MR; i++) {
                __m256 av = _mm256_broadcast_ss(ar[i] + p);
                acc[i][0] = _mm256_fmadd_ps(av, b0, acc[i][0]);
                acc[i][1] = _mm256_fmadd_ps(av, b1, acc[i][1]);
            }
            b += NR;
        }
    }
    __m256i m0 = _mm256_setzero_si256(), m1 = m0;
    if (nr < NR) {
        const __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        m0 = _mm256_cmpgt_epi32(_mm256_set1_epi32(nr), idx);
        m1 = _mm256_cmpgt_epi32(_mm256_set1_epi32(nr - 8), idx);
    }
    if (mr == MR) {
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) update_row(c + i * ldc, acc[i][0], acc[i][1], beta, nr, m0, m1);
    } else {
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++)
            if (i < mr) update_row(c + i * ldc, acc[i][0], acc[i][1], beta, nr, m0, m1);
    }
}

void pl_packed_ukr_avx2(int64_t k, const float *a, int64_t lda, const float *b, float *c,
                        int64_t ldc, float beta, int mr, int nr)
{
    if (lda == 0)
        ukr_body(k, a, 0, 1, b, c, ldc, beta, mr, nr);
    else
        ukr_body(k, a, lda, 0, b, c, ldc, beta, mr, nr);
}
