/* api.c: pl_life, the BLAS-like call: it checks the arguments, builds the problem and runs the
 * best rung this context can (pl_life_variant: a named one; pl_life_variant_problem: a named one
 * on a problem a caller built) on the caller's packed grid through the harness's host runner
 * (device copies for a CUDA rung). */
#include "core/core.h"
#include "kernels/life/life.h"
#include "parlab_rung.h"

#include <string.h>

/* 2.5e11 a CPU thread (the best measured: 9.6e10 a core on 2 cores, 2.2e10 on 16), 1e14 on a
 * GPU (the best measured: 1.08e13 on an H100). */
double pl_life_rate_ceiling(const pl_ctx *ctx)
{
    return pl_ctx_backend(ctx) == PL_BACKEND_CUDA ? 1e14 : 2.5e11 * (double)pl_ctx_threads(ctx);
}

pl_status pl_life_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t W, int64_t H,
                          uint64_t *bits, int64_t gens, const char *rule, int torus)
{
    pl_life_problem p;
    memset(&p, 0, sizeof p);
    p.W = W, p.H = H, p.gens = gens;
    p.topology = torus ? PL_LIFE_TOPO_TORUS : PL_LIFE_TOPO_PLANE;
    pl_status s = pl_life_rule_parse(rule ? rule : "B3/S23", &p.rule);
    if (s != PL_OK) return s;
    return pl_life_variant_problem(ctx, variant, params, &p, bits);
}

pl_status pl_life_variant_problem(pl_ctx *ctx, const char *variant, const int64_t *params, const pl_life_problem *p,
                                  uint64_t *bits)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_life: NULL context");
    const pl_variant *v = pl_variant_find(&pl_life_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "life: unknown variant '%s'", variant ? variant : "(null)");
    if (p->W < 1 || p->H < 1)
        return pl_fail(PL_ERR_ARG, "pl_life: a %lldx%lld grid is empty", (long long)p->W, (long long)p->H);
    if (p->gens < 0) return pl_fail(PL_ERR_ARG, "pl_life: gens %lld is negative", (long long)p->gens);
    if (!bits) return pl_fail(PL_ERR_ARG, "pl_life: NULL grid");
    int64_t cells;
    if (pl_mul_overflow(p->W, p->H, &cells) || cells > INT64_MAX / 4)
        return pl_fail(PL_ERR_OVERFLOW, "life: %lldx%lld overflows 64-bit sizes", (long long)p->W, (long long)p->H);
    if (p->gens == 0) return PL_OK;
    void *host[1] = {bits};
    return pl_run_host(ctx, &pl_life_kernel, v, params, p, host);
}

pl_status pl_life(pl_ctx *ctx, int64_t W, int64_t H, uint64_t *bits, int64_t gens, const char *rule, int torus)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_life: NULL context");
    const pl_life_problem shape = {.W = W, .H = H}; /* what the best rung's pick reads */
    const char *best = pl_best_variant(ctx, &pl_life_kernel, &shape);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_life: no life variant can run in this context");
    return pl_life_variant(ctx, best, NULL, W, H, bits, gens, rule, torus);
}

/* A user's rung (include/parlab_rung.h): the problem as pl_life's arguments, the rule as text. */
pl_status pl_life_call_user(void (*fn)(void), const pl_run_args *a)
{
    const pl_life_problem *p = a->problem;
    uint64_t *bits = a->data[0];
    char rule[32];
    pl_life_rule_format(&p->rule, rule, sizeof rule);
    const int torus = p->topology == PL_LIFE_TOPO_TORUS;
    if (a->stream)
        return pl_rung_returned(a, ((pl_rung_life_cuda)fn)(p->W, p->H, bits, p->gens, rule, torus,
                                                           (pl_rung_stream)a->stream));
    return pl_rung_returned(a, ((pl_rung_life)fn)(p->W, p->H, bits, p->gens, rule, torus));
}
