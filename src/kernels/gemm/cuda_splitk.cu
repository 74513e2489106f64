/* cuda_splitk.cu: the host half of split-K for the CUDA top rungs (see cuda_splitk.cuh). */
#include "core/core.h"
#include "kernels/gemm/cuda_splitk.cuh"

namespace {

/* C = alpha * sum_s P[s] + beta * C, a grid-stride loop over the M x N outputs. */
__global__ void splitk_reduce(int M, int N, int S, const float *__restrict__ P, float *__restrict__ C,
                              int64_t ldc, float alpha, float beta)
{
    int64_t total = (int64_t)M * N;
    for (int64_t idx = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; idx < total;
         idx += (int64_t)gridDim.x * blockDim.x) {
        float s = 0.f;
        for (int z = 0; z < S; z++) s += P[z * total + idx];
        int64_t m = idx / N, n = idx % N;
        float *c = C + m * ldc + n;
        float r = alpha * s;
        if (beta != 0.f) r += beta * *c;
        *c = r;
    }
}

} // namespace

pl_status pl_gemm_ctx_device(const pl_ctx *ctx, const char *rung, int *sms)
{
    int dev = -1;
    if (cudaGetDevice(&dev) != cudaSuccess || dev != ctx->device)
        return pl_fail(PL_ERR_CUDA, "%s: the context's device %d is not current (pl_ctx_activate)", rung, ctx->device);
    *sms = ctx->sm_count > 0 ? ctx->sm_count : 1;
    return PL_OK;
}

pl_status pl_gemm_workspace(pl_ctx *ctx, const char *rung, int slot, size_t bytes, float **ws)
{
    *ws = nullptr;
    if (slot < 0 || slot >= PL_GEMM_WS_SLOTS) return pl_fail(PL_ERR_ARG, "%s: workspace slot %d", rung, slot);
    void *p = nullptr;
    pl_status s = pl_ctx_dev_workspace(ctx, slot, bytes, &p);
    if (s == PL_ERR_DEVICE_NOMEM) return pl_fail(s, "%s: workspace of %zu bytes: out of device memory", rung, bytes);
    if (s != PL_OK) return s;
    *ws = (float *)p;
    return PL_OK;
}

pl_status pl_gemm_repitch(pl_ctx *ctx, const char *rung, int slot, const float **m, int64_t *ld, int64_t rows, int64_t cols,
                          cudaStream_t stream)
{
    const int64_t ldp = (cols + 3) / 4 * 4;
    float *copy = nullptr;
    pl_status s = pl_gemm_workspace(ctx, rung, slot, (size_t)rows * ldp * sizeof(float), &copy);
    if (s != PL_OK) return s;
    cudaError_t e = cudaMemcpy2DAsync(copy, (size_t)ldp * sizeof(float), *m, (size_t)*ld * sizeof(float),
                                      (size_t)cols * sizeof(float), (size_t)rows, cudaMemcpyDeviceToDevice, stream);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: re-pitching an operand: %s", rung, cudaGetErrorString(e));
    *m = copy;
    *ld = ldp;
    return PL_OK;
}

pl_status pl_gemm_splitk_reduce(const char *rung, int M, int N, int split, const float *ws, float *C,
                                int64_t ldc, float alpha, float beta, int sms, cudaStream_t stream)
{
    if (sms < 1) sms = 1;
    int64_t total = (int64_t)M * N;
    int64_t blocks = (total + 255) / 256;
    if (blocks > (int64_t)sms * 16) blocks = (int64_t)sms * 16;
    splitk_reduce<<<(unsigned)blocks, 256, 0, stream>>>(M, N, split, ws, C, ldc, alpha, beta);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: split-K reduce: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}
