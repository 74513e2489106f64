/* simd_avx2.h: the vector words the rooms' *_avx2.c files write their loops in (8 float lanes),
 * so a SIMD body (cpu_simd_body.h of a room) is written once for AVX2 and AVX-512. Include
 * only from files built with -mavx2 -mfma (the *_avx2.c naming rule in CMakeLists.txt). */
#ifndef PL_CORE_SIMD_AVX2_H
#define PL_CORE_SIMD_AVX2_H

#include <immintrin.h>
#include <stdint.h>

typedef __m256 vec;
#define VW 8
#define VSET1 _mm256_set1_ps
#define VZERO _mm256_setzero_ps
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_storeu_ps
#define VFMA _mm256_fmadd_ps
#define VADD _mm256_add_ps
#define VMUL _mm256_mul_ps
#define VMIN _mm256_min_ps
#define VMAX _mm256_max_ps

/* Lane l is active when l < n: compare the lane index with n. */
static inline __m256i tail_mask(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#define VLOAD_TAIL(ptr, n) _mm256_maskload_ps((ptr), tail_mask(n))
#define VSTORE_TAIL(ptr, v, n) _mm256_maskstore_ps((ptr), tail_mask(n), (v))

#endif
