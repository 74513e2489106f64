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
//     shared-memory table of k^2 entries (then k^2 + 1 zeros), built by each block from
//     double-precision logs.
//   - The strip's input, R + k rows of T + k - 1 bytes, is copied to shared memory first.
// Per pixel at k = 5: 10 updates of 3 shared-memory accesses (counter load and store, g load)
// plus 4 word loads: the shared-memory (LSU) pipe, not DRAM, bounds this rung (ncu on the
// H100: LSU pipe 76% busy, integer ALU 42%; docs/notes/entropy-cuda.md). The next rung,
// cuda-swar, keeps the counts in registers instead (k = 5, bins <= 16).
// The contract's precondition matters here: a value >= bins would update a counter of
// another row of the histogram (pl_entropy rejects such images before any rung runs).
#include "kernels/entropy/cuda_entropy.cuh"
#include "kernels/ladder.h"

// Shared-memory load and store at a 32-bit shared address. Written out so that a counter's
// address stays one shift-and-add of the value (the compiler, given pointers, folds the
// thread's offset into the product and spends two more instructions per update).
static __device__ __forceinline__ int lds(uint32_t addr)
{
    int v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
    return v;
}
static __device__ __forceinline__ void sts(uint32_t addr, int v)
{
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// K: the window side when known at compile time (3, 5, 7: the loop over a row is unrolled and
// branch-free), 0 for any k (p.k). T: threads per block (64, 128, 256), a compile-time power
// of two so that a counter's address is one shift-and-add. R: rows per thread. scale: 2^s
// above; out_scale: 1 or 1/ln 2.
//
// Where the time goes: at k = 5 a pixel costs 10 updates, and an update is a byte extract, an
// address, a counter load, +-4, a store, a g load and an add. The integer pipe (half the lanes
// of the float one on Hopper) and the shared-memory pipe share the load, so every integer
// instruction in the update counts:
//   - a counter holds the shared address of g(c) rather than c: the g load uses the value just
//     loaded, with no address arithmetic; counters and g are reached through 32-bit shared
//     addresses (lds/sts), so a counter's address is one shift-and-add of the value;
//   - a column outside the image (left and right borders) holds the ghost value `bins`
//     (bins < 256; bins = 256 leaves no byte free and takes the K = 0 path),
//     whose counter starts at the address of g(k^2) and so only ever reads the zeros stored
//     after g: every thread does the same K updates per row with no test of the column.
template <int K, int T>
static __global__ void __launch_bounds__(256) entropy_tuned_kernel(pl_entropy_problem p, const uint8_t *__restrict__ in,
                                                                 float *__restrict__ out, int R, double scale,
                                                                 double out_scale)
{
    extern __shared__ __align__(16) unsigned char smem[];
    const int k = K ? K : p.k, r = k / 2, N = k * k;
    const int tid = threadIdx.x;
    const int tile_w = T + 2 * r, pitch = (tile_w + 3) & ~3, tile_rows = R + k;
    int *g = (int *)smem;                                    // g[c], c < N; zeros at N .. 2N
    int *hist = g + ((2 * N + 1 + 3) & ~3);                  // bins + 1 rows of T counters
    uint8_t *tile = (uint8_t *)(hist + (size_t)(p.bins + 1) * T); // tile_rows rows of pitch bytes
    const int64_t x0 = (int64_t)blockIdx.x * T, ys = (int64_t)blockIdx.y * R;
    const int64_t ytop = ys - r - 1; // the image row of tile row 0

    for (int c = tid; c <= 2 * N; c += T)
        g[c] = c < N ? entropy_fixed_cln(c + 1, scale) - entropy_fixed_cln(c, scale) : 0;
    // A counter holds the shared address of g(c), gb + 4c, not c itself: the g load of an
    // update then reads at the address it has just loaded.
    const uint32_t gb = (uint32_t)__cvta_generic_to_shared(g);
    for (int b = 0; b < p.bins; b++) hist[b * T + tid] = (int)gb;
    hist[p.bins * T + tid] = (int)(gb + 4 * N); // the ghost counter
    // Tile row i is image row ytop + i, tile column j image column x0 - r + j. Rows outside the
    // image are skipped (never read); columns outside it get the ghost value.
    for (int i = 0; i < tile_rows; i++) {
        const int64_t gy = ytop + i;
        if (gy < 0 || gy >= p.H) continue;
        const uint8_t *src = in + gy * p.ld_in;
        for (int j = tid; j < tile_w; j += T) {
            const int64_t gx = x0 - r + j;
            tile[i * pitch + j] = gx >= 0 && gx < p.W ? src[gx] : (uint8_t)p.bins;
        }
    }
    __syncthreads();

    const int64_t x = x0 + tid;
    if (x >= p.W) return;
    // Window offsets jlo..jhi (tile columns tid + j) are inside the image.
    const int jlo = x < r ? (int)(r - x) : 0;
    const int jhi = x + r > p.W - 1 ? (int)(p.W - 1 - x + r) : 2 * r;
    const int cols_in = jhi - jlo + 1;
    // The counter of bin v is at shared address hb + v * 4T.
    const uint32_t hb = (uint32_t)__cvta_generic_to_shared(hist + tid);
    int S = 0;

    // Count tile row `row` into (add) or out of this thread's window.
    auto update_row = [&](int row, bool add) {
        if (K) {
            // The K bytes from tile column tid on, as NW aligned 32-bit words (rows are
            // multiples of 4 bytes and the words stay inside the row's pitch), funnel-shifted
            // so that byte j of the run is byte j % 4 of run[j / 4].
            enum { NW = (K + 2) / 4 + 1, NR = K ? (K + 3) / 4 : 1 };
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
                const uint32_t v = __byte_perm(run[j / 4], 0, 0x4440 | (j % 4));
                const uint32_t cnt = hb + v * (4 * T);
                if (add) { // g(c) at the old address, the counter moves up
                    const uint32_t gc = (uint32_t)lds(cnt);
                    sts(cnt, (int)(gc + 4));
                    S += lds(gc);
                } else { // g(c - 1) at the new address
                    const uint32_t gc = (uint32_t)lds(cnt) - 4;
                    sts(cnt, (int)gc);
                    S -= lds(gc);
                }
            }
        } else {
            const uint8_t *v = tile + row * pitch + tid;
            for (int j = jlo; j <= jhi; j++) {
                const uint32_t cnt = hb + v[j] * (4 * T);
                if (add) { // g(c) at the old address, the counter moves up
                    const uint32_t gc = (uint32_t)lds(cnt);
                    sts(cnt, (int)(gc + 4));
                    S += lds(gc);
                } else { // g(c - 1) at the new address
                    const uint32_t gc = (uint32_t)lds(cnt) - 4;
                    sts(cnt, (int)gc);
                    S -= lds(gc);
                }
            }
        }
    };

    // Start with the window of row ys - 1 (image rows ys-r-1 .. ys+r-1, tile rows 0 .. k-1).
    for (int i = 0; i < k; i++) {
        const int64_t gy = ytop + i;
        if (gy >= 0 && gy < p.H) update_row(i, true);
    }
    // Away from the image's top and bottom r rows the window has k rows: n = k * cols_in.
    // F(n) and 1/(n 2^s) are recomputed only when n changes (a branch on the loop-carried
    // n_prev: written as "if near the border" the compiler merges the two cases and divides
    // in double precision at every pixel).
    const int n_full = k * cols_in;
    int n_prev = -1, Fn = 0;
    float inv = 0.0f;
    const int rows = (int)(ys + R < p.H ? R : p.H - ys);
    float *o = out + ys * p.ld_out + x;
    for (int s = 0; s < rows; s++, o += p.ld_out) {
        const int64_t y = ys + s;
        const int ti = s + r + 1;                          // tile row of y
        if (y - r - 1 >= 0) update_row(ti - r - 1, false); // removals first: counts stay <= n
        if (y + r < p.H) update_row(ti + r, true);
        int n = n_full;
        if (y < r || y + r >= p.H) {
            const int64_t rlo = y - r < 0 ? 0 : y - r, rhi = y + r > p.H - 1 ? p.H - 1 : y + r;
            n = (int)(rhi - rlo + 1) * cols_in;
        }
        if (n != n_prev) {
            n_prev = n;
            Fn = entropy_fixed_cln(n, scale);
            inv = (float)(out_scale / ((double)n * scale));
        }
        const int d = Fn - S; // n * E * 2^s; a rounding below 0 only when E = 0
        __stcs(o, d > 0 ? (float)d * inv : 0.0f);
    }
}

static const int64_t strip_sizes[] = {16, 32, 64, 128};
static const int64_t thread_counts[] = {64, 128, 256};
extern "C" const pl_param_def pl_entropy_cuda_tuned_params[] = {
    [PL_ENTROPY_CUDA_TUNED_STRIP] =
        {.name = "strip", .help = "rows each thread slides its window down",
         .kind = PL_PARAM_LIST, .values = strip_sizes, .n_values = PL_COUNT(strip_sizes), .def = 64},
    [PL_ENTROPY_CUDA_TUNED_THREADS] =
        {.name = "threads", .help = "threads (columns) per block; halved while (bins + 1) x threads counters pass "
                                    "96 KiB (bins > 95)",
         .kind = PL_PARAM_LIST, .values = thread_counts, .n_values = PL_COUNT(thread_counts), .def = 128},
};
PL_CHECK_COUNT(pl_entropy_cuda_tuned_params, PL_ENTROPY_CUDA_TUNED_N_PARAMS);

enum { HIST_MAX_BYTES = 96 * 1024 };

template <int K, int T>
static pl_status launch(const pl_entropy_problem *p, const pl_run_args *a, int R, size_t smem, double scale,
                        const char *rung)
{
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(entropy_tuned_kernel<K, T>,
                                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: shared memory of %zu bytes: %s", rung, smem,
                                             cudaGetErrorString(e));
    }
    dim3 grid;
    pl_status s = entropy_grid(p, T, R, rung, &grid);
    if (s != PL_OK) return s;
    const double out_scale = p->base2 ? 1.4426950408889634 : 1.0;
    entropy_tuned_kernel<K, T><<<grid, T, smem, (cudaStream_t)a->stream>>>(
        *p, (const uint8_t *)a->data[0], (float *)a->data[1], R, scale, out_scale);
    return entropy_launched(rung);
}

template <int K>
static pl_status launch_k(const pl_entropy_problem *p, const pl_run_args *a, int T, int R, size_t smem,
                          double scale, const char *rung)
{
    switch (T) {
    case 64: return launch<K, 64>(p, a, R, smem, scale, rung);
    case 128: return launch<K, 128>(p, a, R, smem, scale, rung);
    default: return launch<K, 256>(p, a, R, smem, scale, rung);
    }
}

extern "C" pl_status pl_entropy_cuda_tuned(const pl_run_args *a)
{
    static const char rung[] = "cuda-tuned";
    const pl_entropy_problem *p = (const pl_entropy_problem *)a->problem;
    const int R = (int)a->params[PL_ENTROPY_CUDA_TUNED_STRIP];
    int T = (int)a->params[PL_ENTROPY_CUDA_TUNED_THREADS];
    if (R != 16 && R != 32 && R != 64 && R != 128)
        return pl_fail(PL_ERR_ARG, "%s: strip=%d (legal: 16, 32, 64, 128)", rung, R);
    if (T != 64 && T != 128 && T != 256)
        return pl_fail(PL_ERR_ARG, "%s: threads=%d (legal: 64, 128, 256)", rung, T);
    while (T > 64 && (size_t)(p->bins + 1) * T * 4 > HIST_MAX_BYTES) T /= 2; // 64 at bins = 256
    const int k = p->k, r = k / 2, N = k * k;
    const size_t smem = (size_t)((2 * N + 1 + 3) & ~3) * 4 + (size_t)(p->bins + 1) * T * 4 +
                        (size_t)(R + k) * (size_t)((T + 2 * r + 3) & ~3);
    int dev = 0, optin = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return pl_fail(PL_ERR_CUDA, "%s: cannot read the device's shared memory limit", rung);
    if (smem > (size_t)optin)
        return pl_fail(PL_ERR_UNSUPPORTED, "%s: k=%d bins=%d strip=%d threads=%d needs %zu bytes of shared memory, "
                       "this GPU gives a block %d", rung, k, p->bins, R, T, smem, optin);
    const double scale = entropy_fixed_scale(N); // 2^s with F(N) = N ln N 2^s <= 2^30
    // The unrolled paths need a ghost value for the columns outside the image; with bins = 256
    // every byte is a value (the ghost would wrap to 0: seen on the H100, wrong entropies at
    // k = 3, 5, 7), so bins = 256 takes the general path, which never counts those columns.
    switch (p->bins < 256 ? k : 0) {
    case 3: return launch_k<3>(p, a, T, R, smem, scale, rung);
    case 5: return launch_k<5>(p, a, T, R, smem, scale, rung);
    case 7: return launch_k<7>(p, a, T, R, smem, scale, rung);
    default: return launch_k<0>(p, a, T, R, smem, scale, rung);
    }
}
