/* cpu_simd_avx512.c: the cpu-simd primitives with 16-lane AVX-512 vectors (cpu_simd_body.h). */
#include "kernels/reduce/cpu_simd.h"

#include <immintrin.h>

typedef __m512 vec;
typedef __mmask16 nanvec;
#define VW 16
#define VZERO _mm512_setzero_ps
#define VSET1 _mm512_set1_ps
#define VLOAD _mm512_loadu_ps
#define VSTORE _mm512_storeu_ps
#define VADD _mm512_add_ps
#define VMUL _mm512_mul_ps
#define VFMA _mm512_fmadd_ps
#define VMIN _mm512_min_ps
#define VMAX _mm512_max_ps
#define TAIL_MASK(n) ((__mmask16)((n) >= 16 ? 0xFFFFu : (1u << (n)) - 1u))
#define VLOAD_FILL(p, n, fill) _mm512_mask_loadu_ps(_mm512_set1_ps(fill), TAIL_MASK(n), (p))
#define NAN_ZERO ((__mmask16)0)
#define NAN_OR(s, v) ((s) |= _mm512_cmp_ps_mask((v), (v), _CMP_UNORD_Q))
#define NAN_ANY(s) ((s) != 0)
#define ISA_TABLE pl_reduce_simd_avx512

#include "kernels/reduce/cpu_simd_body.h"
