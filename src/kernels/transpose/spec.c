/* spec.c: what transpose is, independent of any rung: sizes, operands, inputs, the
 * reference (A^T itself: nothing is computed, so the check is equality) and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/transpose/transpose.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

pl_status pl_transpose_check(const pl_transpose_problem *p)
{
    if (p->M <= 0 || p->N <= 0)
        return pl_fail(PL_ERR_ARG, "transpose: sizes must be positive (M=%lld N=%lld)", (long long)p->M,
                       (long long)p->N);
    if (p->lda < p->N)
        return pl_fail(PL_ERR_ARG, "transpose: lda = %lld is smaller than a row of A (N = %lld)",
                       (long long)p->lda, (long long)p->N);
    if (p->ldb < p->M)
        return pl_fail(PL_ERR_ARG, "transpose: ldb = %lld is smaller than a row of B (M = %lld)",
                       (long long)p->ldb, (long long)p->M);
    int64_t a, b;
    if (pl_mul_overflow(p->M, p->lda, &a) || pl_mul_overflow(p->N, p->ldb, &b) || pl_mul_overflow(a, 8, &a) ||
        pl_mul_overflow(b, 8, &b))
        return pl_fail(PL_ERR_OVERFLOW, "transpose: %lldx%lld overflows 64-bit sizes", (long long)p->M,
                       (long long)p->N);
    return PL_OK;
}

pl_status pl_transpose_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_transpose_problem *p = problem;
    int64_t d[2];
    pl_status s = pl_parse_dims("transpose", size, 2, "MxN", d);
    if (s != PL_OK) return s;
    int64_t pad = (int64_t)pv->num[PL_TRANSPOSE_PROBLEM_PAD];
    *p = (pl_transpose_problem){d[0], d[1], d[1] + pad, d[0] + pad};
    return pl_transpose_check(p);
}

void pl_transpose_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_transpose_problem *p = problem;
    if (p->M == p->N) snprintf(buf, n, "%lld", (long long)p->M);
    else snprintf(buf, n, "%lldx%lld", (long long)p->M, (long long)p->N);
}

pl_status pl_transpose_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_transpose_problem *p = problem;
    t[0] = (pl_tensor){"A", PL_F32, PL_IN, p->M, p->N, p->lda, NULL};
    t[1] = (pl_tensor){"B", PL_F32, PL_OUT, p->N, p->M, p->ldb, NULL};
    *n = 2;
    return PL_OK;
}

void pl_transpose_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)problem, (void)n;
    pl_fill_f32(t[0].host, pl_tensor_span(&t[0]), seed);
}

/* ref = A^T in float64 (exactly A's values); the scale is never used (bound 0: equality). */
pl_status pl_transpose_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref,
                                      pl_tensor *scale)
{
    (void)n;
    const pl_transpose_problem *p = problem;
    const float *A = t[0].host;
    double *R = ref[1].host, *S = scale[1].host;
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < p->N; j++)
        for (int64_t i = 0; i < p->M; i++) {
            R[j * p->M + i] = A[i * p->lda + j];
            if (S) S[j * p->M + i] = 1.0;
        }
    return PL_OK;
}

double pl_transpose_spec_elements(const void *problem)
{
    const pl_transpose_problem *p = problem;
    return (double)p->M * (double)p->N;
}

double pl_transpose_spec_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)problem, (void)prec;
    if (why) *why = "exact: a transpose moves values and computes nothing, so B must equal A^T bit for bit";
    return 0.0;
}

double pl_transpose_spec_ops(const void *problem)
{
    (void)problem;
    return 0.0; /* no arithmetic: the memory ceiling alone bounds it */
}

/* Each element of A read once and each element of B written once, 4 bytes each. */
double pl_transpose_spec_bytes(const void *problem)
{
    return 8.0 * pl_transpose_spec_elements(problem);
}

/* Of those, B written once: half. */
double pl_transpose_spec_bytes_written(const void *problem) { return 4.0 * pl_transpose_spec_elements(problem); }

const pl_param_def pl_transpose_problem_params[] = {
    [PL_TRANSPOSE_PROBLEM_PAD] =
        {.name = "pad", .help = "extra elements per row: lda = N+pad, ldb = M+pad",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0.0},
};
PL_CHECK_COUNT(pl_transpose_problem_params, PL_TRANSPOSE_PROBLEM_N_PARAMS);
