/* cpu_packed_avx512.c: the AVX-512 micro-kernel of cpu-packed, 12 x 32.
 *
 * 32 zmm registers: 24 accumulators (12 rows x 2 vectors of 16), 2 for the B row; A values
 * come as embedded-broadcast memory operands of the FMAs (vfmadd231ps (mem){1to16}), so no
 * register holds them. Per k step: 2 vector loads of B (the B sliver is twice L1d at the auto
 * KC: half of it comes from L2), 12 broadcast loads of A (L2-streamed A sliver), 24 FMAs =
 * 12 cycles on 2 x 512-bit FMA pipes, 14 loads: ~1.2 a cycle, well inside 2-4 loads a cycle. 24 independent chains cover latency 4 x 2
 * pipes (8 needed) three times over. The layout is BLIS's skx sgemm (32 x 12, column-major
 * C) transposed for row-major C. See cpu_packed.h for the contract. */
#include "kernels/gemm/cpu_packed.h"

#include <immintrin.h>

enum { MR = PL_PACKED_AVX512_MR, NR = PL_PACKED_AVX512_NR };

static inline __attribute__((always_inline)) void update_row(float *cr, __m512 v0, __m512 v1,
                                                             float beta, int nr, __mmask16 m0,
                                                             __mmask16 m1)
{
    if (nr == NR) {
        if (beta == 0.0f) {
        } else if (beta == 1.0f) {
            v0 = _mm512_add_ps(v0, _mm512_loadu_ps(cr));
            v1 = _mm512_add_ps(v1, _mm512_loadu_ps(cr + 16));
        } else {
            __m512 bv = _mm512_set1_ps(beta);
            v0 = _mm512_fmadd_ps(bv, _mm512_loadu_ps(cr), v0);
            v1 = _mm512_fmadd_ps(bv, _mm512_loadu_ps(cr + 16), v1);
        }
        _mm512_storeu_ps(cr, v0);
        _mm512_storeu_ps(cr + 16, v1);
        return;
    }
    /* Edge: masked loads read nothing past column nr (no fault, no NaN from poisoned C). */
    if (beta != 0.0f) {
        __m512 bv = _mm512_set1_ps(beta);
        v0 = _mm512_fmadd_ps(bv, _mm512_maskz_loadu_ps(m0, cr), v0);
        v1 = _mm512_fmadd_ps(bv, _mm512_maskz_loadu_ps(m1, cr + 16), v1);
    }
    _mm512_mask_storeu_ps(cr, m0, v0);
    _mm512_mask_storeu_ps(cr + 16, m1, v1);
}

static inline __attribute__((always_inline)) void
ukr_body(int64_t k, const float *a, int64_t lda, const int packed, const float *restrict b,
         float *c, int64_t ldc, float beta, int mr, int nr)
{
    __m512 acc[MR][2];
#pragma GCC unroll 12
    for (int i = 0; i < MR; i++) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
    for (int i = 0; i < mr; i++) {
        _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + i * ldc + NR - 1), _MM_HINT_T0);
    }
    if (packed) {
        const float *restrict ap = a;
#pragma GCC unroll 4
        for (int64_t p = 0; p < k; p++) {
            __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 12
            for (int i = 0; i < MR; i++) {
                __m512 av = _mm512_set1_ps(ap[i]);
                acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
                acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
            }
            ap += MR;
            b += NR;
        }
    } else {
        const float *ar[MR];
#pragma GCC unroll 12
        for (int i = 0; i < MR; i++) ar[i] = a + (i < mr ? i : mr - 1) * lda;
#pragma GCC unroll 2
        for (int64_t p = 0; p < k; p++) {
            __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 12
            for (int i = 0; i < MR; i++) {
                __m512 av = _mm512_set1_ps(ar[i][p]);
                acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
                acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
            }
            b += NR;
        }
    }
    __mmask16 m0 = 0xFFFF, m1 = 0xFFFF;
    if (nr < NR) {
        m0 = (__mmask16)(nr >= 16 ? 0xFFFFu : (1u << nr) - 1u);
        m1 = (__mmask16)(nr <= 16 ? 0u : (1u << (nr - 16)) - 1u);
    }
    if (mr == MR) {
#pragma GCC unroll 12
        for (int i = 0; i < MR; i++) update_row(c + i * ldc, acc[i][0], acc[i][1], beta, nr, m0, m1);
    } else {
#pragma GCC unroll 12
        for (int i = 0; i < MR; i++)
            if (i < mr) update_row(c + i * ldc, acc[i][0], acc[i][1], beta, nr, m0, m1);
    }
}

void pl_packed_ukr_avx512(int64_t k, const float *a, int64_t lda, const float *b, float *c,
                          int64_t ldc, float beta, int mr, int nr)
{
    if (lda == 0)
        ukr_body(k, a, 0, 1, b, c, ldc, beta, mr, nr);
    else
        ukr_body(k, a, lda, 0, b, c, ldc, beta, mr, nr);
}
