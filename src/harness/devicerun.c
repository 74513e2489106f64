/* devicerun.c: a variant once on the caller's device arrays, on the caller's stream (the Python
 * package's CuPy/PyTorch path): the checks pl_run_host makes (operands, the rung can run here,
 * its parameters), then the rung itself, with no copies and no synchronization. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

pl_status pl_run_device(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                        const void *problem, void *const *dev, void *stream)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "%s: NULL context", k->name);
    pl_tensor t[PL_MAX_OPERANDS];
    int n = 0;
    pl_status s = k->operands(problem, t, &n);
    if (s != PL_OK) return s;
    for (int i = 0; i < n; i++)
        if (!dev[i]) return pl_fail(PL_ERR_ARG, "%s: operand %s is a NULL pointer", k->name, t[i].name);
    if ((s = pl_variant_check(ctx, v, NULL, 0)) != PL_OK) return s;
    int64_t values[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, values)) != PL_OK) return s;
    if (v->backend != PL_BACKEND_CUDA) {
        pl_run_args a = {ctx, problem, dev, n, values, NULL};
        return v->run(&a);
    }
    if ((s = pl_ctx_activate(ctx)) != PL_OK) return s;
    /* The rungs (and their workspaces, cuBLAS handles) work on the context's stream, which is
     * non-blocking: it does not wait for the legacy default stream by itself. Two events put
     * the rung in the caller's stream order: after what the caller queued (the inputs being
     * made), before what the caller queues next (reading the result). */
    void *ready = NULL, *done = NULL;
    s = pl_dev_event_create(&ready);
    if (s == PL_OK) s = pl_dev_event_create(&done);
    if (s == PL_OK) s = pl_dev_event_record(ready, stream);
    if (s == PL_OK) s = pl_dev_stream_wait(ctx->stream, ready);
    if (s == PL_OK) {
        pl_run_args a = {ctx, problem, dev, n, values, ctx->stream};
        s = v->run(&a);
        if (s == PL_OK) s = pl_dev_check(v->name);
    }
    if (s == PL_OK) s = pl_dev_event_record(done, ctx->stream);
    if (s == PL_OK) s = pl_dev_stream_wait(stream, done);
    pl_dev_event_destroy(ready); /* destroying a recorded event is safe: CUDA frees it once it completes */
    pl_dev_event_destroy(done);
    return s;
}
