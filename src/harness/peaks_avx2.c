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

/* The integer/bitwise chains (8 lanes of 32 bits): each trip runs vpxor, vpaddd, vpxor,
 * vpaddd on each of 12 chains: 4 ops x 8 lanes a chain (AVX2 has no 3-input logic op). The
 * empty asm after each op makes every chain value opaque to the compiler, so that it cannot
 * fold x ^ a ^ a or merge the adds. */
#define KEEP12()                                                                                   \
    __asm__ __volatile__("" : "+x"(x0), "+x"(x1), "+x"(x2), "+x"(x3), "+x"(x4), "+x"(x5),          \
                         "+x"(x6), "+x"(x7), "+x"(x8), "+x"(x9), "+x"(x10), "+x"(x11))
#define XOR(x) x = _mm256_xor_si256(x, a)
#define ADD(x) x = _mm256_add_epi32(x, b)
#define ALL12(OP)                                                                                  \
    OP(x0); OP(x1); OP(x2); OP(x3); OP(x4); OP(x5); OP(x6); OP(x7); OP(x8); OP(x9); OP(x10); OP(x11)

float pl_peaks_int_avx2(int64_t iters)
{
    const __m256i a = _mm256_set1_epi32(0x9E3779B9), b = _mm256_set1_epi32(0x7F4A7C15);
    __m256i x0 = _mm256_set1_epi32(1), x1 = _mm256_set1_epi32(2), x2 = _mm256_set1_epi32(3);
    __m256i x3 = _mm256_set1_epi32(4), x4 = _mm256_set1_epi32(5), x5 = _mm256_set1_epi32(6);
    __m256i x6 = _mm256_set1_epi32(7), x7 = _mm256_set1_epi32(8), x8 = _mm256_set1_epi32(9);
    __m256i x9 = _mm256_set1_epi32(10), x10 = _mm256_set1_epi32(11), x11 = _mm256_set1_epi32(12);
    for (int64_t i = 0; i < iters; i++) {
        ALL12(XOR);
        KEEP12();
        ALL12(ADD);
        KEEP12();
        ALL12(XOR);
        KEEP12();
        ALL12(ADD);
        KEEP12();
    }
    __m256i s = _mm256_xor_si256(_mm256_xor_si256(_mm256_xor_si256(x0, x1), _mm256_xor_si256(x2, x3)),
                                 _mm256_xor_si256(_mm256_xor_si256(x4, x5), _mm256_xor_si256(x6, x7)));
    s = _mm256_add_epi32(s, _mm256_xor_si256(_mm256_xor_si256(x8, x9), _mm256_xor_si256(x10, x11)));
    unsigned lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, s);
    unsigned t = 0;
    for (int i = 0; i < 8; i++) t += lanes[i];
    return (float)(t & 0xFFFF);
}

/* ---------------------------------------------------------------- memory streams, 8 lanes */

#include "core/simd_avx2.h"
#define VSTREAM _mm256_stream_ps
#define STREAMS_SUFFIX avx2
#include "harness/peaks_streams_body.h"
