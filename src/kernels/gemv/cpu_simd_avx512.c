/* cpu_simd_avx512.c: the cpu-simd primitives with 16-lane AVX-512 vectors (cpu_simd_body.h). */
#include "kernels/gemv/cpu_simd.h"

#include <immintrin.h>

typedef __m512 vec;
#define VW 16
#define VSET1 _mm512_set1_ps
#define VZERO _mm512_setzero_ps
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_storeu_ps
#define VFMA _mm512_fmadd_ps
#define VADD _mm512_add_ps
#define VHSUM _mm512_reduce_add_ps
#define TAIL_MASK(n) ((__mmask16)((1u << (n)) - 1u))
#define VLOAD_TAIL(ptr, n) _mm512_maskz_loadu_ps(TAIL_MASK(n), (ptr))
#define VSTORE_TAIL(ptr, v, n) _mm512_mask_storeu_ps((ptr), TAIL_MASK(n), (v))
#define ISA_TABLE pl_gemv_simd_avx512

#include "kernels/gemv/cpu_simd_body.h"
