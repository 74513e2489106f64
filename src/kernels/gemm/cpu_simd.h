/* cpu_simd.h: the one primitive the cpu-simd and cpu-simd-blocked rungs share, built once
 * per ISA from cpu_simd_body.h (cpu_simd_avx2.c, cpu_simd_avx512.c):
 *   C[i, j0:j1] = beta*C[i, j0:j1]                      (scale_rows; beta == 0 writes 0)
 *   C[i, j0:j1] += alpha * sum_{k0<=k<k1} A[i,k] * B[k, j0:j1]   (update_rows)
 * for rows i0 <= i < i1: broadcast one A element, FMA it against a vector of B's row. */
#ifndef PL_GEMM_CPU_SIMD_H
#define PL_GEMM_CPU_SIMD_H

#include "kernels/gemm/gemm.h"

typedef struct gemm_simd_isa {
    void (*scale_rows)(const pl_gemm_problem *p, float *C, int64_t i0, int64_t i1);
    void (*update_rows)(const pl_gemm_problem *p, const float *A, const float *B, float *C,
                        int64_t i0, int64_t i1, int64_t k0, int64_t k1, int64_t j0, int64_t j1);
} gemm_simd_isa;

extern const gemm_simd_isa pl_gemm_simd_avx2, pl_gemm_simd_avx512;

#endif
