/* cpu-naive: the textbook loop. One dot product per output, accumulated in a float; rows of
 * the output shared among threads. y = A*x walks each row of A along memory; y = A^T*x walks
 * a column of A, one float per 64-byte line (a cache miss per term at large sizes).
 * Cost per output: K multiply-adds, K loads of A. Next rung: SIMD, and A^T read along rows. */
#include "core/core.h"
#include "kernels/gemv/gemv.h"

pl_status pl_gemv_cpu_naive(const pl_run_args *a)
{
    const pl_gemv_problem *p = a->problem;
    const float *A = a->data[0], *x = a->data[1];
    float *y = a->data[2];
    const int64_t ny = pl_gemv_ylen(p), nk = pl_gemv_xlen(p);
    const int64_t si = pl_gemv_stride_i(p), sk = pl_gemv_stride_k(p);
#pragma omp parallel for num_threads(pl_ctx_threads(a->ctx)) schedule(static)
    for (int64_t i = 0; i < ny; i++) {
        float sum = 0.0f;
        for (int64_t k = 0; k < nk; k++) sum += A[i * si + k * sk] * x[k];
        y[i] = p->beta == 0.0f ? p->alpha * sum : p->alpha * sum + p->beta * y[i];
    }
    return PL_OK;
}
