/* ladder.c: the life ladder, in order. Each rung is the one before plus one idea. */
#include "kernels/ladder.h"
#include "kernels/life/life.h"

extern const pl_param_def pl_life_cpu_bitpacked_params[2];
extern const pl_param_def pl_life_cuda_block_params[1], pl_life_cuda_tuned_params[1];

static const pl_variant cpu_naive = {
    "cpu-naive", "a byte per cell, two buffers, eight neighbours added and the rule looked up; one thread",
    PL_BACKEND_CPU, 0, 0, PL_PREC_EXACT, NULL, 0, pl_life_cpu_naive, NULL};
static const pl_variant cpu_threads = {
    "cpu-threads", "cpu-naive's generation with the rows split among threads, a barrier between generations",
    PL_BACKEND_CPU, 0, 0, PL_PREC_EXACT, NULL, 0, pl_life_cpu_threads, NULL};
static const pl_variant cpu_bitpacked = {
    "cpu-bitpacked", "64 cells per word, neighbour counts by bit-sliced full/half adders, the rule as boolean "
    "logic; AVX2/AVX-512 word loops, bands of rows over threads, tblock generations per pass over memory",
    PL_BACKEND_CPU, 0, PL_REQ_AVX2, PL_PREC_EXACT, pl_life_cpu_bitpacked_params, 2, pl_life_cpu_bitpacked, NULL};

static const pl_variant cpu_sparse = {
    "cpu-sparse", "the plane as 64x64 tiles in a hash map: only tiles that changed and their neighbours are "
    "computed (bit-sliced, over threads); empty still tiles are dropped. Plane only (torus refused)",
    PL_BACKEND_CPU, 0, 0, PL_PREC_EXACT, NULL, 0, pl_life_cpu_sparse, NULL};

static const pl_variant cuda_naive = {
    "cuda-naive", "a byte per cell on the device, a thread per cell reading its eight neighbours from global "
    "memory; block x block threads",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_life_cuda_block_params, 1),
    PL_CUDA_FN(pl_life_cuda_naive), PL_CUDA_FN(pl_life_cuda_bytes_workspace)};
static const pl_variant cuda_shared = {
    "cuda-shared", "cuda-naive with each block's tile and a one-cell halo staged in shared memory",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_life_cuda_block_params, 1),
    PL_CUDA_FN(pl_life_cuda_shared), PL_CUDA_FN(pl_life_cuda_bytes_workspace)};
static const pl_variant cuda_bitpacked = {
    "cuda-bitpacked", "32 cells a thread-word on the packed grid, bit-sliced adders, a generation a launch: "
    "2 bits a cell on the device",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, NULL, 0, PL_CUDA_FN(pl_life_cuda_bitpacked),
    PL_CUDA_FN(pl_life_cuda_words_workspace)};
static const pl_variant cuda_tuned = {
    "cuda-tuned", "tblock generations a launch: a tile and its halo in shared memory (temporal blocking)",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_life_cuda_tuned_params, 1),
    PL_CUDA_FN(pl_life_cuda_tuned), PL_CUDA_FN(pl_life_cuda_words_workspace)};

static const pl_variant *const ladder[] = {&cpu_naive,  &cpu_threads, &cpu_bitpacked,  &cpu_sparse,
                                           &cuda_naive, &cuda_shared, &cuda_bitpacked, &cuda_tuned};

static const pl_named_size named_sizes[] = {{"small", "1024"}, {"medium", "4096"}, {"large", "16384"}};

const pl_kernel pl_life_kernel = {
    .name = "life",
    .summary = "Conway's Game of Life and Life-like rules (B/S), gens generations of a W x H torus or plane",
    .size_help = "N (square), WxH (W cells wide, H rows), or small|medium|large (1024, 4096, 16384)",
    .named_sizes = named_sizes,
    .n_named_sizes = 3,
    .unit = PL_UNIT_CELL,
    .ceiling = PL_CEIL_ROOFLINE,
    .problem_params = pl_life_problem_params,
    .n_problem_params = 4,
    .ladder = ladder,
    .n_variants = (int)(sizeof ladder / sizeof ladder[0]),
    .problem_size = sizeof(pl_life_problem),
    .make_problem = pl_life_spec_make_problem,
    .describe = pl_life_spec_describe,
    .operands = pl_life_spec_operands,
    .fill = pl_life_spec_fill,
    .reference = pl_life_spec_reference,
    .reference_ops = pl_life_spec_reference_ops,
    .error_bound = pl_life_spec_bound,
    .elem_bound = pl_life_spec_bound,
    .check_sampled = pl_life_spec_check_sampled,
    .work = pl_life_spec_cell_updates,
    .ops = pl_life_spec_ops,
    .bytes = pl_life_spec_bytes,
    .bytes_written = pl_life_spec_bytes_written,
};
