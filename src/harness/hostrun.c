/* hostrun.c: a variant once on the caller's host arrays (the BLAS-like calls). The kernel's
 * operands() says each array's shape and role; for a CUDA variant the inputs and in-outs go
 * to the device (outputs too where they have row padding, which must survive), the variant
 * runs, and the outputs come back. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#include <string.h>

pl_status pl_run_host(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                      const void *problem, void *const *host)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "%s: NULL context", k->name);
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = k->operands(problem, t, &n);
    if (s != PL_OK) return s;
    size_t bytes[PL_MAX_OPERANDS];
    for (int i = 0; i < n && s == PL_OK; i++) {
        if (!host[i]) return pl_fail(PL_ERR_ARG, "%s: operand %s is a NULL pointer", k->name, t[i].name);
        s = pl_tensor_bytes(&t[i], &bytes[i]);
    }
    if (s != PL_OK) return s;
    if ((s = pl_variant_check(ctx, v, NULL, 0)) != PL_OK) return s;
    int64_t values[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, values)) != PL_OK) return s;
    if (v->backend != PL_BACKEND_CUDA) {
        pl_run_args a = {ctx, problem, host, n, values, NULL};
        return v->run(&a);
    }
    void *dev[PL_MAX_OPERANDS] = {NULL};
    if ((s = pl_ctx_activate(ctx)) != PL_OK) return s;
    for (int i = 0; i < n && s == PL_OK; i++) s = pl_dev_malloc(&dev[i], bytes[i]);
    for (int i = 0; i < n && s == PL_OK; i++)
        if (t[i].role != PL_OUT || t[i].ld != t[i].cols) s = pl_dev_h2d(dev[i], host[i], bytes[i], ctx->stream);
    if (s == PL_OK) {
        pl_run_args a = {ctx, problem, dev, n, values, ctx->stream};
        s = v->run(&a);
        if (s == PL_OK) s = pl_dev_check(v->name);
    }
    for (int i = 0; i < n && s == PL_OK; i++)
        if (t[i].role != PL_IN) s = pl_dev_d2h(host[i], dev[i], bytes[i], ctx->stream);
    if (s == PL_OK) s = pl_dev_sync(ctx->stream);
    for (int i = 0; i < n; i++) pl_dev_free(dev[i]);
    return s;
}
