/* cuda_mma_bf16.cu: GEMM on the tensor cores in BF16 through mma.sync m16n8k16 (any GPU since
 * sm_80): C (FP32) = alpha*A*B + beta*C with A, B bfloat16, FP32 accumulation, row-major, any
 * M, N, K and leading dimensions. The BF16 ladder's first rung, the counterpart of
 * cuda-mma-tf32: each warp loads its fragments from shared memory with ldmatrix (B with .trans,
 * which turns the row-major k x n tile into the column fragments the MMA takes) and issues 16
 * m16n8k16 MMAs per k16 step. BF16 halves the bytes of every tile and doubles the k an MMA
 * covers, so the same tile feeds twice the multiply-adds of TF32.
 *
 * Design: block tile 128 x 128 x 32, 8 warps of 64 x 32 (4 x 4 MMAs), tiles staged by 16-byte
 * cp.async (zero-filled past M, N, K) in a 4-stage ring; rows padded (A to 40, B to 136
 * elements) so that the eight 16-byte rows of an ldmatrix phase fall in distinct banks.
 * Operands whose rows are not 16 bytes apart are re-pitched first (one copy). Split-K and the
 * block order come from the frame (cuda_frame.cuh, cuda_splitk.cuh).
 * What the next rung changes: a warpgroup's wgmma reads both tiles from shared memory itself,
 * fed by the copy engine (cuda-wgmma-bf16). */
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_frame.cuh"
#include "kernels/gemm/cuda_splitk.cuh"

namespace {

using namespace pl_gemm_async;

constexpr int BM = 128, BN = 128, BK = 32, ST = 4, THREADS = 256;
constexpr int LDA_S = BK + 8, LDB_S = BN + 8; /* padded rows, in elements */
constexpr int STAGE_A = BM * LDA_S, STAGE_B = BK * LDB_S; /* elements */
constexpr size_t SMEM = (size_t)ST * (STAGE_A + STAGE_B) * 2;

/* Eight bf16 of which the first `valid` (0..8) exist in global memory: one 16-byte cp.async when
 * all do; at an edge, plain loads of those that do and zeros for the rest (never a byte past
 * the last valid element: a 16-byte copy told to read fewer bytes still counts, for memcheck
 * and initcheck, as a 16-byte read). Stores to the stage are seen after the loop's barrier. */
__device__ __forceinline__ void copy8_bf16(uint16_t *dst, const uint16_t *src, int valid)
{
    if (valid >= 8) {
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(dst)), "l"(src));
    } else {
        uint16_t v[8];
#pragma unroll
        for (int e = 0; e < 8; e++) v[e] = e < valid ? src[e] : (uint16_t)0;
        uint4 w;
        w.x = v[0] | (unsigned)v[1] << 16, w.y = v[2] | (unsigned)v[3] << 16;
        w.z = v[4] | (unsigned)v[5] << 16, w.w = v[6] | (unsigned)v[7] << 16;
        *reinterpret_cast<uint4 *>(dst) = w;
    }
}

/* One k tile into a stage: A 128 x 32 (4 chunks a row), B 32 x 128 (16 chunks a row), two
 * chunks of each per thread; chunks wholly outside read nothing. */
__device__ __forceinline__ void load_tile(uint16_t *sA, uint16_t *sB, const uint16_t *A, int64_t lda,
                                          const uint16_t *B, int64_t ldb, int M, int N, int m0, int n0, int k0,
                                          int kend, int tid)
{
#pragma unroll
    for (int it = 0; it < 2; it++) {
        const int r = tid / 4 + 64 * it, ch = tid % 4, k = k0 + 8 * ch;
        int valid = (m0 + r < M) ? min(8, kend - k) : 0;
        valid = valid < 0 ? 0 : valid;
        copy8_bf16(sA + r * LDA_S + 8 * ch, A + (int64_t)(m0 + r) * lda + k, valid);
    }
#pragma unroll
    for (int it = 0; it < 2; it++) {
        const int r = tid / 16 + 16 * it, ch = tid % 16, n = n0 + 8 * ch;
        int valid = (k0 + r < kend) ? min(8, N - n) : 0;
        valid = valid < 0 ? 0 : valid;
        copy8_bf16(sB + r * LDB_S + 8 * ch, B + (int64_t)(k0 + r) * ldb + n, valid);
    }
}

__global__ void __launch_bounds__(THREADS, 2)
    mma_bf16_kernel(int M, int N, int K, const uint16_t *__restrict__ A, int64_t lda, const uint16_t *__restrict__ B,
                    int64_t ldb, float *__restrict__ C, int64_t ldc, float alpha, float beta, int kps,
                    float *__restrict__ ws)
{
    extern __shared__ __align__(16) uint16_t smem[];
    uint16_t *sA = smem, *sB = smem + ST * STAGE_A;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = warp % 2, wn = warp / 2; /* 2 x 4 warps of 64 x 32 */
    const pl_gemm_block blk = pl_gemm_block_of(M, N, K, BM, BN, BK, kps);

#pragma unroll
    for (int s = 0; s < ST - 1; s++) {
        if (s < blk.ktiles)
            load_tile(sA + s * STAGE_A, sB + s * STAGE_B, A, lda, B, ldb, M, N, blk.m0, blk.n0, blk.kbeg + s * BK,
                      blk.kend, tid);
        cp_async_commit();
    }
    float acc[4][4][4] = {};
    for (int kt = 0; kt < blk.ktiles; kt++) {
        cp_async_wait<ST - 2>();
        __syncthreads(); /* tile kt landed for all; everyone is done with the stage refilled next */
        const int next = kt + ST - 1;
        if (next < blk.ktiles)
            load_tile(sA + (next % ST) * STAGE_A, sB + (next % ST) * STAGE_B, A, lda, B, ldb, M, N, blk.m0, blk.n0,
                      blk.kbeg + next * BK, blk.kend, tid);
        cp_async_commit();
        const uint16_t *tA = sA + (kt % ST) * STAGE_A, *tB = sB + (kt % ST) * STAGE_B;
#pragma unroll
        for (int ks = 0; ks < BK; ks += 16) {
            unsigned af[4][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const unsigned addr = smem_u32(tA + (wm * 64 + i * 16 + (lane & 15)) * LDA_S + ks + (lane >> 4) * 8);
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(af[i][0]), "=r"(af[i][1]), "=r"(af[i][2]), "=r"(af[i][3])
                             : "r"(addr));
            }
#pragma unroll
            for (int j = 0; j < 2; j++) { /* n8 tiles 2j and 2j + 1 */
                const unsigned addr = smem_u32(tB + (ks + (lane & 7) + 8 * ((lane >> 3) & 1)) * LDB_S + wn * 32 +
                                               j * 16 + 8 * (lane >> 4));
                asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                             : "=r"(bf[2 * j][0]), "=r"(bf[2 * j][1]), "=r"(bf[2 * j + 1][0]), "=r"(bf[2 * j + 1][1])
                             : "r"(addr));
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                                 : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                                 : "r"(af[i][0]), "r"(af[i][1]), "r"(af[i][2]), "r"(af[i][3]), "r"(bf[j][0]),
                                   "r"(bf[j][1]));
        }
    }
    cp_async_wait<0>();

    /* acc[i][j][2h + e] = C[m0 + 64 wm + 16 i + g + 8h][n0 + 32 wn + 8 j + 2 t + e] */
    float *Out = ws ? ws + (int64_t)blockIdx.y * M * N : C;
    const int64_t ldo = ws ? (int64_t)N : ldc;
    const float al = ws ? 1.f : alpha;
    const bool rd = !ws && beta != 0.f;
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int m = blk.m0 + wm * 64 + i * 16 + g + 8 * h;
            if (m >= M) continue;
#pragma unroll
            for (int j = 0; j < 4; j++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int n = blk.n0 + wn * 32 + j * 8 + 2 * t + e;
                    if (n < N) {
                        float *p = Out + (int64_t)m * ldo + n;
                        const float v = al * acc[i][j][2 * h + e];
                        *p = rd ? v + beta * *p : v;
                    }
                }
        }
}

constexpr bool rows_consistent()
{
    for (const pl_gemm_cfg &c : pl_gemm_mma_bf16_cfgs)
        if (c.bm != BM || c.bn != BN || c.bk != BK || c.stages != ST || c.warps * 32 != THREADS) return false;
    return true;
}
static_assert(rows_consistent(), "pl_gemm_mma_bf16_cfgs: the kernel's one shape");

const void *kernel_of(int, int) { return (const void *)mma_bf16_kernel; }
size_t smem_bytes(const pl_gemm_cfg &) { return SMEM; }

/* Operands re-pitched when their rows are not 16 bytes apart, then the kernel over the frame's
 * grid on the context's stream. */
pl_status launch(const pl_gemm_launch &l)
{
    const char *name = "cuda-mma-bf16";
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
    mma_bf16_kernel<<<l.grid, THREADS, SMEM, st>>>((int)p->M, (int)p->N, (int)p->K, (const uint16_t *)A, lda,
                                                   (const uint16_t *)B, ldb, (float *)l.a->data[2], p->ldc, p->alpha,
                                                   p->beta, l.kps, l.ws);
    return PL_OK;
}

} // namespace

const pl_gemm_cuda_rung_def pl_gemm_mma_bf16_rung = {
    .name = "cuda-mma-bf16",
    .rung = PL_GEMM_RUNG_MMA_BF16,
    .kernels_per_config = 1,
    .kernel = kernel_of,
    .smem_bytes = smem_bytes,
    .sm90a_probe = nullptr,
    .needs_tensor_maps = false,
    .launch = launch,
};

extern "C" pl_status pl_gemm_cuda_mma_bf16(const pl_run_args *a)
{
    return pl_gemm_cuda_run(a, pl_gemm_mma_bf16_rung);
}
