/* cuda_splitk.cu: split-K's reduce for the CUDA top rungs (see cuda_splitk.cuh). */
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
