/* ladder.c: the transpose ladder, in order. Each rung is the one before plus one idea; the
 * peers at the end are the libraries a user could pick instead. */
#include "kernels/ladder.h"
#include "kernels/transpose/transpose.h"

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "two loops: A read along its rows, B written down its columns (strided stores)",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_EXACT, .run = pl_transpose_cpu_naive,
    .best_rank = 2};
static const pl_variant cpu_blocked = {
    .name = "cpu-blocked", .idea = "cache tiles over threads; 8x8 (AVX2) / 16x16 (AVX-512) blocks transposed in "
    "registers, whole vectors read and written; streaming stores for large B",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_EXACT,
    .params = pl_transpose_cpu_blocked_params, .n_params = PL_TRANSPOSE_CPU_BLOCKED_N_PARAMS,
    .run = pl_transpose_cpu_blocked,
    .best_rank = 1};
static const pl_variant cuda_naive_read = {
    .name = "cuda-naive-read", .idea = "one element per thread, warps read rows of A (coalesced) and write "
    "columns of B (one 32-byte sector per element)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_transpose_cuda_naive_params, PL_TRANSPOSE_CUDA_NAIVE_N_PARAMS),
    .run = PL_CUDA_FN(pl_transpose_cuda_naive_read)};
static const pl_variant cuda_naive_write = {
    .name = "cuda-naive-write", .idea = "one element per thread, warps write rows of B (coalesced) and read "
    "columns of A (strided loads, helped by L1/L2)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_transpose_cuda_naive_params, PL_TRANSPOSE_CUDA_NAIVE_N_PARAMS),
    .run = PL_CUDA_FN(pl_transpose_cuda_naive_write)};
static const pl_variant cuda_shared = {
    .name = "cuda-shared", .idea = "a tile through shared memory: coalesced reads and writes, but the column "
    "reads of the tile hit one bank (32-way conflicts at block=32)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_transpose_cuda_shared_params, PL_TRANSPOSE_CUDA_SHARED_N_PARAMS),
    .run = PL_CUDA_FN(pl_transpose_cuda_shared)};
static const pl_variant cuda_shared_padded = {
    .name = "cuda-shared-padded", .idea = "the same tile with one padding column: a column of the tile spans "
    "all 32 banks, no conflicts",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_transpose_cuda_shared_params, PL_TRANSPOSE_CUDA_SHARED_N_PARAMS),
    .run = PL_CUDA_FN(pl_transpose_cuda_shared_padded),
    .best_rank = 2};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "64x64 padded tiles, 32xR threads with several elements each; 128-bit loads "
    "and stores where rows are 16-byte aligned",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_EXACT,
    PL_CUDA_PARAMS(pl_transpose_cuda_tuned_params, PL_TRANSPOSE_CUDA_TUNED_N_PARAMS),
    .run = PL_CUDA_FN(pl_transpose_cuda_tuned),
    .best_rank = 1};
static const pl_variant peer_openblas = {
    .name = "peer-openblas", .idea = "OpenBLAS cblas_somatcopy, row-major, transposed (the CPU peer)",
    .backend = PL_BACKEND_CPU, .is_peer = 1, .requires = PL_REQ_OPENBLAS, .precision = PL_PREC_EXACT,
    .run = PL_OPENBLAS_FN(pl_transpose_peer_openblas)};
static const pl_variant peer_cublas = {
    .name = "peer-cublas", .idea = "cuBLAS cublasSgeam with the first operand transposed, beta = 0 (the GPU peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_EXACT,
    .run = PL_CUDA_FN(pl_transpose_peer_cublas)};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_blocked,
    &cuda_naive_read, &cuda_naive_write, &cuda_shared, &cuda_shared_padded, &cuda_tuned,
    &peer_openblas, &peer_cublas,
};

static const pl_named_size named_sizes[] = {{"small", "1024"}, {"medium", "4096"}, {"large", "16384"}};
/* `parlab check`: 1x1, a single row or column, primes, sizes no tile divides, odd pitches. */
static const pl_check_case check_cases[] = {
    {"1", ""},      {"1x17", ""},      {"17x1", ""},        {"17x31", ""},       {"31x17", "pad=1"},
    {"33x65", ""},  {"63x129", "pad=3"}, {"128x64", "pad=1"}, {"127x127", ""},  {"65x257", ""},
    {"256x255", ""},
};

const pl_kernel pl_transpose_kernel = {
    .name = "transpose",
    .summary = "B = A^T out of place, row-major FP32, any M x N and leading dimensions",
    .size_help = "N (square), MxN (A is M x N), or small|medium|large (1024, 4096, 16384)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_params = pl_transpose_problem_params,
    .n_problem_params = PL_TRANSPOSE_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .problem_size = sizeof(pl_transpose_problem),
    .make_problem = pl_transpose_spec_make_problem,
    .describe = pl_transpose_spec_describe,
    .operands = pl_transpose_spec_operands,
    .fill = pl_transpose_spec_fill,
    .reference = pl_transpose_spec_reference,
    .reference_ops = pl_transpose_spec_elements,
    .error_bound = pl_transpose_spec_bound,
    .elem_bound = pl_transpose_spec_bound,
    .check_sampled = NULL,
    .work = pl_transpose_spec_bytes,
    .ops = pl_transpose_spec_ops,
    .bytes = pl_transpose_spec_bytes,
    .bytes_written = pl_transpose_spec_bytes_written,
    .call_user = pl_transpose_call_user,
};
