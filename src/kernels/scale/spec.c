/* spec.c: what scale is, independent of any rung: the size, the operands, seeded inputs, the
 * float64 reference and its bound, and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/ladder.h"
#include "kernels/scale/scale.h"

#include <math.h>
#include <stdio.h>

pl_status pl_scale_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_scale_problem *p = problem;
    int64_t n;
    pl_status s = pl_parse_dims("scale", size, 1, NULL, &n);
    if (s != PL_OK) return s;
    *p = (pl_scale_problem){n, (float)pv->num[PL_SCALE_PROBLEM_A]};
    return PL_OK;
}

void pl_scale_spec_describe(const void *problem, char *buf, size_t n)
{
    snprintf(buf, n, "%lld", (long long)((const pl_scale_problem *)problem)->N);
}

pl_status pl_scale_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_scale_problem *p = problem;
    t[0] = (pl_tensor){"x", PL_F32, PL_IN, 1, p->N, p->N, NULL};
    t[1] = (pl_tensor){"y", PL_F32, PL_OUT, 1, p->N, p->N, NULL};
    *n = 2;
    return PL_OK;
}

void pl_scale_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)problem, (void)n;
    pl_fill_f32(t[0].host, pl_tensor_span(&t[0]), seed);
}

/* ref = a*x in float64 (the product of two floats is exact there); scale = |a*x|. */
pl_status pl_scale_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_scale_problem *p = problem;
    const float *x = t[0].host;
    double *r = ref[1].host, *s = scale[1].host;
    for (int64_t i = 0; i < p->N; i++) {
        r[i] = (double)p->a * (double)x[i];
        s[i] = fabs(r[i]);
    }
    return PL_OK;
}

double pl_scale_spec_elements(const void *problem) { return (double)((const pl_scale_problem *)problem)->N; }

/* One float32 multiply: one rounding, within half an ulp, 2^-24 of |a*x| (and so of the
 * Frobenius norm). */
double pl_scale_spec_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)problem, (void)prec;
    if (why) *why = "one float32 rounding of a*x: |y - a*x| <= 2^-24 |a*x|";
    return ldexp(1.0, -24);
}

/* x read once and y written once, 4 bytes each. */
double pl_scale_spec_bytes(const void *problem) { return 8.0 * pl_scale_spec_elements(problem); }
double pl_scale_spec_bytes_written(const void *problem) { return 4.0 * pl_scale_spec_elements(problem); }

const pl_param_def pl_scale_problem_params[] = {
    [PL_SCALE_PROBLEM_A] = {.name = "a", .help = "the factor", .kind = PL_PARAM_REAL, .def = 1.5},
};
PL_CHECK_COUNT(pl_scale_problem_params, PL_SCALE_PROBLEM_N_PARAMS);
