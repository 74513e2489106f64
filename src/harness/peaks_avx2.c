/* peaks_avx2.c: the FMA chains that measure the AVX2 (8 lanes) and the scalar FMA peak.
 * Twelve independent accumulators x = x*m + a keep both FMA pipes busy through the FMA
 * latency (4 cycles x 2 pipes = 8 in flight needed); twelve plus m and a fit the 16 ymm
 * registers without spills. The chains converge to a/(1-m) = 1, so no value overflows or
 * turns denormal, and the sum is returned so that the compiler must run every step. */
#include "harness/peaks.h"

#include <immintrin.h>

float pl_peaks_fma_avx2(int64_t iters)
{
    const __m256 m = _mm256_set1_ps(0.9999f), a = _mm256_set1_ps(0.0001f);
    __m256 x0 = _mm256_set1_ps(0.10f), x1 = _mm256_set1_ps(0.11f), x2 = _mm256_set1_ps(0.12f);
    __m256 x3 = _mm256_set1_ps(0.13f), x4 = _mm256_set1_ps(0.14f), x5 = _mm256_set1_ps(0.15f);
    __m256 x6 = _mm256_set1_ps(0.16f), x7 = _mm256_set1_ps(0.17f), x8 = _mm256_set1_ps(0.18f);
    __m256 x9 = _mm256_set1_ps(0.19f), x10 = _mm256_set1_ps(0.20f), x11 = _mm256_set1_ps(0.21f);
    for (int64_t i = 0; i < iters; i++) {
        x0 = _mm256_fmadd_ps(x0, m, a);
        x1 = _mm256_fmadd_ps(x1, m, a);
        x2 = _mm256_fmadd_ps(x2, m, a);
        x3 = _mm256_fmadd_ps(x3, m, a);
        x4 = _mm256_fmadd_ps(x4, m, a);
        x5 = _mm256_fmadd_ps(x5, m, a);
        x6 = _mm256_fmadd_ps(x6, m, a);
        x7 = _mm256_fmadd_ps(x7, m, a);
        x8 = _mm256_fmadd_ps(x8, m, a);
        x9 = _mm256_fmadd_ps(x9, m, a);
        x10 = _mm256_fmadd_ps(x10, m, a);
        x11 = _mm256_fmadd_ps(x11, m, a);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(x0, x1), _mm256_add_ps(x2, x3)),
                             _mm256_add_ps(_mm256_add_ps(x4, x5), _mm256_add_ps(x6, x7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(x8, x9), _mm256_add_ps(x10, x11)));
    float lanes[8];
    _mm256_storeu_ps(lanes, s);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3] + lanes[4] + lanes[5] + lanes[6] + lanes[7];
}

/* The same chains one lane wide (vfmadd231ss): the ceiling of code that does not vectorize. */
float pl_peaks_fma_scalar(int64_t iters)
{
    const __m128 m = _mm_set_ss(0.9999f), a = _mm_set_ss(0.0001f);
    __m128 x0 = _mm_set_ss(0.10f), x1 = _mm_set_ss(0.11f), x2 = _mm_set_ss(0.12f);
    __m128 x3 = _mm_set_ss(0.13f), x4 = _mm_set_ss(0.14f), x5 = _mm_set_ss(0.15f);
    __m128 x6 = _mm_set_ss(0.16f), x7 = _mm_set_ss(0.17f), x8 = _mm_set_ss(0.18f);
    __m128 x9 = _mm_set_ss(0.19f), x10 = _mm_set_ss(0.20f), x11 = _mm_set_ss(0.21f);
    for (int64_t i = 0; i < iters; i++) {
        x0 = _mm_fmadd_ss(x0, m, a);
        x1 = _mm_fmadd_ss(x1, m, a);
        x2 = _mm_fmadd_ss(x2, m, a);
        x3 = _mm_fmadd_ss(x3, m, a);
        x4 = _mm_fmadd_ss(x4, m, a);
        x5 = _mm_fmadd_ss(x5, m, a);
        x6 = _mm_fmadd_ss(x6, m, a);
        x7 = _mm_fmadd_ss(x7, m, a);
        x8 = _mm_fmadd_ss(x8, m, a);
        x9 = _mm_fmadd_ss(x9, m, a);
        x10 = _mm_fmadd_ss(x10, m, a);
        x11 = _mm_fmadd_ss(x11, m, a);
    }
    return _mm_cvtss_f32(x0) + _mm_cvtss_f32(x1) + _mm_cvtss_f32(x2) + _mm_cvtss_f32(x3) +
           _mm_cvtss_f32(x4) + _mm_cvtss_f32(x5) + _mm_cvtss_f32(x6) + _mm_cvtss_f32(x7) +
           _mm_cvtss_f32(x8) + _mm_cvtss_f32(x9) + _mm_cvtss_f32(x10) + _mm_cvtss_f32(x11);
}
