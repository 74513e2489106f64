/* ladder.c: the life ladder, in order. Each rung is the one before plus one idea. */
#include "kernels/ladder.h"
#include "kernels/life/life.h"

#include <stdio.h>

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "a byte per cell, two buffers, eight neighbours added and the rule looked up; one "
    "thread",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_EXACT, .run = pl_life_cpu_naive};
static const pl_variant cpu_threads = {
    .name = "cpu-threads", .idea = "cpu-naive's generation with the rows split among threads, a barrier between "
    "generations",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_EXACT, .run = pl_life_cpu_threads,
    .best_rank = 2};
static const pl_variant cpu_bitpacked = {
    .name = "cpu-bitpacked", .idea = "64 cells per word, neighbour counts by bit-sliced full/half adders, the rule "
    "as boolean logic; AVX2/AVX-512 word loops, bands of rows over threads, tblock generations per pass over memory",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_EXACT,
    .params = pl_life_cpu_bitpacked_params, .n_params = PL_LIFE_CPU_BITPACKED_N_PARAMS,
    .run = pl_life_cpu_bitpacked,
    .best_rank = 1};

static const pl_variant cpu_sparse = {
    .name = "cpu-sparse", .idea = "the plane as 64x64 tiles in a hash map: only tiles that changed and their "
    "neighbours are computed (bit-sliced, over threads); empty still tiles are dropped. Plane only (torus refused)",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_EXACT, .run = pl_life_cpu_sparse};

static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "a byte per cell on the device, a thread per cell reading its eight neighbours "
    "from global memory; block x block threads",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_life_cuda_block_params, PL_LIFE_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_life_cuda_naive), .workspace_bytes = PL_CUDA_FN(pl_life_cuda_bytes_workspace)};
static const pl_variant cuda_shared = {
    .name = "cuda-shared", .idea = "cuda-naive with each block's tile and a one-cell halo staged in shared memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_life_cuda_block_params, PL_LIFE_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_life_cuda_shared), .workspace_bytes = PL_CUDA_FN(pl_life_cuda_bytes_workspace)};
static const pl_variant cuda_bitpacked = {
    .name = "cuda-bitpacked", .idea = "32 cells a thread-word on the packed grid, bit-sliced adders, a generation a "
    "launch: 2 bits a cell on the device",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    .run = PL_CUDA_FN(pl_life_cuda_bitpacked), .workspace_bytes = PL_CUDA_FN(pl_life_cuda_words_workspace),
    .best_rank = 2};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "tblock generations a launch: a tile and its halo in shared memory (temporal "
    "blocking)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_life_cuda_tuned_params, PL_LIFE_CUDA_TUNED_N_PARAMS),
    .run = PL_CUDA_FN(pl_life_cuda_tuned), .workspace_bytes = PL_CUDA_FN(pl_life_cuda_words_workspace)};

static const pl_variant cuda_register = {
    .name = "cuda-register", .idea = "cuda-tuned with the tile in registers: a thread holds a strip of rows of one "
    "word, the west/east words by warp shuffles, the rows above/below from the next warps through shared memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_life_cuda_register_params, PL_LIFE_CUDA_REGISTER_N_PARAMS),
    .run = PL_CUDA_FN(pl_life_cuda_register), .workspace_bytes = PL_CUDA_FN(pl_life_cuda_words_workspace),
    .best_rank = 1};

static const pl_variant *const ladder[] = {&cpu_naive,      &cpu_threads, &cpu_bitpacked,  &cpu_sparse,
                                           &cuda_naive,     &cuda_shared, &cuda_bitpacked, &cuda_tuned,
                                           &cuda_register};

/* The best rung on the GPU depends on the grid: by best_rank cuda-register, then cuda-bitpacked
 * (the order for a large grid); below LIFE_CUDA_TUNED_CELLS cells cuda-bitpacked goes first.
 * cuda-tuned's blocks run their generations one barrier after another and only fill the 132
 * SMs of an H100 on large grids, where its temporal blocking then wins; below the threshold
 * cuda-bitpacked is faster (H100, `parlab bench life --variant cuda-tuned,cuda-bitpacked`, gens
 * 100: bitpacked 3255 against 2566 Gcell/s at 8192^2, tuned 3785 against 3241 at 11584^2, 10786
 * against 3738 at 65536^2). cuda-register, the top rung, took cuda-tuned's place (H100,
 * 2026-11-27: 26765 against 12587 Gcell/s at 65536^2, gens 100, scripts/gpu_records.sh); where
 * it overtakes cuda-bitpacked on small grids was not measured, so the threshold stays
 * cuda-tuned's. */
#define LIFE_CUDA_TUNED_CELLS 1e8
static const char *best_first_for(const void *problem, pl_backend backend)
{
    const pl_life_problem *p = problem;
    return backend == PL_BACKEND_CUDA && (double)p->W * (double)p->H < LIFE_CUDA_TUNED_CELLS ? cuda_bitpacked.name
                                                                                             : NULL;
}

static const pl_named_size named_sizes[] = {{"small", "1024"}, {"medium", "4096"}, {"large", "16384"}};
/* `parlab check`: both topologies with Conway and other Life-like rules (HighLife B36/S23, the
 * S/B form 23/3, Seeds B2/S, Day & Night, Replicator, a B0 rule), grids of one cell, widths
 * on either side of a 64-bit word and of a tile, one row or column, dense and sparse soups. */
static const pl_check_case check_cases[] = {
    {"1", "gens=3"},                     {"1", "gens=3,topology=plane"},
    {"63x17", "gens=7"},                 {"63x17", "gens=7,topology=plane"},
    {"64x64", "gens=9"},                 {"64x64", "gens=9,topology=plane"},
    {"65x33", "gens=11,rule=B36/S23"},   {"65x33", "gens=11,rule=B36/S23,topology=plane"},
    {"127x31", "gens=5,rule=23/3"},      {"129x65", "gens=13,rule=23/3,topology=plane"},
    {"200x7", "gens=4,rule=B2/S,density=0.2"}, {"200x7", "gens=4,rule=B2/S,density=0.2,topology=plane"},
    {"33x129", "gens=6,rule=B3678/S34678"}, {"96x40", "gens=5,rule=B1357/S1357,topology=plane"},
    {"70x70", "gens=4,rule=B0/S8"},      {"1x97", "gens=8"},      {"97x1", "gens=8,topology=plane"},
    {"300x300", "gens=20,density=0.3"},  {"257x255", "gens=16,density=0.1,topology=plane"},
};

/* The cylinder (life.h) only where the word loops wrap a row's ends and not its rows: cpu-bitpacked. */
static int life_takes(const void *problem, const pl_variant *v, char *why, size_t n)
{
    const pl_life_problem *p = problem;
    if (!p || p->topology != PL_LIFE_TOPO_CYLINDER || v == &cpu_bitpacked) return 1;
    snprintf(why, n, "a cylinder (rows wrap east-west only) is cpu-bitpacked's alone");
    return 0;
}

const pl_kernel pl_life_kernel = {
    .name = "life",
    .summary = "Conway's Game of Life and Life-like rules (B/S), gens generations of a W x H torus or plane",
    .size_help = "N (square), WxH (W cells wide, H rows), or small|medium|large (1024, 4096, 16384)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .unit = PL_UNIT_CELL,
    .ceiling = PL_CEIL_ROOFLINE,
    .problem_params = pl_life_problem_params,
    .n_problem_params = PL_LIFE_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
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
    .call_user = pl_life_call_user,
    .best_first_for = best_first_for,
    .takes = life_takes,
};
