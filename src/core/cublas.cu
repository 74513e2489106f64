// cublas.cu: the context's cuBLAS handle, for every room's cuBLAS peer. Made on first use in
// the context's PL_CTX_HANDLE_CUBLAS slot (on its device), destroyed with the context, and
// bound to the stream of the call. CUDA builds only (only .cu peers call it).
#include "core/core.h"

#include <cublas_v2.h>

static void destroy_handle(void *h) { cublasDestroy((cublasHandle_t)h); }

static pl_status create_handle(pl_ctx *ctx, void **out)
{
    (void)ctx;
    cublasHandle_t h;
    cublasStatus_t st = cublasCreate(&h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "cuBLAS peers: cublasCreate failed (%s)", cublasGetStatusString(st));
    *out = (void *)h;
    return PL_OK;
}

extern "C" pl_status pl_ctx_cublas(pl_ctx *ctx, void *stream, void **handle)
{
    void *hv = nullptr;
    pl_status s = pl_ctx_handle(ctx, PL_CTX_HANDLE_CUBLAS, create_handle, destroy_handle, &hv);
    if (s != PL_OK) return s;
    if (cublasSetStream((cublasHandle_t)hv, (cudaStream_t)stream) != CUBLAS_STATUS_SUCCESS)
        return pl_fail(PL_ERR_CUDA, "cuBLAS peers: cublasSetStream failed");
    *handle = hv;
    return PL_OK;
}
