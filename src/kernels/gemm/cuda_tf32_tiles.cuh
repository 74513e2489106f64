/* cuda_tf32_tiles.cuh: what the TF32 tensor-core kernels stage their tiles with, shared by
 * cuda-mma-tf32 and cuda-wgmma-tf32: rounding to TF32, and the row-major A and B tiles loaded
 * by cp.async into padded shared-memory rows (16-byte copies with zero-filled tails when the
 * pointer and leading dimension allow, 4-byte copies otherwise; zeros past M, N and K).
 * Private to the GEMM room. */
#ifndef PL_GEMM_CUDA_TF32_TILES_CUH
#define PL_GEMM_CUDA_TF32_TILES_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels/gemm/cuda_async.cuh"

namespace pl_gemm_tf32 {

using namespace pl_gemm_async;

/* x rounded to TF32 (round to nearest, ties away: cvt.rna), as the bits of a float. */
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

} // namespace pl_gemm_tf32

#endif
