// cuda-tuned: sliding windows. A block of T threads owns T adjacent columns and a strip of R
// rows; each thread walks down its column, and from one pixel to the next its window loses
// one row of k values and gains one: 2k histogram updates per pixel instead of k^2 + 2 bins.
// The sum S = sum_b c_b ln c_b follows the histogram: a count going c -> c+1 adds
// g(c) = (c+1) ln(c+1) - c ln c, one going c -> c-1 subtracts g(c-1); the pixel's entropy is
// then (n ln n - S) / n, with no pass over the bins.
//   - S is kept in fixed point (int32, F(c) = round(c ln c * 2^s) with 2^s as large as lets
//     F(k^2) fit in 2^30) and g(c) = F(c+1) - F(c) exactly, so S stays exactly
//     sum_b F(c_b) however many updates it took: a float S would drift. The only error is
//     F's rounding, at most 2^-s/2 per bin present: (F(n) - S) / (n 2^s) is within
//     min(bins, n) / (2 n 2^s) of the entropy (k = 5: 2^-24; k = 63: at most 7.6e-6 at a
//     corner, about 2e-6 inside) before the final float rounding.
//   - The histograms live in shared memory, counter b of thread t at hist[b*T + t]: the 32
//     lanes of a warp always hit 32 different banks, whatever values they read. g(c) is a
//     shared-memory table of k^2 entries, built by each block from double-precision logs.
//   - The strip's input, R + k rows of T + k - 1 bytes, is copied to shared memory first.
// Per pixel at k = 5: 10 updates of 3 shared-memory accesses (counter load and store, g load)
// plus a value load each: the shared-memory pipe (one warp access per clock per SM), not
// DRAM, bounds this rung (see docs/notes/entropy-cuda.md).
// The contract's precondition matters here: a value >= bins would update a counter of
// another row of the histogram (pl_entropy rejects such images before any rung runs).
#include "kernels/entropy/cuda_entropy.cuh"

// F(c) = round(c ln c * scale) (0 for c = 0, 1): the same function on every call, so the
// table g and the final F(n) agree to the last unit.
static __device__ __forceinline__ int fixed_cln(int c, double scale)
{
    return c < 2 ? 0 : __double2int_rn((double)c * log((double)c) * scale);
}

// K: the window side when known at compile time (3, 5, 7: the loop over a row is unrolled),
// 0 for any k (p.k). R: rows per thread. scale: 2^s above; out_scale: 1 or 1/ln 2.
template <int K>
static __global__ void __launch_bounds__(256) entropy_tuned_kernel(pl_entropy_problem p, const uint8_t *__restrict__ in,
                                                                   float *__restrict__ out, int R, double scale,
                                                                   double out_scale)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int k = K ? K : p.k, r = k / 2, N = k * k;
    const int T = blockDim.x, tid = threadIdx.x;
    const int tile_w = T + 2 * r, pitch = (tile_w + 3) & ~3, tile_rows = R + k;
    int *g = (int *)smem;                                  // g[c], c = 0 .. N-1
    int *hist = g + ((N + 3) & ~3);                        // bins rows of T counters
    uint8_t *tile = (uint8_t *)(hist + (size_t)p.bins * T); // tile_rows rows of pitch bytes
    const int64_t x0 = (int64_t)blockIdx.x * T, ys = (int64_t)blockIdx.y * R;
    const int64_t ytop = ys - r - 1; // the image row of tile row 0

    for (int c = tid; c < N; c += T) g[c] = fixed_cln(c + 1, scale) - fixed_cln(c, scale);
    for (int b = 0; b < p.bins; b++) hist[b * T + tid] = 0;
    // Tile row i is image row ytop + i, tile column j image column x0 - r + j. Rows outside the
    // image are skipped (never read); columns outside it get 0 (never counted).
    for (int i = 0; i < tile_rows; i++) {
        const int64_t gy = ytop + i;
        if (gy < 0 || gy >= p.H) continue;
        const uint8_t *src = in + gy * p.ld_in;
        for (int j = tid; j < tile_w; j += T) {
            const int64_t gx = x0 - r + j;
            tile[i * pitch + j] = gx >= 0 && gx < p.W ? src[gx] : 0;
        }
    }
    __syncthreads();

    const int64_t x = x0 + tid;
    if (x >= p.W) return;
    // Window offsets jlo..jhi (tile columns tid + j) are inside the image.
    const int jlo = x < r ? (int)(r - x) : 0;
    const int jhi = x + r > p.W - 1 ? (int)(p.W - 1 - x + r) : 2 * r;
    const int cols_in = jhi - jlo + 1;
    int *h = hist + tid;
    int S = 0;

    // Count tile row `row` in (sign +1) or out (-1) of this thread's window.
    auto update_row = [&](int row, bool add) {
        const uint8_t *v = tile + row * pitch + tid;
        if (K) {
            // The K bytes from tile column tid on, as NW aligned 32-bit words (one shared-memory
            // access each instead of one per byte; rows are multiples of 4 bytes and the words
            // stay inside the row's pitch), funnel-shifted so byte j of the run is byte j % 4
            // of run[j / 4].
            enum { NW = (K + 2) / 4 + 1, NR = K ? (K + 3) / 4 : 1 }; // words read, 4-byte runs made
            const uint32_t *w = (const uint32_t *)(tile + row * pitch + (tid & ~3));
            const int shift = (tid & 3) * 8;
            uint32_t word[NW + 1], run[NR];
#pragma unroll
            for (int i = 0; i < NW; i++) word[i] = w[i];
            word[NW] = 0; // beyond the bytes needed
#pragma unroll
            for (int i = 0; i < NR; i++) run[i] = __funnelshift_r(word[i], word[i + 1], shift);
#pragma unroll
            for (int j = 0; j < (K ? K : 1); j++) {
                if (j < jlo || j > jhi) continue;
                int *cnt = h + ((run[j / 4] >> (8 * (j % 4))) & 0xff) * T;
                if (add) {
                    const int c = *cnt;
                    *cnt = c + 1;
                    S += g[c];
                } else {
                    const int c = *cnt - 1;
                    *cnt = c;
                    S -= g[c];
                }
            }
        } else {
            for (int j = jlo; j <= jhi; j++) {
                int *cnt = h + v[j] * T;
                if (add) {
                    const int c = *cnt;
                    *cnt = c + 1;
                    S += g[c];
                } else {
                    const int c = *cnt - 1;
                    *cnt = c;
                    S -= g[c];
                }
            }
        }
    };

    // Start with the window of row ys - 1 (image rows ys-r-1 .. ys+r-1, tile rows 0 .. k-1).
    for (int i = 0; i < k; i++) {
        const int64_t gy = ytop + i;
        if (gy >= 0 && gy < p.H) update_row(i, true);
    }
    const int64_t yend = ys + R < p.H ? ys + R : p.H;
    int n_prev = -1, Fn = 0;
    float inv = 0.0f;
    for (int64_t y = ys; y < yend; y++) {
        const int ti = (int)(y - ytop); // tile row of y
        if (y - r - 1 >= 0) update_row(ti - r - 1, false); // removals first: counts stay <= n
        if (y + r < p.H) update_row(ti + r, true);
        const int64_t rlo = y - r < 0 ? 0 : y - r, rhi = y + r > p.H - 1 ? p.H - 1 : y + r;
        const int n = (int)(rhi - rlo + 1) * cols_in;
        if (n != n_prev) { // the top and bottom rows of the image, and the first step
            n_prev = n;
            Fn = fixed_cln(n, scale);
            inv = (float)(out_scale / ((double)n * scale));
        }
        const int d = Fn - S; // n * E * 2^s; a rounding below 0 only when E = 0
        __stcs(out + y * p.ld_out + x, d > 0 ? (float)d * inv : 0.0f);
    }
}

static const int64_t strip_sizes[] = {16, 32, 64, 128};
static const int64_t thread_counts[] = {64, 128, 256};
extern "C" const pl_param_def pl_entropy_cuda_tuned_params[2] = {
    {"strip", "rows each thread slides its window down", PL_PARAM_LIST, strip_sizes, 4, 0, 0, 0, NULL, 64},
    {"threads", "threads (columns) per block; fewer where bins x threads counters would pass 96 KiB (bins > 96)",
     PL_PARAM_LIST, thread_counts, 3, 0, 0, 0, NULL, 128},
};

enum { HIST_MAX_BYTES = 96 * 1024 };

template <int K>
static pl_status launch(const pl_entropy_problem *p, const pl_run_args *a, int T, int R, size_t smem, double scale,
                        const char *rung)
{
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(entropy_tuned_kernel<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)smem);
        if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: shared memory of %zu bytes: %s", rung, smem,
                                             cudaGetErrorString(e));
    }
    dim3 grid;
    pl_status s = entropy_grid(p, T, R, rung, &grid);
    if (s != PL_OK) return s;
    const double out_scale = p->base2 ? 1.4426950408889634 : 1.0;
    entropy_tuned_kernel<K><<<grid, T, smem, (cudaStream_t)a->stream>>>(
        *p, (const uint8_t *)a->data[0], (float *)a->data[1], R, scale, out_scale);
    return entropy_launched(rung);
}

extern "C" pl_status pl_entropy_cuda_tuned(const pl_run_args *a)
{
    static const char rung[] = "cuda-tuned";
    const pl_entropy_problem *p = (const pl_entropy_problem *)a->problem;
    const int R = (int)a->params[0];
    int T = (int)a->params[1];
    if (R != 16 && R != 32 && R != 64 && R != 128)
        return pl_fail(PL_ERR_ARG, "%s: strip=%d (legal: 16, 32, 64, 128)", rung, R);
    if (T != 64 && T != 128 && T != 256)
        return pl_fail(PL_ERR_ARG, "%s: threads=%d (legal: 64, 128, 256)", rung, T);
    const int hist_cap = HIST_MAX_BYTES / (4 * p->bins) / 32 * 32; // 96 at bins = 256
    if (T > hist_cap) T = hist_cap;
    const int k = p->k, r = k / 2, N = k * k;
    const size_t smem = (size_t)((N + 3) & ~3) * 4 + (size_t)p->bins * T * 4 +
                        (size_t)(R + k) * (size_t)((T + 2 * r + 3) & ~3);
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return pl_fail(PL_ERR_CUDA, "%s: cannot read the device's shared memory limit", rung);
    if (smem > (size_t)optin)
        return pl_fail(PL_ERR_UNSUPPORTED, "%s: k=%d bins=%d strip=%d threads=%d needs %zu bytes of shared memory, "
                       "this GPU gives a block %d", rung, k, p->bins, R, T, smem, optin);
    // 2^s: the largest power of two with F(N) = N ln N 2^s <= 2^30.
    const double nlnn = N > 1 ? N * log((double)N) : 1.0;
    const double scale = ldexp(1.0, (int)floor(log2(1073741824.0 / nlnn)));
    switch (k) {
    case 3: return launch<3>(p, a, T, R, smem, scale, rung);
    case 5: return launch<5>(p, a, T, R, smem, scale, rung);
    case 7: return launch<7>(p, a, T, R, smem, scale, rung);
    default: return launch<0>(p, a, T, R, smem, scale, rung);
    }
}
