// peers_cuda.cu: cuBLAS SGEMM as the GPU peer, behind the same contract as a rung.
// Row-major C = A*B is column-major C^T = B^T * A^T, so cuBLAS gets (B, A) swapped with no
// transposes. Two math modes: FP32 on the CUDA cores (pedantic: no TF32 shortcuts) and TF32
// on the tensor cores; and BF16 (cublasGemmEx: bfloat16 A and B, FP32 C, FP32 compute, the
// default algorithm, which takes the tensor cores). The handle is the context's PL_CTX_HANDLE_CUBLAS slot, created on first
// use (on the context's device) and destroyed with the context.
#include "core/core.h"
#include "kernels/gemm/gemm.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <limits.h>

// The context's handle in math mode `mode`, the sizes checked against cuBLAS's int.
static pl_status cublas_handle(const pl_run_args *a, cublasMath_t mode, const char *name, cublasHandle_t *h)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    if (p->M > INT_MAX || p->N > INT_MAX || p->K > INT_MAX || p->lda > INT_MAX || p->ldb > INT_MAX ||
        p->ldc > INT_MAX)
        return pl_fail(PL_ERR_ARG, "%s: sizes above 2^31 do not fit cuBLAS's int", name);
    void *hv = nullptr;
    pl_status s = pl_ctx_cublas(a->ctx, a->stream, &hv);
    if (s != PL_OK) return s;
    *h = (cublasHandle_t)hv;
    if (cublasSetMathMode(*h, mode) != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "%s: cublasSetMathMode failed", name);
    return PL_OK;
}

static pl_status run_cublas(const pl_run_args *a, cublasMath_t mode, const char *name)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    cublasHandle_t h;
    pl_status s = cublas_handle(a, mode, name, &h);
    if (s != PL_OK) return s;
    cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)p->N, (int)p->M, (int)p->K,
                                    &p->alpha, (const float *)a->data[1], (int)p->ldb,
                                    (const float *)a->data[0], (int)p->lda, &p->beta,
                                    (float *)a->data[2], (int)p->ldc);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "%s: cublasSgemm failed (%s)", name, cublasGetStatusString(st));
    return PL_OK;
}

extern "C" pl_status pl_gemm_peer_cublas(const pl_run_args *a)
{
    return run_cublas(a, CUBLAS_PEDANTIC_MATH, "peer-cublas");
}

extern "C" pl_status pl_gemm_peer_cublas_tf32(const pl_run_args *a)
{
    return run_cublas(a, CUBLAS_TF32_TENSOR_OP_MATH, "peer-cublas-tf32");
}

extern "C" pl_status pl_gemm_peer_cublas_bf16(const pl_run_args *a)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    cublasHandle_t h;
    pl_status s = cublas_handle(a, CUBLAS_DEFAULT_MATH, "peer-cublas-bf16", &h);
    if (s != PL_OK) return s;
    cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)p->N, (int)p->M, (int)p->K, &p->alpha,
                                     a->data[1], CUDA_R_16BF, (int)p->ldb, a->data[0], CUDA_R_16BF, (int)p->lda,
                                     &p->beta, a->data[2], CUDA_R_32F, (int)p->ldc, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "peer-cublas-bf16: cublasGemmEx failed (%s)", cublasGetStatusString(st));
    return PL_OK;
}
