/* estimate.c: how long a bench of a variant on a problem would take, before it is made: the
 * variant is timed on a probe at the kernel's named sizes (inputs, no reference, no checks)
 * and its rate carried over to the problem's work. It decides what `--variant all` leaves
 * out (with a note); a named rung always runs. The probes are made once and kept (pl_probes):
 * every variant of a session is timed on the same ones, and a problem struct that reads a
 * file (conv2d's filter=F.npy) reads it once a size. */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pl_status pl_probes_init(pl_probes *pr, const pl_kernel *k, const pl_pvalues *pv, uint64_t seed)
{
    memset(pr, 0, sizeof *pr);
    pr->k = k;
    pr->pv = pv;
    pr->seed = seed;
    if (k->n_named_sizes > 0 && !(pr->at = calloc((size_t)k->n_named_sizes, sizeof *pr->at)))
        return pl_fail(PL_ERR_NOMEM, "out of host memory");
    return PL_OK;
}

void pl_probes_lend(pl_probes *pr, int i, void *spec)
{
    if (i < 0 || i >= pr->k->n_named_sizes || pr->at[i].spec) return;
    pr->at[i].spec = spec;
    pr->at[i].owns_spec = 0;
}

/* Probe i's problem struct and plan, made on first use. */
pl_status pl_probes_plan(pl_probes *pr, int i, pl_plan *plan)
{
    struct pl_probe *at = &pr->at[i];
    if (!at->planned) {
        at->planned = 1;
        at->plan_status = PL_OK;
        if (!at->spec) {
            at->plan_status = pl_spec_make(pr->k, pr->k->named_sizes[i].size, pr->pv, &at->spec);
            at->owns_spec = at->plan_status == PL_OK;
        }
        if (at->plan_status == PL_OK) at->plan_status = pl_plan_spec(pr->k, at->spec, PL_CHECK_FULL, &at->plan);
    }
    *plan = at->plan;
    return at->plan_status;
}

void pl_probes_free(pl_probes *pr)
{
    for (int i = 0; pr->at && i < pr->k->n_named_sizes; i++) {
        pl_problem_destroy(pr->at[i].problem);
        if (pr->at[i].owns_spec) pl_spec_free(pr->k, pr->at[i].spec);
    }
    free(pr->at);
    memset(pr, 0, sizeof *pr);
}

pl_status pl_bench_estimate_probes(pl_ctx *ctx, pl_probes *pr, const pl_variant *v, const int64_t *params,
                                   const pl_plan *plan, const pl_bench_config *cfg_in, double *seconds)
{
    *seconds = -1;
    pl_bench_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else pl_bench_config_default(&cfg);
    const pl_kernel *k = pr->k;
    double rate = 0, probe_work = 0;
    /* Probe at the named sizes, smallest first; a larger one while the probe is quick and
     * still far smaller than the problem (rates at small sizes flatter cache-bound rungs). */
    for (int i = 0; i < k->n_named_sizes; i++) {
        pl_plan pp;
        if (pl_probes_plan(pr, i, &pp) != PL_OK) break;
        if (i > 0 && pp.work > plan->work / 8) break;
        pl_status s;
        if (!pr->at[i].problem) {
            pl_problem_opts po = {.seed = pr->seed};
            if ((s = pl_problem_create_spec(&pr->at[i].problem, k, pr->at[i].spec, &po, 1)) != PL_OK) return s;
        }
        pl_bench_config pc;
        pl_bench_config_default(&pc);
        pc.min_time_s = 0.05; /* the fastest of several runs: one on a busy machine can be far off */
        pc.max_repeats = 20;
        pc.warmup = 1;
        pl_result r;
        if ((s = pl_bench_variant(ctx, pr->at[i].problem, v, params, &pc, &r)) != PL_OK) return s;
        if (r.min_s > 0) rate = pp.work / r.min_s, probe_work = pp.work;
        if (r.min_s >= 0.02) break;
    }
    if (!(rate > 0)) return PL_OK;
    /* Far beyond the probe the operands leave the caches the probe ran in: rungs without
     * cache blocking slow down 4-7 times (cpu-simd: ~100 GFLOP/s at 1024, 14 at 8192 on a
     * 2-core EPYC), so past 64x the probe's work the estimate takes a quarter of the rate. */
    if (plan->work > 64.0 * probe_work) rate *= 0.25;
    double t_run = plan->work / rate;
    double runs = cfg.repeats > 0 ? cfg.repeats : fmin(fmax(3.0, ceil(cfg.min_time_s / t_run)), cfg.max_repeats);
    *seconds = t_run * (runs + (cfg.warmup > 0 ? cfg.warmup : 1));
    return PL_OK;
}

pl_status pl_bench_estimate(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                            const pl_pvalues *pv, const pl_plan *plan, const pl_bench_config *cfg, double *seconds)
{
    *seconds = -1;
    pl_probes pr;
    pl_status s = pl_probes_init(&pr, k, pv, cfg ? cfg->seed : 42);
    if (s == PL_OK) s = pl_bench_estimate_probes(ctx, &pr, v, params, plan, cfg, seconds);
    pl_probes_free(&pr);
    return s;
}
