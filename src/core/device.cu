// device.cu: the CUDA runtime calls the harness needs, behind the C interface of device.h.
// Every failure becomes a status with the CUDA error's own words.
#include "core/core.h"
#include "core/device.h"

#include <cuda_runtime.h>
#include <stdio.h>

static pl_status cuda_fail(cudaError_t e, const char *what)
{
    if (e == cudaErrorMemoryAllocation)
        return pl_fail(PL_ERR_DEVICE_NOMEM, "%s: out of device memory", what);
    return pl_fail(PL_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}
#define CHECK_CUDA(call, what)                                                                     \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) return cuda_fail(e_, what);                                         \
    } while (0)

static int count_devices()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        n = 0;
        cudaGetLastError(); // clear the sticky "no device" error
    }
    return n;
}

extern "C" int pl_dev_count(void)
{
    static const int count = count_devices(); // once, thread-safe (C++ static initialisation)
    return count;
}

extern "C" const char *pl_dev_name(int device)
{
    static thread_local char name[256];
    cudaDeviceProp prop;
    if (device >= pl_dev_count() || cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "";
    snprintf(name, sizeof name, "%s", prop.name);
    return name;
}

extern "C" int pl_dev_cc(int device)
{
    int major = 0, minor = 0;
    if (device >= pl_dev_count()) return 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    return major * 10 + minor;
}

extern "C" int pl_dev_sm_count(int device)
{
    int n = 0;
    if (device >= pl_dev_count()) return 0;
    cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device);
    return n;
}

extern "C" pl_status pl_dev_select(int device)
{
    if (device >= pl_dev_count()) return pl_fail(PL_ERR_NO_GPU, "no CUDA device %d", device);
    CHECK_CUDA(cudaSetDevice(device), "cudaSetDevice");
    return PL_OK;
}

extern "C" pl_status pl_dev_current(int *device)
{
    CHECK_CUDA(cudaGetDevice(device), "cudaGetDevice");
    return PL_OK;
}

extern "C" pl_status pl_dev_stream_create(void **stream)
{
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
    *stream = (void *)s;
    return PL_OK;
}

extern "C" void pl_dev_stream_destroy(void *stream) { cudaStreamDestroy((cudaStream_t)stream); }

extern "C" pl_status pl_dev_malloc(void **p, size_t bytes)
{
    *p = NULL;
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 16);
    if (e != cudaSuccess) {
        cudaGetLastError();
        if (e == cudaErrorMemoryAllocation)
            return pl_fail(PL_ERR_DEVICE_NOMEM, "cudaMalloc of %zu bytes: out of device memory", bytes);
        return cuda_fail(e, "cudaMalloc");
    }
    return PL_OK;
}

extern "C" void pl_dev_free(void *p)
{
    if (p) cudaFree(p);
}

extern "C" pl_status pl_dev_h2d(void *dst, const void *src, size_t bytes, void *stream)
{
    CHECK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, (cudaStream_t)stream),
               "copy host to device");
    return PL_OK;
}

extern "C" pl_status pl_dev_d2h(void *dst, const void *src, size_t bytes, void *stream)
{
    CHECK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, (cudaStream_t)stream),
               "copy device to host");
    return PL_OK;
}

extern "C" pl_status pl_dev_d2d(void *dst, const void *src, size_t bytes, void *stream)
{
    CHECK_CUDA(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream),
               "copy device to device");
    return PL_OK;
}

extern "C" pl_status pl_dev_memset(void *p, int byte, size_t bytes, void *stream)
{
    CHECK_CUDA(cudaMemsetAsync(p, byte, bytes, (cudaStream_t)stream), "cudaMemset");
    return PL_OK;
}

extern "C" pl_status pl_dev_copy_2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                    size_t rows, void *stream)
{
    if (!width || !rows) return PL_OK;
    CHECK_CUDA(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDefault, (cudaStream_t)stream),
               "2D copy");
    return PL_OK;
}

// pl_dev_copy_rects: the rectangles as one kernel argument; blockIdx.y picks the rectangle,
// the x blocks stride over its elements (a thread an element, consecutive threads along a row).
struct rect_copies {
    pl_dev_rect_copy c[PL_DEV_MAX_RECTS];
};

template <typename T> static __global__ void copy_rects_kernel(rect_copies r)
{
    const pl_dev_rect_copy c = r.c[blockIdx.y];
    const int64_t n = c.rows * c.cols, step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += step) {
        const int64_t y = i / c.cols, x = i - y * c.cols;
        ((T *)c.dst)[y * c.dld + x] = ((const T *)c.src)[y * c.sld + x];
    }
}

extern "C" pl_status pl_dev_copy_rects(const pl_dev_rect_copy *copies, int n, size_t elem, void *stream)
{
    if (n <= 0) return PL_OK;
    if (n > PL_DEV_MAX_RECTS) return pl_fail(PL_ERR_ARG, "pl_dev_copy_rects: %d rectangles, at most %d", n, PL_DEV_MAX_RECTS);
    rect_copies r;
    int64_t most = 0;
    for (int i = 0; i < n; i++) {
        r.c[i] = copies[i];
        if (copies[i].rows * copies[i].cols > most) most = copies[i].rows * copies[i].cols;
    }
    if (!most) return PL_OK;
    const int threads = 256;
    const int64_t want = (most + threads - 1) / threads;
    const dim3 blocks((unsigned)(want < 1024 ? want : 1024), (unsigned)n);
    cudaStream_t st = (cudaStream_t)stream;
    switch (elem) {
    case 1: copy_rects_kernel<unsigned char><<<blocks, threads, 0, st>>>(r); break;
    case 2: copy_rects_kernel<unsigned short><<<blocks, threads, 0, st>>>(r); break;
    case 4: copy_rects_kernel<unsigned int><<<blocks, threads, 0, st>>>(r); break;
    case 8: copy_rects_kernel<unsigned long long><<<blocks, threads, 0, st>>>(r); break;
    default: return pl_fail(PL_ERR_ARG, "pl_dev_copy_rects: elements of %zu bytes (1, 2, 4 or 8)", elem);
    }
    CHECK_CUDA(cudaGetLastError(), "copy rectangles");
    return PL_OK;
}

extern "C" pl_status pl_dev_sync(void *stream)
{
    CHECK_CUDA(cudaStreamSynchronize((cudaStream_t)stream), "stream synchronize");
    return PL_OK;
}

extern "C" pl_status pl_dev_sync_device(void)
{
    CHECK_CUDA(cudaDeviceSynchronize(), "device synchronize");
    return PL_OK;
}

static __global__ void busy_wait_kernel(unsigned long long ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < ns);
}

extern "C" pl_status pl_dev_busy_wait(void *stream, unsigned microseconds)
{
    busy_wait_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(1000ull * microseconds);
    CHECK_CUDA(cudaGetLastError(), "busy-wait launch");
    return PL_OK;
}

extern "C" pl_status pl_dev_check(const char *what)
{
    CHECK_CUDA(cudaGetLastError(), what);
    return PL_OK;
}

extern "C" pl_status pl_dev_event_create(void **ev)
{
    cudaEvent_t e;
    CHECK_CUDA(cudaEventCreate(&e), "cudaEventCreate");
    *ev = (void *)e;
    return PL_OK;
}

extern "C" pl_status pl_dev_event_create_untimed(void **ev)
{
    cudaEvent_t e;
    CHECK_CUDA(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    *ev = (void *)e;
    return PL_OK;
}

extern "C" void pl_dev_event_destroy(void *ev)
{
    if (ev) cudaEventDestroy((cudaEvent_t)ev);
}

extern "C" pl_status pl_dev_event_record(void *ev, void *stream)
{
    CHECK_CUDA(cudaEventRecord((cudaEvent_t)ev, (cudaStream_t)stream), "cudaEventRecord");
    return PL_OK;
}

extern "C" pl_status pl_dev_stream_wait(void *stream, void *ev)
{
    CHECK_CUDA(cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)ev, 0), "cudaStreamWaitEvent");
    return PL_OK;
}

extern "C" pl_status pl_dev_event_elapsed(void *start, void *stop, double *seconds)
{
    float ms = 0;
    CHECK_CUDA(cudaEventSynchronize((cudaEvent_t)stop), "cudaEventSynchronize");
    CHECK_CUDA(cudaEventElapsedTime(&ms, (cudaEvent_t)start, (cudaEvent_t)stop), "cudaEventElapsedTime");
    *seconds = ms * 1e-3;
    return PL_OK;
}

extern "C" pl_status pl_dev_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = 0;
    CHECK_CUDA(cudaMemGetInfo(free_bytes, total_bytes), "cudaMemGetInfo");
    return PL_OK;
}
