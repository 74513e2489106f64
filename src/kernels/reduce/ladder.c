/* ladder.c: the reduce and dot ladders, in order. Read top to bottom, each rung is the one
 * before plus one idea; the peers at the end are what a user could pick instead. */
#include "kernels/ladder.h"
#include "kernels/reduce/reduce.h"

/* cuda-tuned's second pass (an upper estimate): at most 1024 partials a row for few long
 * rows, at most 64 a column. */
static double tuned_workspace(const void *problem)
{
    const pl_reduce_problem *p = problem;
    if (p->axis == 0) return 4.0 * 64.0 * (double)p->N;
    return p->M < 1024 && p->N > 512 ? 4.0 * 1024.0 * (double)p->M : 0;
}
static double cub_workspace(const void *problem)
{
    const pl_reduce_problem *p = problem;
    return 8.0 * (double)p->M + 65536; /* row offsets + CUB's temporary storage (small) */
}
static double dot_workspace(const void *problem) { (void)problem; return 4.0 * 4096; }

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "one float accumulator per output, terms in order (not accurate: long sums stagnate)",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_reduce_cpu_naive,
    .best_rank = 2};
static const pl_variant cpu_simd = {
    .name = "cpu-simd", .idea = "accurate: 4 AVX2/AVX-512 vector accumulators, pairwise blocks of 1024, threads over "
    "rows (long rows split) or column bands",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_reduce_cpu_simd_params, .n_params = PL_REDUCE_CPU_SIMD_N_PARAMS, .run = pl_reduce_cpu_simd,
    .best_rank = 1};
static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "one thread per output, terms in order from global memory (rows: uncoalesced)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_reduce_cuda_naive)};
static const pl_variant cuda_shared_interleaved = {
    .name = "cuda-shared-interleaved", .idea = "accurate: a block per row, shared-memory tree with interleaved "
    "addressing (tid % 2s: divergent warps, strided banks)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_reduce_cuda_shared_interleaved)};
static const pl_variant cuda_shared_sequential = {
    .name = "cuda-shared-sequential", .idea = "accurate: the same tree with sequential addressing (s halves, "
    "tid < s): no divergence inside warps, conflict-free",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_reduce_cuda_shared_sequential)};
static const pl_variant cuda_warp = {
    .name = "cuda-warp", .idea = "accurate: warp shuffles instead of shared memory, 128-bit loads where the row is "
    "aligned",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS), .run = PL_CUDA_FN(pl_reduce_cuda_warp)};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "accurate: by shape, a warp per row (short rows), a block per row, or split rows "
    "and a second pass (few long rows); columns: threads across columns, coalesced, rows split over blocks",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS), .run = PL_CUDA_FN(pl_reduce_cuda_tuned),
    .workspace_bytes = tuned_workspace,
    .best_rank = 1};
static const pl_variant peer_cub = {
    .name = "peer-cub", .idea = "CUB cub::DeviceSegmentedReduce (row sum, mean, min, max; not columns or sumsq)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    .run = PL_CUDA_FN(pl_reduce_peer_cub), .workspace_bytes = cub_workspace};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_simd, &cuda_naive, &cuda_shared_interleaved, &cuda_shared_sequential, &cuda_warp,
    &cuda_tuned, &peer_cub,
};

static const pl_named_size named_sizes[] = {{"small", "1000"}, {"medium", "4096"}, {"large", "10000"}};
/* `parlab check`: every op on both axes at a prime shape, then 1x1, a single row or column,
 * sizes no block divides, odd pitches (offset=1 on a width of 64), long rows and columns. */
static const pl_check_case check_cases[] = {
    {"17x31", "op=sum,axis=1"},   {"17x31", "op=sum,axis=0"},   {"17x31", "op=mean,axis=1"},
    {"17x31", "op=mean,axis=0"},  {"17x31", "op=min,axis=1"},   {"17x31", "op=min,axis=0"},
    {"17x31", "op=max,axis=1"},   {"17x31", "op=max,axis=0"},   {"17x31", "op=sumsq,axis=1"},
    {"17x31", "op=sumsq,axis=0"}, {"1", ""},                    {"1", "axis=0"},
    {"1x1025", ""},               {"1025x1", "axis=0"},         {"1x1025", "axis=0,op=max"},
    {"33x64", "offset=1"},        {"64x33", "axis=0,offset=3,op=mean"}, {"129x127", "op=max,offset=1"},
    {"127x4099", "op=sumsq"},     {"4099x127", "axis=0,op=min"},
};

const pl_kernel pl_reduce_kernel = {
    .name = "reduce",
    .summary = "r = sum|mean|min|max|sumsq over each row (axis 1) or column (axis 0) of an FP32 matrix",
    .size_help = "N (square), MxN, or small|medium|large (1000, 4096, 10000); --set op=, axis=, offset=",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_params = pl_reduce_problem_params,
    .n_problem_params = PL_REDUCE_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .problem_size = sizeof(pl_reduce_problem),
    .make_problem = pl_reduce_spec_make_problem,
    .describe = pl_reduce_spec_describe,
    .operands = pl_reduce_spec_operands,
    .fill = pl_reduce_spec_fill,
    .reference = pl_reduce_spec_reference,
    .reference_ops = pl_reduce_spec_reference_ops,
    .error_bound = pl_reduce_spec_error_bound,
    .elem_bound = pl_reduce_spec_elem_bound,
    .check_sampled = NULL,
    .work = pl_reduce_spec_bytes,
    .ops = pl_reduce_spec_ops,
    .bytes = pl_reduce_spec_bytes,
    .bytes_written = pl_reduce_spec_bytes_written,
    .call_user = pl_reduce_call_user,
};

/* ---------------------------------------------------------------- dot */

static const pl_variant dot_cpu_naive = {
    .name = "cpu-naive", .idea = "one float accumulator, products added in order",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_dot_cpu_naive,
    .best_rank = 2};
static const pl_variant dot_cpu_simd = {
    .name = "cpu-simd", .idea = "accurate: FMA into 4 AVX2/AVX-512 vector accumulators, pairwise blocks, a piece "
    "per thread",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_reduce_cpu_simd_params, .n_params = PL_REDUCE_CPU_SIMD_N_PARAMS, .run = pl_dot_cpu_simd,
    .best_rank = 1};
static const pl_variant dot_cuda_tuned = {
    .name = "cuda-tuned", .idea = "accurate: grid-stride 128-bit loads, warp shuffles, one partial per block, a "
    "second pass",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_reduce_cuda_block_params, PL_REDUCE_CUDA_BLOCK_N_PARAMS), .run = PL_CUDA_FN(pl_dot_cuda_tuned),
    .workspace_bytes = dot_workspace,
    .best_rank = 1};
static const pl_variant dot_peer_openblas = {
    .name = "peer-openblas", .idea = "OpenBLAS cblas_sdot (the CPU peer)",
    .backend = PL_BACKEND_CPU, .is_peer = 1, .requires = PL_REQ_OPENBLAS, .precision = PL_PREC_FP32,
    .run = PL_OPENBLAS_FN(pl_dot_peer_openblas)};
static const pl_variant dot_peer_cublas = {
    .name = "peer-cublas", .idea = "cuBLAS cublasSdot (the GPU peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_FP32,
    .run = PL_CUDA_FN(pl_dot_peer_cublas)};

static const pl_variant *const dot_ladder[] = {
    &dot_cpu_naive, &dot_cpu_simd, &dot_cuda_tuned, &dot_peer_openblas, &dot_peer_cublas,
};

static const pl_named_size dot_sizes[] = {{"small", "1000000"}, {"medium", "16000000"}, {"large", "100000000"}};
/* `parlab check`: lengths of 1, primes, no multiple of a vector or a block, long ones. */
static const pl_check_case dot_check_cases[] = {
    {"1", ""},   {"2", ""},    {"3", ""},     {"17", ""},    {"31", ""},     {"33", ""},
    {"127", ""}, {"129", ""},  {"1023", ""},  {"4097", ""},  {"65537", ""},  {"1000003", ""},
};

const pl_kernel pl_dot_kernel = {
    .name = "dot",
    .summary = "r = sum_i x_i y_i, two FP32 vectors",
    .size_help = "N, or small|medium|large (10^6, 1.6*10^7, 10^8)",
    .named_sizes = dot_sizes,
    .n_named_sizes = PL_COUNT(dot_sizes),
    .check_cases = dot_check_cases,
    .n_check_cases = PL_COUNT(dot_check_cases),
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_params = NULL,
    .n_problem_params = 0,
    .ladder = dot_ladder,
    .n_variants = PL_COUNT(dot_ladder),
    .problem_size = sizeof(pl_dot_problem),
    .make_problem = pl_dot_spec_make_problem,
    .describe = pl_dot_spec_describe,
    .operands = pl_dot_spec_operands,
    .fill = pl_dot_spec_fill,
    .reference = pl_dot_spec_reference,
    .reference_ops = pl_dot_spec_reference_ops,
    .error_bound = pl_dot_spec_error_bound,
    .elem_bound = pl_dot_spec_elem_bound,
    .check_sampled = NULL,
    .work = pl_dot_spec_bytes,
    .ops = pl_dot_spec_ops,
    .bytes = pl_dot_spec_bytes,
    .bytes_written = pl_dot_spec_bytes_written,
    .call_user = pl_dot_call_user,
};
