/* cpu-naive: the textbook two loops. Rows of A are read along, so B is written down its
 * columns: every store lands on a new cache line (and a new page every 1024 floats of M),
 * and a line is only full again after M more stores. Rows are shared among threads.
 * Next rung: work in tiles that fit the cache, so both sides are used whole. */
#include "core/core.h"
#include "kernels/transpose/transpose.h"

pl_status pl_transpose_cpu_naive(const pl_run_args *a)
{
    const pl_transpose_problem *p = a->problem;
    const float *A = a->data[0];
    float *B = a->data[1];
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
    for (int64_t i = 0; i < p->M; i++)
        for (int64_t j = 0; j < p->N; j++) B[j * p->ldb + i] = A[i * p->lda + j];
    return PL_OK;
}
