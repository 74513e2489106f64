/* spec.c: what GEMM is, independent of any rung: sizes, operands, inputs, the float64
 * reference, the error bound and the counts of work and traffic. */
#include "core/core.h"
#include "kernels/gemm/gemm.h"

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
    return PL_OK;
}

/* ---------------------------------------------------------------- sizes */

/* "1024" (square), "MxNxK", or a preset: small (256), medium (1024), large (4096). */
static pl_status parse_size(const char *text, int64_t dims[3])
{
    static const struct { const char *name; int64_t n; } presets[] = {
        {"small", 256}, {"medium", 1024}, {"large", 4096}};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(text, presets[i].name) == 0) {
            dims[0] = dims[1] = dims[2] = presets[i].n;
            return PL_OK;
        }
    const char *s = text;
    int n = 0;
    while (n < 3) {
        char *end;
        if (*s < '0' || *s > '9') break; /* rejects signs and blanks */
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (end == s) break;
        if (errno == ERANGE) return pl_fail(PL_ERR_OVERFLOW, "gemm size '%s': a number is too large", text);
        dims[n++] = v;
        s = end;
        if (*s == 'x' || *s == 'X') s++;
        else break;
    }
    if (*s != '\0' || (n != 1 && n != 3))
        return pl_fail(PL_ERR_ARG, "gemm size '%s': expected N, MxNxK, or small|medium|large", text);
    if (n == 1) dims[1] = dims[2] = dims[0];
    for (int i = 0; i < 3; i++)
        if (dims[i] <= 0) return pl_fail(PL_ERR_ARG, "gemm size '%s': sizes must be positive", text);
    return PL_OK;
}

pl_status pl_gemm_spec_make_problem(void *problem, const char *size, const double *pvals)
{
    pl_gemm_problem *p = problem;
    int64_t d[3];
    pl_status s = parse_size(size, d);
    if (s != PL_OK) return s;
    int64_t pad = (int64_t)pvals[2];
    p->M = d[0];
    p->N = d[1];
    p->K = d[2];
    p->alpha = (float)pvals[0];
    p->beta = (float)pvals[1];
    p->lda = p->K + pad;
    p->ldb = p->N + pad;
    p->ldc = p->N + pad;
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
    t[0] = (pl_tensor){"A", PL_F32, PL_IN, p->M, p->K, p->lda, NULL};
    t[1] = (pl_tensor){"B", PL_F32, PL_IN, p->K, p->N, p->ldb, NULL};
    /* beta == 0: C is only written, so the harness poisons it (a rung that reads it fails). */
    t[2] = (pl_tensor){"C", PL_F32, p->beta == 0.0f ? PL_OUT : PL_INOUT, p->M, p->N, p->ldc, NULL};
    *n = 3;
    return PL_OK;
}

void pl_gemm_spec_fill(const void *problem, pl_tensor *t, int n, uint64_t seed)
{
    (void)problem;
    for (int i = 0; i < n; i++)
        if (t[i].role != PL_OUT) pl_fill_f32(t[i].host, pl_tensor_span(&t[i]), seed + 1000003u * (uint64_t)i);
}

/* ---------------------------------------------------------------- reference */

/* float64 reference, blocked so each B tile is reused from cache by a band of rows; the
 * compiler vectorizes the j loop for the best ISA it finds (target_clones). */
enum { REF_ROWS = 16, REF_COLS = 512, REF_DEPTH = 256 };

__attribute__((target_clones("avx512f", "avx2", "default")))
static void ref_band(const pl_gemm_problem *p, const float *A, const float *B, double *acc,
                     int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    int64_t w = j1 - j0;
    for (int64_t k0 = 0; k0 < p->K; k0 += REF_DEPTH) {
        int64_t k1 = k0 + REF_DEPTH < p->K ? k0 + REF_DEPTH : p->K;
        for (int64_t i = i0; i < i1; i++) {
            double *restrict row = acc + (i - i0) * REF_COLS;
            for (int64_t k = k0; k < k1; k++) {
                double a = A[i * p->lda + k];
                const float *restrict b = B + k * p->ldb + j0;
                for (int64_t j = 0; j < w; j++) row[j] += a * (double)b[j];
            }
        }
    }
}

pl_status pl_gemm_spec_reference(const void *problem, const pl_tensor *t, int n, pl_tensor *ref)
{
    (void)n;
    const pl_gemm_problem *p = problem;
    const float *A = t[0].host, *B = t[1].host, *C0 = t[2].host;
    double *R = ref[2].host;
    int64_t bands = (p->M + REF_ROWS - 1) / REF_ROWS;
    int failed = 0;
#pragma omp parallel
    {
        double *acc = pl_alloc(sizeof(double) * REF_ROWS * REF_COLS);
        if (!acc) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic)
        for (int64_t b = 0; b < bands; b++) {
            if (!acc) continue;
            int64_t i0 = b * REF_ROWS, i1 = i0 + REF_ROWS < p->M ? i0 + REF_ROWS : p->M;
            for (int64_t j0 = 0; j0 < p->N; j0 += REF_COLS) {
                int64_t j1 = j0 + REF_COLS < p->N ? j0 + REF_COLS : p->N;
                memset(acc, 0, sizeof(double) * REF_ROWS * REF_COLS);
                ref_band(p, A, B, acc, i0, i1, j0, j1);
                for (int64_t i = i0; i < i1; i++)
                    for (int64_t j = j0; j < j1; j++) {
                        double c = (double)p->alpha * acc[(i - i0) * REF_COLS + (j - j0)];
                        if (p->beta != 0.0f) c += (double)p->beta * C0[i * p->ldc + j];
                        R[i * p->N + j] = c;
                    }
            }
        }
        pl_free(acc);
    }
    if (failed) return pl_fail(PL_ERR_NOMEM, "gemm reference: out of host memory");
    return PL_OK;
}

/* ---------------------------------------------------------------- bound, counts */

double pl_gemm_spec_error_bound(const void *problem, pl_precision prec, const char **why)
{
    const pl_gemm_problem *p = problem;
    const double u32 = ldexp(1.0, -24), u_tf32 = ldexp(1.0, -11);
    /* FP32: each output is a K-term dot product of inputs uniform in [-1,1). Rounding errors
     * of random sign grow like u*sqrt(K) relative to the result (a sequential sum gives about
     * 0.4*u*sqrt(K)); 8*u*(sqrt(K)+1) leaves a 20x margin for any summation order. */
    double fp32 = 8.0 * u32 * (sqrt((double)p->K) + 1.0);
    if (prec == PL_PREC_TF32) {
        if (why) *why = "TF32: inputs rounded to 10 mantissa bits (u=2^-11): 4u + the FP32 bound";
        return 4.0 * u_tf32 + fp32;
    }
    if (why) *why = "FP32: 8u(sqrt(K)+1), u=2^-24: random-sign rounding grows like u*sqrt(K)";
    return fp32;
}

double pl_gemm_spec_flops(const void *problem)
{
    const pl_gemm_problem *p = problem;
    return 2.0 * (double)p->M * (double)p->N * (double)p->K;
}

double pl_gemm_spec_bytes(const void *problem)
{
    const pl_gemm_problem *p = problem;
    double c = (double)p->M * (double)p->N * (p->beta != 0.0f ? 2 : 1);
    return 4.0 * ((double)p->M * (double)p->K + (double)p->K * (double)p->N + c);
}

/* ---------------------------------------------------------------- problem parameters */

const pl_param_def pl_gemm_problem_params[3] = {
    {"alpha", "C = alpha*A*B + beta*C", PL_PARAM_REAL, NULL, 0, 0, 0, 0, NULL, 1.0},
    {"beta", "0: C is write-only", PL_PARAM_REAL, NULL, 0, 0, 0, 0, NULL, 0.0},
    {"pad", "extra elements per row: lda = K+pad, ldb = ldc = N+pad", PL_PARAM_RANGE, NULL, 0, 0,
     4096, 1, NULL, 0.0},
};
