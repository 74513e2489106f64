/* cpu_simd_avx2.c: the cpu-simd primitives with 8-lane AVX2 vectors (cpu_simd_body.h). */
#include "kernels/gemv/cpu_simd.h"

#include <immintrin.h>

typedef __m256 vec;
#define VW 8
#define VSET1 _mm256_set1_ps
#define VZERO _mm256_setzero_ps
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_storeu_ps
#define VFMA _mm256_fmadd_ps
#define VADD _mm256_add_ps

static inline float VHSUM(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_movehdup_ps(s)));
}
/* Lane l is active when l < n. */
static inline __m256i tail_mask(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#define VLOAD_TAIL(ptr, n) _mm256_maskload_ps((ptr), tail_mask(n))
#define VSTORE_TAIL(ptr, v, n) _mm256_maskstore_ps((ptr), tail_mask(n), (v))
#define ISA_TABLE pl_gemv_simd_avx2

#include "kernels/gemv/cpu_simd_body.h"
