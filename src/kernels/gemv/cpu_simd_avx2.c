/* cpu_simd_avx2.c: the cpu-simd primitives with 8-lane AVX2 vectors (cpu_simd_body.h). */
#include "kernels/gemv/cpu_simd.h"

#include "core/simd_avx2.h"

#include <immintrin.h>

static inline float VHSUM(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}
#define ISA_TABLE pl_gemv_simd_avx2

#include "kernels/gemv/cpu_simd_body.h"
