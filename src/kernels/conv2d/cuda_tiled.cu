// cuda-tiled: a block of tile x tile threads computes a tile x tile block of outputs from an
// input tile plus its halo, (tile+K-1)^2 values, staged in shared memory once: the block's
// threads load it together (consecutive threads, consecutive columns: coalesced), resolving
// the border rule while loading, so the compute loop reads only shared memory and never
// checks a border. Each input value is read from global memory once per tile (the halo rows
// and columns once more by the neighbouring tile: (tile+K-1)^2 / tile^2 reads per output, 1.13
// at tile 32, K 3). The filter sits beside the tile, flipped for --flip while staged.
// What is left: every output still reads K*K values from shared memory and the tile is loaded
// 32 bits at a time: cuda-tuned keeps several outputs per thread in registers and loads 128 bits.
#include "kernels/conv2d/cuda_common.cuh"
#include "kernels/ladder.h"

template <typename T>
static __global__ void conv2d_tiled_kernel(pl_conv2d_problem p, const T *__restrict__ img, const T *__restrict__ w,
                                           T *__restrict__ out)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int K = p.K, tile = blockDim.x, S = tile + K - 1; // S x S input tile
    T *s_img = (T *)smem, *s_w = s_img + S * S;
    const int t = threadIdx.y * tile + threadIdx.x, nt = tile * tile;
    const int off = conv2d_offset(p);
    const int64_t x0 = (int64_t)blockIdx.x * tile, y0 = (int64_t)blockIdx.y * tile;
    for (int k = t; k < K * K; k += nt) s_w[k] = w[pl_conv2d_tap(K, p.flip, k / K, k % K)];
    for (int k = t; k < S * S; k += nt) {
        const int r = k / S, c = k % S;
        s_img[k] = conv2d_pixel(img, p, y0 - off + r, x0 - off + c);
    }
    __syncthreads();
    const int64_t x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= p.OW || y >= p.OH) return;
    T acc = T(0);
    const T *row = s_img + threadIdx.y * S + threadIdx.x;
    for (int i = 0; i < K; i++, row += S)
        for (int j = 0; j < K; j++) acc = conv2d_fma(s_w[i * K + j], row[j], acc);
    out[y * p.ld_out + x] = acc;
}

static const int64_t tile_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_conv2d_cuda_tiled_params[] = {
    [PL_CONV2D_CUDA_TILED_TILE] =
        {.name = "tile", .help = "outputs per block: tile x tile, one per thread, from a (tile+K-1)^2 input tile in "
                                 "shared memory",
         .kind = PL_PARAM_LIST, .values = tile_sizes, .n_values = PL_COUNT(tile_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_conv2d_cuda_tiled_params, PL_CONV2D_CUDA_TILED_N_PARAMS);

template <typename T>
static pl_status launch(const pl_run_args *a)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    const int tile = (int)a->params[PL_CONV2D_CUDA_TILED_TILE];
    if (tile != 8 && tile != 16 && tile != 32)
        return pl_fail(PL_ERR_ARG, "cuda-tiled: tile=%d (legal: 8, 16, 32)", tile);
    if (p->OH <= 0 || p->OW <= 0) return PL_OK;
    const int64_t gx = (p->OW + tile - 1) / tile, gy = (p->OH + tile - 1) / tile;
    pl_status s = conv2d_grid_fits("cuda-tiled", p, gx, gy);
    if (s != PL_OK) return s;
    const int S = tile + p->K - 1;
    const size_t smem = sizeof(T) * (size_t)(S * S + p->K * p->K); // at most 46^2 + 225 words: 9.4 KB
    dim3 block(tile, tile), grid((unsigned)gx, (unsigned)gy);
    conv2d_tiled_kernel<T><<<grid, block, smem, (cudaStream_t)a->stream>>>(*p, (const T *)a->data[0],
                                                                          (const T *)a->data[1], (T *)a->data[2]);
    return conv2d_launched("cuda-tiled");
}

extern "C" pl_status pl_conv2d_cuda_tiled(const pl_run_args *a)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    pl_status s = conv2d_dtype_ok("cuda-tiled", p);
    if (s != PL_OK) return s;
    return p->dtype == PL_F32 ? launch<float>(a) : launch<int>(a);
}
