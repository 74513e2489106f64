/* user_checks.c: what the harness asks of a user's rung beyond what it asks of its own, the
 * ways leaderboards were fooled and learned to check:
 *
 *   fresh inputs   a rung that keeps its first answer and returns it again: one more run, the
 *                  last, on inputs it has not seen (refilled from another seed in the same
 *                  buffers), checked against their own reference;
 *   off-stream     a CUDA rung that launches on a stream other than the one it was given, so
 *                  the events around it time nothing: the same call timed by the host up to a
 *                  device-wide synchronize, against its event time; a gap fails the row;
 *   the floor      a time below what the machine's measured peaks allow for the run's bytes or
 *                  work: impossible, so the row fails, saying why.
 *
 * Poisoned outputs (an output element left unwritten) and the inputs' checksum (a rung that
 * writes into its inputs) hold for every rung already (run.c, verify.c). A failure sets
 * r->verified to 0 with the reason in r->failed_why. */
#include "core/core.h"
#include "core/device.h"
#include "harness/run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A user row whose rate passes its ceiling by this much fails: the peaks are measured, so a
 * rung may pass them by a few percent (it is flagged from 100%, as every row is); a quarter
 * over is no measurement error. */
#define PL_USER_FLOOR_MARGIN 1.25

static void set_failed(pl_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_failed(pl_result *r, const char *fmt, ...)
{
    r->verified = 0;
    if (r->failed_why[0]) return; /* the first reason stays */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->failed_why, sizeof r->failed_why, fmt, ap);
    va_end(ap);
}

/* The run's operands now come from problem q (same shape, other seed): on the CPU the inputs
 * are q's own buffers (as they are p's for the other runs); on a GPU q's inputs travel into the
 * same device buffers, and the in-outs' pristine copies become q's. */
static pl_status use_inputs_of(pl_run *run, const pl_problem *q)
{
    pl_status s = PL_OK;
    for (int i = 0; i < q->n && s == PL_OK; i++) {
        if (q->t[i].role == PL_OUT) continue;
        if (!run->gpu) {
            if (q->t[i].role == PL_IN) run->data[i] = q->t[i].host;
            continue;
        }
        s = pl_dev_h2d(run->data[i], q->t[i].host, run->bytes[i], run->ctx->stream);
        if (s == PL_OK && q->t[i].role == PL_INOUT)
            s = pl_dev_d2d(run->pristine[i], run->data[i], run->bytes[i], run->ctx->stream);
    }
    return s;
}

pl_status pl_user_fresh_inputs(pl_run *run, pl_result *r)
{
    pl_problem *p = run->p, *q = NULL;
    if (p->check == PL_CHECK_AUTO) return PL_OK; /* a probe: timed, never checked */
    pl_problem_opts po = {.seed = p->seed ^ 0x9E3779B97F4A7C15ull, .check = p->check};
    pl_status s = pl_problem_create_spec(&q, p->kernel, p->spec, &po, 0);
    if (s != PL_OK) return s;
    run->p = q; /* poison and outputs_to_host read the in-outs' values from the problem */
    s = use_inputs_of(run, q);
    if (s == PL_OK) s = pl_run_poison_outputs(run);
    if (s == PL_OK) s = pl_run_call(run);
    if (s == PL_OK && run->gpu) s = pl_run_outputs_to_host(run, NULL);
    pl_check_result fresh;
    int ok = 1, inputs_ok = 1;
    if (s == PL_OK) ok = pl_verify_outputs(q, run->v, run->work, 0xF2E5, r, &fresh);
    if (s == PL_OK)
        s = run->gpu ? pl_verify_inputs_device(q, run->data, run->bytes, run->ctx->stream, &inputs_ok)
                     : pl_verify_inputs_host(q, &inputs_ok);
    if (s == PL_OK && !ok) {
        set_failed(r, "the last run, on fresh inputs (seed %llu), is wrong: element [%lld,%lld] is %.3g x its bound "
                      "(a rung that returns an earlier answer?)",
                   (unsigned long long)q->seed, (long long)fresh.row, (long long)fresh.col, fresh.elem_ratio);
    }
    if (s == PL_OK && !inputs_ok) {
        r->inputs_ok = 0;
        set_failed(r, "it changed its inputs (on fresh inputs too)");
    }
    /* Back to p's inputs, for anything that runs after. */
    run->p = p;
    pl_status back = use_inputs_of(run, p);
    pl_problem_destroy(q);
    return s != PL_OK ? s : back;
}

pl_status pl_user_off_stream(pl_run *run, pl_result *r)
{
    if (!run->gpu) return PL_OK;
    /* Five tries; the median of each figure, so that one try slowed by another process on the
     * GPU (a time slice between the events, or a slow host) decides nothing either way. */
    enum { TRIES = 5 };
    double host[TRIES], gap[TRIES], event[TRIES];
    pl_status s = PL_OK;
    for (int k = 0; k < TRIES && s == PL_OK; k++) {
        double t_event = 0;
        s = pl_run_poison_outputs(run);
        if (s == PL_OK) s = pl_dev_sync_device();
        const double t0 = pl_now();
        if (s == PL_OK) s = pl_dev_event_record(run->ev0, run->ctx->stream);
        if (s == PL_OK) s = pl_run_call(run);
        if (s == PL_OK) s = pl_dev_event_record(run->ev1, run->ctx->stream);
        if (s == PL_OK) s = pl_dev_sync_device();
        host[k] = pl_now() - t0;
        if (s == PL_OK) s = pl_dev_event_elapsed(run->ev0, run->ev1, &t_event);
        event[k] = t_event;
        gap[k] = host[k] - t_event;
    }
    if (s != PL_OK) return s;
    double lo, hi, host_med, event_med, gap_med;
    pl_stats_summary(host, TRIES, &host_med, &lo, &hi);
    pl_stats_summary(event, TRIES, &event_med, &lo, &hi);
    pl_stats_summary(gap, TRIES, &gap_med, &lo, &hi);
    /* The host's time holds the launch and the synchronize too (tens of microseconds). */
    if (gap_med > fmax(0.5 * host_med, 100e-6))
        set_failed(r, "off-stream work: the device was busy %.3g ms after the call, its stream's events saw %.3g ms "
                      "(launch on the stream parlab passes, the last argument)",
                   host_med * 1e3, event_med * 1e3);
    return PL_OK;
}

void pl_user_judge_floor(pl_result *r)
{
    if (!r->variant || !r->variant->is_user || !(r->ceiling_pct > 100 * PL_USER_FLOOR_MARGIN)) return;
    set_failed(r, "impossible: %.3g ms is below the physical floor (%.0f%% of %s); a rung that skips work?",
               r->median_s * 1e3, r->ceiling_pct, r->ceiling_name);
}
