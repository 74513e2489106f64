// gpu.cu: the memory lab's GPU studies, on CUDA device 0. Each case is a launch (or a copy)
// timed by the harness's clock around the call and a cudaDeviceSynchronize (pl_mem_time), on
// arrays 4x the device's L2 at least, and checked on the device (a kernel counts the elements
// that are not what they should be: a wrong count fails the study).
//   gpu-stream:      copy, scale, add, triad (grid-stride, 256 threads a block, 8 blocks an SM),
//                    bytes as STREAM counts them, and cudaMemcpy device to device.
//   gpu-alignment:   a warp reading 32 consecutive floats (coalesced: one 128-byte line), the same
//                    one float off (two lines), and every s-th float (s lines): GB/s of the bytes used.
//   gpu-banks:       a block reading shared memory at index (thread * stride) % 1024: threads of
//                    a warp that hit the same bank (stride even) are served one after another; a
//                    padded layout (index + index / 32) spreads stride 32 over all banks.
//   gpu-grid-stride: saxpy over sizes 2^16..2^26: a thread an element (n / 256 blocks) against a
//                    grid-stride loop (8 blocks an SM): the same work, fewer block launches.
#include "kernels/memory/mem.h"

#include <cuda_runtime.h>
#include <stdio.h>

static pl_status have_gpu(const char *study, cudaDeviceProp *prop)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return pl_fail(PL_ERR_UNSUPPORTED, "mem %s: no GPU", study);
    if (cudaGetDeviceProperties(prop, 0) != cudaSuccess || cudaSetDevice(0) != cudaSuccess)
        return pl_fail(PL_ERR_CUDA, "mem %s: device 0 cannot be used", study);
    return PL_OK;
}

static pl_status cuda_ok(const char *study, cudaError_t e)
{
    return e == cudaSuccess ? PL_OK : pl_fail(PL_ERR_CUDA, "mem %s: %s", study, cudaGetErrorString(e));
}

// Count the elements of x that are not v (into *bad, on the device).
static __global__ void count_not(const double *__restrict__ x, int64_t n, double v, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        mine += x[i] != v;
    if (mine) atomicAdd(bad, mine);
}

static int64_t device_bad(const double *x, int64_t n, double v, int blocks)
{
    unsigned long long *bad = nullptr, host = 0;
    if (cudaMalloc(&bad, sizeof *bad) != cudaSuccess) return -1;
    cudaMemset(bad, 0, sizeof *bad);
    count_not<<<blocks, 256>>>(x, n, v, bad);
    cudaMemcpy(&host, bad, sizeof host, cudaMemcpyDeviceToHost);
    cudaFree(bad);
    return (int64_t)host;
}

// ---------------------------------------------------------------- gpu-stream

struct gstream {
    double *a, *b, *c;
    int64_t n;
    int kernel, blocks; // kernel 0..3, 4: cudaMemcpy a -> c
};

static __global__ void stream_kernel(double *__restrict__ a, double *__restrict__ b, double *__restrict__ c, int64_t n,
                                     int kernel)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        switch (kernel) {
        case 0: c[i] = a[i]; break;
        case 1: b[i] = 3.0 * c[i]; break;
        case 2: c[i] = a[i] + b[i]; break;
        default: a[i] = b[i] + 3.0 * c[i];
        }
    }
}

static __global__ void stream_init(double *a, double *b, double *c, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        a[i] = 1.0, b[i] = 2.0, c[i] = 0.0;
}

static void gstream_run(void *arg)
{
    gstream *g = (gstream *)arg;
    if (g->kernel == 4) cudaMemcpy(g->c, g->a, (size_t)g->n * sizeof(double), cudaMemcpyDeviceToDevice);
    else stream_kernel<<<g->blocks, 256>>>(g->a, g->b, g->c, g->n, g->kernel);
    cudaDeviceSynchronize();
}

extern "C" pl_status pl_mem_gpu_stream(const mem_opts *o, mem_table *t)
{
    cudaDeviceProp prop;
    pl_status s = have_gpu("gpu-stream", &prop);
    if (s != PL_OK) return s;
    int64_t n = o->quick ? (int64_t)1 << 20 : 4 * (int64_t)prop.l2CacheSize / 8;
    if (!o->quick && n < ((int64_t)1 << 25)) n = (int64_t)1 << 25; // at least 256 MiB an array
    double *mem = nullptr;
    if ((s = cuda_ok("gpu-stream", cudaMalloc(&mem, 3 * (size_t)n * sizeof(double)))) != PL_OK) return s;
    gstream g = {mem, mem + n, mem + 2 * n, n, 0, prop.multiProcessorCount * 8};
    snprintf(t->setup, sizeof t->setup, "%s: 3 arrays of %lld doubles (%.0f MiB each; L2 %.0f MiB), %d blocks of 256",
             prop.name, (long long)n, n * 8.0 / 1048576.0, prop.l2CacheSize / 1048576.0, g.blocks);
    stream_init<<<g.blocks, 256>>>(g.a, g.b, g.c, n);
    static const char *const names[5] = {"copy", "scale", "add", "triad", "cudaMemcpy device to device"};
    static const double bytes[5] = {16, 16, 24, 24, 16};
    double best[5];
    for (int k = 0; k < 5; k++) {
        g.kernel = k;
        mem_row *r = pl_mem_row(t, "GB/s", "%s", names[k]);
        pl_mem_time(gstream_run, &g, o->reps, bytes[k] * (double)n, 1e9, 0, r);
        best[k] = r->best;
    }
    stream_init<<<g.blocks, 256>>>(g.a, g.b, g.c, n);
    for (int k = 0; k < 4; k++) g.kernel = k, gstream_run(&g);
    const int64_t bad = device_bad(g.a, n, 15.0, g.blocks) + device_bad(g.b, n, 3.0, g.blocks) +
                        device_bad(g.c, n, 4.0, g.blocks);
    t->checksums_ok = bad == 0;
    s = cuda_ok("gpu-stream", cudaGetLastError());
    cudaFree(mem);
    snprintf(t->reading, sizeof t->reading, "triad %.0f GB/s, copy %.0f, cudaMemcpy %.0f GB/s (%s)", best[3], best[0],
             best[4], best[3] > 0.9 * best[4] ? "the kernels stream as fast as the driver's copy"
                                              : "the driver's copy is faster: more bytes in flight per SM");
    return s;
}

// ---------------------------------------------------------------- gpu-alignment

struct galign {
    const float *x;
    float *out;
    int64_t n;   // threads
    int offset, stride, blocks;
};

static __global__ void read_kernel(const float *__restrict__ x, float *__restrict__ out, int64_t n, int offset, int stride)
{
    float sum = 0;
    int count = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        sum += x[i * stride + offset], count++;
    if (sum != (float)count) atomicAdd(out, 1.0f); // x holds 1.0f: a thread's sum is its count
}

static void galign_run(void *arg)
{
    galign *g = (galign *)arg;
    read_kernel<<<g->blocks, 256>>>(g->x, g->out, g->n, g->offset, g->stride);
    cudaDeviceSynchronize();
}

static __global__ void fill_ones(float *x, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) x[i] = 1.0f;
}

extern "C" pl_status pl_mem_gpu_alignment(const mem_opts *o, mem_table *t)
{
    cudaDeviceProp prop;
    pl_status s = have_gpu("gpu-alignment", &prop);
    if (s != PL_OK) return s;
    const int64_t n = o->quick ? (int64_t)1 << 20 : (int64_t)1 << 26; // floats read a case
    const int64_t len = n * 32 + 64;
    float *x = nullptr, *out = nullptr;
    if ((s = cuda_ok("gpu-alignment", cudaMalloc(&x, (size_t)len * sizeof(float)))) != PL_OK) return s;
    if ((s = cuda_ok("gpu-alignment", cudaMalloc(&out, sizeof(float)))) != PL_OK) {
        cudaFree(x);
        return s;
    }
    galign g = {x, out, n, 0, 1, prop.multiProcessorCount * 8};
    fill_ones<<<g.blocks, 256>>>(x, len);
    cudaMemset(out, 0, sizeof(float));
    snprintf(t->setup, sizeof t->setup, "%s: %lld floats read a case (%.0f MiB used), %d blocks of 256", prop.name,
             (long long)n, n * 4.0 / 1048576.0, g.blocks);
    static const struct { const char *name; int offset, stride; } cases[] = {
        {"coalesced: a warp reads 32 consecutive floats", 0, 1}, {"offset by one float", 1, 1},
        {"stride 2", 0, 2}, {"stride 4", 0, 4}, {"stride 8", 0, 8}, {"stride 32: a line a thread", 0, 32}};
    double gb[6];
    for (int c = 0; c < 6; c++) {
        g.offset = cases[c].offset, g.stride = cases[c].stride;
        mem_row *r = pl_mem_row(t, "GB/s", "%s", cases[c].name);
        pl_mem_time(galign_run, &g, o->reps, 4.0 * (double)n, 1e9, 0, r);
        gb[c] = r->best;
    }
    float host = 0;
    cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
    t->checksums_ok = host == 0;
    s = cuda_ok("gpu-alignment", cudaGetLastError());
    cudaFree(x);
    cudaFree(out);
    snprintf(t->reading, sizeof t->reading, "useful GB/s: coalesced %.0f, one float off %.0f, stride 2 %.0f, stride 32 "
             "%.0f (%.0fx less: every float costs a whole 32-byte sector or more)", gb[0], gb[1], gb[2], gb[5],
             gb[5] > 0 ? gb[0] / gb[5] : 0);
    return s;
}

// ---------------------------------------------------------------- gpu-banks

enum { BANK_WORDS = 1024, BANK_ITERS = 4096 };

template <bool PADDED>
static __global__ void bank_kernel(float *out, int stride)
{
    __shared__ float sh[BANK_WORDS + BANK_WORDS / 32];
    for (int i = threadIdx.x; i < BANK_WORDS + BANK_WORDS / 32; i += blockDim.x) sh[i] = 1.0f;
    __syncthreads();
    const int base = (threadIdx.x * stride) % BANK_WORDS;
    float sum = 0;
    for (int k = 0; k < BANK_ITERS; k++) {
        const int w = (base + k) & (BANK_WORDS - 1); // every thread moves on a word: the same bank pattern
        sum += sh[PADDED ? w + w / 32 : w];
    }
    if (sum != (float)BANK_ITERS) atomicAdd(out, 1.0f); // a wrong sum counts
}

struct gbank {
    float *out;
    int stride, padded, blocks;
};

static void gbank_run(void *arg)
{
    gbank *g = (gbank *)arg;
    if (g->padded) bank_kernel<true><<<g->blocks, 256>>>(g->out, g->stride);
    else bank_kernel<false><<<g->blocks, 256>>>(g->out, g->stride);
    cudaDeviceSynchronize();
}

extern "C" pl_status pl_mem_gpu_banks(const mem_opts *o, mem_table *t)
{
    cudaDeviceProp prop;
    pl_status s = have_gpu("gpu-banks", &prop);
    if (s != PL_OK) return s;
    float *out = nullptr;
    if ((s = cuda_ok("gpu-banks", cudaMalloc(&out, sizeof(float)))) != PL_OK) return s;
    cudaMemset(out, 0, sizeof(float));
    gbank g = {out, 1, 0, prop.multiProcessorCount * (o->quick ? 1 : 8)};
    const double accesses = (double)g.blocks * 256 * BANK_ITERS;
    snprintf(t->setup, sizeof t->setup, "%s: %d blocks of 256 threads, %d shared reads a thread", prop.name, g.blocks,
             BANK_ITERS);
    double ns1 = 0, ns32 = 0, ns32p = 0;
    for (int stride = 1; stride <= 32; stride *= 2)
        for (int padded = 0; padded < (stride == 32 ? 2 : 1); padded++) {
            g.stride = stride, g.padded = padded;
            mem_row *r = pl_mem_row(t, "ps/access", "stride %d%s", stride, padded ? ", padded (index + index/32)" : "");
            pl_mem_time(gbank_run, &g, o->reps, accesses, 1e12, 1, r);
            if (stride == 1) ns1 = r->best;
            if (stride == 32) *(padded ? &ns32p : &ns32) = r->best;
        }
    float bad = 0;
    cudaMemcpy(&bad, out, sizeof bad, cudaMemcpyDeviceToHost);
    t->checksums_ok = bad == 0;
    s = cuda_ok("gpu-banks", cudaGetLastError());
    cudaFree(out);
    snprintf(t->reading, sizeof t->reading, "stride 1 %.2f ps an access, stride 32 %.2f (%.0fx: all 32 threads of a "
             "warp in one bank, served one by one), stride 32 padded %.2f (the conflict gone)", ns1, ns32,
             ns1 > 0 ? ns32 / ns1 : 0, ns32p);
    return s;
}

// ---------------------------------------------------------------- gpu-grid-stride

static __global__ void saxpy_one(const float *__restrict__ x, float *__restrict__ y, int64_t n)
{
    const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i] + y[i];
}

static __global__ void saxpy_stride(const float *__restrict__ x, float *__restrict__ y, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        y[i] = 2.0f * x[i] + y[i];
}

struct gsaxpy {
    const float *x;
    float *y;
    int64_t n;
    int grid_stride, blocks;
};

static void gsaxpy_run(void *arg)
{
    gsaxpy *g = (gsaxpy *)arg;
    if (g->grid_stride) saxpy_stride<<<g->blocks, 256>>>(g->x, g->y, g->n);
    else saxpy_one<<<(unsigned)((g->n + 255) / 256), 256>>>(g->x, g->y, g->n);
    cudaDeviceSynchronize();
}

static __global__ void fill_value(float *x, int64_t n, float v)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) x[i] = v;
}

static __global__ void count_not_f(const float *x, int64_t n, float v, unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        mine += x[i] != v;
    if (mine) atomicAdd(bad, mine);
}

extern "C" pl_status pl_mem_gpu_grid_stride(const mem_opts *o, mem_table *t)
{
    cudaDeviceProp prop;
    pl_status s = have_gpu("gpu-grid-stride", &prop);
    if (s != PL_OK) return s;
    const int64_t most = o->quick ? (int64_t)1 << 20 : (int64_t)1 << 26;
    float *mem = nullptr;
    unsigned long long *bad = nullptr;
    if ((s = cuda_ok("gpu-grid-stride", cudaMalloc(&mem, 2 * (size_t)most * sizeof(float)))) != PL_OK) return s;
    if ((s = cuda_ok("gpu-grid-stride", cudaMalloc(&bad, sizeof *bad))) != PL_OK) {
        cudaFree(mem);
        return s;
    }
    cudaMemset(bad, 0, sizeof *bad);
    const int blocks = prop.multiProcessorCount * 8;
    snprintf(t->setup, sizeof t->setup, "%s: saxpy y = 2x + y, 2^16..2^%d floats; grid-stride with %d blocks of 256",
             prop.name, o->quick ? 20 : 26, blocks);
    int ok = 1;
    for (int64_t n = (int64_t)1 << 16; n <= most; n *= 4)
        for (int gs = 0; gs < 2; gs++) {
            gsaxpy g = {mem, mem + most, n, gs, blocks};
            fill_value<<<blocks, 256>>>(mem, n, 1.0f);
            fill_value<<<blocks, 256>>>(mem + most, n, 0.0f);
            mem_row *r = pl_mem_row(t, "ns/element", "%lld floats, %s", (long long)n,
                                    gs ? "grid-stride loop" : "a thread an element");
            pl_mem_time(gsaxpy_run, &g, o->reps, (double)n, 1e9, 1, r);
            // y started at 0 and took 2x + y (reps + 1) times with x = 1: y = 2 (reps + 1)
            count_not_f<<<blocks, 256>>>(mem + most, n, 2.0f * (float)(o->reps + 1), bad);
        }
    unsigned long long host = 0;
    cudaMemcpy(&host, bad, sizeof host, cudaMemcpyDeviceToHost);
    ok = host == 0;
    t->checksums_ok = ok;
    s = cuda_ok("gpu-grid-stride", cudaGetLastError());
    cudaFree(mem);
    cudaFree(bad);
    snprintf(t->reading, sizeof t->reading, "the two launch shapes against size (table): small arrays are launch-bound "
             "either way; at the largest both stream at the memory's rate");
    return s;
}
