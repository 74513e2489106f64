/* check.c: the correctness suite alone, as a student runs it before timing anything (`parlab
 * check`, parlab.check). A variant runs on each of its kernel's check cases (odd shapes and
 * every problem parameter's values, declared in the kernel's room) at a few seeds, each the
 * way bench runs it (pl_bench_variant with one warm-up and one timed run): outputs poisoned,
 * both runs checked in full against the float64 reference, the padding and the inputs
 * checked. Nothing is printed: each outcome goes to the caller's function as it comes. */
#include "core/core.h"
#include "harness/harness.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void pl_check_default_seeds(uint64_t seeds[PL_CHECK_SEEDS])
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t x = (uint64_t)t.tv_sec * 1000000007u ^ (uint64_t)t.tv_nsec ^ ((uint64_t)getpid() << 32);
    x ^= x >> 33, x *= 0xff51afd7ed558ccdull, x ^= x >> 33; /* splitmix's finalizer: nearby clocks, far seeds */
    seeds[0] = 42;   /* bench's seed: a bench that failed is replayed here */
    seeds[1] = 7919; /* a second fixed one */
    seeds[2] = 1000 + x % 999999000; /* new inputs each time; short enough to type after --seed */
}

/* The case's settings ("name=value,...") over the defaults; text is a copy the items point into. */
static pl_status case_settings(const pl_kernel *k, const char *settings, char *text, size_t n, pl_pvalues *pv)
{
    int given[PL_MAX_PARAMS] = {0};
    pl_pvalues_default(k, pv);
    if (!settings || !*settings) return PL_OK;
    if (strlen(settings) >= n) return pl_fail(PL_ERR_INTERNAL, "%s check case '%s': settings too long", k->name, settings);
    snprintf(text, n, "%s", settings);
    for (char *item = text, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        pl_status s = pl_pvalues_set(k, pv, given, item);
        if (s != PL_OK) return s;
    }
    return PL_OK;
}

/* Both checks passed, as pl_verify_outputs decides. */
static const pl_check_result *failed_check(const pl_result *r)
{
    if (!pl_check_passes(&r->first, r->bound)) return &r->first;
    if (!pl_check_passes(&r->last, r->bound)) return &r->last;
    return NULL;
}

/* One case at one seed into o (its status, verdict and message). */
static pl_status run_case(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                          pl_check_outcome *o)
{
    char text[512];
    pl_pvalues pv;
    pl_problem *p = NULL;
    pl_status s = case_settings(k, o->check_case->settings, text, sizeof text, &pv);
    if (s == PL_OK) {
        pl_problem_opts opts = {.seed = o->seed, .check = PL_CHECK_FULL};
        s = pl_problem_create_opts(&p, k, pl_kernel_size(k, o->check_case->size), &pv, &opts);
    }
    if (s == PL_OK) {
        pl_bench_config cfg;
        pl_bench_config_default(&cfg);
        cfg.warmup = 1;
        cfg.repeats = 1;
        cfg.seed = o->seed;
        s = pl_bench_variant(ctx, p, v, params, &cfg, &o->result);
        o->bad = s == PL_OK ? failed_check(&o->result) : NULL;
        if (o->bad) o->operand = p->t[o->bad->operand].name;
    }
    pl_problem_destroy(p);
    o->status = s;
    if (s != PL_OK) {
        snprintf(o->message, sizeof o->message, "%s", *pl_last_error() ? pl_last_error() : pl_status_name(s));
        return s;
    }
    o->passed = o->result.verified;
    return PL_OK;
}

pl_status pl_check_variant(pl_ctx *ctx, const pl_kernel *k, const pl_variant *v, const int64_t *params,
                           const uint64_t *seeds, int n_seeds, pl_check_fn each, void *user, int *n_runs,
                           int *n_failed)
{
    if (n_runs) *n_runs = 0;
    if (n_failed) *n_failed = 0;
    if (!ctx || !k || !v || !seeds || n_seeds <= 0) return pl_fail(PL_ERR_ARG, "pl_check_variant: NULL argument or no seed");
    char why[128] = "";
    pl_status s = pl_variant_check(ctx, v, why, sizeof why);
    if (s != PL_OK) return pl_fail(s, "check: %s cannot run here: %s", v->name, *why ? why : pl_status_name(s));
    int64_t resolved[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, resolved)) != PL_OK) return s;
    /* No case declared: the kernel's first named size with the defaults. */
    pl_check_case first_size = {k->n_named_sizes > 0 ? k->named_sizes[0].size : "1", ""};
    const pl_check_case *cases = k->n_check_cases > 0 ? k->check_cases : &first_size;
    int n_cases = k->n_check_cases > 0 ? k->n_check_cases : 1;
    int runs = 0, failed = 0;
    for (int c = 0; c < n_cases; c++)
        for (int i = 0; i < n_seeds; i++) {
            pl_check_outcome o;
            memset(&o, 0, sizeof o);
            o.index = c * n_seeds + i;
            o.n = n_cases * n_seeds;
            o.check_case = &cases[c];
            o.seed = seeds[i];
            s = run_case(ctx, k, v, resolved, &o);
            if (s == PL_ERR_CANCELLED) return s;
            runs++;
            failed += s != PL_ERR_UNSUPPORTED && !o.passed;
            if (n_runs) *n_runs = runs;
            if (n_failed) *n_failed = failed;
            if (each) each(user, &o);
        }
    return PL_OK;
}
