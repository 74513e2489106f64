/* cuda_wgmma_tf32.cu: SGEMM on Hopper's tensor cores in TF32 through wgmma (sm_90a only),
 * C = alpha*A*B + beta*C, row-major, any M, N, K and leading dimensions, FP32 accumulation.
 * The previous rung (cuda-mma-tf32) has every warp load both operands from shared memory into
 * registers for its m16n8k8 MMAs; here a warpgroup (4 warps) issues wgmma m64nNk8, whose
 * A^T operand the tensor core reads straight from a swizzled shared-memory tile
 * (cuda_wgmma.cuh: why the roles of A and B are swapped). All threads still stage both
 * tiles with cp.async, and B^T goes through registers (rounded to TF32 there; A is truncated
 * by the tensor core). On any other GPU this rung cannot run (the frame probes for the
 * sm_90a image).
 * What the next rung changes: the loads take issue slots and registers from the MMAs and a
 * block barrier ends every k tile; cuda-wgmma-tma-tf32 hands them to the copy engine. */
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"
#include "kernels/gemm/cuda_tf32_tiles.cuh"
#include "kernels/gemm/cuda_wgmma.cuh"

namespace {

using namespace pl_gemm_async;
using namespace pl_gemm_tf32;
using namespace pl_gemm_wgmma;

/* Block: WG warpgroups; warpgroup w owns our n rows [64w, 64w+64) of the block tile and all
 * BM (= wgmma N) of our m. Tile BM x (64*WG) x 32, ST-stage cp.async pipeline (ST-1 tiles in
 * flight). Each warpgroup drains its wgmmas at the end of every k tile (wait_group 0): keeping
 * one tile in flight (wait_group 1, prefetch distance ST-2) gave wrong results (1e20 errors;
 * the register operand or accumulators touched while in flight, see the notes), so other
 * warpgroups / a second block on the SM cover the drain instead. B is staged by cp.async,
 * 16-byte copies where B's rows allow, 4-byte ones otherwise (VB). */
template <int BM, int WG, int ST, bool CVT, bool VA, bool VB>
__global__ void __launch_bounds__(WG * 128, 1)
    wgmma_kernel(int M, int N, int K, const float *__restrict__ A, int64_t lda, const float *__restrict__ B,
                 int64_t ldb, float *__restrict__ C, int64_t ldc, float alpha, float beta, int kps,
                 float *__restrict__ ws)
{
#if PL_WGMMA_DEVICE
    constexpr int BK = 32, BN = 64 * WG, NT = WG * 128;
    constexpr int LDB_S = BN + 8;
    constexpr int SA = BM * 128;              /* bytes per A stage (multiple of 1024) */
    constexpr int SB = BK * LDB_S;            /* floats per B stage */
    constexpr int PF = ST - 1; /* tiles prefetched ahead */
    static_assert(PF >= 1, "stages");
    extern __shared__ __align__(16) unsigned char smem_raw[];
    /* 1024-byte alignment for the swizzled A stages */
    const unsigned base_u = smem_u32(smem_raw);
    char *sA = reinterpret_cast<char *>(smem_raw) + ((1024 - (base_u & 1023)) & 1023);
    float *sB = reinterpret_cast<float *>(sA + ST * SA);
    const unsigned sA_u = smem_u32(sA);

    const int tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2, wq = warp & 3;
    const int g = lane >> 2, t = lane & 3;

    const pl_gemm_block blk = pl_gemm_block_of(M, N, K, BM, BN, BK, kps);
    const int m0 = blk.m0, n0 = blk.n0, kbeg = blk.kbeg, kend = blk.kend, ktiles = blk.ktiles;

    float d[BM / 2];
#pragma unroll
    for (int i = 0; i < BM / 2; i++) d[i] = 0.f;

#pragma unroll
    for (int s = 0; s < PF; s++) {
        if (s < ktiles) {
            wg_load_a<BM, NT, VA>(sA + s * SA, A, lda, M, m0, kbeg + s * BK, kend, tid);
            load_b<BN, BK, NT, VB>(sB + s * SB, B, ldb, N, n0, kbeg + s * BK, kend, tid);
        }
        cp_async_commit();
    }
    const int nrow = wg * 64 + wq * 16 + g; /* this thread's fragment rows: nrow, nrow + 8 */

    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<PF - 1>();
        fence_proxy_async();
        __syncthreads();
        {
            const int nk = kt + PF;
            if (nk < ktiles) {
                const int s = nk % ST;
                wg_load_a<BM, NT, VA>(sA + s * SA, A, lda, M, m0, kbeg + nk * BK, kend, tid);
                load_b<BN, BK, NT, VB>(sB + s * SB, B, ldb, N, n0, kbeg + nk * BK, kend, tid);
            }
            cp_async_commit();
        }
        const int st = kt % ST;
        const float *Bs = sB + st * SB + nrow;
        unsigned af[4][4];
#pragma unroll
        for (int ks = 0; ks < 4; ks++) {
            const float *b = Bs + (ks * 8 + t) * LDB_S;
            unsigned x0 = __float_as_uint(b[0]), x1 = __float_as_uint(b[8]);
            unsigned x2 = __float_as_uint(b[4 * LDB_S]), x3 = __float_as_uint(b[4 * LDB_S + 8]);
            af[ks][0] = CVT ? to_tf32(x0) : x0;
            af[ks][1] = CVT ? to_tf32(x1) : x1;
            af[ks][2] = CVT ? to_tf32(x2) : x2;
            af[ks][3] = CVT ? to_tf32(x3) : x3;
        }
        acc_fence(d);
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < 4; ks++) wgmma_tf32_rs<BM>(d, af[ks], sw128_desc(sA_u + st * SA + ks * 32));
        wgmma_commit();
        wgmma_wait<0>();
        acc_fence(d);
    }
    wgmma_wait<0>();
    acc_fence(d);
    cp_async_wait<0>();

    wg_store_tile<BM>(d, M, N, m0, n0, nrow, t, C, ldc, alpha, beta, ws);
#endif
}

/* 1 where this file's sm_90a image runs (the kernel above is real there), 0 in the portable one. */
__global__ void sm90a_probe(int *out) { *out = PL_WGMMA_DEVICE; }

/* Config I's kernel: row I of pl_gemm_wgmma_tf32_cfgs, A and B staged by 16-byte copies (VA,
 * VB: their rows are 16-byte aligned) or by 4-byte ones. */
template <int I, bool VA, bool VB> pl_gemm_tile_kernel row_kernel()
{
    constexpr pl_gemm_cfg c = pl_gemm_wgmma_tf32_cfgs[I];
    return wgmma_kernel<c.bm, c.warpgroups, c.stages, !c.truncates, VA, VB>;
}
#define ROW(i) {row_kernel<i, false, false>(), row_kernel<i, false, true>(), row_kernel<i, true, false>(), row_kernel<i, true, true>()}
const pl_gemm_tile_kernel kernels[][4] = {ROW(0), ROW(1), ROW(2), ROW(3)}; /* [config][VA * 2 + VB] */
#undef ROW
static_assert(PL_COUNT(kernels) == PL_COUNT(pl_gemm_wgmma_tf32_cfgs), "kernels per config");

constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_wgmma_tf32_cfgs)
        if (c.bn != 64 * c.warpgroups || c.warps != 4 * c.warpgroups || c.bk != 32) return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_wgmma_tf32_cfgs: bn = 64 warpgroups, warps = 4 warpgroups, bk = 32");

const void *kernel_of(int config, int k) { return (const void *)kernels[config][k]; }

/* A stages of BM rows of 128 bytes (swizzled), B stages of BK x (BN + 8) floats, and 1 KB to
 * align the A stages to 1024 bytes. */
size_t smem_bytes(const pl_gemm_cfg &c) { return (size_t)c.stages * (c.bm * 128 + c.bk * (c.bn + 8) * sizeof(float)) + 1024; }

pl_status launch(const pl_gemm_launch &l)
{
    const pl_gemm_cfg &c = pl_gemm_wgmma_tf32_cfgs[l.config];
    pl_gemm_launch_tile_kernel(l, kernels[l.config][pl_gemm_operand_case(l)], c.warps * 32, smem_bytes(c),
                               (const float *)l.a->data[1], l.p->ldb);
    return PL_OK;
}

} // namespace

const pl_gemm_cuda_rung_def pl_gemm_wgmma_tf32_rung = {
    .name = "cuda-wgmma-tf32",
    .rung = PL_GEMM_RUNG_WGMMA_TF32,
    .kernels_per_config = 4,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = sm90a_probe,
    .needs_tensor_maps = false,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_wgmma_tf32(const pl_run_args *a) { return pl_gemm_cuda_run(a, pl_gemm_wgmma_tf32_rung); }
