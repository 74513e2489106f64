/* hostrun.c: a variant once on the caller's host arrays (the BLAS-like calls). The kernel's
 * operands() says each array's shape and role; for a CUDA variant the inputs and in-outs go
 * to the device (outputs too where they have row padding, which must survive), the variant
 * runs, and the outputs come back. pl_run_host_phases also times the phases (allocation and
 * copies on a GPU; the kernel alone on either backend). */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"

#include <string.h>

/* Seconds between two events recorded on a stream, or -1 where either is missing. */
static double event_seconds(void *start, void *stop)
{
    double sec = -1;
    if (start && stop && pl_dev_event_elapsed(start, stop, &sec) != PL_OK) sec = -1;
    return sec;
}

pl_status pl_run_host_phases(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                             const void *problem, void *const *host, double phase_s[PL_N_PHASES])
{
    if (phase_s)
        for (int i = 0; i < PL_N_PHASES; i++) phase_s[i] = -1;
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
    if ((s = pl_variant_check(ctx, v, NULL, 0)) != PL_OK || (s = pl_variant_takes(k, v, problem)) != PL_OK) return s;
    int64_t values[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, values)) != PL_OK) return s;
    if (v->backend != PL_BACKEND_CUDA) {
        pl_run_args a = {ctx, problem, host, n, values, NULL, v};
        double t0 = pl_now();
        s = v->run(&a);
        if (phase_s && s == PL_OK) phase_s[PL_PHASE_KERNEL] = pl_now() - t0;
        return s;
    }
    void *dev[PL_MAX_OPERANDS] = {NULL};
    /* ev[0..3]: before the copies in, after them (= before the kernel), after the kernel,
     * after the copies out. Only made when the caller asks for the phases. */
    void *ev[4] = {NULL};
    if ((s = pl_ctx_activate(ctx)) != PL_OK) return s;
    double t0 = pl_now();
    for (int i = 0; i < n && s == PL_OK; i++) s = pl_dev_malloc(&dev[i], bytes[i]);
    if (phase_s && s == PL_OK) phase_s[PL_PHASE_ALLOC] = pl_now() - t0;
    for (int i = 0; phase_s && i < 4 && s == PL_OK; i++) s = pl_dev_event_create(&ev[i]);
    if (ev[0] && s == PL_OK) s = pl_dev_event_record(ev[0], ctx->stream);
    for (int i = 0; i < n && s == PL_OK; i++)
        if (t[i].role != PL_OUT || t[i].ld != t[i].cols) s = pl_dev_h2d(dev[i], host[i], bytes[i], ctx->stream);
    if (ev[1] && s == PL_OK) s = pl_dev_event_record(ev[1], ctx->stream);
    if (s == PL_OK) {
        pl_run_args a = {ctx, problem, dev, n, values, ctx->stream, v};
        s = v->run(&a);
        if (s == PL_OK) s = pl_dev_check(v->name);
    }
    if (ev[2] && s == PL_OK) s = pl_dev_event_record(ev[2], ctx->stream);
    for (int i = 0; i < n && s == PL_OK; i++)
        if (t[i].role != PL_IN) s = pl_dev_d2h(host[i], dev[i], bytes[i], ctx->stream);
    if (ev[3] && s == PL_OK) s = pl_dev_event_record(ev[3], ctx->stream);
    if (s == PL_OK) s = pl_dev_sync(ctx->stream);
    if (phase_s && s == PL_OK) {
        phase_s[PL_PHASE_H2D] = event_seconds(ev[0], ev[1]);
        phase_s[PL_PHASE_KERNEL] = event_seconds(ev[1], ev[2]);
        phase_s[PL_PHASE_D2H] = event_seconds(ev[2], ev[3]);
    }
    for (int i = 0; i < 4; i++)
        if (ev[i]) pl_dev_event_destroy(ev[i]);
    for (int i = 0; i < n; i++) pl_dev_free(dev[i]);
    return s;
}

pl_status pl_run_host(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                      const void *problem, void *const *host)
{
    return pl_run_host_phases(ctx, k, v, params, problem, host, NULL);
}
