/* test_gemv.c: every CPU GEMV rung (and the CPU peer) against the float64 reference on the
 * odd shapes of gemv_cases.h, both forms, four alpha/beta/padding sets, every parameter value,
 * with 1 and 2 threads; pl_sgemv's argument checks; cpu-simd's rows agree bit for bit on 1
 * and 2 threads; the reference accumulates in float64. What cannot run here prints
 * "skipped: <why>". */
#include "gemv_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_rungs(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) == PL_OK, "cpu context: %s", pl_last_error());
        if (!ctx) return;
        for (int i = 0; i < pl_gemv_kernel.n_variants; i++) {
            const pl_variant *v = pl_gemv_kernel.ladder[i];
            if (v->backend != PL_BACKEND_CPU) continue;
            char why[128];
            if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
                {
                char label[96];
                snprintf(label, sizeof label, "%s (threads=%d)", v->name, threads);
                cpu_rung_may_skip(v, label, why);
            }
                continue;
            }
            check_gemv_all_params(ctx, v, N_GEMV_SHAPES);
        }
        pl_ctx_destroy(ctx);
    }
}

/* pl_sgemv on plain arrays, both forms: the result against a double loop; a NaN-filled y
 * with beta = 0 must not leak into it; bad arguments get a status and a message. */
static void test_api(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    enum { M = 37, N = 41, LDA = 45 };
    static float A[M * LDA], x[M > N ? M : N], y[M > N ? M : N];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
    for (int i = 0; i < (M > N ? M : N); i++) x[i] = (float)((i * 53 % 97) - 48) / 48.0f;
    for (int t = 0; t < 2; t++) {
        int ny = t ? N : M, nk = t ? M : N;
        for (int i = 0; i < ny; i++) y[i] = NAN;
        CHECK(pl_sgemv(ctx, t ? 't' : 'n', M, N, 1.5f, A, LDA, x, 0.0f, y) == PL_OK, "pl_sgemv: %s", pl_last_error());
        double worst = 0;
        for (int i = 0; i < ny; i++) {
            double ref = 0;
            for (int k = 0; k < nk; k++) ref += (double)(t ? A[k * LDA + i] : A[i * LDA + k]) * x[k];
            double e = fabs(1.5 * ref - y[i]);
            if (!(e <= worst)) worst = e;
        }
        CHECK(worst < 1e-4, "pl_sgemv trans=%c (%s): max error %g", t ? 't' : 'n',
              pl_best_variant(ctx, pl_kernel_find("gemv"), NULL), worst);
        /* beta = 1 adds y to the same product again. */
        float y1[M > N ? M : N];
        memcpy(y1, y, sizeof y1);
        CHECK(pl_sgemv(ctx, t ? 'T' : 'N', M, N, 1.5f, A, LDA, x, 1.0f, y) == PL_OK, "pl_sgemv: %s", pl_last_error());
        int off = 0;
        for (int i = 0; i < ny; i++) off += fabsf(y[i] - 2 * y1[i]) > 1e-4f * (1 + fabsf(y1[i]));
        CHECK(off == 0, "pl_sgemv trans=%c beta=1: %d elements are not twice the product", t ? 't' : 'n', off);
    }
    struct { char trans; int64_t m, n, lda; pl_status want; const char *what; } bad[] = {
        {'n', 0, 4, 4, PL_ERR_ARG, "M = 0"},
        {'t', 4, -1, 4, PL_ERR_ARG, "N < 0"},
        {'n', 4, 4, 3, PL_ERR_ARG, "lda < N"},
        {'x', 4, 4, 4, PL_ERR_ARG, "trans = x"},
        {'n', INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40, PL_ERR_OVERFLOW, "overflow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_status st = pl_sgemv(ctx, bad[i].trans, bad[i].m, bad[i].n, 1, A, bad[i].lda, x, 0, y);
        CHECK(st == bad[i].want, "%s: status %s, want %s", bad[i].what, pl_status_name(st), pl_status_name(bad[i].want));
        CHECK(pl_last_error()[0] != '\0', "%s: no message", bad[i].what);
    }
    CHECK(pl_sgemv(ctx, 'n', 4, 4, 1, NULL, 4, x, 0, y) == PL_ERR_ARG, "A = NULL must be refused");
    CHECK(pl_sgemv_variant(ctx, "no-such-rung", NULL, 'n', 4, 4, 1, A, 4, x, 0, y) == PL_ERR_ARG, "unknown variant");
    int64_t bad_isa[1] = {7};
    CHECK(pl_sgemv_variant(ctx, "cpu-simd", bad_isa, 'n', 4, 4, 1, A, 4, x, 0, y) == PL_ERR_ARG, "isa=7");
    CHECK(strstr(pl_last_error(), "isa") != NULL, "message names the parameter: %s", pl_last_error());
    if (!(pl_features() & PL_FEAT_GPU))
        CHECK(pl_sgemv_variant(ctx, "cuda-naive", NULL, 'n', 4, 4, 1, A, 4, x, 0, y) != PL_OK,
              "cuda-naive without a GPU must be refused");
    else
        printf("skipped: CUDA refused without a GPU (this machine has one)\n");
    pl_ctx_destroy(ctx);
}

/* Sizes given as text: parsed, or refused with the right status; the trans parameter. */
static void test_sizes(void)
{
    struct { const char *size; pl_status want; } cases[] = {
        {"16", PL_OK}, {"3x5", PL_OK}, {"small", PL_OK}, {"large", PL_OK}, {"0", PL_ERR_ARG}, {"-4", PL_ERR_ARG},
        {"4x0", PL_ERR_ARG}, {"4x4x4", PL_ERR_ARG}, {"abc", PL_ERR_ARG}, {"", PL_ERR_ARG}, {"4x", PL_ERR_ARG},
        {"99999999999999999999", PL_ERR_OVERFLOW}, {"4000000000x4000000000", PL_ERR_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_plan plan;
        pl_status st = pl_problem_plan(&pl_gemv_kernel, cases[i].size, NULL, PL_CHECK_AUTO, &plan);
        CHECK(st == cases[i].want, "size '%s': %s, want %s (%s)", cases[i].size, pl_status_name(st),
              pl_status_name(cases[i].want), pl_last_error());
    }
    /* The counts: A, x and y once (y twice with beta); trans swaps x and y. */
    pl_pvalues pv;
    pl_pvalues_default(&pl_gemv_kernel, &pv);
    int given[PL_MAX_PARAMS] = {0};
    CHECK(pl_pvalues_set(&pl_gemv_kernel, &pv, given, "trans=t") == PL_OK, "trans=t: %s", pl_last_error());
    CHECK(pl_pvalues_set(&pl_gemv_kernel, &pv, given, "trans=x") != PL_OK, "trans=x must be refused");
    CHECK(pl_pvalues_set(&pl_gemv_kernel, &pv, given, "beta=1") == PL_OK, "beta=1: %s", pl_last_error());
    pl_plan plan;
    CHECK(pl_problem_plan(&pl_gemv_kernel, "100x10", &pv, PL_CHECK_AUTO, &plan) == PL_OK, "plan: %s", pl_last_error());
    CHECK(plan.bytes == 4.0 * (100 * 10 + 100 + 2 * 10) && plan.work == plan.bytes && plan.ops == 2000.0,
          "100x10 T beta=1: bytes %g work %g ops %g", plan.bytes, plan.work, plan.ops);
    CHECK(!strcmp(plan.desc, "100x10 T"), "describe: '%s'", plan.desc);
    CHECK(plan.check == PL_CHECK_FULL, "gemv always runs the full check");
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, &pl_gemv_kernel, "400000", NULL, 1);
    CHECK(st == PL_ERR_TOO_BIG && p == NULL && strstr(pl_last_error(), "GiB"), "a 400000^2 problem: %s (%s)",
          pl_status_name(st), pl_last_error());
}

/* cpu-simd's y = A*x on 1 and 2 threads gives the same bits: threads share out whole rows,
 * and a row's sum runs in the same order whichever group of 4 it falls in. */
static void test_threads_agree(void)
{
    enum { M = 301, N = 517 };
    float *A = malloc(sizeof(float) * M * N), *x = malloc(sizeof(float) * N);
    float *y1 = malloc(sizeof(float) * M), *y2 = malloc(sizeof(float) * M);
    pl_ctx *c1 = NULL, *c2 = NULL;
    CHECK(A && x && y1 && y2, "allocation");
    CHECK(pl_ctx_create(&c1, PL_BACKEND_CPU, 0, 1) == PL_OK && pl_ctx_create(&c2, PL_BACKEND_CPU, 0, 2) == PL_OK,
          "contexts: %s", pl_last_error());
    if (A && x && y1 && y2 && c1 && c2) {
        for (int i = 0; i < M * N; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
        for (int i = 0; i < N; i++) x[i] = (float)((i * 53 % 97) - 48) / 48.0f;
        pl_status s1 = pl_sgemv_variant(c1, "cpu-simd", NULL, 'n', M, N, 1, A, N, x, 0, y1);
        if (s1 == PL_ERR_UNSUPPORTED) {
            printf("skipped: cpu-simd 1 vs 2 threads: %s\n", pl_last_error());
        } else {
            pl_status s2 = pl_sgemv_variant(c2, "cpu-simd", NULL, 'n', M, N, 1, A, N, x, 0, y2);
            CHECK(s1 == PL_OK && s2 == PL_OK, "cpu-simd: %s", pl_last_error());
            CHECK(memcmp(y1, y2, sizeof(float) * M) == 0, "cpu-simd: 1 and 2 threads differ");
        }
    }
    pl_ctx_destroy(c1);
    pl_ctx_destroy(c2);
    free(A), free(x), free(y1), free(y2);
}

/* The reference accumulates in float64, through the kernel's own reference function.
 * A = [1 1 1; 1+2^-12 0 0], x = [2^25 1 -2^25] (n) / x = [1+2^-12 1+2^-12] (t):
 *   n: y0 = 2^25 + 1 - 2^25 = 1 (float32 would give 0); y1 = (1+2^-12) 2^25
 *   t: y0 = (1+2^-12) + (1+2^-12)^2 = 2 + 3*2^-12 + 2^-24 (float32 loses 2^-24); y1 = y2 = 1+2^-12 */
static void test_reference_float64(void)
{
    const double e = 0x1p-12, big = 0x1p25;
    float A[6] = {1, 1, 1, (float)(1 + e), 0, 0};
    float xn[3] = {(float)big, 1, (float)-big}, xt[2] = {(float)(1 + e), (float)(1 + e)}, y0[3] = {(float)0x1p-30, 0, 0};
    for (int t = 0; t < 2; t++)
        for (int c = 0; c < 2; c++) {
            pl_gemv_problem p = {.M = 2, .N = 3, .lda = 3, .trans = t, .alpha = c ? 2.0f : 1.0f, .beta = c ? 1.0f : 0.0f};
            int ny = t ? 3 : 2;
            double want_n[2] = {1, (1 + e) * big}, want_t[3] = {2 + 3 * e + e * e, 1 + e, 1 + e};
            double R[3] = {NAN, NAN, NAN}, S[3] = {NAN, NAN, NAN};
            pl_tensor tt[3] = {{"A", PL_F32, PL_IN, 2, 3, 3, A},
                               {"x", PL_F32, PL_IN, 1, t ? 2 : 3, t ? 2 : 3, t ? xt : xn},
                               {"y", PL_F32, c ? PL_INOUT : PL_OUT, 1, ny, ny, y0}};
            pl_tensor ref[3] = {tt[0], tt[1], {"y", PL_F64, PL_OUT, 1, ny, ny, R}};
            pl_tensor scale[3] = {tt[0], tt[1], {"y", PL_F64, PL_OUT, 1, ny, ny, S}};
            CHECK(pl_gemv_kernel.reference(&p, tt, 3, ref, scale) == PL_OK, "reference: %s", pl_last_error());
            for (int i = 0; i < ny; i++) {
                double want = p.alpha * (t ? want_t[i] : want_n[i]) + (i == 0 && c ? 0x1p-30 : 0);
                CHECK(R[i] == want, "reference trans=%d alpha=%g beta=%g: y[%d] = %.17g, want %.17g", t, p.alpha,
                      p.beta, i, R[i], want);
            }
            double s0 = p.alpha * (t ? 2 + 3 * e + e * e : 2 * big + 1) + (c ? 0x1p-30 : 0);
            CHECK(S[0] == s0, "scale trans=%d y[0] = %.17g, want %.17g", t, S[0], s0);
        }
}

int main(void)
{
    test_sizes();
    test_api();
    test_rungs();
    test_threads_agree();
    test_reference_float64();
    return check_summary("gemv");
}
