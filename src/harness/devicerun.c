/* devicerun.c: a variant once on the caller's device arrays, on the caller's stream (the Python
 * package's CuPy/PyTorch path): the checks pl_run_host makes (operands, the rung can run here,
 * its parameters), then the rung itself, with no copies and no synchronization. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#include <stdlib.h>

/* The context's pair of ordering events (its PL_CTX_HANDLE_ORDER handle). Re-recording an event
 * that a stream still waits on is safe: a wait takes the event's state when it is queued. */
typedef struct order_events {
    void *ready, *done;
} order_events;

static void order_events_destroy(void *h)
{
    order_events *ev = h;
    pl_dev_event_destroy(ev->ready);
    pl_dev_event_destroy(ev->done);
    free(ev);
}

static pl_status order_events_create(pl_ctx *ctx, void **h)
{
    (void)ctx;
    order_events *ev = calloc(1, sizeof *ev);
    if (!ev) return pl_fail(PL_ERR_NOMEM, "pl_run_device: out of host memory");
    pl_status s = pl_dev_event_create_untimed(&ev->ready);
    if (s == PL_OK) s = pl_dev_event_create_untimed(&ev->done);
    if (s != PL_OK) {
        if (ev->ready) pl_dev_event_destroy(ev->ready);
        free(ev);
        return s;
    }
    *h = ev;
    return PL_OK;
}

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
    if ((s = pl_variant_check(ctx, v, NULL, 0)) != PL_OK || (s = pl_variant_takes(k, v, problem)) != PL_OK) return s;
    int64_t values[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, values)) != PL_OK) return s;
    if (v->backend != PL_BACKEND_CUDA) {
        pl_run_args a = {ctx, problem, dev, n, values, NULL, v};
        return v->run(&a);
    }
    if ((s = pl_ctx_activate(ctx)) != PL_OK) return s;
    /* The rungs (and their workspaces, cuBLAS handles) work on the context's stream, which is
     * non-blocking: it does not wait for the legacy default stream by itself. Two events put
     * the rung in the caller's stream order: after what the caller queued (the inputs being
     * made), before what the caller queues next (reading the result). The context keeps them
     * (made once, untimed): creating and destroying two events cost each small call more than
     * its kernel. */
    void *h = NULL;
    if ((s = pl_ctx_handle(ctx, PL_CTX_HANDLE_ORDER, order_events_create, order_events_destroy, &h)) != PL_OK)
        return s;
    const order_events *ev = h;
    if ((s = pl_dev_event_record(ev->ready, stream)) != PL_OK) return s;
    if ((s = pl_dev_stream_wait(ctx->stream, ev->ready)) != PL_OK) return s;
    pl_run_args a = {ctx, problem, dev, n, values, ctx->stream, v};
    if ((s = v->run(&a)) != PL_OK) return s;
    if ((s = pl_dev_check(v->name)) != PL_OK) return s;
    if ((s = pl_dev_event_record(ev->done, ctx->stream)) != PL_OK) return s;
    return pl_dev_stream_wait(stream, ev->done);
}
