// peaks_cuda.cu: the GPU ceilings, measured with the CUDA runtime and timed with events.
// - FP32 FMA peak: every thread of a full GPU (PL_PEAKS_GPU_BLOCKS_PER_SM blocks per SM of
//   PL_PEAKS_GPU_THREADS threads) runs PL_PEAKS_GPU_CHAINS independent chains x = x*m + a,
//   unrolled so that loop overhead is about 1% of the instructions; 2 flops per FMA.
// - TF32 tensor-core peak: on Hopper (the sm_90a image of this file), one warpgroup a block
//   issuing wgmma.mma_async m64n256k8 tf32 back to back, both operands in shared memory, fp32
//   accumulators, 1..PL_PEAKS_TC_MAX_WG warpgroups an SM (the best counts); elsewhere from
//   sm_80, mma.sync m16n8k8 tf32 with independent accumulators; 2 flops per multiply-add.
// - 32-bit integer throughput: LOP3 + IADD3 chains, one op per thread per instruction.
// - Memory: cudaMemcpy device to device of 1 GiB (quick: 256 MiB); bytes = read + write.
// Best of a few timed tries each. The device that was current is restored afterwards.
#include "harness/peaks.h"
#include "core/core.h"

#include <cuda_runtime.h>

// Every CUDA call is checked; a failure jumps to the function's cleanup with the status set.
#define PEAKS_CUDA(call, what)                                                                     \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            s = cuda_fail(e_, what);                                                               \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

static pl_status cuda_fail(cudaError_t e, const char *what)
{
    if (e == cudaErrorMemoryAllocation)
        return pl_fail(PL_ERR_DEVICE_NOMEM, "peaks: %s: out of device memory", what);
    return pl_fail(PL_ERR_CUDA, "peaks: %s: %s", what, cudaGetErrorString(e));
}

// iters trips of PL_PEAKS_GPU_UNROLL steps of every chain. The chains converge to
// a/(1-m) = 1 (no overflow, no denormals); each thread stores their sum, so no step can be
// dropped (m and a are run-time values: nothing folds).
__global__ void peaks_fma_kernel(float *out, int iters, float m, float a)
{
    float x[PL_PEAKS_GPU_CHAINS];
#pragma unroll
    for (int j = 0; j < PL_PEAKS_GPU_CHAINS; j++) x[j] = 0.001f * (float)(threadIdx.x + j);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < PL_PEAKS_GPU_UNROLL; u++) {
#pragma unroll
            for (int j = 0; j < PL_PEAKS_GPU_CHAINS; j++) x[j] = fmaf(x[j], m, a);
        }
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < PL_PEAKS_GPU_CHAINS; j++) sum += x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" pl_status pl_peaks_gpu_fma(int device, int quick, double *gflops)
{
    pl_status s = PL_OK;
    int prev = -1, sms = 0, blocks = 0, iters = 0;
    float *out = NULL, ms = 0.0f;
    cudaEvent_t start = NULL, stop = NULL;
    double best = 0.0, flops_per_trip = 0.0;
    const int threads = PL_PEAKS_GPU_THREADS;
    *gflops = 0.0;

    PEAKS_CUDA(cudaGetDevice(&prev), "cudaGetDevice");
    PEAKS_CUDA(cudaSetDevice(device), "cudaSetDevice");
    PEAKS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(SM count)");
    blocks = sms * PL_PEAKS_GPU_BLOCKS_PER_SM;
    flops_per_trip = (double)blocks * threads * PL_PEAKS_GPU_CHAINS * PL_PEAKS_GPU_UNROLL * 2.0;
    PEAKS_CUDA(cudaMalloc((void **)&out, (size_t)blocks * threads * sizeof(float)), "cudaMalloc");
    PEAKS_CUDA(cudaEventCreate(&start), "cudaEventCreate");
    PEAKS_CUDA(cudaEventCreate(&stop), "cudaEventCreate");

    // Warm up (module load, clocks), then grow the trip count until a run lasts 10 ms and
    // scale it to one try of pl_peaks_try_s(quick).
    iters = 64;
    for (;;) {
        PEAKS_CUDA(cudaEventRecord(start, 0), "cudaEventRecord");
        peaks_fma_kernel<<<blocks, threads>>>(out, iters, 0.9999f, 0.0001f);
        PEAKS_CUDA(cudaGetLastError(), "FMA peak kernel launch");
        PEAKS_CUDA(cudaEventRecord(stop, 0), "cudaEventRecord");
        PEAKS_CUDA(cudaEventSynchronize(stop), "FMA peak kernel");
        PEAKS_CUDA(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (ms >= 10.0f || iters >= (1 << 28)) break;
        iters *= 4;
    }
    {
        double scaled = iters * (pl_peaks_try_s(quick) * 1e3 / (ms > 0.0f ? ms : 1e-3f));
        iters = scaled < 64.0 ? 64 : scaled > 1e9 ? 1000000000 : (int)scaled;
    }
    for (int t = 0; t < pl_peaks_tries(quick); t++) {
        PEAKS_CUDA(cudaEventRecord(start, 0), "cudaEventRecord");
        peaks_fma_kernel<<<blocks, threads>>>(out, iters, 0.9999f, 0.0001f);
        PEAKS_CUDA(cudaGetLastError(), "FMA peak kernel launch");
        PEAKS_CUDA(cudaEventRecord(stop, 0), "cudaEventRecord");
        PEAKS_CUDA(cudaEventSynchronize(stop), "FMA peak kernel");
        PEAKS_CUDA(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (ms > 0.0f) {
            double g = flops_per_trip * iters / (ms * 1e-3) / 1e9;
            if (g > best) best = g;
        }
    }
    *gflops = best;

done:
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (out) cudaFree(out);
    if (prev >= 0) cudaSetDevice(prev);
    return s;
}

extern "C" pl_status pl_peaks_gpu_copy(int device, int quick, double *gbps)
{
    pl_status s = PL_OK;
    int prev = -1;
    void *src = NULL, *dst = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    double best = 0.0;
    const size_t bytes = (size_t)pl_peaks_copy_mib(quick) << 20;
    *gbps = 0.0;

    PEAKS_CUDA(cudaGetDevice(&prev), "cudaGetDevice");
    PEAKS_CUDA(cudaSetDevice(device), "cudaSetDevice");
    PEAKS_CUDA(cudaMalloc(&src, bytes), "cudaMalloc (copy source)");
    PEAKS_CUDA(cudaMalloc(&dst, bytes), "cudaMalloc (copy destination)");
    PEAKS_CUDA(cudaMemset(src, 1, bytes), "cudaMemset");
    PEAKS_CUDA(cudaMemset(dst, 0, bytes), "cudaMemset");
    PEAKS_CUDA(cudaEventCreate(&start), "cudaEventCreate");
    PEAKS_CUDA(cudaEventCreate(&stop), "cudaEventCreate");
    PEAKS_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpy (warm-up)");
    PEAKS_CUDA(cudaDeviceSynchronize(), "cudaMemcpy (warm-up)");
    for (int r = 0; r < pl_peaks_copy_reps(quick); r++) {
        PEAKS_CUDA(cudaEventRecord(start, 0), "cudaEventRecord");
        PEAKS_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0), "cudaMemcpy");
        PEAKS_CUDA(cudaEventRecord(stop, 0), "cudaEventRecord");
        PEAKS_CUDA(cudaEventSynchronize(stop), "cudaMemcpy");
        PEAKS_CUDA(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (ms > 0.0f) {
            double g = 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
            if (g > best) best = g;
        }
    }
    *gbps = best;

done:
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (src) cudaFree(src);
    if (dst) cudaFree(dst);
    if (prev >= 0) cudaSetDevice(prev);
    return s;
}

// ---------------------------------------------------------------- shared timing

// Seconds -> rate: calibrate the trip count of launch(iters) until a run lasts 10 ms (this
// also warms the GPU up), scale it to one try of pl_peaks_try_s(quick), then keep the best of
// pl_peaks_tries(quick) tries. work: units (flops, ops) per trip of the whole grid.
template <class Launch>
static pl_status best_rate(Launch launch, const char *what, int quick, double work, double *rate)
{
    pl_status s = PL_OK;
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    int iters = 16;
    double best = 0.0;
    *rate = 0.0;
    PEAKS_CUDA(cudaEventCreate(&start), "cudaEventCreate");
    PEAKS_CUDA(cudaEventCreate(&stop), "cudaEventCreate");
    for (int t = -1; t < pl_peaks_tries(quick); t++) {
        for (;;) {
            PEAKS_CUDA(cudaEventRecord(start, 0), "cudaEventRecord");
            launch(iters);
            PEAKS_CUDA(cudaGetLastError(), what);
            PEAKS_CUDA(cudaEventRecord(stop, 0), "cudaEventRecord");
            PEAKS_CUDA(cudaEventSynchronize(stop), what);
            PEAKS_CUDA(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
            if (t >= 0 || ms >= 10.0f || iters >= (1 << 28)) break;
            iters *= 4;
        }
        if (t < 0) { // calibrated: scale to one try
            double scaled = iters * (pl_peaks_try_s(quick) * 1e3 / (ms > 0.0f ? ms : 1e-3f));
            iters = scaled < 16.0 ? 16 : scaled > 1e9 ? 1000000000 : (int)scaled;
            continue;
        }
        if (ms > 0.0f) {
            double g = work * iters / (ms * 1e-3) / 1e9;
            if (g > best) best = g;
        }
    }
    *rate = best;
done:
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    return s;
}

// ---------------------------------------------------------------- TF32 tensor cores

// Which TF32 path the loaded image of this module has: wgmma in the sm_90a image (Hopper),
// mma.sync from sm_80, none before.
__global__ void peaks_tc_probe(int *out)
{
#if defined(__CUDA_ARCH__)
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    *out = PL_PEAKS_TC_WGMMA;
#elif __CUDA_ARCH__ >= 800
    *out = PL_PEAKS_TC_MMA;
#else
    *out = PL_PEAKS_TC_NONE;
#endif
#endif
}

// A small pseudo-random float in [-1, 1): the operands are not zeros, so the tensor cores
// toggle (and draw power) as in a real GEMM.
__device__ __forceinline__ float peaks_value(unsigned i)
{
    i = (i ^ 61u) ^ (i >> 16);
    i *= 9u;
    i ^= i >> 4;
    i *= 0x27d4eb2du;
    i ^= i >> 15;
    return (float)(i & 0xFFFFu) * (2.0f / 65536.0f) - 1.0f;
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define PEAKS_WGMMA 1
// A shared-memory matrix descriptor of a K-major operand without swizzle: core matrices of
// 8 rows x 16 bytes (4 tf32), the two along k (k = 8) 128 bytes apart (leading byte offset),
// 8-row groups 256 bytes apart (stride byte offset). Bits: 0-13 address >> 4, 16-29 LBO >> 4,
// 32-45 SBO >> 4, 62-63 layout (0: no swizzle).
__device__ __forceinline__ unsigned long long peaks_desc(const void *smem)
{
    unsigned addr = (unsigned)__cvta_generic_to_shared(smem);
    return (unsigned long long)((addr >> 4) & 0x3FFF) | ((unsigned long long)(128 >> 4) << 16) |
           ((unsigned long long)(256 >> 4) << 32);
}

// d (64 x 256, fp32, 128 registers a thread) += a (64 x 8) * b (8 x 256), both from shared.
__device__ __forceinline__ void peaks_wgmma(float (&d)[128], unsigned long long da, unsigned long long db)
{
    asm volatile("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, 1, 1, 1;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "l"(da), "l"(db));
}
#else
#define PEAKS_WGMMA 0
#endif

// One warpgroup a block: both operands in shared memory (A 64 x 8: 2 KiB, B 256 x 8: 8 KiB),
// iters trips of PL_PEAKS_TC_UNROLL wgmmas into the same accumulators, committed as a group;
// one group stays in flight while the next is issued (wait_group 1), so the tensor cores
// never wait for the issue. The sum of the accumulators is stored: nothing can be dropped.
__global__ void __launch_bounds__(128) peaks_wgmma_kernel(float *out, int iters)
{
#if PEAKS_WGMMA
    __shared__ __align__(1024) float sa[64 * 8];
    __shared__ __align__(1024) float sb[256 * 8];
    for (int i = threadIdx.x; i < 64 * 8; i += 128) sa[i] = peaks_value(i);
    for (int i = threadIdx.x; i < 256 * 8; i += 128) sb[i] = peaks_value(i + 4096);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); // visible to wgmma's reads
    __syncthreads();
    const unsigned long long da = peaks_desc(sa), db = peaks_desc(sb);
    float d[128];
#pragma unroll
    for (int j = 0; j < 128; j++) d[j] = 0.0f;
    for (int i = 0; i < iters; i++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int u = 0; u < PL_PEAKS_TC_UNROLL; u++) peaks_wgmma(d, da, db);
        asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 128; j++) sum += d[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#else
    (void)iters;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
#endif
}

// mma.sync m16n8k8 TF32 (sm_80+): every warp runs PL_PEAKS_MMA_CHAINS independent
// accumulators (4 registers each), so consecutive mmas never wait for each other's result.
__global__ void peaks_mma_kernel(float *out, int iters)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned lane = threadIdx.x & 31;
    unsigned a0 = __float_as_uint(peaks_value(lane)), a1 = __float_as_uint(peaks_value(lane + 32));
    unsigned a2 = __float_as_uint(peaks_value(lane + 64)), a3 = __float_as_uint(peaks_value(lane + 96));
    unsigned b0 = __float_as_uint(peaks_value(lane + 128)), b1 = __float_as_uint(peaks_value(lane + 160));
    float d[PL_PEAKS_MMA_CHAINS][4];
#pragma unroll
    for (int c = 0; c < PL_PEAKS_MMA_CHAINS; c++)
#pragma unroll
        for (int j = 0; j < 4; j++) d[c][j] = 0.0f;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < PL_PEAKS_GPU_UNROLL / 4; u++)
#pragma unroll
            for (int c = 0; c < PL_PEAKS_MMA_CHAINS; c++)
                asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                             "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                             : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                             : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < PL_PEAKS_MMA_CHAINS; c++) sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
#else
    (void)iters;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
#endif
}

extern "C" pl_status pl_peaks_gpu_tf32(int device, int quick, double *gflops, int *method)
{
    pl_status s = PL_OK;
    int prev = -1, sms = 0, major = 0, *flag = NULL, tc = PL_PEAKS_TC_NONE;
    float *out = NULL;
    double best = 0.0;
    *gflops = 0.0;
    *method = PL_PEAKS_TC_NONE;

    PEAKS_CUDA(cudaGetDevice(&prev), "cudaGetDevice");
    PEAKS_CUDA(cudaSetDevice(device), "cudaSetDevice");
    PEAKS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(SM count)");
    PEAKS_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
               "cudaDeviceGetAttribute(compute capability)");
    PEAKS_CUDA(cudaMalloc((void **)&flag, sizeof(int)), "cudaMalloc");
    PEAKS_CUDA(cudaMemset(flag, 0, sizeof(int)), "cudaMemset");
    peaks_tc_probe<<<1, 1>>>(flag);
    PEAKS_CUDA(cudaGetLastError(), "tensor-core probe launch");
    PEAKS_CUDA(cudaMemcpy(&tc, flag, sizeof(int), cudaMemcpyDeviceToHost), "tensor-core probe");
    if (major < 8) tc = PL_PEAKS_TC_NONE;
    if (tc == PL_PEAKS_TC_NONE) goto done; // no TF32 tensor cores: 0, not an error
    {
        const int max_blocks = sms * (tc == PL_PEAKS_TC_WGMMA ? PL_PEAKS_TC_MAX_WG : 4);
        PEAKS_CUDA(cudaMalloc((void **)&out, (size_t)max_blocks * 256 * sizeof(float)), "cudaMalloc");
    }
    if (tc == PL_PEAKS_TC_WGMMA) {
        // 1..PL_PEAKS_TC_MAX_WG warpgroups an SM (blocks of 128 threads): the best counts
        for (int wg = 1; wg <= PL_PEAKS_TC_MAX_WG; wg++) {
            const int blocks = sms * wg;
            const double work = (double)blocks * PL_PEAKS_TC_UNROLL * (64.0 * 256.0 * 8.0 * 2.0);
            double g = 0.0;
            s = best_rate([&](int it) { peaks_wgmma_kernel<<<blocks, 128>>>(out, it); },
                          "TF32 wgmma peak kernel", quick, work, &g);
            if (s != PL_OK) goto done;
            if (g > best) best = g;
        }
    } else {
        // PL_PEAKS_MMA_WARPS warps an SM, blocks of 8 warps
        const int blocks = sms * (PL_PEAKS_MMA_WARPS / 8);
        const double work = (double)blocks * 8.0 * (PL_PEAKS_GPU_UNROLL / 4) * PL_PEAKS_MMA_CHAINS *
                            (16.0 * 8.0 * 8.0 * 2.0);
        s = best_rate([&](int it) { peaks_mma_kernel<<<blocks, 256>>>(out, it); },
                      "TF32 mma.sync peak kernel", quick, work, &best);
        if (s != PL_OK) goto done;
    }
    *gflops = best;
    *method = tc;

done:
    if (flag) cudaFree(flag);
    if (out) cudaFree(out);
    if (prev >= 0) cudaSetDevice(prev);
    return s;
}

// ---------------------------------------------------------------- 32-bit integer / bitwise

// PL_PEAKS_GPU_INT_CHAINS chains a thread; each unrolled step is a 3-input XOR (one LOP3) and
// a 3-input add (one IADD3) on every chain, each mixing in the next chain, so that nothing
// can be folded or reassociated away. 2 ops a chain a step, one op per thread per instruction.
__global__ void peaks_int_kernel(unsigned *out, int iters, unsigned a, unsigned b)
{
    unsigned x[PL_PEAKS_GPU_INT_CHAINS];
#pragma unroll
    for (int j = 0; j < PL_PEAKS_GPU_INT_CHAINS; j++) x[j] = threadIdx.x * 0x9E3779B9u + (unsigned)j;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < PL_PEAKS_GPU_UNROLL; u++) {
#pragma unroll
            for (int j = 0; j < PL_PEAKS_GPU_INT_CHAINS; j++)
                x[j] = x[j] ^ x[(j + 1) % PL_PEAKS_GPU_INT_CHAINS] ^ a;
#pragma unroll
            for (int j = 0; j < PL_PEAKS_GPU_INT_CHAINS; j++)
                x[j] = x[j] + x[(j + 1) % PL_PEAKS_GPU_INT_CHAINS] + b;
        }
    }
    unsigned sum = 0;
#pragma unroll
    for (int j = 0; j < PL_PEAKS_GPU_INT_CHAINS; j++) sum ^= x[j];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

extern "C" pl_status pl_peaks_gpu_int32(int device, int quick, double *gops)
{
    pl_status s = PL_OK;
    int prev = -1, sms = 0, blocks = 0;
    unsigned *out = NULL;
    const int threads = PL_PEAKS_GPU_THREADS;
    *gops = 0.0;

    PEAKS_CUDA(cudaGetDevice(&prev), "cudaGetDevice");
    PEAKS_CUDA(cudaSetDevice(device), "cudaSetDevice");
    PEAKS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(SM count)");
    blocks = sms * PL_PEAKS_GPU_BLOCKS_PER_SM;
    PEAKS_CUDA(cudaMalloc((void **)&out, (size_t)blocks * threads * sizeof(unsigned)), "cudaMalloc");
    {
        const double work = (double)blocks * threads * PL_PEAKS_GPU_INT_CHAINS * PL_PEAKS_GPU_UNROLL * 2.0;
        s = best_rate([&](int it) { peaks_int_kernel<<<blocks, threads>>>(out, it, 0x9E3779B9u, 0x7F4A7C15u); },
                      "integer peak kernel", quick, work, gops);
    }

done:
    if (out) cudaFree(out);
    if (prev >= 0) cudaSetDevice(prev);
    return s;
}

// ---------------------------------------------------------------- memory streams

// Read only: every thread sums the float4s of its grid-stride share, four loads in flight a
// trip, cached in L2 only (ld.global.cg): half the L2 spread over 132 SMs is 190 KB an SM,
// which the 256 KB L1s would otherwise hold from pass to pass (an "L2" read of 27 TB/s); `passes` sweeps a launch (the empty asm between passes keeps the compiler from
// merging them); each thread stores its sum, so that no load can be dropped.
__global__ void peaks_read_kernel(const float4 *__restrict__ a, size_t n4, int passes, float *out)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float4 s0 = make_float4(0.f, 0.f, 0.f, 0.f), s1 = s0, s2 = s0, s3 = s0;
    for (int p = 0; p < passes; p++) {
        size_t i = first;
        for (; i + 3 * stride < n4; i += 4 * stride) {
            float4 x0 = __ldcg(a + i), x1 = __ldcg(a + i + stride), x2 = __ldcg(a + i + 2 * stride),
                   x3 = __ldcg(a + i + 3 * stride);
            s0.x += x0.x; s0.y += x0.y; s0.z += x0.z; s0.w += x0.w;
            s1.x += x1.x; s1.y += x1.y; s1.z += x1.z; s1.w += x1.w;
            s2.x += x2.x; s2.y += x2.y; s2.z += x2.z; s2.w += x2.w;
            s3.x += x3.x; s3.y += x3.y; s3.z += x3.z; s3.w += x3.w;
        }
        for (; i < n4; i += stride) {
            float4 x0 = __ldcg(a + i);
            s0.x += x0.x; s0.y += x0.y; s0.z += x0.z; s0.w += x0.w;
        }
        asm volatile("" ::: "memory");
    }
    out[first] = (s0.x + s0.y + s0.z + s0.w) + (s1.x + s1.y + s1.z + s1.w) + (s2.x + s2.y + s2.z + s2.w) +
                 (s3.x + s3.y + s3.z + s3.w);
}

// Write only: a[i] = v, one float4 store a step, grid-stride, `passes` sweeps a launch.
__global__ void peaks_write_kernel(float4 *__restrict__ a, size_t n4, int passes, float v)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        const float4 x = make_float4(v + p, v, v, v);
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) a[i] = x;
        asm volatile("" ::: "memory");
    }
}

// Copy: dst[i] = src[i], float4s, grid-stride, `passes` sweeps a launch.
__global__ void peaks_copy_kernel(float4 *__restrict__ dst, const float4 *__restrict__ src, size_t n4, int passes)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (int p = 0; p < passes; p++) {
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) dst[i] = src[i];
        asm volatile("" ::: "memory");
    }
}

extern "C" pl_status pl_peaks_gpu_streams(int device, int quick, double *read_gbps, double *write_gbps,
                                          double *l2_read_gbps, double *l2_copy_gbps, double *l2_bytes)
{
    pl_status s = PL_OK;
    int prev = -1, sms = 0, l2 = 0, blocks = 0;
    float *a = NULL, *b = NULL, *out = NULL;
    const size_t bytes = (size_t)pl_peaks_copy_mib(quick) << 20;
    const int threads = PL_PEAKS_GPU_THREADS;
    size_t n4 = bytes / 16, l2_n4 = 0;
    *read_gbps = *write_gbps = *l2_read_gbps = *l2_copy_gbps = *l2_bytes = 0.0;

    PEAKS_CUDA(cudaGetDevice(&prev), "cudaGetDevice");
    PEAKS_CUDA(cudaSetDevice(device), "cudaSetDevice");
    PEAKS_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
               "cudaDeviceGetAttribute(SM count)");
    PEAKS_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute(L2 size)");
    blocks = sms * PL_PEAKS_GPU_BLOCKS_PER_SM; // a full GPU of resident threads
    PEAKS_CUDA(cudaMalloc((void **)&a, bytes), "cudaMalloc (stream array)");
    PEAKS_CUDA(cudaMalloc((void **)&b, bytes), "cudaMalloc (stream array)");
    PEAKS_CUDA(cudaMalloc((void **)&out, (size_t)blocks * threads * sizeof(float)), "cudaMalloc");
    PEAKS_CUDA(cudaMemset(a, 0, bytes), "cudaMemset");
    PEAKS_CUDA(cudaMemset(b, 0, bytes), "cudaMemset");
    s = best_rate([&](int passes) { peaks_read_kernel<<<blocks, threads>>>((const float4 *)a, n4, passes, out); },
                  "read stream kernel", quick, (double)bytes, read_gbps);
    if (s != PL_OK) goto done;
    s = best_rate([&](int passes) { peaks_write_kernel<<<blocks, threads>>>((float4 *)a, n4, passes, 1.0f); },
                  "write stream kernel", quick, (double)bytes, write_gbps);
    if (s != PL_OK) goto done;
    // Half the L2 in all, warm (best_rate's calibration runs first): one array for the read,
    // two of a quarter for the copy (bytes read + written).
    if (l2 > 0) {
        *l2_bytes = (double)l2;
        l2_n4 = (size_t)l2 / 2 / 16;
        s = best_rate([&](int passes) { peaks_read_kernel<<<blocks, threads>>>((const float4 *)a, l2_n4, passes, out); },
                      "L2 read stream kernel", quick, 16.0 * (double)l2_n4, l2_read_gbps);
        if (s != PL_OK) goto done;
        s = best_rate([&](int passes) {
            peaks_copy_kernel<<<blocks, threads>>>((float4 *)b, (const float4 *)a, l2_n4 / 2, passes);
        }, "L2 copy stream kernel", quick, 2.0 * 16.0 * (double)(l2_n4 / 2), l2_copy_gbps);
        if (s != PL_OK) goto done;
    }

done:
    if (a) cudaFree(a);
    if (b) cudaFree(b);
    if (out) cudaFree(out);
    if (prev >= 0) cudaSetDevice(prev);
    return s;
}
