/* nccl_keys.cu: the two element-wise device passes the NCCL reductions need (nccl_paths.h).
 * min and max as keys: NCCL's ncclMin/ncclMax on floats are not documented to keep a NaN (a
 * fminf-style min drops it), and the reduce kernel's min and max do keep it (NumPy's rule). So
 * a float becomes an int32 key whose order is the float order (the bits, with the magnitude
 * bits flipped for negatives), a NaN the largest key for max and the smallest for min; ncclMax
 * / ncclMin on ncclInt32 then take a NaN wherever one is, and the keys turn back into floats
 * (a NaN's key back into the quiet NaN 0x7fc00000). Exact: no other value changes on the way. */
#include "core/core.h"
#include "distributed/nccl/nccl_paths.h"

#include <cuda_runtime.h>
#include <stdint.h>

static __global__ void keys_kernel(int32_t *x, int64_t n, int max, int decode)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int32_t b = x[i];
        if (!decode && (b & 0x7fffffff) > 0x7f800000) b = max ? 0x7fc00000 : (int32_t)0xffc00000u; /* a NaN */
        b = b < 0 ? b ^ 0x7fffffff : b; /* an involution: the same step encodes and decodes */
        if (decode && (b & 0x7fffffff) > 0x7f800000) b = 0x7fc00000; /* a NaN comes back as the quiet NaN */
        x[i] = b;
    }
}

static __global__ void divide_kernel(float *x, int64_t n, float d)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        x[i] = x[i] / d;
}

static pl_status launched(const char *what)
{
    const cudaError_t e = cudaGetLastError();
    return e == cudaSuccess ? PL_OK : pl_fail(PL_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}

static unsigned blocks_for(int64_t n)
{
    const int64_t b = (n + 255) / 256;
    return (unsigned)(b < 1 ? 1 : b > 4096 ? 4096 : b);
}

extern "C" pl_status pl_dist_minmax_keys(void *x, int64_t n, int max, int decode, void *stream)
{
    if (n <= 0) return PL_OK;
    keys_kernel<<<blocks_for(n), 256, 0, (cudaStream_t)stream>>>((int32_t *)x, n, max, decode);
    return launched("reduce: min/max keys");
}

extern "C" pl_status pl_dist_divide_device(float *x, int64_t n, float d, void *stream)
{
    if (n <= 0) return PL_OK;
    divide_kernel<<<blocks_for(n), 256, 0, (cudaStream_t)stream>>>(x, n, d);
    return launched("reduce: the mean's division");
}
