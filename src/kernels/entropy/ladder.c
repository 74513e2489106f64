/* ladder.c: the entropy ladder, in order. Read top to bottom, each rung is the one before plus
 * one idea. No peer runs in-process: scikit-image's rank.entropy is the comparison, by script
 * (tests/test_entropy_skimage.sh). */
#include "kernels/entropy/entropy.h"
#include "kernels/ladder.h"

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "for each value 0..bins-1, count it over the clipped window: O(bins*k^2) a pixel, "
    "one thread",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_entropy_cpu_naive};
static const pl_variant cpu_histogram = {
    .name = "cpu-histogram", .idea = "one pass over the window into a histogram, then over the bins: O(k^2 + bins); "
    "threads",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_entropy_cpu_histogram};
static const pl_variant cpu_histogram_log_table = {
    .name = "cpu-histogram-log-table", .idea = "the same with c log c and log n read from tables of k^2+1 entries: "
    "no log a pixel",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_entropy_cpu_histogram_log_table,
    .best_rank = 2};
static const pl_variant cpu_sliding = {
    .name = "cpu-sliding", .idea = "the histogram slides along the row, O(k) a pixel, exact fixed-point running sum; "
    "k <= 7, bins <= 64: byte column counts moved down a row at a time, c log c by vpermt2ps over 64 pixels "
    "(AVX-512) or by bytes with vpshufb, summed by vpsadbw (AVX2); threads",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32,
    .params = pl_entropy_cpu_sliding_params, .n_params = PL_ENTROPY_CPU_SLIDING_N_PARAMS,
    .run = pl_entropy_cpu_sliding,
    .best_rank = 1};
static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "one thread per pixel, the histogram in registers/local memory, logf per bin",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_entropy_cuda_block_params, PL_ENTROPY_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_entropy_cuda_naive)};
static const pl_variant cuda_log_table = {
    .name = "cuda-log-table", .idea = "the log table in constant memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_entropy_cuda_block_params, PL_ENTROPY_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_entropy_cuda_log_table)};
static const pl_variant cuda_shared = {
    .name = "cuda-shared", .idea = "the tile plus its halo staged in shared memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_entropy_cuda_shared_params, PL_ENTROPY_CUDA_SHARED_N_PARAMS),
    .run = PL_CUDA_FN(pl_entropy_cuda_shared),
    .best_rank = 3};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "the best of these with a sliding window per thread",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_entropy_cuda_tuned_params, PL_ENTROPY_CUDA_TUNED_N_PARAMS),
    .run = PL_CUDA_FN(pl_entropy_cuda_tuned),
    .best_rank = 2};

static const pl_variant cuda_swar = {
    .name = "cuda-swar", .idea = "k = 5, bins <= 16: the counts in registers (4-bit fields of a column, shuffled "
    "sums of 5 columns), S from a shared table of F(a) + F(b); other windows run cuda-tuned",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_entropy_cuda_swar_params, PL_ENTROPY_CUDA_SWAR_N_PARAMS),
    .run = PL_CUDA_FN(pl_entropy_cuda_swar),
    .best_rank = 1};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_histogram, &cpu_histogram_log_table, &cpu_sliding,
    &cuda_naive, &cuda_log_table, &cuda_shared, &cuda_tuned, &cuda_swar,
};

static const pl_named_size named_sizes[] = {{"small", "1000"}, {"medium", "2560"}, {"large", "10000"}};
/* `parlab check`: windows from 1 to larger than the image, bins from 2 to 256, both bases,
 * images of 1 pixel, a row or a column, primes and sizes no tile divides, odd pitches. */
static const pl_check_case check_cases[] = {
    {"1", ""},            {"1", "k=1"},                {"1x17", "k=3"},              {"17x1", "k=7,base=2"},
    {"17x31", ""},        {"17x31", "base=2"},         {"31x17", "k=3,bins=2"},      {"31x17", "k=3,bins=2,base=2"},
    {"33x65", "k=7,bins=256,base=2"}, {"65x33", "k=9,bins=17,pad=1"}, {"64x64", "k=5,bins=16,pad=1"},
    {"63x65", "k=1,bins=256"}, {"19x23", "k=15,bins=3"},  {"7x5", "k=63,bins=5"},   {"129x127", "k=5,bins=16,pad=3"},
    {"40x37", "k=11,bins=255,base=2"},
};

const pl_kernel pl_entropy_kernel = {
    .name = "entropy",
    .summary = "local Shannon entropy of the k x k window around each pixel (clipped at the borders), "
               "uint8 values in [0, bins) -> float32",
    .size_help = "N (square), HxW, or small|medium|large (1000, 2560, 10000)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .unit = PL_UNIT_PIXEL,
    .ceiling = PL_CEIL_MEMORY,
    .problem_params = pl_entropy_problem_params,
    .n_problem_params = PL_ENTROPY_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .problem_size = sizeof(pl_entropy_problem),
    .make_problem = pl_entropy_spec_make_problem,
    .describe = pl_entropy_spec_describe,
    .operands = pl_entropy_spec_operands,
    .fill = pl_entropy_spec_fill,
    .reference = pl_entropy_spec_reference,
    .reference_ops = pl_entropy_spec_reference_ops,
    .error_bound = pl_entropy_spec_error_bound,
    .elem_bound = pl_entropy_spec_bound,
    .check_sampled = pl_entropy_spec_check_sampled,
    .work = pl_entropy_spec_pixels,
    .ops = pl_entropy_spec_ops,
    .bytes = pl_entropy_spec_bytes,
    .bytes_written = pl_entropy_spec_bytes_written,
    .call_user = pl_entropy_call_user,
};
