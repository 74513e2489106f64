/* gemv_cases.h: the shapes and scalars every GEMV rung is tested on, shared by the CPU and
 * GPU tests: 1x1, a single row, a single column, shapes that are multiples of no tile or
 * block (33x65, 4097x31), and a square one; both forms, with and without beta and padding. */
#ifndef PL_TEST_GEMV_CASES_H
#define PL_TEST_GEMV_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/gemv/gemv.h"

#include <string.h>

static const char *const gemv_shapes[] = {
    "1x1", "1x1000", "1000x1", "33x65", "1000x1000", "4097x31", "7x13", "3x300", "300x3",
};
enum { N_GEMV_SHAPES = sizeof gemv_shapes / sizeof gemv_shapes[0] };

/* alpha, beta, trans (0 n, 1 t), pad (lda = N + pad) */
static const double gemv_scalars[][4] = {
    {1.0, 0.0, 0, 0}, {2.5, 0.0, 0, 3}, {-0.5, 0.75, 0, 5}, {1.0, 0.0, 1, 0}, {1.0, 1.0, 1, 0}, {-0.5, 0.75, 1, 5},
};
enum { N_GEMV_SCALARS = sizeof gemv_scalars / sizeof gemv_scalars[0] };

/* Run variant v with params on every shape and scalar set (shapes limited to n_shapes); each
 * run must verify. */
static void check_gemv_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label, int n_shapes)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (int s = 0; s < n_shapes && s < N_GEMV_SHAPES; s++) {
        for (int c = 0; c < N_GEMV_SCALARS; c++) {
            pl_problem *p = NULL;
            pl_status st = pl_problem_create(&p, &pl_gemv_kernel, gemv_shapes[s], gemv_scalars[c], 7 + (uint64_t)s);
            CHECK(st == PL_OK, "problem %s: %s", gemv_shapes[s], pl_last_error());
            if (st != PL_OK) continue;
            pl_result r;
            st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
            CHECK(st == PL_OK, "%s %s: run failed: %s", label, gemv_shapes[s], pl_last_error());
            CHECK(st != PL_OK || r.verified,
                  "%s %s alpha=%g beta=%g trans=%s pad=%g: error %.3e (bound %.3e), worst element %.3g x its bound "
                  "at %lld, inputs %s", label, gemv_shapes[s], gemv_scalars[c][0], gemv_scalars[c][1],
                  gemv_scalars[c][2] ? "t" : "n", gemv_scalars[c][3], r.error, r.bound, r.first.elem_ratio,
                  (long long)r.first.col, r.inputs_ok ? "ok" : "CHANGED");
            pl_problem_destroy(p);
        }
    }
}

/* Every legal value of every LIST/CHOICE parameter, one at a time (the others at their
 * defaults); a choice this CPU cannot run (isa=avx512 without AVX-512) must be refused. */
static void check_gemv_all_params(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    for_each_param_value(ctx, v, PARAM_SKIP_DEFAULT, &pl_gemv_kernel, NULL, check_gemv_cases, n_shapes);
}

#endif
