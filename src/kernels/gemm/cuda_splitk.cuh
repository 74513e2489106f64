/* cuda_splitk.cuh: what the CUDA top rungs' tile kernels share (cuda_tuned.cu and the
 * tensor-core rungs): the block order (grouped rasterisation) and split-K (the K range cut into
 * slices computed by separate blocks into a workspace, then summed with alpha and beta).
 * Private to the GEMM room; the reduce lives in cuda_splitk.cu, the frame that calls it in
 * cuda_frame.cu. */
#ifndef PL_GEMM_CUDA_SPLITK_CUH
#define PL_GEMM_CUDA_SPLITK_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/gemm.h"

/* Map a linear block index to a (tile_m, tile_n) with groups of 8 tile rows, so that blocks
 * running at the same time share B columns and A rows in L2. */
__device__ __forceinline__ void pl_gemm_raster(int bid, int tiles_m, int tiles_n, int &tm, int &tn)
{
    const int GROUP = 8;
    int per_group = GROUP * tiles_n;
    int g = bid / per_group;
    int first_m = g * GROUP;
    int gsz = min(tiles_m - first_m, GROUP);
    int in = bid % per_group;
    tm = first_m + in % gsz;
    tn = in / gsz;
}

/* This block's output tile (rasterised) and K slice (blockIdx.y of a split-K grid): rows from
 * m0, columns from n0, k in [kbeg, kend), ktiles tiles of bk. */
struct pl_gemm_block {
    int m0, n0, kbeg, kend, ktiles;
};
__device__ __forceinline__ pl_gemm_block pl_gemm_block_of(int M, int N, int K, int bm, int bn, int bk, int kps)
{
    pl_gemm_block b;
    int tm, tn;
    pl_gemm_raster(blockIdx.x, (M + bm - 1) / bm, (N + bn - 1) / bn, tm, tn);
    b.m0 = tm * bm;
    b.n0 = tn * bn;
    b.kbeg = blockIdx.y * kps;
    b.kend = min(K, b.kbeg + kps);
    b.ktiles = (b.kend - b.kbeg + bk - 1) / bk;
    return b;
}

/* Round a requested split (>= 1) to slices of kps elements, a multiple of bk; the split that
 * results (no empty slice). */
static inline void pl_gemm_split_k(int K, int bk, int *split, int *kps)
{
    int s = *split < 1 ? 1 : *split;
    int per = (K + s - 1) / s;
    per = (per + bk - 1) / bk * bk;
    *kps = per;
    *split = (K + per - 1) / per;
}

/* C = alpha * sum of the `split` partial M x N products in ws + beta * C (beta == 0: C is
 * not read). Launched on `stream` over at most 16 blocks per SM (`sms`: the device's count). */
pl_status pl_gemm_splitk_reduce(const char *rung, int M, int N, int split, const float *ws, float *C,
                                int64_t ldc, float alpha, float beta, int sms, cudaStream_t stream);

#endif
