/* api.c: pl_sgemm, the BLAS-like call: it checks the arguments, picks the best rung the
 * context can run (or the one named), and hands the host arrays to the harness
 * (pl_run_host), which moves them to the device and back for a CUDA context. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"
#include "parlab_rung.h"

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
    pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta, PL_F32};
    return pl_gemm_variant_problem(ctx, variant, params, &p, A, B, C);
}

pl_status pl_gemm_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_gemm_problem *p,
                                  const void *A, const void *B, float *C)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL context");
    if (!variant && !(variant = pl_best_variant(ctx, &pl_gemm_kernel, p)))
        return pl_fail(PL_ERR_UNSUPPORTED, "gemm: no rung of this context takes dtype=%s",
                       p->dtype == PL_BF16 ? "bf16" : "f32");
    const pl_variant *v = pl_variant_find(&pl_gemm_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "gemm: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_gemm_check(p);
    if (s != PL_OK) return s;
    void *host[3] = {(void *)A, (void *)B, C};
    return pl_run_host(ctx, &pl_gemm_kernel, v, params, p, host);
}

pl_status pl_gemm_check_shapes(const char *a_name, const int64_t *a, const char *b_name, const int64_t *b,
                               const char *c0_name, const int64_t *c0)
{
    if (b[0] != a[1])
        return pl_fail(PL_ERR_ARG, "shapes do not multiply: %s is %lldx%lld, %s is %lldx%lld (A's columns must equal "
                       "B's rows)", a_name, (long long)a[0], (long long)a[1], b_name, (long long)b[0], (long long)b[1]);
    if (c0 && (c0[0] != a[0] || c0[1] != b[1]))
        return pl_fail(PL_ERR_ARG, "%s is %lldx%lld; C0 must be M x N = %lldx%lld", c0_name, (long long)c0[0],
                       (long long)c0[1], (long long)a[0], (long long)b[1]);
    return PL_OK;
}

/* A user's rung (include/parlab_rung.h): the problem as pl_sgemm's arguments. */
pl_status pl_gemm_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_gemm_problem *p = a->problem;
    const float *A = a->data[0], *B = a->data[1];
    float *C = a->data[2];
    if (pl_rung_on_device(a))
        return pl_rung_returned(a, ((pl_rung_gemm_cuda)fn)(p->M, p->N, p->K, p->alpha, A, p->lda, B, p->ldb, p->beta,
                                                           C, p->ldc, (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_gemm)fn)(p->M, p->N, p->K, p->alpha, A, p->lda, B, p->ldb, p->beta, C, p->ldc));
}
