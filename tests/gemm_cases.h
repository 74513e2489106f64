/* gemm_cases.h: the shapes and scalars every GEMM rung is tested on, shared by the CPU and
 * GPU tests. None is a multiple of a tile; some have a dimension of 1. */
#ifndef PL_TEST_GEMM_CASES_H
#define PL_TEST_GEMM_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"

#include <stdlib.h>
#include <string.h>

static const char *const gemm_shapes[] = {
    "1x1x1", "7x13x5", "33x65x17", "127x1x255", "1x129x64", "257x129x300", "64x64x64", "100x3x1000",
};
enum { N_GEMM_SHAPES = sizeof gemm_shapes / sizeof gemm_shapes[0] };

/* alpha, beta, pad (lda = K + pad, ldb = ldc = N + pad) */
static const double gemm_scalars[][3] = {
    {1.0, 0.0, 0.0}, {2.5, 0.0, 3.0}, {1.0, 1.0, 0.0}, {-0.5, 0.75, 5.0},
};
enum { N_GEMM_SCALARS = sizeof gemm_scalars / sizeof gemm_scalars[0] };

/* PL_SANITIZER=racecheck (scripts/gpu_sanitize.sh's racecheck runs): racecheck's cost is per
 * shared-memory access, so every rung and every parameter value runs on two shapes that still
 * reach each shared-memory path: 7x13x5 (one partial tile: the edge loads alone) and 257x129x300
 * (full tiles, edge tiles in M and N, and K deep enough for every stage of the pipelines and a
 * split). */
static const int gemm_racecheck_shapes[] = {1, 5};

static int gemm_racecheck(void)
{
    const char *env = getenv("PL_SANITIZER");
    return env && !strcmp(env, "racecheck");
}

/* Run variant v with params on every shape and scalar set; each run must verify. */
static void check_variant_on_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    /* under compute-sanitizer (PL_SANITIZER), a parameter value other than the defaults runs
     * the last alpha/beta set only (beta != 0 and padded rows: every path of the epilogue) */
    const int sanitizer = getenv("PL_SANITIZER") != NULL;
    const int c_first = params && sanitizer ? N_GEMM_SCALARS - 1 : 0;
    const int n_shapes = gemm_racecheck() ? 2 : N_GEMM_SHAPES;
    for (int i = 0; i < n_shapes; i++) {
        const int s = gemm_racecheck() ? gemm_racecheck_shapes[i] : i;
        for (int c = c_first; c < N_GEMM_SCALARS; c++) {
            pl_problem *p = NULL;
            /* alpha, beta, pad, and the dtype the rung takes: bf16 for a BF16 rung */
            const double pv[PL_GEMM_PROBLEM_N_PARAMS] = {gemm_scalars[c][0], gemm_scalars[c][1], gemm_scalars[c][2],
                                                         v->precision == PL_PREC_BF16 ? PL_GEMM_DTYPE_BF16 : 0};
            pl_status st = pl_problem_create(&p, &pl_gemm_kernel, gemm_shapes[s], pv, 7 + (uint64_t)s);
            CHECK(st == PL_OK, "problem %s: %s", gemm_shapes[s], pl_last_error());
            if (st != PL_OK) continue;
            pl_result r;
            st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
            CHECK(st == PL_OK, "%s %s: run failed: %s", label, gemm_shapes[s], pl_last_error());
            CHECK(st != PL_OK || r.verified, "%s %s alpha=%g beta=%g pad=%g: error %.3e > bound %.3e (padding %s)",
                  label, gemm_shapes[s], gemm_scalars[c][0], gemm_scalars[c][1], gemm_scalars[c][2],
                  r.error, r.bound, r.padding_ok ? "ok" : "WRITTEN");
            pl_problem_destroy(p);
        }
    }
}

/* check_variant_on_cases with the parameter loop's signature (GEMM checks every shape). */
static void check_variant_on_cases_n(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                                     int n_shapes)
{
    (void)n_shapes;
    check_variant_on_cases(ctx, v, params, label);
}

/* Every legal value of every LIST/CHOICE parameter, one parameter at a time (the others at
 * their defaults); RANGE parameters at min, default and max. */
static void check_variant_all_params(pl_ctx *ctx, const pl_variant *v)
{
    for_each_param_value(ctx, v, PARAM_RANGES, &pl_gemm_kernel, NULL, check_variant_on_cases_n, 0);
}

#endif
