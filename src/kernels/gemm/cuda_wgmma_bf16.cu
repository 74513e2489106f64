/* cuda_wgmma_bf16.cu: GEMM on Hopper's tensor cores in BF16 (sm_90a only): C (FP32) =
 * alpha*A*B + beta*C with A, B bfloat16, FP32 accumulation, row-major, any M, N, K and leading
 * dimensions. The previous rung (cuda-mma-bf16) has every warp load its own fragments and
 * issue mma.sync; here the warp-specialised persistent kernel of cuda_wgmma_ws.cuh runs: the
 * copy engine fills a ring of 48 KB stages for a producer thread, two consumer warpgroups
 * only issue wgmma m64n256k16 from shared memory, and one block per SM walks the 128 x 256
 * tiles. BF16 wgmma reads B N-major (the transposing descriptor), so B goes in as it lies:
 * unlike the TF32 rungs there is no transpose pass. Operands whose rows are not 16 bytes apart
 * (the copy engine needs that) are re-pitched first. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_wgmma_ws.cuh"

namespace {

using pl_gemm_ws::bf16_op;

/* 1 where this file's sm_90a image runs (the kernel is real there), 0 in the portable one. */
__global__ void sm90a_probe(int *out) { *out = PL_WGMMA_DEVICE; }

constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_wgmma_bf16_cfgs)
        if (c.bm != bf16_op::TM || c.bn != bf16_op::TN || c.bk != bf16_op::BK ||
            c.stages != pl_gemm_ws::STAGES || c.warps * 32 != pl_gemm_ws::THREADS)
            return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_wgmma_bf16_cfgs: the kernel's one shape");

const void *kernel_of(int, int) { return (const void *)pl_gemm_ws::wgmma_ws_kernel<bf16_op>; }
size_t smem_bytes(const pl_gemm_cfg &) { return pl_gemm_ws::SMEM_BYTES; }

pl_status launch(const pl_gemm_launch &l)
{
    const char *name = "cuda-wgmma-bf16";
    const pl_gemm_problem *p = l.p;
    cudaStream_t st = (cudaStream_t)l.a->stream;
    const void *A = l.a->data[0], *B = l.a->data[1];
    int64_t lda = p->lda, ldb = p->ldb;
    pl_status s;
    if (!pl_gemm_rows_aligned16_elems(A, lda, 2) &&
        (s = pl_gemm_repitch_elems(l.a->ctx, name, PL_GEMM_WS_A, &A, &lda, p->M, p->K, 2, st)) != PL_OK)
        return s;
    if (!pl_gemm_rows_aligned16_elems(B, ldb, 2) &&
        (s = pl_gemm_repitch_elems(l.a->ctx, name, PL_GEMM_WS_B, &B, &ldb, p->K, p->N, 2, st)) != PL_OK)
        return s;
    cudaError_t e = pl_gemm_ws::launch_ws<bf16_op>(A, lda, B, ldb, (float *)l.a->data[2], p->ldc, (int)p->M, (int)p->N,
                                                   (int)p->K, p->alpha, p->beta,
                                                   l.a->ctx->sm_count > 0 ? l.a->ctx->sm_count : 1, st, (int)l.grid.y,
                                                   l.kps, l.ws);
    if (e == cudaErrorInvalidValue) return pl_fail(PL_ERR_CUDA, "%s: the driver rejected a tensor map", name);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: launch: %s", name, cudaGetErrorString(e));
    return PL_OK;
}

} // namespace

const pl_gemm_cuda_rung_def pl_gemm_wgmma_bf16_rung = {
    .name = "cuda-wgmma-bf16",
    .rung = PL_GEMM_RUNG_WGMMA_BF16,
    .kernels_per_config = 1,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = sm90a_probe,
    .needs_tensor_maps = true,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_wgmma_bf16(const pl_run_args *a)
{
    return pl_gemm_cuda_run(a, pl_gemm_wgmma_bf16_rung);
}
