/* api.c: pl_conv2d, the BLAS-like call: it checks the arguments (and, for int32, that no sum
 * can leave int32), picks the best rung the context can run (or the one named), and hands the
 * host arrays to the harness (pl_run_host), which moves them to the device and back for a
 * CUDA context. */
#include "core/core.h"
#include "kernels/conv2d/conv2d.h"
#include "parlab_rung.h"

pl_status pl_conv2d_variant(pl_ctx *ctx, const char *variant, const int64_t *params, pl_dtype dtype, int64_t H,
                            int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                            const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    pl_conv2d_opts o = {PL_CONV2D_VALID, PL_CONV2D_ZERO, 0};
    if (opts) o = *opts;
    pl_conv2d_problem p = {H, W, K, dtype, o.mode, o.border, o.flip, 0, 0, ld_img, ld_out, NULL};
    pl_conv2d_set_shape(&p);
    return pl_conv2d_variant_problem(ctx, variant, params, &p, image, filter, out);
}

pl_status pl_conv2d_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params,
                                    const pl_conv2d_problem *p, const void *image, const void *filter, void *out)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_conv2d: NULL context");
    const pl_variant *v = pl_variant_find(&pl_conv2d_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "conv2d: unknown variant '%s'", variant ? variant : "(null)");
    pl_status s = pl_conv2d_check(p);
    if (s != PL_OK) return s;
    if (!image || !filter || !out) return pl_fail(PL_ERR_ARG, "pl_conv2d: NULL array");
    s = pl_conv2d_check_i32_range(p, image, filter);
    if (s != PL_OK) return s;
    void *host[3] = {(void *)image, (void *)filter, out};
    return pl_run_host(ctx, &pl_conv2d_kernel, v, params, p, host);
}

pl_status pl_conv2d(pl_ctx *ctx, pl_dtype dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K,
                    const void *filter, const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_conv2d: NULL context");
    const char *best = pl_best_variant(ctx, &pl_conv2d_kernel, NULL);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_conv2d: no conv2d variant can run in this context");
    return pl_conv2d_variant(ctx, best, NULL, dtype, H, W, image, ld_img, K, filter, opts, out, ld_out);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_conv2d's arguments. */
pl_status pl_conv2d_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_conv2d_problem *p = a->problem;
    const pl_conv2d_opts opts = {(pl_conv2d_mode)p->mode, (pl_conv2d_border)p->border, p->flip};
    const void *image = a->data[0], *filter = a->data[1];
    void *out = a->data[2];
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_conv2d_cuda)fn)((int)p->dtype, p->H, p->W, image, p->ld_img, p->K, filter,
                                                             &opts, out, p->ld_out, (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_conv2d)fn)((int)p->dtype, p->H, p->W, image, p->ld_img, p->K, filter, &opts,
                                                    out, p->ld_out));
}
