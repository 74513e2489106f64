// cuda-shared: x staged in shared memory, a tile of `block` elements at a time. Every thread
// of the block loads one element of the tile, also a thread whose output is past the end (a
// thread that returned early would leave its slot of the tile unwritten, and the block's
// barrier would wait for it); then each live thread adds the tile's terms from shared
// memory. x now comes from global memory once per block instead of once per thread, but A
// is still read as cuda-naive reads it (uncoalesced rows for y = A*x): the lesson of the lab
// reports is that this buys little. Next rung: a warp per row, so A is read coalesced.
#include "kernels/gemv/cuda_gemv.cuh"

static __global__ void gemv_shared_kernel(pl_gemv_problem p, const float *__restrict__ A, const float *__restrict__ x,
                                          float *__restrict__ y, int64_t ny, int64_t nk, int64_t si, int64_t sk)
{
    extern __shared__ float xs[]; // blockDim.x floats
    const int tid = threadIdx.x, tile = blockDim.x;
    const int64_t i = (int64_t)blockIdx.x * tile + tid;
    const bool live = i < ny;
    const float *a = A + (live ? i * si : 0);
    float sum = 0.0f;
    for (int64_t k0 = 0; k0 < nk; k0 += tile) {
        xs[tid] = k0 + tid < nk ? x[k0 + tid] : 0.0f; // every thread, live or not
        __syncthreads();
        if (live) {
            const int n = nk - k0 < tile ? (int)(nk - k0) : tile;
            for (int k = 0; k < n; k++) sum += a[(k0 + k) * sk] * xs[k];
        }
        __syncthreads(); // the tile is read by all before it is overwritten
    }
    if (live) gemv_store(p, y, i, sum);
}

extern "C" pl_status pl_gemv_cuda_shared(const pl_run_args *a)
{
    const pl_gemv_problem *p = (const pl_gemv_problem *)a->problem;
    const int block = (int)a->params[PL_GEMV_CUDA_BLOCK];
    const int64_t ny = pl_gemv_ylen(p);
    gemv_shared_kernel<<<gemv_blocks(ny, block), block, block * sizeof(float), (cudaStream_t)a->stream>>>(
        *p, (const float *)a->data[0], (const float *)a->data[1], (float *)a->data[2], ny, pl_gemv_xlen(p),
        pl_gemv_stride_i(p), pl_gemv_stride_k(p));
    return gemv_launched("cuda-shared");
}
