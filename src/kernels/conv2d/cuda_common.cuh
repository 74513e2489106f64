// cuda_common.cuh: what the conv2d CUDA rungs share: reading the image through the border rule,
// the dtype switch (float32 and int32 run the same templates), the launch check, the device
// workspace slot they use, and the grid-size limit. Included by the cuda_*.cu files only.
#ifndef PL_CONV2D_CUDA_COMMON_CUH
#define PL_CONV2D_CUDA_COMMON_CUH

#include "core/core.h"
#include "kernels/conv2d/conv2d.h"

#include <cuda_runtime.h>
#include <stdint.h>

// Device workspace slots of the conv2d room (see core.h: gemm holds 0-3, gemv 4, reduce 6-7).
// Slot 5 holds, one rung at a time on the context's stream, cuda-tuned's prepared filter and
// peer-cudnn's workspace: neither keeps contents from one call to the next.
enum { PL_CONV2D_WS = 5 };
static_assert((int)PL_CONV2D_WS < (int)PL_CTX_DEV_WS_SLOTS, "the conv2d slot fits the context's");

// The image value at (y, x) of the extended image: y, x may lie outside the image; in same
// mode the border rule says what is read there, in valid mode (only the tiles of the faster
// rungs read outside there, for outputs they do not write) it reads as zero.
template <typename T>
static __device__ __forceinline__ T conv2d_pixel(const T *__restrict__ img, const pl_conv2d_problem &p, int64_t y,
                                                 int64_t x)
{
    const int border = p.mode == PL_CONV2D_SAME ? p.border : PL_CONV2D_ZERO;
    const int64_t gy = pl_conv2d_border_index(border, y, p.H), gx = pl_conv2d_border_index(border, x, p.W);
    return (gy < 0 || gx < 0) ? T(0) : img[gy * p.ld_img + gx];
}

// Rows and columns of the border an output's window reaches beyond (same: K/2; valid: 0).
static __host__ __device__ __forceinline__ int conv2d_offset(const pl_conv2d_problem &p)
{
    return p.mode == PL_CONV2D_SAME ? p.K / 2 : 0;
}

// int32 sums wrap like the unsigned ones (no undefined overflow in partial sums); the spec keeps
// every final sum inside int32, so the wrapped result is exact.
static __device__ __forceinline__ float conv2d_fma(float w, float v, float acc) { return fmaf(w, v, acc); }
static __device__ __forceinline__ int conv2d_fma(int w, int v, int acc)
{
    return (int)((unsigned)acc + (unsigned)w * (unsigned)v);
}

static inline pl_status conv2d_launched(const char *rung)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}

// A grid of gy blocks in y must fit CUDA's 65535.
static inline pl_status conv2d_grid_fits(const char *rung, const pl_conv2d_problem *p, int64_t gx, int64_t gy)
{
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: a %lldx%lld output needs %lld x %lld blocks (at most 2^31-1 x 65535)", rung,
                       (long long)p->OH, (long long)p->OW, (long long)gx, (long long)gy);
    return PL_OK;
}

static inline pl_status conv2d_dtype_ok(const char *rung, const pl_conv2d_problem *p)
{
    if (p->dtype != PL_F32 && p->dtype != PL_I32)
        return pl_fail(PL_ERR_UNSUPPORTED, "%s: dtype must be float32 or int32", rung);
    return PL_OK;
}

#endif
