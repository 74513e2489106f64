/* test_gemm.c: every CPU GEMM rung (and the CPU peer) against the float64 reference on
 * shapes that are multiples of no tile, four alpha/beta/padding sets, every parameter value,
 * with 1 and 2 threads; pl_sgemm's argument checks; the reference itself accumulates in
 * float64. Whatever cannot run here prints "skipped: <why>". */
#include "gemm_cases.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
                {
                char label[96];
                snprintf(label, sizeof label, "%s (threads=%d)", v->name, threads);
                cpu_rung_may_skip(v, label, why);
            }
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
    CHECK(worst < 1e-4, "pl_sgemm (%s): max error %g", pl_best_variant(ctx, pl_kernel_find("gemm"), NULL), worst);
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
    if (pl_features() & PL_FEAT_GPU) {
        printf("skipped: CUDA refused without a GPU (this machine has one)\n");
    } else {
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
        pl_plan plan; /* through the harness, which resolves the named sizes */
        pl_status st = pl_problem_plan(&pl_gemm_kernel, cases[i].size, NULL, PL_CHECK_AUTO, &plan);
        CHECK(st == cases[i].want, "size '%s': %s, want %s (%s)", cases[i].size, pl_status_name(st),
              pl_status_name(cases[i].want), pl_last_error());
    }
    /* Too large to fit in memory: refused before allocating, not killed by the OOM killer. */
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, &pl_gemm_kernel, "300000", NULL, 1);
    CHECK(st == PL_ERR_TOO_BIG && p == NULL && strstr(pl_last_error(), "GiB"), "a 300000^2 problem: %s (%s)",
          pl_status_name(st), pl_last_error());
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
        CHECK(v != NULL, "no rung named cpu-packed");
        char why[128] = "";
        if (!ctx || !v) {
            pl_ctx_destroy(ctx);
            return;
        }
        if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
            cpu_rung_may_skip(v, "cpu-packed blocking", why);
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
        double pv[PL_GEMM_PROBLEM_N_PARAMS] = {1.25, 0.5, 3, PL_GEMM_DTYPE_F32};
        CHECK(pl_problem_create(&p, &pl_gemm_kernel, sizes[s], pv, 5) == PL_OK, "%s: %s", sizes[s], pl_last_error());
        for (size_t i = 0; p && i < sizeof names / sizeof names[0]; i++) {
            const pl_variant *v = pl_variant_find(&pl_gemm_kernel, names[i]);
            char why[128] = "";
            CHECK(v != NULL, "no rung named %s", names[i]);
            if (!v) continue;
            if (pl_variant_check(ctx, v, why, sizeof why) != PL_OK) {
                cpu_rung_may_skip(v, names[i], why);
                continue;
            }
            pl_result r;
            pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
            CHECK(st == PL_OK && r.verified, "%s at %s: %s error %.3e bound %.3e", names[i], sizes[s],
                  st == PL_OK ? "" : pl_last_error(), r.error, r.bound);
        }
        pl_problem_destroy(p);
    }
    pl_ctx_destroy(ctx);
}

/* One and two threads agree exactly: the same problem through pl_sgemm_variant on 1 and 2
 * threads must give bit-identical C. Every CPU rung splits only the output among threads
 * (rows for cpu-naive and cpu-simd-blocked; M ranges (ic) or N slivers (jr) of the same
 * blocks for cpu-packed, whose KC/MC/NC blocking does not depend on the thread count), so
 * each element's K sum runs in the same order with the same instructions on any thread
 * count. Two shapes: M large (cpu-packed splits M) and M small (it splits N). */
static void test_threads_agree(void)
{
    static const int shapes[][3] = {{301, 203, 517}, {24, 1500, 300}};
    const char *names[] = {"cpu-packed", "cpu-simd-blocked", "cpu-naive"};
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++) {
        const int M = shapes[sh][0], N = shapes[sh][1], K = shapes[sh][2];
        float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
        float *C1 = malloc(sizeof(float) * M * N), *C2 = malloc(sizeof(float) * M * N);
        CHECK(A && B && C1 && C2, "allocation");
        if (!(A && B && C1 && C2)) goto out;
        for (int i = 0; i < M * K; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
        for (int i = 0; i < K * N; i++) B[i] = (float)((i * 53 % 97) - 48) / 48.0f;
        for (size_t v = 0; v < sizeof names / sizeof names[0]; v++) {
            pl_ctx *c1 = NULL, *c2 = NULL;
            CHECK(pl_ctx_create(&c1, PL_BACKEND_CPU, 0, 1) == PL_OK, "context: %s", pl_last_error());
            CHECK(pl_ctx_create(&c2, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
            if (!c1 || !c2) goto next;
            for (int i = 0; i < M * N; i++) C1[i] = C2[i] = NAN;
            pl_status s1 = pl_sgemm_variant(c1, names[v], NULL, M, N, K, 1, A, K, B, N, 0, C1, N);
            if (s1 == PL_ERR_UNSUPPORTED) {
                printf("skipped: %s 1 vs 2 threads: %s\n", names[v], pl_last_error());
                goto next;
            }
            pl_status s2 = pl_sgemm_variant(c2, names[v], NULL, M, N, K, 1, A, K, B, N, 0, C2, N);
            CHECK(s1 == PL_OK && s2 == PL_OK, "%s: %s", names[v], pl_last_error());
            int differ = 0, first = -1;
            for (int i = 0; i < M * N; i++)
                if (memcmp(&C1[i], &C2[i], sizeof(float)) != 0 && differ++ == 0) first = i;
            CHECK(differ == 0, "%s %dx%dx%d: 1 and 2 threads differ in %d elements (first [%d,%d]: %.9g vs %.9g)",
                  names[v], M, N, K, differ, first / N, first % N, first < 0 ? 0.0 : C1[first],
                  first < 0 ? 0.0 : C2[first]);
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
}

/* The float64 reference accumulates (and multiplies) in float64: hand-made operands whose
 * float32 evaluation is clearly wrong, through the kernel's own reference function (what the
 * harness verifies every rung against).
 *   A = [1 1 1; 1+2^-12 0 0], B = [2^25 1+2^-12; 1 0; -2^25 0]
 *   C[0][0] = 2^25 + 1 - 2^25 = 1 (float32 sums: 2^25 + 1 rounds to 2^25, giving 0)
 *   C[1][1] = (1+2^-12)^2 = 1 + 2^-11 + 2^-24 (a float32 product rounds to 1 + 2^-11)
 * Every value is exact in float64, so the check is equality. With beta: C0 = 2^-30 is added
 * in float64 too (float32 would lose it beside 1). */
static void test_reference_float64(void)
{
    const double e = 0x1p-12, big = 0x1p25;
    float A[6] = {1, 1, 1, (float)(1 + e), 0, 0};
    float B[6] = {(float)big, (float)(1 + e), 1, 0, (float)-big, 0};
    float C0[4] = {(float)0x1p-30, 0, 0, 0};
    const double want[2][4] = {
        {1, 1 + e, big + big * e, 1 + 2 * e + e * e},              /* alpha 1, beta 0 */
        {2 + 0x1p-30, 2 + 2 * e, 2 * (big + big * e), 2 * (1 + 2 * e + e * e)}, /* alpha 2, beta 1 */
    };
    CHECK(pl_gemm_kernel.reference != NULL, "pl_gemm_kernel has no reference");
    if (!pl_gemm_kernel.reference) return;
    for (int c = 0; c < 2; c++) {
        pl_gemm_problem p = {.M = 2, .N = 2, .K = 3, .lda = 3, .ldb = 2, .ldc = 2,
                             .alpha = c ? 2.0f : 1.0f, .beta = c ? 1.0f : 0.0f};
        double R[4] = {NAN, NAN, NAN, NAN}, S[4] = {NAN, NAN, NAN, NAN};
        pl_tensor t[3] = {
            {"A", PL_F32, PL_IN, 2, 3, 3, A},
            {"B", PL_F32, PL_IN, 3, 2, 2, B},
            {"C", PL_F32, c ? PL_INOUT : PL_OUT, 2, 2, 2, C0},
        };
        pl_tensor ref[3] = {t[0], t[1], {"C", PL_F64, PL_OUT, 2, 2, 2, R}};
        pl_tensor scale[3] = {t[0], t[1], {"C", PL_F64, PL_OUT, 2, 2, 2, S}};
        ref[0].host = ref[1].host = scale[0].host = scale[1].host = NULL;
        pl_status st = pl_gemm_kernel.reference(&p, t, 3, ref, scale);
        CHECK(st == PL_OK, "reference: %s", pl_last_error());
        for (int i = 0; i < 4; i++)
            CHECK(R[i] == want[c][i], "reference (alpha %g, beta %g) C[%d][%d] = %.17g, want %.17g (float64 "
                  "accumulation)", p.alpha, p.beta, i / 2, i % 2, R[i], want[c][i]);
        /* The element scale is |alpha||A||B| + |beta||C0|: C[0][0] sums 2^25 + 1 + 2^25. */
        CHECK(S[0] == (c ? 2.0 : 1.0) * (2 * big + 1) + (c ? 0x1p-30 : 0), "scale C[0][0] = %.17g", S[0]);
    }
}

/* pl_sgemm with a 2-thread context called from inside the caller's own OpenMP region, each
 * outer thread its own context: with nesting off the inner team has one thread where the
 * context asks for two. The result must be whole and right, and the call must return (a
 * barrier that counts two threads would wait forever). Both splits of cpu-packed: tall M (the
 * shared ic split) and M of one sliver (the jr split). */
static void test_inside_parallel(void)
{
    static const struct { int64_t m, n, k; } shapes[] = {{300, 257, 301}, {6, 2000, 400}};
    omp_set_max_active_levels(1);
    for (int s = 0; s < 2; s++) {
        const int64_t M = shapes[s].m, N = shapes[s].n, K = shapes[s].k;
        float *A = malloc(sizeof(float) * (size_t)(M * K)), *B = malloc(sizeof(float) * (size_t)(K * N));
        float *C[2] = {malloc(sizeof(float) * (size_t)(M * N)), malloc(sizeof(float) * (size_t)(M * N))};
        if (!A || !B || !C[0] || !C[1]) {
            CHECK(0, "inside a parallel region: out of memory");
            free(A), free(B), free(C[0]), free(C[1]);
            return;
        }
        for (int64_t i = 0; i < M * K; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f;
        for (int64_t i = 0; i < K * N; i++) B[i] = (float)((i * 53 % 97) - 48) / 48.0f;
        pl_status st[2] = {PL_ERR_ARG, PL_ERR_ARG};
        const char *used[2] = {"", ""};
#pragma omp parallel num_threads(2)
        {
            const int t = omp_get_thread_num();
            pl_ctx *ctx = NULL;
            if (pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK) {
                used[t] = pl_best_variant(ctx, pl_kernel_find("gemm"), NULL);
                st[t] = pl_sgemm(ctx, M, N, K, 1.0f, A, K, B, N, 0.0f, C[t], N);
                pl_ctx_destroy(ctx);
            }
        }
        for (int t = 0; t < 2; t++) {
            CHECK(st[t] == PL_OK, "%lldx%lldx%lld inside a parallel region, thread %d: status %d", (long long)M,
                  (long long)N, (long long)K, t, (int)st[t]);
            double worst = 0;
            for (int64_t i = 0; st[t] == PL_OK && i < M; i++)
                for (int64_t j = 0; j < N; j++) {
                    double ref = 0;
                    for (int64_t k = 0; k < K; k++) ref += (double)A[i * K + k] * B[k * N + j];
                    double e = fabs(ref - C[t][i * N + j]);
                    if (!(e <= worst)) worst = e;
                }
            CHECK(worst < 1e-3, "%lldx%lldx%lld inside a parallel region (%s), thread %d: max error %g", (long long)M,
                  (long long)N, (long long)K, used[t], t, worst);
        }
        free(A), free(B), free(C[0]), free(C[1]);
    }
}

int main(void)
{
    alarm(120); /* a hang inside a parallel region ends the test (SIGALRM), not the CI's timeout */
    test_inside_parallel();
    alarm(0);
    test_sizes();
    test_api();
    test_rungs();
    test_packed_blocking();
    test_large_odd();
    test_threads_agree();
    test_reference_float64();
    return check_summary("gemm");
}
