// cuda-warp: one warp per output. For y = A*x the 32 lanes read row i together, lane l
// taking elements l, l+32, ... (128-bit float4 loads where A's rows and x are 16-byte
// aligned: lanes l take float4s l, l+32, ...), so each load instruction reads 128 or 512
// contiguous bytes; the 32 partial sums meet by shuffles (__shfl_down_sync), no shared
// memory. For y = A^T*x the same mapping puts the lanes on 32 rows of one column: each
// load touches 32 lines for 4 bytes each, the wrong mapping for that form.
// What it leaves: a row shorter than 128 floats leaves lanes idle; few rows leave SMs idle;
// A^T is read down columns. Next rung (cuda-tuned) maps by shape.
#include "kernels/gemv/cuda_gemv.cuh"

template <bool VEC>
static __global__ void gemv_warp_kernel(pl_gemv_problem p, const float *__restrict__ A, const float *__restrict__ x,
                                        float *__restrict__ y, int64_t ny, int64_t nk, int64_t si, int64_t sk)
{
    const int64_t i = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int lane = threadIdx.x % 32;
    if (i >= ny) return; // the whole warp leaves together
    const float *a = A + i * si;
    float sum = 0.0f;
    int64_t k = lane;
    if (VEC) { // y = A*x only (sk == 1), rows and x 16-byte aligned
        const float4 *a4 = (const float4 *)a, *x4 = (const float4 *)x;
        const int64_t n4 = nk / 4;
        for (int64_t q = lane; q < n4; q += 32) {
            float4 u = __ldg(a4 + q), v = __ldg(x4 + q);
            sum += u.x * v.x + u.y * v.y + u.z * v.z + u.w * v.w;
        }
        k = 4 * n4 + lane;
    }
    for (; k < nk; k += 32) sum += a[k * sk] * x[k];
    sum = gemv_warp_sum(sum);
    if (lane == 0) gemv_store(p, y, i, sum);
}

extern "C" pl_status pl_gemv_cuda_warp(const pl_run_args *a)
{
    const pl_gemv_problem *p = (const pl_gemv_problem *)a->problem;
    const int block = (int)a->params[PL_GEMV_CUDA_BLOCK];
    const int64_t ny = pl_gemv_ylen(p);
    const float *A = (const float *)a->data[0], *x = (const float *)a->data[1];
    cudaStream_t st = (cudaStream_t)a->stream;
    if (!p->trans && gemv_vec4(p, A, x))
        gemv_warp_kernel<true><<<gemv_blocks(ny * 32, block), block, 0, st>>>(*p, A, x, (float *)a->data[2], ny,
                                                                              pl_gemv_xlen(p), p->lda, 1);
    else
        gemv_warp_kernel<false><<<gemv_blocks(ny * 32, block), block, 0, st>>>(
            *p, A, x, (float *)a->data[2], ny, pl_gemv_xlen(p), pl_gemv_stride_i(p), pl_gemv_stride_k(p));
    return gemv_launched("cuda-warp");
}
