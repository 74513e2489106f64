/* cuda_wgmma_persistent_tf32.cu: SGEMM on Hopper's tensor cores in TF32 (sm_90a only), C =
 * alpha*A*B + beta*C, row-major, any M, N, K and leading dimensions, FP32 accumulation. The
 * previous rung (cuda-wgmma-tma-tf32) launches a block per 256 x 128 tile and computes C^T: each
 * block fills its ring, drains it and ends, so the copy engine idles while a block stores its
 * tile and the next one starts. Here one block per SM stays and walks tile after tile
 * (cuda_wgmma_ws.cuh): its producer runs on into the next tile's k tiles while the consumers
 * store the last one, and the blocks at work at once walk neighbouring tiles, so they share A
 * and B panels in L2. TF32 wgmma reads only K-major operands from shared memory, so:
 *   config 1: the tile is 128 x 256 in C's own orientation (two consumer warpgroups of m64n256)
 *     and B is transposed (and rounded) into a K-major copy first, as in the previous rung;
 *   config 2: no transpose. The kernel computes C^T = B^T A^T over 256 x 128 tiles: B^T is
 *     wgmma's operand A, which may come from registers, so each consumer thread loads its
 *     fragments from the N-major B tile the copy engine brought (rounding them), one k tile
 *     ahead of their use. At 4096 this saves the pass (~50 us of 0.385 ms on the H200). */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_wgmma_ws.cuh"

namespace {

using pl_gemm_ws::tf32_op;
using pl_gemm_ws::tf32_rs_op;

/* 1 where this file's sm_90a image runs (the kernel is real there), 0 in the portable one. */
__global__ void sm90a_probe(int *out) { *out = PL_WGMMA_DEVICE; }

/* The two rows: config 1 the C-oriented kernel on a transposed B, config 2 the C^T one with B's
 * fragments through registers. */
constexpr bool rows_consistent()
{
    constexpr const pl_gemm_cfg *c = pl_gemm_wgmma_persistent_tf32_cfgs;
    return PL_COUNT(pl_gemm_wgmma_persistent_tf32_cfgs) == 2 && c[0].bm == tf32_op::TM && c[0].bn == tf32_op::TN &&
           c[0].transposes_b && c[1].bm == tf32_rs_op::TM && c[1].bn == tf32_rs_op::TN && !c[1].transposes_b &&
           c[0].bk == tf32_op::BK && c[1].bk == tf32_op::BK && c[0].stages == pl_gemm_ws::STAGES &&
           c[1].stages == pl_gemm_ws::STAGES && c[0].warps * 32 == pl_gemm_ws::THREADS &&
           c[1].warps * 32 == pl_gemm_ws::THREADS;
}
static_assert(rows_consistent(), "pl_gemm_wgmma_persistent_tf32_cfgs: the kernel's two shapes");

const void *kernel_of(int config, int)
{
    return config == 0 ? (const void *)pl_gemm_ws::wgmma_ws_kernel<tf32_op>
                       : (const void *)pl_gemm_ws::wgmma_ws_kernel<tf32_rs_op>;
}
size_t smem_bytes(const pl_gemm_cfg &) { return pl_gemm_ws::SMEM_BYTES; }

/* Config 1: the K-major operands as cuda-wgmma-tma-tf32 makes them (B transposed and rounded,
 * A re-pitched when needed). Config 2: no transpose; B (and A) re-pitched only when their rows
 * are not 16 bytes apart (the copy engine's need). Then one block per SM (or per unit of work,
 * when there are fewer) on the context's stream. */
pl_status launch(const pl_gemm_launch &l)
{
    const char *name = "cuda-wgmma-persistent-tf32";
    const pl_gemm_problem *p = l.p;
    const int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    const int sms = l.a->ctx->sm_count > 0 ? l.a->ctx->sm_count : 1;
    cudaStream_t st = (cudaStream_t)l.a->stream;
    float *C = (float *)l.a->data[2];
    const float *A, *B;
    int64_t lda, ldb;
    pl_status s;
    cudaError_t e;
    if (pl_gemm_wgmma_persistent_tf32_cfgs[l.config].transposes_b) {
        if ((s = pl_gemm_tf32_kmajor(l, name, &A, &lda, &B, &ldb)) != PL_OK) return s;
        e = pl_gemm_ws::launch_ws<tf32_op>(A, lda, B, ldb, C, p->ldc, M, N, K, p->alpha, p->beta, sms, st,
                                           (int)l.grid.y, l.kps, l.ws);
    } else {
        A = (const float *)l.a->data[0], B = (const float *)l.a->data[1], lda = p->lda, ldb = p->ldb;
        if (!pl_gemm_rows_aligned16(A, lda) && (s = pl_gemm_repitch(l.a->ctx, name, PL_GEMM_WS_A, &A, &lda, M, K, st)) != PL_OK)
            return s;
        if (!pl_gemm_rows_aligned16(B, ldb) && (s = pl_gemm_repitch(l.a->ctx, name, PL_GEMM_WS_B, &B, &ldb, K, N, st)) != PL_OK)
            return s;
        e = pl_gemm_ws::launch_ws<tf32_rs_op>(A, lda, B, ldb, C, p->ldc, M, N, K, p->alpha, p->beta, sms, st,
                                              (int)l.grid.y, l.kps, l.ws);
    }
    if (e == cudaErrorInvalidValue) return pl_fail(PL_ERR_CUDA, "%s: the driver rejected a tensor map", name);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: launch: %s", name, cudaGetErrorString(e));
    return PL_OK;
}

} // namespace

const pl_gemm_cuda_rung_def pl_gemm_wgmma_persistent_tf32_rung = {
    .name = "cuda-wgmma-persistent-tf32",
    .rung = PL_GEMM_RUNG_WGMMA_PERSISTENT_TF32,
    .kernels_per_config = 1,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = sm90a_probe,
    .needs_tensor_maps = true,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_wgmma_persistent_tf32(const pl_run_args *a)
{
    return pl_gemm_cuda_run(a, pl_gemm_wgmma_persistent_tf32_rung);
}
