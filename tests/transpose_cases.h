/* transpose_cases.h: the shapes every transpose rung is tested on, shared by the CPU and GPU
 * tests: degenerate (1x1, 1xN, Nx1), multiples of no tile, rows multiples of 4 (the 128-bit
 * paths) and not, with and without padding (pad 3 breaks 16-byte row alignment). */
#ifndef PL_TEST_TRANSPOSE_CASES_H
#define PL_TEST_TRANSPOSE_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/transpose/transpose.h"

#include <string.h>

static const char *const transpose_shapes[] = {
    "1x1", "1x1000", "1000x1", "33x65", "1000x1000", "4097x31", "1000x3", "36x68", "17x16", "48x33", "4097x4095",
};
enum { N_TRANSPOSE_SHAPES = sizeof transpose_shapes / sizeof transpose_shapes[0] };
static const double transpose_pads[] = {0, 3};

/* Run v with params on every shape and pad (the first n_shapes shapes); each run must be
 * exact, leave B's padding and A alone. */
static void check_transpose_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                                  int n_shapes)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (int s = 0; s < n_shapes; s++)
        for (int c = 0; c < 2; c++) {
            pl_problem *p = NULL;
            pl_status st = pl_problem_create(&p, &pl_transpose_kernel, transpose_shapes[s], &transpose_pads[c],
                                             3 + (uint64_t)s);
            CHECK(st == PL_OK, "problem %s: %s", transpose_shapes[s], pl_last_error());
            if (st != PL_OK) continue;
            pl_result r;
            st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
            CHECK(st == PL_OK, "%s %s pad=%g: run failed: %s", label, transpose_shapes[s], transpose_pads[c],
                  pl_last_error());
            CHECK(st != PL_OK || r.verified,
                  "%s %s pad=%g: not A^T (error %g, worst at B[%lld][%lld]), padding %s, inputs %s", label,
                  transpose_shapes[s], transpose_pads[c], r.error, (long long)r.first.row, (long long)r.first.col,
                  r.padding_ok ? "ok" : "WRITTEN", r.inputs_ok ? "ok" : "CHANGED");
            pl_problem_destroy(p);
        }
}

/* The defaults, then every legal value of each LIST/CHOICE parameter (one at a time, the
 * others at their defaults). A choice the CPU lacks (isa=avx512) must be refused cleanly. */
static void check_transpose_all_params(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    for_each_param_value(ctx, v, 0, &pl_transpose_kernel,
                         "skipped: %s isa=avx512 runs: no AVX-512 here (refusal checked)\n", check_transpose_cases,
                         n_shapes);
}

#endif
