/* cpu-simd: eight elements a multiply with AVX2, the tail one by one, blocks over threads. */
#include "core/core.h"
#include "kernels/scale/scale.h"

#include <immintrin.h>

pl_status pl_scale_cpu_simd(const pl_run_args *a)
{
    const pl_scale_problem *p = a->problem;
    const float *x = a->data[0];
    float *y = a->data[1];
    const __m256 f = _mm256_set1_ps(p->a);
    const int64_t vec = p->N / 8 * 8;
#pragma omp parallel for num_threads(a->ctx->threads) schedule(static)
    for (int64_t i = 0; i < vec; i += 8) _mm256_storeu_ps(y + i, _mm256_mul_ps(f, _mm256_loadu_ps(x + i)));
    for (int64_t i = vec; i < p->N; i++) y[i] = p->a * x[i];
    return PL_OK;
}
