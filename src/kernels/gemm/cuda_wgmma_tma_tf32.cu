/* cuda_wgmma_tma_tf32.cu: SGEMM on Hopper's tensor cores in TF32, wgmma fed by the copy engine
 * (TMA) with mbarrier producers (sm_90a only), C = alpha*A*B + beta*C, row-major, any M, N, K
 * and leading dimensions, FP32 accumulation. The previous rung (cuda-wgmma-tf32) stages its
 * tiles with cp.async issued by every thread and passes B^T through registers, so loads take
 * issue slots and registers from the MMAs, and a block barrier ends every k tile. Here B is
 * first transposed (and rounded to TF32) into a K-major copy, so both operands are wgmma
 * shared-memory descriptors; one producer thread has the copy engine fill a ring of stages
 * (cuda_tma.cuh: tensor maps, mbarriers) while two consumer warpgroups only issue wgmma, with
 * one k tile in flight. On any other GPU this rung cannot run (the frame probes for the
 * sm_90a image and the driver's tensor-map encoder).
 * What remains (docs/gemm.md): the B transpose, a read and a write of B (~10% at 4096), a step
 * cuBLAS does not need. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"
#include "kernels/gemm/cuda_tf32_tiles.cuh"
#include "kernels/gemm/cuda_tma.cuh"
#include "kernels/gemm/cuda_wgmma.cuh"

namespace {

using namespace pl_gemm_async;

__device__ __forceinline__ float tf32r(float x) { return __uint_as_float(pl_gemm_tf32::to_tf32(__float_as_uint(x))); }
using namespace pl_gemm_tf32;
using namespace pl_gemm_wgmma;

/* B (K x N, row stride ldb) to Bt (N x K, row stride ldt, a multiple of 4), each value rounded
 * to TF32: the K-major copy of B that the copy-engine rungs read. A pass over memory, so it is
 * built for bandwidth: 64 x 64 tiles through shared memory (rows padded by one float), 16-byte
 * loads along B's rows and 16-byte stores along Bt's, 16 bytes x 4 in flight per thread each
 * way; element copies where a tile crosses K or N or B's rows are not 16-byte aligned. The
 * grid's y loops over K when K / 64 exceeds the grid limit. */
__global__ void __launch_bounds__(256) transpose_b(const float *__restrict__ B, int64_t ldb, int K, int N,
                                                   float *__restrict__ Bt, int64_t ldt, bool vec)
{
    __shared__ float tile[64][65];
    const int tid = threadIdx.x, c4 = tid & 15, r0 = tid >> 4; /* 16 quads x 16 rows a pass */
    const int n0 = blockIdx.x * 64;
    for (int64_t k0 = (int64_t)blockIdx.y * 64; k0 < K; k0 += (int64_t)gridDim.y * 64) {
        const bool whole = vec && k0 + 64 <= K && n0 + 64 <= N;
        float4 v[4];
#pragma unroll
        for (int p = 0; p < 4; p++) {
            const int64_t k = k0 + r0 + 16 * p;
            const int n = n0 + 4 * c4;
            const float *src = B + k * ldb + n;
            if (whole) {
                v[p] = __ldg(reinterpret_cast<const float4 *>(src));
            } else {
                v[p] = make_float4(0.f, 0.f, 0.f, 0.f);
                if (k < K) {
                    if (n < N) v[p].x = src[0];
                    if (n + 1 < N) v[p].y = src[1];
                    if (n + 2 < N) v[p].z = src[2];
                    if (n + 3 < N) v[p].w = src[3];
                }
            }
        }
#pragma unroll
        for (int p = 0; p < 4; p++) {
            float *row = tile[r0 + 16 * p] + 4 * c4;
            row[0] = v[p].x, row[1] = v[p].y, row[2] = v[p].z, row[3] = v[p].w;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < 4; p++) {
            const int nl = r0 + 16 * p, n = n0 + nl; /* a row of Bt: 16 quads of k */
            const int64_t k = k0 + 4 * c4;
            const float4 o = make_float4(tf32r(tile[4 * c4][nl]), tf32r(tile[4 * c4 + 1][nl]), tf32r(tile[4 * c4 + 2][nl]),
                                         tf32r(tile[4 * c4 + 3][nl]));
            if (n < N) {
                float *dst = Bt + (int64_t)n * ldt + k;
                if (k + 3 < K) {
                    *reinterpret_cast<float4 *>(dst) = o;
                } else {
                    if (k < K) dst[0] = o.x;
                    if (k + 1 < K) dst[1] = o.y;
                    if (k + 2 < K) dst[2] = o.z;
                }
            }
        }
        __syncthreads();
    }
}

/* The copy-engine kernel: both operands already K-major in global memory (the
 * host transposes B into Bt, N x K, rounding it to TF32, and re-pitches A when its rows are
 * not 16-byte aligned), so both are wgmma descriptor operands and nothing a wgmma in flight
 * reads lives in registers. Warp-specialised, one block per SM, 384 threads:
 *   warpgroup 0, the producer: one thread issues the TMA copies of stage after stage (A box
 *     BM x 32, Bt box 128 x 32, 128-byte swizzle, zeros past M, N, K) and waits on the
 *     stage's "empty" barrier before refilling it; it gives its registers up (setmaxnreg);
 *   warpgroups 1-2, the consumers: each owns 64 of our n (rows of Bt) x all BM of our m,
 *     waits on the stage's "full" barrier, issues 4 wgmma m64nBMk8 (k = 32), keeps that k
 *     tile in flight while it waits for the previous one (wait_group 1), then frees the
 *     previous stage.
 * No block-wide barrier in the main loop: producer and consumers meet only at the barriers
 * of a stage. Both operands are read by the tensor core as stored: Bt rounded, A truncated. */
template <int BM, int ST>
__global__ void __launch_bounds__(384, 1)
    wgmma_tma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, int M, int N,
                     int K, float *__restrict__ C, int64_t ldc, float alpha, float beta, int kps,
                     float *__restrict__ ws)
{
#if PL_WGMMA_DEVICE
    using namespace pl_gemm_tma;
    constexpr int BK = 32, BN = 128;
    constexpr int SA = BM * 128, SB = BN * 128; /* bytes per stage, multiples of 1024 */
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ uint64_t full[ST], empty[ST];
    const unsigned base_u = smem_u32(smem_raw);
    char *sA = reinterpret_cast<char *>(smem_raw) + ((1024 - (base_u & 1023)) & 1023);
    char *sB = sA + ST * SA;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const pl_gemm_block blk = pl_gemm_block_of(M, N, K, BM, BN, BK, kps);

    if (tid == 0) {
#pragma unroll
        for (int s = 0; s < ST; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2);
        }
        mbar_init_fence();
    }
    __syncthreads();

    if (warp < 4) {
        setmaxnreg_dec<40>();
        if (tid == 0) {
            for (int kt = 0; kt < blk.ktiles; kt++) {
                const int s = kt % ST;
                if (kt >= ST) mbar_wait(&empty[s], ((kt / ST) - 1) & 1);
                mbar_arrive_expect_tx(&full[s], SA + SB);
                const int k = blk.kbeg + kt * BK;
                tma_load_2d(sA + s * SA, &tmA, k, blk.m0, &full[s]);
                tma_load_2d(sB + s * SB, &tmB, k, blk.n0, &full[s]);
            }
        }
    } else {
        setmaxnreg_inc<232>();
        const int cw = warp - 4, wg = cw >> 2, wq = cw & 3;
        const int g = lane >> 2, t = lane & 3;
        const unsigned sA_u = smem_u32(sA), bwg_u = smem_u32(sB) + wg * 64 * 128;
        float d[BM / 2];
#pragma unroll
        for (int i = 0; i < BM / 2; i++) d[i] = 0.f;
        for (int kt = 0; kt < blk.ktiles; kt++) {
            const int s = kt % ST;
            mbar_wait(&full[s], (kt / ST) & 1);
            acc_fence(d);
            wgmma_fence();
#pragma unroll
            for (int ks = 0; ks < 4; ks++)
                wgmma_tf32_ss<BM>(d, sw128_desc(bwg_u + s * SB + ks * 32), sw128_desc(sA_u + s * SA + ks * 32));
            wgmma_commit();
            wgmma_wait<1>();
            acc_fence(d);
            if (kt > 0 && (tid & 127) == 0) mbar_arrive(&empty[(kt - 1) % ST]);
        }
        wgmma_wait<0>();
        acc_fence(d);
        wg_store_tile<BM>(d, M, N, blk.m0, blk.n0, wg * 64 + wq * 16 + g, t, C, ldc, alpha, beta, ws);
    }
#endif
}

/* 1 where this file's sm_90a image runs (the kernel above is real there), 0 in the portable one. */
__global__ void sm90a_probe(int *out) { *out = PL_WGMMA_DEVICE; }

typedef void (*tma_kfn)(const CUtensorMap, const CUtensorMap, int, int, int, float *, int64_t, float, float, int,
                        float *);

/* Config I's kernel: row I of pl_gemm_wgmma_tma_tf32_cfgs. */
template <int I> tma_kfn row_kernel()
{
    constexpr pl_gemm_cfg c = pl_gemm_wgmma_tma_tf32_cfgs[I];
    return wgmma_tma_kernel<c.bm, c.stages>;
}
const tma_kfn kernels[] = {row_kernel<0>(), row_kernel<1>()};
static_assert(PL_COUNT(kernels) == PL_COUNT(pl_gemm_wgmma_tma_tf32_cfgs), "a kernel per config");

constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_wgmma_tma_tf32_cfgs)
        if (c.bn != 128 || c.bk != 32 || c.warps != 12 || !c.transposes_b) return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_wgmma_tma_tf32_cfgs: bn 128, bk 32, 12 warps, B transposed");

const void *kernel_of(int config, int) { return (const void *)kernels[config]; }

/* Stages of BM + BN rows of 128 bytes (swizzled), and 1 KB to align them to 1024 bytes. */
size_t smem_bytes(const pl_gemm_cfg &c) { return (size_t)c.stages * (c.bm + c.bn) * 128 + 1024; }

/* The K-major operands (pl_gemm_tf32_kmajor), one tensor map per operand, then the kernel; all
 * on the context's stream. */
pl_status launch(const pl_gemm_launch &l)
{
    const pl_gemm_problem *p = l.p;
    const pl_gemm_cfg &c = pl_gemm_wgmma_tma_tf32_cfgs[l.config];
    const int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    const float *A, *Bt;
    int64_t lda, ldk;
    pl_status s = pl_gemm_tf32_kmajor(l, "cuda-wgmma-tma-tf32", &A, &lda, &Bt, &ldk);
    if (s != PL_OK) return s;
    CUtensorMap map_a, map_bt;
    if (!pl_gemm_tma::make_map_2d(&map_a, A, M, K, lda, c.bm) || !pl_gemm_tma::make_map_2d(&map_bt, Bt, N, K, ldk, c.bn))
        return pl_fail(PL_ERR_CUDA, "cuda-wgmma-tma-tf32: the driver rejected a tensor map");
    kernels[l.config]<<<l.grid, c.warps * 32, smem_bytes(c), (cudaStream_t)l.a->stream>>>(
        map_a, map_bt, M, N, K, (float *)l.a->data[2], p->ldc, p->alpha, p->beta, l.kps, l.ws);
    return PL_OK;
}

} // namespace

pl_status pl_gemm_tf32_kmajor(const pl_gemm_launch &l, const char *rung, const float **a, int64_t *lda,
                              const float **bt, int64_t *ldk)
{
    const pl_gemm_problem *p = l.p;
    const int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    cudaStream_t st = (cudaStream_t)l.a->stream;
    *a = (const float *)l.a->data[0];
    *lda = p->lda;
    *ldk = ((int64_t)K + 3) / 4 * 4; /* K-major rows padded to 16 bytes */
    float *Bt = nullptr;
    pl_status s = pl_gemm_workspace(l.a->ctx, rung, PL_GEMM_WS_BT, (size_t)N * *ldk * sizeof(float), &Bt);
    if (s != PL_OK) return s;
    const int64_t kblocks = ((int64_t)K + 63) / 64;
    const float *B = (const float *)l.a->data[1];
    const bool vec = (reinterpret_cast<uintptr_t>(B) & 15) == 0 && p->ldb % 4 == 0;
    transpose_b<<<dim3((unsigned)((N + 63) / 64), (unsigned)(kblocks < 65535 ? kblocks : 65535)), 256, 0, st>>>(
        B, p->ldb, K, N, Bt, *ldk, vec);
    *bt = Bt;
    if (!pl_gemm_rows_aligned16(*a, *lda)) return pl_gemm_repitch(l.a->ctx, rung, PL_GEMM_WS_A, a, lda, M, K, st);
    return PL_OK;
}

const pl_gemm_cuda_rung_def pl_gemm_wgmma_tma_tf32_rung = {
    .name = "cuda-wgmma-tma-tf32",
    .rung = PL_GEMM_RUNG_WGMMA_TMA_TF32,
    .kernels_per_config = 1,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = sm90a_probe,
    .needs_tensor_maps = true,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_wgmma_tma_tf32(const pl_run_args *a)
{
    return pl_gemm_cuda_run(a, pl_gemm_wgmma_tma_tf32_rung);
}
