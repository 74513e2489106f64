/* ladder.c: the scale ladder, in order: a loop, then the same loop with AVX2 said out loud. y =
 * a*x reads and writes every element once: its rate is GB/s against the copy bandwidth. */
#include "kernels/ladder.h"
#include "kernels/scale/scale.h"

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "one loop, elements over threads",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_scale_cpu_naive, .best_rank = 2};
static const pl_variant cpu_simd = {
    .name = "cpu-simd", .idea = "AVX2: eight elements a multiply",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32, .run = pl_scale_cpu_simd,
    .best_rank = 1};

static const pl_variant *const ladder[] = {&cpu_naive, &cpu_simd};

static const pl_named_size named_sizes[] = {{"small", "65536"}, {"medium", "4194304"}, {"large", "67108864"}};

const pl_kernel pl_scale_kernel = {
    .name = "scale",
    .summary = "y = a*x, FP32 vectors",
    .size_help = "N, or small|medium|large (65536, 4194304, 67108864)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .problem_params = pl_scale_problem_params,
    .n_problem_params = PL_SCALE_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_size = sizeof(pl_scale_problem),
    .make_problem = pl_scale_spec_make_problem,
    .describe = pl_scale_spec_describe,
    .operands = pl_scale_spec_operands,
    .fill = pl_scale_spec_fill,
    .reference = pl_scale_spec_reference,
    .reference_ops = pl_scale_spec_elements,
    .error_bound = pl_scale_spec_bound,
    .elem_bound = pl_scale_spec_bound,
    .work = pl_scale_spec_bytes,
    .ops = pl_scale_spec_elements,
    .bytes = pl_scale_spec_bytes,
    .bytes_written = pl_scale_spec_bytes_written,
};
