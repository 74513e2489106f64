/* same_code.c: parlab's own rungs loaded as user rungs, for the benchmark's question "does a
 * user rung time like a built-in one?": each function runs the named built-in rung on the
 * arguments parlab passes (the CPU ones through the BLAS-like call, on the caller's host
 * arrays; the CUDA ones through pl_run_device on the stream parlab passes), so the table's
 * built-in row and this row run the same code, one in parlab's process, one in a worker.
 * The `best_*` functions run the BLAS-like call of every kernel on the CPU: through them
 * tests/test_cli_rungs.sh checks each kernel's call_user (the problem as its call's arguments:
 * a wrong argument is a wrong answer); the `best_*_cuda` ones do the same on the GPU through
 * pl_run_device (tests/test_cli_rungs_gpu.sh).
 * Linked with libparlab; used by hand and by the tests:
 *   parlab bench gemm --size 1024 --variant cuda-tuned --rung LIB:same_gemm_cuda_tuned
 *   parlab bench transpose --size 16384 --variant cpu-blocked --rung LIB:same_transpose_cpu_blocked */
#include "kernels/conv2d/conv2d.h"
#include "kernels/entropy/entropy.h"
#include "kernels/gemm/gemm.h"
#include "kernels/gemv/gemv.h"
#include "kernels/life/life.h"
#include "kernels/reduce/reduce.h"
#include "kernels/transpose/transpose.h"
#include "parlab_rung.h"

static pl_ctx *cpu_ctx, *gpu_ctx;

PL_RUNG_DECLARE(same_transpose_cpu_blocked, "transpose", "cpu", "exact");
int same_transpose_cpu_blocked(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    if (!cpu_ctx && pl_ctx_create(&cpu_ctx, PL_BACKEND_CPU, 0, 0) != PL_OK) return 1;
    return (int)pl_stranspose_variant(cpu_ctx, "cpu-blocked", NULL, M, N, A, lda, B, ldb);
}

PL_RUNG_DECLARE(same_gemm_cpu_packed, "gemm", "cpu", "fp32");
int same_gemm_cpu_packed(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                         int64_t ldb, float beta, float *C, int64_t ldc)
{
    if (!cpu_ctx && pl_ctx_create(&cpu_ctx, PL_BACKEND_CPU, 0, 0) != PL_OK) return 1;
    return (int)pl_sgemm_variant(cpu_ctx, "cpu-packed", NULL, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* A named CUDA rung of kernel k on device arrays, on the caller's stream. */
static int run_cuda(const char *kernel, const char *variant, const void *problem, void *const *dev,
                    pl_rung_stream stream)
{
    if (!gpu_ctx && pl_ctx_create(&gpu_ctx, PL_BACKEND_CUDA, 0, 0) != PL_OK) return 1;
    const pl_kernel *k = pl_kernel_find(kernel);
    return (int)pl_run_device(gpu_ctx, k, pl_variant_find(k, variant), NULL, problem, dev, stream);
}

PL_RUNG_DECLARE(same_gemm_cuda_tuned, "gemm", "cuda", "fp32");
int same_gemm_cuda_tuned(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                         int64_t ldb, float beta, float *C, int64_t ldc, pl_rung_stream stream)
{
    const pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta, PL_F32};
    void *dev[3] = {(void *)A, (void *)B, C};
    return run_cuda("gemm", "cuda-tuned", &p, dev, stream);
}

PL_RUNG_DECLARE(same_transpose_cuda_tuned, "transpose", "cuda", "exact");
int same_transpose_cuda_tuned(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                              pl_rung_stream stream)
{
    const pl_transpose_problem p = {M, N, lda, ldb};
    void *dev[2] = {(void *)A, B};
    return run_cuda("transpose", "cuda-tuned", &p, dev, stream);
}

/* ---- every kernel's best CPU rung, through its BLAS-like call */

static pl_ctx *cpu(void)
{
    if (!cpu_ctx) pl_ctx_create(&cpu_ctx, PL_BACKEND_CPU, 0, 0);
    return cpu_ctx;
}

int best_gemm(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B, int64_t ldb,
              float beta, float *C, int64_t ldc)
{
    return (int)pl_sgemm(cpu(), M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}
int best_gemv(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda, const float *x, float beta,
              float *y)
{
    return (int)pl_sgemv(cpu(), trans, M, N, alpha, A, lda, x, beta, y);
}
int best_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    return (int)pl_stranspose(cpu(), M, N, A, lda, B, ldb);
}
int best_reduce(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r)
{
    return (int)pl_sreduce(cpu(), (pl_reduce_op)op, axis, M, N, A, lda, r);
}
int best_dot(int64_t N, const float *x, const float *y, float *result) { return (int)pl_sdot(cpu(), N, x, y, result); }
int best_conv2d(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    return (int)pl_conv2d(cpu(), (pl_dtype)dtype, H, W, image, ld_img, K, filter, opts, out, ld_out);
}
int best_entropy(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins, int base2, float *out,
                 int64_t ld_out)
{
    return (int)pl_entropy(cpu(), H, W, values, ld, k, bins, base2, out, ld_out);
}
int best_life(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus)
{
    return (int)pl_life(cpu(), W, H, bits, gens, rule, torus);
}

/* ---- every kernel's cuda-naive-like rung on the GPU, on the caller's stream */

static const char *naive(const char *kernel)
{
    const pl_kernel *k = pl_kernel_find(kernel);
    for (int i = 0; i < k->n_variants; i++)
        if (k->ladder[i]->backend == PL_BACKEND_CUDA && !k->ladder[i]->is_peer) return k->ladder[i]->name;
    return "";
}

#define CUDA_RUNG(kernel) PL_RUNG_DECLARE(best_##kernel##_cuda, #kernel, "cuda", NULL)
CUDA_RUNG(gemm);
int best_gemm_cuda(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                   int64_t ldb, float beta, float *C, int64_t ldc, pl_rung_stream stream)
{
    const pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta, PL_F32};
    void *dev[3] = {(void *)A, (void *)B, C};
    return run_cuda("gemm", naive("gemm"), &p, dev, stream);
}
CUDA_RUNG(gemv);
int best_gemv_cuda(char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda, const float *x,
                   float beta, float *y, pl_rung_stream stream)
{
    const pl_gemv_problem p = {M, N, lda, trans == 't' || trans == 'T', alpha, beta};
    void *dev[3] = {(void *)A, (void *)x, y};
    return run_cuda("gemv", naive("gemv"), &p, dev, stream);
}
CUDA_RUNG(transpose);
int best_transpose_cuda(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb,
                        pl_rung_stream stream)
{
    const pl_transpose_problem p = {M, N, lda, ldb};
    void *dev[2] = {(void *)A, B};
    return run_cuda("transpose", naive("transpose"), &p, dev, stream);
}
CUDA_RUNG(reduce);
int best_reduce_cuda(int op, int axis, int64_t M, int64_t N, const float *A, int64_t lda, float *r,
                     pl_rung_stream stream)
{
    const pl_reduce_problem p = {M, N, lda, op, axis, lda - N};
    void *dev[2] = {(void *)A, r};
    return run_cuda("reduce", naive("reduce"), &p, dev, stream);
}
CUDA_RUNG(dot);
int best_dot_cuda(int64_t N, const float *x, const float *y, float *result, pl_rung_stream stream)
{
    const pl_dot_problem p = {N};
    void *dev[3] = {(void *)x, (void *)y, result};
    return run_cuda("dot", naive("dot"), &p, dev, stream);
}
CUDA_RUNG(conv2d);
int best_conv2d_cuda(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                     const pl_conv2d_opts *opts, void *out, int64_t ld_out, pl_rung_stream stream)
{
    const int same = opts->mode == PL_CONV2D_SAME;
    const pl_conv2d_problem p = {H, W, K, (pl_dtype)dtype, (int)opts->mode, (int)opts->border, opts->flip,
                                 same ? H : H - K + 1, same ? W : W - K + 1, ld_img, ld_out, NULL};
    void *dev[3] = {(void *)image, (void *)filter, out};
    return run_cuda("conv2d", naive("conv2d"), &p, dev, stream);
}
CUDA_RUNG(entropy);
int best_entropy_cuda(int64_t H, int64_t W, const uint8_t *values, int64_t ld, int k, int bins, int base2, float *out,
                      int64_t ld_out, pl_rung_stream stream)
{
    const pl_entropy_problem p = {H, W, k, bins, base2, ld, ld_out};
    void *dev[2] = {(void *)values, out};
    return run_cuda("entropy", naive("entropy"), &p, dev, stream);
}
CUDA_RUNG(life);
int best_life_cuda(int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus,
                   pl_rung_stream stream)
{
    pl_life_problem p = {W, H, gens, {0, 0}, torus ? PL_LIFE_TOPO_TORUS : PL_LIFE_TOPO_PLANE, 0.5};
    if (pl_life_rule_parse(rule, &p.rule) != PL_OK) return 2;
    void *dev[1] = {bits};
    return run_cuda("life", naive("life"), &p, dev, stream);
}
