/* test_reduce.c: every CPU reduce and dot rung (and the OpenBLAS dot peer) against the float64
 * reference on odd shapes, every op, both axes and several row pitches; NaN propagation of
 * min/max (and sums) on hand-made data, rungs called directly; the accuracy target (a float sum
 * over 10^8 elements within 1e-6 of float64); pl_sreduce and pl_sdot; bad parameters. */
#include "reduce_cases.h"
#include "core/core.h"

#include <math.h>
#include <stdlib.h>

/* Call a reduce rung directly (no harness: NaN inputs are ours). */
static pl_status run_direct(pl_ctx *ctx, pl_status (*fn)(const pl_run_args *), const pl_reduce_problem *p,
                            const float *A, float *r)
{
    int64_t params[PL_MAX_PARAMS] = {0};
    void *data[2] = {(void *)A, r};
    pl_run_args a = {ctx, p, data, 2, params, NULL};
    return fn(&a);
}

/* NaN placed at the start, in the middle, in a vector tail and at the end of some rows (and so
 * of some columns): min, max, sum, mean and sumsq of those must be NaN, the others not. */
static void check_nan(pl_ctx *ctx, const char *name, pl_status (*fn)(const pl_run_args *))
{
    const int64_t shapes[][2] = {{1, 1}, {5, 37}, {37, 5}, {9, 3000}, {70, 130}};
    for (int s = 0; s < 5; s++) {
        int64_t M = shapes[s][0], N = shapes[s][1], lda = N + 1;
        float *A = malloc(sizeof(float) * (size_t)(M * lda)), *r = malloc(sizeof(float) * (size_t)(M > N ? M : N));
        pl_fill_f32(A, M * lda, 3);
        /* rows 0 (first elem), M/2 (middle), M-1 (last) hold a NaN; with M = 1 the only row. */
        int64_t nan_rows[3] = {0, M / 2, M - 1}, nan_cols[3] = {0, N / 2, N - 1};
        for (int k = 0; k < 3; k++) A[nan_rows[k] * lda + nan_cols[k]] = NAN;
        for (int op = 0; op < PL_REDUCE_N_OPS; op++)
            for (int axis = 0; axis < 2; axis++) {
                pl_reduce_problem p = {M, N, lda, op, axis, 1};
                int64_t R = axis ? M : N;
                for (int64_t o = 0; o < R; o++) r[o] = 12345.0f;
                pl_status st = run_direct(ctx, fn, &p, A, r);
                CHECK(st == PL_OK, "%s nan %lldx%lld: %s", name, (long long)M, (long long)N, pl_last_error());
                for (int64_t o = 0; o < R; o++) {
                    int want = 0;
                    for (int k = 0; k < 3; k++) want |= (axis ? nan_rows[k] : nan_cols[k]) == o;
                    CHECK(want == (isnan(r[o]) != 0), "%s %lldx%lld op=%s axis=%d output %lld: %g, NaN %s", name,
                          (long long)M, (long long)N, pl_reduce_op_names[op], axis, (long long)o, r[o],
                          want ? "expected" : "not expected");
                }
            }
        free(A), free(r);
    }
}

/* The target: a float sum over 10^8 positive elements within 1e-6 relative of float64
 * (positive: relative to the result is meaningful). The naive rung's error is printed. */
static void check_accuracy(pl_ctx *ctx)
{
    const int64_t n = 100000000;
    float *x = malloc(sizeof(float) * (size_t)n);
    if (!x) {
        printf("skipped: the 10^8 accuracy case: no 400 MB of host memory\n");
        return;
    }
    pl_fill_f32(x, n, 17);
    double ref = 0, refsq = 0;
#pragma omp parallel for reduction(+ : ref, refsq)
    for (int64_t i = 0; i < n; i++) {
        x[i] = fabsf(x[i]);
        ref += x[i];
        refsq += (double)x[i] * x[i];
    }
    float r = 0;
    for (int op = 0; op < 2; op++) {
        pl_reduce_problem p = {1, n, n, op ? PL_REDUCE_SUMSQ : PL_REDUCE_SUM, 1, 0};
        double want = op ? refsq : ref;
        CHECK(run_direct(ctx, pl_reduce_cpu_simd, &p, x, &r) == PL_OK, "cpu-simd 1e8: %s", pl_last_error());
        double rel = fabs(r - want) / want;
        CHECK(rel <= 1e-6, "cpu-simd %s over 10^8: relative error %.3e > 1e-6", op ? "sumsq" : "sum", rel);
        /* pairwise stays near 1e-8; 64 plain lane accumulators reach 4.8e-7, close to the target */
        CHECK(rel <= 1e-7, "cpu-simd %s over 10^8: relative error %.3e: not pairwise?", op ? "sumsq" : "sum", rel);
        run_direct(ctx, pl_reduce_cpu_naive, &p, x, &r);
        printf("%s over 10^8 in [0,1): cpu-simd %.2e (target 1e-6), cpu-naive %.2e relative\n", op ? "sumsq" : "sum",
               rel, fabs(r - want) / want);
    }
    /* Columns: the same 10^8 values as a 5*10^7 x 2 matrix, summed down its columns. */
    double col[2] = {0, 0};
    for (int64_t i = 0; i < n; i++) col[i & 1] += x[i];
    float rc[2] = {0, 0};
    pl_reduce_problem pc = {n / 2, 2, 2, PL_REDUCE_SUM, 0, 0};
    CHECK(run_direct(ctx, pl_reduce_cpu_simd, &pc, x, rc) == PL_OK, "cpu-simd columns 1e8: %s", pl_last_error());
    for (int j = 0; j < 2; j++)
        CHECK(fabs(rc[j] - col[j]) / col[j] <= 1e-7, "cpu-simd column %d over 5*10^7 rows: relative error %.3e > 1e-7", j,
              fabs(rc[j] - col[j]) / col[j]);
    /* dot over 10^8 of x . x = sumsq: the cpu-simd dot is accurate too. */
    float d = 0;
    CHECK(pl_sdot(ctx, n, x, x, &d) == PL_OK, "pl_sdot 1e8: %s", pl_last_error());
    CHECK(fabs(d - refsq) / refsq <= 1e-6, "pl_sdot over 10^8: relative error %.3e > 1e-6", fabs(d - refsq) / refsq);
    free(x);
}

int main(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 4) == PL_OK, "cpu context: %s", pl_last_error());
    if (!ctx) return check_summary("reduce");
    CHECK(pl_kernel_find("reduce") == &pl_reduce_kernel && pl_kernel_find("dot") == &pl_dot_kernel,
          "reduce and dot are registered");
    for (int i = 0; i < pl_reduce_kernel.n_variants; i++) {
        const pl_variant *v = pl_reduce_kernel.ladder[i];
        if (v->backend != PL_BACKEND_CPU) continue;
        char why[128];
        if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            printf("skipped: %s: %s\n", v->name, why);
            continue;
        }
        check_reduce_all_params(ctx, v, N_REDUCE_SHAPES);
        printf("%s: checked\n", v->name);
    }
    for (int i = 0; i < pl_dot_kernel.n_variants; i++) {
        const pl_variant *v = pl_dot_kernel.ladder[i];
        if (v->backend != PL_BACKEND_CPU) continue;
        char why[128];
        if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            printf("skipped: dot %s: %s\n", v->name, why);
            continue;
        }
        check_dot_cases(ctx, v, NULL, v->name);
        printf("dot %s: checked\n", v->name);
    }
    check_nan(ctx, "cpu-naive", pl_reduce_cpu_naive);
    if (pl_features() & PL_FEAT_AVX2) check_nan(ctx, "cpu-simd", pl_reduce_cpu_simd);
    else printf("skipped: cpu-simd NaN cases: no AVX2\n");

    /* pl_sreduce / pl_sdot on host arrays, against hand sums. */
    enum { M = 45, N = 67, LDA = 70 };
    static float A[M * LDA], r[N];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 7 % 19) - 9) / 8.0f; /* exact in float */
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, 1, M, N, A, LDA, r) == PL_OK, "pl_sreduce: %s", pl_last_error());
    for (int i = 0; i < M; i++) {
        double s = 0;
        for (int j = 0; j < N; j++) s += A[i * LDA + j];
        CHECK(r[i] == (float)s, "pl_sreduce row %d: %g, want %g", i, r[i], s);
    }
    CHECK(pl_sreduce(ctx, PL_REDUCE_MAX, 0, M, N, A, LDA, r) == PL_OK, "pl_sreduce max: %s", pl_last_error());
    for (int j = 0; j < N; j++) {
        float m = A[j];
        for (int i = 1; i < M; i++) m = A[i * LDA + j] > m ? A[i * LDA + j] : m;
        CHECK(r[j] == m, "pl_sreduce column max %d: %g, want %g", j, r[j], m);
    }
    float d = 0;
    CHECK(pl_sdot(ctx, N, A, A + LDA, &d) == PL_OK, "pl_sdot: %s", pl_last_error());
    double dd = 0;
    for (int j = 0; j < N; j++) dd += (double)A[j] * A[LDA + j];
    CHECK(d == (float)dd, "pl_sdot: %g, want %g", d, dd);
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, 1, M, N, A, N - 1, r) == PL_ERR_ARG, "lda < N is refused");
    CHECK(pl_sreduce(ctx, 7, 1, M, N, A, LDA, r) == PL_ERR_ARG, "op 7 is refused");
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, 2, M, N, A, LDA, r) == PL_ERR_ARG, "axis 2 is refused");
    CHECK(pl_sdot(ctx, 0, A, A, &d) == PL_ERR_ARG, "N = 0 is refused");

    /* Problem parameters by name: op=max axis=0 offset=1 gives lda = N + 1 and a 1 x N output. */
    pl_pvalues pv;
    int given[PL_MAX_PARAMS] = {0};
    pl_pvalues_default(&pl_reduce_kernel, &pv);
    CHECK(pl_pvalues_set(&pl_reduce_kernel, &pv, given, "op=max") == PL_OK, "op=max: %s", pl_last_error());
    CHECK(pl_pvalues_set(&pl_reduce_kernel, &pv, given, "axis=0") == PL_OK, "axis=0: %s", pl_last_error());
    CHECK(pl_pvalues_set(&pl_reduce_kernel, &pv, given, "offset=1") == PL_OK, "offset=1: %s", pl_last_error());
    CHECK(pl_pvalues_set(&pl_reduce_kernel, &pv, given, "op=median") == PL_ERR_ARG, "op=median is refused");
    pl_reduce_problem rp;
    CHECK(pl_reduce_spec_make_problem(&rp, "33x65", &pv) == PL_OK && rp.op == PL_REDUCE_MAX && rp.axis == 0 &&
              rp.lda == 66,
          "op=max axis=0 offset=1 on 33x65: op %d axis %d lda %lld", rp.op, rp.axis, (long long)rp.lda);
    pl_tensor t[PL_MAX_OPERANDS];
    int nt = 0;
    pl_reduce_spec_operands(&rp, t, &nt);
    CHECK(nt == 2 && t[1].rows == 1 && t[1].cols == 65, "axis 0: r is 1 x N");
    CHECK(pl_reduce_spec_elem_bound(&rp, PL_PREC_FP32, NULL) == 0, "max: exact bound");
    CHECK(pl_reduce_spec_make_problem(&rp, "0x5", &pv) == PL_ERR_ARG, "size 0x5 is refused");
    CHECK(pl_reduce_spec_make_problem(&rp, "5x", &pv) == PL_ERR_ARG, "size 5x is refused");

    check_accuracy(ctx);
    pl_ctx_destroy(ctx);
    return check_summary("reduce");
}
