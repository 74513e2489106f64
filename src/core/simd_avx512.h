/* simd_avx512.h: the vector words the rooms' *_avx512.c files write their loops in (16 float
 * lanes); see simd_avx2.h. Include only from files built with -mavx512f (the *_avx512.c rule). */
#ifndef PL_CORE_SIMD_AVX512_H
#define PL_CORE_SIMD_AVX512_H

#include <immintrin.h>
#include <stdint.h>

typedef __m512 vec;
#define VW 16
#define VSET1 _mm512_set1_ps
#define VZERO _mm512_setzero_ps
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_storeu_ps
#define VFMA _mm512_fmadd_ps
#define VADD _mm512_add_ps
#define VMUL _mm512_mul_ps
#define VMIN _mm512_min_ps
#define VMAX _mm512_max_ps
/* Lanes 0..n-1 (all 16 for n >= 16). */
#define TAIL_MASK(n) ((__mmask16)((n) >= 16 ? 0xFFFFu : (1u << (n)) - 1u))
#define VLOAD_TAIL(ptr, n) _mm512_maskz_loadu_ps(TAIL_MASK(n), (ptr))
#define VSTORE_TAIL(ptr, v, n) _mm512_mask_storeu_ps((ptr), TAIL_MASK(n), (v))

#endif
