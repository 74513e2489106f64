/* peaks_avx512.c: the FMA chains that measure the AVX-512 (16 lanes) peak. Sixteen
 * independent accumulators x = x*m + a cover the FMA latency of both pipes (8 in flight
 * needed) with room to spare in the 32 zmm registers; they are written out one by one (an
 * array of __m512 lands on the stack). The chains converge to a/(1-m) = 1, so no value
 * overflows or turns denormal, and the sum is returned so that the compiler must run every
 * step. */
#include "harness/peaks.h"

#include <immintrin.h>

float pl_peaks_fma_avx512(int64_t iters)
{
    const __m512 m = _mm512_set1_ps(0.9999f), a = _mm512_set1_ps(0.0001f);
    __m512 x0 = _mm512_set1_ps(0.10f), x1 = _mm512_set1_ps(0.11f), x2 = _mm512_set1_ps(0.12f);
    __m512 x3 = _mm512_set1_ps(0.13f), x4 = _mm512_set1_ps(0.14f), x5 = _mm512_set1_ps(0.15f);
    __m512 x6 = _mm512_set1_ps(0.16f), x7 = _mm512_set1_ps(0.17f), x8 = _mm512_set1_ps(0.18f);
    __m512 x9 = _mm512_set1_ps(0.19f), x10 = _mm512_set1_ps(0.20f), x11 = _mm512_set1_ps(0.21f);
    __m512 x12 = _mm512_set1_ps(0.22f), x13 = _mm512_set1_ps(0.23f);
    __m512 x14 = _mm512_set1_ps(0.24f), x15 = _mm512_set1_ps(0.25f);
    for (int64_t i = 0; i < iters; i++) {
        x0 = _mm512_fmadd_ps(x0, m, a);
        x1 = _mm512_fmadd_ps(x1, m, a);
        x2 = _mm512_fmadd_ps(x2, m, a);
        x3 = _mm512_fmadd_ps(x3, m, a);
        x4 = _mm512_fmadd_ps(x4, m, a);
        x5 = _mm512_fmadd_ps(x5, m, a);
        x6 = _mm512_fmadd_ps(x6, m, a);
        x7 = _mm512_fmadd_ps(x7, m, a);
        x8 = _mm512_fmadd_ps(x8, m, a);
        x9 = _mm512_fmadd_ps(x9, m, a);
        x10 = _mm512_fmadd_ps(x10, m, a);
        x11 = _mm512_fmadd_ps(x11, m, a);
        x12 = _mm512_fmadd_ps(x12, m, a);
        x13 = _mm512_fmadd_ps(x13, m, a);
        x14 = _mm512_fmadd_ps(x14, m, a);
        x15 = _mm512_fmadd_ps(x15, m, a);
    }
    __m512 s0 = _mm512_add_ps(_mm512_add_ps(x0, x1), _mm512_add_ps(x2, x3));
    __m512 s1 = _mm512_add_ps(_mm512_add_ps(x4, x5), _mm512_add_ps(x6, x7));
    __m512 s2 = _mm512_add_ps(_mm512_add_ps(x8, x9), _mm512_add_ps(x10, x11));
    __m512 s3 = _mm512_add_ps(_mm512_add_ps(x12, x13), _mm512_add_ps(x14, x15));
    return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(s0, s1), _mm512_add_ps(s2, s3)));
}
