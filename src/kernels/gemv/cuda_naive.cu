// cuda-naive: one thread per output, everything from global memory. For y = A*x thread i
// walks row i: neighbouring threads read addresses lda apart, so each load instruction of a
// warp touches 32 different cache lines (uncoalesced). For y = A^T*x thread j walks column j:
// neighbours read neighbouring floats of a row (coalesced by accident of the layout), but
// there are only N threads. x is re-read by every thread (from L1/L2).
// Next rung: stage x in shared memory.
#include "kernels/gemv/cuda_gemv.cuh"

static __global__ void gemv_naive_kernel(pl_gemv_problem p, const float *__restrict__ A, const float *__restrict__ x,
                                         float *__restrict__ y, int64_t ny, int64_t nk, int64_t si, int64_t sk)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ny) return;
    float sum = 0.0f;
    for (int64_t k = 0; k < nk; k++) sum += A[i * si + k * sk] * x[k];
    gemv_store(p, y, i, sum);
}

extern "C" pl_status pl_gemv_cuda_naive(const pl_run_args *a)
{
    const pl_gemv_problem *p = (const pl_gemv_problem *)a->problem;
    const int block = (int)a->params[PL_GEMV_CUDA_BLOCK];
    const int64_t ny = pl_gemv_ylen(p);
    gemv_naive_kernel<<<gemv_blocks(ny, block), block, 0, (cudaStream_t)a->stream>>>(
        *p, (const float *)a->data[0], (const float *)a->data[1], (float *)a->data[2], ny, pl_gemv_xlen(p),
        pl_gemv_stride_i(p), pl_gemv_stride_k(p));
    return gemv_launched("cuda-naive");
}
