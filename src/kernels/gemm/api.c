/* api.c: pl_sgemm, the BLAS-like call. It checks the arguments, picks the best rung the
 * context can run (or the one named), and moves host data to the device and back when the
 * context is a CUDA one. */
#include "core/core.h"
#include "core/device.h"
#include "harness/harness.h"
#include "kernels/gemm/gemm.h"

#include <string.h>

/* Best first: the first of these that this build and context can run. */
static const char *const cpu_order[] = {"cpu-packed", "cpu-simd-blocked", "cpu-naive"};
static const char *const cuda_order[] = {"cuda-tuned", "cuda-shared", "cuda-naive"};

const char *pl_gemm_best_variant(const pl_ctx *ctx)
{
    const char *const *order = ctx->backend == PL_BACKEND_CUDA ? cuda_order : cpu_order;
    for (int i = 0; i < 3; i++) {
        const pl_variant *v = pl_variant_find(&pl_gemm_kernel, order[i]);
        if (v && pl_variant_check(ctx, v, NULL, 0) == PL_OK) return v->name;
    }
    return NULL;
}

pl_status pl_sgemm(pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                   int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL context");
    const char *best = pl_gemm_best_variant(ctx);
    if (!best) return pl_fail(PL_ERR_UNSUPPORTED, "pl_sgemm: no GEMM variant can run in this context");
    return pl_sgemm_variant(ctx, best, NULL, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

static pl_status run_on_device(pl_ctx *ctx, const pl_variant *v, const pl_gemm_problem *p,
                               const int64_t *params, const float *A, const float *B, float *C)
{
    size_t bytes[3] = {
        sizeof(float) * (size_t)((p->M - 1) * p->lda + p->K),
        sizeof(float) * (size_t)((p->K - 1) * p->ldb + p->N),
        sizeof(float) * (size_t)((p->M - 1) * p->ldc + p->N),
    };
    const void *host[3] = {A, B, C};
    void *dev[3] = {NULL, NULL, NULL};
    pl_status s = PL_OK;
    for (int i = 0; i < 3 && s == PL_OK; i++) s = pl_dev_malloc(&dev[i], bytes[i]);
    for (int i = 0; i < 3 && s == PL_OK; i++)
        if (i < 2 || p->beta != 0.0f || p->ldc != p->N) s = pl_dev_h2d(dev[i], host[i], bytes[i], ctx->stream);
    if (s == PL_OK) {
        pl_run_args a = {ctx, p, dev, 3, params, ctx->stream};
        s = v->run(&a);
        if (s == PL_OK) s = pl_dev_check(v->name);
    }
    if (s == PL_OK) s = pl_dev_d2h(C, dev[2], bytes[2], ctx->stream);
    if (s == PL_OK) s = pl_dev_sync(ctx->stream);
    for (int i = 0; i < 3; i++) pl_dev_free(dev[i]);
    return s;
}

pl_status pl_sgemm_variant(pl_ctx *ctx, const char *variant, const int64_t *params, int64_t M,
                           int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
                           const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
    if (!ctx) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL context");
    const pl_variant *v = pl_variant_find(&pl_gemm_kernel, variant);
    if (!v) return pl_fail(PL_ERR_ARG, "gemm: unknown variant '%s'", variant ? variant : "(null)");
    pl_gemm_problem p = {M, N, K, lda, ldb, ldc, alpha, beta};
    pl_status s = pl_gemm_check(&p);
    if (s != PL_OK) return s;
    if (!A || !B || !C) return pl_fail(PL_ERR_ARG, "pl_sgemm: NULL matrix pointer");
    if ((s = pl_variant_check(ctx, v, NULL, 0)) != PL_OK) return s;
    int64_t values[PL_MAX_PARAMS];
    if ((s = pl_params_resolve(v, params, values)) != PL_OK) return s;
    if (v->backend == PL_BACKEND_CUDA) return run_on_device(ctx, v, &p, values, A, B, C);
    void *data[3] = {(void *)A, (void *)B, C};
    pl_run_args a = {ctx, &p, data, 3, values, NULL};
    return v->run(&a);
}
