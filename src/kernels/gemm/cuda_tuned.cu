/* cuda_tuned.cu: FP32 SGEMM on CUDA cores (no tensor cores), C = alpha*A*B + beta*C, row-major.
 *
 * Design (see docs/notes/gemm-cuda.md):
 *   - block tile BM x BN x BK (BK = 16), WARPS_M x WARPS_N warps, each warp 32 x 64 outputs,
 *     each thread 8 x 8 outputs in registers (64 FFMA per 4 LDS.128 per k step);
 *   - A stored transposed in shared memory (sA[k][m], rows padded to BM+4 floats) through
 *     4-byte cp.async; each thread reads float4 along m (4 rows at one k); B row-major,
 *     float4 along n; 16 x 8 per thread in the TM = 16 configs;
 *   - cp.async multi-stage pipeline (ST stages) global -> shared; 16-byte copies when the
 *     pointer and leading dimension allow (with zero-filled tails), 4-byte copies otherwise;
 *     out-of-range elements are zero-filled, so any M, N, K work; blocks wholly inside M x N
 *     load their full k tiles through a predicate-free path whose per-thread pointers are
 *     computed once and advanced by BK per tile (the general path recomputes them per tile);
 *   - grouped block rasterisation for L2 reuse and split-K (workspace + a reduce that applies
 *     alpha and beta; beta == 0: C never read), both from cuda_splitk.cuh.
 * The configs are rows of pl_gemm_tuned_cfgs (cuda_configs.h); the frame (cuda_frame.cuh)
 * picks one per shape from the GPU's tuning table and launches it through launch() below.
 * What the next rung changes: the FFMA issue rate is the limit; cuda-mma-tf32 hands the
 * products to the tensor cores.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"

namespace {

using namespace pl_gemm_async;


/* A tile: BM rows x BK k, stored transposed in shared memory: sA[k][m], row stride BM+4
 * (the pad keeps the transposing 4-byte writes at most 2-way bank-conflicted and the rows
 * 16-byte aligned for LDS.128). Rows >= M or k >= kend are zero-filled. */
template <int BM, int BK, int NT>
__device__ __forceinline__ void load_a(float *sA, const float *A, int64_t lda, int M, int m0, int k0,
                                       int kend, int tid)
{
    constexpr int LDS = BM + 4;
    constexpr int EL = BM * BK;
    static_assert(EL % NT == 0 && NT % BK == 0, "A tile");
    const int r0 = tid / BK, kc = tid % BK;
    const int k = k0 + kc;
    const bool kok = k < kend;
    const float *p = A + (int64_t)(m0 + r0) * lda + k;
    const int64_t step = (int64_t)(NT / BK) * lda;
    float *d = sA + kc * LDS + r0;
#pragma unroll
    for (int it = 0; it < EL / NT; it++) {
        bool ok = kok && (m0 + r0 + it * (NT / BK) < M);
        cp_async4(d + it * (NT / BK), ok ? p + it * step : A, ok ? 4 : 0);
    }
}

/* B tile: BK k x BN cols, smem row stride BN. */
template <int BN, int BK, int NT, bool VEC>
__device__ __forceinline__ void load_b(float *sB, const float *B, int64_t ldb, int N, int n0, int k0,
                                       int kend, int tid)
{
    if (VEC) {
        constexpr int CH = BK * BN / 4;
        static_assert(CH % NT == 0, "B tile");
        constexpr int RS = NT / (BN / 4); /* rows per pass (>= 1 when NT >= BN/4) */
        static_assert(NT % (BN / 4) == 0, "B tile rows");
        const int r0 = tid / (BN / 4), nc = (tid % (BN / 4)) * 4;
        const int n = n0 + nc;
        int nb = min(4, N - n);
        nb = nb < 0 ? 0 : nb;
        const float *p = B + (int64_t)(k0 + r0) * ldb + n;
        const int64_t step = (int64_t)RS * ldb;
        float *d = sB + r0 * BN + nc;
#pragma unroll
        for (int it = 0; it < CH / NT; it++) {
            bool ok = (nb > 0) && (k0 + r0 + it * RS < kend);
            cp_async16_edge(d + it * RS * BN, ok ? p + it * step : B, ok ? nb : 0);
        }
    } else {
        constexpr int EL = BK * BN;
        static_assert(EL % NT == 0 && NT % BN == 0 || BN % NT == 0, "B tile");
#pragma unroll
        for (int it = 0; it < EL / NT; it++) {
            int e = tid + it * NT;
            int r = e / BN, nc = e % BN;
            int k = k0 + r, n = n0 + nc;
            bool ok = (k < kend) && (n < N);
            cp_async4(sB + r * BN + nc, ok ? B + (int64_t)k * ldb + n : B, ok ? 4 : 0);
        }
    }
}



/* Interior fast path (block fully inside M x N, k tile fully inside [kbeg, kend)): no
 * predicates, no selects; `pa` / `pb` are this thread's first element of the tile, computed
 * once before the k loop and advanced by BK (A) / BK*ldb (B) per tile. */
template <int BM, int BK, int NT>
__device__ __forceinline__ void load_a_fast(float *sA, const float *pa, int64_t lda, int tid)
{
    constexpr int LDS = BM + 4;
    constexpr int EL = BM * BK;
    const int r0 = tid / BK, kc = tid % BK;
    float *d = sA + kc * LDS + r0;
    const int64_t step = (int64_t)(NT / BK) * lda;
#pragma unroll
    for (int it = 0; it < EL / NT; it++) cp_async4_full(d + it * (NT / BK), pa + it * step);
}

template <int BN, int BK, int NT, bool VEC>
__device__ __forceinline__ void load_b_fast(float *sB, const float *pb, int64_t ldb, int tid)
{
    if (VEC) {
        constexpr int CH = BK * BN / 4;
        constexpr int RS = NT / (BN / 4);
        const int r0 = tid / (BN / 4), nc = (tid % (BN / 4)) * 4;
        float *d = sB + r0 * BN + nc;
        const int64_t step = (int64_t)RS * ldb;
#pragma unroll
        for (int it = 0; it < CH / NT; it++) cp_async16(d + it * RS * BN, pb + it * step);
    } else {
        /* pb = B + (k0 + tid/BN)*ldb + n0 + tid%BN; element it sits (it*NT)/BN rows and
         * (it*NT)%BN columns further (NT % BN == 0 or BN % NT == 0), at sB + tid + it*NT.
         * The row pointer walks by ldb (one 64-bit add per new row, no 64-bit multiplies). */
        constexpr int EL = BK * BN;
        static_assert(NT % BN == 0 || BN % NT == 0, "B tile");
        const float *q = pb;
#pragma unroll
        for (int it = 0; it < EL / NT; it++) {
            cp_async4_full(sB + tid + it * NT, q + (it * NT) % BN);
            const int dr = ((it + 1) * NT) / BN - (it * NT) / BN;
            if (dr) q += dr * ldb;
        }
    }
}


template <int WARPS_M, int WARPS_N, int TM, int BK, int ST, bool VB>
__global__ void __launch_bounds__(WARPS_M *WARPS_N * 32,
                                  TM == 16 ? (WARPS_M * WARPS_N >= 8 ? 1 : 8 / (WARPS_M * WARPS_N))
                                  : (WARPS_M * WARPS_N >= 8) ? 16 / (WARPS_M * WARPS_N) : 12 / (WARPS_M * WARPS_N))
    sgemm_kernel(int M, int N, int K, const float *__restrict__ A, int64_t lda,
                 const float *__restrict__ B, int64_t ldb, float *__restrict__ C, int64_t ldc,
                 float alpha, float beta, int kps, float *__restrict__ ws)
{
    constexpr int NT = WARPS_M * WARPS_N * 32;
    constexpr int BM = WARPS_M * 4 * TM, BN = WARPS_N * 64;
    constexpr int TG = TM / 4; /* groups of 4 rows per thread, 16 rows apart */
    constexpr int LDA_S = BM + 4;
    constexpr int SA = BK * LDA_S, SB = BK * BN;
    extern __shared__ __align__(16) float smem[];
    float *sA = smem;
    float *sB = smem + ST * SA;

    const int tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int tr = lane >> 3, tc = lane & 7;

    const pl_gemm_block blk = pl_gemm_block_of(M, N, K, BM, BN, BK, kps);
    const int m0 = blk.m0, n0 = blk.n0, kbeg = blk.kbeg, kend = blk.kend, ktiles = blk.ktiles;

    float acc[TM][8];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] = 0.f;

    /* Loader state hoisted out of the k loop: per-thread base pointers of k tile 0. */
    /* Config 1 (8x8 per thread, 2 blocks/SM) sits at the 128-register cap and 4-byte B tiles of
     * 32 elements per thread (configs 6, 7 with VB=0) spill with the hoisted state: those keep
     * the general loader only. */
    constexpr bool FAST = !(TM == 8 && WARPS_M * WARPS_N >= 8) && (VB || BK * BN / NT <= 16);
    const bool interior = FAST && (m0 + BM <= M) && (n0 + BN <= N);
    const float *pa = A + (int64_t)(m0 + tid / BK) * lda + (kbeg + tid % BK);
    const float *pb = VB ? B + (int64_t)(kbeg + tid / (BN / 4)) * ldb + (n0 + (tid % (BN / 4)) * 4)
                         : B + (int64_t)(kbeg + tid / BN) * ldb + (n0 + tid % BN);
    const int64_t bstep = (int64_t)BK * ldb;
    auto issue = [&](int s, int t) {
        const int k0 = kbeg + t * BK;
        if (interior && k0 + BK <= kend) {
            load_a_fast<BM, BK, NT>(sA + s * SA, pa + t * BK, lda, tid);
            load_b_fast<BN, BK, NT, VB>(sB + s * SB, pb + t * bstep, ldb, tid);
        } else {
            load_a<BM, BK, NT>(sA + s * SA, A, lda, M, m0, k0, kend, tid);
            load_b<BN, BK, NT, VB>(sB + s * SB, B, ldb, N, n0, k0, kend, tid);
        }
    };

#pragma unroll
    for (int s = 0; s < ST - 1; s++) {
        if (s < ktiles) issue(s, s);
        cp_async_commit();
    }

    const int arow = wm * 4 * TM + tr * 4; /* + 16*(i/4) + i%4 */
    const int bcol = wn * 64 + tc * 4;  /* + 32*j */

    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<ST - 2>();
        __syncthreads();
        {
            int nk = kt + ST - 1;
            if (nk < ktiles) issue(nk % ST, nk);
            cp_async_commit();
        }
        const float *As = sA + (kt % ST) * SA + arow;
        const float *Bs = sB + (kt % ST) * SB + bcol;
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float av[TM];
#pragma unroll
            for (int gi = 0; gi < TG; gi++) {
                float4 a = *reinterpret_cast<const float4 *>(As + kk * LDA_S + 16 * gi);
                av[4 * gi] = a.x; av[4 * gi + 1] = a.y; av[4 * gi + 2] = a.z; av[4 * gi + 3] = a.w;
            }
            float4 b0 = *reinterpret_cast<const float4 *>(Bs + kk * BN);
            float4 b1 = *reinterpret_cast<const float4 *>(Bs + kk * BN + 32);
            float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
    }
    cp_async_wait<0>();

    /* epilogue */
    if (ws) {
        float *P = ws + (int64_t)blockIdx.y * M * N;
        const bool vec = (N % 4) == 0;
#pragma unroll
        for (int i = 0; i < TM; i++) {
            int m = m0 + arow + (i >> 2) * 16 + (i & 3);
            if (m >= M) continue;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int n = n0 + bcol + 32 * h;
                float *p = P + (int64_t)m * N + n;
                if (vec && n + 3 < N) {
                    *reinterpret_cast<float4 *>(p) =
                        make_float4(acc[i][4 * h], acc[i][4 * h + 1], acc[i][4 * h + 2], acc[i][4 * h + 3]);
                } else {
#pragma unroll
                    for (int q = 0; q < 4; q++)
                        if (n + q < N) p[q] = acc[i][4 * h + q];
                }
            }
        }
        return;
    }
    const bool vec = ((ldc & 3) == 0) && ((reinterpret_cast<uintptr_t>(C) & 15) == 0);
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int m = m0 + arow + (i >> 2) * 16 + (i & 3);
        if (m >= M) continue;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int n = n0 + bcol + 32 * h;
            float *p = C + (int64_t)m * ldc + n;
            if (vec && n + 3 < N) {
                float4 r;
                r.x = alpha * acc[i][4 * h];
                r.y = alpha * acc[i][4 * h + 1];
                r.z = alpha * acc[i][4 * h + 2];
                r.w = alpha * acc[i][4 * h + 3];
                if (beta != 0.f) {
                    float4 c = *reinterpret_cast<const float4 *>(p);
                    r.x += beta * c.x; r.y += beta * c.y; r.z += beta * c.z; r.w += beta * c.w;
                }
                *reinterpret_cast<float4 *>(p) = r;
            } else {
#pragma unroll
                for (int q = 0; q < 4; q++)
                    if (n + q < N) {
                        float r = alpha * acc[i][4 * h + q];
                        if (beta != 0.f) r += beta * p[q];
                        p[q] = r;
                    }
            }
        }
    }
}


/* Config I's kernel: row I of pl_gemm_tuned_cfgs, B staged by 16-byte copies (VB: its rows are
 * 16-byte aligned) or by 4-byte ones. */
template <int I, bool VB> pl_gemm_tile_kernel row_kernel()
{
    constexpr pl_gemm_cfg c = pl_gemm_tuned_cfgs[I];
    return sgemm_kernel<c.warps_m, c.warps_n, c.tm, c.bk, c.stages, VB>;
}
const pl_gemm_tile_kernel kernels[][2] = {
    {row_kernel<0, false>(), row_kernel<0, true>()}, {row_kernel<1, false>(), row_kernel<1, true>()},
    {row_kernel<2, false>(), row_kernel<2, true>()}, {row_kernel<3, false>(), row_kernel<3, true>()},
    {row_kernel<4, false>(), row_kernel<4, true>()}, {row_kernel<5, false>(), row_kernel<5, true>()},
    {row_kernel<6, false>(), row_kernel<6, true>()}, {row_kernel<7, false>(), row_kernel<7, true>()},
};
static_assert(PL_COUNT(kernels) == PL_COUNT(pl_gemm_tuned_cfgs), "a kernel pair per config");

/* Each row's tile is what its warps compute: warps of 32 x 64 outputs, tm x 8 per thread. */
constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_tuned_cfgs)
        if (c.bm != c.warps_m * 4 * c.tm || c.bn != c.warps_n * 64 || c.warps != c.warps_m * c.warps_n) return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_tuned_cfgs: bm = 4 tm warps_m, bn = 64 warps_n, warps = warps_m warps_n");

const void *kernel_of(int config, int k) { return (const void *)kernels[config][k]; }

/* A stages of BK x (BM + 4) floats (transposed, padded) and B stages of BK x BN. */
size_t smem_bytes(const pl_gemm_cfg &c) { return (size_t)c.stages * ((c.bm + 4) * c.bk + c.bk * c.bn) * sizeof(float); }

pl_status launch(const pl_gemm_launch &l)
{
    const pl_gemm_cfg &c = pl_gemm_tuned_cfgs[l.config];
    /* B rows not 16-byte aligned (odd ldb): a large enough problem first copies B to rows 16
     * bytes apart (one read and write of B, against M/bm re-reads by the 4-byte loader). */
    const float *B = (const float *)l.a->data[1];
    int64_t ldb = l.p->ldb;
    bool vb = pl_gemm_rows_aligned16(B, ldb);
    if (!vb && l.p->M >= 512 && l.p->N >= 512) {
        pl_status s = pl_gemm_repitch(l.a->ctx, "cuda-tuned", PL_GEMM_WS_B, &B, &ldb, l.p->K, l.p->N,
                                      (cudaStream_t)l.a->stream);
        if (s != PL_OK) return s;
        vb = true;
    }
    pl_gemm_launch_tile_kernel(l, kernels[l.config][vb ? 1 : 0], c.warps * 32, smem_bytes(c), B, ldb);
    return PL_OK;
}

const pl_gemm_cuda_rung_def tuned_rung = {
    .name = "cuda-tuned",
    .rung = PL_GEMM_RUNG_TUNED,
    .kernels_per_config = 2,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = nullptr,
    .needs_tensor_maps = false,
    .launch = launch,
};

} // namespace

extern "C" pl_status pl_gemm_cuda_tuned(const pl_run_args *a) { return pl_gemm_cuda_run(a, tuned_rung); }
