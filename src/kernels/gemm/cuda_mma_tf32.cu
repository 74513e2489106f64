/* cuda_mma_tf32.cu: SGEMM on the tensor cores in TF32 through mma.sync m16n8k8 (any GPU since
 * sm_80), C = alpha*A*B + beta*C, row-major, any M, N, K and leading dimensions, FP32
 * accumulation. The previous rung (cuda-tuned) issues one FFMA per multiply-add; here a warp's
 * m16n8k8 MMA does 1024 of them in one instruction, on operands rounded to TF32 (cvt.rna) as
 * they leave shared memory (config 4 truncates).
 *
 * Design (see docs/notes/gemm-cuda.md):
 *   - block tile BM x BN x BK (BK = 32), WARPS_M x WARPS_N warps, warp tile WTM x WTN made of
 *     m16n8k8 MMAs; A fragments by ldmatrix.x4 from a row-major (k-contiguous) A tile whose
 *     rows are padded to BK+4 floats (conflict-free); B fragments by two LDS.32 per n8 tile
 *     from a row-major B tile padded to BN+8 floats (conflict-free);
 *   - cp.async multi-stage pipeline; 16-byte copies (zero-filled tails) when the pointer and
 *     leading dimension allow, 4-byte copies otherwise (odd lda/ldb), zero fill past M, N, K
 *     (cuda_tf32_tiles.cuh);
 *   - grouped rasterisation and split-K from cuda_splitk.cuh; config and split per shape by
 *     the frame (cuda_frame.cuh) from the GPU's tuning table.
 * What the next rung changes: every warp feeds its MMAs from registers it loaded itself;
 * cuda-wgmma-tf32 lets a warpgroup's wgmma read A straight from shared memory (Hopper).
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"
#include "kernels/gemm/cuda_tf32_tiles.cuh"

namespace {

using namespace pl_gemm_async;
using namespace pl_gemm_tf32;

/* A fragments (ldmatrix.x4 per m16 tile) and B fragments (two LDS.32 per n8 tile) of one
 * k8 step; CVT rounds them to TF32 (round to nearest), otherwise the MMA truncates. */
template <int MT, int NT8, int LDA_S, int LDB_S, bool CVT>
__device__ __forceinline__ void load_frags(const float *As, const float *Bs, int ks, int a_row, int a_col,
                                           int b_col, int t, unsigned (&af)[MT][4], unsigned (&bf)[NT8][2])
{
#pragma unroll
    for (int i = 0; i < MT; i++) {
        unsigned addr = smem_u32(As + (a_row + i * 16) * LDA_S + ks + a_col);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(af[i][0]), "=r"(af[i][1]), "=r"(af[i][2]), "=r"(af[i][3])
                     : "r"(addr));
        if (CVT)
#pragma unroll
            for (int q = 0; q < 4; q++) af[i][q] = to_tf32(af[i][q]);
    }
#pragma unroll
    for (int j = 0; j < NT8; j++) {
        unsigned b0 = __float_as_uint(Bs[(ks + t) * LDB_S + b_col + j * 8]);
        unsigned b1 = __float_as_uint(Bs[(ks + t + 4) * LDB_S + b_col + j * 8]);
        bf[j][0] = CVT ? to_tf32(b0) : b0;
        bf[j][1] = CVT ? to_tf32(b1) : b1;
    }
}

template <int BM, int BN, int WARPS_M, int WARPS_N, int BK, int ST, bool CVT, bool VA, bool VB>
__global__ void __launch_bounds__(WARPS_M *WARPS_N * 32, 1)
    tf32_kernel(int M, int N, int K, const float *__restrict__ A, int64_t lda,
                const float *__restrict__ B, int64_t ldb, float *__restrict__ C, int64_t ldc,
                float alpha, float beta, int kps, float *__restrict__ ws)
{
    constexpr int NT = WARPS_M * WARPS_N * 32;
    constexpr int WTM = BM / WARPS_M, WTN = BN / WARPS_N;
    constexpr int MT = WTM / 16, NT8 = WTN / 8;
    constexpr int LDA_S = BK + 4, LDB_S = BN + 8;
    constexpr int SA = BM * LDA_S, SB = BK * LDB_S;
    extern __shared__ __align__(16) float smem[];
    float *sA = smem;
    float *sB = smem + ST * SA;

    const int tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const int wm = warp / WARPS_N, wn = warp % WARPS_N;
    const int g = lane >> 2, t = lane & 3;

    const pl_gemm_block blk = pl_gemm_block_of(M, N, K, BM, BN, BK, kps);
    const int m0 = blk.m0, n0 = blk.n0, kbeg = blk.kbeg, kend = blk.kend, ktiles = blk.ktiles;

    float acc[MT][NT8][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT8; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[i][j][q] = 0.f;

#pragma unroll
    for (int s = 0; s < ST - 1; s++) {
        if (s < ktiles) {
            load_a<BM, BK, NT, VA>(sA + s * SA, A, lda, M, m0, kbeg + s * BK, kend, tid);
            load_b<BN, BK, NT, VB>(sB + s * SB, B, ldb, N, n0, kbeg + s * BK, kend, tid);
        }
        cp_async_commit();
    }

    /* ldmatrix.x4 row address of this lane: matrices (rows 0-7,k 0-3), (rows 8-15, k 0-3),
     * (rows 0-7, k 4-7), (rows 8-15, k 4-7) give a0..a3 of the m16n8k8 A fragment. */
    const int a_row = wm * WTM + (lane & 7) + ((lane >> 3) & 1) * 8;
    const int a_col = (lane >> 4) * 4;
    const int b_col = wn * WTN + g;

    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<ST - 2>();
        __syncthreads();
        {
            int nk = kt + ST - 1;
            if (nk < ktiles) {
                int s = nk % ST;
                load_a<BM, BK, NT, VA>(sA + s * SA, A, lda, M, m0, kbeg + nk * BK, kend, tid);
                load_b<BN, BK, NT, VB>(sB + s * SB, B, ldb, N, n0, kbeg + nk * BK, kend, tid);
            }
            cp_async_commit();
        }
        const float *As = sA + (kt % ST) * SA;
        const float *Bs = sB + (kt % ST) * SB;
        /* fragments double-buffered across the k8 steps of this tile: step ks+1 is loaded
         * from shared memory while the MMAs of step ks issue */
        unsigned af[2][MT][4], bf[2][NT8][2];
#pragma unroll
        for (int ks = 0; ks < BK / 8; ks++) {
            const int cur = ks & 1;
            if (ks == 0) load_frags<MT, NT8, LDA_S, LDB_S, CVT>(As, Bs, 0, a_row, a_col, b_col, t, af[0], bf[0]);
            if (ks + 1 < BK / 8)
                load_frags<MT, NT8, LDA_S, LDB_S, CVT>(As, Bs, (ks + 1) * 8, a_row, a_col, b_col, t,
                                                       af[cur ^ 1], bf[cur ^ 1]);
#pragma unroll
            for (int i = 0; i < MT; i++)
#pragma unroll
                for (int j = 0; j < NT8; j++)
                    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]),
                                   "+f"(acc[i][j][3])
                                 : "r"(af[cur][i][0]), "r"(af[cur][i][1]), "r"(af[cur][i][2]),
                                   "r"(af[cur][i][3]), "r"(bf[cur][j][0]), "r"(bf[cur][j][1]));
        }
    }
    cp_async_wait<0>();

    /* epilogue: acc[i][j] = rows (g, g+8), cols (2t, 2t+1) of the 16x8 tile */
    float *Out = ws ? ws + (int64_t)blockIdx.y * M * N : C;
    const int64_t ldo = ws ? (int64_t)N : ldc;
    const bool vec = ((ldo & 1) == 0) && ((reinterpret_cast<uintptr_t>(Out) & 7) == 0);
    const float al = ws ? 1.f : alpha;
    const bool rd = !ws && beta != 0.f;
#pragma unroll
    for (int i = 0; i < MT; i++) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int m = m0 + wm * WTM + i * 16 + g + h * 8;
            if (m >= M) continue;
            float *row = Out + (int64_t)m * ldo;
#pragma unroll
            for (int j = 0; j < NT8; j++) {
                int n = n0 + wn * WTN + j * 8 + 2 * t;
                float v0 = al * acc[i][j][2 * h], v1 = al * acc[i][j][2 * h + 1];
                if (vec && n + 1 < N) {
                    float2 *p = reinterpret_cast<float2 *>(row + n);
                    if (rd) {
                        float2 c = *p;
                        v0 += beta * c.x;
                        v1 += beta * c.y;
                    }
                    *p = make_float2(v0, v1);
                } else {
                    if (n < N) row[n] = rd ? v0 + beta * row[n] : v0;
                    if (n + 1 < N) row[n + 1] = rd ? v1 + beta * row[n + 1] : v1;
                }
            }
        }
    }
}

/* Config I's kernel: row I of pl_gemm_mma_tf32_cfgs, A and B staged by 16-byte copies (VA, VB:
 * their rows are 16-byte aligned) or by 4-byte ones. */
template <int I, bool VA, bool VB> pl_gemm_tile_kernel row_kernel()
{
    constexpr pl_gemm_cfg c = pl_gemm_mma_tf32_cfgs[I];
    return tf32_kernel<c.bm, c.bn, c.warps_m, c.warps_n, c.bk, c.stages, !c.truncates, VA, VB>;
}
#define ROW(i) {row_kernel<i, false, false>(), row_kernel<i, false, true>(), row_kernel<i, true, false>(), row_kernel<i, true, true>()}
const pl_gemm_tile_kernel kernels[][4] = {ROW(0), ROW(1), ROW(2), ROW(3), ROW(4), ROW(5)}; /* [config][VA * 2 + VB] */
#undef ROW
static_assert(PL_COUNT(kernels) == PL_COUNT(pl_gemm_mma_tf32_cfgs), "kernels per config");

constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_mma_tf32_cfgs)
        if (c.warps != c.warps_m * c.warps_n || c.bk != 32) return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_mma_tf32_cfgs: warps = warps_m warps_n, bk = 32");

const void *kernel_of(int config, int k) { return (const void *)kernels[config][k]; }

/* A stages of BM x (BK + 4) floats and B stages of BK x (BN + 8): rows padded against bank conflicts. */
size_t smem_bytes(const pl_gemm_cfg &c)
{
    return (size_t)c.stages * (c.bm * (c.bk + 4) + c.bk * (c.bn + 8)) * sizeof(float);
}

pl_status launch(const pl_gemm_launch &l)
{
    const pl_gemm_cfg &c = pl_gemm_mma_tf32_cfgs[l.config];
    pl_gemm_launch_tile_kernel(l, kernels[l.config][pl_gemm_operand_case(l)], c.warps * 32, smem_bytes(c),
                               (const float *)l.a->data[1], l.p->ldb);
    return PL_OK;
}

} // namespace

const pl_gemm_cuda_rung_def pl_gemm_mma_tf32_rung = {
    .name = "cuda-mma-tf32",
    .rung = PL_GEMM_RUNG_MMA_TF32,
    .kernels_per_config = 4,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = nullptr,
    .needs_tensor_maps = false,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_mma_tf32(const pl_run_args *a) { return pl_gemm_cuda_run(a, pl_gemm_mma_tf32_rung); }
