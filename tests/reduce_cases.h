/* reduce_cases.h: the shapes, ops, axes and pitches every reduce and dot rung is tested on,
 * shared by the CPU and GPU tests. None is a multiple of a block; some have a dimension of 1. */
#ifndef PL_TEST_REDUCE_CASES_H
#define PL_TEST_REDUCE_CASES_H

#include "check.h"
#include "param_cases.h"
#include "harness/harness.h"
#include "kernels/reduce/reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const reduce_shapes[] = {"1x1", "1x7", "7x1", "33x65", "1000x1000", "4097x31", "3x50000", "1x100003"};
enum { N_REDUCE_SHAPES = sizeof reduce_shapes / sizeof reduce_shapes[0] };
static const int reduce_offsets[] = {0, 1, 3};
static const char *const dot_sizes_tested[] = {"1", "7", "1000", "100003", "1048577"};

/* Run v (params may be NULL) on shapes[0..n_shapes), every op, both axes, every offset. */
static void check_reduce_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                               const char *const *shapes, int n_shapes)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (int s = 0; s < n_shapes; s++)
        for (int op = 0; op < PL_REDUCE_N_OPS; op++)
            for (int axis = 0; axis < 2; axis++)
                for (int o = 0; o < 3; o++) {
                    double pv[3] = {op, axis, reduce_offsets[o]};
                    pl_problem *p = NULL;
                    pl_status st = pl_problem_create(&p, &pl_reduce_kernel, shapes[s], pv, 5 + (uint64_t)s);
                    CHECK(st == PL_OK, "problem %s: %s", shapes[s], pl_last_error());
                    if (st != PL_OK) continue;
                    pl_result r;
                    st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
                    if (st == PL_ERR_UNSUPPORTED && v->is_peer) { /* peer-cub: columns, sumsq */
                        pl_problem_destroy(p);
                        continue;
                    }
                    CHECK(st == PL_OK, "%s %s op=%s axis=%d offset=%d: run failed: %s", label, shapes[s],
                          pl_reduce_op_names[op], axis, reduce_offsets[o], pl_last_error());
                    CHECK(st != PL_OK || r.verified,
                          "%s %s op=%s axis=%d offset=%d: error %.3e (bound %.3e), worst element %lld at %.3g x its "
                          "bound", label, shapes[s], pl_reduce_op_names[op], axis, reduce_offsets[o], r.error,
                          r.bound, (long long)r.first.col, r.first.elem_ratio);
                    pl_problem_destroy(p);
                }
}

static void check_dot_cases(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label)
{
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    /* under compute-sanitizer (PL_SANITIZER): the sizes up to 100003 */
    const int n_sizes = (int)(sizeof dot_sizes_tested / sizeof *dot_sizes_tested) - (getenv("PL_SANITIZER") ? 1 : 0);
    for (int s = 0; s < n_sizes; s++) {
        pl_problem *p = NULL;
        pl_status st = pl_problem_create(&p, &pl_dot_kernel, dot_sizes_tested[s], NULL, 9 + (uint64_t)s);
        CHECK(st == PL_OK, "dot problem %s: %s", dot_sizes_tested[s], pl_last_error());
        if (st != PL_OK) continue;
        pl_result r;
        st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
        CHECK(st == PL_OK && r.verified, "dot %s %s: %s error %.3e bound %.3e", label, dot_sizes_tested[s],
              st == PL_OK ? "" : pl_last_error(), r.error, r.bound);
        pl_problem_destroy(p);
    }
}

/* The defaults on every shape, a parameter set on the first n_shapes. */
static void check_reduce_cases_n(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                                 int n_shapes)
{
    check_reduce_cases(ctx, v, params, label, reduce_shapes, params ? n_shapes : N_REDUCE_SHAPES);
}

/* Every value of the variant's LIST/CHOICE parameters, one at a time (the others at defaults),
 * on the first n_shapes shapes; the defaults on all of them. */
static void check_reduce_all_params(pl_ctx *ctx, const pl_variant *v, int n_shapes)
{
    for_each_param_value(ctx, v, 0, NULL, "skipped: %s isa=avx512: no AVX-512 on this CPU\n", check_reduce_cases_n,
                         n_shapes);
}

#endif
