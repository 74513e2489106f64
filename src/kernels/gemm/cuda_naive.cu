// cuda-naive: one thread per output, everything from global memory. Thread (x, y) of the
// grid computes C[y][x] as a K-term dot product. Neighbouring threads (x) read neighbouring
// B elements (coalesced) and the same A element (a broadcast), but every operand comes from
// global memory (or L1/L2) each time: 2 loads per FMA. Next rung: stage tiles in shared memory.
#include "core/core.h"
#include "kernels/gemm/gemm.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>

static __global__ void gemm_naive_kernel(pl_gemm_problem p, const float *__restrict__ A,
                                         const float *__restrict__ B, float *__restrict__ C)
{
    int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int64_t row = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= p.M || col >= p.N) return;
    float sum = 0.0f;
    for (int64_t k = 0; k < p.K; k++) sum += A[row * p.lda + k] * B[k * p.ldb + col];
    float *c = &C[row * p.ldc + col];
    *c = p.beta == 0.0f ? p.alpha * sum : p.alpha * sum + p.beta * *c;
}

static const int64_t block_sizes[] = {4, 8, 16, 32};
extern "C" const pl_param_def pl_gemm_cuda_naive_params[] = {
    [PL_GEMM_CUDA_NAIVE_BLOCK] =
        {.name = "block", .help = "threads per block: block x block",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_gemm_cuda_naive_params, PL_GEMM_CUDA_NAIVE_N_PARAMS);

extern "C" pl_status pl_gemm_cuda_naive(const pl_run_args *a)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    int bs = (int)a->params[PL_GEMM_CUDA_NAIVE_BLOCK];
    dim3 block(bs, bs);
    int64_t gx = (p->N + bs - 1) / bs, gy = (p->M + bs - 1) / bs;
    if (gy > 65535) return pl_fail(PL_ERR_ARG, "cuda-naive: M = %lld needs more than 65535 blocks of rows", (long long)p->M);
    dim3 grid((unsigned)gx, (unsigned)gy);
    gemm_naive_kernel<<<grid, block, 0, (cudaStream_t)a->stream>>>(
        *p, (const float *)a->data[0], (const float *)a->data[1], (float *)a->data[2]);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-naive launch: %s", cudaGetErrorString(e));
    return PL_OK;
}
