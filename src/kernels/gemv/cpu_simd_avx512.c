/* cpu_simd_avx512.c: the cpu-simd primitives with 16-lane AVX-512 vectors (cpu_simd_body.h). */
#include "kernels/gemv/cpu_simd.h"

#include "core/simd_avx512.h"

#include <immintrin.h>

#define VHSUM _mm512_reduce_add_ps
#define ISA_TABLE pl_gemv_simd_avx512

#include "kernels/gemv/cpu_simd_body.h"
