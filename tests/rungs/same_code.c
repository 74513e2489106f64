/* same_code.c: parlab's own rungs loaded as user rungs, for the benchmark's question "does a
 * user rung time like a built-in one?": each function runs the named built-in rung on the
 * arguments parlab passes (the CPU ones through the BLAS-like call, on the caller's host
 * arrays; the CUDA ones through pl_run_device on the stream parlab passes), so the table's
 * built-in row and this row run the same code, one in parlab's process, one in a worker.
 * Linked with libparlab; used by hand and by tests/test_cli_rungs_gpu.sh:
 *   parlab bench gemm --size 1024 --variant cuda-tuned --rung LIB:same_gemm_cuda_tuned
 *   parlab bench transpose --size 16384 --variant cpu-blocked --rung LIB:same_transpose_cpu_blocked */
#include "kernels/gemm/gemm.h"
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
    const pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta};
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
