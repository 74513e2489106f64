/* cpu_simd.h: the two primitives of the cpu-simd rung, built once per ISA from
 * cpu_simd_body.h (cpu_simd_avx2.c, cpu_simd_avx512.c):
 *   dot_rows:  y[i] = alpha * dot(A[i, :], x) (+ beta*y[i])   for rows i0 <= i < i1
 *   axpy_rows: yp[j0:j1] += sum_{i0<=i<i1} (alpha*x[i]) * A[i, j0:j1]   (the A^T form) */
#ifndef PL_GEMV_CPU_SIMD_H
#define PL_GEMV_CPU_SIMD_H

#include "kernels/gemv/gemv.h"

typedef struct gemv_simd_isa {
    void (*dot_rows)(const pl_gemv_problem *p, const float *A, const float *x, float *y, int64_t i0, int64_t i1);
    void (*axpy_rows)(const pl_gemv_problem *p, const float *A, const float *x, float *yp, int64_t i0, int64_t i1,
                      int64_t j0, int64_t j1);
} gemv_simd_isa;

extern const gemv_simd_isa pl_gemv_simd_avx2, pl_gemv_simd_avx512;

#endif
