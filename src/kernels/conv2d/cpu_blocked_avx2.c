/* cpu_blocked_avx2.c: cpu-blocked's inner kernel with 8-lane AVX2 vectors
 * (cpu_blocked_body.h), float32 (FMA) and int32 (multiply-low and add). */
#include "kernels/conv2d/cpu_blocked.h"

#include "core/simd_avx2.h"

/* 4 rows x 2 vectors: 8 accumulators, 2 inputs and a weight in the 16 vector registers. */
#define UB 2
#define T float
#define V __m256
#define VZ() _mm256_setzero_ps()
#define VB(s) _mm256_set1_ps(s)
#define VL(p) _mm256_loadu_ps(p)
#define VS(p, v) _mm256_storeu_ps((p), (v))
#define VLM(p, n) _mm256_maskload_ps((p), tail_mask(n))
#define VSM(p, v, n) _mm256_maskstore_ps((p), tail_mask(n), (v))
#define VMA(acc, w, x) _mm256_fmadd_ps((w), (x), (acc))
#define VNT(p, v) _mm256_stream_ps((p), (v))
#define FN(name) f32_##name
#include "kernels/conv2d/cpu_blocked_body.h"
#undef T
#undef V
#undef VZ
#undef VB
#undef VL
#undef VS
#undef VLM
#undef VSM
#undef VMA
#undef VNT
#undef FN

#define T int32_t
#define V __m256i
#define VZ() _mm256_setzero_si256()
#define VB(s) _mm256_set1_epi32(s)
#define VL(p) _mm256_loadu_si256((const __m256i *)(p))
#define VS(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define VLM(p, n) _mm256_maskload_epi32((const int *)(p), tail_mask(n))
#define VSM(p, v, n) _mm256_maskstore_epi32((int *)(p), tail_mask(n), (v))
#define VMA(acc, w, x) _mm256_add_epi32((acc), _mm256_mullo_epi32((w), (x)))
#define VNT(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#define FN(name) i32_##name
#include "kernels/conv2d/cpu_blocked_body.h"

const conv2d_simd_isa pl_conv2d_simd_avx2 = {f32_any_k, i32_any_k};
