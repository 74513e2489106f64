/* test_gemm_gpu.c: every CUDA GEMM rung and the cuBLAS peers against the float64 reference,
 * on the shapes of the CPU tests (the BF16 ones on bfloat16 inputs), at every parameter value (each tile config of cuda-tuned and
 * of the tensor-core rungs (TF32, and BF16 on dtype=bf16 problems), split and unsplit; cuda-tf32's own pick); pl_sgemm on a CUDA
 * context. The Hopper-only rungs are skipped, saying so, on another GPU. Label `gpu`: on a
 * machine without a GPU it reports "skipped: no GPU" (exit 77). */
#include "gemm_cases.h"
#include "gpu_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rungs with tile configurations and split-K: every config with its K cut in 2 (the
 * parameter loop above names one parameter at a time, and a named config runs unsplit). */
static void check_configs_split(pl_ctx *ctx, const pl_variant *v)
{
    int ic = -1, is = -1;
    for (int i = 0; i < v->n_params; i++) {
        if (!strcmp(v->params[i].name, "config")) ic = i;
        if (!strcmp(v->params[i].name, "splitk")) is = i;
    }
    if (ic < 0 || is < 0) return;
    const pl_param_def *pc = &v->params[ic];
    for (int j = 0; j < pc->n_values; j++) {
        if (pc->values[j] == 0) continue;
        int64_t params[PL_MAX_PARAMS];
        for (int k = 0; k < v->n_params; k++) params[k] = (int64_t)v->params[k].def;
        params[ic] = pc->values[j];
        params[is] = 2;
        char label[96];
        snprintf(label, sizeof label, "%s config=%lld splitk=2", v->name, (long long)pc->values[j]);
        check_variant_on_cases(ctx, v, params, label);
    }
}

int main(void)
{
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("gemm_gpu");
    enum { MAX_VARIANTS = 64 };
    int runs[MAX_VARIANTS] = {0}; /* the CUDA rungs and peers that run here */
    CHECK(pl_gemm_kernel.n_variants <= MAX_VARIANTS, "more than %d GEMM variants", MAX_VARIANTS);
    for (int i = 0; i < pl_gemm_kernel.n_variants && i < MAX_VARIANTS; i++) {
        const pl_variant *v = pl_gemm_kernel.ladder[i];
        if (!(runs[i] = gpu_check_rung(ctx, v))) continue;
        check_variant_all_params(ctx, v);
        check_configs_split(ctx, v);
        printf("%s: checked\n", v->name);
    }
    /* Larger odd sizes, default parameters (each tile configuration's edges, split-K on the
     * deep one). PL_SANITIZER=1 (under compute-sanitizer): two smaller odd shapes, one deep
     * enough to split K; PL_SANITIZER=racecheck: the first alone (gemm_cases.h says why). */
    const char *big_full[] = {"1023", "1025x511x769", "4097", "4095", "129x131x20000"};
    const char *big_sanitizer[] = {"257x255x263", "129x131x4000"};
    const char *const *big = gpu_check_sanitizer() ? big_sanitizer : big_full;
    const int n_big = gemm_racecheck() ? 1 : gpu_check_sanitizer() ? 2 : 5;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    for (int z = 0; z < 2 * n_big; z++) { /* each size in float32, then in bfloat16 (the BF16 rungs) */
        const int s = z % n_big;
        pl_problem *p = NULL;
        double pv[PL_GEMM_PROBLEM_N_PARAMS] = {1.5, 0.5, 1, z < n_big ? PL_GEMM_DTYPE_F32 : PL_GEMM_DTYPE_BF16};
        CHECK(pl_problem_create(&p, &pl_gemm_kernel, big[s], pv, 11) == PL_OK, "%s: %s", big[s], pl_last_error());
        for (int i = 0; p && i < pl_gemm_kernel.n_variants && i < MAX_VARIANTS; i++) {
            const pl_variant *v = pl_gemm_kernel.ladder[i];
            if (!runs[i] || pl_variant_takes(&pl_gemm_kernel, v, pl_problem_spec(p)) != PL_OK) continue;
            pl_result r;
            pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
            CHECK(st == PL_OK && r.verified, "%s at %s: %s error %.3e bound %.3e", v->name, big[s],
                  st == PL_OK ? "" : pl_last_error(), r.error, r.bound);
        }
        pl_problem_destroy(p);
    }
    /* pl_sgemm on host arrays through a CUDA context. */
    enum { M = 45, N = 67, K = 23 };
    static float A[M * K], B[K * N], C[M * N];
    for (int i = 0; i < M * K; i++) A[i] = (float)((i * 7 % 19) - 9) / 9.0f;
    for (int i = 0; i < K * N; i++) B[i] = (float)((i * 5 % 23) - 11) / 11.0f;
    for (int i = 0; i < M * N; i++) C[i] = NAN;
    CHECK(pl_sgemm(ctx, M, N, K, 1.0f, A, K, B, N, 0.0f, C, N) == PL_OK, "pl_sgemm: %s", pl_last_error());
    double worst = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double ref = 0;
            for (int k = 0; k < K; k++) ref += (double)A[i * K + k] * B[k * N + j];
            double e = fabs(ref - C[i * N + j]);
            if (!(e <= worst)) worst = e;
        }
    CHECK(worst < 1e-4, "pl_sgemm on the GPU (%s): max error %g", pl_best_variant(ctx, pl_kernel_find("gemm"), NULL),
          worst);
    pl_ctx_destroy(ctx);
    return check_summary("gemm_gpu");
}
