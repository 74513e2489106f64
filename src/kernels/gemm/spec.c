/* spec.c: what GEMM is, independent of any rung: sizes, operands, inputs, the float64
 * reference, the error bound and the counts of work and traffic. With dtype bf16, A and B are
 * bfloat16 (C float32): the inputs are drawn as for float32 and rounded to bfloat16, and the
 * reference and the checks read them widened to float (exactly). */
#include "core/bf16.h"
#include "core/core.h"
#include "core/sizes.h"
#include "kernels/gemm/gemm.h"
#include "kernels/ladder.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pl_status pl_gemm_check(const pl_gemm_problem *p)
{
    if (p->M <= 0 || p->N <= 0 || p->K <= 0)
        return pl_fail(PL_ERR_ARG, "gemm: sizes must be positive (M=%lld N=%lld K=%lld)",
                       (long long)p->M, (long long)p->N, (long long)p->K);
    if (p->lda < p->K)
        return pl_fail(PL_ERR_ARG, "gemm: lda = %lld is smaller than a row of A (K = %lld)",
                       (long long)p->lda, (long long)p->K);
    if (p->ldb < p->N)
        return pl_fail(PL_ERR_ARG, "gemm: ldb = %lld is smaller than a row of B (N = %lld)",
                       (long long)p->ldb, (long long)p->N);
    if (p->ldc < p->N)
        return pl_fail(PL_ERR_ARG, "gemm: ldc = %lld is smaller than a row of C (N = %lld)",
                       (long long)p->ldc, (long long)p->N);
    int64_t a, b, c, f;
    if (pl_mul_overflow(p->M, p->lda, &a) || pl_mul_overflow(p->K, p->ldb, &b) ||
        pl_mul_overflow(p->M, p->ldc, &c) || pl_mul_overflow(a, 8, &a) || pl_mul_overflow(b, 8, &b) ||
        pl_mul_overflow(c, 8, &c) || pl_mul_overflow(p->M, p->N, &f) || pl_mul_overflow(f, p->K, &f))
        return pl_fail(PL_ERR_OVERFLOW, "gemm: %lldx%lldx%lld overflows 64-bit sizes",
                       (long long)p->M, (long long)p->N, (long long)p->K);
    if (!isfinite(p->alpha) || !isfinite(p->beta))
        return pl_fail(PL_ERR_ARG, "gemm: alpha and beta must be finite");
    if (p->dtype != PL_F32 && p->dtype != PL_BF16)
        return pl_fail(PL_ERR_ARG, "gemm: A and B must be float32 or bfloat16, not %s", pl_dtype_name(p->dtype));
    return PL_OK;
}

static const char *dtype_param_name(pl_dtype t) { return t == PL_BF16 ? "bf16" : "f32"; }

/* ---------------------------------------------------------------- sizes */

pl_status pl_gemm_spec_make_problem(void *problem, const char *size, const pl_pvalues *pv)
{
    pl_gemm_problem *p = problem;
    int64_t d[3];
    pl_status s = pl_parse_dims("gemm", size, 3, "MxNxK", d);
    if (s != PL_OK) return s;
    int64_t pad = (int64_t)pv->num[PL_GEMM_PROBLEM_PAD];
    p->M = d[0];
    p->N = d[1];
    p->K = d[2];
    p->alpha = (float)pv->num[PL_GEMM_PROBLEM_ALPHA];
    p->beta = (float)pv->num[PL_GEMM_PROBLEM_BETA];
    p->lda = p->K + pad;
    p->ldb = p->N + pad;
    p->ldc = p->N + pad;
    p->dtype = pv->num[PL_GEMM_PROBLEM_DTYPE] == PL_GEMM_DTYPE_BF16 ? PL_BF16 : PL_F32;
    return pl_gemm_check(p);
}

void pl_gemm_spec_describe(const void *problem, char *buf, size_t n)
{
    const pl_gemm_problem *p = problem;
    if (p->M == p->N && p->N == p->K) snprintf(buf, n, "%lld", (long long)p->M);
    else snprintf(buf, n, "%lldx%lldx%lld", (long long)p->M, (long long)p->N, (long long)p->K);
}

pl_status pl_gemm_spec_operands(const void *problem, pl_tensor *t, int *n)
{
    const pl_gemm_problem *p = problem;
    t[0] = (pl_tensor){"A", p->dtype, PL_IN, p->M, p->K, p->lda, NULL};
    t[1] = (pl_tensor){"B", p->dtype, PL_IN, p->K, p->N, p->ldb, NULL};
    /* beta == 0: C is only written, so the harness poisons it (a rung that reads it fails). */
    t[2] = (pl_tensor){"C", PL_F32, p->beta == 0.0f ? PL_OUT : PL_INOUT, p->M, p->N, p->ldc, NULL};
    *n = 3;
    return PL_OK;
}

void pl_gemm_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)problem;
    for (int i = 0; i < n; i++) {
        if (t[i].role == PL_OUT) continue;
        if (t[i].dtype == PL_BF16) pl_fill_bf16(t[i].host, pl_tensor_span(&t[i]), seed + 1000003u * (uint64_t)i);
        else pl_fill_f32(t[i].host, pl_tensor_span(&t[i]), seed + 1000003u * (uint64_t)i);
    }
}

/* A and B as float: the operands themselves, or (bfloat16) widened copies, exact, that
 * *to_free holds (free them with pl_free). NULL on failure (out of memory). */
static const float *as_float(const pl_tensor *t, float **to_free)
{
    *to_free = NULL;
    if (t->dtype != PL_BF16) return t->host;
    int64_t span = pl_tensor_span(t);
    if (!(*to_free = pl_alloc(sizeof(float) * (size_t)span))) return NULL;
    pl_bf16_to_f32_array(*to_free, t->host, span);
    return *to_free;
}

static pl_status widen_inputs(const pl_tensor *t, const float **A, const float **B, float **wide, const char *who)
{
    *A = as_float(&t[0], &wide[0]);
    *B = as_float(&t[1], &wide[1]);
    if (*A && *B) return PL_OK;
    pl_free(wide[0]), pl_free(wide[1]);
    return pl_fail(PL_ERR_NOMEM, "%s: out of host memory for the widened bfloat16 inputs", who);
}

/* ---------------------------------------------------------------- reference */

/* float64 reference, blocked so each B tile is reused from cache by a band of rows; beside
 * each sum the sum of magnitudes (|A||B|), which the element bound scales. The compiler
 * vectorizes the j loop for the best ISA it finds (target_clones). */
enum { REF_ROWS = 16, REF_COLS = 512, REF_DEPTH = 256 };

__attribute__((target_clones("avx512f", "avx2", "default")))
static void ref_band(const pl_gemm_problem *p, const float *A, const float *B, double *acc, double *mag,
                     int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    int64_t w = j1 - j0;
    for (int64_t k0 = 0; k0 < p->K; k0 += REF_DEPTH) {
        int64_t k1 = k0 + REF_DEPTH < p->K ? k0 + REF_DEPTH : p->K;
        for (int64_t i = i0; i < i1; i++) {
            double *restrict row = acc + (i - i0) * REF_COLS;
            double *restrict mrow = mag + (i - i0) * REF_COLS;
            for (int64_t k = k0; k < k1; k++) {
                double a = A[i * p->lda + k], am = fabs(a);
                const float *restrict b = B + k * p->ldb + j0;
                for (int64_t j = 0; j < w; j++) {
                    row[j] += a * (double)b[j];
                    mrow[j] += am * fabs((double)b[j]);
                }
            }
        }
    }
}

pl_status pl_gemm_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    (void)n;
    const pl_gemm_problem *p = problem;
    const float *A, *B, *C0 = t[2].host;
    float *wide[2];
    pl_status st = widen_inputs(t, &A, &B, wide, "gemm reference");
    if (st != PL_OK) return st;
    double *R = ref[2].host, *S = scale[2].host;
    int64_t bands = (p->M + REF_ROWS - 1) / REF_ROWS;
    int failed = 0;
#pragma omp parallel
    {
        double *acc = pl_alloc(2 * sizeof(double) * REF_ROWS * REF_COLS);
        if (!acc) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic)
        for (int64_t b = 0; b < bands; b++) {
            if (!acc) continue;
            double *mag = acc + REF_ROWS * REF_COLS;
            int64_t i0 = b * REF_ROWS, i1 = i0 + REF_ROWS < p->M ? i0 + REF_ROWS : p->M;
            for (int64_t j0 = 0; j0 < p->N; j0 += REF_COLS) {
                int64_t j1 = j0 + REF_COLS < p->N ? j0 + REF_COLS : p->N;
                memset(acc, 0, 2 * sizeof(double) * REF_ROWS * REF_COLS);
                ref_band(p, A, B, acc, mag, i0, i1, j0, j1);
                for (int64_t i = i0; i < i1; i++)
                    for (int64_t j = j0; j < j1; j++) {
                        int64_t o = (i - i0) * REF_COLS + (j - j0);
                        double c = (double)p->alpha * acc[o], m = fabs((double)p->alpha) * mag[o];
                        if (p->beta != 0.0f) {
                            c += (double)p->beta * C0[i * p->ldc + j];
                            m += fabs((double)p->beta * C0[i * p->ldc + j]);
                        }
                        R[i * p->N + j] = c;
                        S[i * p->N + j] = m;
                    }
            }
        }
        pl_free(acc);
    }
    pl_free(wide[0]), pl_free(wide[1]);
    if (failed) return pl_fail(PL_ERR_NOMEM, "gemm reference: out of host memory");
    return PL_OK;
}

double pl_gemm_spec_reference_ops(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return 4.0 * (double)p->M * (double)p->N * (double)p->K; /* the sums and the magnitudes */
}

/* ---------------------------------------------------------------- bounds */

double pl_gemm_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    const pl_gemm_problem *p = problem;
    const double u32 = ldexp(1.0, -24), u_tf32 = ldexp(1.0, -11);
    /* FP32: each output is a K-term dot product of inputs uniform in [-1,1). Rounding errors
     * of random sign grow like u*sqrt(K) relative to the result (a sequential sum gives about
     * 0.4*u*sqrt(K)); 8*u*(sqrt(K)+1) leaves a 20x margin for any summation order. */
    double fp32 = 8.0 * u32 * (sqrt((double)p->K) + 1.0);
    /* BF16: the inputs are exact (bfloat16 given, the reference from the same values) and a
     * product of two 8-bit significands is exact in FP32, so the error is the accumulation's
     * alone: no 2^-8 term. But tensor cores add each block of products (4 to 16) to the FP32
     * accumulator with truncation (round toward zero; Fasi, Higham, Mikaitis, Pranesh,
     * "Numerical behavior of NVIDIA tensor cores", 2021), a bias of one sign that grows like
     * u*K, not u*sqrt(K): a sum truncating after every single add drifts by 0.12 u K at
     * K = 65536 (0.29 u K as K grows), in blocks of 4 by half that. u*K/4 on top of the FP32
     * bound covers the every-add model at 65536 with 2x, and still catches inputs off by one
     * bfloat16 ulp (a last significand bit dropped: ~2^-9 relative, over the bound up to
     * K = 65536; tests/test_gemm_bf16.c). */
    if (prec == PL_PREC_BF16) {
        if (why) *why = "BF16: inputs exact, FP32 accumulation truncating: the FP32 bound + u*K/4, u=2^-24";
        return fp32 + u32 * (double)p->K / 4.0;
    }
    if (prec == PL_PREC_TF32) {
        if (why) *why = "TF32: inputs rounded to 10 mantissa bits (u=2^-11): 4u + the FP32 bound";
        return 4.0 * u_tf32 + fp32;
    }
    if (why) *why = "FP32: 8u(sqrt(K)+1), u=2^-24: random-sign rounding grows like u*sqrt(K)";
    return fp32;
}

/* Element by element, the classic bound for a dot product in any summation order:
 * |C - ref|_ij <= gamma_(K+2) (|alpha||A||B| + |beta||C|)_ij, gamma_n = n*u/(1 - n*u) (K terms,
 * the alpha scaling and the beta add). TF32 rounds (or truncates) each input to 10 mantissa
 * bits first: each product is off by at most 2*2^-10 relative, added to gamma. */
double pl_gemm_spec_elem_bound(const void *problem, pl_precision prec, const char **why)
{
    const pl_gemm_problem *p = problem;
    const double u32 = ldexp(1.0, -24), nu = (double)(p->K + 2) * u32;
    double gamma = nu / (1.0 - nu);
    /* BF16: products exact (see the Frobenius bound), so gamma alone, but with u = 2^-22:
     * truncation instead of rounding doubles the unit roundoff (2^-23), and aligning a block's
     * products to its largest before the add loses at most another 2^-23 of the block's
     * magnitude, which the scale |alpha||A||B| + |beta||C| bounds. */
    if (prec == PL_PREC_BF16) {
        const double nu22 = (double)(p->K + 2) * ldexp(1.0, -22);
        if (why) *why = "BF16: gamma_(K+2) with u=2^-22 (truncating, aligned adds) (|alpha||A||B| + |beta||C|)";
        return nu22 / (1.0 - nu22);
    }
    if (prec == PL_PREC_TF32) {
        if (why) *why = "TF32: (2^-9 + gamma_(K+2)) (|alpha||A||B| + |beta||C|), each element";
        return ldexp(1.0, -9) * (1.0 + ldexp(1.0, -9)) + gamma * (1.0 + ldexp(1.0, -9));
    }
    if (why) *why = "FP32: gamma_(K+2) (|alpha||A||B| + |beta||C|), gamma_n = nu/(1-nu), u=2^-24, each element";
    return gamma;
}

/* ---------------------------------------------------------------- sampled check */

/* For sizes whose full reference would take long: (1) SAMPLE_LINES whole rows and as many
 * whole columns (the first, the last, the rest at random) against float64 dot products and
 * the element bound; (2) Freivalds: C x against alpha A (B x) + beta C0 x for FREIVALDS random
 * +-1 vectors x, in float64. A row's residual is a sum of its errors with random signs; it
 * passes below tol_i = 3 e sqrt(alpha^2 sum_k a_ik^2 |b_k|^2 + beta^2 |c0_i|^2) with e the
 * Frobenius bound (per element e sqrt(sum_k a_ik^2 b_kj^2) is the rounding's 20-sigma (FP32)
 * scale, and the tolerance is 3 times that over the row). An element off by more than
 * 2 tol_i makes at most one of the two signs of its x_j pass, so a row holding one escapes
 * all vectors with probability <= 2^-FREIVALDS. */
enum { SAMPLE_LINES = 16, FREIVALDS = 8, LINE_BLOCK = 512 };

static int64_t pick(uint64_t *state, int64_t n, int i)
{
    if (i == 0) return 0;
    if (i == 1) return n - 1;
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (int64_t)((*state >> 33) % (uint64_t)n);
}

/* Record one checked element in res. */
static void check_one(pl_check_result *res, double o, double ref, double mag, double eb, int64_t i, int64_t j,
                      double *d2, double *r2)
{
    double d = fabs(o - ref), ratio = !isfinite(o) ? INFINITY : d == 0 ? 0 : eb * mag > 0 ? d / (eb * mag) : INFINITY;
    *d2 += (o - ref) * (o - ref);
    *r2 += ref * ref;
    res->wrong += !(ratio <= 1.0);
    if (ratio > res->elem_ratio || isnan(ratio)) {
        res->elem_ratio = isnan(ratio) ? INFINITY : ratio;
        res->operand = 2;
        res->row = i;
        res->col = j;
        res->value = o, res->reference = ref, res->bound = eb * mag;
    }
    res->checked++;
}

/* C[i][j] against alpha * dot + beta * C0[i][j], with its scale |alpha| mag + |beta C0[i][j]|. */
static void check_element(const pl_gemm_problem *p, const float *C0, const float *C, int64_t i, int64_t j, double dot,
                          double mag, double eb, pl_check_result *res, double *d2, double *r2)
{
    double ref = p->alpha * dot, m = fabs((double)p->alpha) * mag;
    if (p->beta != 0.0f) ref += (double)p->beta * C0[i * p->ldc + j], m += fabs((double)p->beta * C0[i * p->ldc + j]);
    check_one(res, C[i * p->ldc + j], ref, m, eb, i, j, d2, r2);
}

/* A thread's worst element into the whole check's (inside a critical section). */
static void merge_worst(pl_check_result *res, const pl_check_result *local)
{
    res->checked += local->checked;
    res->wrong += local->wrong;
    if (local->elem_ratio > res->elem_ratio) {
        res->elem_ratio = local->elem_ratio;
        res->operand = 2, res->row = local->row, res->col = local->col;
        res->value = local->value, res->reference = local->reference, res->bound = local->bound;
    }
}

pl_status pl_gemm_spec_check_sampled(const void *problem, const pl_tensor *t, int n, const pl_tensor *out,
                                     pl_precision prec, uint64_t seed, pl_check_result *res)
{
    (void)n;
    const pl_gemm_problem *p = problem;
    const float *A, *B, *C0 = t[2].host, *C = out[2].host;
    float *wide[2];
    pl_status st0 = widen_inputs(t, &A, &B, wide, "gemm sampled check");
    if (st0 != PL_OK) return st0;
    const double alpha = p->alpha, beta = p->beta;
    double eb = pl_gemm_spec_elem_bound(problem, prec, NULL), e = pl_gemm_spec_error_bound(problem, prec, NULL);
    int64_t rows[SAMPLE_LINES], cols[SAMPLE_LINES];
    uint64_t st = seed | 1;
    for (int i = 0; i < SAMPLE_LINES; i++) rows[i] = pick(&st, p->M, i);
    for (int i = 0; i < SAMPLE_LINES; i++) cols[i] = pick(&st, p->N, i);
    int64_t nr = p->M < SAMPLE_LINES ? p->M : SAMPLE_LINES, nc = p->N < SAMPLE_LINES ? p->N : SAMPLE_LINES;
    double *X = malloc(sizeof(double) * (size_t)p->N * FREIVALDS), *Bx = calloc((size_t)p->K * FREIVALDS, sizeof(double));
    double *bnorm = calloc((size_t)p->K, sizeof(double)), *Bcol = malloc(sizeof(double) * (size_t)p->K * SAMPLE_LINES);
    if (!X || !Bx || !bnorm || !Bcol) {
        free(X), free(Bx), free(bnorm), free(Bcol);
        pl_free(wide[0]), pl_free(wide[1]);
        return pl_fail(PL_ERR_NOMEM, "gemm sampled check: out of host memory");
    }
    double d2 = 0, r2 = 0, worst_row = 0, worst_residual = 0, worst_tol = 0;
    int64_t worst_i = 0, rows_wrong = 0;
    /* (1a) whole rows, B streamed once per block of columns. */
#pragma omp parallel for schedule(dynamic) reduction(+ : d2, r2)
    for (int64_t j0 = 0; j0 < p->N; j0 += LINE_BLOCK) {
        double acc[SAMPLE_LINES][LINE_BLOCK], mag[SAMPLE_LINES][LINE_BLOCK];
        int64_t w = p->N - j0 < LINE_BLOCK ? p->N - j0 : LINE_BLOCK;
        memset(acc, 0, sizeof acc);
        memset(mag, 0, sizeof mag);
        for (int64_t k = 0; k < p->K; k++) {
            const float *b = B + k * p->ldb + j0;
            for (int r = 0; r < nr; r++) {
                double a = A[rows[r] * p->lda + k], am = fabs(a);
                for (int64_t j = 0; j < w; j++) {
                    acc[r][j] += a * b[j];
                    mag[r][j] += am * fabs((double)b[j]);
                }
            }
        }
        pl_check_result local;
        memset(&local, 0, sizeof local);
        for (int r = 0; r < nr; r++)
            for (int64_t j = 0; j < w; j++)
                check_element(p, C0, C, rows[r], j0 + j, acc[r][j], mag[r][j], eb, &local, &d2, &r2);
#pragma omp critical
        merge_worst(res, &local);
    }
    /* (1b) whole columns, A streamed once. */
    for (int64_t k = 0; k < p->K; k++)
        for (int c = 0; c < nc; c++) Bcol[k * SAMPLE_LINES + c] = B[k * p->ldb + cols[c]];
#pragma omp parallel for schedule(static) reduction(+ : d2, r2)
    for (int64_t i = 0; i < p->M; i++) {
        double acc[SAMPLE_LINES] = {0}, mag[SAMPLE_LINES] = {0};
        for (int64_t k = 0; k < p->K; k++) {
            double a = A[i * p->lda + k], am = fabs(a);
            for (int c = 0; c < nc; c++) {
                acc[c] += a * Bcol[k * SAMPLE_LINES + c];
                mag[c] += am * fabs(Bcol[k * SAMPLE_LINES + c]);
            }
        }
        pl_check_result local;
        memset(&local, 0, sizeof local);
        for (int c = 0; c < nc; c++) check_element(p, C0, C, i, cols[c], acc[c], mag[c], eb, &local, &d2, &r2);
#pragma omp critical
        merge_worst(res, &local);
    }
    /* (2) Freivalds. X: random +-1; Bx = B X and |b_k|^2, B streamed once. */
    for (int64_t j = 0; j < p->N * FREIVALDS; j++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        X[j] = (st >> 63) ? 1.0 : -1.0;
    }
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < p->K; k++) {
        double acc[FREIVALDS] = {0}, nb = 0;
        const float *b = B + k * p->ldb;
        for (int64_t j = 0; j < p->N; j++) {
            double bj = b[j];
            nb += bj * bj;
            for (int v = 0; v < FREIVALDS; v++) acc[v] += bj * X[j * FREIVALDS + v];
        }
        for (int v = 0; v < FREIVALDS; v++) Bx[k * FREIVALDS + v] = acc[v];
        bnorm[k] = nb;
    }
    /* Per row: alpha A(Bx) + beta C0 x against C x, and the row's tolerance. */
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < p->M; i++) {
        double abx[FREIVALDS] = {0}, cx[FREIVALDS] = {0}, var = 0, c0n = 0;
        int bad_value = 0;
        for (int64_t k = 0; k < p->K; k++) {
            double a = A[i * p->lda + k];
            var += a * a * bnorm[k];
            for (int v = 0; v < FREIVALDS; v++) abx[v] += a * Bx[k * FREIVALDS + v];
        }
        for (int64_t j = 0; j < p->N; j++) {
            double c = C[i * p->ldc + j], c0 = beta != 0 ? C0[i * p->ldc + j] : 0;
            bad_value |= !isfinite(c);
            c0n += c0 * c0;
            for (int v = 0; v < FREIVALDS; v++) cx[v] += (c - beta * c0) * X[j * FREIVALDS + v];
        }
        double tol = 3.0 * e * sqrt(alpha * alpha * var + beta * beta * c0n) + 1e-300;
        double worst = bad_value ? INFINITY : 0, residual = bad_value ? NAN : 0;
        for (int v = 0; v < FREIVALDS; v++) {
            double r = fabs(cx[v] - alpha * abx[v]) / tol;
            if (!(r <= worst)) worst = r, residual = fabs(cx[v] - alpha * abx[v]);
        }
#pragma omp critical
        {
            rows_wrong += !(worst <= 1.0);
            if (!(worst <= worst_row)) {
                worst_row = worst;
                worst_i = i;
                worst_residual = residual, worst_tol = tol;
            }
        }
    }
    res->wrong += rows_wrong;
    if (worst_row > res->elem_ratio || isnan(worst_row)) {
        res->elem_ratio = isnan(worst_row) ? INFINITY : worst_row;
        res->operand = 2;
        res->row = worst_i;
        res->col = -1; /* a whole row's residual */
        res->value = worst_residual, res->reference = 0, res->bound = worst_tol;
    }
    res->error = !isfinite(d2) ? INFINITY : r2 > 0 ? sqrt(d2 / r2) : sqrt(d2);
    snprintf(res->how, sizeof res->how,
             "sampled: %d rows + %d columns element-wise, Freivalds x%d (an element off by over 2x its row "
             "tolerance escapes with p <= 2^-%d)", (int)nr, (int)nc, FREIVALDS, FREIVALDS);
    free(X), free(Bx), free(bnorm), free(Bcol);
    pl_free(wide[0]), pl_free(wide[1]);
    return PL_OK;
}

/* ---------------------------------------------------------------- counts */

double pl_gemm_spec_flops(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return 2.0 * (double)p->M * (double)p->N * (double)p->K;
}

double pl_gemm_spec_bytes(const void *problem)
{
    const pl_gemm_problem *p = problem;
    double c = (double)p->M * (double)p->N * (p->beta != 0.0f ? 2 : 1);
    return (double)pl_dtype_size(p->dtype) * ((double)p->M * (double)p->K + (double)p->K * (double)p->N) + 4.0 * c;
}

/* Of those, C written once (read too when beta != 0: counted with the reads). */
double pl_gemm_spec_bytes_written(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return 4.0 * (double)p->M * (double)p->N;
}

/* ---------------------------------------------------------------- which rungs take it */

/* A BF16 rung multiplies bfloat16 inputs, every other rung float32 ones: each takes the
 * problems of its own dtype alone (problem NULL: the default, float32). */
int pl_gemm_spec_takes(const void *problem, const pl_variant *v, char *why, size_t n)
{
    const pl_gemm_problem *p = problem;
    pl_dtype has = p ? p->dtype : PL_F32, wants = v->precision == PL_PREC_BF16 ? PL_BF16 : PL_F32;
    if (has == wants) return 1;
    snprintf(why, n, "a%s %s rung takes dtype=%s only; this problem is dtype=%s", v->precision == PL_PREC_FP32 ? "n" : "",
             pl_precision_name(v->precision), dtype_param_name(wants), dtype_param_name(has));
    return 0;
}

/* ---------------------------------------------------------------- problem parameters */

static const char *const dtype_names[] = {[PL_GEMM_DTYPE_F32] = "f32", [PL_GEMM_DTYPE_BF16] = "bf16", NULL};

const pl_param_def pl_gemm_problem_params[] = {
    [PL_GEMM_PROBLEM_ALPHA] = {.name = "alpha", .help = "C = alpha*A*B + beta*C", .kind = PL_PARAM_REAL, .def = 1.0},
    [PL_GEMM_PROBLEM_BETA] = {.name = "beta", .help = "0: C is write-only", .kind = PL_PARAM_REAL, .def = 0.0},
    [PL_GEMM_PROBLEM_PAD] =
        {.name = "pad", .help = "extra elements per row: lda = K+pad, ldb = ldc = N+pad",
         .kind = PL_PARAM_RANGE, .min = 0, .max = 4096, .step = 1, .def = 0.0},
    [PL_GEMM_PROBLEM_DTYPE] =
        {.name = "dtype", .help = "A's and B's type: f32, or bf16 (bfloat16, FP32 accumulation; C is float32)",
         .kind = PL_PARAM_CHOICE, .choices = dtype_names, .def = PL_GEMM_DTYPE_F32},
};
PL_CHECK_COUNT(pl_gemm_problem_params, PL_GEMM_PROBLEM_N_PARAMS);
