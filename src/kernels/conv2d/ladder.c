/* ladder.c: the conv2d ladder, in order. Each rung is the one before plus one idea; the peer
 * at the end is the library a user could pick instead. Every rung computes in FP32 (an int32
 * problem is checked for equality by the spec's bounds; the ceiling is then still the FP32
 * FMA peak, see docs/conv2d.md). */
#include "kernels/ladder.h"
#include "kernels/conv2d/conv2d.h"

static const pl_variant cpu_naive = {
    .name = "cpu-naive", .idea = "four loops, one output at a time, one thread: the border rule looked up per tap",
    .backend = PL_BACKEND_CPU, .precision = PL_PREC_FP32, .run = pl_conv2d_cpu_naive,
    .best_rank = 2};
static const pl_variant cpu_blocked = {
    .name = "cpu-blocked", .idea = "output blocks, the filter loops outside and unrolled, SIMD across columns "
    "(AVX2/AVX-512), threads over row bands; borders built once per band into a padded buffer",
    .backend = PL_BACKEND_CPU, .requires = PL_REQ_AVX2, .precision = PL_PREC_FP32,
    .params = pl_conv2d_cpu_blocked_params, .n_params = PL_CONV2D_CPU_BLOCKED_N_PARAMS, .run = pl_conv2d_cpu_blocked,
    .best_rank = 1};
static const pl_variant cuda_naive = {
    .name = "cuda-naive", .idea = "one thread per output, image and filter from global memory; block x block threads",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_conv2d_cuda_block_params, PL_CONV2D_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_conv2d_cuda_naive)};
static const pl_variant cuda_shared_filter = {
    .name = "cuda-shared-filter", .idea = "the filter staged in shared memory by each block",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_conv2d_cuda_block_params, PL_CONV2D_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_conv2d_cuda_shared_filter)};
static const pl_variant cuda_constant_filter = {
    .name = "cuda-constant-filter", .idea = "the filter in constant memory (one broadcast read per tap for a warp)",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_conv2d_cuda_block_params, PL_CONV2D_CUDA_BLOCK_N_PARAMS),
    .run = PL_CUDA_FN(pl_conv2d_cuda_constant_filter)};
static const pl_variant cuda_tiled = {
    .name = "cuda-tiled", .idea = "an input tile plus its halo in shared memory: each input read once from global "
    "memory",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_conv2d_cuda_tiled_params, PL_CONV2D_CUDA_TILED_N_PARAMS),
    .run = PL_CUDA_FN(pl_conv2d_cuda_tiled),
    .best_rank = 2};
static const pl_variant cuda_tuned = {
    .name = "cuda-tuned", .idea = "several outputs per thread in registers, 128-bit loads, a separable path for a "
    "rank-1 filter",
    .backend = PL_BACKEND_CUDA, .requires = PL_REQ_CUDA, .precision = PL_PREC_FP32,
    PL_CUDA_PARAMS(pl_conv2d_cuda_tuned_params, PL_CONV2D_CUDA_TUNED_N_PARAMS),
    .run = PL_CUDA_FN(pl_conv2d_cuda_tuned),
    .best_rank = 1};
static const pl_variant peer_cudnn = {
    .name = "peer-cudnn", .idea = "cuDNN cudnnConvolutionForward, one channel, the same data type (the GPU peer)",
    .backend = PL_BACKEND_CUDA, .is_peer = 1, .requires = PL_REQ_CUDNN, .precision = PL_PREC_FP32,
    .run = PL_CUDNN_FN(pl_conv2d_peer_cudnn)};

static const pl_variant *const ladder[] = {
    &cpu_naive, &cpu_blocked, &cuda_naive, &cuda_shared_filter, &cuda_constant_filter, &cuda_tiled, &cuda_tuned,
    &peer_cudnn,
};

static const pl_named_size named_sizes[] = {{"small", "1000"}, {"medium", "4000"}, {"large", "10000"}};
/* `parlab check`: mode x border x flip x dtype (valid leaves the border unused), every K from 1
 * to 15, images of 1 pixel, a row or a column, primes and sizes no tile divides, odd pitches. */
static const pl_check_case check_cases[] = {
    {"17x31", "mode=valid"},                          {"17x31", "mode=valid,flip=1"},
    {"17x31", "mode=valid,dtype=i32"},                {"17x31", "mode=valid,flip=1,dtype=i32"},
    {"31x17", "mode=same,border=zero"},               {"31x17", "mode=same,border=zero,flip=1"},
    {"31x17", "mode=same,border=clamp"},              {"31x17", "mode=same,border=clamp,flip=1"},
    {"31x17", "mode=same,border=reflect"},            {"31x17", "mode=same,border=reflect,flip=1"},
    {"33x65", "mode=same,border=zero,dtype=i32"},     {"33x65", "mode=same,border=zero,flip=1,dtype=i32"},
    {"33x65", "mode=same,border=clamp,dtype=i32"},    {"33x65", "mode=same,border=clamp,flip=1,dtype=i32"},
    {"33x65", "mode=same,border=reflect,dtype=i32"},  {"33x65", "mode=same,border=reflect,flip=1,dtype=i32"},
    {"1", "k=1"},                                     {"1", "k=1,mode=same"},
    {"1x17", "k=1,dtype=i32"},                        {"17x1", "k=1,mode=same,border=clamp"},
    {"5x9", "k=5,mode=valid"},                        {"7x7", "k=7,mode=valid,dtype=i32,flip=1"},
    {"37x41", "k=9,mode=same,border=reflect"},        {"41x37", "k=11,mode=same,border=clamp,flip=1"},
    {"63x65", "k=13,mode=valid,pad=1"},               {"65x63", "k=15,mode=same,border=zero,pad=3"},
    {"64x64", "k=5,mode=same,border=reflect,pad=1"},  {"129x127", "k=3,mode=same,border=clamp,dtype=i32,pad=1"},
};

const pl_kernel pl_conv2d_kernel = {
    .name = "conv2d",
    .summary = "out = image (*) filter: a K x K filter (K odd, 1..15) over an H x W image, f32 or i32, "
               "valid or same (zero|clamp|reflect borders)",
    .size_help = "N (square), HxW, or small|medium|large (1000, 4000, 10000)",
    .named_sizes = named_sizes,
    .n_named_sizes = PL_COUNT(named_sizes),
    .check_cases = check_cases,
    .n_check_cases = PL_COUNT(check_cases),
    .problem_params = pl_conv2d_problem_params,
    .n_problem_params = PL_CONV2D_PROBLEM_N_PARAMS,
    .ladder = ladder,
    .n_variants = PL_COUNT(ladder),
    .unit = PL_UNIT_FLOP,
    .ceiling = PL_CEIL_ROOFLINE,
    .problem_size = sizeof(pl_conv2d_problem),
    .make_problem = pl_conv2d_spec_make_problem,
    .destroy_problem = pl_conv2d_spec_destroy_problem,
    .describe = pl_conv2d_spec_describe,
    .operands = pl_conv2d_spec_operands,
    .fill = pl_conv2d_spec_fill,
    .reference = pl_conv2d_spec_reference,
    .reference_ops = pl_conv2d_spec_reference_ops,
    .error_bound = pl_conv2d_spec_error_bound,
    .elem_bound = pl_conv2d_spec_elem_bound,
    .check_sampled = pl_conv2d_spec_check_sampled,
    .work = pl_conv2d_spec_ops,
    .ops = pl_conv2d_spec_ops,
    .bytes = pl_conv2d_spec_bytes,
    .bytes_written = pl_conv2d_spec_bytes_written,
    .call_user = pl_conv2d_call_user,
};
