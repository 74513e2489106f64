/* cpu-naive: the textbook triple loop. One dot product per output, accumulated in a float,
 * walking B down a column (a new cache line every step). Rows are shared among threads.
 * Cost per output: 2K flops, K strided loads of B. Next rung: walk B along its rows. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"

pl_status pl_gemm_cpu_naive(const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    const float *A = a->data[0], *B = a->data[1];
    float *C = a->data[2];
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
    for (int64_t i = 0; i < p->M; i++) {
        for (int64_t j = 0; j < p->N; j++) {
            float sum = 0.0f;
            for (int64_t k = 0; k < p->K; k++) sum += A[i * p->lda + k] * B[k * p->ldb + j];
            float *c = &C[i * p->ldc + j];
            *c = p->beta == 0.0f ? p->alpha * sum : p->alpha * sum + p->beta * *c;
        }
    }
    return PL_OK;
}
