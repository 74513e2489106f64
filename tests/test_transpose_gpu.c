/* test_transpose_gpu.c: every CUDA transpose rung and the cuBLAS peer against the reference,
 * for equality, on the odd and degenerate shapes of the CPU test with and without padding
 * (at align=auto, cuda-tuned takes its square tile where B's rows are a multiple of 32 floats
 * and its tile sheared by B's 128-byte lines elsewhere; pad 3 breaks every vector alignment), at
 * every parameter value; cuda-tuned's align x vec x order x block on the same shapes; then larger
 * odd and square sizes at the defaults (and cuda-tuned align=a, b); pl_stranspose on a
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
    /* cuda-tuned's tile shapes (align=tile, a, b) crossed with vec, the tile orders and the block
     * sizes (the loop above moves one parameter at a time from the defaults): every shape but
     * 4097x4095, both pads. The sheared tiles (a, b) move each row's tile by its line offset, so
     * pads 0 and 3 on these shapes give many offsets; under PL_SANITIZER, orders row and group. */
    const pl_variant *tuned = pl_variant_find(&pl_transpose_kernel, "cuda-tuned");
    if (tuned && gpu_check_rung(ctx, tuned)) {
        static const char *const aligns[] = {"tile", "a", "b"};
        static const char *const orders[] = {"row", "col", "diag", "group"};
        static const int64_t blocks[] = {256, 128, 1024};
        int64_t params[PL_MAX_PARAMS];
        char label[160];
        for (int al = 0; al < 3; al++)
            for (int vec = 0; vec < 2; vec++)
                for (int b = 0; b < 3; b++)
                    for (int o = 0; o < 4; o++) {
                        if (b > 0 && o > 0) continue; /* other block sizes in row order */
                        if (sanitizer && o != 0 && o != 3) continue;
                        for (int k = 0; k < tuned->n_params; k++) params[k] = (int64_t)tuned->params[k].def;
                        params[PL_TRANSPOSE_CUDA_TUNED_ALIGN] = 1 + al; /* auto, tile, a, b */
                        params[PL_TRANSPOSE_CUDA_TUNED_VEC] = vec;      /* auto, off */
                        params[PL_TRANSPOSE_CUDA_TUNED_ORDER] = o;
                        params[PL_TRANSPOSE_CUDA_TUNED_BLOCK] = blocks[b];
                        snprintf(label, sizeof label, "cuda-tuned align=%s vec=%s order=%s block=%lld", aligns[al],
                                 vec ? "off" : "auto", orders[o], (long long)blocks[b]);
                        check_transpose_cases(ctx, tuned, params, label, N_TRANSPOSE_SHAPES - 1);
                    }
        printf("cuda-tuned: align x vec x order x block checked\n");
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
            /* cuda-tuned's sheared tiles at the large odd shapes too. */
            for (int al = 2; v == tuned && al <= 3; al++) {
                int64_t params[PL_MAX_PARAMS];
                for (int k = 0; k < v->n_params; k++) params[k] = (int64_t)v->params[k].def;
                params[PL_TRANSPOSE_CUDA_TUNED_ALIGN] = al;
                st = pl_bench_variant(ctx, p, v, params, &cfg, &r);
                CHECK(st == PL_OK && r.verified, "%s align=%s at %s: %s error %g (worst at B[%lld][%lld])", v->name,
                      al == 2 ? "a" : "b", big[s], st == PL_OK ? "" : pl_last_error(), r.error,
                      (long long)r.first.row, (long long)r.first.col);
            }
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
        const char *name = names[n] ? names[n] : pl_best_variant(ctx, pl_kernel_find("transpose"), NULL);
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
