/* spec.c: what reduce and dot are, independent of any rung: sizes, operands, inputs, the
 * float64 reference with each element's bound scale, the bounds, and the counts. */
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/reduce/reduce.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pl_reduce_op_names[] = {"sum", "mean", "min", "max", "sumsq", NULL};
static const char *const axis_names[] = {"0", "1", NULL};

const pl_param_def pl_reduce_problem_params[] = {
    [PL_REDUCE_PROBLEM_OP] =
        {.name = "op", .help = "what each row or column is reduced to",
         .kind = PL_PARAM_CHOICE, .choices = pl_reduce_op_names, .def = PL_REDUCE_SUM},
    [PL_REDUCE_PROBLEM_AXIS] =
        {.name = "axis", .help = "1: one value per row (NumPy axis=1); 0: one value per column",
         .kind = PL_PARAM_CHOICE, .choices = axis_names, .def = 1},
    [PL_REDUCE_PROBLEM_OFFSET] =
        {.name = "offset", .help = "elements added to the row pitch (lda = N + offset): 1 breaks 128-byte row "
                                   "alignment",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0.0},
};
PL_CHECK_COUNT(pl_reduce_problem_params, PL_REDUCE_PROBLEM_N_PARAMS);

pl_status pl_reduce_check(const pl_reduce_problem *p)
{
    if (p->M <= 0 || p->N <= 0)
        return pl_fail(PL_ERR_ARG, "reduce: sizes must be positive (M=%lld N=%lld)", (long long)p->M, (long long)p->N);
    if (p->lda < p->N)
        return pl_fail(PL_ERR_ARG, "reduce: lda = %lld is smaller than a row of A (N = %lld)", (long long)p->lda,
                       (long long)p->N);
    if (p->op < 0 || p->op >= PL_REDUCE_N_OPS) return pl_fail(PL_ERR_ARG, "reduce: unknown op %d", p->op);
    if (p->axis != 0 && p->axis != 1) return pl_fail(PL_ERR_ARG, "reduce: axis must be 0 or 1 (got %d)", p->axis);
    int64_t a;
    if (pl_mul_overflow(p->M, p->lda, &a) || pl_mul_overflow(a, 8, &a))
        return pl_fail(PL_ERR_OVERFLOW, "reduce: %lldx%lld overflows 64-bit sizes", (long long)p->M, (long long)p->N);
    return PL_OK;
}

pl_status pl_dot_check(const pl_dot_problem *p)
{
    if (p->N <= 0) return pl_fail(PL_ERR_ARG, "dot: the length must be positive (N=%lld)", (long long)p->N);
    if (p->N > INT64_MAX / 16) return pl_fail(PL_ERR_OVERFLOW, "dot: N=%lld overflows 64-bit sizes", (long long)p->N);
    return PL_OK;
}

/* ---------------------------------------------------------------- sizes */

pl_status pl_reduce_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_reduce_problem *p = problem;
    int64_t d[2] = {0, 0};
    pl_status s = pl_parse_dims("reduce", size, 2, "MxN", d);
    if (s != PL_OK) return s;
    p->M = d[0];
    p->N = d[1];
    p->op = (int)pv->num[PL_REDUCE_PROBLEM_OP];
    p->axis = (int)pv->num[PL_REDUCE_PROBLEM_AXIS];
    p->offset = (int64_t)pv->num[PL_REDUCE_PROBLEM_OFFSET];
    p->lda = p->N + p->offset;
    return pl_reduce_check(p);
}

void pl_reduce_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_reduce_problem *p = problem;
    snprintf(buf, n, "%lldx%lld", (long long)p->M, (long long)p->N);
}

pl_status pl_reduce_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_reduce_problem *p = problem;
    int64_t R = pl_reduce_outputs(p);
    t[0] = (pl_tensor){"A", PL_F32, PL_IN, p->M, p->N, p->lda, NULL};
    t[1] = (pl_tensor){"r", PL_F32, PL_OUT, 1, R, R, NULL};
    *n = 2;
    return PL_OK;
}

/* Exact inputs. A dropped term hides under a gamma_n sum|a| bound (100002 ones and a final 1000
 * summed to 100002 passed it), so the inputs are drawn on a grid where every sum is exact: each
 * value is k 2^-b with |k| <= 2^b (|x| <= 1; squares and products of two are multiples of
 * q = 2^-2b, at most 2^2b of them), b the largest (at most 6: 129 values) with n 2^2b <= 2^24
 * for n terms. Then sum|term| <= 2^24 q, and every partial sum of the terms, in any order, is a
 * multiple of q no larger than that: a float32 (24-bit significand) holds it exactly, so a
 * correct rung returns the exact sum, and the reference asks for it (grid_exact and the scale
 * of 0 below), where one lost nonzero term is a failure. n > 2^24 gets b = 0 (-1, 0, 1); the
 * reference checks the condition on the data and falls back to the gamma bound where it fails
 * (dot's large 10^8). Inputs not from this fill (a file) are checked the same way. */
static int grid_bits(int64_t n)
{
    int b = 0;
    while (b < 6 && ldexp((double)n, 2 * (b + 1)) <= ldexp(1.0, 24)) b++;
    return b;
}

static void fill_grid(float *x, int64_t len, int64_t terms, uint64_t seed)
{
    pl_fill_f32(x, len, seed);
    const float up = ldexpf(1.0f, grid_bits(terms)), down = 1.0f / up;
#pragma omp parallel for schedule(static) if (len > (1 << 22))
    for (int64_t i = 0; i < len; i++) x[i] = rintf(x[i] * up) * down;
}

/* Is x a multiple of 2^-b? (NaN is not.) */
static inline int on_grid(double x, int b)
{
    double k = ldexp(x, b);
    return k == rint(k);
}

/* A sum of terms that are multiples of q with sum|term| <= 2^24 q is exact in float32 in any
 * order (above): mag is that sum|term|, q_bits the grid of the terms. */
static inline int grid_exact(int all_on_grid, double mag, int q_bits)
{
    return all_on_grid && ldexp(mag, q_bits) <= ldexp(1.0, 24);
}

static double gamma_or_stat(double n);

void pl_reduce_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    fill_grid(t[0].host, pl_tensor_span(&t[0]), pl_reduce_terms(problem), seed);
}

/* ---------------------------------------------------------------- reference */

/* Fold one term into a float64 accumulator; min/max propagate NaN. */
static inline void fold(int op, double x, double *acc, double *mag)
{
    switch (op) {
    case PL_REDUCE_MIN: if (*acc == *acc && (x != x || x < *acc)) *acc = x; break;
    case PL_REDUCE_MAX: if (*acc == *acc && (x != x || x > *acc)) *acc = x; break;
    case PL_REDUCE_SUMSQ: *acc += x * x, *mag += x * x; break;
    default: *acc += x, *mag += fabs(x); break;
    }
}

static double start(int op) { return op == PL_REDUCE_MIN ? INFINITY : op == PL_REDUCE_MAX ? -INFINITY : 0.0; }

/* float64 per output, and its scale: the sum of the terms' magnitudes (sum |a| for sum, sum a^2
 * for sumsq, divided by the count for mean; |result| for min/max, whose bound is 0). A float64
 * sum of at most 2^31 float terms is exact to far below the float32 bounds. Where the sum is
 * exact in float32 (grid_exact: the fill's inputs), sum and sumsq get a scale of 0 (the exact
 * result is required) and mean one for 2^-22 |result|: the exact sum, then one rounded division
 * by (float)n (2^-24 relative, another 2^-24 where n > 2^24 rounds); a lost nonzero term moves
 * the mean by at least 2^-b/n, over 2^-22 |sum|/n while |sum| < 2^(22-b): always so for b >= 2,
 * as |sum| <= n <= 2^(24-2b). */
static double exact_scale(int op, double result, double terms)
{
    return op == PL_REDUCE_MEAN ? ldexp(fabs(result), -22) / gamma_or_stat(terms + 1) : 0.0;
}

pl_status pl_reduce_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_reduce_problem *p = problem;
    const float *A = t[0].host;
    double *R = ref[1].host, *S = scale[1].host;
    const int op = p->op;
    const double terms = (double)pl_reduce_terms(p);
    const int b = grid_bits(pl_reduce_terms(p)), q_bits = op == PL_REDUCE_SUMSQ ? 2 * b : b;
    if (p->axis == 1) {
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < p->M; i++) {
            double acc = start(op), mag = 0;
            int grid = 1;
            for (int64_t j = 0; j < p->N; j++) {
                fold(op, A[i * p->lda + j], &acc, &mag);
                grid &= on_grid(A[i * p->lda + j], b);
            }
            R[i] = op == PL_REDUCE_MEAN ? acc / terms : acc;
            S[i] = op == PL_REDUCE_MEAN ? mag / terms : op == PL_REDUCE_MIN || op == PL_REDUCE_MAX ? fabs(acc) : mag;
            if (op != PL_REDUCE_MIN && op != PL_REDUCE_MAX && grid_exact(grid, mag, q_bits))
                S[i] = exact_scale(op, R[i], terms);
        }
    } else {
        /* Columns: bands of columns, A walked along its rows. */
        enum { BAND = 256 };
#pragma omp parallel for schedule(dynamic)
        for (int64_t j0 = 0; j0 < p->N; j0 += BAND) {
            double acc[BAND], mag[BAND];
            int grid[BAND];
            int64_t w = p->N - j0 < BAND ? p->N - j0 : BAND;
            for (int64_t j = 0; j < w; j++) acc[j] = start(op), mag[j] = 0, grid[j] = 1;
            for (int64_t i = 0; i < p->M; i++)
                for (int64_t j = 0; j < w; j++) {
                    fold(op, A[i * p->lda + j0 + j], &acc[j], &mag[j]);
                    grid[j] &= on_grid(A[i * p->lda + j0 + j], b);
                }
            for (int64_t j = 0; j < w; j++) {
                R[j0 + j] = op == PL_REDUCE_MEAN ? acc[j] / terms : acc[j];
                S[j0 + j] = op == PL_REDUCE_MEAN                           ? mag[j] / terms
                            : op == PL_REDUCE_MIN || op == PL_REDUCE_MAX ? fabs(acc[j])
                                                                           : mag[j];
                if (op != PL_REDUCE_MIN && op != PL_REDUCE_MAX && grid_exact(grid[j], mag[j], q_bits))
                    S[j0 + j] = exact_scale(op, R[j0 + j], terms);
            }
        }
    }
    return PL_OK;
}

double pl_reduce_spec_reference_ops(const void *problem)
{
    const pl_reduce_problem *p = problem;
    return (double)p->M * (double)p->N; /* one fold per element: the full check always runs */
}

/* ---------------------------------------------------------------- bounds */

/* gamma_n = n u / (1 - n u), u = 2^-24, while n u < 1/2; past that gamma is meaningless (over 1)
 * and the statistical 8u(sqrt(n)+1) (rounding errors of random sign) stands in. */
static double gamma_or_stat(double n)
{
    const double u = ldexp(1.0, -24), nu = n * u;
    return nu < 0.5 ? nu / (1.0 - nu) : 8.0 * u * (sqrt(n) + 1.0);
}

double pl_reduce_spec_elem_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    const pl_reduce_problem *p = problem;
    double n = (double)pl_reduce_terms(p);
    switch (p->op) {
    case PL_REDUCE_MIN:
    case PL_REDUCE_MAX:
        if (why) *why = "min/max: exact (a float compare rounds nothing), NaN as NumPy";
        return 0;
    case PL_REDUCE_MEAN:
        if (why) *why = "gamma_(n+1) sum|a|/n: an n-term sum in any order, then one rounded division (2^-22 |r| "
                       "where the sum is exact: the inputs' grid)";
        return gamma_or_stat(n + 1);
    case PL_REDUCE_SUMSQ:
        if (why) *why = "gamma_(n+1) sum a^2: n rounded squares summed in any order (a dot product); 0 where the "
                       "sum is exact in float32 (the inputs' grid)";
        return gamma_or_stat(n + 1);
    default:
        if (why) *why = "gamma_(n-1) sum|a|: an n-term sum in any order (gamma_n = nu/(1-nu), u=2^-24); 0 where "
                       "the sum is exact in float32 (the inputs' grid)";
        return gamma_or_stat(n > 1 ? n - 1 : 1);
    }
}

double pl_reduce_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    const pl_reduce_problem *p = problem;
    double n = (double)pl_reduce_terms(p);
    if (p->op == PL_REDUCE_MIN || p->op == PL_REDUCE_MAX) {
        if (why) *why = "min/max: exact";
        return 0;
    }
    if (p->op == PL_REDUCE_SUMSQ) {
        /* scale = ref for sumsq: each |e_i| <= gamma ref_i, so the norm too. */
        if (why) *why = "sumsq: gamma_(n+1) (the scale is the result: no cancellation)";
        return pl_reduce_spec_elem_bound(problem, prec, NULL);
    }
    /* A sum of random signs can cancel to near 0 (sum|a| ~ n/2, the sum ~ 0.58 sqrt(n)): relative
     * to the result the error is unbounded; sqrt(n) gamma keeps false alarms below 1/n for
     * a single output. The element bound is the check. */
    if (why) *why = "sum/mean: sqrt(n) gamma_n (a sum can cancel; the element bound is the check)";
    return sqrt(n) * gamma_or_stat(n + 1);
}

/* ---------------------------------------------------------------- counts */

double pl_reduce_spec_ops(const void *problem)
{
    const pl_reduce_problem *p = problem;
    double e = (double)p->M * (double)p->N;
    return p->op == PL_REDUCE_SUMSQ ? 2 * e : p->op == PL_REDUCE_MEAN ? e + (double)pl_reduce_outputs(p) : e;
}

double pl_reduce_spec_bytes(const void *problem)
{
    const pl_reduce_problem *p = problem;
    return 4.0 * ((double)p->M * (double)p->N + (double)pl_reduce_outputs(p));
}

/* Of those, the outputs written once. */
double pl_reduce_spec_bytes_written(const void *problem)
{
    return 4.0 * (double)pl_reduce_outputs((const pl_reduce_problem *)problem);
}

/* ================================================================ dot */

pl_status pl_dot_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    (void)pv;
    pl_dot_problem *p = problem;
    int64_t d[2] = {0, 0};
    pl_status s = pl_parse_dims("dot", size, 1, NULL, d);
    if (s != PL_OK) return s;
    p->N = d[0];
    return pl_dot_check(p);
}

void pl_dot_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_dot_problem *p = problem;
    snprintf(buf, n, "%lld", (long long)p->N);
}

pl_status pl_dot_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_dot_problem *p = problem;
    t[0] = (pl_tensor){"x", PL_F32, PL_IN, 1, p->N, p->N, NULL};
    t[1] = (pl_tensor){"y", PL_F32, PL_IN, 1, p->N, p->N, NULL};
    t[2] = (pl_tensor){"r", PL_F32, PL_OUT, 1, 1, 1, NULL};
    *n = 3;
    return PL_OK;
}

void pl_dot_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)n;
    int64_t terms = ((const pl_dot_problem *)problem)->N;
    fill_grid(t[0].host, pl_tensor_span(&t[0]), terms, seed);
    fill_grid(t[1].host, pl_tensor_span(&t[1]), terms, seed + 1000003u);
}

pl_status pl_dot_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_dot_problem *p = problem;
    const float *x = t[0].host, *y = t[1].host;
    double acc = 0, mag = 0;
    const int b = grid_bits(p->N);
    int grid = 1;
#pragma omp parallel for schedule(static) reduction(+ : acc, mag) reduction(& : grid)
    for (int64_t i = 0; i < p->N; i++) {
        double v = (double)x[i] * (double)y[i];
        acc += v;
        mag += fabs(v);
        grid &= on_grid(x[i], b) & on_grid(y[i], b);
    }
    ((double *)ref[2].host)[0] = acc;
    /* products of the grid are multiples of 2^-2b: exact in float32 as a reduce's sum is */
    ((double *)scale[2].host)[0] = grid_exact(grid, mag, 2 * b) ? 0.0 : mag;
    return PL_OK;
}

double pl_dot_spec_reference_ops(const void *problem) { return 2.0 * (double)((const pl_dot_problem *)problem)->N; }

double pl_dot_spec_elem_bound(const void *problem, pl_precision prec, const char **why)
{
    (void)prec;
    if (why) *why = "gamma_N sum|x||y|: an N-term dot product in any order (u=2^-24); 0 where the sum is "
                "exact in float32 (the inputs' grid)";
    return gamma_or_stat((double)((const pl_dot_problem *)problem)->N);
}

double pl_dot_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    if (why) *why = "sqrt(N) gamma_N: one output that can cancel; the element bound is the check";
    return sqrt((double)((const pl_dot_problem *)problem)->N) * pl_dot_spec_elem_bound(problem, prec, NULL);
}

double pl_dot_spec_ops(const void *problem) { return 2.0 * (double)((const pl_dot_problem *)problem)->N; }

double pl_dot_spec_bytes(const void *problem) { return 8.0 * (double)((const pl_dot_problem *)problem)->N + 4.0; }
/* Of those, the one float32 result. */
double pl_dot_spec_bytes_written(const void *problem)
{
    (void)problem;
    return 4.0;
}
