/* cuda_wgmma_ws.cuh: the warp-specialised, persistent wgmma GEMM kernel of Hopper (sm_90a), C
 * (FP32) = alpha A B + beta C with FP32 accumulation, row-major, any M, N, K, for three operand
 * cases: BF16 (A, B bfloat16), TF32 on B's K-major copy Bt (N x K, rounded), and TF32 on B as it
 * lies (tf32_rs_op below). Kept apart from the rung files (cuda_wgmma_bf16.cu,
 * cuda_wgmma_persistent_tf32.cu) so that a bare driver can time the kernel alone. Private to the
 * GEMM room.
 *
 * The idea, against the first copy-engine kernel (cuda_wgmma_tma_tf32.cu's wgmma_tma_kernel):
 *   - persistent: one block per SM walks the output tiles (grouped GROUP_M tile rows at a time,
 *     so the blocks at work at once share A and B panels in L2); the producer runs on into the
 *     next tile's k tiles while the consumers write the last one's C, so the copy engine never
 *     waits at a tile's end;
 *   - C = A B directly (wgmma M = our M): the tile is 128 x 256, two consumer warpgroups of 64
 *     rows x 256 columns (m64n256: 128 FP32 accumulators a thread) and one producer warpgroup
 *     that gives its registers to them (setmaxnreg 40 / 232); 4 stages of 48 KB on mbarriers;
 *   - BF16: 16-bit wgmma reads B N-major (imm-trans-b), so B (K x N row-major) is copied as it
 *     lies: no transpose pass. TF32 wgmma reads only K-major operands from shared memory: either
 *     B is transposed first (tf32_op), or B^T goes through registers (tf32_rs_op).
 * Shared memory per stage, every row 128 bytes with the 128-byte swizzle: A, 128 rows x BK (a
 * K-major descriptor, 8-row groups 1 KB apart). B for BF16: four boxes of 64 k rows x 64 n, the
 * N-major canonical layout (64-column atoms 8 KB apart: LBO; 8-row k groups 1 KB apart: SBO);
 * a k16 step moves its descriptor 2 KB. Bt for TF32: 256 rows x 32 k, K-major like A. */
#ifndef PL_GEMM_CUDA_WGMMA_WS_CUH
#define PL_GEMM_CUDA_WGMMA_WS_CUH

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/gemm/cuda_tma.cuh"
#include "kernels/gemm/cuda_wgmma.cuh"

namespace pl_gemm_ws {

constexpr int STAGES = 4, THREADS = 384, GROUP_M = 8;
constexpr int STAGE_BYTES = 48 * 1024; /* A and B of one k tile, 128-byte rows */
constexpr size_t SMEM_BYTES = (size_t)STAGES * STAGE_BYTES + 1024;

/* The operand types: k per stage (128 bytes of A's row), the tile (TM rows of C x TN columns),
 * and how B is read. bf16_op and tf32_op: C's orientation, two consumer warpgroups of 64 rows
 * x 256 columns, both operands from shared memory. tf32_rs_op: no transpose of B; the kernel
 * computes C^T = B^T A^T, tile 256 x 128, each consumer warpgroup 64 columns of C (wgmma's M)
 * x 256 rows (wgmma's N); B^T, which TF32 wgmma cannot read N-major from shared memory, goes
 * through registers: each thread loads its fragment from the N-major B tile the copy engine
 * brought (four boxes of 32 k rows x 32 n), rounded to TF32, one k tile ahead of its use. */
struct bf16_op {
    static constexpr int TM = 128, TN = 256;
    static constexpr int BK = 64;
    static constexpr CUtensorMapDataType TYPE = CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    static constexpr int ELEM = 2;
};
struct tf32_op {
    static constexpr int TM = 128, TN = 256;
    static constexpr int BK = 32;
    static constexpr CUtensorMapDataType TYPE = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    static constexpr int ELEM = 4;
};
struct tf32_rs_op : tf32_op {
    static constexpr int TM = 256, TN = 128;
};

#if PL_WGMMA_DEVICE
using namespace pl_gemm_wgmma;

/* d (+)= A B^T over one k step, both from shared memory; scale_d 0 starts a new sum. BF16: B
 * N-major (imm-trans-b 1). TF32: both K-major. */
__device__ __forceinline__ void wgmma_m64n256k16_bf16_ss_nb(float (&d)[128], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void wgmma_m64n256k8_tf32_ss_sd(float (&d)[128], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(scale_d));
}
/* N-major operand, 128-byte swizzle: 64-column atoms lbo bytes apart, 8-row k groups sbo apart. */
__device__ __forceinline__ uint64_t sw128_mn_desc(unsigned saddr, unsigned lbo, unsigned sbo)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | ((uint64_t)(lbo >> 4) << 16) | ((uint64_t)(sbo >> 4) << 32) |
           ((uint64_t)1 << 62);
}

/* The output tile of a linear index: groups of GROUP_M tile rows, column by column inside one. */
__device__ __forceinline__ void tile_of(int t, int tiles_m, int tiles_n, int &tm, int &tn)
{
    const int per_group = GROUP_M * tiles_n;
    const int first_m = (t / per_group) * GROUP_M;
    const int rows = min(tiles_m - first_m, GROUP_M);
    const int r = t % per_group;
    tm = first_m + r % rows;
    tn = r / rows;
}

/* The B part of a stage: BF16 four 64-column boxes of B at (n, k); TF32 one 256-row box of Bt. */
__device__ __forceinline__ void load_b(bf16_op, char *dst, const CUtensorMap *tm, int n, int k, uint64_t *bar)
{
#pragma unroll
    for (int j = 0; j < bf16_op::TN / 64; j++) pl_gemm_tma::tma_load_2d(dst + j * 64 * 128, tm, n + 64 * j, k, bar);
}
__device__ __forceinline__ void load_b(tf32_op, char *dst, const CUtensorMap *tm, int n, int k, uint64_t *bar)
{
    pl_gemm_tma::tma_load_2d(dst, tm, k, n, bar);
}
/* tf32_rs_op: four boxes of 32 k rows x 32 n of B itself (K x N), 4 KB apart. */
__device__ __forceinline__ void load_b(tf32_rs_op, char *dst, const CUtensorMap *tm, int n, int k, uint64_t *bar)
{
#pragma unroll
    for (int j = 0; j < 4; j++) pl_gemm_tma::tma_load_2d(dst + j * 4096, tm, n + 32 * j, k, bar);
}

/* d (+)= A B^T with A (64 x 8 TF32) from registers, B from shared memory K-major. */
__device__ __forceinline__ void wgmma_m64n256k8_tf32_rs_sd(float (&d)[128], const unsigned (&a)[4], uint64_t db, int scale_d)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}

/* A thread's B^T fragments of one k tile (tf32_rs_op): for k8 step ks, rows g and g + 8 of its
 * warp's 16 columns of B, k = t and t + 4 (wgmma's register layout of A), from the stage's four
 * swizzled boxes, rounded to TF32. Two lanes of a warp that differ in t by 1 land in one bank
 * (the swizzle XORs the chunk with k): a 2-way conflict, 16 loads a k tile. */
__device__ __forceinline__ void load_bt_frags(unsigned (&f)[4][4], const char *stage_b, int n_warp, int g, int t)
{
#pragma unroll
    for (int ks = 0; ks < 4; ks++)
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int n = n_warp + g + 8 * (q & 1), k = 8 * ks + t + 4 * (q >> 1);
            const int nn = n & 31;
            const float v = *reinterpret_cast<const float *>(stage_b + (n >> 5) * 4096 + k * 128 +
                                                             ((((nn >> 2) ^ (k & 7))) << 4) + (nn & 3) * 4);
            asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(f[ks][q]) : "f"(v));
        }
}
/* Keep a fragment's registers live up to here (the wgmma that reads them is asynchronous: the
 * compiler must not reuse them before the wait that ends it). */
__device__ __forceinline__ void keep(const unsigned (&f)[4][4])
{
#pragma unroll
    for (int ks = 0; ks < 4; ks++)
#pragma unroll
        for (int q = 0; q < 4; q++) asm volatile("" ::"r"(f[ks][q]) : "memory");
}
/* One k step of a consumer warpgroup (A at a_u, the stage's B at b_u; step ks of 4). */
__device__ __forceinline__ void mma_step(bf16_op, float (&d)[128], unsigned a_u, unsigned b_u, int ks, int scale_d)
{
    wgmma_m64n256k16_bf16_ss_nb(d, sw128_desc(a_u + ks * 32), sw128_mn_desc(b_u + ks * 2048, 64 * 128, 1024),
                                scale_d);
}
__device__ __forceinline__ void mma_step(tf32_op, float (&d)[128], unsigned a_u, unsigned b_u, int ks, int scale_d)
{
    wgmma_m64n256k8_tf32_ss_sd(d, sw128_desc(a_u + ks * 32), sw128_desc(b_u + ks * 32), scale_d);
}

#endif

/* tmA: A (M x K) in boxes of BK x TM rows; tmB: BF16 B (K x N) in boxes of 64 x BK rows, tf32_op
 * Bt (N x K) in boxes of 32 x 256 rows, tf32_rs_op B (K x N) in boxes of 32 x 32 rows. Split-K: the work is `splits` slices of kps k (a
 * multiple of BK) for every tile, each slice's raw product to its M x N slab of ws (NULL: one
 * slice, alpha A B + beta C to C). */
template <class Op>
__global__ void __launch_bounds__(THREADS, 1)
    wgmma_ws_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, int M, int N,
                    int K, float *__restrict__ C, int64_t ldc, float alpha, float beta, int splits, int kps,
                    float *__restrict__ ws)
{
#if PL_WGMMA_DEVICE
    using namespace pl_gemm_tma;
    constexpr int BK = Op::BK, BM = Op::TM, BN = Op::TN;
    constexpr int STAGE_A = BM * 128, STAGE_B = STAGE_BYTES - STAGE_A;
    constexpr bool RS = BM == 256;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    __shared__ uint64_t full[STAGES], empty[STAGES];
    const unsigned base_u = smem_addr(smem_raw);
    char *sA = reinterpret_cast<char *>(smem_raw) + ((1024 - (base_u & 1023)) & 1023);
    char *sB = sA + STAGES * STAGE_A;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
    const int units = tiles * splits; /* a unit: one tile's one K slice */

    if (tid == 0) {
#pragma unroll
        for (int s = 0; s < STAGES; s++) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], 2);
        }
        mbar_init_fence();
    }
    __syncthreads();

    if (warp < 4) { /* the producer: one thread walks the tiles' k tiles through the ring */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            int it = 0;
            for (int u = blockIdx.x; u < units; u += gridDim.x) {
                int tm, tn;
                tile_of(u % tiles, tiles_m, tiles_n, tm, tn);
                const int kbeg = (u / tiles) * kps, ktiles = (min(K - kbeg, kps) + BK - 1) / BK;
                for (int kt = 0; kt < ktiles; kt++, it++) {
                    const int s = it % STAGES;
                    if (it >= STAGES) mbar_wait(&empty[s], ((it / STAGES) - 1) & 1);
                    mbar_arrive_expect_tx(&full[s], STAGE_A + STAGE_B);
                    tma_load_2d(sA + s * STAGE_A, &tmA, kbeg + kt * BK, tm * BM, &full[s]);
                    load_b(Op{}, sB + s * STAGE_B, &tmB, tn * BN, kbeg + kt * BK, &full[s]);
                }
            }
        }
    } else if constexpr (RS) { /* two consumers: columns 64 wg .. 64 wg + 63 of C^T's tile */
        setmaxnreg_inc<232>();
        const int cw = warp - 4, wg = cw >> 2, wq = cw & 3;
        const int g = lane >> 2, t = lane & 3, n_warp = wg * 64 + wq * 16;
        const unsigned a_u = smem_addr(sA);
        const int64_t ldo = ws ? N : ldc;
        const float al = ws ? 1.f : alpha;
        const bool rd = !ws && beta != 0.f;
        float d[128];
        unsigned f[2][4][4]; /* B^T fragments, even and odd k tiles: one in flight, one loading */
        int it = 0;
        for (int u = blockIdx.x; u < units; u += gridDim.x) {
            int tm, tn;
            tile_of(u % tiles, tiles_m, tiles_n, tm, tn);
            const int kbeg = (u / tiles) * kps, ktiles = (min(K - kbeg, kps) + BK - 1) / BK;
            float *Out = ws ? ws + (int64_t)(u / tiles) * M * N : C;
            /* one k tile: its fragments into cur while the last tile's wgmmas (reading prev) run */
            auto step = [&](int kt, unsigned(&cur)[4][4], unsigned(&prev)[4][4]) {
                const int s = it % STAGES;
                mbar_wait(&full[s], (it / STAGES) & 1);
                load_bt_frags(cur, sB + s * STAGE_B, n_warp, g, t);
                acc_fence(d);
                wgmma_fence();
#pragma unroll
                for (int ks = 0; ks < 4; ks++)
                    wgmma_m64n256k8_tf32_rs_sd(d, cur[ks], sw128_desc(a_u + s * STAGE_A + ks * 32), kt > 0 || ks > 0);
                wgmma_commit();
                wgmma_wait<1>(); /* the previous k tile's wgmmas are done: its stage and fragments are free */
                acc_fence(d);
                keep(prev);
                if (kt > 0 && (tid & 127) == 0) mbar_arrive(&empty[(it - 1) % STAGES]);
            };
            for (int kt = 0; kt < ktiles; kt++, it++) {
                if (it & 1)
                    step(kt, f[1], f[0]);
                else
                    step(kt, f[0], f[1]);
            }
            wgmma_wait<0>();
            acc_fence(d);
            keep(f[0]);
            keep(f[1]);
            if ((tid & 127) == 0) mbar_arrive(&empty[(it - 1) % STAGES]);
            /* d[4j + 2h + e] = C^T[row n_warp + g + 8h][column 8j + 2t + e], i.e. C[m][n] */
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int n = tn * BN + n_warp + g + 8 * h;
                if (n >= N) continue;
#pragma unroll
                for (int j = 0; j < BM / 8; j++)
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const int m = tm * BM + 8 * j + 2 * t + e;
                        if (m < M) {
                            float *p = Out + (int64_t)m * ldo + n;
                            const float v = al * d[4 * j + 2 * h + e];
                            *p = rd ? v + beta * *p : v;
                        }
                    }
            }
        }
    } else { /* two consumers: rows 64 wg .. 64 wg + 63 of the tile, all 256 columns */
        setmaxnreg_inc<232>();
        const int cw = warp - 4, wg = cw >> 2, wq = cw & 3;
        const int g = lane >> 2, q4 = lane & 3;
        const unsigned a_u = smem_addr(sA) + wg * 64 * 128, b_u = smem_addr(sB);
        const int64_t ldo = ws ? N : ldc;
        const float al = ws ? 1.f : alpha;
        const bool rd = !ws && beta != 0.f;
        const bool pairs = (ldo % 2) == 0 && (reinterpret_cast<uintptr_t>(ws ? ws : C) & 7) == 0;
        float d[128];
        int it = 0;
        for (int u = blockIdx.x; u < units; u += gridDim.x) {
            int tm, tn;
            tile_of(u % tiles, tiles_m, tiles_n, tm, tn);
            const int kbeg = (u / tiles) * kps, ktiles = (min(K - kbeg, kps) + BK - 1) / BK;
            float *Out = ws ? ws + (int64_t)(u / tiles) * M * N : C;
            for (int kt = 0; kt < ktiles; kt++, it++) {
                const int s = it % STAGES;
                mbar_wait(&full[s], (it / STAGES) & 1);
                acc_fence(d);
                wgmma_fence();
#pragma unroll
                for (int ks = 0; ks < 4; ks++)
                    mma_step(Op{}, d, a_u + s * STAGE_A, b_u + s * STAGE_B, ks, kt > 0 || ks > 0);
                wgmma_commit();
                wgmma_wait<1>(); /* the previous k tile's wgmmas are done: free its stage */
                acc_fence(d);
                if (kt > 0 && (tid & 127) == 0) mbar_arrive(&empty[(it - 1) % STAGES]);
            }
            wgmma_wait<0>();
            acc_fence(d);
            if ((tid & 127) == 0) mbar_arrive(&empty[(it - 1) % STAGES]); /* ktiles >= 1: slices are never empty */
            /* d[4j + 2h + e] = C[row 16 wq + g + 8h][column 8j + 2 q4 + e] of this warpgroup's rows */
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int m = tm * BM + wg * 64 + wq * 16 + g + 8 * h;
                if (m >= M) continue;
                float *row = Out + (int64_t)m * ldo;
#pragma unroll
                for (int j = 0; j < BN / 8; j++) {
                    const int n = tn * BN + 8 * j + 2 * q4;
                    float v0 = al * d[4 * j + 2 * h], v1 = al * d[4 * j + 2 * h + 1];
                    if (pairs && n + 1 < N) {
                        float2 *p = reinterpret_cast<float2 *>(row + n);
                        if (rd) {
                            const float2 c0 = *p;
                            v0 += beta * c0.x, v1 += beta * c0.y;
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
#endif
}

/* Host: the tensor maps and the launch of min(units, sms) persistent blocks on `stream`. A is
 * M x K (lda); B is BF16's B (K x N, ldb) or TF32's Bt (N x K, ldb); rows 16-byte aligned. splits
 * slices of kps (ws: their partials; NULL: splits 1, kps >= K). cudaErrorInvalidValue when the
 * driver rejects a map. The caller has raised the kernel's shared-memory limit to SMEM_BYTES. */
template <class Op>
inline cudaError_t launch_ws(const void *A, int64_t lda, const void *B, int64_t ldb, float *C, int64_t ldc, int M,
                             int N, int K, float alpha, float beta, int sms, cudaStream_t stream, int splits = 1,
                             int kps = 0, float *ws = nullptr)
{
    CUtensorMap map_a, map_b;
    constexpr bool rs = Op::TM == 256;
    if (!pl_gemm_tma::make_map_2d_typed(&map_a, A, Op::TYPE, Op::ELEM, M, K, lda, Op::TM)) return cudaErrorInvalidValue;
    if (!(Op::ELEM == 2 ? pl_gemm_tma::make_map_2d_typed(&map_b, B, Op::TYPE, Op::ELEM, K, N, ldb, Op::BK)
          : rs          ? pl_gemm_tma::make_map_2d_typed(&map_b, B, Op::TYPE, Op::ELEM, K, N, ldb, Op::BK)
                        : pl_gemm_tma::make_map_2d_typed(&map_b, B, Op::TYPE, Op::ELEM, N, K, ldb, Op::TN)))
        return cudaErrorInvalidValue;
    if (splits <= 1) splits = 1, kps = K, ws = nullptr;
    const int64_t units = (int64_t)((M + Op::TM - 1) / Op::TM) * ((N + Op::TN - 1) / Op::TN) * splits;
    const int grid = units < sms ? (int)units : sms;
    wgmma_ws_kernel<Op><<<grid, THREADS, SMEM_BYTES, stream>>>(map_a, map_b, M, N, K, C, ldc, alpha, beta, splits,
                                                               kps, ws);
    return cudaGetLastError();
}

} // namespace pl_gemm_ws

#endif
