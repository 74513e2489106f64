/* cpu_simd_avx2.c: the cpu-simd primitives with 8-lane AVX2 vectors (cpu_simd_body.h). */
#include "kernels/reduce/cpu_simd.h"

#include "core/simd_avx2.h"

#include <immintrin.h>

typedef __m256 nanvec;
static inline __m256 load_fill(const float *p, int64_t n, float fill)
{
    __m256i m = tail_mask(n);
    return _mm256_blendv_ps(_mm256_set1_ps(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
}
#define VLOAD_FILL load_fill
#define NAN_ZERO _mm256_setzero_ps()
#define NAN_OR(s, v) ((s) = _mm256_or_ps((s), _mm256_cmp_ps((v), (v), _CMP_UNORD_Q)))
#define NAN_ANY(s) (_mm256_movemask_ps(s) != 0)
#define ISA_TABLE pl_reduce_simd_avx2

#include "kernels/reduce/cpu_simd_body.h"
