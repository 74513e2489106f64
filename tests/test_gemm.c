/* test_gemm.c: every CPU GEMM rung (and the CPU peer) against the float64 reference on
 * shapes that are multiples of no tile, four alpha/beta/padding sets, every parameter value,
 * with 1 and 2 threads; pl_sgemm's argument checks. */
#include "gemm_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_rungs(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) == PL_OK, "cpu context: %s", pl_last_error());
        if (!ctx) return;
        for (int i = 0; i < pl_gemm_kernel.n_variants; i++) {
            const pl_variant *v = pl_gemm_kernel.ladder[i];
            if (v->backend != PL_BACKEND_CPU) continue;
            char why[128];
            if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
                printf("note: %s not tested here: %s\n", v->name, why);
                continue;
            }
            check_variant_all_params(ctx, v);
        }
        pl_ctx_destroy(ctx);
    }
}

/* pl_sgemm on plain arrays: the result against a double loop, and a NaN-filled C with
 * beta = 0 must not leak into the result. */
static void test_api(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    enum { M = 37, N = 41, K = 29, LDA = 31, LDB = 45, LDC = 43 };
    static float A[M * LDA], B[K * LDB], C[M * LDC];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
    for (int i = 0; i < K * LDB; i++) B[i] = (float)((i * 53 % 97) - 48) / 48.0f;
    for (int i = 0; i < M * LDC; i++) C[i] = NAN;
    CHECK(pl_sgemm(ctx, M, N, K, 1.5f, A, LDA, B, LDB, 0.0f, C, LDC) == PL_OK, "pl_sgemm: %s", pl_last_error());
    double worst = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0;
            for (int k = 0; k < K; k++) ref += (double)A[i * LDA + k] * B[k * LDB + j];
            double e = fabs(1.5 * ref - C[i * LDC + j]);
            if (!(e <= worst)) worst = e;
        }
    CHECK(worst < 1e-4, "pl_sgemm (%s): max error %g", pl_gemm_best_variant(ctx), worst);
    CHECK(isnan(C[LDC - 1]), "pl_sgemm wrote into C's row padding");

    /* Bad arguments: a clear status and message, never a crash. */
    struct { int64_t m, n, k, lda, ldb, ldc; pl_status want; const char *what; } bad[] = {
        {0, 4, 4, 4, 4, 4, PL_ERR_ARG, "M = 0"},
        {4, -1, 4, 4, 4, 4, PL_ERR_ARG, "N < 0"},
        {4, 4, 4, 3, 4, 4, PL_ERR_ARG, "lda < K"},
        {4, 4, 4, 4, 3, 4, PL_ERR_ARG, "ldb < N"},
        {4, 4, 4, 4, 4, 2, PL_ERR_ARG, "ldc < N"},
        {INT64_C(1) << 40, INT64_C(1) << 40, 4, 4, INT64_C(1) << 40, INT64_C(1) << 40, PL_ERR_OVERFLOW, "overflow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_status st = pl_sgemm(ctx, bad[i].m, bad[i].n, bad[i].k, 1, A, bad[i].lda, B, bad[i].ldb, 0, C, bad[i].ldc);
        CHECK(st == bad[i].want, "%s: status %s, want %s", bad[i].what, pl_status_name(st), pl_status_name(bad[i].want));
        CHECK(pl_last_error()[0] != '\0', "%s: no message", bad[i].what);
    }
    CHECK(pl_sgemm_variant(ctx, "no-such-rung", NULL, 4, 4, 4, 1, A, 4, B, 4, 0, C, 4) == PL_ERR_ARG, "unknown variant");
    int64_t bad_block[2] = {12, 0};
    CHECK(pl_sgemm_variant(ctx, "cpu-simd-blocked", bad_block, 4, 4, 4, 1, A, 4, B, 4, 0, C, 4) == PL_ERR_ARG,
          "block=12 is not a multiple of 8");
    CHECK(strstr(pl_last_error(), "block") != NULL, "message names the parameter: %s", pl_last_error());
    if (!(pl_features() & PL_FEAT_GPU)) {
        pl_ctx *gpu = NULL;
        pl_status st = pl_ctx_create(&gpu, PL_BACKEND_CUDA, 0, 0);
        CHECK(st == PL_ERR_NO_GPU || st == PL_ERR_NO_CUDA, "a CUDA context without a GPU: %s", pl_status_name(st));
        CHECK(pl_sgemm_variant(ctx, "cuda-naive", NULL, 4, 4, 4, 1, A, 4, B, 4, 0, C, 4) != PL_OK,
              "cuda-naive without a GPU must be refused");
    }
    pl_ctx_destroy(ctx);
}

/* Sizes given as text: parsed, or refused with the right status. */
static void test_sizes(void)
{
    struct { const char *size; pl_status want; } cases[] = {
        {"16", PL_OK}, {"3x5x7", PL_OK}, {"small", PL_OK}, {"0", PL_ERR_ARG}, {"-4", PL_ERR_ARG},
        {"4x4", PL_ERR_ARG}, {"4x0x4", PL_ERR_ARG}, {"abc", PL_ERR_ARG}, {"", PL_ERR_ARG},
        {"99999999999999999999", PL_ERR_OVERFLOW}, {"4000000000x4000000000x4000000000", PL_ERR_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_gemm_problem p;
        double pv[3] = {1, 0, 0};
        pl_status st = pl_gemm_spec_make_problem(&p, cases[i].size, pv);
        CHECK(st == cases[i].want, "size '%s': %s, want %s (%s)", cases[i].size, pl_status_name(st),
              pl_status_name(cases[i].want), pl_last_error());
    }
    /* Too large to fit in memory: refused before allocating, not killed by the OOM killer. */
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, &pl_gemm_kernel, "300000", NULL, 1);
    CHECK(st == PL_ERR_NOMEM && p == NULL, "a 300000^2 problem: %s (%s)", pl_status_name(st), pl_last_error());
}

/* cpu-packed with blocks far smaller than the problem, so every loop runs several times and
 * every block has an edge: mc=1 (one MR sliver), kc=5, nc=16 (one NR sliver), and uneven
 * ones. Threads 1 and 2. */
static void test_packed_blocking(void)
{
    const pl_variant *v = pl_variant_find(&pl_gemm_kernel, "cpu-packed");
    static const int64_t blockings[][4] = {{1, 5, 16, 0}, {13, 37, 50, 0}, {7, 1, 1, 2}, {100, 64, 200, 2}};
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) == PL_OK, "context: %s", pl_last_error());
        if (!ctx || !v || pl_variant_check(ctx, v, NULL, 0) != PL_OK) {
            pl_ctx_destroy(ctx);
            return;
        }
        for (size_t b = 0; b < sizeof blockings / sizeof blockings[0]; b++) {
            char label[96];
            snprintf(label, sizeof label, "cpu-packed mc=%lld kc=%lld nc=%lld threads=%d",
                     (long long)blockings[b][0], (long long)blockings[b][1], (long long)blockings[b][2], threads);
            check_variant_on_cases(ctx, v, blockings[b], label);
        }
        pl_ctx_destroy(ctx);
    }
}

/* Larger odd sizes (not multiples of MR, NR or any block), default parameters, for the rungs
 * that block for the caches. */
static void test_large_odd(void)
{
    const char *sizes[] = {"1023", "515x1031x257", "64x1000x1500", "1500x64x33"};
    const char *names[] = {"cpu-packed", "cpu-simd-blocked"};
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        pl_problem *p = NULL;
        double pv[3] = {1.25, 0.5, 3};
        CHECK(pl_problem_create(&p, &pl_gemm_kernel, sizes[s], pv, 5) == PL_OK, "%s: %s", sizes[s], pl_last_error());
        for (size_t i = 0; p && i < sizeof names / sizeof names[0]; i++) {
            const pl_variant *v = pl_variant_find(&pl_gemm_kernel, names[i]);
            if (!v || pl_variant_check(ctx, v, NULL, 0) != PL_OK) continue;
            pl_result r;
            pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
            CHECK(st == PL_OK && r.verified, "%s at %s: %s error %.3e bound %.3e", names[i], sizes[s],
                  st == PL_OK ? "" : pl_last_error(), r.error, r.bound);
        }
        pl_problem_destroy(p);
    }
    pl_ctx_destroy(ctx);
}

/* One and two threads agree: the same problem through pl_sgemm on 1 and 2 threads, element
 * by element within the FP32 bound of the K sums (the split changes only which core does
 * which tile, so with cpu-packed the results are in fact identical). */
static void test_threads_agree(void)
{
    enum { M = 301, N = 203, K = 517 };
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    float *C1 = malloc(sizeof(float) * M * N), *C2 = malloc(sizeof(float) * M * N);
    CHECK(A && B && C1 && C2, "allocation");
    if (!(A && B && C1 && C2)) goto out;
    for (int i = 0; i < M * K; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)((i * 53 % 97) - 48) / 48.0f;
    const char *names[] = {"cpu-packed", "cpu-simd-blocked", "cpu-naive"};
    for (size_t v = 0; v < sizeof names / sizeof names[0]; v++) {
        pl_ctx *c1 = NULL, *c2 = NULL;
        pl_ctx_create(&c1, PL_BACKEND_CPU, 0, 1);
        pl_ctx_create(&c2, PL_BACKEND_CPU, 0, 2);
        pl_status s1 = pl_sgemm_variant(c1, names[v], NULL, M, N, K, 1, A, K, B, N, 0, C1, N);
        pl_status s2 = pl_sgemm_variant(c2, names[v], NULL, M, N, K, 1, A, K, B, N, 0, C2, N);
        if (s1 == PL_ERR_UNSUPPORTED) goto next;
        CHECK(s1 == PL_OK && s2 == PL_OK, "%s: %s", names[v], pl_last_error());
        double worst = 0;
        for (int i = 0; i < M * N; i++) {
            double d = fabs((double)C1[i] - C2[i]);
            if (!(d <= worst)) worst = d;
        }
        /* |sum| <= K here; FP32 rounding of a K-term sum: ~K * 2^-24 * K in the worst case. */
        CHECK(worst <= (double)K * K * 0x1p-24, "%s: 1 and 2 threads differ by %g", names[v], worst);
    next:
        pl_ctx_destroy(c1);
        pl_ctx_destroy(c2);
    }
out:
    free(A);
    free(B);
    free(C1);
    free(C2);
}

int main(void)
{
    test_sizes();
    test_api();
    test_rungs();
    test_packed_blocking();
    test_large_odd();
    test_threads_agree();
    return check_summary("gemm");
}
