/* test_transpose.c: every CPU transpose rung (and the CPU peer) against the reference, for
 * equality, on odd and degenerate shapes with and without padding, at every parameter value,
 * with 1 and 2 threads; the in-register blocks (plain and streaming stores) element by element; pl_stranspose's argument
 * checks and padding; the size text. Whatever cannot run here prints "skipped: <why>". */
#include "transpose_cases.h"
#include "kernels/transpose/cpu_blocked.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_rungs(void)
{
    for (int threads = 1; threads <= 2; threads++) {
        pl_ctx *ctx = NULL;
        CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, threads) == PL_OK, "cpu context: %s", pl_last_error());
        if (!ctx) return;
        for (int i = 0; i < pl_transpose_kernel.n_variants; i++) {
            const pl_variant *v = pl_transpose_kernel.ladder[i];
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
            check_transpose_cases(ctx, v, NULL, v->name, N_TRANSPOSE_SHAPES);
            check_transpose_all_params(ctx, v, N_TRANSPOSE_SHAPES - 1);
        }
        pl_ctx_destroy(ctx);
    }
}

/* One in-register block per ISA, alone: B[j][i] == A[i][j] for every position, with leading
 * dimensions wider than the block (a wrong shuffle shows which element moved where). */
static void test_blocks(void)
{
    const transpose_simd_isa *isas[2] = {&pl_transpose_simd_avx2, &pl_transpose_simd_avx512};
    const unsigned need[2] = {PL_FEAT_AVX2, PL_FEAT_AVX512};
    enum { LDA = 37, LDB = 35 };
    static float A[32 * LDA], B[32 * LDB] __attribute__((aligned(64)));
    for (int k = 0; k < 2; k++) {
        if (!(pl_features() & need[k])) {
            printf("skipped: %dx%d register block: this CPU lacks it\n", isas[k]->width, isas[k]->width);
            continue;
        }
        for (int stream = 0; stream < 2; stream++) {
            int w = isas[k]->width, bad = 0;
            for (int i = 0; i < 32 * LDA; i++) A[i] = (float)i;
            for (int i = 0; i < 32 * LDB; i++) B[i] = -1.0f;
            if (stream) isas[k]->full_blocks_stream(A, LDA, B, 32, 2 * w, w); /* aligned rows */
            else isas[k]->full_blocks(A, LDA, B, LDB, 2 * w, w); /* two blocks down A */
            const int ldb = stream ? 32 : LDB;
            for (int i = 0; i < 2 * w; i++)
                for (int j = 0; j < w; j++)
                    if (B[j * ldb + i] != A[i * LDA + j]) {
                        if (!bad) printf("  width %d: B[%d][%d] = %g, want %g\n", w, j, i, B[j * ldb + i], A[i * LDA + j]);
                        bad++;
                    }
            for (int j = 0; j < w; j++)
                for (int i = 2 * w; i < ldb; i++) bad += B[j * ldb + i] != -1.0f; /* nothing past the region */
            CHECK(bad == 0, "%dx%d register transpose%s: %d elements wrong", w, w, stream ? " (streaming)" : "", bad);
        }
    }
}

/* pl_stranspose on plain arrays with padding on both sides: the result equals A^T, B's
 * padding stays as it was, bad arguments give a status and a message. */
static void test_api(void)
{
    pl_ctx *ctx = NULL;
    CHECK(pl_ctx_create(&ctx, PL_BACKEND_CPU, 0, 2) == PL_OK, "context: %s", pl_last_error());
    if (!ctx) return;
    enum { M = 37, N = 41, LDA = 45, LDB = 40 };
    static float A[M * LDA], B[N * LDB];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 37 % 101) - 50) / 50.0f + 0.001f;
    const char *names[] = {NULL, "cpu-naive", "cpu-blocked", "peer-openblas"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        for (int i = 0; i < N * LDB; i++) B[i] = NAN;
        pl_status st = names[n] ? pl_stranspose_variant(ctx, names[n], NULL, M, N, A, LDA, B, LDB)
                                : pl_stranspose(ctx, M, N, A, LDA, B, LDB);
        const char *name = names[n] ? names[n] : pl_best_variant(ctx, pl_kernel_find("transpose"), NULL);
        if (st == PL_ERR_UNSUPPORTED) {
            printf("skipped: pl_stranspose with %s: %s\n", name, pl_last_error());
            continue;
        }
        CHECK(st == PL_OK, "pl_stranspose %s: %s", name, pl_last_error());
        int wrong = 0, pad = 0;
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < M; i++) wrong += B[j * LDB + i] != A[i * LDA + j];
            for (int i = M; i < LDB; i++) pad += !isnan(B[j * LDB + i]);
        }
        CHECK(wrong == 0, "pl_stranspose %s: %d elements wrong", name, wrong);
        CHECK(pad == 0, "pl_stranspose %s wrote %d elements of B's row padding", name, pad);
    }
    struct { int64_t m, n, lda, ldb; pl_status want; const char *what; } bad[] = {
        {0, 4, 4, 4, PL_ERR_ARG, "M = 0"},
        {4, -1, 4, 4, PL_ERR_ARG, "N < 0"},
        {4, 5, 4, 4, PL_ERR_ARG, "lda < N"},
        {5, 4, 4, 4, PL_ERR_ARG, "ldb < M"},
        {INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40, PL_ERR_OVERFLOW, "overflow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pl_status st = pl_stranspose(ctx, bad[i].m, bad[i].n, A, bad[i].lda, B, bad[i].ldb);
        CHECK(st == bad[i].want, "%s: status %s, want %s", bad[i].what, pl_status_name(st), pl_status_name(bad[i].want));
        CHECK(pl_last_error()[0] != '\0', "%s: no message", bad[i].what);
    }
    CHECK(pl_stranspose_variant(ctx, "no-such-rung", NULL, 4, 4, A, 4, B, 4) == PL_ERR_ARG, "unknown variant");
    int64_t bad_tile[2] = {48, 0};
    CHECK(pl_stranspose_variant(ctx, "cpu-blocked", bad_tile, 4, 4, A, 4, B, 4) == PL_ERR_ARG, "tile=48 is not legal");
    CHECK(strstr(pl_last_error(), "tile") != NULL, "message names the parameter: %s", pl_last_error());
    if (pl_features() & PL_FEAT_GPU) {
        printf("skipped: CUDA refused without a GPU (this machine has one)\n");
    } else {
        CHECK(pl_stranspose_variant(ctx, "cuda-tuned", NULL, 4, 4, A, 4, B, 4) != PL_OK,
              "cuda-tuned without a GPU must be refused");
    }
    pl_ctx_destroy(ctx);
}

/* Sizes given as text, through the harness (named sizes resolved): parsed or refused. */
static void test_sizes(void)
{
    struct { const char *size; pl_status want; int64_t m, n; } cases[] = {
        {"16", PL_OK, 16, 16}, {"3x5", PL_OK, 3, 5}, {"small", PL_OK, 1024, 1024}, {"0", PL_ERR_ARG, 0, 0},
        {"-4", PL_ERR_ARG, 0, 0}, {"4x4x4", PL_ERR_ARG, 0, 0}, {"4x0", PL_ERR_ARG, 0, 0}, {"abc", PL_ERR_ARG, 0, 0},
        {"", PL_ERR_ARG, 0, 0}, {"4x", PL_ERR_ARG, 0, 0}, {"99999999999999999999", PL_ERR_OVERFLOW, 0, 0},
        {"4000000000x4000000000", PL_ERR_OVERFLOW, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pl_plan plan;
        pl_status st = pl_problem_plan(&pl_transpose_kernel, cases[i].size, NULL, PL_CHECK_AUTO, &plan);
        CHECK(st == cases[i].want, "size '%s': %s, want %s (%s)", cases[i].size, pl_status_name(st),
              pl_status_name(cases[i].want), pl_last_error());
        if (st == PL_OK && cases[i].want == PL_OK)
            CHECK(plan.bytes == 8.0 * (double)cases[i].m * (double)cases[i].n && plan.work == plan.bytes,
                  "size '%s': %g bytes, work %g", cases[i].size, plan.bytes, plan.work);
    }
    pl_problem *p = NULL;
    pl_status st = pl_problem_create(&p, &pl_transpose_kernel, "400000", NULL, 1);
    CHECK(st == PL_ERR_TOO_BIG && p == NULL && strstr(pl_last_error(), "GiB"), "a 400000^2 problem: %s (%s)",
          pl_status_name(st), pl_last_error());
}

int main(void)
{
    test_blocks();
    test_rungs();
    test_api();
    test_sizes();
    return check_summary("transpose");
}
