/* cpu_simd_avx512.c: the SIMD row update with 16-lane AVX-512 vectors (cpu_simd_body.h). */
#include "kernels/gemm/cpu_simd.h"

#include "core/simd_avx512.h"

#include <immintrin.h>

#define ISA_TABLE pl_gemm_simd_avx512

#include "kernels/gemm/cpu_simd_body.h"
