/* ladder.c: the transpose ladder, in order. Each rung is the one before plus one idea; the
 * peers at the end are the libraries a user could pick instead. */
#include "kernels/ladder.h"
#include "kernels/transpose/transpose.h"

extern const pl_param_def pl_transpose_cpu_blocked_params[3];
#ifdef PL_HAVE_CUDA
extern const pl_param_def pl_transpose_cuda_naive_params[1], pl_transpose_cuda_shared_params[1];
extern const pl_param_def pl_transpose_cuda_tuned_params[2];
#endif

static const pl_variant cpu_naive = {
    "cpu-naive", "two loops: A read along its rows, B written down its columns (strided stores)",
    PL_BACKEND_CPU, 0, 0, PL_PREC_EXACT, NULL, 0, pl_transpose_cpu_naive, NULL};
static const pl_variant cpu_blocked = {
    "cpu-blocked", "cache tiles over threads; 8x8 (AVX2) / 16x16 (AVX-512) blocks transposed in "
    "registers, whole vectors read and written; streaming stores for large B",
    PL_BACKEND_CPU, 0, PL_REQ_AVX2, PL_PREC_EXACT, pl_transpose_cpu_blocked_params, 3,
    pl_transpose_cpu_blocked, NULL};
static const pl_variant cuda_naive_read = {
    "cuda-naive-read", "one element per thread, warps read rows of A (coalesced) and write "
    "columns of B (one 32-byte sector per element)",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_transpose_cuda_naive_params, 1),
    PL_CUDA_FN(pl_transpose_cuda_naive_read), NULL};
static const pl_variant cuda_naive_write = {
    "cuda-naive-write", "one element per thread, warps write rows of B (coalesced) and read "
    "columns of A (strided loads, helped by L1/L2)",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_transpose_cuda_naive_params, 1),
    PL_CUDA_FN(pl_transpose_cuda_naive_write), NULL};
static const pl_variant cuda_shared = {
    "cuda-shared", "a tile through shared memory: coalesced reads and writes, but the column "
    "reads of the tile hit one bank (32-way conflicts at block=32)",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_transpose_cuda_shared_params, 1),
    PL_CUDA_FN(pl_transpose_cuda_shared), NULL};
static const pl_variant cuda_shared_padded = {
    "cuda-shared-padded", "the same tile with one padding column: a column of the tile spans "
    "all 32 banks, no conflicts",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_transpose_cuda_shared_params, 1),
    PL_CUDA_FN(pl_transpose_cuda_shared_padded), NULL};
static const pl_variant cuda_tuned = {
    "cuda-tuned", "64x64 padded tiles, 32xR threads with several elements each; 128-bit loads "
    "and stores where rows are 16-byte aligned",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_EXACT, PL_CUDA_PARAMS(pl_transpose_cuda_tuned_params, 2),
    PL_CUDA_FN(pl_transpose_cuda_tuned), NULL};
static const pl_variant peer_openblas = {
    "peer-openblas", "OpenBLAS cblas_somatcopy, row-major, transposed (the CPU peer)",
    PL_BACKEND_CPU, 1, PL_REQ_OPENBLAS, PL_PREC_EXACT, NULL, 0, PL_OPENBLAS_FN(pl_transpose_peer_openblas), NULL};
static const pl_variant peer_cublas = {
    "peer-cublas", "cuBLAS cublasSgeam with the first operand transposed, beta = 0 (the GPU peer)",
    PL_BACKEND_CUDA, 1, PL_REQ_CUBLAS, PL_PREC_EXACT, NULL, 0, PL_CUDA_FN(pl_transpose_peer_cublas), NULL};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_blocked,
    &cuda_naive_read, &cuda_naive_write, &cuda_shared, &cuda_shared_padded, &cuda_tuned,
    &peer_openblas, &peer_cublas,
};

static const pl_named_size named_sizes[] = {{"small", "1024"}, {"medium", "4096"}, {"large", "16384"}};

const pl_kernel pl_transpose_kernel = {
    .name = "transpose",
    .summary = "B = A^T out of place, row-major FP32, any M x N and leading dimensions",
    .size_help = "N (square), MxN (A is M x N), or small|medium|large (1024, 4096, 16384)",
    .named_sizes = named_sizes,
    .n_named_sizes = 3,
    .unit = PL_UNIT_BYTE,
    .ceiling = PL_CEIL_MEMORY,
    .problem_params = pl_transpose_problem_params,
    .n_problem_params = 1,
    .ladder = ladder,
    .n_variants = (int)(sizeof ladder / sizeof ladder[0]),
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
};
