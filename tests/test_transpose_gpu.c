/* test_transpose_gpu.c: every CUDA transpose rung and the cuBLAS peer against the reference,
 * for equality, on the odd and degenerate shapes of the CPU test with and without padding
 * (pad 0 with rows a multiple of 4 takes cuda-tuned's 128-bit path, pad 3 its 32-bit one), at
 * every parameter value; then larger odd and square sizes at the defaults; pl_stranspose on a
 * CUDA context. Label `gpu`: without a GPU it reports "skipped: no GPU" (exit 77).
 * PL_SANITIZER=1 (under compute-sanitizer) leaves out 4097x4095 and the large sizes. */
#include "transpose_cases.h"
#include "gpu_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const int sanitizer = gpu_check_sanitizer();
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("transpose_gpu");
    const int n_shapes = sanitizer ? N_TRANSPOSE_SHAPES - 1 : N_TRANSPOSE_SHAPES;
    for (int i = 0; i < pl_transpose_kernel.n_variants; i++) {
        const pl_variant *v = pl_transpose_kernel.ladder[i];
        if (!gpu_check_rung(ctx, v)) continue;
        check_transpose_all_params(ctx, v, n_shapes);
        printf("%s: checked\n", v->name);
    }
    /* Larger sizes at the defaults: many tiles, odd edges on both sides, the 16384^2 of the
     * targets. */
    const char *big[] = {"4096", "8193x8191", "3x1000000", "1000000x3", "16384"};
    const int n_big = sanitizer ? 0 : (int)(sizeof big / sizeof big[0]);
    if (sanitizer) printf("skipped: large sizes under PL_SANITIZER\n");
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    cfg.min_time_s = 0;
    for (int s = 0; s < n_big; s++) {
        pl_problem *p = NULL;
        CHECK(pl_problem_create(&p, &pl_transpose_kernel, big[s], NULL, 11) == PL_OK, "%s: %s", big[s], pl_last_error());
        for (int i = 0; p && i < pl_transpose_kernel.n_variants; i++) {
            const pl_variant *v = pl_transpose_kernel.ladder[i];
            if (v->backend != PL_BACKEND_CUDA || gpu_check_peer_skipped(v)) continue;
            pl_result r;
            pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
            CHECK(st == PL_OK && r.verified, "%s at %s: %s error %g (worst at B[%lld][%lld])", v->name, big[s],
                  st == PL_OK ? "" : pl_last_error(), r.error, (long long)r.first.row, (long long)r.first.col);
        }
        pl_problem_destroy(p);
    }
    /* pl_stranspose on host arrays through a CUDA context, with padding on both sides. */
    enum { M = 45, N = 67, LDA = 70, LDB = 49 };
    static float A[M * LDA], B[N * LDB];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 7 % 19) - 9) / 9.0f + 0.01f;
    const char *names[] = {NULL, "cuda-naive-read", "cuda-tuned", "peer-cublas"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        for (int i = 0; i < N * LDB; i++) B[i] = NAN;
        pl_status st = names[n] ? pl_stranspose_variant(ctx, names[n], NULL, M, N, A, LDA, B, LDB)
                                : pl_stranspose(ctx, M, N, A, LDA, B, LDB);
        const char *name = names[n] ? names[n] : pl_transpose_best_variant(ctx);
        CHECK(st == PL_OK, "pl_stranspose on the GPU (%s): %s", name, pl_last_error());
        int wrong = 0, pad = 0;
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < M; i++) wrong += B[j * LDB + i] != A[i * LDA + j];
            for (int i = M; i < LDB; i++) pad += !isnan(B[j * LDB + i]);
        }
        CHECK(wrong == 0 && pad == 0, "pl_stranspose on the GPU (%s): %d wrong, %d padding written", name, wrong, pad);
    }
    pl_ctx_destroy(ctx);
    return check_summary("transpose_gpu");
}
