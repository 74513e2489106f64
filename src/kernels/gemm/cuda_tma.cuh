/* cuda_tma.cuh: Hopper's tensor copy engine (TMA: cp.async.bulk.tensor) and the shared-memory
 * transaction barriers (mbarrier) its copies complete on; what a producer/consumer pipeline
 * needs. The device half exists only in a compilation for sm_90 or later; the host half
 * encodes a 2-D tensor map through the driver entry point (no link against libcuda).
 * Private to the GEMM room.
 *
 * The pipeline these serve: stage s has a "full" barrier (one arrival: the producer's
 * arrive.expect_tx with the stage's byte count; the copy engine completes the bytes) and an
 * "empty" barrier (one arrival per consumer group that has finished reading the stage).
 * The i-th use of a stage waits for phase parity (i & 1). */
#ifndef PL_GEMM_CUDA_TMA_CUH
#define PL_GEMM_CUDA_TMA_CUH

#include <cuda.h> /* CUtensorMap and the cuTensorMapEncodeTiled types (no libcuda link) */
#include <cuda_runtime.h>
#include <stdint.h>

namespace pl_gemm_tma {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
/* Makes the initialised barriers visible to the copy engine (then a block barrier). */
__device__ __forceinline__ void mbar_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory"); }

/* One arrival that also announces `bytes` of copies still to land on this barrier. */
__device__ __forceinline__ void mbar_arrive_expect_tx(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
/* Spin until the phase with this parity has completed. */
__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    const unsigned a = smem_addr(bar);
    unsigned done = 0;
    do {
        asm volatile("{\n.reg .pred p;\n"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(a), "r"(parity)
                     : "memory");
    } while (!done);
}

/* Copy the box at (c0 = inner coordinate, c1 = row) of the tensor map into shared memory
 * (dst aligned as the map's swizzle asks: 1024 bytes for 128-byte swizzle); completes on bar.
 * Elements outside the tensor arrive as zeros (and count toward the bytes). */
__device__ __forceinline__ void tma_load_2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(smem_addr(dst)),
                 "l"(reinterpret_cast<uint64_t>(map)), "r"(smem_addr(bar)), "r"(c0), "r"(c1)
                 : "memory");
}
#endif

typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                    const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static inline encode_tiled_fn lookup_encoder()
{
    encode_tiled_fn fn = nullptr;
    void *p = nullptr;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
#else
    cudaError_t e = cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &p, cudaEnableDefault, &q);
#endif
    if (e == cudaSuccess && q == cudaDriverEntryPointSuccess) fn = reinterpret_cast<encode_tiled_fn>(p);
    cudaGetLastError();
    return fn;
}

/* The driver's entry point, looked up once per process (a C++ static: thread-safe, so two
 * contexts on two threads may ask at once). */
static inline encode_tiled_fn encoder()
{
    static const encode_tiled_fn fn = lookup_encoder();
    return fn;
}

/* Host: a 2-D tensor map over `rows` rows of `cols` elements (`elem_bytes` each, of driver type
 * `type`), `ld` elements apart (ld * elem_bytes a multiple of 16, base 16-byte aligned), read in
 * boxes of `box_rows` rows x 128 bytes with the 128-byte swizzle; zeros outside. False when the
 * driver lacks TMA or rejects the map. */
static inline bool make_map_2d_typed(CUtensorMap *map, const void *base, CUtensorMapDataType type, int elem_bytes,
                                     int64_t rows, int64_t cols, int64_t ld, int box_rows)
{
    encode_tiled_fn enc = encoder();
    if (!enc || ((reinterpret_cast<uintptr_t>(base) & 15) != 0) || ((ld * elem_bytes) % 16 != 0)) return false;
    cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)ld * elem_bytes};
    cuuint32_t box[2] = {(cuuint32_t)(128 / elem_bytes), (cuuint32_t)box_rows};
    cuuint32_t elem_strides[2] = {1, 1};
    return enc(map, type, 2, const_cast<void *>(base), dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* FP32: boxes of box_rows rows x 32 floats. */
static inline bool make_map_2d(CUtensorMap *map, const float *base, int64_t rows, int64_t cols, int64_t ld,
                               int box_rows)
{
    return make_map_2d_typed(map, base, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, rows, cols, ld, box_rows);
}

} // namespace pl_gemm_tma

#endif
