/* cuda_splitk.cuh: what the CUDA top rungs (cuda_tuned.cu, cuda_tf32.cu) share around their
 * tile kernels: the block order (grouped rasterisation) and split-K (the K range cut into
 * slices computed by separate blocks into a workspace, then summed with alpha and beta).
 * Private to the GEMM room; the host half lives in cuda_splitk.cu. */
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

/* What both rungs do first: the sizes fit an int, and the (1-based) tile config and the K
 * split are resolved: a 0 in params[0] (config) or params[1] (splitk) asks `choose` (0-based
 * config, split) for this shape; a config named by the user keeps split 1 unless named too. */
typedef void (*pl_gemm_choose_fn)(const void *state, int64_t M, int64_t N, int64_t K, int &ci, int &split);
static inline pl_status pl_gemm_cuda_resolve(const char *rung, const pl_gemm_problem *d,
                                             const int64_t *params, int n_cfgs, pl_gemm_choose_fn choose,
                                             const void *state, int *ci, int *split)
{
    if (d->M <= 0 || d->N <= 0 || d->K <= 0) return pl_fail(PL_ERR_ARG, "%s: empty problem", rung);
    if (d->M > INT32_MAX || d->N > INT32_MAX || d->K > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: dimension over 2^31", rung);
    *ci = params ? (int)params[0] : 0;
    *split = params ? (int)params[1] : 0;
    if (*ci < 0 || *ci > n_cfgs) return pl_fail(PL_ERR_ARG, "%s: config %d out of 0..%d", rung, *ci, n_cfgs);
    if (*ci == 0 || *split == 0) {
        int aci, asp;
        choose(state, d->M, d->N, d->K, aci, asp);
        if (*ci == 0) *ci = aci + 1;
        if (*split == 0) *split = (*ci == aci + 1) ? asp : 1;
    }
    return PL_OK;
}

/* What each rung's per-context init_state (pl_ctx_state) does first: check that the context's
 * device is the calling thread's current one (pl_ctx_activate selects it; fails with
 * PL_ERR_CUDA naming `rung` otherwise), and give its SM count (at least 1) in *sms. */
pl_status pl_gemm_ctx_device(const pl_ctx *ctx, const char *rung, int *sms);

/* Device workspaces of the CUDA rungs: the context's device workspace slots (pl_ctx_dev_workspace),
 * grown and kept between calls, shared by the rungs of one context (whose calls come on its one
 * stream), never by two contexts; freed by pl_ctx_destroy. SPLITK holds the
 * partial products of split-K; BT and A hold operands rewritten K-major for the copy engine
 * (cuda-tf32's TMA configs: B transposed, A re-pitched when its rows are not 16-byte aligned);
 * B holds cuda-tuned's re-pitched B. */
enum pl_gemm_ws_slot { PL_GEMM_WS_SPLITK = 0, PL_GEMM_WS_BT = 1, PL_GEMM_WS_A = 2, PL_GEMM_WS_B = 3, PL_GEMM_WS_SLOTS = 4 };
static_assert((int)PL_GEMM_WS_SLOTS <= (int)PL_CTX_DEV_WS_SLOTS, "the GEMM slots fit the context's");
pl_status pl_gemm_workspace(pl_ctx *ctx, const char *rung, int slot, size_t bytes, float **ws);

/* Copy a rows x cols matrix (row stride *ld floats) into ctx's workspace `slot` with its rows 16
 * bytes apart (stride cols rounded up to 4) and point *m, *ld at the copy: what lets a rung
 * take its 16-byte (or copy-engine) path when a caller's leading dimension is odd. Enqueued
 * on `stream`; costs a read and a write of the matrix. */
pl_status pl_gemm_repitch(pl_ctx *ctx, const char *rung, int slot, const float **m, int64_t *ld, int64_t rows, int64_t cols,
                          cudaStream_t stream);

/* C = alpha * sum of the `split` partial M x N products in ws + beta * C (beta == 0: C is
 * not read). Launched on `stream` over at most 16 blocks per SM (`sms`: the device's count). */
pl_status pl_gemm_splitk_reduce(const char *rung, int M, int N, int split, const float *ws, float *C,
                                int64_t ldc, float alpha, float beta, int sms, cudaStream_t stream);

#endif
