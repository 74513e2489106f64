/* cpu_simd_avx512.c: the cpu-simd primitives with 16-lane AVX-512 vectors (cpu_simd_body.h). */
#include "kernels/reduce/cpu_simd.h"

#include "core/simd_avx512.h"

#include <immintrin.h>

typedef __mmask16 nanvec;
#define VLOAD_FILL(p, n, fill) _mm512_mask_loadu_ps(_mm512_set1_ps(fill), TAIL_MASK(n), (p))
#define NAN_ZERO ((__mmask16)0)
#define NAN_OR(s, v) ((s) |= _mm512_cmp_ps_mask((v), (v), _CMP_UNORD_Q))
#define NAN_ANY(s) ((s) != 0)
#define ISA_TABLE pl_reduce_simd_avx512

#include "kernels/reduce/cpu_simd_body.h"
