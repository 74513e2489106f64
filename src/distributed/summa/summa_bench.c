/* summa_bench.c: GEMM in the distributed bench (bench_ranks.h): C = A B (alpha 1, beta 0) by
 * SUMMA (summa.h). SIZE is N or MxNxK; under --scale weak M x N is each rank's block of C
 * and K stays the given one, so every rank's product is the one-rank problem's (2 m n K flops).
 * With a CUDA rung, NCCL in the build and a GPU a rank, the blocks live on the GPUs and each run
 * is the GPU path's product alone (pl_dist_sgemm_gpu; the baseline: one GPU, the same rung,
 * data resident); else the host path (MPI_Ibcast of panels, the rung on host blocks).
 * Inputs: A(i, k) and B(k, j) are hashes of the seed and their global index, in [-1, 1), so each
 * rank makes its own blocks. Check: each rank compares elements of its block of C with the
 * kernel's own float64 reference (its spec) of the generated rows of A and columns of B, within
 * the spec's element bound gamma_(K+2) sum_k |a_ik b_kj|: every element of a small block (m n K <= 2^24), else 256
 * sampled ones (the block's first and last, the rest at random), a sampled check. */
#include "distributed/bench/bench_ranks.h"

#include "core/core.h"
#include "core/device.h"
#include "core/sizes.h"
#include "distributed/summa/summa.h"
#include "kernels/gemm/gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 256 };

struct pl_dist_bench_case {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    uint64_t seed;
    int64_t M, N, K, m, n;
    pl_dist_block a, b;         /* this rank's blocks of A (M x K) and B (K x N) */
    const char *rung;
    float *A, *B, *C;           /* host blocks (the host path) */
    pl_dist_gemm_gpu *gpu;      /* the GPU path: its plan and device blocks */
    float *dA, *dB, *dC;
    char note[96];
};

static float a_at(uint64_t seed, int64_t K, int64_t i, int64_t k) { return pl_dist_bench_value(seed, (uint64_t)(i * K + k)); }
static float b_at(uint64_t seed, int64_t M, int64_t N, int64_t K, int64_t k, int64_t j)
{
    return pl_dist_bench_value(seed, (uint64_t)(M * K + k * N + j));
}

/* The rows x cols elements of A (B: is_b) from (r0, c0), rows cols apart. */
static void fill(uint64_t seed, int64_t M, int64_t N, int64_t K, int is_b, int64_t r0, int64_t c0, int64_t rows,
                 int64_t cols, float *out)
{
#pragma omp parallel for
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            out[r * cols + c] = is_b ? b_at(seed, M, N, K, r0 + r, c0 + c) : a_at(seed, K, r0 + r, c0 + c);
}

static pl_status gemm_dims(const char *text, int64_t d[3]) { return pl_parse_dims("gemm", text, 3, "MxNxK", d); }

static pl_status gemm_size(const char *text, int64_t *H, int64_t *W)
{
    int64_t d[3] = {0, 0, 0};
    pl_status s = gemm_dims(text, d);
    *H = d[0], *W = d[1];
    return s;
}

/* rows x cols floats of host to a new device array. */
static pl_status to_device(float **dev, const float *host, int64_t rows, int64_t cols)
{
    const size_t bytes = sizeof(float) * (size_t)(rows * cols);
    pl_status s = pl_dev_malloc((void **)dev, bytes + sizeof(float));
    if (s == PL_OK) s = pl_dev_h2d(*dev, host, bytes, NULL);
    if (s == PL_OK) s = pl_dev_sync(NULL);
    return s;
}

static pl_status gemm_create(pl_dist_bench_case **out, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx, int64_t H,
                             int64_t W)
{
    pl_dist_bench_case *c = calloc(1, sizeof *c);
    if (!(*out = c)) return pl_fail(PL_ERR_NOMEM, "gemm: out of memory");
    int64_t d[3];
    pl_status s = gemm_dims(a->size_text, d);
    if (s != PL_OK) return s;
    c->g = g, c->ctx = ctx, c->seed = (uint64_t)a->seed, c->M = H, c->N = W, c->K = d[2];
    if ((s = pl_dist_gemm_check(g, c->M, c->N, c->K)) != PL_OK) return s;
    c->a = pl_dist_block_of(g, c->M, c->K), c->b = pl_dist_block_of(g, c->K, c->N);
    c->m = c->a.y1 - c->a.y0, c->n = c->b.x1 - c->b.x0;
    c->rung = a->variant ? a->variant->name : pl_best_variant(ctx, &pl_gemm_kernel, NULL);
    const int64_t ka = c->a.x1 - c->a.x0, kb = c->b.y1 - c->b.y0;
    if (!(c->A = pl_alloc(sizeof(float) * (size_t)(c->m * ka + 1))) ||
        !(c->B = pl_alloc(sizeof(float) * (size_t)(kb * c->n + 1))) ||
        !(c->C = pl_alloc(sizeof(float) * (size_t)(c->m * c->n + 1))))
        return pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate this rank's blocks (%lldx%lld of C)", (long long)c->m,
                       (long long)c->n);
    fill(c->seed, c->M, c->N, c->K, 0, c->a.y0, c->a.x0, c->m, ka, c->A);
    fill(c->seed, c->M, c->N, c->K, 1, c->b.y0, c->b.x0, kb, c->n, c->B);
    if ((s = pl_dist_gemm_gpu_create(&c->gpu, g, ctx, c->rung, NULL, 0, c->M, c->N, c->K)) != PL_OK) return s;
    if (c->gpu) { /* the blocks to the GPU, once */
        c->rung = pl_dist_gemm_gpu_rung(c->gpu);
        snprintf(c->note, sizeof c->note, "K %lld, GPU path (NCCL), panels of %lld", (long long)c->K,
                 (long long)pl_dist_gemm_gpu_kb(c->gpu));
        s = to_device(&c->dA, c->A, c->m, ka);
        if (s == PL_OK) s = to_device(&c->dB, c->B, kb, c->n);
        if (s == PL_OK) s = pl_dev_malloc((void **)&c->dC, sizeof(float) * (size_t)(c->m * c->n + 1));
        pl_free(c->A), pl_free(c->B), c->A = c->B = NULL;
    } else {
        snprintf(c->note, sizeof c->note, "K %lld, host path (MPI), panels of %lld", (long long)c->K,
                 (long long)(g->size == 1 ? c->K : PL_DIST_GEMM_KB));
    }
    return s;
}

static pl_status gemm_run(pl_dist_bench_case *c, pl_dist_times *t)
{
    const int64_t ka = c->a.x1 - c->a.x0;
    if (c->gpu) return pl_dist_sgemm_gpu(c->gpu, 1.0f, c->dA, ka, c->dB, c->n, 0.0f, c->dC, c->n, t);
    return pl_dist_sgemm_variant(c->g, c->ctx, c->rung, NULL, 0, c->M, c->N, c->K, 1.0f, c->A, ka, c->B, c->n, 0.0f,
                                 c->C, c->n, t);
}

/* Element (i, j) of this rank's block of C, from the host block or the device. */
static pl_status element(const pl_dist_bench_case *c, int64_t i, int64_t j, float *v)
{
    if (!c->gpu) {
        *v = c->C[i * c->n + j];
        return PL_OK;
    }
    pl_status s = pl_dev_d2h(v, c->dC + i * c->n + j, sizeof(float), NULL);
    return s == PL_OK ? pl_dev_sync(NULL) : s;
}

/* The spec's float64 reference of the m x n part of this rank's block of C from (i0, j0): the
 * rows of A and the columns of B it reads, generated, as one m x n x K problem. */
static pl_status part_reference(const pl_dist_bench_case *c, int64_t i0, int64_t j0, int64_t m, int64_t n,
                                double *ref, double *scale)
{
    float *A = pl_alloc(sizeof(float) * (size_t)(m * c->K)), *B = pl_alloc(sizeof(float) * (size_t)(c->K * n));
    pl_status s = A && B ? PL_OK : pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate the check");
    if (s == PL_OK) {
        fill(c->seed, c->M, c->N, c->K, 0, c->a.y0 + i0, 0, m, c->K, A);
        fill(c->seed, c->M, c->N, c->K, 1, 0, c->b.x0 + j0, c->K, n, B);
        const pl_gemm_problem part = {m, n, c->K, c->K, n, n, 1.0f, 0.0f, PL_F32}; /* beta 0: C is not read */
        void *host[3] = {A, B, NULL};
        s = pl_dist_bench_reference(&pl_gemm_kernel, &part, host, 2, ref, scale);
    }
    pl_free(A), pl_free(B);
    return s;
}

static pl_status gemm_check(pl_dist_bench_case *c, const char **what)
{
    const int all = (double)c->m * (double)c->n * (double)c->K <= (double)(1 << 24);
    *what = all ? "every element of each rank's block within gamma_(K+2) sum|a b| of a float64 dot product"
                : "sampled: 256 elements of each rank's block within gamma_(K+2) sum|a b| of float64 dot products";
    const pl_gemm_problem whole = {c->M, c->N, c->K, c->K, c->N, c->N, 1.0f, 0.0f, PL_F32};
    const double eb =
        pl_gemm_kernel.elem_bound(&whole, strstr(c->rung, "tf32") ? PL_PREC_TF32 : PL_PREC_FP32, NULL);
    const int64_t count = all ? c->m * c->n : SAMPLES;
    double *ref = pl_alloc(sizeof(double) * (size_t)count), *scale = pl_alloc(sizeof(double) * (size_t)count);
    pl_status s = ref && scale ? PL_OK : pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate the check");
    if (s == PL_OK && all) s = part_reference(c, 0, 0, c->m, c->n, ref, scale); /* the whole block at once */
    uint64_t state = c->seed * 2654435761u + (uint64_t)c->g->rank + 1;
    for (int64_t e = 0; e < count && s == PL_OK; e++) {
        int64_t i = e / c->n, j = e % c->n;
        if (!all) { /* the first, the last, the rest at random, each a 1 x 1 x K problem */
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const int64_t at = e == 0 ? 0 : e == 1 ? c->m * c->n - 1 : (int64_t)((state >> 11) % (uint64_t)(c->m * c->n));
            i = at / c->n, j = at % c->n;
            if ((s = part_reference(c, i, j, 1, 1, &ref[e], &scale[e])) != PL_OK) break;
        }
        float got = 0;
        if ((s = element(c, i, j, &got)) != PL_OK) break;
        if (!(fabs(got - ref[e]) <= eb * scale[e]))
            s = pl_fail(PL_ERR_VERIFY, "gemm: rank %d: C(%lld, %lld) is %.9g, the float64 reference says %.9g (bound "
                        "%.3g)", c->g->rank, (long long)(c->a.y0 + i), (long long)(c->b.x0 + j), got, ref[e],
                        eb * scale[e]);
    }
    pl_free(ref), pl_free(scale);
    return s;
}

static void gemm_messages(const pl_dist_bench_case *c, double *msgs, double *bytes)
{
    pl_dist_gemm_traffic(c->g, c->M, c->N, c->K, c->gpu ? pl_dist_gemm_gpu_kb(c->gpu) : 0, msgs, bytes);
}

static const char *gemm_rung(const pl_dist_bench_case *c) { return c->rung; }
static const char *gemm_note(const pl_dist_bench_case *c) { return c->note; }
static int gemm_on_nccl(const pl_dist_bench_case *c) { return c->gpu != NULL; }

/* The GPU path's model: NCCL between the GPUs (every rank has a plan, or none has). */
static pl_dist_model gemm_gpu_model(pl_dist_bench_case *c) { return pl_dist_gemm_gpu_model(c->gpu); }

/* One run of the one-rank baseline on host arrays. */
typedef struct gemm_call {
    pl_ctx *ctx;
    const char *rung;
    const pl_gemm_problem *p;
    const float *A, *B;
    float *C;
} gemm_call;

static pl_status gemm_call_run(void *user)
{
    const gemm_call *g = user;
    const pl_gemm_problem *p = g->p;
    return pl_sgemm_variant(g->ctx, g->rung, NULL, p->M, p->N, p->K, 1.0f, g->A, p->K, g->B, p->N, 0.0f, g->C, p->N);
}

/* One rank on M x N x K: the rung on host arrays, or on device arrays for a CUDA rung (the data
 * resident, as the GPU path's blocks are). */
static pl_status gemm_one_rank(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t M, int64_t N,
                               double *seconds)
{
    int64_t d[3];
    pl_status s = gemm_dims(a->size_text, d);
    if (s != PL_OK) return s;
    const int64_t K = d[2];
    float *A = pl_alloc(sizeof(float) * (size_t)(M * K)), *B = pl_alloc(sizeof(float) * (size_t)(K * N));
    float *C = pl_alloc(sizeof(float) * (size_t)(M * N)), *dA = NULL, *dB = NULL, *dC = NULL;
    const int gpu = pl_dist_bench_is_cuda(&pl_gemm_kernel, rung);
    if (!A || !B || !C) s = pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate the one-rank %lldx%lldx%lld problem",
                                    (long long)M, (long long)N, (long long)K);
    if (s == PL_OK) {
        fill((uint64_t)a->seed, M, N, K, 0, 0, 0, M, K, A);
        fill((uint64_t)a->seed, M, N, K, 1, 0, 0, K, N, B);
    }
    if (s == PL_OK && gpu) s = pl_dev_select(pl_ctx_device(ctx));
    if (s == PL_OK && gpu) s = to_device(&dA, A, M, K);
    if (s == PL_OK && gpu) s = to_device(&dB, B, K, N);
    if (s == PL_OK && gpu) s = pl_dev_malloc((void **)&dC, sizeof(float) * (size_t)(M * N));
    const pl_gemm_problem p = {M, N, K, K, N, N, 1.0f, 0.0f, PL_F32};
    void *dev[3] = {dA, dB, dC};
    if (s == PL_OK && gpu) s = pl_dist_bench_time_device(a, ctx, &pl_gemm_kernel, rung, &p, dev, seconds);
    if (s == PL_OK && !gpu) {
        gemm_call g = {ctx, rung, &p, A, B, C};
        s = pl_dist_bench_time(a, gemm_call_run, &g, seconds);
    }
    pl_dev_free(dA), pl_dev_free(dB), pl_dev_free(dC);
    pl_free(A), pl_free(B), pl_free(C);
    return s;
}

/* GFLOP a run: 2 M N K. */
static double gemm_work(const pl_dist_bench_args *a, int64_t M, int64_t N)
{
    int64_t d[3] = {0, 0, 0};
    gemm_dims(a->size_text, d);
    return 2.0 * (double)M * (double)N * (double)d[2] / 1e9;
}

static void gemm_destroy(pl_dist_bench_case *c)
{
    if (!c) return;
    pl_dist_gemm_gpu_destroy(c->gpu);
    pl_dev_free(c->dA), pl_dev_free(c->dB), pl_dev_free(c->dC);
    pl_free(c->A), pl_free(c->B), pl_free(c->C);
    free(c);
}

const pl_dist_bench_kernel pl_dist_bench_gemm = {
    .name = "gemm",
    .kernel = &pl_gemm_kernel,
    .unit = "GFLOP/s",
    .size_form = "MxNxK",
    .default_size = "1024",
    .periodic = 0,
    .parse_size = gemm_size,
    .create = gemm_create,
    .run = gemm_run,
    .check = gemm_check,
    .messages = gemm_messages,
    .rung = gemm_rung,
    .note = gemm_note,
    .on_nccl = gemm_on_nccl,
    .gpu_model = gemm_gpu_model,
    .one_rank = gemm_one_rank,
    .work = gemm_work,
    .destroy = gemm_destroy,
};
