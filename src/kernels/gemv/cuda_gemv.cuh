// cuda_gemv.cuh: what the GEMV CUDA rungs share: the store of an output (alpha, beta; beta 0
// never reads y), a warp's shuffle sum, the 128-bit alignment test and the launch check.
// Stands alone; included at the top of each rung's .cu.
#ifndef PL_GEMV_CUDA_GEMV_CUH
#define PL_GEMV_CUDA_GEMV_CUH

#include "core/core.h"
#include "kernels/gemv/gemv.h"

#include <cuda_runtime.h>
#include <stdint.h>

// y[i] = alpha*s (+ beta*y[i]); with beta 0, y holds poison (NaN) and is not read.
static __device__ __forceinline__ void gemv_store(const pl_gemv_problem &p, float *y, int64_t i, float s)
{
    y[i] = p.beta == 0.0f ? p.alpha * s : p.alpha * s + p.beta * y[i];
}

// Sum over groups of `width` lanes (a power of two <= 32); every lane of the warp must call it.
// Lane 0 of each group holds its group's sum.
static __device__ __forceinline__ float gemv_warp_sum(float v, int width = 32)
{
    for (int o = width / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o, width);
    return v;
}

// Rows of A and x can be read as float4: A and x 16-byte aligned and lda a multiple of 4.
static inline bool gemv_vec4(const pl_gemv_problem *p, const void *A, const void *x)
{
    return ((uintptr_t)A % 16 == 0) && ((uintptr_t)x % 16 == 0) && p->lda % 4 == 0;
}

static inline pl_status gemv_launched(const char *rung)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}

static inline unsigned gemv_blocks(int64_t threads, int block) { return (unsigned)((threads + block - 1) / block); }

#endif
