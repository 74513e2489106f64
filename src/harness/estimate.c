/* estimate.c: how long a bench of a variant on a problem would take, before it is made: the
 * variant is timed on a probe at the kernel's named sizes (inputs, no reference, no checks)
 * and its rate carried over to the problem's work. It decides what `--variant all` leaves
 * out (with a note); a named rung always runs. */
#include "core/core.h"
#include "harness/harness.h"

#include <math.h>

pl_status pl_bench_estimate(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                            const pl_pvalues *pv, const pl_plan *plan, const pl_bench_config *cfg_in,
                            double *seconds)
{
    *seconds = -1;
    pl_bench_config cfg;
    if (cfg_in) cfg = *cfg_in;
    else pl_bench_config_default(&cfg);
    double rate = 0, probe_work = 0;
    /* Probe at the named sizes, smallest first; a larger one while the probe is quick and
     * still far smaller than the problem (rates at small sizes flatter cache-bound rungs). */
    for (int i = 0; i < k->n_named_sizes; i++) {
        pl_plan pp;
        if (pl_problem_plan(k, k->named_sizes[i].size, pv, PL_CHECK_FULL, &pp) != PL_OK) break;
        if (i > 0 && pp.work > plan->work / 8) break;
        pl_problem *p = NULL;
        pl_status s = pl_problem_create_probe(&p, k, k->named_sizes[i].size, pv, cfg.seed);
        if (s != PL_OK) return s;
        pl_bench_config pc;
        pl_bench_config_default(&pc);
        pc.min_time_s = 0.05; /* the fastest of several runs: one on a busy machine can be far off */
        pc.max_repeats = 20;
        pc.warmup = 1;
        pl_result r;
        s = pl_bench_variant(ctx, p, v, params, &pc, &r);
        pl_problem_destroy(p);
        if (s != PL_OK) return s;
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
