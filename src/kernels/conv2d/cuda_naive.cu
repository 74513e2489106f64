// cuda-naive, cuda-shared-filter, cuda-constant-filter: one thread per output, block x block
// threads per block, the K x K window read from global memory (through L1) with the border rule
// resolved per tap. The three differ only in where the filter is read from:
//   cuda-naive:           global memory, every tap of every thread (L1 serves the repeats);
//   cuda-shared-filter:   staged once per block in shared memory, already flipped for --flip,
//                         then read as broadcasts (every thread of a warp reads the same tap);
//   cuda-constant-filter: copied into __constant__ memory before the launch; a warp reading
//                         one address is served by the constant cache in one transaction.
// Each output still reads K*K image values from L1/L2: the next rung (cuda-tiled) stages the
// image tile once in shared memory.
#include "kernels/conv2d/cuda_common.cuh"
#include "kernels/ladder.h"

#include <atomic>

// Where a thread reads tap (i, j) of the filter.
enum FilterFrom { FROM_GLOBAL = 0, FROM_SHARED = 1, FROM_CONSTANT = 2 };

// cuda-constant-filter's filter: the symbol is one per device in the process, so two contexts
// running this rung at the same time on two streams of one device would overwrite each other's
// filter between a copy and the launch that reads it. Each context therefore takes its own
// slot of CONST_SLOTS copies (given out in turn at the context's first use, kept in its state);
// more than CONST_SLOTS contexts on one device at once would share slots (and race): a limit
// docs/notes/conv2d-cuda.md states. Within one context the copy and the launch are ordered on
// its stream.
enum { CONST_SLOTS = 8, MAX_TAPS = PL_CONV2D_MAX_K * PL_CONV2D_MAX_K };
static __constant__ uint32_t c_filter[CONST_SLOTS][MAX_TAPS]; // float32 or int32 bits

template <typename T> static __device__ __forceinline__ T from_bits(uint32_t b);
template <> __device__ __forceinline__ float from_bits<float>(uint32_t b) { return __uint_as_float(b); }
template <> __device__ __forceinline__ int from_bits<int>(uint32_t b) { return (int)b; }

template <typename T, int FROM>
static __global__ void conv2d_naive_kernel(pl_conv2d_problem p, const T *__restrict__ img, const T *__restrict__ w,
                                           T *__restrict__ out, int slot)
{
    __shared__ T s_w[MAX_TAPS];
    const int K = p.K, taps = K * K;
    if (FROM == FROM_SHARED) {
        // Stage the filter in tap order (flip resolved here), then every thread reads s_w[i*K+j].
        const int t = threadIdx.y * blockDim.x + threadIdx.x, nt = blockDim.x * blockDim.y;
        for (int k = t; k < taps; k += nt) s_w[k] = w[pl_conv2d_tap(K, p.flip, k / K, k % K)];
        __syncthreads();
    }
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.OW || y >= p.OH) return;
    const int off = conv2d_offset(p);
    T acc = T(0);
    for (int i = 0; i < K; i++)
        for (int j = 0; j < K; j++) {
            T wt;
            if (FROM == FROM_GLOBAL) wt = w[pl_conv2d_tap(K, p.flip, i, j)];
            else if (FROM == FROM_SHARED) wt = s_w[i * K + j];
            else wt = from_bits<T>(c_filter[slot][pl_conv2d_tap(K, p.flip, i, j)]);
            acc = conv2d_fma(wt, conv2d_pixel(img, p, y + i - off, x + j - off), acc);
        }
    out[y * p.ld_out + x] = acc;
}

static const int64_t block_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_conv2d_cuda_block_params[] = {
    [PL_CONV2D_CUDA_BLOCK] =
        {.name = "block", .help = "threads per block: block x block, one output each",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_conv2d_cuda_block_params, PL_CONV2D_CUDA_BLOCK_N_PARAMS);

// The context's constant slot (cuda-constant-filter): given out in turn at first use.
static std::atomic<int> next_const_slot{0};
static const char const_slot_key = 0;
static pl_status init_const_slot(pl_ctx *ctx, void *state)
{
    (void)ctx;
    *(int *)state = next_const_slot.fetch_add(1) % CONST_SLOTS;
    return PL_OK;
}

template <typename T>
static pl_status launch(const pl_run_args *a, int from, const char *rung)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    const int bs = (int)a->params[PL_CONV2D_CUDA_BLOCK];
    if (bs != 8 && bs != 16 && bs != 32)
        return pl_fail(PL_ERR_ARG, "%s: block=%d (legal: 8, 16, 32)", rung, bs);
    if (p->OH <= 0 || p->OW <= 0) return PL_OK;
    const int64_t gx = (p->OW + bs - 1) / bs, gy = (p->OH + bs - 1) / bs;
    pl_status s = conv2d_grid_fits(rung, p, gx, gy);
    if (s != PL_OK) return s;
    cudaStream_t st = (cudaStream_t)a->stream;
    const T *img = (const T *)a->data[0], *w = (const T *)a->data[1];
    T *out = (T *)a->data[2];
    int slot = 0;
    if (from == FROM_CONSTANT) {
        int *slot_state = nullptr;
        if ((s = pl_ctx_state(a->ctx, &const_slot_key, sizeof(int), init_const_slot, (void **)&slot_state)) != PL_OK)
            return s;
        slot = *slot_state;
        // Device-to-device into the symbol, ordered before the launch on the run's stream.
        cudaError_t e = cudaMemcpyToSymbolAsync(c_filter, w, sizeof(T) * (size_t)p->K * (size_t)p->K,
                                                sizeof(c_filter[0]) * (size_t)slot, cudaMemcpyDeviceToDevice, st);
        if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: filter copy to constant memory: %s", rung, cudaGetErrorString(e));
    }
    dim3 block(bs, bs), grid((unsigned)gx, (unsigned)gy);
    if (from == FROM_GLOBAL) conv2d_naive_kernel<T, FROM_GLOBAL><<<grid, block, 0, st>>>(*p, img, w, out, slot);
    else if (from == FROM_SHARED) conv2d_naive_kernel<T, FROM_SHARED><<<grid, block, 0, st>>>(*p, img, w, out, slot);
    else conv2d_naive_kernel<T, FROM_CONSTANT><<<grid, block, 0, st>>>(*p, img, w, out, slot);
    return conv2d_launched(rung);
}

static pl_status run(const pl_run_args *a, int from, const char *rung)
{
    const pl_conv2d_problem *p = (const pl_conv2d_problem *)a->problem;
    pl_status s = conv2d_dtype_ok(rung, p);
    if (s != PL_OK) return s;
    return p->dtype == PL_F32 ? launch<float>(a, from, rung) : launch<int>(a, from, rung);
}

extern "C" pl_status pl_conv2d_cuda_naive(const pl_run_args *a) { return run(a, FROM_GLOBAL, "cuda-naive"); }
extern "C" pl_status pl_conv2d_cuda_shared_filter(const pl_run_args *a)
{
    return run(a, FROM_SHARED, "cuda-shared-filter");
}
extern "C" pl_status pl_conv2d_cuda_constant_filter(const pl_run_args *a)
{
    return run(a, FROM_CONSTANT, "cuda-constant-filter");
}
