// peaks_cuda.cu: the GPU ceilings, measured with the CUDA runtime and timed with events.
// - FP32 FMA peak: every thread of a full GPU (PL_PEAKS_GPU_BLOCKS_PER_SM blocks per SM of
//   PL_PEAKS_GPU_THREADS threads) runs PL_PEAKS_GPU_CHAINS independent chains x = x*m + a,
//   unrolled so that loop overhead is about 1% of the instructions; 2 flops per FMA.
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
