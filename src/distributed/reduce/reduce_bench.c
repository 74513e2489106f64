/* reduce_bench.c: reduce in the distributed bench (bench_ranks.h): the sum of each row of an
 * H x W float32 matrix in the grid's blocks (reduce_ranks.h), the H sums on every rank (to ALL:
 * a combine along the process rows, a gather across the columns). With a CUDA rung, NCCL in the
 * build and a GPU a rank, the block and the result live on the GPUs (pl_dist_sreduce_gpu; the
 * baseline: one GPU, the same rung, data resident); else the host path (MPI). Inputs: each
 * element a hash of the seed and its global index, in [-1, 1). Check: each rank compares the
 * sums of its block's rows with the kernel's own float64 reference (its spec) of the generated
 * rows, within the spec's element bound gamma_(W-1) sum|a| (any summation order). Rate: the matrix's bytes read a second. */
#include "distributed/bench/bench_ranks.h"

#include "core/core.h"
#include "core/device.h"
#include "distributed/reduce/reduce_ranks.h"
#include "kernels/reduce/reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pl_dist_bench_case {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    uint64_t seed;
    int64_t H, W, h, w;
    pl_dist_block b;
    const char *rung;
    float *A, *r;              /* host block and result (the host path) */
    pl_dist_reduce_gpu *gpu;   /* the GPU path: its plan, device block and result */
    float *dA, *dr;
    char note[64];
};

static void fill(uint64_t seed, int64_t W, int64_t y0, int64_t x0, int64_t h, int64_t w, float *out)
{
#pragma omp parallel for
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) out[y * w + x] = pl_dist_bench_value(seed, (uint64_t)((y0 + y) * W + x0 + x));
}

static pl_status reduce_create(pl_dist_bench_case **out, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx,
                               int64_t H, int64_t W)
{
    pl_dist_bench_case *c = calloc(1, sizeof *c);
    if (!(*out = c)) return pl_fail(PL_ERR_NOMEM, "reduce: out of memory");
    c->g = g, c->ctx = ctx, c->seed = (uint64_t)a->seed, c->H = H, c->W = W, c->b = pl_dist_block_of(g, H, W);
    c->h = c->b.y1 - c->b.y0, c->w = c->b.x1 - c->b.x0;
    c->rung = a->variant ? a->variant->name : pl_best_variant(ctx, &pl_reduce_kernel, NULL);
    if (!(c->A = pl_alloc(sizeof(float) * (size_t)(c->h * c->w))) || !(c->r = pl_alloc(sizeof(float) * (size_t)H)))
        return pl_fail(PL_ERR_NOMEM, "reduce: cannot allocate this rank's %lldx%lld block", (long long)c->h,
                       (long long)c->w);
    fill(c->seed, W, c->b.y0, c->b.x0, c->h, c->w, c->A);
    pl_status s = pl_dist_reduce_gpu_create(&c->gpu, g, ctx, c->rung, NULL, PL_REDUCE_SUM, 1, H, W, PL_DIST_TO_ALL);
    snprintf(c->note, sizeof c->note, "sum of each row, on every rank, %s", c->gpu ? "GPU path (NCCL)" : "host path (MPI)");
    if (s != PL_OK || !c->gpu) return s;
    c->rung = pl_dist_reduce_gpu_rung(c->gpu);
    const size_t bytes = sizeof(float) * (size_t)(c->h * c->w);
    s = pl_dev_malloc((void **)&c->dA, bytes);
    if (s == PL_OK) s = pl_dev_malloc((void **)&c->dr, sizeof(float) * (size_t)H);
    if (s == PL_OK) s = pl_dev_h2d(c->dA, c->A, bytes, NULL);
    if (s == PL_OK) s = pl_dev_sync(NULL);
    return s;
}

static pl_status reduce_run(pl_dist_bench_case *c, pl_dist_times *t)
{
    if (c->gpu) return pl_dist_sreduce_gpu(c->gpu, c->dA, c->w, c->dr, t);
    return pl_dist_sreduce_variant(c->g, c->ctx, c->rung, NULL, PL_REDUCE_SUM, 1, c->H, c->W, c->A, c->w, c->r,
                                   PL_DIST_TO_ALL, t);
}

/* The rows the check makes at a time (their W elements each, then the spec's reference). */
enum { CHECK_ROWS = 64 };

static pl_status reduce_check(pl_dist_bench_case *c, const char **what)
{
    *what = "each rank's rows' sums within gamma_(W-1) sum|a| of float64 sums";
    pl_status s = PL_OK;
    if (c->gpu && (s = pl_dev_d2h(c->r, c->dr, sizeof(float) * (size_t)c->H, NULL)) == PL_OK) s = pl_dev_sync(NULL);
    const pl_kernel *k = &pl_reduce_kernel;
    const pl_reduce_problem whole = {c->H, c->W, c->W, PL_REDUCE_SUM, 1, 0};
    const double eb = k->elem_bound(&whole, PL_PREC_FP32, NULL);
    float *rows = pl_alloc(sizeof(float) * (size_t)(CHECK_ROWS * c->W));
    double *ref = pl_alloc(sizeof(double) * CHECK_ROWS), *scale = pl_alloc(sizeof(double) * CHECK_ROWS);
    if (s == PL_OK && (!rows || !ref || !scale)) s = pl_fail(PL_ERR_NOMEM, "reduce: cannot allocate the check");
    for (int64_t y0 = c->b.y0; y0 < c->b.y1 && s == PL_OK; y0 += CHECK_ROWS) {
        const int64_t n = c->b.y1 - y0 < CHECK_ROWS ? c->b.y1 - y0 : CHECK_ROWS;
        const pl_reduce_problem part = {n, c->W, c->W, PL_REDUCE_SUM, 1, 0}; /* these rows, whole */
        fill(c->seed, c->W, y0, 0, n, c->W, rows);
        void *host[2] = {rows, c->r + y0};
        s = pl_dist_bench_reference(k, &part, host, 1, ref, scale);
        for (int64_t i = 0; i < n && s == PL_OK; i++)
            if (!(fabs(c->r[y0 + i] - ref[i]) <= eb * scale[i]))
                s = pl_fail(PL_ERR_VERIFY, "reduce: rank %d: row %lld's sum is %.9g, the float64 reference says %.9g",
                            c->g->rank, (long long)(y0 + i), c->r[y0 + i], ref[i]);
    }
    pl_free(rows), pl_free(ref), pl_free(scale);
    return s;
}

/* The combine along the process row (one message of the block's h partials, where the row has
 * more than one rank) and the gather of the other process rows' bands (one message each). */
static void reduce_messages(const pl_dist_bench_case *c, double *msgs, double *bytes)
{
    *msgs = *bytes = 0;
    if (c->g->size == 1) return;
    if (c->g->dims[1] > 1) *msgs += 1, *bytes += 4.0 * (double)c->h;
    if (c->g->dims[0] > 1) *msgs += c->g->dims[0] - 1, *bytes += 4.0 * (double)(c->H - c->h);
}

static const char *reduce_rung(const pl_dist_bench_case *c) { return c->rung; }
static const char *reduce_note(const pl_dist_bench_case *c) { return c->note; }
static int reduce_on_nccl(const pl_dist_bench_case *c) { return c->gpu != NULL; }

/* The GPU path's model: NCCL between the GPUs (every rank has a plan, or none has). */
static pl_dist_model reduce_gpu_model(pl_dist_bench_case *c) { return pl_dist_reduce_gpu_model(c->gpu); }

/* One run of the one-rank baseline on host arrays. */
typedef struct reduce_call {
    pl_ctx *ctx;
    const char *rung;
    const pl_reduce_problem *p;
    const float *A;
    float *r;
} reduce_call;

static pl_status reduce_call_run(void *user)
{
    const reduce_call *c = user;
    return pl_reduce_variant_problem(c->ctx, c->rung, NULL, c->p, c->A, c->r);
}

static pl_status reduce_one_rank(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                                 double *seconds)
{
    const pl_reduce_problem p = {H, W, W, PL_REDUCE_SUM, 1, 0};
    const int gpu = pl_dist_bench_is_cuda(&pl_reduce_kernel, rung);
    float *A = pl_alloc(sizeof(float) * (size_t)(H * W)), *r = pl_alloc(sizeof(float) * (size_t)H), *dA = NULL, *dr = NULL;
    pl_status s = A && r ? PL_OK : pl_fail(PL_ERR_NOMEM, "reduce: cannot allocate the one-rank %lldx%lld matrix",
                                           (long long)H, (long long)W);
    if (s == PL_OK) fill((uint64_t)a->seed, W, 0, 0, H, W, A);
    if (s == PL_OK && gpu) s = pl_dev_select(pl_ctx_device(ctx));
    if (s == PL_OK && gpu) s = pl_dev_malloc((void **)&dA, sizeof(float) * (size_t)(H * W));
    if (s == PL_OK && gpu) s = pl_dev_malloc((void **)&dr, sizeof(float) * (size_t)H);
    if (s == PL_OK && gpu) s = pl_dev_h2d(dA, A, sizeof(float) * (size_t)(H * W), NULL);
    if (s == PL_OK && gpu) s = pl_dev_sync(NULL);
    void *dev[2] = {dA, dr};
    if (s == PL_OK && gpu) s = pl_dist_bench_time_device(a, ctx, &pl_reduce_kernel, rung, &p, dev, seconds);
    if (s == PL_OK && !gpu) {
        reduce_call c = {ctx, rung, &p, A, r};
        s = pl_dist_bench_time(a, reduce_call_run, &c, seconds);
    }
    pl_dev_free(dA), pl_dev_free(dr);
    pl_free(A), pl_free(r);
    return s;
}

/* GB read a run. */
static double reduce_work(const pl_dist_bench_args *a, int64_t H, int64_t W)
{
    (void)a;
    return 4.0 * (double)H * (double)W / 1e9;
}

static void reduce_destroy(pl_dist_bench_case *c)
{
    if (!c) return;
    pl_dist_reduce_gpu_destroy(c->gpu);
    pl_dev_free(c->dA), pl_dev_free(c->dr);
    pl_free(c->A), pl_free(c->r);
    free(c);
}

const pl_dist_bench_kernel pl_dist_bench_reduce = {
    .name = "reduce",
    .kernel = &pl_reduce_kernel,
    .unit = "GB/s",
    .size_form = "HxW",
    .default_size = "4096",
    .periodic = 0,
    .create = reduce_create,
    .run = reduce_run,
    .check = reduce_check,
    .messages = reduce_messages,
    .rung = reduce_rung,
    .note = reduce_note,
    .on_nccl = reduce_on_nccl,
    .gpu_model = reduce_gpu_model,
    .one_rank = reduce_one_rank,
    .work = reduce_work,
    .destroy = reduce_destroy,
};
