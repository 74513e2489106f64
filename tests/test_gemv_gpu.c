/* test_gemv_gpu.c: every CUDA GEMV rung and the cuBLAS peer against the float64 reference,
 * on the odd shapes of the CPU tests, both forms, at every parameter value (cuda-tuned's
 * map=rows|split included, so the split partial sums run on small shapes too); larger shapes
 * at the defaults (short rows, few long rows, tall and wide A^T); pl_sgemv on a CUDA context.
 * Label `gpu`: on a machine without a GPU it reports "skipped: no GPU" (exit 77).
 * PL_SANITIZER=1 (under compute-sanitizer) keeps to the smaller shapes. */
#include "gemv_cases.h"
#include "gpu_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    const int sanitizer = gpu_check_sanitizer();
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("gemv_gpu");
    for (int i = 0; i < pl_gemv_kernel.n_variants; i++) {
        const pl_variant *v = pl_gemv_kernel.ladder[i];
        if (!gpu_check_rung(ctx, v)) continue;
        check_gemv_all_params(ctx, v, sanitizer ? 6 : N_GEMV_SHAPES);
        printf("%s: checked\n", v->name);
    }
    /* Larger shapes, default parameters, both forms, with beta and padding 1 (rows not
     * 16-byte aligned) and without (aligned). */
    const char *big[] = {"1025x777", "300000x8", "8x300000", "4096", "65x100000", "100000x65"};
    const int n_big = sanitizer ? 2 : 6;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    for (int s = 0; s < n_big; s++)
        for (int c = 0; c < 4; c++) {
            double pv[4] = {c & 1 ? 1.5 : 1.0, c & 1 ? 0.5 : 0.0, (double)(c >> 1), c & 1};
            pl_problem *p = NULL;
            CHECK(pl_problem_create(&p, &pl_gemv_kernel, big[s], pv, 11) == PL_OK, "%s: %s", big[s], pl_last_error());
            for (int i = 0; p && i < pl_gemv_kernel.n_variants; i++) {
                const pl_variant *v = pl_gemv_kernel.ladder[i];
                if (v->backend != PL_BACKEND_CUDA || gpu_check_peer_skipped(v)) continue;
                pl_result r;
                pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
                CHECK(st == PL_OK && r.verified, "%s at %s trans=%s beta=%g pad=%g: %s error %.3e bound %.3e", v->name,
                      big[s], c >> 1 ? "t" : "n", pv[1], pv[3], st == PL_OK ? "" : pl_last_error(), r.error, r.bound);
            }
            pl_problem_destroy(p);
        }
    /* pl_sgemv on host arrays through a CUDA context, both forms. */
    enum { M = 45, N = 67 };
    static float A[M * N], x[N], y[N];
    for (int i = 0; i < M * N; i++) A[i] = (float)((i * 7 % 19) - 9) / 9.0f;
    for (int i = 0; i < N; i++) x[i] = (float)((i * 5 % 23) - 11) / 11.0f;
    for (int t = 0; t < 2; t++) {
        int ny = t ? N : M, nk = t ? M : N;
        for (int i = 0; i < ny; i++) y[i] = NAN;
        CHECK(pl_sgemv(ctx, t ? 't' : 'n', M, N, 1.0f, A, N, x, 0.0f, y) == PL_OK, "pl_sgemv: %s", pl_last_error());
        double worst = 0;
        for (int i = 0; i < ny; i++) {
            double ref = 0;
            for (int k = 0; k < nk; k++) ref += (double)(t ? A[k * N + i] : A[i * N + k]) * x[k];
            double e = fabs(ref - y[i]);
            if (!(e <= worst)) worst = e;
        }
        CHECK(worst < 1e-4, "pl_sgemv trans=%c on the GPU (%s): max error %g", t ? 't' : 'n',
              pl_best_variant(ctx, pl_kernel_find("gemv"), NULL), worst);
    }
    pl_ctx_destroy(ctx);
    return check_summary("gemv_gpu");
}
