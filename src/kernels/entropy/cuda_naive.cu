// cuda-naive and cuda-log-table: one thread per pixel, blocks of block x block threads. Each
// thread clears a histogram of its own (an array in local memory: indexed by the data, it
// cannot live in registers), counts the k x k values of its clipped window straight from
// global memory (neighbouring threads read overlapping windows; L1 catches the reuse), then
// sums c (ln n - ln c) over the bins.
//   cuda-naive:     ln c by logf, one per bin present (the special-function unit).
//   cuda-log-table: ln c read from a table of ln 0 .. ln 63^2 in __constant__ memory,
//                   uploaded once per context (cuda_entropy.cuh). Constant memory serves one
//                   address per warp at a time: the lanes of a warp hold different counts, so
//                   each read is split into as many as there are distinct counts.
// Both pay bins clears and bins reads per pixel plus k^2 local-memory increments, scattered
// over the lanes' histograms. Next rung: the window's values from a shared-memory tile.
#include "kernels/entropy/cuda_entropy.cuh"
#include "kernels/ladder.h"

// Histograms hold at most MAXB bins (16, 64 or 256: the smallest that fits `bins`); counts
// fit 16 bits (n <= 63^2). A value is masked to MAXB - 1 so that a value >= bins (which the
// contract excludes) can never write outside the array.
template <int MAXB, typename Ln>
static __global__ void entropy_direct_kernel(pl_entropy_problem p, const uint8_t *__restrict__ in,
                                             float *__restrict__ out, Ln ln)
{
    const int64_t x = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t y = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= p.W || y >= p.H) return;
    const EntropyWindow w(p, y, x);
    uint16_t hist[MAXB];
    for (int b = 0; b < p.bins; b++) hist[b] = 0;
    for (int64_t i = w.y0; i <= w.y1; i++) {
        const uint8_t *row = in + i * p.ld_in;
        for (int64_t j = w.x0; j <= w.x1; j++) hist[row[j] & (MAXB - 1)]++;
    }
    out[y * p.ld_out + x] = entropy_of_histogram(hist, p.bins, w.count(), p.base2, ln);
}

static const int64_t block_sizes[] = {8, 16, 32};
extern "C" const pl_param_def pl_entropy_cuda_block_params[] = {
    [PL_ENTROPY_CUDA_BLOCK] =
        {.name = "block", .help = "threads per block: block x block, one pixel each",
         .kind = PL_PARAM_LIST, .values = block_sizes, .n_values = PL_COUNT(block_sizes), .def = 16},
};
PL_CHECK_COUNT(pl_entropy_cuda_block_params, PL_ENTROPY_CUDA_BLOCK_N_PARAMS);

template <typename Ln>
static pl_status launch(const pl_run_args *a, const char *rung, Ln ln)
{
    const pl_entropy_problem *p = (const pl_entropy_problem *)a->problem;
    const int bs = (int)a->params[PL_ENTROPY_CUDA_BLOCK];
    if (bs != 8 && bs != 16 && bs != 32) return pl_fail(PL_ERR_ARG, "%s: block=%d (legal: 8, 16, 32)", rung, bs);
    dim3 grid;
    pl_status s = entropy_grid(p, bs, bs, rung, &grid);
    if (s != PL_OK) return s;
    const dim3 block(bs, bs);
    const uint8_t *in = (const uint8_t *)a->data[0];
    float *out = (float *)a->data[1];
    cudaStream_t st = (cudaStream_t)a->stream;
    if (p->bins <= 16) entropy_direct_kernel<16><<<grid, block, 0, st>>>(*p, in, out, ln);
    else if (p->bins <= 64) entropy_direct_kernel<64><<<grid, block, 0, st>>>(*p, in, out, ln);
    else entropy_direct_kernel<256><<<grid, block, 0, st>>>(*p, in, out, ln);
    return entropy_launched(rung);
}

extern "C" pl_status pl_entropy_cuda_naive(const pl_run_args *a)
{
    return launch(a, "cuda-naive", EntropyLogf());
}

extern "C" pl_status pl_entropy_cuda_log_table(const pl_run_args *a)
{
    pl_status s = entropy_ln_table_upload(a, "cuda-log-table");
    return s != PL_OK ? s : launch(a, "cuda-log-table", EntropyLnTable());
}
