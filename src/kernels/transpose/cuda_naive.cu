// cuda-naive-read and cuda-naive-write: one element per thread, straight from global memory
// to global memory. Which index the fast thread coordinate (x) walks decides which side is
// coalesced:
//   naive-read:  x walks A's columns: a warp reads 128 contiguous bytes of a row of A and
//                writes 32 elements down a column of B, one 32-byte sector each (8x the bytes).
//   naive-write: x walks B's columns: the warp writes a contiguous row of B and reads a column
//                of A; the strided loads waste sectors too, but neighbouring warps reuse them
//                from L1/L2, which stores cannot do.
// Next rung: stage a tile in shared memory so both sides are coalesced.
#include "core/core.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>

static __global__ void transpose_naive_read_kernel(pl_transpose_problem p, const float *__restrict__ A,
                                                   float *__restrict__ B)
{
    int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; // column of A
    int64_t i = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; // row of A
    if (i < p.M && j < p.N) B[j * p.ldb + i] = A[i * p.lda + j];
}

static __global__ void transpose_naive_write_kernel(pl_transpose_problem p, const float *__restrict__ A,
                                                    float *__restrict__ B)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; // column of B = row of A
    int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; // row of B = column of A
    if (i < p.M && j < p.N) B[j * p.ldb + i] = A[i * p.lda + j];
}

static const int64_t block_sizes[] = {4, 8, 16, 32};
extern "C" const pl_param_def pl_transpose_cuda_naive_params[] = {
    [PL_TRANSPOSE_CUDA_NAIVE_BLOCK] =
        {.name = "block", .help = "threads per block: block x block",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_transpose_cuda_naive_params, PL_TRANSPOSE_CUDA_NAIVE_N_PARAMS);

// fast: the extent the grid's x walks; slow: the one its y walks.
static pl_status launch(const pl_run_args *a, int64_t fast, int64_t slow, int write, const char *name)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    int bs = (int)a->params[PL_TRANSPOSE_CUDA_NAIVE_BLOCK];
    int64_t gx = (fast + bs - 1) / bs, gy = (slow + bs - 1) / bs;
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: %lldx%lld needs more than 65535 blocks in y at block=%d", name,
                       (long long)p->M, (long long)p->N, bs);
    dim3 block(bs, bs), grid((unsigned)gx, (unsigned)gy);
    const float *A = (const float *)a->data[0];
    float *B = (float *)a->data[1];
    if (write) transpose_naive_write_kernel<<<grid, block, 0, (cudaStream_t)a->stream>>>(*p, A, B);
    else transpose_naive_read_kernel<<<grid, block, 0, (cudaStream_t)a->stream>>>(*p, A, B);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", name, cudaGetErrorString(e));
    return PL_OK;
}

extern "C" pl_status pl_transpose_cuda_naive_read(const pl_run_args *a)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    return launch(a, p->N, p->M, 0, "cuda-naive-read");
}

extern "C" pl_status pl_transpose_cuda_naive_write(const pl_run_args *a)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    return launch(a, p->M, p->N, 1, "cuda-naive-write");
}
