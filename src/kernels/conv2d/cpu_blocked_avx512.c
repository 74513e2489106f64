/* cpu_blocked_avx512.c: cpu-blocked's inner kernel with 16-lane AVX-512 vectors
 * (cpu_blocked_body.h), float32 (FMA) and int32 (multiply-low and add). */
#include "kernels/conv2d/cpu_blocked.h"

#include "core/simd_avx512.h"

/* 4 rows x 4 vectors: 16 accumulators, 4 inputs and a weight in the 32 vector registers. */
#define UB 4
#define T float
#define V __m512
#define VZ() _mm512_setzero_ps()
#define VB(s) _mm512_set1_ps(s)
#define VL(p) _mm512_loadu_ps(p)
#define VS(p, v) _mm512_storeu_ps((p), (v))
#define VLM(p, n) _mm512_maskz_loadu_ps(TAIL_MASK(n), (p))
#define VSM(p, v, n) _mm512_mask_storeu_ps((p), TAIL_MASK(n), (v))
#define VMA(acc, w, x) _mm512_fmadd_ps((w), (x), (acc))
#define VNT(p, v) _mm512_stream_ps((p), (v))
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
#define V __m512i
#define VZ() _mm512_setzero_si512()
#define VB(s) _mm512_set1_epi32(s)
#define VL(p) _mm512_loadu_si512(p)
#define VS(p, v) _mm512_storeu_si512((p), (v))
#define VLM(p, n) _mm512_maskz_loadu_epi32(TAIL_MASK(n), (p))
#define VSM(p, v, n) _mm512_mask_storeu_epi32((p), TAIL_MASK(n), (v))
#define VMA(acc, w, x) _mm512_add_epi32((acc), _mm512_mullo_epi32((w), (x)))
#define VNT(p, v) _mm512_stream_si512((void *)(p), (v))
#define FN(name) i32_##name
#include "kernels/conv2d/cpu_blocked_body.h"

const conv2d_simd_isa pl_conv2d_simd_avx512 = {f32_any_k, i32_any_k};
