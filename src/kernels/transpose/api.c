/* api.c: pl_stranspose, the BLAS-like call: it checks the arguments, picks the best rung the
 * context can run (or the one named), and hands the host arrays to the harness (pl_run_host),
 * which moves them to the device and back for a CUDA context. */
#include "core/core.h"
#include "kernels/transpose/transpose.h"
#include "parlab_rung.h"

pl_status pl_stranspose_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M, int64_t N,
                                const float *A, int64_t lda, float *B, int64_t ldb)
{
    pl_transpose_problem p = {M, N, lda, ldb};
    return pl_transpose_variant_problem(ctx, variant, params, &p, A, B);
}

pl_status pl_transpose_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                       const pl_transpose_problem *p, const float *A, float *B)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_stranspose: NULL context");
    const pl_variant *v = pl_variant_find(&pl_transpose_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "transpose: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_transpose_check(p);
    if (s != PL_OK) return s;
    if (!A || !B) return pl_fail(PL_ERR_ARG, "pl_stranspose: NULL array");
    void *host[2] = {(void *)A, B};
    return pl_run_host(ctx, &pl_transpose_kernel, v, params, p, host);
}

pl_status pl_stranspose(pl_ctx *ctx, int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_stranspose: NULL context");
    const char *best = pl_best_variant(ctx, &pl_transpose_kernel, NULL);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_stranspose: no transpose variant can run in this context");
    return pl_stranspose_variant(ctx, best, NULL, M, N, A, lda, B, ldb);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_stranspose's arguments. */
pl_status pl_transpose_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_transpose_problem *p = a->problem;
    const float *A = a->data[0];
    float *B = a->data[1];
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_transpose_cuda)fn)(p->M, p->N, A, p->lda, B, p->ldb,
                                                                (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_transpose)fn)(p->M, p->N, A, p->lda, B, p->ldb));
}
