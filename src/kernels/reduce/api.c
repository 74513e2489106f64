/* api.c: pl_sreduce and pl_sdot, the BLAS-like calls: check the arguments, pick the best rung
 * the context can run, and hand the host arrays to the harness (pl_run_host); the same on a
 * problem struct a caller built (the file tools), with the rung it names. */
#include "core/core.h"
#include "kernels/reduce/reduce.h"
#include "parlab_rung.h"

pl_status pl_sreduce(pl_ctx *ctx, pl_reduce_op op, int axis, int64_t M, int64_t N, const float *A, int64_t lda,
                     float *r)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sreduce: NULL context");
    if (!A || !r) return pl_fail(PL_ERR_ARG, "pl_sreduce: NULL array");
    if (axis < -2 || axis > 1) /* NumPy's axes of a 2-D array: -2 is 0, -1 is 1 */
        return pl_fail(PL_ERR_ARG, "pl_sreduce: axis %d is out of range for a 2-D array (0 or 1; -2 or -1 from the end)",
                       axis);
    if (axis < 0) axis += 2;
    pl_reduce_problem p = {M, N, lda, op, axis, lda - N};
    pl_status s = pl_reduce_check(&p);
    if (s != PL_OK) return s;
    const char *name = pl_best_variant(ctx, &pl_reduce_kernel, NULL);
    if (!name) return pl_fail(PL_ERR_UNSUPPORTED, "pl_sreduce: no reduce variant can run in this context");
    return pl_reduce_variant_problem(ctx, name, NULL, &p, A, r);
}

pl_status pl_reduce_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                    const pl_reduce_problem *p, const float *A, float *r)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sreduce: NULL context");
    const pl_variant *v = pl_variant_find(&pl_reduce_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "reduce: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_reduce_check(p);
    if (s != PL_OK) return s;
    void *host[2] = {(void *)A, r};
    return pl_run_host(ctx, &pl_reduce_kernel, v, params, p, host);
}

pl_status pl_sdot(pl_ctx *ctx, int64_t N, const float *x, const float *y, float *result)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sdot: NULL context");
    if (!x || !y || !result) return pl_fail(PL_ERR_ARG, "pl_sdot: NULL array");
    pl_dot_problem p = {N};
    pl_status s = pl_dot_check(&p);
    if (s != PL_OK) return s;
    const char *name = pl_best_variant(ctx, &pl_dot_kernel, NULL);
    if (!name) return pl_fail(PL_ERR_UNSUPPORTED, "pl_sdot: no dot variant can run in this context");
    return pl_dot_variant_problem(ctx, name, NULL, &p, x, y, result);
}

pl_status pl_dot_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_dot_problem *p,
                                 const float *x, const float *y, float *result)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sdot: NULL context");
    const pl_variant *v = pl_variant_find(&pl_dot_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "dot: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_dot_check(p);
    if (s != PL_OK) return s;
    void *host[3] = {(void *)x, (void *)y, result};
    return pl_run_host(ctx, &pl_dot_kernel, v, params, p, host);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_sreduce's arguments, and pl_sdot's. */
pl_status pl_reduce_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_reduce_problem *p = a->problem;
    const float *A = a->data[0];
    float *r = a->data[1];
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_reduce_cuda)fn)(p->op, p->axis, p->M, p->N, A, p->lda, r,
                                                             (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_reduce)fn)(p->op, p->axis, p->M, p->N, A, p->lda, r));
}

pl_status pl_dot_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_dot_problem *p = a->problem;
    const float *x = a->data[0], *y = a->data[1];
    float *r = a->data[2];
    if (a->stream) return pl_rung_returned(a, ((pl_rung_dot_cuda)fn)(p->N, x, y, r, (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_dot)fn)(p->N, x, y, r));
}
