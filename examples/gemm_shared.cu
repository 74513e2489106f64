/* gemm_shared.cu: a CUDA SGEMM rung with shared-memory tiles, the lab exercise after the naive
 * one-thread-per-output kernel: a block of 32 x 32 threads computes a 32 x 32 tile of C; for
 * each step of 32 along k it stages a 32 x 32 tile of A and one of B in shared memory
 * (coalesced loads, zeros past the matrices' edges, so any M, N, K works), then every thread
 * takes its dot product from shared memory: each element loaded from global memory serves 32
 * outputs instead of one. The tile of B is read along its rows by a warp (no bank conflicts);
 * the tile of A is read by a warp at one address (a broadcast).
 *
 *   C = alpha * A * B + beta * C, row-major, device pointers; beta == 0: C is written only.
 *   Launched on the stream parlab passes and not waited for: parlab times that stream.
 *
 * Built by parlab's build where CUDA is, as build/examples/libgemm_shared.so; by hand:
 *   nvcc -O3 -shared -Xcompiler -fPIC -cudart shared gemm_shared.cu -o libgemm_shared.so -I<parlab>/include */
#include "parlab_rung.h"

#include <cuda_runtime.h>

enum { TILE = 32 };

__global__ static void sgemm_tiles(int64_t M, int64_t N, int64_t K, float alpha, const float *__restrict__ A,
                                   int64_t lda, const float *__restrict__ B, int64_t ldb, float beta,
                                   float *__restrict__ C, int64_t ldc)
{
    __shared__ float a_tile[TILE][TILE], b_tile[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t row = blockIdx.y * (int64_t)TILE + ty, col = blockIdx.x * (int64_t)TILE + tx;
    float sum = 0.0f;
    for (int64_t k0 = 0; k0 < K; k0 += TILE) {
        /* Each thread loads one element of each tile; past an edge, a zero adds nothing. */
        a_tile[ty][tx] = row < M && k0 + tx < K ? A[row * lda + k0 + tx] : 0.0f;
        b_tile[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * ldb + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) sum += a_tile[ty][k] * b_tile[k][tx];
        __syncthreads(); /* the tiles are read by all before the next step overwrites them */
    }
    if (row < M && col < N) {
        float *c = &C[row * ldc + col];
        *c = beta == 0.0f ? alpha * sum : alpha * sum + beta * *c;
    }
}

PL_RUNG_DECLARE(my_sgemm_shared, "gemm", "cuda", "fp32");

extern "C" int my_sgemm_shared(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                               const float *B, int64_t ldb, float beta, float *C, int64_t ldc, pl_rung_stream stream)
{
    const dim3 block(TILE, TILE), grid((unsigned)((N + TILE - 1) / TILE), (unsigned)((M + TILE - 1) / TILE));
    if (grid.y > 65535) return 2; /* more row tiles than a grid's y extent holds */
    sgemm_tiles<<<grid, block, 0, stream>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
    /* A launch that failed (a bad configuration) is reported here: parlab fails the row. */
    return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
