/* spec.c: what GEMV is, independent of any rung: sizes, operands, inputs, the float64
 * reference with each element's bound scale, the bounds, and the counts of traffic. GEMV
 * reads each element of A once for two flops: it is bound by memory bandwidth, so its unit
 * is the byte (GB/s) and its ceiling the measured copy bandwidth. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/gemv/gemv.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pl_status pl_gemv_check(const pl_gemv_problem *p)
{
    if (p->M <= 0 || p->N <= 0)
        return pl_fail(PL_ERR_ARG, "gemv: sizes must be positive (M=%lld N=%lld)", (long long)p->M, (long long)p->N);
    if (p->lda < p->N)
        return pl_fail(PL_ERR_ARG, "gemv: lda = %lld is smaller than a row of A (N = %lld)", (long long)p->lda,
                       (long long)p->N);
    if (p->trans != 0 && p->trans != 1) return pl_fail(PL_ERR_ARG, "gemv: trans must be n or t");
    int64_t a;
    if (pl_mul_overflow(p->M, p->lda, &a) || pl_mul_overflow(a, 8, &a))
        return pl_fail(PL_ERR_OVERFLOW, "gemv: %lldx%lld overflows 64-bit sizes", (long long)p->M, (long long)p->N);
    if (!isfinite(p->alpha) || !isfinite(p->beta)) return pl_fail(PL_ERR_ARG, "gemv: alpha and beta must be finite");
    return PL_OK;
}

/* ---------------------------------------------------------------- sizes */

/* "4096" (square) or "MxN" (named sizes are resolved by the harness from ladder.c's table). */
pl_status pl_gemv_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_gemv_problem *p = problem;
    int64_t d[2];
    pl_status s = pl_parse_dims("gemv", size, 2, "MxN", d);
    if (s != PL_OK) return s;
    p->M = d[0];
    p->N = d[1];
    p->alpha = (float)pv->num[PL_GEMV_PROBLEM_ALPHA];
    p->beta = (float)pv->num[PL_GEMV_PROBLEM_BETA];
    p->trans = (int)pv->num[PL_GEMV_PROBLEM_TRANS];
    p->lda = p->N + (int64_t)pv->num[PL_GEMV_PROBLEM_PAD];
    return pl_gemv_check(p);
}

void pl_gemv_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_gemv_problem *p = problem;
    const char *t = p->trans ? " T" : "";
    if (p->M == p->N) snprintf(buf, n, "%lld%s", (long long)p->M, t);
    else snprintf(buf, n, "%lldx%lld%s", (long long)p->M, (long long)p->N, t);
}

pl_status pl_gemv_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_gemv_problem *p = problem;
    int64_t nx = pl_gemv_xlen(p), ny = pl_gemv_ylen(p);
    t[0] = (pl_tensor){"A", PL_F32, PL_IN, p->M, p->N, p->lda, NULL};
    t[1] = (pl_tensor){"x", PL_F32, PL_IN, 1, nx, nx, NULL};
    /* beta == 0: y is only written, so the harness poisons it (a rung that reads it fails). */
    t[2] = (pl_tensor){"y", PL_F32, p->beta == 0.0f ? PL_OUT : PL_INOUT, 1, ny, ny, NULL};
    *n = 3;
    return PL_OK;
}

void pl_gemv_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)problem;
    for (int i = 0; i < n; i++)
        if (t[i].role != PL_OUT) pl_fill_f32(t[i].host, pl_tensor_span(&t[i]), seed + 1000003u * (uint64_t)i);
}

/* ---------------------------------------------------------------- reference */

/* float64 sums and sums of magnitudes (|A||x|, which the element bound scales). trans = n:
 * a dot product per row. trans = t: bands of columns, each walking all rows, so A is still
 * read along its rows; the compiler vectorizes the column loop (target_clones). */
enum { REF_COLS = 512 };

__attribute__((target_clones("avx512f", "avx2", "default")))
static void ref_columns(const pl_gemv_problem *p, const float *A, const float *x, double *acc, double *mag,
                        int64_t j0, int64_t w)
{
    for (int64_t i = 0; i < p->M; i++) {
        const float *restrict a = A + i * p->lda + j0;
        double xi = x[i], xm = fabs(xi);
        for (int64_t j = 0; j < w; j++) {
            acc[j] += (double)a[j] * xi;
            mag[j] += fabs((double)a[j]) * xm;
        }
    }
}

static void ref_store(const pl_gemv_problem *p, const float *y0, double *R, double *S, int64_t i, double sum, double mag)
{
    double r = (double)p->alpha * sum, m = fabs((double)p->alpha) * mag;
    if (p->beta != 0.0f) {
        r += (double)p->beta * y0[i];
        m += fabs((double)p->beta * y0[i]);
    }
    R[i] = r;
    S[i] = m;
}

pl_status pl_gemv_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_gemv_problem *p = problem;
    const float *A = t[0].host, *x = t[1].host, *y0 = t[2].host;
    double *R = ref[2].host, *S = scale[2].host;
    if (!p->trans) {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < p->M; i++) {
            const float *a = A + i * p->lda;
            double sum = 0, mag = 0;
            for (int64_t k = 0; k < p->N; k++) {
                sum += (double)a[k] * x[k];
                mag += fabs((double)a[k] * x[k]);
            }
            ref_store(p, y0, R, S, i, sum, mag);
        }
        return PL_OK;
    }
#pragma omp parallel for schedule(dynamic)
    for (int64_t j0 = 0; j0 < p->N; j0 += REF_COLS) {
        double acc[REF_COLS] = {0}, mag[REF_COLS] = {0};
        int64_t w = p->N - j0 < REF_COLS ? p->N - j0 : REF_COLS;
        ref_columns(p, A, x, acc, mag, j0, w);
        for (int64_t j = 0; j < w; j++) ref_store(p, y0, R, S, j0 + j, acc[j], mag[j]);
    }
    return PL_OK;
}

double pl_gemv_spec_reference_ops(const void *problem)
{
    const pl_gemv_problem *p = problem;
    return 4.0 * (double)p->M * (double)p->N; /* the sums and the magnitudes */
}

/* ---------------------------------------------------------------- bounds */

/* Relative Frobenius: each output is a K-term dot product (K = the length of x) of inputs
 * uniform in [-1,1); random-sign rounding errors grow like u*sqrt(K); 8u(sqrt(K)+1) leaves a
 * wide margin for any summation order (per-thread partial sums included). */
double pl_gemv_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_gemv_problem *p = problem;
    if (why) *why = "FP32: 8u(sqrt(K)+1), K the length of x, u=2^-24: random-sign rounding grows like u*sqrt(K)";
    return 8.0 * ldexp(1.0, -24) * (sqrt((double)pl_gemv_xlen(p)) + 1.0);
}

/* Element by element, the dot-product bound for any summation order:
 * |y - ref|_i <= gamma_(K+2) (|alpha||op(A)||x| + |beta||y0|)_i, gamma_n = nu/(1 - nu): K
 * terms, the alpha scaling (or alpha folded into x) and the beta add. */
double pl_gemv_spec_elem_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_gemv_problem *p = problem;
    const double nu = (double)(pl_gemv_xlen(p) + 2) * ldexp(1.0, -24);
    if (why) *why = "FP32: gamma_(K+2) (|alpha||op(A)||x| + |beta||y0|), gamma_n = nu/(1-nu), u=2^-24, each element";
    return nu / (1.0 - nu);
}

/* ---------------------------------------------------------------- counts */

/* The fewest bytes: A and x read once, y written once (and read once when beta != 0). */
double pl_gemv_spec_bytes(const void *problem)
{
    const pl_gemv_problem *p = problem;
    double y = (double)pl_gemv_ylen(p) * (p->beta != 0.0f ? 2 : 1);
    return 4.0 * ((double)p->M * (double)p->N + (double)pl_gemv_xlen(p) + y);
}

/* Of those, y written once. */
double pl_gemv_spec_bytes_written(const void *problem)
{
    return 4.0 * (double)pl_gemv_ylen((const pl_gemv_problem *)problem);
}

double pl_gemv_spec_flops(const void *problem)
{
    const pl_gemv_problem *p = problem;
    return 2.0 * (double)p->M * (double)p->N;
}

/* ---------------------------------------------------------------- problem parameters */

static const char *const trans_choices[] = {"n", "t", NULL};
const pl_param_def pl_gemv_problem_params[] = {
    [PL_GEMV_PROBLEM_ALPHA] =
        {.name = "alpha", .help = "y = alpha*op(A)*x + beta*y", .kind = PL_PARAM_REAL, .def = 1.0},
    [PL_GEMV_PROBLEM_BETA] = {.name = "beta", .help = "0: y is write-only", .kind = PL_PARAM_REAL, .def = 0.0},
    [PL_GEMV_PROBLEM_TRANS] =
        {.name = "trans", .help = "op(A): n = A (y has M elements), t = A^T (y has N)",
         .kind = PL_PARAM_CHOICE, .choices = trans_choices, .def = 0},
    [PL_GEMV_PROBLEM_PAD] =
        {.name = "pad", .help = "extra elements per row of A: lda = N+pad",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0.0},
};
PL_CHECK_COUNT(pl_gemv_problem_params, PL_GEMV_PROBLEM_N_PARAMS);
