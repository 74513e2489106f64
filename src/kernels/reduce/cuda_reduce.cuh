// cuda_reduce.cuh: what the CUDA reduce rungs share: the op functors (a template on the op,
// so each kernel is compiled once per op), warp and block reductions, and the dispatch from
// the run-time op to the template.
#ifndef PL_REDUCE_CUDA_CUH
#define PL_REDUCE_CUDA_CUH

#include "core/core.h"
#include "kernels/reduce/reduce.h"

#include <cuda_runtime.h>
#include <math.h>

template <int OP> __device__ __forceinline__ float red_neutral()
{
    return OP == PL_REDUCE_MIN ? INFINITY : OP == PL_REDUCE_MAX ? -INFINITY : 0.0f;
}
// The term a raw element contributes (sumsq squares it).
template <int OP> __device__ __forceinline__ float red_term(float x) { return OP == PL_REDUCE_SUMSQ ? x * x : x; }
template <int OP> __device__ __forceinline__ float red_comb(float a, float b)
{
    return OP == PL_REDUCE_MIN ? pl_reduce_min2(a, b) : OP == PL_REDUCE_MAX ? pl_reduce_max2(a, b) : a + b;
}
template <int OP> __device__ __forceinline__ float red_finish(float acc, int64_t n)
{
    return OP == PL_REDUCE_MEAN ? acc / (float)n : acc;
}

template <int OP> __device__ __forceinline__ float warp_reduce(float v)
{
    for (int o = 16; o > 0; o >>= 1) v = red_comb<OP>(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}

// The block's values combined (warp shuffles, one value per warp through shared memory);
// the result is valid in thread 0. blockDim.x a multiple of 32.
template <int OP> __device__ __forceinline__ float block_reduce(float v)
{
    __shared__ float warps[32];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    v = warp_reduce<OP>(v);
    if (lane == 0) warps[w] = v;
    __syncthreads();
    if (w == 0) {
        v = lane < (int)(blockDim.x >> 5) ? warps[lane] : red_neutral<OP>();
        v = warp_reduce<OP>(v);
    }
    __syncthreads(); // warps[] may be reused by the caller's next row
    return v;
}

// Sum of a strided range [k0, k1) of x, each thread from k0 + t in steps of nt, with 128-bit
// loads after a scalar head up to 16-byte alignment (when step == 1).
template <int OP> __device__ __forceinline__ float thread_range_vec(const float *x, int64_t k0, int64_t k1, int t, int nt)
{
    float acc = red_neutral<OP>();
    int64_t head = (int64_t)((16 - ((uintptr_t)(x + k0) & 15)) & 15) / 4;
    if (head > k1 - k0) head = k1 - k0;
    if (t < head) acc = red_term<OP>(x[k0 + t]);
    int64_t b = k0 + head, nv = (k1 - b) / 4;
    const float4 *v4 = (const float4 *)(x + b);
    for (int64_t k = t; k < nv; k += nt) {
        float4 q = __ldg(v4 + k);
        acc = red_comb<OP>(acc, red_comb<OP>(red_comb<OP>(red_term<OP>(q.x), red_term<OP>(q.y)),
                                              red_comb<OP>(red_term<OP>(q.z), red_term<OP>(q.w))));
    }
    for (int64_t k = b + nv * 4 + t; k < k1; k += nt) acc = red_comb<OP>(acc, red_term<OP>(x[k]));
    return acc;
}

// Programmatic dependent launch (Hopper and later): a first pass calls pdl_release() as it
// starts, so the second pass, launched with pdl_launch_attr(), is scheduled while the first
// still runs (its launch latency hidden); the second calls pdl_wait() before it reads, which
// returns once the first pass has finished and its writes are visible. Without the attribute
// (or before sm_90) both are no-ops and the launches are ordered as usual.
static __device__ __forceinline__ void pdl_release()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
static __device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
static inline cudaLaunchAttribute pdl_launch_attr()
{
    cudaLaunchAttribute at = {};
    at.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at.val.programmaticStreamSerializationAllowed = 1;
    return at;
}

// Second pass over the column partials part[s * N + j]: a block of 32 columns x 8 groups,
// group g folding splits g, g + 8, ... (a group's loads in flight together, where one thread
// a column would wait on each in turn); then the 8 groups are combined in order: a fixed
// order, the same bits on every run. Launch with cols_finish_block() on cols_finish_grid(N);
// it waits for a first pass launched before it with programmatic dependent launch (pdl_wait).
enum { COLS_FINISH_GROUPS = 8 };
static inline dim3 cols_finish_block() { return dim3(32, COLS_FINISH_GROUPS); }
static inline unsigned cols_finish_grid(int64_t n) { return (unsigned)((n + 31) / 32); }
template <int OP>
static __global__ void cols_finish_kernel(pl_reduce_problem p, const float *__restrict__ part, float *__restrict__ r, int splits)
{
    __shared__ float group[COLS_FINISH_GROUPS][32];
    pdl_wait(); // the first pass's partials are all written
    const int64_t j = (int64_t)blockIdx.x * 32 + threadIdx.x;
    float acc = red_neutral<OP>();
    if (j < p.N) {
#pragma unroll 4
        for (int s = threadIdx.y; s < splits; s += COLS_FINISH_GROUPS) acc = red_comb<OP>(acc, part[(int64_t)s * p.N + j]);
    }
    group[threadIdx.y][threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.y == 0 && j < p.N) {
        for (int g = 1; g < COLS_FINISH_GROUPS; g++) acc = red_comb<OP>(acc, group[g][threadIdx.x]);
        r[j] = red_finish<OP>(acc, p.M);
    }
}

#define PL_REDUCE_DISPATCH(op, CALL)                                                                   \
    switch (op) {                                                                                      \
    case PL_REDUCE_SUM: { const int OPC = PL_REDUCE_SUM; CALL; } break;                                \
    case PL_REDUCE_MEAN: { const int OPC = PL_REDUCE_MEAN; CALL; } break;                              \
    case PL_REDUCE_MIN: { const int OPC = PL_REDUCE_MIN; CALL; } break;                                \
    case PL_REDUCE_MAX: { const int OPC = PL_REDUCE_MAX; CALL; } break;                                \
    default: { const int OPC = PL_REDUCE_SUMSQ; CALL; } break;                                         \
    }

static inline pl_status pl_reduce_launched(const char *who)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", who, cudaGetErrorString(e));
    return PL_OK;
}

// Columns (shared by cuda-warp, cuda-tuned): defined in cuda_warp.cu. splits > 1 writes
// partials[s * N + j] into ws and runs a second pass.
pl_status pl_reduce_cuda_columns(const pl_run_args *a, int bs, int splits);

#endif
