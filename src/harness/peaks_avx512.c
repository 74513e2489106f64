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

/* The integer/bitwise chains (16 lanes of 32 bits): each trip runs vpternlogd (x ^ a ^ b, the
 * sum bit of a full adder, as bit-sliced code uses it), vpaddd, vpternlogd, vpaddd on each of
 * 16 chains: 4 ops x 16 lanes a chain. The empty asm after each op makes every chain value
 * opaque to the compiler, so that it cannot fold x ^ a ^ b ^ a ^ b or merge the adds. */
#define KEEP16() /* two statements: an asm takes at most 30 operands, "+v" counts two */       \
    __asm__ __volatile__("" : "+v"(x0), "+v"(x1), "+v"(x2), "+v"(x3), "+v"(x4), "+v"(x5),          \
                         "+v"(x6), "+v"(x7));                                                      \
    __asm__ __volatile__("" : "+v"(x8), "+v"(x9), "+v"(x10), "+v"(x11), "+v"(x12), "+v"(x13),      \
                         "+v"(x14), "+v"(x15))
#define TERN(x) x = _mm512_ternarylogic_epi32(x, a, b, 0x96)
#define ADD(x) x = _mm512_add_epi32(x, a)
#define ALL16(OP)                                                                                  \
    OP(x0); OP(x1); OP(x2); OP(x3); OP(x4); OP(x5); OP(x6); OP(x7);                                \
    OP(x8); OP(x9); OP(x10); OP(x11); OP(x12); OP(x13); OP(x14); OP(x15)

float pl_peaks_int_avx512(int64_t iters)
{
    const __m512i a = _mm512_set1_epi32(0x9E3779B9), b = _mm512_set1_epi32(0x7F4A7C15);
    __m512i x0 = _mm512_set1_epi32(1), x1 = _mm512_set1_epi32(2), x2 = _mm512_set1_epi32(3);
    __m512i x3 = _mm512_set1_epi32(4), x4 = _mm512_set1_epi32(5), x5 = _mm512_set1_epi32(6);
    __m512i x6 = _mm512_set1_epi32(7), x7 = _mm512_set1_epi32(8), x8 = _mm512_set1_epi32(9);
    __m512i x9 = _mm512_set1_epi32(10), x10 = _mm512_set1_epi32(11), x11 = _mm512_set1_epi32(12);
    __m512i x12 = _mm512_set1_epi32(13), x13 = _mm512_set1_epi32(14);
    __m512i x14 = _mm512_set1_epi32(15), x15 = _mm512_set1_epi32(16);
    for (int64_t i = 0; i < iters; i++) {
        ALL16(TERN);
        KEEP16();
        ALL16(ADD);
        KEEP16();
        ALL16(TERN);
        KEEP16();
        ALL16(ADD);
        KEEP16();
    }
    __m512i s0 = _mm512_xor_si512(_mm512_xor_si512(x0, x1), _mm512_xor_si512(x2, x3));
    __m512i s1 = _mm512_xor_si512(_mm512_xor_si512(x4, x5), _mm512_xor_si512(x6, x7));
    __m512i s2 = _mm512_xor_si512(_mm512_xor_si512(x8, x9), _mm512_xor_si512(x10, x11));
    __m512i s3 = _mm512_xor_si512(_mm512_xor_si512(x12, x13), _mm512_xor_si512(x14, x15));
    unsigned lanes[16], t = 0; /* unsigned: _mm512_reduce_add_epi32 adds as int (may overflow) */
    _mm512_storeu_si512(lanes, _mm512_add_epi32(_mm512_add_epi32(s0, s1), _mm512_add_epi32(s2, s3)));
    for (int i = 0; i < 16; i++) t += lanes[i];
    return (float)(t & 0xFFFF);
}

/* ---------------------------------------------------------------- memory streams, 16 lanes */

#include "core/simd_avx512.h"
#define VSTREAM _mm512_stream_ps
#define STREAMS_SUFFIX avx512
#include "harness/peaks_streams_body.h"
