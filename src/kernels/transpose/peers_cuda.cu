// peers_cuda.cu: cuBLAS's transpose as the GPU peer: cublasSgeam computes
// C = alpha op(A) + beta op(B) column-major. Row-major A (M x N, lda) is column-major N x M;
// row-major B (N x M, ldb) is column-major M x N; so C = A^T in column-major terms is
// geam(OP_T, OP_N, m = M, n = N, 1, A, lda, 0, B, ldb, B, ldb). With beta = 0 the second
// operand is B itself in the in-place form cuBLAS allows (C == B, ldc == ldb, OP_N). The handle
// is the context's PL_CTX_HANDLE_CUBLAS slot (shared with the other rooms' cuBLAS peers).
#include "core/core.h"
#include "kernels/transpose/transpose.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <limits.h>

extern "C" pl_status pl_transpose_peer_cublas(const pl_run_args *a)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    if (p->M > INT_MAX || p->N > INT_MAX || p->lda > INT_MAX || p->ldb > INT_MAX)
        return pl_fail(PL_ERR_ARG, "peer-cublas: sizes above 2^31 do not fit cuBLAS's int");
    void *hv = nullptr;
    pl_status s = pl_ctx_cublas(a->ctx, a->stream, &hv);
    if (s != PL_OK) return s;
    cublasHandle_t h = (cublasHandle_t)hv;
    const float one = 1.0f, zero = 0.0f;
    float *B = (float *)a->data[1];
    cublasStatus_t st = cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, (int)p->M, (int)p->N, &one,
                                    (const float *)a->data[0], (int)p->lda, &zero, B, (int)p->ldb, B, (int)p->ldb);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cublas: cublasSgeam failed (%s)", cublasGetStatusString(st));
    return PL_OK;
}
