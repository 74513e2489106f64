// peers_cuda.cu: cuBLAS SGEMV as the GPU peer, behind the same contract as a rung. cuBLAS is
// column-major: row-major A (M x N, lda) is its N x M matrix A^T with the same lda, so
// y = A*x is cublasSgemv(OP_T, N, M) and y = A^T*x is cublasSgemv(OP_N, N, M). The handle is
// the context's PL_CTX_HANDLE_CUBLAS slot (shared with the GEMM peers), made on first use.
#include "core/core.h"
#include "kernels/gemv/gemv.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <limits.h>

extern "C" pl_status pl_gemv_peer_cublas(const pl_run_args *a)
{
    const pl_gemv_problem *p = (const pl_gemv_problem *)a->problem;
    if (p->M > INT_MAX || p->N > INT_MAX || p->lda > INT_MAX)
        return pl_fail(PL_ERR_ARG, "peer-cublas: sizes above 2^31 do not fit cuBLAS's int");
    void *hv = nullptr;
    pl_status s = pl_ctx_cublas(a->ctx, a->stream, &hv);
    if (s != PL_OK) return s;
    cublasHandle_t h = (cublasHandle_t)hv;
    if (cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cublas: cublasSetMathMode failed");
    cublasStatus_t st = cublasSgemv(h, p->trans ? CUBLAS_OP_N : CUBLAS_OP_T, (int)p->N, (int)p->M, &p->alpha,
                                    (const float *)a->data[0], (int)p->lda, (const float *)a->data[1], 1, &p->beta,
                                    (float *)a->data[2], 1);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cublas: cublasSgemv failed (%s)", cublasGetStatusString(st));
    return PL_OK;
}
