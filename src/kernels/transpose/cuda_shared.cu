// cuda-shared and cuda-shared-padded: a block x block tile through shared memory, one element
// per thread. Thread (x, y) reads A[i0 + y][j0 + x] (a warp reads a row of A: coalesced) into
// tile[y][x], syncs, and writes B[j0 + y][i0 + x] = tile[x][y] (a warp writes a row of B:
// coalesced). The catch is the column read tile[x][y]: with a row of 32 floats the 32 threads
// of a warp hit one bank, a 32-way conflict (block=32; block=16: 16-way ...).
// cuda-shared-padded gives each tile row one extra float: tile[x][y] then lies in bank
// (x*33 + y) % 32 = (x + y) % 32, all different across the warp. Next rung: several elements
// per thread, bigger tiles, vector loads.
#include "core/core.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

#include <cuda_runtime.h>

template <int T, int PAD>
static __global__ void transpose_shared_kernel(pl_transpose_problem p, const float *__restrict__ A,
                                               float *__restrict__ B)
{
    __shared__ float tile[T][T + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t i0 = (int64_t)blockIdx.y * T, j0 = (int64_t)blockIdx.x * T;
    if (i0 + ty < p.M && j0 + tx < p.N) tile[ty][tx] = A[(i0 + ty) * p.lda + j0 + tx];
    __syncthreads();
    if (j0 + ty < p.N && i0 + tx < p.M) B[(j0 + ty) * p.ldb + i0 + tx] = tile[tx][ty];
}

static const int64_t block_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_transpose_cuda_shared_params[] = {
    [PL_TRANSPOSE_CUDA_SHARED_BLOCK] =
        {.name = "block", .help = "tile edge: block x block threads and elements",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 32},
};
PL_CHECK_COUNT(pl_transpose_cuda_shared_params, PL_TRANSPOSE_CUDA_SHARED_N_PARAMS);

template <int T, int PAD>
static void launch(const pl_transpose_problem *p, const pl_run_args *a)
{
    dim3 block(T, T), grid((unsigned)((p->N + T - 1) / T), (unsigned)((p->M + T - 1) / T));
    transpose_shared_kernel<T, PAD><<<grid, block, 0, (cudaStream_t)a->stream>>>(
        *p, (const float *)a->data[0], (float *)a->data[1]);
}

template <int PAD>
static pl_status run(const pl_run_args *a, const char *name)
{
    const pl_transpose_problem *p = (const pl_transpose_problem *)a->problem;
    int bs = (int)a->params[PL_TRANSPOSE_CUDA_SHARED_BLOCK];
    if ((p->M + bs - 1) / bs > 65535)
        return pl_fail(PL_ERR_ARG, "%s: M = %lld needs more than 65535 blocks of rows at block=%d", name,
                       (long long)p->M, bs);
    switch (bs) {
    case 8: launch<8, PAD>(p, a); break;
    case 16: launch<16, PAD>(p, a); break;
    case 32: launch<32, PAD>(p, a); break;
    default: return pl_fail(PL_ERR_ARG, "%s: block=%d (legal: 8, 16, 32)", name, bs);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", name, cudaGetErrorString(e));
    return PL_OK;
}

extern "C" pl_status pl_transpose_cuda_shared(const pl_run_args *a) { return run<0>(a, "cuda-shared"); }

extern "C" pl_status pl_transpose_cuda_shared_padded(const pl_run_args *a)
{
    return run<1>(a, "cuda-shared-padded");
}
