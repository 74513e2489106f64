/* bench.c: one variant measured on one problem, the method once for every kernel; the list of
 * phases below is the run itself. Each phase's work is in its own file:
 *
 *   open        the variant runs here, its parameters are legal, the device has the memory (run.c)
 *   allocate    host working copies, device operands: the allocation phase (run.c)
 *   inputs in   GPU: the host-to-device phase; pristine copies of the in-outs (run.c)
 *   warm up     outputs poisoned, the variant runs; the first run is checked (verify.c), and on
 *               a GPU its outputs' way back is the device-to-host phase
 *   timed runs  poisoned (and --cold: caches flushed) before each, outside the timed region;
 *               median / min / max (timing.c)
 *   last check  the last timed run's outputs checked too, and the inputs unchanged (verify.c)
 *   user rungs  one more run on fresh inputs, off-stream work, the physical floor (user_checks.c)
 *   figures     rate, bandwidth, verdict, and the place against the ceilings (ceilings.c)
 *
 * The problem (inputs, checksums, reference) is problem.c's; pl_bench_estimate (estimate.c)
 * times a probe through this same path. */
#include "core/core.h"
#include "harness/run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void pl_bench_config_default(pl_bench_config *c)
{
    memset(c, 0, sizeof *c);
    c->warmup = 1;
    c->repeats = 0;
    c->min_time_s = 0.2;
    c->max_repeats = 50;
    c->seed = 42;
}

static void progress(const pl_bench_config *cfg, const char *stage, double fraction)
{
    if (cfg->progress) cfg->progress(cfg->progress_user, stage, fraction);
}

/* A probe (pl_problem_create_probe) has no check: it is only timed. */
static int is_probe(const pl_problem *p) { return p->check == PL_CHECK_AUTO; }

/* What ran on what, and the bounds its checks hold it to; no phase measured yet. */
static void begin_result(pl_result *r, const pl_ctx *ctx, const pl_problem *p, const pl_variant *v,
                         const pl_bench_config *cfg)
{
    memset(r, 0, sizeof *r);
    r->kernel = p->kernel;
    r->variant = v;
    r->problem_id = p->id;
    snprintf(r->size, sizeof r->size, "%s", p->desc);
    r->threads = v->backend == PL_BACKEND_CPU ? pl_ctx_threads(ctx) : 0;
    r->unit = p->kernel->unit;
    r->work = p->work;
    r->ops = p->ops;
    r->bytes = p->bytes;
    r->cold = cfg->cold;
    r->check = p->check;
    r->padding_ok = 1;
    r->inputs_ok = 1;
    for (int i = 0; i < PL_N_PHASES; i++) r->phase_s[i] = -1;
    r->bound = p->kernel->error_bound(p->spec, v->precision, &r->bound_why);
    r->elem_bound = p->kernel->elem_bound ? p->kernel->elem_bound(p->spec, v->precision, &r->elem_why) : 0;
}

/* The warm-up runs; the first one's outputs are checked. */
static pl_status warm_up(pl_run *run, pl_result *r, int *first_ok)
{
    const pl_bench_config *cfg = run->cfg;
    pl_status s = PL_OK;
    for (int w = 0; w < (cfg->warmup > 0 ? cfg->warmup : 1) && s == PL_OK; w++) {
        progress(cfg, "warm-up", 0.0);
        s = pl_run_check_cancel(run);
        if (s == PL_OK) s = pl_run_poison_outputs(run);
        if (s == PL_OK) s = pl_run_call(run);
        if (s != PL_OK || w > 0) continue;
        if (run->gpu) s = pl_run_outputs_to_host(run, &r->phase_s[PL_PHASE_D2H]);
        if (s == PL_OK && !is_probe(run->p)) {
            progress(cfg, "check", 0.0);
            *first_ok = pl_verify_outputs(run->p, run->v, run->work, 0x51, r, &r->first);
        }
    }
    return s;
}

/* The last timed run's output is checked too (a variant that computes once and then returns
 * at once fails here), and the inputs must be as the problem made them. */
static pl_status check_last_run(pl_run *run, pl_result *r, int *last_ok)
{
    if (is_probe(run->p)) return PL_OK;
    pl_status s = run->gpu ? pl_run_outputs_to_host(run, NULL) : PL_OK;
    progress(run->cfg, "check", 0.5);
    if (s != PL_OK) return s;
    *last_ok = pl_verify_outputs(run->p, run->v, run->work, 0x1A57, r, &r->last);
    if (run->gpu) return pl_verify_inputs_device(run->p, run->data, run->bytes, run->ctx->stream, &r->inputs_ok);
    return pl_verify_inputs_host(run->p, &r->inputs_ok);
}

/* The figures from the median time, the verdict, and the place against the ceilings. */
static void finish_result(pl_result *r, const pl_run *run, int checks_ok)
{
    const pl_problem *p = run->p;
    r->phase_s[PL_PHASE_KERNEL] = r->median_s;
    r->rate = r->work / r->median_s / pl_unit_rate_scale(r->unit);
    r->gbps = r->bytes / r->median_s * 1e-9;
    r->error = r->first.error > r->last.error || isnan(r->first.error) ? r->first.error : r->last.error;
    r->verified = !is_probe(p) && checks_ok && r->padding_ok && r->inputs_ok && !r->failed_why[0];
    double written = p->kernel->bytes_written ? p->kernel->bytes_written(p->spec) : -1.0;
    pl_place_on_ceiling(run->ctx, run->v, run->cfg->peaks, written, r);
    pl_user_judge_floor(r);
}

/* A user's rung: one more run on fresh inputs (where the checks so far passed: a rung wrong on
 * every input is no replay), and on a GPU the off-stream check (user_checks.c). */
static pl_status check_user_rung(pl_run *run, pl_result *r, int checks_ok)
{
    if (!run->v->is_user || is_probe(run->p)) return PL_OK;
    progress(run->cfg, "check", 0.75);
    pl_status s = checks_ok && r->inputs_ok && r->padding_ok ? pl_user_fresh_inputs(run, r) : PL_OK;
    if (s == PL_OK) s = pl_user_off_stream(run, r);
    return s;
}

pl_status pl_bench_variant(pl_ctx *ctx, pl_problem *p, const pl_variant *v, const int64_t *params,
                           const pl_bench_config *cfg_in, pl_result *r)
{
    pl_bench_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else pl_bench_config_default(&cfg);
    begin_result(r, ctx, p, v, &cfg);
    pl_run run;
    int first_ok = 1, last_ok = 1;
    pl_status s = pl_run_open(&run, ctx, p, v, params, &cfg);
    if (s == PL_OK) memcpy(r->params, run.params, sizeof run.params);
    if (s == PL_OK) s = pl_run_allocate(&run, &r->phase_s[PL_PHASE_ALLOC]);
    if (s == PL_OK && run.gpu) s = pl_run_inputs_to_device(&run, &r->phase_s[PL_PHASE_H2D]);
    if (s == PL_OK) s = warm_up(&run, r, &first_ok);
    if (s == PL_OK) s = pl_time_repeats(&run, r);
    if (s == PL_OK) s = check_last_run(&run, r, &last_ok);
    if (s == PL_OK) s = check_user_rung(&run, r, first_ok && last_ok);
    if (s == PL_OK) finish_result(r, &run, first_ok && last_ok);
    pl_run_close(&run);
    return s;
}
