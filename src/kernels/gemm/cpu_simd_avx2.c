/* cpu_simd_avx2.c: the SIMD row update with 8-lane AVX2 vectors (cpu_simd_body.h). */
#include "kernels/gemm/cpu_simd.h"

#include <immintrin.h>

typedef __m256 vec;
#define VW 8
#define VSET1 _mm256_set1_ps
#define VZERO _mm256_setzero_ps
#define VLOAD _mm256_loadu_ps
#define VSTORE _mm256_storeu_ps
#define VFMA _mm256_fmadd_ps
#define VMUL _mm256_mul_ps

/* Lane l is active when l < n: compare the lane index with n. */
static inline __m256i tail_mask(int64_t n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
#define VLOAD_TAIL(ptr, n) _mm256_maskload_ps((ptr), tail_mask(n))
#define VSTORE_TAIL(ptr, v, n) _mm256_maskstore_ps((ptr), tail_mask(n), (v))
#define ISA_TABLE pl_gemm_simd_avx2

#include "kernels/gemm/cpu_simd_body.h"
