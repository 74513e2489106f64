// cuda-naive, cuda-shared: a byte per cell on the device, as a parallel-computing course starts.
// The packed operand is unpacked into the first of two byte grids (a device workspace, 2 W H
// bytes) at the start of the run and the last generation packed back at the end, both inside
// the run's time; each generation is one launch, block x block threads, a thread per cell.
//   cuda-naive:  each thread reads its eight neighbours from global memory (through L1/L2), the
//                torus seam or the plane's edge resolved per neighbour;
//   cuda-shared: each block first stages its tile and a one-cell halo ((block+2)^2 bytes) in
//                shared memory, then every thread counts from there: each cell is read from
//                global memory about once per block instead of nine times.
// A generation moves at least 2 bytes a cell (read, write); the next rung (cuda-bitpacked)
// moves 2 bits.
#include "kernels/life/cuda_common.cuh"
#include "kernels/ladder.h"

// Byte cell (y, x) of the grid as the topology reads it: wrapped on the torus, dead off the plane.
static __device__ __forceinline__ uint8_t cell_at(const uint8_t *__restrict__ g, int64_t W, int64_t H, int torus,
                                                  int64_t y, int64_t x)
{
    if (torus) {
        y = y < 0 ? y + H : y >= H ? y - H : y;
        x = x < 0 ? x + W : x >= W ? x - W : x;
    } else if (y < 0 || y >= H || x < 0 || x >= W) {
        return 0;
    }
    return g[y * W + x];
}

// The packed grid (64-bit words, wpr a row) into bytes: a thread per cell, grid-stride.
static __global__ void unpack_kernel(const uint64_t *__restrict__ bits, uint8_t *__restrict__ cells, int64_t W,
                                     int64_t H, int64_t wpr)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < W * H; i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t y = i / W, x = i - y * W;
        cells[i] = (uint8_t)((bits[y * wpr + x / 64] >> (x % 64)) & 1u);
    }
}

// Bytes back into the packed grid: a thread per word, the bits past W zero.
static __global__ void pack_kernel(const uint8_t *__restrict__ cells, uint64_t *__restrict__ bits, int64_t W,
                                   int64_t H, int64_t wpr)
{
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < H * wpr; j += (int64_t)gridDim.x * blockDim.x) {
        const int64_t y = j / wpr, k = j - y * wpr, n = W - 64 * k < 64 ? W - 64 * k : 64;
        const uint8_t *row = cells + y * W + 64 * k;
        uint64_t w = 0;
        for (int64_t b = 0; b < n; b++) w |= (uint64_t)(row[b] != 0) << b;
        bits[j] = w;
    }
}

// One generation, a thread per cell; SHARED: through a tile + halo in shared memory.
template <bool SHARED>
static __global__ void step_kernel(const uint8_t *__restrict__ src, uint8_t *__restrict__ dst, int64_t W, int64_t H,
                                   int torus, uint32_t birth, uint32_t survive)
{
    extern __shared__ uint8_t tile[]; // SHARED: (block+2)^2 bytes
    const int bs = blockDim.x, tx = threadIdx.x, ty = threadIdx.y;
    const int64_t x0 = (int64_t)blockIdx.x * bs, y0 = (int64_t)blockIdx.y * bs;
    const int64_t x = x0 + tx, y = y0 + ty;
    int count = 0, alive = 0;
    if (SHARED) {
        const int side = bs + 2;
        for (int k = ty * bs + tx; k < side * side; k += bs * bs) // the tile and its halo
            tile[k] = cell_at(src, W, H, torus, y0 - 1 + k / side, x0 - 1 + k % side);
        __syncthreads();
        if (x >= W || y >= H) return;
        const uint8_t *c = tile + (ty + 1) * side + (tx + 1);
        count = c[-side - 1] + c[-side] + c[-side + 1] + c[-1] + c[1] + c[side - 1] + c[side] + c[side + 1];
        alive = c[0];
    } else {
        if (x >= W || y >= H) return;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if (dy || dx) count += cell_at(src, W, H, torus, y + dy, x + dx);
        alive = src[y * W + x];
    }
    dst[y * W + x] = (uint8_t)(((alive ? survive : birth) >> count) & 1u);
}

static const int64_t block_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_life_cuda_block_params[] = {
    [PL_LIFE_CUDA_BLOCK] =
        {.name = "block", .help = "threads per block: block x block, a cell each",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_life_cuda_block_params, PL_LIFE_CUDA_BLOCK_N_PARAMS);

// Device memory beyond the operand: the two byte grids.
extern "C" double pl_life_cuda_bytes_workspace(const void *problem)
{
    const pl_life_problem *p = (const pl_life_problem *)problem;
    return 2.0 * (double)p->W * (double)p->H;
}

static pl_status run(const pl_run_args *a, bool shared, const char *rung)
{
    const pl_life_problem *p = (const pl_life_problem *)a->problem;
    const int bs = (int)a->params[PL_LIFE_CUDA_BLOCK];
    if (bs != 8 && bs != 16 && bs != 32) return pl_fail(PL_ERR_ARG, "%s: block=%d (legal: 8, 16, 32)", rung, bs);
    const int64_t gx = (p->W + bs - 1) / bs, gy = (p->H + bs - 1) / bs;
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: a %lldx%lld grid needs %lld x %lld blocks (at most 2^31-1 x 65535): a "
                       "larger block", rung, (long long)p->W, (long long)p->H, (long long)gx, (long long)gy);
    const size_t cells = (size_t)p->W * (size_t)p->H;
    void *ws = nullptr;
    pl_status s = pl_ctx_dev_workspace(a->ctx, PL_LIFE_DEV_WS, 2 * cells, &ws);
    if (s != PL_OK) return s;
    uint8_t *bufs[2] = {(uint8_t *)ws, (uint8_t *)ws + cells};
    uint64_t *grid = (uint64_t *)a->data[0];
    const int64_t wpr = pl_life_words_per_row(p->W);
    cudaStream_t st = (cudaStream_t)a->stream;
    const int conv_blocks = (int)((cells + 255) / 256 < 65536 ? (cells + 255) / 256 : 65536);
    unpack_kernel<<<conv_blocks, 256, 0, st>>>(grid, bufs[0], p->W, p->H, wpr);
    if ((s = life_launched(rung)) != PL_OK) return s;
    const dim3 block(bs, bs), blocks((unsigned)gx, (unsigned)gy);
    const size_t smem = shared ? (size_t)(bs + 2) * (size_t)(bs + 2) : 0;
    const int torus = p->topology == PL_LIFE_TOPO_TORUS;
    for (int64_t gen = 0; gen < p->gens; gen++) {
        const uint8_t *src = bufs[gen & 1];
        uint8_t *dst = bufs[(gen + 1) & 1];
        if (shared) step_kernel<true><<<blocks, block, smem, st>>>(src, dst, p->W, p->H, torus, p->rule.birth, p->rule.survive);
        else step_kernel<false><<<blocks, block, 0, st>>>(src, dst, p->W, p->H, torus, p->rule.birth, p->rule.survive);
        if ((s = life_launched(rung)) != PL_OK) return s;
    }
    const int64_t words = p->H * wpr;
    pack_kernel<<<(int)((words + 255) / 256 < 65536 ? (words + 255) / 256 : 65536), 256, 0, st>>>(
        bufs[p->gens & 1], grid, p->W, p->H, wpr);
    return life_launched(rung);
}

extern "C" pl_status pl_life_cuda_naive(const pl_run_args *a) { return run(a, false, "cuda-naive"); }
extern "C" pl_status pl_life_cuda_shared(const pl_run_args *a) { return run(a, true, "cuda-shared"); }
