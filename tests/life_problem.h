/* life_problem.h: how the life tests set up a problem: settings such as "gens=13",
 * "rule=B36/S23", "topology=plane" over the kernel's defaults. Included by test_life.c and
 * test_life_gpu.c. */
#ifndef PL_TEST_LIFE_PROBLEM_H
#define PL_TEST_LIFE_PROBLEM_H
#include "harness/harness.h"
#include "kernels/life/life.h"

#include <string.h>

/* pv: the defaults with each of settings (NULL-terminated) set; PL_OK or the first error. */
static inline pl_status life_settings(pl_pvalues *pv, const char *const *settings)
{
    int given[PL_MAX_PARAMS] = {0};
    pl_pvalues_default(&pl_life_kernel, pv);
    pl_status st = PL_OK;
    for (int i = 0; settings[i] && st == PL_OK; i++) st = pl_pvalues_set(&pl_life_kernel, pv, given, settings[i]);
    return st;
}

/* A soup of the given size and seed with settings, checked in full; NULL on failure (the reason
 * in pl_last_error()). */
static inline pl_problem *life_soup(const char *size, uint64_t seed, const char *const *settings)
{
    pl_pvalues pv;
    pl_problem *p = NULL;
    pl_problem_opts opts = {seed, PL_CHECK_FULL, NULL, NULL};
    if (life_settings(&pv, settings) == PL_OK && pl_problem_create_opts(&p, &pl_life_kernel, size, &pv, &opts) != PL_OK)
        p = NULL;
    return p;
}

/* pl_life (the library call, its rung chosen by size) on a glider on a 37x37 torus: 1 when
 * the glider has moved after 4*37-4 generations and is back where it began 4 later. */
static inline int life_call_glider_returns(pl_ctx *ctx)
{
    uint64_t g[37], start[37];
    memset(start, 0, sizeof start);
    start[0] |= 1ull << 1, start[1] |= 1ull << 2, start[2] |= 7ull; /* the glider */
    memcpy(g, start, sizeof g);
    return pl_life(ctx, 37, 37, g, 4 * 37 - 4, NULL, 1) == PL_OK && memcmp(g, start, sizeof g) &&
           pl_life(ctx, 37, 37, g, 4, NULL, 1) == PL_OK && !memcmp(g, start, sizeof g);
}
#endif
