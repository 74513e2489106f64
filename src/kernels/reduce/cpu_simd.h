/* cpu_simd.h: the primitives of the cpu-simd rungs, built once per ISA from cpu_simd_body.h
 * (cpu_simd_avx2.c, cpu_simd_avx512.c). Sums (sum, mean, sumsq, dot) are pairwise: blocks of
 * RED_BLOCK elements over 4 vector accumulators, blocks combined by recursive halving, so the
 * error grows like log2(n), not n. min/max are exact with NaN tracked apart (the SIMD min/max
 * instructions drop a NaN in one operand). Results are raw: mean is not divided yet. */
#ifndef PL_REDUCE_CPU_SIMD_H
#define PL_REDUCE_CPU_SIMD_H

#include "kernels/reduce/reduce.h"

enum { RED_BLOCK = 1024 };

typedef struct reduce_simd_isa {
    /* op over x[0..n) (mean: the sum). */
    float (*row)(int op, const float *x, int64_t n);
    /* r[j] = op over rows i0..i1 of column j, for j0 <= j < j1 (mean: the sum). */
    void (*cols)(int op, const float *A, int64_t lda, int64_t i0, int64_t i1, int64_t j0, int64_t j1, float *r);
    /* sum_i x_i y_i over n elements, pairwise. */
    float (*dot)(const float *x, const float *y, int64_t n);
} reduce_simd_isa;

extern const reduce_simd_isa pl_reduce_simd_avx2, pl_reduce_simd_avx512;

#endif
