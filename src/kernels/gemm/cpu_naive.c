/* cpu-naive: the textbook triple loop. One dot product per output, accumulated in a float,
 * walking B down a column (a new cache line every step). Rows are shared among threads.
 * Cost per output: 2K flops, K strided loads of B. Next rung: walk B along its rows.
 * cpu-naive-bf16: the same loop on bfloat16 A and B, each element widened to float (exact) as
 * it is read, so the contract of the BF16 rungs (bfloat16 in, FP32 accumulate, FP32 out) has
 * a rung that runs without a GPU. */
#include "core/bf16.h"
#include "core/core.h"
#include "kernels/gemm/gemm.h"

/* The loop once per element type: LOAD(X, i) reads element i of A or B as a float. */
#define NAIVE_LOOP(T, LOAD)                                                                                     \
    do {                                                                                                        \
        const pl_gemm_problem *p = a->problem;                                                                  \
        const T *A = a->data[0], *B = a->data[1];                                                               \
        float *C = a->data[2];                                                                                  \
        _Pragma("omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)")                        \
        for (int64_t i = 0; i < p->M; i++) {                                                                    \
            for (int64_t j = 0; j < p->N; j++) {                                                                \
                float sum = 0.0f;                                                                               \
                for (int64_t k = 0; k < p->K; k++) sum += LOAD(A, i * p->lda + k) * LOAD(B, k * p->ldb + j);    \
                float *c = &C[i * p->ldc + j];                                                                  \
                *c = p->beta == 0.0f ? p->alpha * sum : p->alpha * sum + p->beta * *c;                          \
            }                                                                                                   \
        }                                                                                                       \
    } while (0)

#define LOAD_F32(X, i) (X)[i]
#define LOAD_BF16(X, i) pl_bf16_widen((X)[i])

pl_status pl_gemm_cpu_naive(const pl_run_args *a)
{
    NAIVE_LOOP(float, LOAD_F32);
    return PL_OK;
}

pl_status pl_gemm_cpu_naive_bf16(const pl_run_args *a)
{
    NAIVE_LOOP(uint16_t, LOAD_BF16);
    return PL_OK;
}
