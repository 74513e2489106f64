/* cuda_tf32.cu: SGEMM on tensor cores in TF32, C = alpha*A*B + beta*C, row-major, any M, N,
 * K and leading dimensions, FP32 accumulation. Configs 1-6: mma.sync m16n8k8, operands rounded
 * to TF32 (cvt.rna) as they leave shared memory (config 4 truncates). Configs 7-10: Hopper
 * wgmma fed by cp.async; configs 11-12: Hopper wgmma fed by the copy engine (TMA) with B
 * transposed first (cuda_wgmma.cuh, in the sm_90a image; where that image cannot load, a
 * probe at init sends them to their fallback configs).
 *
 * Design of the mma.sync kernels (see docs/notes/gemm-cuda.md):
 *   - block tile BM x BN x BK (BK = 32), WARPS_M x WARPS_N warps, warp tile WTM x WTN made of
 *     m16n8k8 MMAs; A fragments by ldmatrix.x4 from a row-major (k-contiguous) A tile whose
 *     rows are padded to BK+4 floats (conflict-free); B fragments by two LDS.32 per n8 tile
 *     from a row-major B tile padded to BN+8 floats (conflict-free);
 *   - cp.async multi-stage pipeline; 16-byte copies (zero-filled tails) when the pointer and
 *     leading dimension allow, 4-byte copies otherwise (odd lda/ldb), zero fill past M, N, K;
 *   - grouped rasterisation and split-K from cuda_splitk.cuh.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "core/core.h"
#include "kernels/gemm/cuda_async.cuh"
#include "kernels/gemm/cuda_splitk.cuh"
#include "kernels/gemm/cuda_tma.cuh"
#include "kernels/gemm/gemm.h"

namespace {

using namespace pl_gemm_async;

__device__ __forceinline__ unsigned to_tf32(unsigned x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(x)));
    return r;
}

/* A tile BM x BK, row-major in smem with row stride BK+4. */
template <int BM, int BK, int NT, bool VEC>
__device__ __forceinline__ void load_a(float *sA, const float *A, int64_t lda, int M, int m0, int k0,
                                       int kend, int tid)
{
    constexpr int LDS = BK + 4;
    if (VEC) {
        constexpr int CPR = BK / 4; /* chunks per row */
        constexpr int RS = NT / CPR;
        static_assert(NT % CPR == 0 && BM % RS == 0, "A tile");
        const int r0 = tid / CPR, kc = (tid % CPR) * 4;
        const int k = k0 + kc;
        int nb = min(4, kend - k);
        nb = nb < 0 ? 0 : nb;
        const float *p = A + (int64_t)(m0 + r0) * lda + k;
        const int64_t step = (int64_t)RS * lda;
        float *d = sA + r0 * LDS + kc;
#pragma unroll
        for (int it = 0; it < BM / RS; it++) {
            bool ok = nb > 0 && (m0 + r0 + it * RS < M);
            cp_async16_edge(d + it * RS * LDS, ok ? p + it * step : A, ok ? nb : 0);
        }
    } else {
        constexpr int RS = NT / BK;
        static_assert(NT % BK == 0 && BM % RS == 0, "A tile");
        const int r0 = tid / BK, kc = tid % BK;
        const int k = k0 + kc;
        const bool kok = k < kend;
        const float *p = A + (int64_t)(m0 + r0) * lda + k;
        const int64_t step = (int64_t)RS * lda;
        float *d = sA + r0 * LDS + kc;
#pragma unroll
        for (int it = 0; it < BM / RS; it++) {
            bool ok = kok && (m0 + r0 + it * RS < M);
            cp_async4(d + it * RS * LDS, ok ? p + it * step : A, ok ? 4 : 0);
        }
    }
}

/* B tile BK x BN, row-major in smem with row stride BN+8. */
template <int BN, int BK, int NT, bool VEC>
__device__ __forceinline__ void load_b(float *sB, const float *B, int64_t ldb, int N, int n0, int k0,
                                       int kend, int tid)
{
    constexpr int LDS = BN + 8;
    if (VEC) {
        constexpr int CPR = BN / 4;
        constexpr int RS = NT / CPR;
        static_assert(NT % CPR == 0 && BK % RS == 0, "B tile");
        const int r0 = tid / CPR, nc = (tid % CPR) * 4;
        const int n = n0 + nc;
        int nb = min(4, N - n);
        nb = nb < 0 ? 0 : nb;
        const float *p = B + (int64_t)(k0 + r0) * ldb + n;
        const int64_t step = (int64_t)RS * ldb;
        float *d = sB + r0 * LDS + nc;
#pragma unroll
        for (int it = 0; it < BK / RS; it++) {
            bool ok = nb > 0 && (k0 + r0 + it * RS < kend);
            cp_async16_edge(d + it * RS * LDS, ok ? p + it * step : B, ok ? nb : 0);
        }
    } else {
        constexpr int RS = NT / BN;
        static_assert(NT % BN == 0 && BK % RS == 0, "B tile");
        const int r0 = tid / BN, nc = tid % BN;
        const int n = n0 + nc;
        const bool nok = n < N;
        const float *p = B + (int64_t)(k0 + r0) * ldb + n;
        const int64_t step = (int64_t)RS * ldb;
        float *d = sB + r0 * LDS + nc;
#pragma unroll
        for (int it = 0; it < BK / RS; it++) {
            bool ok = nok && (k0 + r0 + it * RS < kend);
            cp_async4(d + it * RS * LDS, ok ? p + it * step : B, ok ? 4 : 0);
        }
    }
}

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

#include "kernels/gemm/cuda_wgmma.cuh"

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


typedef void (*kfn)(int, int, int, const float *, int64_t, const float *, int64_t, float *, int64_t,
                    float, float, int, float *);
typedef void (*tma_kfn)(const CUtensorMap, const CUtensorMap, int, int, int, float *, int64_t, float, float, int,
                        float *);

/* B (K x N, row stride ldb) to Bt (N x K, row stride ldt), each value rounded to TF32: the
 * K-major copy of B that the copy-engine configs read. 32 x 32 tiles through shared memory
 * (a padded row: no bank conflicts on the transposed read), coalesced on both sides; the
 * grid's y loops over K when K / 32 exceeds the grid limit. */
__global__ void __launch_bounds__(256) transpose_b(const float *__restrict__ B, int64_t ldb, int K, int N,
                                                   float *__restrict__ Bt, int64_t ldt)
{
    __shared__ float tile[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y; /* 32 x 8 */
    const int n0 = blockIdx.x * 32;
    for (int64_t k0 = (int64_t)blockIdx.y * 32; k0 < K; k0 += (int64_t)gridDim.y * 32) {
#pragma unroll
        for (int i = ty; i < 32; i += 8)
            if (k0 + i < K && n0 + tx < N) tile[i][tx] = B[(k0 + i) * ldb + n0 + tx];
        __syncthreads();
#pragma unroll
        for (int i = ty; i < 32; i += 8)
            if (n0 + i < N && k0 + tx < K)
                Bt[(int64_t)(n0 + i) * ldt + k0 + tx] = __uint_as_float(to_tf32(__float_as_uint(tile[tx][i])));
        __syncthreads();
    }
}

struct Cfg {
    int bm, bn, wm, wn, bk, st, cvt;
    int wg;  /* 0: mma.sync kernel (wm x wn warps); > 0: wgmma kernel of wg warpgroups */
    int fb;  /* wgmma configs: the config (1-based) used where wgmma (or TMA) is unavailable */
    int tma; /* 1: the copy-engine wgmma kernel (tf), operands made K-major first */
    kfn f[4]; /* [VA*2+VB] */
    tma_kfn tf;
};

#define PL_TCFG(BM, BN, WM, WN, BK, ST, CV)                                                        \
    {                                                                                              \
        BM, BN, WM, WN, BK, ST, CV, 0, 0, 0,                                                       \
        {                                                                                          \
            tf32_kernel<BM, BN, WM, WN, BK, ST, CV, false, false>,                                 \
                tf32_kernel<BM, BN, WM, WN, BK, ST, CV, false, true>,                              \
                tf32_kernel<BM, BN, WM, WN, BK, ST, CV, true, false>,                              \
                tf32_kernel<BM, BN, WM, WN, BK, ST, CV, true, true>                                \
        }                                                                                          \
    }
/* wgmma: block tile BM (our m, = wgmma N) x 64*WG (our n), BK 32 */
#define PL_WCFG(BM, WG, ST, CV, FB)                                                                \
    {                                                                                              \
        BM, 64 * WG, 1, 1, 32, ST, CV, WG, FB, 0,                                                  \
        {                                                                                          \
            wgmma_kernel<BM, WG, ST, CV, false, false>, wgmma_kernel<BM, WG, ST, CV, false, true>,   \
                wgmma_kernel<BM, WG, ST, CV, true, false>, wgmma_kernel<BM, WG, ST, CV, true, true>  \
        }                                                                                          \
    }

/* wgmma fed by the copy engine: block tile BM (our m) x 128 (our n), 2 consumer warpgroups of
 * m64nBM + 1 producer warpgroup, ST stages; B transposed beforehand */
#define PL_MCFG(BM, ST, FB)                                                                        \
    {                                                                                              \
        BM, 128, 1, 1, 32, ST, 1, 2, FB, 1, {nullptr, nullptr, nullptr, nullptr}, wgmma_tma_kernel<BM, ST>    \
    }

const Cfg cfgs[] = {
    PL_TCFG(128, 256, 2, 4, 32, 3, true),  /* 1: 8 warps of 64x64, 155 KB smem */
    PL_TCFG(256, 128, 4, 2, 32, 3, true),  /* 2: 8 warps of 64x64, 160 KB */
    PL_TCFG(128, 256, 2, 4, 32, 4, true),  /* 3: as 1, 4 stages, 204 KB */
    PL_TCFG(128, 256, 2, 4, 32, 3, false), /* 4: as 1, operands truncated (no cvt) */
    PL_TCFG(64, 128, 2, 2, 32, 4, true),   /* 5: 4 warps of 32x64, 103 KB (2 blocks/SM) */
    PL_TCFG(128, 128, 2, 2, 32, 4, true),  /* 6: 4 warps of 64x64, 140 KB */
    PL_WCFG(128, 4, 4, true, 1),           /* 7: wgmma 128x256, 4 warpgroups (m64n128), 4 stages, 200 KB */
    PL_WCFG(128, 4, 4, false, 4),          /* 8: as 7, B truncated too (no cvt) */
    PL_WCFG(128, 2, 3, true, 6),           /* 9: wgmma 128x128, 2 warpgroups, 3 stages (2 blocks/SM) */
    PL_WCFG(256, 2, 4, true, 1),           /* 10: wgmma 256x128, 2 warpgroups (m64n256), 4 stages */
    PL_MCFG(256, 4, 10),                   /* 11: TMA + wgmma 256x128 (m64n256), 4 stages, 193 KB */
    PL_MCFG(128, 6, 9),                    /* 12: TMA + wgmma 128x128 (m64n128), 6 stages, 193 KB */
};
const int n_cfgs = (int)(sizeof cfgs / sizeof cfgs[0]);

size_t cfg_smem(const Cfg &c)
{
    if (c.tma) return (size_t)c.st * (c.bm + c.bn) * 128 + 1024;
    if (c.wg) return (size_t)c.st * (c.bm * 128 + c.bk * (c.bn + 8) * sizeof(float)) + 1024;
    return (size_t)c.st * (c.bm * (c.bk + 4) + c.bk * (c.bn + 8)) * sizeof(float);
}
int cfg_threads(const Cfg &c) { return c.tma ? 384 : c.wg ? c.wg * 128 : c.wm * c.wn * 32; }

/* What this rung learns about a device once, kept per context (pl_ctx_state): the SM count,
 * each config's resident blocks per SM, and whether the wgmma kernels and tensor maps work
 * there; making it also raised the kernels' shared memory limit on that device. */
struct State {
    int sms;
    int occ[16];
    bool wgmma; /* the wgmma kernels were built (sm_90a) and run here */
    bool tma;   /* and the driver encodes tensor maps */
};
static_assert(sizeof cfgs / sizeof cfgs[0] <= 16, "one occupancy per config");
char state_key; /* its address names this rung's state in a context */

pl_status init_state(pl_ctx *ctx, void *vst)
{
    State *g = (State *)vst;
    if (pl_status s = pl_gemm_ctx_device(ctx, "cuda-tf32", &g->sms); s != PL_OK) return s;
    {
        /* which build of the kernels this device loaded: the sm_90a one has the wgmma path */
        cudaStream_t st = (cudaStream_t)ctx->stream;
        int *flag = nullptr, h = 0;
        if (cudaMalloc(&flag, sizeof(int)) == cudaSuccess) {
            wgmma_probe<<<1, 1, 0, st>>>(flag);
            if (cudaMemcpyAsync(&h, flag, sizeof(int), cudaMemcpyDeviceToHost, st) != cudaSuccess ||
                cudaStreamSynchronize(st) != cudaSuccess)
                h = 0;
            cudaFree(flag);
        }
        g->wgmma = h == 1;
        g->tma = g->wgmma && pl_gemm_tma::encoder() != nullptr;
        cudaGetLastError();
    }
    for (int i = 0; i < n_cfgs; i++) {
        size_t sm = cfg_smem(cfgs[i]);
        const void *fns[4];
        int nf = 0;
        if (cfgs[i].tma)
            fns[nf++] = (const void *)cfgs[i].tf;
        else
            for (int v = 0; v < 4; v++) fns[nf++] = (const void *)cfgs[i].f[v];
        for (int v = 0; v < nf; v++) {
            cudaError_t e = cudaFuncSetAttribute(fns[v], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)sm);
            if (e != cudaSuccess)
                return pl_fail(PL_ERR_CUDA, "cuda-tf32: cudaFuncSetAttribute: %s", cudaGetErrorString(e));
        }
        int occ = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, fns[nf - 1], cfg_threads(cfgs[i]), sm);
        g->occ[i] = occ > 0 ? occ : 1;
    }
    cudaGetLastError();
    return PL_OK;
}

/* Relative rate of each config on a full SM: measured on H100 at 4096 (splitk=1), GFLOP/s over
 * config 9's 193 TF/s (docs/notes/gemm-cuda.md); for 11 and 12 the kernel alone (their B
 * transpose is costed apart in cfg_cost). */
const double cfg_rates[] = {0.59, 0.61, 0.61, 0.67, 0.47, 0.45, 0.93, 0.98, 1.0, 0.71, 1.95, 1.62};
static_assert(sizeof cfg_rates / sizeof cfg_rates[0] == sizeof cfgs / sizeof cfgs[0], "one rate per config");

/* Estimated relative time of config i at this shape with split s: waves of blocks, each wave
 * costing occ*BM*BN*(K/s) at the config's measured rate. */
double cfg_cost(const State &g, int i, int64_t M, int64_t N, int64_t K, int s)
{
    const Cfg &c = cfgs[i];
    int64_t tiles = ((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn) * s;
    int64_t slots = (int64_t)g.occ[i] * g.sms;
    int64_t waves = (tiles + slots - 1) / slots;
    double eff = cfg_rates[i];
    double klen = (double)((K + s - 1) / s) + 128.0;
    double t = (double)waves * g.occ[i] * c.bm * c.bn * klen / eff;
    if (s > 1) t += (double)M * N * (s + 2) * 0.4;
    if (c.tma) t += (double)K * N * 2.4 + 4e6; /* B transposed first: 8 bytes an element at ~2.5 TB/s, + launch */
    return t;
}

/* config i (0-based) as it will run: a wgmma config falls back to its mma.sync twin where the
 * wgmma kernels are not available (no sm_90a build, or another GPU). */
int effective(const State &g, int i)
{
    if (cfgs[i].tma && !g.tma) i = cfgs[i].fb - 1;
    return (cfgs[i].wg && !g.wgmma) ? cfgs[i].fb - 1 : i;
}

void choose(const void *state, int64_t M, int64_t N, int64_t K, int &ci, int &split)
{
    const State &g = *(const State *)state;
    double best = 1e300;
    ci = 0;
    split = 1;
    for (int i = 0; i < n_cfgs; i++) {
        if (!cfgs[i].cvt || effective(g, i) != i) continue;
        for (int s = 1; s <= 64; s *= 2) {
            if (s > 1 && K / s < 512) break;
            double t = cfg_cost(g, i, M, N, K, s);
            if (t < best * 0.97) { best = t; ci = i; split = s; }
        }
    }
}

/* A copy-engine config: B transposed (and rounded) into the BT workspace, A re-pitched into
 * the A workspace when its rows are not 16-byte aligned (aligned_a false), one tensor map per
 * operand, then the kernel; all on stream st. */
pl_status launch_tma(pl_ctx *ctx, const Cfg &c, dim3 grid, int M, int N, int K, const float *A, int64_t lda, bool aligned_a,
                     const float *B, int64_t ldb, float *C, int64_t ldc, float alpha, float beta, int kps, float *ws,
                     cudaStream_t st)
{
    const int64_t ldk = ((int64_t)K + 3) / 4 * 4; /* K-major rows padded to 16 bytes */
    float *Bt = nullptr;
    pl_status s = pl_gemm_workspace(ctx, "cuda-tf32", PL_GEMM_WS_BT, (size_t)N * ldk * sizeof(float), &Bt);
    if (s != PL_OK) return s;
    const int64_t kblocks = ((int64_t)K + 31) / 32;
    transpose_b<<<dim3((unsigned)((N + 31) / 32), (unsigned)(kblocks < 65535 ? kblocks : 65535)), dim3(32, 8), 0,
                  st>>>(B, ldb, K, N, Bt, ldk);
    if (!aligned_a && (s = pl_gemm_repitch(ctx, "cuda-tf32", PL_GEMM_WS_A, &A, &lda, M, K, st)) != PL_OK) return s;
    CUtensorMap map_a, map_bt;
    if (!pl_gemm_tma::make_map_2d(&map_a, A, M, K, lda, c.bm) || !pl_gemm_tma::make_map_2d(&map_bt, Bt, N, K, ldk, c.bn))
        return pl_fail(PL_ERR_CUDA, "cuda-tf32: the driver rejected a tensor map");
    c.tf<<<grid, cfg_threads(c), cfg_smem(c), st>>>(map_a, map_bt, M, N, K, C, ldc, alpha, beta, kps, ws);
    return PL_OK;
}

} // namespace

extern "C" {

static const int64_t tf32_config_values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static const int64_t tf32_splitk_values[] = {0, 1, 2, 4, 8, 16, 32, 64};
extern const pl_param_def pl_gemm_cuda_tf32_params[2] = {
    {"config",
     "tile config: 0 auto, 1 128x256 (8 warps 64x64), 2 256x128, 3 128x256 4 stages, "
     "4 128x256 truncating, 5 64x128 (4 warps 32x64), 6 128x128 (4 warps 64x64); "
     "Hopper wgmma (sm_90a build; elsewhere the mma.sync config named): 7 128x256 4 warpgroups (-> 1), "
     "8 as 7 truncating (-> 4), 9 128x128 2 warpgroups, 2 blocks/SM (-> 6), 10 256x128 2 warpgroups (-> 1); "
     "Hopper wgmma fed by the copy engine (TMA), B transposed first: 11 256x128 (-> 10), 12 128x128 (-> 9)",
     PL_PARAM_LIST, tf32_config_values, 13, 0, 0, 0, NULL, 0},
    {"splitk", "K splits: 0 auto, 1 none", PL_PARAM_LIST, tf32_splitk_values, 8, 0, 0, 0, NULL, 0},
};
extern const int pl_gemm_cuda_tf32_n_params = 2;

pl_status pl_gemm_cuda_tf32(const pl_run_args *a)
{
    const pl_gemm_problem *p = (const pl_gemm_problem *)a->problem;
    const float *A = (const float *)a->data[0];
    const float *B = (const float *)a->data[1];
    float *C = (float *)a->data[2];
    cudaStream_t st = (cudaStream_t)a->stream;
    State *g = nullptr;
    pl_status s = pl_ctx_state(a->ctx, &state_key, sizeof(State), init_state, (void **)&g);
    int ci = 0, split = 0;
    if (s == PL_OK) s = pl_gemm_cuda_resolve("cuda-tf32", p, a->params, n_cfgs, choose, g, &ci, &split);
    if (s != PL_OK) return s;
    const int M = (int)p->M, N = (int)p->N, K = (int)p->K;
    ci = effective(*g, ci - 1) + 1;
    const Cfg &c = cfgs[ci - 1];
    int kps;
    pl_gemm_split_k(K, c.bk, &split, &kps);

    bool va = ((reinterpret_cast<uintptr_t>(A) & 15) == 0) && (p->lda % 4 == 0);
    bool vb = ((reinterpret_cast<uintptr_t>(B) & 15) == 0) && (p->ldb % 4 == 0);
    int64_t tiles = (int64_t)((M + c.bm - 1) / c.bm) * ((N + c.bn - 1) / c.bn);
    if (tiles > INT32_MAX) return pl_fail(PL_ERR_ARG, "cuda-tf32: too many tiles");

    float *ws = nullptr;
    if (split > 1 && (s = pl_gemm_workspace(a->ctx, "cuda-tf32", PL_GEMM_WS_SPLITK, (size_t)split * M * N * sizeof(float), &ws)) != PL_OK)
        return s;
    dim3 grid((unsigned)tiles, (unsigned)split);
    if (c.tma) {
        s = launch_tma(a->ctx, c, grid, M, N, K, A, p->lda, va, B, p->ldb, C, p->ldc, p->alpha, p->beta, kps, ws, st);
        if (s != PL_OK) return s;
    } else {
        kfn f = c.f[(va ? 2 : 0) + (vb ? 1 : 0)];
        f<<<grid, cfg_threads(c), cfg_smem(c), st>>>(M, N, K, A, p->lda, B, p->ldb, C, p->ldc, p->alpha,
                                                       p->beta, kps, ws);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "cuda-tf32: launch: %s", cudaGetErrorString(e));
    if (split > 1) return pl_gemm_splitk_reduce("cuda-tf32", M, N, split, ws, C, p->ldc, p->alpha, p->beta, g->sms, st);
    return PL_OK;
}

} /* extern "C" */
