/* ladder.c: the GEMV ladder, in order. Read top to bottom, each rung is the one before plus
 * one idea; the peers at the end are the libraries a user could pick instead. GEMV reads
 * every element of A once for one multiply-add: every rung is a lesson in moving A at the
 * memory's speed, and the rate is GB/s against the copy bandwidth. */
#include "kernels/ladder.h"
#include "kernels/gemv/gemv.h"

/* Threads per block of the CUDA rungs: `parlab sweep gemv --variant V --param block=all`
 * is the lab's block-size table. */
static const int64_t blocks[] = {32, 64, 128, 256, 512, 1024};
static const pl_param_def block_params[] = {
    [PL_GEMV_CUDA_BLOCK] =
        {.name = "block", .help = "threads per block",
         .kind = PL_PARAM_LIST, .values = blocks, .n_values = PL_COUNT(blocks), .def = 256},
};
static const int64_t tuned_blocks[] = {0, 32, 64, 128, 256, 512, 1024}; /* 0: by form */
static const char *const map_choices[] = {
    [PL_GEMV_MAP_AUTO] = "auto", [PL_GEMV_MAP_ROWS] = "rows", [PL_GEMV_MAP_SPLIT] = "split",
    [PL_GEMV_MAP_CLUSTER] = "cluster", NULL};
static const pl_param_def tuned_params[] = {
    [PL_GEMV_CUDA_TUNED_BLOCK] =
        {.name = "block", .help = "threads per block (0: by form, 256 for y = A*x, 1024 for A^T; the split "
                                  "blocks of y = A*x are 256)",
         .kind = PL_PARAM_LIST, .values = tuned_blocks, .n_values = PL_COUNT(tuned_blocks), .def = 0},
    [PL_GEMV_CUDA_TUNED_MAP] =
        {.name = "map", .help = "auto: by shape; rows: 1-32 lanes per output, all of its terms; split: the terms "
                                "of each output cut among blocks, partial sums added by a second kernel; cluster (A^T; A*x as auto): "
                                "the rows cut among the up to 8 blocks of a thread-block cluster, which add their "
                                "sums in shared memory (no second kernel)",
         .kind = PL_PARAM_CHOICE, .choices = map_choices, .def = PL_GEMV_MAP_AUTO},
};

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "one dot product per output in a float (for A^T: down a column), rows over threads",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_gemv_cpu_naive,
    .best_rank = 2};
static const pl_variant cpu_simd = {
    .name = "cpu-simd", .idea = "AVX2/AVX-512 dot products of 4 rows at once, rows over threads; A^T: SIMD axpy "
    "of 4 rows at once into a per-thread partial y, partials added at the end",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_gemv_cpu_simd_params, .n_params = PL_GEMV_CPU_SIMD_N_PARAMS, .run = pl_gemv_cpu_simd,
    .best_rank = 1};
static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "one thread per output, all from global memory (uncoalesced rows of A; "
    "A^T: neighbours read neighbouring columns)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    .params = block_params, .n_params = PL_COUNT(block_params), .run = PL_CUDA_FN(pl_gemv_cuda_naive),
    .best_rank = 3};
static const pl_variant cuda_shared = {
    .name = "cuda-shared", .idea = "x staged in shared memory a tile at a time, loaded by every thread of "
    "the block (also those past the last output)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    .params = block_params, .n_params = PL_COUNT(block_params), .run = PL_CUDA_FN(pl_gemv_cuda_shared)};
static const pl_variant cuda_warp = {
    .name = "cuda-warp", .idea = "one warp per output: lanes read the row together (128-bit loads where "
    "aligned), shuffle reduction",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    .params = block_params, .n_params = PL_COUNT(block_params), .run = PL_CUDA_FN(pl_gemv_cuda_warp),
    .best_rank = 2};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "mapping by shape: 1-32 lanes per row (several rows per warp for short rows), "
    "rows split among blocks when few and long; A^T: coalesced column-parallel, rows cut among the blocks of a "
    "thread-block cluster that add their sums in distributed shared memory (one kernel)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    .params = tuned_params, .n_params = PL_COUNT(tuned_params), .run = PL_CUDA_FN(pl_gemv_cuda_tuned),
    .best_rank = 1};
static const pl_variant peer_openblas = {
    .name = "peer-openblas", .idea = "OpenBLAS cblas_sgemv (the CPU peer)",
    .backend = PL_BACKEND_CPU, .is_peer = 1, .requires = PL_REQ_OPENBLAS, .precision = PL_PREC_FP32,
    .run = PL_OPENBLAS_FN(pl_gemv_peer_openblas)};
static const pl_variant peer_cublas = {
    .name = "peer-cublas", .idea = "cuBLAS cublasSgemv (the GPU peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_FP32,
    .run = PL_CUDA_FN(pl_gemv_peer_cublas)};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_simd, &cuda_naive, &cuda_shared, &cuda_warp, &cuda_tuned, &peer_openblas, &peer_cublas,
};

static const pl_named_size named_sizes[] = {{"small", "1024"}, {"medium", "4096"}, {"large", "16384"}};
/* `parlab check`: 1x1, primes, sizes no tile divides, a single row or column, odd pitches
 * (odd widths; pad=1 on a width of 64), both ops, alpha/beta (beta 0: y write-only). */
static const pl_check_case check_cases[] = {
    {"1", ""},           {"1", "trans=t"},            {"17x31", ""},           {"17x31", "trans=t"},
    {"1x513", ""},       {"513x1", "trans=t"},        {"513x1", ""},           {"1x513", "trans=t"},
    {"33x64", "pad=1"},  {"64x33", "trans=t,pad=1"}, {"127x129", "alpha=-0.5,beta=2"},
    {"129x127", "trans=t,alpha=2,beta=-1"}, {"65x63", "beta=1,pad=3"}, {"63x65", "trans=t,alpha=0,beta=0.5"},
    {"1025x1023", ""},   {"1023x1025", "trans=t"},
};

const pl_kernel pl_gemv_kernel = {
    .name = "gemv",
    .summary = "y = alpha*A*x + beta*y or alpha*A^T*x + beta*y (--set trans=t), row-major FP32 A, any lda",
    .size_help = "N (square), MxN (A is M x N), or small|medium|large (1024, 4096, 16384)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .problem_params = pl_gemv_problem_params,
    .n_problem_params = PL_GEMV_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_size = sizeof(pl_gemv_problem),
    .make_problem = pl_gemv_spec_make_problem,
    .describe = pl_gemv_spec_describe,
    .operands = pl_gemv_spec_operands,
    .fill = pl_gemv_spec_fill,
    .reference = pl_gemv_spec_reference,
    .reference_ops = pl_gemv_spec_reference_ops,
    .error_bound = pl_gemv_spec_error_bound,
    .elem_bound = pl_gemv_spec_elem_bound,
    .check_sampled = NULL, /* the full reference reads A once, as the rungs do */
    .work = pl_gemv_spec_bytes,
    .ops = pl_gemv_spec_flops,
    .bytes = pl_gemv_spec_bytes,
    .bytes_written = pl_gemv_spec_bytes_written,
    .call_user = pl_gemv_call_user,
};
