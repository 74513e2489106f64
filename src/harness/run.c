/* run.c: the buffers of one variant's runs on one problem, and the steps a run is made of.
 * A CPU variant reads the problem's own inputs and writes host working copies of its
 * outputs; a CUDA variant gets every operand on the device (in-outs also kept pristine
 * there), and its outputs come back to the same working copies for the checks. */
#include "core/core.h"
#include "core/device.h"
#include "harness/run.h"

#include <stdio.h>
#include <string.h>

/* --cold: several times the last-level cache (a GPU: several times any L2). */
static size_t cold_buffer_bytes(int gpu)
{
    if (gpu) return (size_t)256 << 20; /* several times any GPU's L2 (H100: 50 MB) */
    const int64_t llc = pl_cpu_llc_bytes(0);
    size_t b = llc > 0 ? (size_t)llc * 4 : (size_t)64 << 20;
    if (b < ((size_t)32 << 20)) b = (size_t)32 << 20;
    if (b > ((size_t)512 << 20)) b = (size_t)512 << 20;
    return b;
}

pl_status pl_run_open(pl_run *run, pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                      const pl_bench_config *cfg)
{
    memset(run, 0, sizeof *run);
    run->p = p;
    run->v = v;
    run->ctx = ctx;
    run->cfg = cfg;
    run->gpu = v->backend == PL_BACKEND_CUDA;
    pl_status s = pl_variant_check(ctx, v, NULL, 0);
    if (s == PL_OK) s = pl_variant_takes(p->kernel, v, p->spec);
    if (s == PL_OK) s = pl_params_resolve(v, params, run->params);
    if (s == PL_OK) s = pl_ctx_activate(ctx);
    for (int i = 0; i < p->n && s == PL_OK; i++) s = pl_tensor_bytes(&p->t[i], &run->bytes[i]);
    if (s != PL_OK || !run->gpu) return s;
    /* The device: the problem's operands and pristine in-outs, this variant's workspaces,
     * and the --cold buffer. */
    double need = p->device_bytes + (cfg->cold ? (double)cold_buffer_bytes(1) : 0);
    if (v->workspace_bytes) need += v->workspace_bytes(p->spec);
    char who[160];
    snprintf(who, sizeof who, "%s %s %s", p->kernel->name, v->name, p->desc);
    return pl_device_fits(ctx, need, who, " for its operands and workspaces");
}

pl_status pl_run_allocate(pl_run *run, double *alloc_s)
{
    const pl_problem *p = run->p;
    pl_status s = PL_OK;
    double t0 = pl_now();
    for (int i = 0; i < p->n && s == PL_OK; i++) {
        if (p->t[i].role != PL_IN && !(run->work[i] = pl_alloc(run->bytes[i])))
            s = pl_fail(PL_ERR_NOMEM, "cannot allocate %zu bytes of host memory", run->bytes[i]);
        else if (run->gpu) {
            /* Touch the host copy now, so its page faults count as allocation and the
             * device-to-host phase measures the transfer alone. */
            if (run->work[i]) memset(run->work[i], 0, run->bytes[i]);
            s = pl_dev_malloc(&run->data[i], run->bytes[i]);
        }
        else run->data[i] = p->t[i].role == PL_IN ? p->t[i].host : run->work[i];
    }
    if (s == PL_OK && run->gpu) s = pl_dev_sync(run->ctx->stream);
    *alloc_s = pl_now() - t0;
    for (int i = 0; run->gpu && s == PL_OK && i < p->n; i++)
        if (p->t[i].role == PL_INOUT) s = pl_dev_malloc(&run->pristine[i], run->bytes[i]);
    if (s == PL_OK && run->cfg->cold) {
        run->flush_bytes = cold_buffer_bytes(run->gpu);
        if (run->gpu) s = pl_dev_malloc(&run->flush, run->flush_bytes);
        else if (!(run->flush = pl_alloc(run->flush_bytes))) s = pl_fail(PL_ERR_NOMEM, "--cold: out of host memory");
    }
    if (s == PL_OK && run->gpu) s = pl_dev_event_create(&run->ev0);
    if (s == PL_OK && run->gpu) s = pl_dev_event_create(&run->ev1);
    return s;
}

pl_status pl_run_inputs_to_device(pl_run *run, double *h2d_s)
{
    const pl_problem *p = run->p;
    void *stream = run->ctx->stream;
    pl_status s = pl_dev_event_record(run->ev0, stream);
    for (int i = 0; i < p->n && s == PL_OK; i++)
        if (p->t[i].role != PL_OUT) s = pl_dev_h2d(run->data[i], p->t[i].host, run->bytes[i], stream);
    if (s == PL_OK) s = pl_dev_event_record(run->ev1, stream);
    if (s == PL_OK) s = pl_dev_event_elapsed(run->ev0, run->ev1, h2d_s);
    /* Pristine copies of the in-outs, outside the timed phases. */
    for (int i = 0; i < p->n && s == PL_OK; i++)
        if (p->t[i].role == PL_INOUT) s = pl_dev_d2d(run->pristine[i], run->data[i], run->bytes[i], stream);
    return s;
}

pl_status pl_run_outputs_to_host(pl_run *run, double *d2h_s)
{
    const pl_problem *p = run->p;
    void *stream = run->ctx->stream;
    /* A user's rung may have left work on another stream: the device finishes it all first,
     * so that the outputs read are the rung's (the off-stream check then fails the row). */
    pl_status s = run->v->is_user ? pl_dev_sync_device() : PL_OK;
    if (s == PL_OK && d2h_s) s = pl_dev_event_record(run->ev0, stream);
    for (int i = 0; i < p->n && s == PL_OK; i++)
        if (p->t[i].role != PL_IN) s = pl_dev_d2h(run->work[i], run->data[i], run->bytes[i], stream);
    if (s != PL_OK) return s;
    if (!d2h_s) return pl_dev_sync(stream);
    s = pl_dev_event_record(run->ev1, stream);
    if (s == PL_OK) s = pl_dev_event_elapsed(run->ev0, run->ev1, d2h_s);
    return s;
}

pl_status pl_run_check_cancel(const pl_run *run)
{
    return pl_ctx_cancelled(run->ctx) ? pl_fail(PL_ERR_CANCELLED, "%s: cancelled", run->v->name) : PL_OK;
}

pl_status pl_run_poison_outputs(pl_run *run)
{
    const pl_problem *p = run->p;
    for (int i = 0; i < p->n; i++) {
        if (p->t[i].role == PL_IN) continue;
        pl_status s = PL_OK;
        if (run->gpu) {
            if (p->t[i].role == PL_INOUT) s = pl_dev_d2d(run->data[i], run->pristine[i], run->bytes[i], run->ctx->stream);
            else s = pl_dev_memset(run->data[i], 0xFF, run->bytes[i], run->ctx->stream);
        } else if (p->t[i].role == PL_INOUT) {
            memcpy(run->work[i], p->t[i].host, run->bytes[i]);
        } else {
            memset(run->work[i], 0xFF, run->bytes[i]); /* all-ones: NaN for floats, -1 / 255 for integers */
        }
        if (s != PL_OK) return s;
    }
    return PL_OK;
}

pl_status pl_run_flush_caches(pl_run *run)
{
    if (!run->flush) return PL_OK;
    if (run->gpu) return pl_dev_memset(run->flush, run->cfg->seed & 0xFF, run->flush_bytes, run->ctx->stream);
    volatile unsigned char *b = run->flush;
    memset(run->flush, (int)(run->flush_bytes & 0x7F), run->flush_bytes);
    (void)b[run->flush_bytes - 1];
    return PL_OK;
}

pl_status pl_run_call(pl_run *run)
{
    pl_run_args a = {run->ctx, run->p->spec, run->data, run->p->n, run->params, run->ctx->stream, run->v};
    pl_status s = run->v->run(&a);
    if (s == PL_OK && run->gpu) s = pl_dev_check(run->v->name);
    return s;
}

void pl_run_close(pl_run *run)
{
    if (!run->p) return;
    for (int i = 0; i < run->p->n; i++) {
        if (run->gpu) {
            pl_dev_free(run->data[i]);
            pl_dev_free(run->pristine[i]);
        }
        pl_free(run->work[i]);
    }
    if (run->gpu) pl_dev_free(run->flush);
    else pl_free(run->flush);
    pl_dev_event_destroy(run->ev0);
    pl_dev_event_destroy(run->ev1);
}
