/* api.c: pl_sgemm, the BLAS-like call: it checks the arguments, picks the best rung the
 * context can run (or the one named), and hands the host arrays to the harness
 * (pl_run_host), which moves them to the device and back for a CUDA context. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"

pl_status pl_sgemm(pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                   int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL context");
    const char *best = pl_best_variant(ctx, &pl_gemm_kernel, NULL);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_sgemm: no GEMM variant can run in this context");
    return pl_sgemm_variant(ctx, best, NULL, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

pl_status pl_sgemm_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M,
                           int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                           const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
    pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta};
    return pl_gemm_variant_problem(ctx, variant, params, &p, A, B, C);
}

pl_status pl_gemm_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_gemm_problem *p,
                                  const float *A, const float *B, float *C)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL context");
    const pl_variant *v = pl_variant_find(&pl_gemm_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "gemm: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_gemm_check(p);
    if (s != PL_OK) return s;
    void *host[3] = {(void *)A, (void *)B, C};
    return pl_run_host(ctx, &pl_gemm_kernel, v, params, p, host);
}
