/* test_reduce_gpu.c: every CUDA reduce and dot rung and the CUDA peers (peer-cub, peer-cublas)
 * against the float64 reference on the odd shapes of the CPU test, every op, both axes, every
 * pitch offset, at every block size; larger shapes that pick each of cuda-tuned's mappings;
 * NaN propagation of the rungs on hand-made data; pl_sreduce and pl_sdot on a CUDA context.
 * Label `gpu`: without a GPU it reports "skipped: no GPU" (exit 77). PL_SANITIZER=1 (under
 * compute-sanitizer) keeps to the small shapes and the default block size. */
#include "reduce_cases.h"
#include "gpu_check.h"
#include "core/core.h"
#include "core/device.h"

#include <math.h>
#include <stdlib.h>

/* NaN in rows 0, M/2, M-1 (columns 0, N/2, N-1) through the rung on the device. */
static void check_nan(pl_ctx *ctx, const pl_variant *v)
{
    const int64_t shapes[][2] = {{1, 1}, {5, 37}, {37, 5}, {3, 70000}, {70, 1300}};
    for (int s = 0; s < 5; s++) {
        int64_t M = shapes[s][0], N = shapes[s][1], lda = N + 1, R = M > N ? M : N;
        float *A = malloc(sizeof(float) * (size_t)(M * lda)), *r = malloc(sizeof(float) * (size_t)R);
        pl_fill_f32(A, M * lda, 3);
        int64_t rows[3] = {0, M / 2, M - 1}, cols[3] = {0, N / 2, N - 1};
        for (int k = 0; k < 3; k++) A[rows[k] * lda + cols[k]] = NAN;
        for (int op = 0; op < PL_REDUCE_N_OPS; op++)
            for (int axis = 0; axis < 2; axis++) {
                pl_reduce_problem p = {M, N, lda, op, axis, 1};
                int64_t n_out = axis ? M : N;
                for (int64_t o = 0; o < n_out; o++) r[o] = 12345.0f;
                void *host[2] = {A, r};
                pl_status st = pl_run_host(ctx, &pl_reduce_kernel, v, NULL, &p, host);
                if (st == PL_ERR_UNSUPPORTED && v->is_peer) continue;
                CHECK(st == PL_OK, "%s nan %lldx%lld: %s", v->name, (long long)M, (long long)N, pl_last_error());
                if (v->is_peer && (op == PL_REDUCE_MIN || op == PL_REDUCE_MAX)) continue; /* CUB drops NaN */
                for (int64_t o = 0; o < n_out; o++) {
                    int want = 0;
                    for (int k = 0; k < 3; k++) want |= (axis ? rows[k] : cols[k]) == o;
                    CHECK(want == (isnan(r[o]) != 0), "%s %lldx%lld op=%s axis=%d output %lld: %g, NaN %s", v->name,
                          (long long)M, (long long)N, pl_reduce_op_names[op], axis, (long long)o, r[o],
                          want ? "expected" : "not expected");
                }
            }
        free(A), free(r);
    }
}

int main(void)
{
    const int sanitizer = gpu_check_sanitizer();
    pl_ctx *ctx = gpu_check_ctx();
    if (!ctx) return check_summary("reduce_gpu");
    /* Under the sanitizer (racecheck tracks every shared-memory access, so sizes must stay
     * small): the first 4 shapes (to 33x65), default parameters only. */
    const int n_small = sanitizer ? 4 : N_REDUCE_SHAPES;
    for (int i = 0; i < pl_reduce_kernel.n_variants; i++) {
        const pl_variant *v = pl_reduce_kernel.ladder[i];
        if (!gpu_check_rung(ctx, v)) continue;
        if (sanitizer) check_reduce_cases(ctx, v, NULL, v->name, reduce_shapes, n_small);
        else check_reduce_all_params(ctx, v, 6);
        check_nan(ctx, v);
        printf("%s: checked\n", v->name);
    }
    /* peer-cub refuses columns and sumsq with a reason. */
    {
        pl_reduce_problem p = {3, 5, 5, PL_REDUCE_SUM, 0, 0};
        float A[15] = {0}, r[5];
        void *host[2] = {A, r};
        const pl_variant *cub = pl_variant_find(&pl_reduce_kernel, "peer-cub");
        CHECK(pl_run_host(ctx, &pl_reduce_kernel, cub, NULL, &p, host) == PL_ERR_UNSUPPORTED, "peer-cub columns refused");
        p.axis = 1, p.op = PL_REDUCE_SUMSQ;
        CHECK(pl_run_host(ctx, &pl_reduce_kernel, cub, NULL, &p, host) == PL_ERR_UNSUPPORTED, "peer-cub sumsq refused");
    }
    for (int i = 0; i < pl_dot_kernel.n_variants; i++) {
        const pl_variant *v = pl_dot_kernel.ladder[i];
        if (v->backend != PL_BACKEND_CUDA || gpu_check_peer_skipped(v)) continue;
        check_dot_cases(ctx, v, NULL, v->name);
        for (int k = 0; !sanitizer && k < v->n_params; k++)
            for (int j = 0; j < v->params[k].n_values; j++) {
                int64_t params[PL_MAX_PARAMS] = {v->params[k].values[j]};
                char label[64];
                snprintf(label, sizeof label, "%s block=%lld", v->name, (long long)params[0]);
                check_dot_cases(ctx, v, params, label);
            }
        printf("dot %s: checked\n", v->name);
    }
    /* Larger shapes, default parameters: cuda-tuned's every mapping (warp per row, block per
     * row, split rows; columns split or not), offsets 0 and 1. */
    const char *big_full[] = {"100000x31", "4096x4097", "2x3000000", "10x1000000", "30000x7", "3000000x2", "10000"};
    /* Under the sanitizer, each mapping at a small size (132 SMs): a block per row (300 rows of
     * 600), split rows (2 of 20000), columns split over row ranges (2000x40, axis 0) or not
     * (2x20000, axis 0: 625 column blocks). */
    const char *big_sanitizer[] = {"300x600", "2x20000", "2000x40"};
    const char *const *big = sanitizer ? big_sanitizer : big_full;
    const int n_big = sanitizer ? 3 : 7;
    pl_bench_config cfg;
    pl_bench_config_default(&cfg);
    cfg.repeats = 1;
    for (int s = 0; s < n_big; s++)
        for (int op = 0; op < PL_REDUCE_N_OPS; op++)
            for (int axis = 0; axis < 2; axis++)
                for (int off = 0; off < 2; off++) {
                    pl_problem *p = NULL;
                    double pv[3] = {op, axis, off};
                    CHECK(pl_problem_create(&p, &pl_reduce_kernel, big[s], pv, 11) == PL_OK, "%s: %s", big[s],
                          pl_last_error());
                    for (int i = 0; p && i < pl_reduce_kernel.n_variants; i++) {
                        const pl_variant *v = pl_reduce_kernel.ladder[i];
                        if (v->backend != PL_BACKEND_CUDA || gpu_check_peer_skipped(v)) continue;
                        pl_result r;
                        pl_status st = pl_bench_variant(ctx, p, v, NULL, &cfg, &r);
                        if (st == PL_ERR_UNSUPPORTED && v->is_peer) continue;
                        CHECK(st == PL_OK && r.verified, "%s at %s op=%s axis=%d offset=%d: %s error %.3e bound %.3e",
                              v->name, big[s], pl_reduce_op_names[op], axis, off, st == PL_OK ? "" : pl_last_error(),
                              r.error, r.bound);
                    }
                    pl_problem_destroy(p);
                }
    /* pl_sreduce and pl_sdot through a CUDA context, against hand sums (exact in float). */
    enum { M = 45, N = 67, LDA = 70 };
    static float A[M * LDA], r[M];
    for (int i = 0; i < M * LDA; i++) A[i] = (float)((i * 7 % 19) - 9) / 8.0f;
    CHECK(pl_sreduce(ctx, PL_REDUCE_SUM, 1, M, N, A, LDA, r) == PL_OK, "pl_sreduce: %s", pl_last_error());
    for (int i = 0; i < M; i++) {
        double s = 0;
        for (int j = 0; j < N; j++) s += A[i * LDA + j];
        CHECK(r[i] == (float)s, "pl_sreduce row %d: %g, want %g", i, r[i], s);
    }
    float d = 0;
    CHECK(pl_sdot(ctx, N, A, A + LDA, &d) == PL_OK, "pl_sdot: %s", pl_last_error());
    double dd = 0;
    for (int j = 0; j < N; j++) dd += (double)A[j] * A[LDA + j];
    CHECK(d == (float)dd, "pl_sdot: %g, want %g", d, dd);
    pl_ctx_destroy(ctx);
    return check_summary("reduce_gpu");
}
