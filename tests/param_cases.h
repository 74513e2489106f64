/* param_cases.h: the kernel-neutral part of the *_cases.h headers: running a check over every
 * legal value of a variant's parameters, one parameter at a time, the others at their
 * defaults. Each kernel's header passes its own check of one parameter set (param_case_fn). */
#ifndef PL_TEST_PARAM_CASES_H
#define PL_TEST_PARAM_CASES_H

#include "check.h"
#include "harness/harness.h"

#include <stdio.h>
#include <string.h>

/* One parameter set's checks: params NULL for the defaults; n_shapes passed through. */
typedef void (*param_case_fn)(pl_ctx *ctx, const pl_variant *v, const int64_t *params, const char *label,
                              int n_shapes);

enum {
    PARAM_RANGES = 1,       /* RANGE parameters at min and max too */
    PARAM_SKIP_DEFAULT = 2, /* a value equal to the default is not run again */
};

/* for_each_param_value: fn on the defaults (label: the variant's name), then on every value of
 * every LIST parameter and every choice of every CHOICE parameter (with PARAM_RANGES, a RANGE
 * parameter's min and max), labelled "variant name=value". A choice this CPU cannot run
 * (isa=avx512 without AVX-512) is not run: where refuse_on names the kernel, it must be
 * refused (PL_ERR_UNSUPPORTED) on a size-8 problem; where skip_note is given, it is printed
 * (one %s, the variant's name). */
static void for_each_param_value(pl_ctx *ctx, const pl_variant *v, int flags, const pl_kernel *refuse_on,
                                 const char *skip_note, param_case_fn fn, int n_shapes)
{
    char label[128];
    fn(ctx, v, NULL, v->name, n_shapes);
    for (int i = 0; i < v->n_params; i++) {
        const pl_param_def *d = &v->params[i];
        int64_t vals[64];
        int n = 0;
        if (d->kind == PL_PARAM_LIST) for (int j = 0; j < d->n_values; j++) vals[n++] = d->values[j];
        else if (d->kind == PL_PARAM_CHOICE) for (int j = 0; d->choices[j]; j++) vals[n++] = j;
        else if (d->kind == PL_PARAM_RANGE && (flags & PARAM_RANGES)) { vals[n++] = d->min; vals[n++] = d->max; }
        for (int j = 0; j < n; j++) {
            int64_t params[PL_MAX_PARAMS];
            for (int k = 0; k < v->n_params; k++) params[k] = (int64_t)v->params[k].def;
            params[i] = vals[j];
            if ((flags & PARAM_SKIP_DEFAULT) && vals[j] == (int64_t)d->def) continue; /* ran above */
            if (d->kind == PL_PARAM_CHOICE && !strcmp(d->choices[vals[j]], "avx512") &&
                !(pl_features() & PL_FEAT_AVX512)) {
                if (refuse_on) {
                    pl_problem *pr = NULL;
                    pl_status st = pl_problem_create(&pr, refuse_on, "8", NULL, 1);
                    pl_result r;
                    if (st == PL_OK) st = pl_bench_variant(ctx, pr, v, params, NULL, &r);
                    CHECK(st == PL_ERR_UNSUPPORTED, "%s isa=avx512 without AVX-512 should be refused", v->name);
                    pl_problem_destroy(pr);
                }
                if (skip_note) printf(skip_note, v->name);
                continue;
            }
            snprintf(label, sizeof label, "%s %s=%lld", v->name, d->name, (long long)vals[j]);
            fn(ctx, v, params, label, n_shapes);
        }
    }
}

#endif
