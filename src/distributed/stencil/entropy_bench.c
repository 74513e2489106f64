/* entropy_bench.c: entropy in the distributed bench (bench_ranks.h): values in [0, 16),
 * 5 x 5 windows clipped at the image's edge, natural log, on a bounded grid of ranks
 * (stencil_ranks.h), each rank's best local rung (or --variant). Inputs: each value a hash of
 * the seed and its global position. Check: each rank runs the kernel's own float64 reference
 * (pl_entropy_reference_at) on its block grown by r = 2 (clipped at the image, so a window is
 * clipped where the image's is) and compares every pixel within the spec's bound.
 * On the GPU path the values stay on the GPU across runs (upload once, then
 * pl_dist_entropy_run_resident), the check downloads the output; the one-rank baseline is the
 * same rung on one GPU with its data resident. */
#include "distributed/bench/bench_ranks.h"

#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"
#include "kernels/entropy/entropy.h"

#include <math.h>
#include <stdlib.h>

enum { BENCH_K = 5, BENCH_R = BENCH_K / 2, BENCH_BINS = 16 };

struct pl_dist_bench_case {
    const pl_dist_grid *g;
    uint64_t seed;
    pl_entropy_problem p;
    pl_dist_block b;
    uint8_t *in;
    float *out;
    pl_dist_entropy_plan *plan;
};

/* The h x w values from (y0, x0) of the W-wide image, rows w apart. */
static void values_rect(uint64_t seed, int64_t W, int64_t y0, int64_t x0, int64_t h, int64_t w, uint8_t *out)
{
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            out[y * w + x] = (uint8_t)(pl_dist_bench_hash(seed, (uint64_t)((y0 + y) * W + x0 + x)) >> 60);
}

static pl_entropy_problem problem_of(int64_t H, int64_t W)
{
    return (pl_entropy_problem){.H = H, .W = W, .k = BENCH_K, .bins = BENCH_BINS, .ld_in = W, .ld_out = W};
}

static pl_status entropy_create(pl_dist_bench_case **out, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx,
                                int64_t H, int64_t W)
{
    pl_dist_bench_case *c = calloc(1, sizeof *c);
    if (!(*out = c)) return pl_fail(PL_ERR_NOMEM, "entropy: out of memory");
    c->g = g, c->seed = (uint64_t)a->seed, c->p = problem_of(H, W);
    c->b = pl_dist_block_of(g, H, W);
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0;
    if (!(c->in = pl_alloc((size_t)(h * w))) || !(c->out = pl_alloc(sizeof(float) * (size_t)(h * w))))
        return pl_fail(PL_ERR_NOMEM, "entropy: cannot allocate this rank's %lldx%lld block", (long long)h, (long long)w);
    values_rect(c->seed, W, c->b.y0, c->b.x0, h, w, c->in);
    pl_status s = pl_dist_entropy_create(&c->plan, g, ctx, a->variant ? a->variant->name : NULL, NULL, &c->p,
                                         a->overlap);
    if (s == PL_OK && pl_dist_entropy_on_nccl(c->plan)) s = pl_dist_entropy_upload(c->plan, c->in, w);
    return s;
}

static pl_status entropy_run(pl_dist_bench_case *c, pl_dist_times *t)
{
    const pl_dist_times before = pl_dist_entropy_times(c->plan);
    const int64_t w = c->b.x1 - c->b.x0;
    const pl_status s = pl_dist_entropy_on_nccl(c->plan) ? pl_dist_entropy_run_resident(c->plan)
                                                         : pl_dist_entropy_run(c->plan, c->in, w, c->out, w);
    const pl_dist_times after = pl_dist_entropy_times(c->plan);
    t->compute += after.compute - before.compute;
    t->exchange += after.exchange - before.exchange;
    t->wait += after.wait - before.wait;
    return s;
}

static pl_status entropy_check(pl_dist_bench_case *c, const char **what)
{
    *what = "every pixel within the spec's bound of the float64 reference on each rank's block";
    const int64_t H = c->p.H, W = c->p.W, w = c->b.x1 - c->b.x0;
    const int64_t y0 = c->b.y0 > BENCH_R ? c->b.y0 - BENCH_R : 0, y1 = c->b.y1 + BENCH_R < H ? c->b.y1 + BENCH_R : H;
    const int64_t x0 = c->b.x0 > BENCH_R ? c->b.x0 - BENCH_R : 0, x1 = c->b.x1 + BENCH_R < W ? c->b.x1 + BENCH_R : W;
    const pl_entropy_problem around = problem_of(y1 - y0, x1 - x0); /* clipped where the image is */
    if (pl_dist_entropy_on_nccl(c->plan)) {
        const pl_status d = pl_dist_entropy_download(c->plan, c->out, w);
        if (d != PL_OK) return d;
    }
    uint8_t *v = pl_alloc((size_t)((y1 - y0) * (x1 - x0)));
    if (!v) return pl_fail(PL_ERR_NOMEM, "entropy: cannot allocate the check");
    values_rect(c->seed, W, y0, x0, y1 - y0, x1 - x0, v);
    const double bound = pl_entropy_spec_bound(&c->p, PL_PREC_FP32, NULL);
    pl_status s = PL_OK;
    for (int64_t y = c->b.y0; y < c->b.y1 && s == PL_OK; y++)
        for (int64_t x = c->b.x0; x < c->b.x1; x++) {
            int64_t n;
            const double want = pl_entropy_reference_at(&around, v, y - y0, x - x0, &n);
            const double got = c->out[(y - c->b.y0) * w + (x - c->b.x0)], scale = log((double)n) > 1 ? log((double)n) : 1;
            if (!(fabs(got - want) <= bound * scale)) {
                s = pl_fail(PL_ERR_VERIFY, "entropy: rank %d: pixel (%lld, %lld) is %.9g, the reference says %.9g",
                            c->g->rank, (long long)y, (long long)x, got, want);
                break;
            }
        }
    pl_free(v);
    return s;
}

/* One message to each neighbour: a side r rows or columns of the block, a corner r x r, a
 * byte a value. */
static void entropy_messages(const pl_dist_bench_case *c, double *msgs, double *bytes)
{
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0;
    *msgs = *bytes = 0;
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (dir == PL_DIST_HERE || c->g->nbr[dir] == PL_DIST_NONE) continue;
        *msgs += 1;
        *bytes += (double)(PL_DIST_DY(dir) ? BENCH_R : h) * (double)(PL_DIST_DX(dir) ? BENCH_R : w);
    }
}

static const char *entropy_rung(const pl_dist_bench_case *c) { return pl_dist_entropy_rung(c->plan); }

/* The least a run moves: the values its windows read (the block and r around it, within the
 * image, a byte each) read once, its block of entropies (float32) written once. */
static void entropy_bytes(const pl_dist_bench_case *c, double *read, double *written)
{
    *read = pl_dist_bench_window_cells(c->b, BENCH_R, c->p.H, c->p.W) * sizeof(uint8_t);
    *written = (double)(c->b.y1 - c->b.y0) * (double)(c->b.x1 - c->b.x0) * sizeof(float);
}

/* One run of the one-rank baseline. */
typedef struct entropy_call {
    pl_ctx *ctx;
    const char *rung;
    const pl_entropy_problem *p;
    const uint8_t *v;
    float *out;
} entropy_call;

static pl_status entropy_call_run(void *user)
{
    const entropy_call *e = user;
    return pl_entropy_variant_phases(e->ctx, e->rung, NULL, e->p, e->v, e->out, NULL);
}

static pl_status entropy_one_rank(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                                  double *seconds)
{
    const pl_entropy_problem p = problem_of(H, W);
    uint8_t *v = pl_alloc((size_t)(H * W));
    float *out = pl_alloc(sizeof(float) * (size_t)(H * W));
    pl_status s = v && out ? PL_OK : pl_fail(PL_ERR_NOMEM, "entropy: cannot allocate the one-rank %lldx%lld image",
                                             (long long)H, (long long)W);
    if (s == PL_OK) {
        values_rect((uint64_t)a->seed, W, 0, 0, H, W, v);
        if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA) { /* one GPU, the data resident */
            void *host[2] = {v, out};
            s = pl_dist_bench_one_gpu(a, ctx, &pl_entropy_kernel, rung, &p, host, seconds);
            pl_free(v), pl_free(out);
            return s;
        }
        entropy_call e = {ctx, rung, &p, v, out};
        s = pl_dist_bench_time(a, entropy_call_run, &e, seconds);
    }
    pl_free(v), pl_free(out);
    return s;
}

static double entropy_work(const pl_dist_bench_args *a, int64_t H, int64_t W)
{
    (void)a;
    return (double)H * (double)W;
}

static int entropy_on_nccl(const pl_dist_bench_case *c) { return pl_dist_entropy_on_nccl(c->plan); }
static pl_dist_model entropy_gpu_model(pl_dist_bench_case *c) { return pl_dist_entropy_gpu_model(c->plan); }

static int entropy_overlaps(const pl_dist_bench_case *c) { return pl_dist_entropy_overlaps(c->plan); }

static void entropy_destroy(pl_dist_bench_case *c)
{
    if (!c) return;
    pl_dist_entropy_destroy(c->plan);
    pl_free(c->in), pl_free(c->out);
    free(c);
}

const pl_dist_bench_kernel pl_dist_bench_entropy = {
    .name = "entropy",
    .kernel = &pl_entropy_kernel,
    .unit = "pixels/s",
    .size_form = "HxW",
    .default_size = "2048",
    .periodic = 0,
    .create = entropy_create,
    .run = entropy_run,
    .check = entropy_check,
    .messages = entropy_messages,
    .rung = entropy_rung,
    .one_rank = entropy_one_rank,
    .work = entropy_work,
    .destroy = entropy_destroy,
    .on_nccl = entropy_on_nccl,
    .gpu_model = entropy_gpu_model,
    .overlaps = entropy_overlaps,
    .bytes = entropy_bytes,
};
