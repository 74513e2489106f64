/* cpu_simd_avx2.c: the SIMD row update with 8-lane AVX2 vectors (cpu_simd_body.h). */
#include "kernels/gemm/cpu_simd.h"

#include "core/simd_avx2.h"

#include <immintrin.h>

#define ISA_TABLE pl_gemm_simd_avx2

#include "kernels/gemm/cpu_simd_body.h"
