/* ladder.c: the GEMM ladder, in order. Read top to bottom, each rung is the one before plus
 * one idea; the peers at the end are the libraries a user could pick instead. This list is
 * what the registry, `parlab list` and `parlab bench --variant all` read. */
#include "kernels/ladder.h"
#include "kernels/gemm/gemm.h"

/* Device workspaces the top CUDA rungs may take (an upper estimate, checked against free
 * memory before they run): split-K partials when K is deep; cuda-tuned also a 16-byte-pitch
 * copy of B when its rows are not; the copy-engine rung (and cuda-tf32, which may pick it) a
 * K-major copy of B and a re-pitched A. */
static double splitk_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return p->K > 4 * (p->M > p->N ? p->M : p->N) ? 16.0 * 4.0 * (double)p->M * (double)p->N : 0;
}

static double tuned_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return (p->ldb % 4 ? 4.0 * (double)p->K * (double)p->N : 0) + splitk_workspace(problem);
}

static double wgmma_tma_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return splitk_workspace(problem) + 4.0 * (double)p->N * (double)(p->K + 4) +
           (p->lda % 4 ? 4.0 * (double)p->M * (double)(p->K + 4) : 0);
}

/* The BF16 rungs: split-K partials, and a re-pitched copy of A or B (2 bytes an element) whose
 * rows are not 16 bytes apart (cp.async and the copy engine need that). */
static double bf16_workspace(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return splitk_workspace(problem) + (p->lda % 8 ? 2.0 * (double)p->M * (double)p->K : 0) +
           (p->ldb % 8 ? 2.0 * (double)p->K * (double)p->N : 0);
}

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "triple loop, one dot product per output (B read down its columns)",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_gemm_cpu_naive,
    .best_rank = 3};
static const pl_variant cpu_naive_bf16 = {
    .name = "cpu-naive-bf16", .idea = "the triple loop on bfloat16 A and B, widened to float as read (the BF16 "
    "contract without a GPU)",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_BF16, .run = pl_gemm_cpu_naive_bf16,
    .best_rank = 4};
static const pl_variant cpu_simd = {
    .name = "cpu-simd", .idea = "broadcast one A element, FMA against 8/16 contiguous B elements (AVX2/AVX-512)",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_gemm_cpu_simd_params, .n_params = PL_GEMM_CPU_SIMD_N_PARAMS, .run = pl_gemm_cpu_simd};
static const pl_variant cpu_simd_blocked = {
    .name = "cpu-simd-blocked", .idea = "the same inside i/j/k cache blocks, so B tiles are reused from cache",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_gemm_cpu_simd_blocked_params, .n_params = PL_GEMM_CPU_SIMD_BLOCKED_N_PARAMS,
    .run = pl_gemm_cpu_simd_blocked,
    .best_rank = 2};
static const pl_variant cpu_packed = {
    .name = "cpu-packed", .idea = "BLIS-style: A and B packed into cache-sized panels feed a register-tile "
    "micro-kernel (AVX-512 12x32 / AVX2 6x16), threads over the macro-loops",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_gemm_cpu_packed_params, .n_params = PL_GEMM_CPU_PACKED_N_PARAMS, .run = pl_gemm_cpu_packed,
    .best_rank = 1};
static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "one thread per output, everything from global memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_gemm_cuda_naive_params, PL_GEMM_CUDA_NAIVE_N_PARAMS), .run = PL_CUDA_FN(pl_gemm_cuda_naive),
    .best_rank = 3};
static const pl_variant cuda_shared = {
    .name = "cuda-shared", .idea = "A and B tiles staged in shared memory, one output per thread",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_gemm_cuda_shared_params, PL_GEMM_CUDA_SHARED_N_PARAMS), .run = PL_CUDA_FN(pl_gemm_cuda_shared),
    .best_rank = 2};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "register tiles per thread, 128-bit loads, cp.async multi-stage pipeline, "
    "warp tiling; tile config chosen per shape, split-K for deep K",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_gemm_cuda_tuned_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_tuned), .workspace_bytes = tuned_workspace,
    .best_rank = 1};
static const pl_variant cuda_mma_tf32 = {
    .name = "cuda-mma-tf32", .idea = "tensor cores in TF32, FP32 accumulate: each warp's mma.sync m16n8k8 on "
    "fragments it loads from shared memory (ldmatrix), rounded to TF32",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_TF32,
    PL_CUDA_PARAMS(pl_gemm_cuda_mma_tf32_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_mma_tf32), .workspace_bytes = splitk_workspace};
static const pl_variant cuda_wgmma_tf32 = {
    .name = "cuda-wgmma-tf32", .idea = "Hopper wgmma: a warpgroup's m64nNk8 reads A from a swizzled "
    "shared-memory tile; tiles staged by cp.async from every thread",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_SM90A, .precision = PL_PREC_TF32,
    PL_CUDA_PARAMS(pl_gemm_cuda_wgmma_tf32_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_wgmma_tf32), .workspace_bytes = splitk_workspace};
static const pl_variant cuda_wgmma_tma_tf32 = {
    .name = "cuda-wgmma-tma-tf32", .idea = "wgmma fed by the copy engine: B transposed K-major first, a "
    "producer thread's TMA copies fill a ring of stages on mbarriers, consumer warpgroups only multiply",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_SM90A, .precision = PL_PREC_TF32,
    PL_CUDA_PARAMS(pl_gemm_cuda_wgmma_tma_tf32_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_wgmma_tma_tf32), .workspace_bytes = wgmma_tma_workspace};
static const pl_variant cuda_wgmma_persistent_tf32 = {
    .name = "cuda-wgmma-persistent-tf32", .idea = "the copy-engine kernel made persistent: a block per SM walks "
    "the tiles in L2-friendly groups, its producer running on into the next tile while the consumers store; "
    "config 2 passes B^T through registers from B as it lies: no transpose",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_SM90A, .precision = PL_PREC_TF32,
    PL_CUDA_PARAMS(pl_gemm_cuda_wgmma_persistent_tf32_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_wgmma_persistent_tf32), .workspace_bytes = wgmma_tma_workspace};
static const pl_variant cuda_tf32 = {
    .name = "cuda-tf32", .idea = "the best tensor-core rung for this GPU and shape: the tuning table's pick "
    "among the four above (what to call for TF32)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_TF32,
    .run = PL_CUDA_FN(pl_gemm_cuda_tf32), .workspace_bytes = wgmma_tma_workspace};
static const pl_variant cuda_mma_bf16 = {
    .name = "cuda-mma-bf16", .idea = "tensor cores in BF16: each warp's mma.sync m16n8k16 on fragments "
    "it loads with ldmatrix (B with .trans)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_BF16,
    PL_CUDA_PARAMS(pl_gemm_cuda_mma_bf16_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_mma_bf16), .workspace_bytes = bf16_workspace, .best_rank = 5};
static const pl_variant cuda_wgmma_bf16 = {
    .name = "cuda-wgmma-bf16", .idea = "Hopper wgmma in BF16: a producer warpgroup's TMA copies feed two consumer "
    "warpgroups, B read N-major by the transposing descriptor, persistent blocks",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_SM90A, .precision = PL_PREC_BF16,
    PL_CUDA_PARAMS(pl_gemm_cuda_wgmma_bf16_params, PL_GEMM_CUDA_N_PARAMS),
    .run = PL_CUDA_FN(pl_gemm_cuda_wgmma_bf16), .workspace_bytes = bf16_workspace, .best_rank = 4};
static const pl_variant peer_openblas = {
    .name = "peer-openblas", .idea = "OpenBLAS cblas_sgemm (the CPU peer)",
    .backend = PL_BACKEND_CPU, .is_peer = 1, .requires = PL_REQ_OPENBLAS, .precision = PL_PREC_FP32,
    .run = PL_OPENBLAS_FN(pl_gemm_peer_openblas)};
static const pl_variant peer_openblas_skx = {
    .name = "peer-openblas-skx", .idea = "OpenBLAS cblas_sgemm with OPENBLAS_CORETYPE=SkylakeX (its AVX-512 kernels)",
    .backend = PL_BACKEND_CPU, .is_peer = 1, .requires = PL_REQ_OPENBLAS | PL_REQ_AVX512, .precision = PL_PREC_FP32,
    .run = PL_OPENBLAS_FN(pl_gemm_peer_openblas_skx)};
static const pl_variant peer_cublas = {
    .name = "peer-cublas", .idea = "cuBLAS cublasSgemm, FP32 pedantic math, no tensor cores (the GPU peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_FP32,
    .run = PL_CUDA_FN(pl_gemm_peer_cublas)};
static const pl_variant peer_cublas_tf32 = {
    .name = "peer-cublas-tf32", .idea = "cuBLAS cublasSgemm, TF32 tensor-op math (the tensor-core peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_TF32,
    .run = PL_CUDA_FN(pl_gemm_peer_cublas_tf32)};

static const pl_variant peer_cublas_bf16 = {
    .name = "peer-cublas-bf16", .idea = "cuBLAS cublasGemmEx, bfloat16 A and B, FP32 compute and C, default "
    "tensor-op algorithm (the BF16 peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUBLAS, .precision = PL_PREC_BF16,
    .run = PL_CUDA_FN(pl_gemm_peer_cublas_bf16)};

/* best_rank orders each backend's rungs in one list; pl_best_variant takes the first that takes
 * the problem, so the BF16 rungs rank after the FP32 ones and are the pick for bfloat16 alone. */
static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_naive_bf16, &cpu_simd, &cpu_simd_blocked, &cpu_packed,
    &cuda_naive, &cuda_shared, &cuda_tuned, &cuda_mma_tf32, &cuda_wgmma_tf32, &cuda_wgmma_tma_tf32, &cuda_wgmma_persistent_tf32,
    &cuda_tf32, &cuda_mma_bf16, &cuda_wgmma_bf16,
    &peer_openblas, &peer_openblas_skx, &peer_cublas, &peer_cublas_tf32, &peer_cublas_bf16,
};

static const pl_named_size named_sizes[] = {{"small", "256"}, {"medium", "1024"}, {"large", "4096"}};
/* `parlab check`: 1x1x1, primes, sizes no tile divides, thin shapes, odd pitches (a row of an
 * odd width starts off a 16-byte boundary; pad=1 on a width of 16 or 64 does the same with
 * aligned widths), and alpha/beta: beta 0 (C write-only), 1, negative, alpha 0. The same kinds
 * again with dtype=bf16 (for the BF16 rungs; the others do not take them): a bfloat16 row of
 * an odd width or pad starts off a 4-byte boundary, an even pad of 2 keeps 4 but not 16. */
static const pl_check_case check_cases[] = {
    {"1", ""},           {"2x3x5", ""},        {"17x31x33", ""},         {"31x33x1", ""},
    {"1x129x7", ""},     {"129x1x7", ""},      {"65x63x127", ""},        {"33x64x16", "pad=1"},
    {"64x16x64", "pad=3"}, {"127x129x65", "pad=1"}, {"17x33x31", "alpha=-0.5"},
    {"31x17x33", "beta=1"}, {"33x31x17", "alpha=0.25,beta=-2"}, {"63x65x31", "alpha=0,beta=0.5,pad=1"},
    {"128x128x128", "alpha=1.5,beta=0.75"},
    {"1", "dtype=bf16"},  {"2x3x5", "dtype=bf16"}, {"17x31x33", "dtype=bf16"}, {"1x129x7", "dtype=bf16"},
    {"129x1x7", "dtype=bf16"}, {"65x63x127", "dtype=bf16,pad=1"}, {"64x16x64", "dtype=bf16,pad=2"},
    {"127x129x65", "dtype=bf16,pad=3"}, {"17x33x31", "dtype=bf16,alpha=-0.5"},
    {"31x17x33", "dtype=bf16,beta=1"}, {"63x65x31", "dtype=bf16,alpha=0,beta=0.5,pad=1"},
    {"128x128x128", "dtype=bf16,alpha=1.5,beta=0.75"},
};

const pl_kernel pl_gemm_kernel = {
    .name = "gemm",
    .summary = "C = alpha*A*B + beta*C, row-major FP32, any M, N, K and leading dimensions",
    .size_help = "N (square), MxNxK, or small|medium|large (256, 1024, 4096)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .unit = PL_UNIT_FLOP,
    .ceiling = PL_CEIL_ROOFLINE,
    .problem_params = pl_gemm_problem_params,
    .n_problem_params = PL_GEMM_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
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
    .call_user = pl_gemm_call_user,
    .takes = pl_gemm_spec_takes,
};
