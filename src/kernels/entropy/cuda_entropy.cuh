// cuda_entropy.cuh: what the CUDA entropy rungs share: the clipped window of a pixel, the
// entropy of a finished histogram (naive, log-table and shared rungs), the table of ln c in
// __constant__ memory, and the launch checks. Private to src/kernels/entropy/*.cu.
//
// The entropy of a window of n values with c_b of them equal to b is
//     E = (1/n) sum_b c_b (ln n - ln c_b)
// summed only over the bins present. Every term is >= 0, so unlike ln n - (1/n) sum c ln c
// nothing cancels: a float sum is good to a few ulp of E.
#ifndef PL_ENTROPY_CUDA_ENTROPY_CUH
#define PL_ENTROPY_CUDA_ENTROPY_CUH

#include "core/core.h"
#include "kernels/entropy/entropy.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

// Entries of the ln table: ln c for c = 0 .. k^2 at the largest k (entry 0 unused).
enum { ENTROPY_LN_ENTRIES = PL_ENTROPY_MAX_K * PL_ENTROPY_MAX_K + 1 };
#define ENTROPY_INV_LN2 1.4426950408889634f

// The window of pixel (y, x), clipped to the image: rows y0..y1, columns x0..x1, inclusive.
struct EntropyWindow {
    int64_t y0, y1, x0, x1;
    __device__ EntropyWindow(const pl_entropy_problem &p, int64_t y, int64_t x)
    {
        const int r = p.k / 2;
        y0 = y - r < 0 ? 0 : y - r;
        y1 = y + r > p.H - 1 ? p.H - 1 : y + r;
        x0 = x - r < 0 ? 0 : x - r;
        x1 = x + r > p.W - 1 ? p.W - 1 : x + r;
    }
    __device__ int count() const { return (int)((y1 - y0 + 1) * (x1 - x0 + 1)); }
};

// ln c for c = 0 .. ENTROPY_LN_ENTRIES-1, in __constant__ memory. `static`: every .cu file
// that includes this header has its own copy of the symbol and fills it itself
// (entropy_ln_table_upload). A __constant__ symbol is one per device, shared by every
// context (pl_ctx) on that device: two contexts running at once on two streams could each
// rewrite it while the other's kernel reads it. That is harmless here only because the table
// depends on nothing (not k, not the base): every upload writes the same bytes. A table that
// depended on k or the base would need a copy per context (device memory) instead.
static __constant__ float entropy_ln_const[ENTROPY_LN_ENTRIES];

// A histogram's entropy. LN(c) gives ln c: logf, or the table read. hist holds bins counts,
// n their sum (>= 1).
template <typename Count, typename Ln>
static __device__ __forceinline__ float entropy_of_histogram(const Count *hist, int bins, int n, int base2, Ln ln)
{
    const float ln_n = ln(n);
    float acc = 0.0f;
    for (int b = 0; b < bins; b++) {
        const int c = hist[b];
        if (c) acc += (float)c * (ln_n - ln(c));
    }
    const float e = acc / (float)n;
    return base2 ? e * ENTROPY_INV_LN2 : e;
}

struct EntropyLogf {
    __device__ float operator()(int c) const { return logf((float)c); }
};
struct EntropyLnTable {
    __device__ float operator()(int c) const { return entropy_ln_const[c]; }
};

// What a context keeps for the table of one .cu file: the host copy, and whether it was sent.
struct EntropyLnState {
    int uploaded;
    float host[ENTROPY_LN_ENTRIES];
};

static pl_status entropy_ln_state_init(pl_ctx *ctx, void *state)
{
    (void)ctx;
    EntropyLnState *s = (EntropyLnState *)state;
    s->host[0] = 0.0f;
    for (int c = 1; c < ENTROPY_LN_ENTRIES; c++) s->host[c] = (float)log((double)c);
    return PL_OK;
}

// Fill this file's entropy_ln_const once per context: the first call sends it on a->stream
// (stream order puts it before the kernel that reads it); later calls do nothing.
static pl_status entropy_ln_table_upload(const pl_run_args *a, const char *rung)
{
    static char key; // its address names this file's table state in a context
    EntropyLnState *s = NULL;
    pl_status st = pl_ctx_state(a->ctx, &key, sizeof(EntropyLnState), entropy_ln_state_init, (void **)&s);
    if (st != PL_OK) return st;
    if (s->uploaded) return PL_OK;
    cudaError_t e = cudaMemcpyToSymbolAsync(entropy_ln_const, s->host, sizeof s->host, 0, cudaMemcpyHostToDevice,
                                            (cudaStream_t)a->stream);
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s: ln table upload: %s", rung, cudaGetErrorString(e));
    s->uploaded = 1;
    return PL_OK;
}

// The fixed point of the sliding rungs (cuda-tuned on the device, cuda-swar on the host):
// F(c) = round(c ln c * scale), 0 for c = 0 and 1. A rung takes its table and F(n) from the
// same calls, so they agree to the last unit and a sum of table entries is exact.
static __host__ __device__ __forceinline__ int entropy_fixed_cln(int c, double scale)
{
    return c < 2 ? 0 : (int)nearbyint((double)c * log((double)c) * scale);
}

// The scale for windows of up to N values: the largest power of two 2^s with F(N) <= 2^30.
static inline double entropy_fixed_scale(int N)
{
    const double nlnn = N > 1 ? N * log((double)N) : 1.0;
    return ldexp(1.0, (int)floor(log2(1073741824.0 / nlnn)));
}

// After a launch: the launch error, if any, as a status naming the rung.
static inline pl_status entropy_launched(const char *rung)
{
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return pl_fail(PL_ERR_CUDA, "%s launch: %s", rung, cudaGetErrorString(e));
    return PL_OK;
}

// A grid of blocks of bx x by pixels (tiles or strips) over the image; fails when the rows
// need more than 65535 blocks in y.
static inline pl_status entropy_grid(const pl_entropy_problem *p, int64_t bx, int64_t by, const char *rung,
                                     dim3 *grid)
{
    const int64_t gx = (p->W + bx - 1) / bx, gy = (p->H + by - 1) / by;
    if (gy > 65535 || gx > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "%s: %lldx%lld needs %lld x %lld blocks (at most 65535 in y)", rung,
                       (long long)p->H, (long long)p->W, (long long)gx, (long long)gy);
    *grid = dim3((unsigned)gx, (unsigned)gy);
    return PL_OK;
}

#endif
