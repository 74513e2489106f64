/* api.c: pl_sgemv, the BLAS-like call: it checks the arguments, picks the best rung the
 * context can run (or the one named), and hands the host arrays to the harness
 * (pl_run_host), which moves them to the device and back for a CUDA context. */
#include "core/core.h"
#include "kernels/gemv/gemv.h"
#include "parlab_rung.h"

pl_status pl_sgemv(pl_ctx *ctx, char trans, int64_t M, int64_t N, float alpha, const float *A, int64_t lda,
                   const float *x, float beta, float *y)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemv: NULL context");
    const char *best = pl_best_variant(ctx, &pl_gemv_kernel, NULL);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_sgemv: no GEMV variant can run in this context");
    return pl_sgemv_variant(ctx, best, NULL, trans, M, N, alpha, A, lda, x, beta, y);
}

pl_status pl_sgemv_variant(pl_ctx *ctx, const char *variant, const int64_t *params, char trans, int64_t M,
                           int64_t N, float alpha, const float *A, int64_t lda, const float *x, float beta, float *y)
{
    int t = trans == 'n' || trans == 'N' ? 0 : trans == 't' || trans == 'T' ? 1 : -1;
    if (t < 0) return pl_fail(PL_ERR_ARG, "pl_sgemv: trans = '%c' (legal: 'n' or 't')", trans);
    pl_gemv_problem p = {M, N, lda, t, alpha, beta};
    return pl_gemv_variant_problem(ctx, variant, params, &p, A, x, y);
}

pl_status pl_gemv_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_gemv_problem *p,
                                  const float *A, const float *x, float *y)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemv: NULL context");
    const pl_variant *v = pl_variant_find(&pl_gemv_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "gemv: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_gemv_check(p);
    if (s != PL_OK) return s;
    void *host[3] = {(void *)A, (void *)x, y};
    return pl_run_host(ctx, &pl_gemv_kernel, v, params, p, host);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_sgemv's arguments. */
pl_status pl_gemv_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_gemv_problem *p = a->problem;
    const float *A = a->data[0], *x = a->data[1];
    float *y = a->data[2];
    const char trans = p->trans ? 't' : 'n';
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_gemv_cuda)fn)(trans, p->M, p->N, p->alpha, A, p->lda, x, p->beta, y,
                                                           (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_gemv)fn)(trans, p->M, p->N, p->alpha, A, p->lda, x, p->beta, y));
}
