// cuda-shared: A and B tiles staged in shared memory. A block of TILE x TILE threads owns a
// TILE x TILE tile of C; for each step along K it loads one TILE x TILE tile of A and one of B
// (one element per thread, coalesced), synchronizes, and every thread reads TILE elements of
// each from shared memory. Global loads per FMA drop from 2 to 2/TILE. Edges are zero-filled,
// so any M, N, K works. Next rung (cuda-tuned): several outputs per thread in registers.
#include "core/core.h"
#include "kernels/gemm/gemm.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>

template <int TILE>
static __global__ void gemm_shared_kernel(pl_gemm_problem p, const float *__restrict__ A,
                                          const float *__restrict__ B, float *__restrict__ C)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row = (int64_t)blockIdx.y * TILE + ty;
    const int64_t col = (int64_t)blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int64_t k0 = 0; k0 < p.K; k0 += TILE) {
        // Each thread brings one element of each tile; outside the matrix, a zero.
        As[ty][tx] = (row < p.M && k0 + tx < p.K) ? A[row * p.lda + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < p.K && col < p.N) ? B[(k0 + ty) * p.ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < p.M && col < p.N) {
        float *c = &C[row * p.ldc + col];
        *c = p.beta == 0.0f ? p.alpha * sum : p.alpha * sum + p.beta * *c;
    }
}

static const int64_t tiles[] = {4, 8, 16, 32};
extern "C" const pl_param_def pl_gemm_cuda_shared_params[] = {
    [PL_GEMM_CUDA_SHARED_TILE] =
        {.name = "tile", .help = "tile edge: TILE x TILE threads and tiles",
         .kind = PL_PARAM_LIST, .values = tiles, .n_values = PL_COUNT(tiles), .def = 32},
};
PL_CHECK_COUNT(pl_gemm_cuda_shared_params, PL_GEMM_CUDA_SHARED_N_PARAMS);

template <int TILE>
static void launch(const pl_gemm_problem *p, const pl_run_args *a)
{
    dim3 block(TILE, TILE);
    dim3 grid((unsigned)((p->N + TILE - 1) / TILE), (unsigned)((p->M + TILE - 1) / TILE));
    gemm_shared_kernel<TILE><<<grid, block, 0, (cudaStream_t)a->stream>>>(
        *p, (const float *)a->data[0], (const float *)a->data[1], (float *)a->data[2]);
}

extern "C" pl_status pl_gemm_cuda_shared(const pl_run_args *a)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    int tile = (int)a->params[PL_GEMM_CUDA_SHARED_TILE];
    if ((p->M + tile - 1) / tile > 65535)
        return pl_fail(PL_ERR_ARG, "cuda-shared: M = %lld needs more than 65535 blocks of rows", (long long)p->M);
    switch (tile) {
    case 4: launch<4>(p, a); break;
    case 8: launch<8>(p, a); break;
    case 16: launch<16>(p, a); break;
    case 32: launch<32>(p, a); break;
    default: return pl_fail(PL_ERR_ARG, "cuda-shared: tile=%d (legal: 4, 8, 16, 32)", tile);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-shared launch: %s", cudaGetErrorString(e));
    return PL_OK;
}
