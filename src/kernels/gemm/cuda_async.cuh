/* cuda_async.cuh: the asynchronous global -> shared copies (cp.async, sm_80+) that the CUDA
 * top rungs (cuda_tuned.cu, cuda_mma_tf32.cu, cuda_wgmma_tf32.cu) stage their tiles with.
 * Private to the GEMM room. */
#ifndef PL_GEMM_CUDA_ASYNC_CUH
#define PL_GEMM_CUDA_ASYNC_CUH

namespace pl_gemm_async {

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
/* 16 bytes, bypassing L1 (.cg). */
__device__ __forceinline__ void cp_async16(void *dst, const void *src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_u32(dst)), "l"(src));
}
/* 4 bytes; src_bytes 0 writes a zero and reads nothing. */
__device__ __forceinline__ void cp_async4(void *dst, const void *src, int src_bytes)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_u32(dst)), "l"(src),
                 "r"(src_bytes));
}
/* 4 bytes, always read (no src-size operand): interior copies that need no bounds check. */
__device__ __forceinline__ void cp_async4_full(void *dst, const void *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(smem_u32(dst)), "l"(src));
}
/* Four consecutive floats of which the first `valid` (0..4) exist in global memory: one
 * 16-byte copy when all do, element copies (zero past the end) at an edge, plain zeros when
 * none does. Never touches a byte past the last valid float, so memcheck stays quiet and a
 * tail at the very end of an allocation is safe. */
__device__ __forceinline__ void cp_async16_edge(float *dst, const float *src, int valid)
{
    if (valid >= 4) {
        cp_async16(dst, src);
    } else if (valid > 0) {
#pragma unroll
        for (int e = 0; e < 4; e++) cp_async4(dst + e, e < valid ? src + e : src, e < valid ? 4 : 0);
    } else {
        *reinterpret_cast<float4 *>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
    }
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

} // namespace pl_gemm_async

#endif
