/* test_reduce.c: every CPU reduce and dot rung (and the OpenBLAS dot peer) against the float64
 * reference on odd shapes, every op, both axes and several row pitches; NaN propagation of
 * min/max (and sums) on hand-made data, rungs called directly; the accuracy target (a float sum
 * over 10^8 elements within 1e-6 of float64); pl_sreduce and pl_sdot; bad parameters. */
#include "reduce_cases.h"
#include "core/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Call a reduce rung directly (no harness: NaN inputs are ours). */
static pl_status run_direct(pl_ctx *ctx, pl_status (*fn)(const pl_run_args *), const pl_reduce_problem *p,
                            const float *A, float *r)
{
    int64_t params[PL_MAX_PARAMS] = {0};
    void *data[2] = {(void *)A, r};
    pl_run_args a = {ctx, p, data, 2, params, NULL, NULL};
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

/* ---------------------------------------------------------------- exact cases */

/* One rung at one setting: its run function, the isa choice (-1: a rung without one), threads. */
typedef struct exact_rung {
    const char *name;
    pl_status (*run)(const pl_run_args *);
    int64_t isa;
    pl_ctx *ctx;
} exact_rung;

/* Call a rung on A (M x N, pitch lda) directly, r[0..R) poisoned first; the label on failure. */
static pl_status run_exact(const exact_rung *g, const pl_reduce_problem *p, const float *A, float *r)
{
    int64_t params[PL_MAX_PARAMS] = {g->isa < 0 ? 0 : g->isa};
    void *data[2] = {(void *)A, r};
    pl_run_args a = {g->ctx, p, data, 2, params, NULL, NULL};
    int64_t R = p->axis ? p->M : p->N;
    for (int64_t o = 0; o < R; o++) r[o] = 12345.0f;
    pl_status st = g->run(&a);
    CHECK(st == PL_OK, "%s (threads=%d) %lldx%lld: %s", g->name, pl_ctx_threads(g->ctx), (long long)p->M,
          (long long)p->N, pl_last_error());
    return st;
}

/* What op gives on n terms, all base but one special (computed here, not by a rung): the
 * sums are exact in float (small integers), mean one float division as the rungs do it. */
static float exact_want(int op, float base, float special, int64_t n)
{
    float lo = n > 1 && base < special ? base : special, hi = n > 1 && base > special ? base : special;
    if (isnan(special)) return NAN;
    double sum = (double)base * (double)(n - 1) + special, sq = (double)base * base * (double)(n - 1) + special * special;
    switch (op) {
    case PL_REDUCE_MIN: return lo;
    case PL_REDUCE_MAX: return hi;
    case PL_REDUCE_SUMSQ: return (float)sq;
    case PL_REDUCE_MEAN: return (float)sum / (float)n;
    default: return (float)sum;
    }
}

static int same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

/* The positions a lost element hides at: the ends, both sides of every block of 1024 (where
 * rows are cut across threads and dot into pieces), both sides of the first pairwise halving
 * (rounded to 8 and 16 lanes) and of every 64 rows up to 256 (the column leaves). */
static int exact_positions(int64_t n, int64_t *pos, int cap)
{
    int k = 0;
    int64_t cand[12] = {0, n - 1, n / 2, (n / 2 + 7) / 8 * 8, (n / 2 + 15) / 16 * 16, 63, 64, 127, 128, 255, 256, 1};
    for (int i = 0; i < 12; i++) {
        for (int d = -1; d <= 0 && i >= 3 && i <= 4; d++)
            if (cand[i] + d >= 0 && cand[i] + d < n && k < cap) pos[k++] = cand[i] + d;
        if ((i < 3 || i > 4) && cand[i] >= 0 && cand[i] < n && k < cap) pos[k++] = cand[i];
    }
    for (int64_t b = 1024; b < n && k + 2 <= cap; b += 1024) pos[k++] = b - 1, pos[k++] = b;
    return k;
}

/* The three patterns: zeros and a 1 (sums, mean, max), ones and a -1 (min), zeros and a NaN. */
static const float pattern_base[3] = {0.0f, 1.0f, 0.0f}, pattern_special[3] = {1.0f, -1.0f, NAN};

/* Rows of n (M of them, pitch n + 1; M = 1 is cut across threads from 4096 on): each row all
 * base but one special at each position in turn; every op must give exactly what it should. */
static void check_exact_rows(const exact_rung *g, int64_t M, int64_t n)
{
    int64_t lda = n + 1, pos[256];
    int np = exact_positions(n, pos, 256);
    float *A = malloc(sizeof(float) * (size_t)(M * lda)), r[4];
    for (int pt = 0; pt < 3; pt++) {
        for (int64_t i = 0; i < M * lda; i++) A[i] = pattern_base[pt];
        for (int k = 0; k < np; k++) {
            for (int64_t i = 0; i < M; i++) A[i * lda + pos[k]] = pattern_special[pt];
            for (int op = 0; op < PL_REDUCE_N_OPS; op++) {
                pl_reduce_problem p = {M, n, lda, op, 1, 1};
                if (run_exact(g, &p, A, r) != PL_OK) continue;
                float want = exact_want(op, pattern_base[pt], pattern_special[pt], n);
                for (int64_t i = 0; i < M; i++)
                    CHECK(same_float(r[i], want), "%s isa=%lld threads=%d: %s of row %lld of %lldx%lld (base %g, %g at "
                          "%lld): %.9g, want %.9g", g->name, (long long)g->isa, pl_ctx_threads(g->ctx),
                          pl_reduce_op_names[op], (long long)i, (long long)M, (long long)n, pattern_base[pt],
                          pattern_special[pt], (long long)pos[k], r[i], want);
            }
            for (int64_t i = 0; i < M; i++) A[i * lda + pos[k]] = pattern_base[pt];
        }
    }
    free(A);
}

/* Columns: n rows of C = 67 columns (a band of 64 and a tail; pitch 68); column c holds its
 * special at the position c picks in turn, so one run checks every position in several bands. */
static void check_exact_cols(const exact_rung *g, int64_t n)
{
    enum { C = 67, LDA = 68 };
    int64_t pos[256];
    int np = exact_positions(n, pos, 256);
    float *A = malloc(sizeof(float) * (size_t)(n * LDA)), r[C];
    for (int pt = 0; pt < 3; pt++) {
        for (int64_t i = 0; i < n * LDA; i++) A[i] = pattern_base[pt];
        for (int c = 0; c < C; c++) A[pos[c % np] * LDA + c] = pattern_special[pt];
        for (int op = 0; op < PL_REDUCE_N_OPS; op++) {
            pl_reduce_problem p = {n, C, LDA, op, 0, 1};
            if (run_exact(g, &p, A, r) != PL_OK) continue;
            float want = exact_want(op, pattern_base[pt], pattern_special[pt], n);
            for (int c = 0; c < C; c++)
                CHECK(same_float(r[c], want), "%s isa=%lld threads=%d: %s of column %d of %lldx%d (base %g, %g at row "
                      "%lld): %.9g, want %.9g", g->name, (long long)g->isa, pl_ctx_threads(g->ctx),
                      pl_reduce_op_names[op], c, (long long)n, C, pattern_base[pt], pattern_special[pt],
                      (long long)pos[c % np], r[c], want);
        }
    }
    free(A);
}

/* dot of x (all base but one special) with y = 2s: 2 x the sum, exactly; NaN stays NaN. */
static void check_exact_dot(const exact_rung *g, int64_t n)
{
    int64_t pos[256];
    int np = exact_positions(n, pos, 256);
    float *x = malloc(sizeof(float) * (size_t)n), *y = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) y[i] = 2.0f;
    for (int pt = 0; pt < 3; pt++) {
        for (int64_t i = 0; i < n; i++) x[i] = pattern_base[pt];
        for (int k = 0; k < np; k++) {
            x[pos[k]] = pattern_special[pt];
            pl_dot_problem p = {n};
            float d = 12345.0f;
            int64_t params[PL_MAX_PARAMS] = {g->isa < 0 ? 0 : g->isa};
            void *data[3] = {x, y, &d};
            pl_run_args a = {g->ctx, &p, data, 3, params, NULL, NULL};
            pl_status st = g->run(&a);
            float want = 2.0f * exact_want(PL_REDUCE_SUM, pattern_base[pt], pattern_special[pt], n);
            CHECK(st == PL_OK && same_float(d, want), "dot %s isa=%lld threads=%d: n=%lld (base %g, %g at %lld): %.9g, "
                  "want %.9g %s", g->name, (long long)g->isa, pl_ctx_threads(g->ctx), (long long)n, pattern_base[pt],
                  pattern_special[pt], (long long)pos[k], d, want, st == PL_OK ? "" : pl_last_error());
            x[pos[k]] = pattern_base[pt];
        }
    }
    free(x), free(y);
}

/* Each CPU rung of a ladder (peers too where they run), at each isa it can run, on 1, 2 and 3
 * threads: exact answers at lengths past every place where cpu-simd cuts its work (4 vectors,
 * blocks of 1024, the split of a long row from 4 blocks, column leaves of 64 rows). A rung
 * that loses one element anywhere answers wrong here. */
static void check_exact(const pl_kernel *K, int is_dot)
{
    static const int64_t lengths[] = {1, 7, 33, 65, 129, 1023, 1025, 4095, 4097, 5000, 8193, 12289, 100003};
    static const int64_t col_lengths[] = {1, 7, 63, 65, 129, 257, 1000, 4097};
    for (int th = 1; th <= 3; th++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, th) == PL_OK, "cpu context: %s", pl_last_error());
        if (!ctx) continue;
        for (int i = 0; i < K->n_variants; i++) {
            const pl_variant *v = K->ladder[i];
            char why[128];
            if (v->backend != PL_BACKEND_CPU) continue;
            if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
                if (th == 1) cpu_rung_may_skip(v, v->name, why);
                continue;
            }
            int has_isa = v->n_params > 0 && !strcmp(v->params[0].name, "isa");
            for (int64_t isa = has_isa ? 0 : -1; isa < (has_isa ? 3 : 0); isa++) {
                if (isa == 2 && !(pl_features() & PL_FEAT_AVX512)) continue; /* refused: test_reduce's cases */
                exact_rung g = {v->name, v->run, isa, ctx};
                for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
                    if (is_dot) {
                        check_exact_dot(&g, lengths[l]);
                        continue;
                    }
                    check_exact_rows(&g, 1, lengths[l]);
                    if (lengths[l] < 10000) check_exact_rows(&g, 3, lengths[l]);
                }
                for (size_t l = 0; !is_dot && l < sizeof col_lengths / sizeof *col_lengths; l++)
                    check_exact_cols(&g, col_lengths[l]);
            }
        }
        pl_ctx_destroy(ctx);
    }
    printf("%s: exact cases (a lost element, the min or max or a NaN anywhere) checked\n", K->name);
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
            cpu_rung_may_skip(v, v->name, why);
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
            cpu_rung_may_skip(v, "dot", why);
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
    /* The public enum (include/parlab.h): its numbers are what bindings pass; a value outside
     * it is refused and named. */
    CHECK(PL_REDUCE_SUM == 0 && PL_REDUCE_SUMSQ == 4 && PL_REDUCE_N_OPS == 5, "pl_reduce_op's values moved");
    CHECK(pl_sreduce(ctx, (pl_reduce_op)99, 1, M, N, A, LDA, r) == PL_ERR_ARG && strstr(pl_last_error(), "op 99"),
          "op 99 is refused, named: %s", pl_last_error());
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, 2, M, N, A, LDA, r) == PL_ERR_ARG, "axis 2 is refused");
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, -3, M, N, A, LDA, r) == PL_ERR_ARG && strstr(pl_last_error(), "-3"),
          "axis -3 is refused, named: %s", pl_last_error());
    /* NumPy's negative axes: -2 is 0 (a column max, as above), -1 is 1 */
    CHECK(pl_sreduce(ctx, PL_REDUCE_MAX, -2, M, N, A, LDA, r) == PL_OK, "pl_sreduce axis -2: %s", pl_last_error());
    for (int j = 0; j < N; j++) {
        float m = A[j];
        for (int i = 1; i < M; i++) m = A[(size_t)i * LDA + j] > m ? A[(size_t)i * LDA + j] : m;
        CHECK(r[j] == m, "pl_sreduce axis -2 column max %d: %g, want %g", j, r[j], m);
    }
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

    check_exact(&pl_reduce_kernel, 0);
    check_exact(&pl_dot_kernel, 1);
    check_accuracy(ctx);
    pl_ctx_destroy(ctx);
    return check_summary("reduce");
}
