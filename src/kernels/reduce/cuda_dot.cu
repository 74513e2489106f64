// dot cuda-tuned: a grid of about 4 blocks per multiprocessor strides over x and y with 128-bit
// loads, each thread FMA-accumulating its share; warp shuffles combine a block into one partial
// and a second one-block pass adds the partials. Accurate (blocked sums).
#include "kernels/reduce/cuda_reduce.cuh"

enum { DOT_MAX_BLOCKS = 1024 };

static __global__ void dot_kernel(int64_t n, const float *__restrict__ x, const float *__restrict__ y,
                                  float *__restrict__ out)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, nt = (int64_t)gridDim.x * blockDim.x;
    float acc = 0.0f;
    const float4 *x4 = (const float4 *)x, *y4 = (const float4 *)y;
    for (int64_t k = t; k < n / 4; k += nt) {
        float4 a = __ldg(x4 + k), b = __ldg(y4 + k);
        acc = fmaf(a.x, b.x, acc);
        acc = fmaf(a.y, b.y, acc);
        acc = fmaf(a.z, b.z, acc);
        acc = fmaf(a.w, b.w, acc);
    }
    for (int64_t k = n / 4 * 4 + t; k < n; k += nt) acc = fmaf(x[k], y[k], acc);
    acc = block_reduce<PL_REDUCE_SUM>(acc);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

static __global__ void sum_partials_kernel(int n, const float *__restrict__ part, float *__restrict__ out)
{
    float acc = 0.0f;
    for (int k = threadIdx.x; k < n; k += blockDim.x) acc += part[k];
    acc = block_reduce<PL_REDUCE_SUM>(acc);
    if (threadIdx.x == 0) *out = acc;
}

extern "C" pl_status pl_dot_cuda_tuned(const pl_run_args *a)
{
    const pl_dot_problem *p = (const pl_dot_problem *)a->problem;
    int bs = (int)a->params[PL_REDUCE_CUDA_BLOCK];
    int sms = a->ctx->sm_count > 0 ? a->ctx->sm_count : 1;
    int64_t blocks = (p->N / 4 + bs - 1) / bs;
    if (blocks > 4LL * sms) blocks = 4LL * sms;
    if (blocks > DOT_MAX_BLOCKS) blocks = DOT_MAX_BLOCKS;
    if (blocks < 1) blocks = 1;
    cudaStream_t st = (cudaStream_t)a->stream;
    const float *x = (const float *)a->data[0], *y = (const float *)a->data[1];
    float *r = (float *)a->data[2];
    if (((uintptr_t)x | (uintptr_t)y) & 15) return pl_fail(PL_ERR_ARG, "dot cuda-tuned: x and y must be 16-byte aligned");
    if (blocks == 1) {
        dot_kernel<<<1, bs, 0, st>>>(p->N, x, y, r);
        return pl_reduce_launched("dot cuda-tuned");
    }
    void *ws = NULL;
    pl_status s = pl_ctx_dev_workspace(a->ctx, PL_REDUCE_WS_PARTIALS, sizeof(float) * (size_t)blocks, &ws);
    if (s != PL_OK) return s;
    dot_kernel<<<(unsigned)blocks, bs, 0, st>>>(p->N, x, y, (float *)ws);
    sum_partials_kernel<<<1, 1024, 0, st>>>((int)blocks, (const float *)ws, r);
    return pl_reduce_launched("dot cuda-tuned");
}
