/* timing.c: the timed runs and their statistics. Before each run, outside the timed region,
 * the outputs are poisoned again and (--cold) the caches flushed; a run is timed by CUDA events
 * around the launch on a GPU, by the monotonic clock on the CPU. On a GPU a short busy-wait
 * kernel is queued before the first event: while it runs, the host records the event and
 * launches the variant's work, so the event pair holds the device's time for that work and not
 * the host's launch latency (5-7 us on the H100; nvbench hides it the same way). The wait
 * lasts at least twice the host's part of the last call. Repeats run until min_time
 * is spent (at least 3, at most max_repeats) or exactly `repeats` times; the result holds
 * their median, min and max, says when max and min are far apart, and keeps the times one by
 * one in the order they ran (the first PL_MAX_SAMPLES) for the rank tests of stats.c. */
#include "core/core.h"
#include "core/device.h"
#include "harness/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pl_stats_summary(double *t, int n, double *median, double *min, double *max)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    *min = t[0];
    *max = t[n - 1];
    *median = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The busy-wait before a GPU run's first event: 100 us, or twice the host's part of a call
 * where that is longer (at most 20 ms: a call whose host part is longer keeps the rest in its
 * time, as it would without the wait). A call that waits for the device inside (none of the
 * rungs or peers does after its warm-up run) would see the wait in its host part and lengthen
 * it every run up to the 20 ms: wasted wall time, not a wrong figure. */
enum { COVER_MIN_US = 100, COVER_MAX_US = 20000 };

/* One run of the variant, timed. *cover_us: the GPU's busy-wait, lengthened when the host's
 * part of this call outlasts half of it. */
static pl_status timed_call(pl_run *run, double *t, unsigned *cover_us)
{
    if (!run->gpu) {
        double a = pl_now();
        pl_status s = pl_run_call(run);
        *t = pl_now() - a;
        return s;
    }
    pl_status s = pl_dev_busy_wait(run->ctx->stream, *cover_us);
    const double host0 = pl_now();
    if (s == PL_OK) s = pl_dev_event_record(run->ev0, run->ctx->stream);
    if (s == PL_OK) s = pl_run_call(run);
    if (s == PL_OK) s = pl_dev_event_record(run->ev1, run->ctx->stream);
    const double host_us = (pl_now() - host0) * 1e6;
    if (2 * host_us > *cover_us) *cover_us = (unsigned)fmin(2 * host_us + COVER_MIN_US, COVER_MAX_US);
    if (s == PL_OK) s = pl_dev_event_elapsed(run->ev0, run->ev1, t);
    return s;
}

static void progress(const pl_bench_config *cfg, int n, int cap, double spent)
{
    if (!cfg->progress) return;
    cfg->progress(cfg->progress_user, "timed runs",
                  cfg->repeats > 0 ? (double)n / cap : fmin(1.0, fmax((double)n / 3, spent / fmax(cfg->min_time_s, 1e-9))));
}

pl_status pl_time_repeats(pl_run *run, pl_result *r)
{
    const pl_bench_config *cfg = run->cfg;
    int cap = cfg->repeats > 0 ? cfg->repeats : (cfg->max_repeats > 3 ? cfg->max_repeats : 3);
    double *times = calloc((size_t)cap, sizeof *times);
    if (!times) return pl_fail(PL_ERR_NOMEM, "out of host memory");
    int n = 0;
    double spent = 0;
    unsigned cover_us = COVER_MIN_US;
    pl_status s = PL_OK;
    while (s == PL_OK && n < cap) {
        progress(cfg, n, cap, spent);
        s = pl_run_check_cancel(run);
        if (s == PL_OK) s = pl_run_poison_outputs(run);
        if (s == PL_OK) s = pl_run_flush_caches(run);
        double t;
        if (s == PL_OK) s = timed_call(run, &t, &cover_us);
        if (s != PL_OK) break;
        times[n++] = t;
        spent += t;
        if (cfg->repeats <= 0 && n >= 3 && spent >= cfg->min_time_s) break;
    }
    if (s == PL_OK) {
        r->repeats = n;
        r->n_samples = n < PL_MAX_SAMPLES ? n : PL_MAX_SAMPLES;
        memcpy(r->samples, times, (size_t)r->n_samples * sizeof *times); /* before the sort below */
        pl_stats_summary(times, n, &r->median_s, &r->min_s, &r->max_s);
        r->noisy = r->min_s > 0 && r->max_s > 1.5 * r->min_s;
    }
    free(times);
    return s;
}

pl_status pl_time_calls(const pl_timed_calls *c, int warmup, long n, double *seconds)
{
    pl_status s = PL_OK;
    for (long i = -(long)warmup; i < n && (s == PL_OK || c->all); i++) { /* i < 0: the warm-ups */
        if (c->before) c->before(c->user);
        const double t0 = pl_now();
        const pl_status one = c->call(c->user);
        double dt = pl_now() - t0;
        if (c->elapsed) dt = c->elapsed(c->user, dt);
        if (s == PL_OK) s = one;
        if (i >= 0) seconds[i] = dt;
    }
    return s;
}
