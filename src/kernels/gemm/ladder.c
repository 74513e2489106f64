/* ladder.c: the GEMM ladder, in order. Read top to bottom, each rung is the one before plus
 * one idea; the peers at the end are the libraries a user could pick instead. This list is
 * what the registry, `parlab list` and `parlab bench --variant all` read. */
#include "kernels/ladder.h"
#include "kernels/gemm/gemm.h"

extern const pl_param_def pl_gemm_cpu_simd_params[1], pl_gemm_cpu_simd_blocked_params[2];
extern const pl_param_def pl_gemm_cpu_packed_params[4];
#ifdef PL_HAVE_CUDA
extern const pl_param_def pl_gemm_cuda_naive_params[1], pl_gemm_cuda_shared_params[1];
extern const pl_param_def pl_gemm_cuda_tuned_params[2], pl_gemm_cuda_tf32_params[2];
#endif

/* Device workspaces the top CUDA rungs may take (an upper estimate, checked against free
 * memory before they run): a 16-byte-pitch copy of B when its rows are not, split-K
 * partials when K is deep; cuda-tf32 also a K-major copy of B and a re-pitched A. */
static double tuned_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    double ws = p->ldb % 4 ? 4.0 * (double)p->K * (double)p->N : 0;
    if (p->K > 4 * (p->M > p->N ? p->M : p->N)) ws += 16.0 * 4.0 * (double)p->M * (double)p->N;
    return ws;
}

static double tf32_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return tuned_workspace(problem) + 4.0 * (double)p->N * (double)(p->K + 4) +
           (p->lda % 4 ? 4.0 * (double)p->M * (double)(p->K + 4) : 0);
}

static const pl_variant cpu_naive = {
    "cpu-naive", "triple loop, one dot product per output (B read down its columns)",
    PL_BACKEND_CPU, 0, 0, PL_PREC_FP32, NULL, 0, pl_gemm_cpu_naive, NULL};
static const pl_variant cpu_simd = {
    "cpu-simd", "broadcast one A element, FMA against 8/16 contiguous B elements (AVX2/AVX-512)",
    PL_BACKEND_CPU, 0, PL_REQ_AVX2, PL_PREC_FP32, pl_gemm_cpu_simd_params, 1, pl_gemm_cpu_simd, NULL};
static const pl_variant cpu_simd_blocked = {
    "cpu-simd-blocked", "the same inside i/j/k cache blocks, so B tiles are reused from cache",
    PL_BACKEND_CPU, 0, PL_REQ_AVX2, PL_PREC_FP32, pl_gemm_cpu_simd_blocked_params, 2,
    pl_gemm_cpu_simd_blocked, NULL};
static const pl_variant cpu_packed = {
    "cpu-packed", "BLIS-style: A and B packed into cache-sized panels feed a register-tile "
    "micro-kernel (AVX-512 12x32 / AVX2 6x16), threads over the macro-loops",
    PL_BACKEND_CPU, 0, PL_REQ_AVX2, PL_PREC_FP32, pl_gemm_cpu_packed_params, 4,
    pl_gemm_cpu_packed, NULL};
static const pl_variant cuda_naive = {
    "cuda-naive", "one thread per output, everything from global memory",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_FP32, PL_CUDA_PARAMS(pl_gemm_cuda_naive_params, 1),
    PL_CUDA_FN(pl_gemm_cuda_naive), NULL};
static const pl_variant cuda_shared = {
    "cuda-shared", "A and B tiles staged in shared memory, one output per thread",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_FP32, PL_CUDA_PARAMS(pl_gemm_cuda_shared_params, 1),
    PL_CUDA_FN(pl_gemm_cuda_shared), NULL};
static const pl_variant cuda_tuned = {
    "cuda-tuned", "register tiles per thread, 128-bit loads, cp.async multi-stage pipeline, "
    "warp tiling; tile config chosen per shape, split-K for deep K",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_FP32, PL_CUDA_PARAMS(pl_gemm_cuda_tuned_params, 2),
    PL_CUDA_FN(pl_gemm_cuda_tuned), tuned_workspace};
static const pl_variant cuda_tf32 = {
    "cuda-tf32", "tensor cores in TF32, FP32 accumulate: wgmma from shared memory on Hopper "
    "(sm_90a), mma.sync m16n8k8 elsewhere",
    PL_BACKEND_CUDA, 0, PL_REQ_CUDA, PL_PREC_TF32, PL_CUDA_PARAMS(pl_gemm_cuda_tf32_params, 2),
    PL_CUDA_FN(pl_gemm_cuda_tf32), tf32_workspace};
static const pl_variant peer_openblas = {
    "peer-openblas", "OpenBLAS cblas_sgemm (the CPU peer)",
    PL_BACKEND_CPU, 1, PL_REQ_OPENBLAS, PL_PREC_FP32, NULL, 0, PL_OPENBLAS_FN(pl_gemm_peer_openblas), NULL};
static const pl_variant peer_openblas_skx = {
    "peer-openblas-skx", "OpenBLAS cblas_sgemm with OPENBLAS_CORETYPE=SkylakeX (its AVX-512 kernels)",
    PL_BACKEND_CPU, 1, PL_REQ_OPENBLAS | PL_REQ_AVX512, PL_PREC_FP32, NULL, 0,
    PL_OPENBLAS_FN(pl_gemm_peer_openblas_skx), NULL};
static const pl_variant peer_cublas = {
    "peer-cublas", "cuBLAS cublasSgemm, FP32 pedantic math, no tensor cores (the GPU peer)",
    PL_BACKEND_CUDA, 1, PL_REQ_CUBLAS, PL_PREC_FP32, NULL, 0, PL_CUDA_FN(pl_gemm_peer_cublas), NULL};
static const pl_variant peer_cublas_tf32 = {
    "peer-cublas-tf32", "cuBLAS cublasSgemm, TF32 tensor-op math (the tensor-core peer)",
    PL_BACKEND_CUDA, 1, PL_REQ_CUBLAS, PL_PREC_TF32, NULL, 0, PL_CUDA_FN(pl_gemm_peer_cublas_tf32), NULL};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_simd, &cpu_simd_blocked, &cpu_packed,
    &cuda_naive, &cuda_shared, &cuda_tuned, &cuda_tf32,
    &peer_openblas, &peer_openblas_skx, &peer_cublas, &peer_cublas_tf32,
};

static const pl_named_size named_sizes[] = {{"small", "256"}, {"medium", "1024"}, {"large", "4096"}};

const pl_kernel pl_gemm_kernel = {
    .name = "gemm",
    .summary = "C = alpha*A*B + beta*C, row-major FP32, any M, N, K and leading dimensions",
    .size_help = "N (square), MxNxK, or small|medium|large (256, 1024, 4096)",
    .named_sizes = named_sizes,
    .n_named_sizes = 3,
    .unit = PL_UNIT_FLOP,
    .ceiling = PL_CEIL_ROOFLINE,
    .problem_params = pl_gemm_problem_params,
    .n_problem_params = 3,
    .ladder = ladder,
    .n_variants = (int)(sizeof ladder / sizeof ladder[0]),
    .problem_size = sizeof(pl_gemm_problem),
    .make_problem = pl_gemm_spec_make_problem,
    .describe = pl_gemm_spec_describe,
    .operands = pl_gemm_spec_operands,
    .fill = pl_gemm_spec_fill,
    .reference = pl_gemm_spec_reference,
    .reference_ops = pl_gemm_spec_reference_ops,
    .error_bound = pl_gemm_spec_error_bound,
    .elem_bound = pl_gemm_spec_elem_bound,
    .check_sampled = pl_gemm_spec_check_sampled,
    .work = pl_gemm_spec_flops,
    .ops = pl_gemm_spec_flops,
    .bytes = pl_gemm_spec_bytes,
    .bytes_written = pl_gemm_spec_bytes_written,
};
