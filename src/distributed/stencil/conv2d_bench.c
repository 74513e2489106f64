/* conv2d_bench.c: conv2d in the distributed bench (bench_ranks.h): a float32 image with a
 * 5 x 5 filter, 'same' mode with zero borders, on a bounded grid of ranks (stencil_ranks.h),
 * each rank's best local rung (or --variant). Inputs: each pixel a hash of the seed and its
 * global position, in [-1, 1), so every rank makes its own block. Check: each rank runs the
 * kernel's own float64 reference (its spec) on the pixels around its block (the block and r = 2
 * beyond, zero past the image's edge, as 'valid' outputs) and compares every pixel within the
 * spec's element bound gamma_(K^2+4) sum |w x|.
 * On the GPU path the input block is uploaded once and stays on the GPU: a timed
 * run is the distributed run alone (pl_dist_conv2d_run_resident), the check downloads the
 * output; the one-rank baseline is the same rung on one GPU with its data resident. */
#include "distributed/bench/bench_ranks.h"

#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"
#include "kernels/conv2d/conv2d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BENCH_K = 5, BENCH_R = BENCH_K / 2 };

struct pl_dist_bench_case {
    const pl_dist_grid *g;
    uint64_t seed;
    pl_conv2d_problem p;
    float filter[BENCH_K * BENCH_K];
    pl_dist_block b;
    float *in, *out;
    pl_dist_conv2d_plan *plan;
};

/* Pixel (y, x) of the image: a hash of the seed and its position, in [-1, 1). */
static float pixel(uint64_t seed, int64_t W, int64_t y, int64_t x)
{
    return pl_dist_bench_value(seed, (uint64_t)(y * W + x));
}

/* The h x w pixels from (y0, x0), rows w apart. */
static void image_rect(uint64_t seed, int64_t W, int64_t y0, int64_t x0, int64_t h, int64_t w, float *out)
{
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) out[y * w + x] = pixel(seed, W, y0 + y, x0 + x);
}

/* The problem of an H x W image, and the filter (a fixed, uneven one). */
static void make_problem(int64_t H, int64_t W, pl_conv2d_problem *p, float *filter)
{
    *p = (pl_conv2d_problem){.H = H, .W = W, .K = BENCH_K, .dtype = PL_F32, .mode = PL_CONV2D_SAME,
                             .border = PL_CONV2D_ZERO, .ld_img = W};
    pl_conv2d_set_shape(p);
    p->ld_out = p->OW;
    for (int i = 0; i < BENCH_K * BENCH_K; i++) filter[i] = (float)((i * 7) % 11 - 5) / 8.0f;
}

static pl_status conv2d_create(pl_dist_bench_case **out, const pl_dist_bench_args *a, const pl_dist_grid *g, pl_ctx *ctx,
                               int64_t H, int64_t W)
{
    pl_dist_bench_case *c = calloc(1, sizeof *c);
    if (!(*out = c)) return pl_fail(PL_ERR_NOMEM, "conv2d: out of memory");
    c->g = g, c->seed = (uint64_t)a->seed;
    make_problem(H, W, &c->p, c->filter);
    c->b = pl_dist_block_of(g, H, W);
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0;
    if (!(c->in = pl_alloc(sizeof(float) * (size_t)(h * w))) || !(c->out = pl_alloc(sizeof(float) * (size_t)(h * w))))
        return pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate this rank's %lldx%lld block", (long long)h, (long long)w);
    image_rect(c->seed, W, c->b.y0, c->b.x0, h, w, c->in);
    pl_status s = pl_dist_conv2d_create(&c->plan, g, ctx, a->variant ? a->variant->name : NULL, NULL, &c->p,
                                        c->filter, a->overlap);
    if (s == PL_OK && pl_dist_conv2d_on_nccl(c->plan)) s = pl_dist_conv2d_upload(c->plan, c->in, w);
    return s;
}

static pl_status conv2d_run(pl_dist_bench_case *c, pl_dist_times *t)
{
    const pl_dist_times before = pl_dist_conv2d_times(c->plan);
    const int64_t w = c->b.x1 - c->b.x0;
    const pl_status s = pl_dist_conv2d_on_nccl(c->plan) ? pl_dist_conv2d_run_resident(c->plan)
                                                        : pl_dist_conv2d_run(c->plan, c->in, w, c->out, w);
    const pl_dist_times after = pl_dist_conv2d_times(c->plan);
    t->compute += after.compute - before.compute;
    t->exchange += after.exchange - before.exchange;
    t->wait += after.wait - before.wait;
    return s;
}

static pl_status conv2d_check(pl_dist_bench_case *c, const char **what)
{
    *what = "every pixel within gamma_(K^2+4) sum|w x| of the spec's float64 reference on each rank";
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0, H = c->p.H, W = c->p.W;
    const int64_t ah = h + 2 * BENCH_R, aw = w + 2 * BENCH_R; /* the block and r around it, zero past the image */
    if (pl_dist_conv2d_on_nccl(c->plan)) {
        const pl_status s = pl_dist_conv2d_download(c->plan, c->out, w);
        if (s != PL_OK) return s;
    }
    float *around = pl_alloc(sizeof(float) * (size_t)(ah * aw));
    double *ref = pl_alloc(sizeof(double) * (size_t)(h * w)), *scale = pl_alloc(sizeof(double) * (size_t)(h * w));
    pl_status s = around && ref && scale ? PL_OK : pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate the check");
    for (int64_t y = 0; y < ah && s == PL_OK; y++)
        for (int64_t x = 0; x < aw; x++) {
            const int64_t sy = c->b.y0 + y - BENCH_R, sx = c->b.x0 + x - BENCH_R;
            around[y * aw + x] = sy < 0 || sy >= H || sx < 0 || sx >= W ? 0.0f : pixel(c->seed, W, sy, sx);
        }
    /* the block's outputs as the 'valid' outputs of the window around it, by the kernel's spec */
    pl_conv2d_problem part = c->p;
    part.H = ah, part.W = aw, part.ld_img = aw, part.mode = PL_CONV2D_VALID;
    pl_conv2d_set_shape(&part);
    part.ld_out = part.OW;
    void *host[3] = {around, c->filter, NULL};
    if (s == PL_OK) s = pl_dist_bench_reference(&pl_conv2d_kernel, &part, host, 2, ref, scale);
    const double eb = pl_conv2d_kernel.elem_bound(&c->p, PL_PREC_FP32, NULL);
    for (int64_t y = 0; y < h && s == PL_OK; y++)
        for (int64_t x = 0; x < w; x++) {
            const double got = c->out[y * w + x], want = ref[y * w + x];
            if (!(fabs(got - want) <= eb * scale[y * w + x])) {
                s = pl_fail(PL_ERR_VERIFY, "conv2d: rank %d: pixel (%lld, %lld) is %.9g, the reference says %.9g",
                            c->g->rank, (long long)(c->b.y0 + y), (long long)(c->b.x0 + x), got, want);
                break;
            }
        }
    pl_free(around), pl_free(ref), pl_free(scale);
    return s;
}

/* One message to each neighbour: a side r rows or columns of the block, a corner r x r. */
static void conv2d_messages(const pl_dist_bench_case *c, double *msgs, double *bytes)
{
    const int64_t h = c->b.y1 - c->b.y0, w = c->b.x1 - c->b.x0;
    *msgs = *bytes = 0;
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (dir == PL_DIST_HERE || c->g->nbr[dir] == PL_DIST_NONE) continue;
        *msgs += 1;
        *bytes += 4.0 * (double)(PL_DIST_DY(dir) ? BENCH_R : h) * (double)(PL_DIST_DX(dir) ? BENCH_R : w);
    }
}

static const char *conv2d_rung(const pl_dist_bench_case *c) { return pl_dist_conv2d_rung(c->plan); }

/* The least a run moves: the pixels its outputs read (the block and r around it, within the
 * image) read once, its output block written once, float32 each. */
static void conv2d_bytes(const pl_dist_bench_case *c, double *read, double *written)
{
    *read = pl_dist_bench_window_cells(c->b, BENCH_R, c->p.H, c->p.W) * sizeof(float);
    *written = (double)(c->b.y1 - c->b.y0) * (double)(c->b.x1 - c->b.x0) * sizeof(float);
}

/* One run of the one-rank baseline. */
typedef struct conv2d_call {
    pl_ctx *ctx;
    const char *rung;
    const pl_conv2d_problem *p;
    const float *img, *filter;
    float *out;
} conv2d_call;

static pl_status conv2d_call_run(void *user)
{
    const conv2d_call *c = user;
    return pl_conv2d_variant_problem(c->ctx, c->rung, NULL, c->p, c->img, c->filter, c->out);
}

static pl_status conv2d_one_rank(const pl_dist_bench_args *a, pl_ctx *ctx, const char *rung, int64_t H, int64_t W,
                                 double *seconds)
{
    pl_conv2d_problem p;
    float filter[BENCH_K * BENCH_K];
    make_problem(H, W, &p, filter);
    float *img = pl_alloc(sizeof(float) * (size_t)(H * W)), *out = pl_alloc(sizeof(float) * (size_t)(H * W));
    pl_status s = img && out ? PL_OK : pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate the one-rank %lldx%lld image",
                                               (long long)H, (long long)W);
    if (s == PL_OK) {
        image_rect((uint64_t)a->seed, W, 0, 0, H, W, img);
        if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA) { /* one GPU, the data resident */
            void *host[3] = {img, filter, out};
            s = pl_dist_bench_one_gpu(a, ctx, &pl_conv2d_kernel, rung, &p, host, seconds);
            pl_free(img), pl_free(out);
            return s;
        }
        conv2d_call c = {ctx, rung, &p, img, filter, out};
        s = pl_dist_bench_time(a, conv2d_call_run, &c, seconds);
    }
    pl_free(img), pl_free(out);
    return s;
}

static double conv2d_work(const pl_dist_bench_args *a, int64_t H, int64_t W)
{
    (void)a;
    return (double)H * (double)W;
}

static int conv2d_on_nccl(const pl_dist_bench_case *c) { return pl_dist_conv2d_on_nccl(c->plan); }
static pl_dist_model conv2d_gpu_model(pl_dist_bench_case *c) { return pl_dist_conv2d_gpu_model(c->plan); }

static int conv2d_overlaps(const pl_dist_bench_case *c) { return pl_dist_conv2d_overlaps(c->plan); }

static void conv2d_destroy(pl_dist_bench_case *c)
{
    if (!c) return;
    pl_dist_conv2d_destroy(c->plan);
    pl_free(c->in), pl_free(c->out);
    free(c);
}

const pl_dist_bench_kernel pl_dist_bench_conv2d = {
    .name = "conv2d",
    .kernel = &pl_conv2d_kernel,
    .unit = "pixels/s",
    .size_form = "HxW",
    .default_size = "2048",
    .periodic = 0,
    .create = conv2d_create,
    .run = conv2d_run,
    .check = conv2d_check,
    .messages = conv2d_messages,
    .rung = conv2d_rung,
    .one_rank = conv2d_one_rank,
    .work = conv2d_work,
    .destroy = conv2d_destroy,
    .on_nccl = conv2d_on_nccl,
    .gpu_model = conv2d_gpu_model,
    .overlaps = conv2d_overlaps,
    .bytes = conv2d_bytes,
};
