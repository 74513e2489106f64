/* cuda_wgmma.cuh: Hopper's warpgroup MMA (wgmma.mma_async m64nNk8, TF32 inputs, FP32
 * accumulators) and what the two wgmma rungs share around it: the instruction wrappers, the
 * shared-memory matrix descriptor (K-major, 128-byte swizzle), the swizzled A tile loader and
 * the epilogue. The kernels are in cuda_wgmma_tf32.cu (tiles staged by cp.async) and
 * cuda_wgmma_tma_tf32.cu (tiles fed by the copy engine). Private to the GEMM room.
 *
 * wgmma wants both shared-memory operands K-major for TF32, and our B (K x N, row-major) is
 * N-major. So the roles are swapped: the kernels compute C^T = B^T A^T, i.e.
 *   wgmma M (64 per warpgroup)  <- our N   (operand "A" of wgmma: B^T, from registers loaded
 *                                           from a row-major B tile, or from shared memory when
 *                                           B was transposed K-major first)
 *   wgmma N (128 or 256)        <- our M   (operand "B" of wgmma: A^T, from SHARED memory;
 *                                           A row-major is exactly K-major, 128-byte swizzle)
 *   accumulator D[n][m]         -> C[m][n] (scalar stores; per instruction a warp writes 4
 *                                           rows x 32 contiguous bytes: full sectors)
 * The shared-memory operand is read by the tensor core as stored, i.e. truncated to TF32.
 *
 * The instructions exist only when compiled for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL,
 * PL_WGMMA_DEVICE below); in any other compilation the kernels are empty stubs, and each rung
 * file's probe kernel reports which image a device loaded (cuda_frame.cu asks it). */
#ifndef PL_GEMM_CUDA_WGMMA_CUH
#define PL_GEMM_CUDA_WGMMA_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/gemm/cuda_async.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define PL_WGMMA_DEVICE 1
#else
#define PL_WGMMA_DEVICE 0
#endif

namespace pl_gemm_wgmma {

using namespace pl_gemm_async;

#if PL_WGMMA_DEVICE
__device__ __forceinline__ void wgmma_m64n128k8_tf32_rs(float (&d)[64], const unsigned (&a)[4], uint64_t desc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
        "}, {%64,%65,%66,%67}, %68, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}

__device__ __forceinline__ void wgmma_m64n256k8_tf32_rs(float (&d)[128], const unsigned (&a)[4], uint64_t desc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
        "{"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
        "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
        "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
        "}, {%128,%129,%130,%131}, %132, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(1));
}

template <int N> __device__ __forceinline__ void wgmma_tf32_rs(float (&d)[N / 2], const unsigned (&a)[4], uint64_t desc);
template <> __device__ __forceinline__ void wgmma_tf32_rs<128>(float (&d)[64], const unsigned (&a)[4], uint64_t desc)
{
    wgmma_m64n128k8_tf32_rs(d, a, desc);
}
template <> __device__ __forceinline__ void wgmma_tf32_rs<256>(float (&d)[128], const unsigned (&a)[4], uint64_t desc)
{
    wgmma_m64n256k8_tf32_rs(d, a, desc);
}
__device__ __forceinline__ void wgmma_m64n128k8_tf32_ss(float (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "l"(da), "l"(db), "r"(1));
}

__device__ __forceinline__ void wgmma_m64n256k8_tf32_ss(float (&d)[128], uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
        : "l"(da), "l"(db), "r"(1));
}

template <int N> __device__ __forceinline__ void wgmma_tf32_ss(float (&d)[N / 2], uint64_t da, uint64_t db);
template <> __device__ __forceinline__ void wgmma_tf32_ss<128>(float (&d)[64], uint64_t da, uint64_t db)
{
    wgmma_m64n128k8_tf32_ss(d, da, db);
}
template <> __device__ __forceinline__ void wgmma_tf32_ss<256>(float (&d)[128], uint64_t da, uint64_t db)
{
    wgmma_m64n256k8_tf32_ss(d, da, db);
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
template <int N> __device__ __forceinline__ void acc_fence(float (&d)[N])
{
#pragma unroll
    for (int i = 0; i < N; i++) asm volatile("" : "+f"(d[i])::"memory");
}
/* Hand registers between warpgroups (sm_90a): the kernel starts with an even cap per thread
 * (__launch_bounds__(threads, 1)); a producer gives some back, consumers take them. */
template <int R> __device__ __forceinline__ void setmaxnreg_dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R)); }
template <int R> __device__ __forceinline__ void setmaxnreg_inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R)); }
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }

/* Shared-memory matrix descriptor: K-major, 128-byte swizzle; rows of 128 bytes (BK = 32
 * floats), 8-row groups 1024 bytes apart (SBO); LBO unused for swizzled K-major. */
__device__ __forceinline__ uint64_t sw128_desc(unsigned saddr)
{
    return (uint64_t)((saddr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) |
           ((uint64_t)1 << 62);
}
#endif /* PL_WGMMA_DEVICE */

/* A tile: BM rows x 32 k, 128 bytes a row, 16-byte chunk c of row r at ((c ^ (r & 7)) << 4).
 * Rows >= M and k >= kend zero-filled. */
template <int BM, int NT, bool VEC>
__device__ __forceinline__ void wg_load_a(char *sA, const float *A, int64_t lda, int M, int m0, int k0, int kend,
                                          int tid)
{
    if (VEC) {
        constexpr int CH = BM * 8;
        static_assert(CH % NT == 0 && NT % 8 == 0, "A tile");
        const int c = tid & 7, r0 = tid >> 3;
        const int k = k0 + 4 * c;
        int nb = min(4, kend - k);
        nb = nb < 0 ? 0 : nb;
        const float *p = A + (int64_t)(m0 + r0) * lda + k;
        constexpr int RS = NT / 8;
        const int64_t step = (int64_t)RS * lda;
#pragma unroll
        for (int it = 0; it < CH / NT; it++) {
            const int r = r0 + it * RS;
            bool ok = nb > 0 && (m0 + r < M);
            cp_async16_edge(reinterpret_cast<float *>(sA + r * 128 + ((c ^ (r & 7)) << 4)), ok ? p + it * step : A,
                            ok ? nb : 0);
        }
    } else {
        constexpr int EL = BM * 32;
        static_assert(EL % NT == 0 && NT % 32 == 0, "A tile");
        const int kc = tid & 31, r0 = tid >> 5;
        const int k = k0 + kc;
        const bool kok = k < kend;
        const float *p = A + (int64_t)(m0 + r0) * lda + k;
        constexpr int RS = NT / 32;
        const int64_t step = (int64_t)RS * lda;
#pragma unroll
        for (int it = 0; it < EL / NT; it++) {
            const int r = r0 + it * RS;
            bool ok = kok && (m0 + r < M);
            cp_async4(sA + r * 128 + (((kc >> 2) ^ (r & 7)) << 4) + (kc & 3) * 4, ok ? p + it * step : A, ok ? 4 : 0);
        }
    }
}

#if PL_WGMMA_DEVICE
/* The epilogue of both kernels: this thread's accumulators d (d[4j + q] = D[row nrow +
 * 8(q>>1)][col 8j + 2t + (q&1)] of the transposed product, i.e. C[m][n]) to C, as
 * alpha*acc + beta*C (beta == 0: C not read), or raw to its split-K slice of ws. */
template <int BM>
__device__ __forceinline__ void wg_store_tile(const float (&d)[BM / 2], int M, int N, int m0, int n0, int nrow, int t,
                                              float *C, int64_t ldc, float alpha, float beta, float *ws)
{
    float *Out = ws ? ws + (int64_t)blockIdx.y * M * N : C;
    const int64_t ldo = ws ? (int64_t)N : ldc;
    const float al = ws ? 1.f : alpha;
    const bool rd = !ws && beta != 0.f;
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int n = n0 + nrow + 8 * h;
        if (n >= N) continue;
#pragma unroll
        for (int j = 0; j < BM / 8; j++) {
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int m = m0 + 8 * j + 2 * t + e;
                if (m < M) {
                    float *p = Out + (int64_t)m * ldo + n;
                    float v = al * d[4 * j + 2 * h + e];
                    if (rd) v += beta * *p;
                    *p = v;
                }
            }
        }
    }
}

#endif

} // namespace pl_gemm_wgmma

#endif
