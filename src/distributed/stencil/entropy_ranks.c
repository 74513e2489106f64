/* entropy_ranks.c: local entropy on a grid of ranks (see stencil_ranks.h). The rung clips each pixel's
 * window at the edge of the array it is given, so the outputs of a part R of the block are run
 * on R grown by r, within what the window holds (the block, the halo where a neighbour is):
 * there that edge is the image's own edge or r past R. The rung writes the whole grown part;
 * only R's outputs are right, so it writes into a scratch copy of the window's shape and R is
 * copied out. The recomputed ring is the split's extra work, which AUTO weighs.
 * The GPU path (stencil_window.h, nccl_window.c): the window of values and a window-shaped
 * output live on the rank's GPU. A part whose ring may land anywhere (the interior, whose ring
 * is the rim, computed after it; or the whole block when not overlapped, whose ring is the
 * halo) writes straight into the output window; a rim part writes into the scratch window and
 * only its own outputs are copied across (the rim parts' rings overlap each other and the
 * interior), each right after it runs. */
#include "distributed/stencil/stencil_ranks.h"

#include "core/core.h"
#include "core/device.h"
#include "distributed/stencil/stencil_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pl_dist_entropy_plan {
    pl_ctx *ctx;
    const char *rung;
    const int64_t *params;
    pl_entropy_problem p; /* the whole image */
    pl_dist_window win;   /* uint8 values */
    float *scratch;       /* the rung's outputs, the window's shape */
    pl_dist_rect inner;   /* the block's pixels that need no halo */
    int overlap;
    pl_dist_times t;
    pl_status failed;
    /* the GPU path (e->win.gpu): the rung; the outputs and the rims' scratch, window-shaped, on the device */
    const pl_variant *v;
    float *d_out, *d_scratch;
    pl_status loaded; /* the last upload's status: a resident run starts from it */
};

/* What the rung runs on for the outputs of part: part grown by r, within the window's data. */
static pl_dist_rect grown(const pl_dist_entropy_plan *e, pl_dist_rect part)
{
    const int64_t r = e->win.r;
    return pl_dist_rect_meet(pl_dist_rect_shrink(part, -r, -r, -r, -r), pl_dist_window_data(&e->win));
}

pl_status pl_dist_entropy_create(pl_dist_entropy_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                 const int64_t *params, const pl_entropy_problem *p, int overlap)
{
    *out = NULL;
    pl_entropy_problem whole = *p;
    whole.ld_in = whole.ld_out = whole.W;
    pl_status s = pl_entropy_check(&whole);
    if (s != PL_OK) return s;
    if (!rung && !(rung = pl_best_variant(ctx, &pl_entropy_kernel, NULL)))
        return pl_fail(PL_ERR_UNSUPPORTED, "entropy: no entropy variant can run in this context");
    pl_dist_entropy_plan *e = calloc(1, sizeof *e);
    if (!e) return pl_fail(PL_ERR_NOMEM, "entropy: cannot allocate the distributed plan");
    e->ctx = ctx, e->rung = rung, e->params = params, e->p = whole;
    char what[32];
    snprintf(what, sizeof what, "entropy: k = %d", whole.k);
    if ((s = pl_dist_window_init(&e->win, g, whole.H, whole.W, 1, whole.k / 2, what)) != PL_OK) {
        free(e);
        return s;
    }
    const size_t bytes = (size_t)e->win.rows * (size_t)e->win.ld * sizeof(float);
    if (!(e->scratch = pl_alloc(bytes)))
        s = pl_fail(PL_ERR_NOMEM, "entropy: cannot allocate this rank's %lldx%lld outputs (%.3g MB)",
                    (long long)e->win.rows, (long long)e->win.ld, (double)bytes / 1e6);
    const pl_dist_window *win = &e->win;
    const int64_t r = win->r;
    const pl_dist_rect block = pl_dist_window_block(win);
    e->inner = pl_dist_rect_shrink(block, win->nbr[PL_DIST_SIDE_N] ? r : 0, win->nbr[PL_DIST_SIDE_S] ? r : 0,
                                   win->nbr[PL_DIST_SIDE_W] ? r : 0, win->nbr[PL_DIST_SIDE_E] ? r : 0);
    /* the split's extra work: every part's grown area past the block's */
    pl_dist_rect parts[4];
    const int n = pl_dist_rim_parts(block, e->inner, parts);
    double split = (double)pl_dist_rect_area(grown(e, e->inner));
    for (int i = 0; i < n; i++) split += (double)pl_dist_rect_area(grown(e, parts[i]));
    const double plain = (double)pl_dist_rect_area(grown(e, block));
    /* A CUDA rung: the window on the GPU, halos on NCCL where the build and the node allow (the
     * choice is collective: every rank takes part) */
    if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA) { /* a rank that failed above still takes part */
        e->v = pl_variant_find(&pl_entropy_kernel, rung);
        const pl_status gs = pl_dist_window_gpu_create(&e->win, ctx, s == PL_OK && e->v &&
                                                                     e->v->backend == PL_BACKEND_CUDA);
        if (s == PL_OK) s = gs;
        if (s == PL_OK && e->win.gpu && (s = pl_dev_malloc((void **)&e->d_out, bytes)) == PL_OK)
            s = pl_dev_malloc((void **)&e->d_scratch, bytes);
    }
    /* after the GPU path is known: auto does not overlap there (stencil_window.h) */
    e->overlap = pl_dist_window_overlaps(win, overlap, e->inner, split - plain, plain);
    if (s != PL_OK) {
        pl_dist_entropy_destroy(e);
        return s;
    }
    *out = e;
    return PL_OK;
}

void pl_dist_entropy_destroy(pl_dist_entropy_plan *e)
{
    if (!e) return;
    pl_dev_free(e->d_out), pl_dev_free(e->d_scratch);
    pl_dist_window_free(&e->win);
    pl_free(e->scratch);
    free(e);
}

/* The GPU path's part: the rung on part grown, into the output window (direct: its ring may
 * land there) or into the scratch window, part's own outputs then copied across. */
static void run_part_gpu(pl_dist_entropy_plan *e, pl_dist_rect part, int direct)
{
    if (e->failed != PL_OK || !pl_dist_rect_area(part)) return;
    const pl_dist_rect g = grown(e, part);
    const int64_t ld = e->win.ld;
    pl_entropy_problem q = e->p;
    q.H = g.r1 - g.r0, q.W = g.c1 - g.c0, q.ld_in = q.ld_out = ld;
    float *to = direct ? e->d_out : e->d_scratch;
    void *dev[2] = {pl_dist_window_dev_at(&e->win, g.r0, g.c0), to + (size_t)g.r0 * (size_t)ld + (size_t)g.c0};
    void *stream = pl_dist_window_stream(&e->win);
    e->failed = pl_run_device(e->ctx, &pl_entropy_kernel, e->v, e->params, &q, dev, stream);
    if (e->failed == PL_OK && !direct) {
        const size_t at = (size_t)part.r0 * (size_t)ld + (size_t)part.c0, pitch = (size_t)ld * sizeof(float);
        e->failed = pl_dev_copy_2d(e->d_out + at, pitch, e->d_scratch + at, pitch,
                                   (size_t)(part.c1 - part.c0) * sizeof(float), (size_t)(part.r1 - part.r0), stream);
    }
}

/* The outputs of part (window coordinates) into out, the caller's block. */
static void run_part(pl_dist_entropy_plan *e, pl_dist_rect part, float *out, int64_t ld_out)
{
    if (e->failed != PL_OK || !pl_dist_rect_area(part)) return;
    const pl_dist_rect g = grown(e, part), block = pl_dist_window_block(&e->win);
    const int64_t ld = e->win.ld;
    pl_entropy_problem q = e->p;
    q.H = g.r1 - g.r0, q.W = g.c1 - g.c0, q.ld_in = q.ld_out = ld;
    const double t0 = pl_now();
    float *at = e->scratch + (size_t)g.r0 * (size_t)ld + (size_t)g.c0;
    e->failed = pl_entropy_variant_phases(e->ctx, e->rung, e->params, &q, pl_dist_window_at(&e->win, g.r0, g.c0), at,
                                          NULL);
    for (int64_t y = part.r0; y < part.r1 && e->failed == PL_OK; y++)
        memcpy(out + (size_t)(y - block.r0) * (size_t)ld_out + (size_t)(part.c0 - block.c0),
               e->scratch + (size_t)y * (size_t)ld + (size_t)part.c0, sizeof(float) * (size_t)(part.c1 - part.c0));
    e->t.compute += pl_now() - t0;
}

/* The interior's outputs straight from the caller's block into the caller's output (host path):
 * the rung on part grown (within the block: the interior is r from every side with a
 * neighbour), its ring of clipped outputs written too and overwritten by the rims after. */
static void run_part_direct(pl_dist_entropy_plan *e, pl_dist_rect part, const uint8_t *in, int64_t ld_in, float *out,
                            int64_t ld_out)
{
    if (e->failed != PL_OK || !pl_dist_rect_area(part)) return;
    const pl_dist_rect g = grown(e, part), block = pl_dist_window_block(&e->win);
    pl_entropy_problem q = e->p;
    q.H = g.r1 - g.r0, q.W = g.c1 - g.c0, q.ld_in = ld_in, q.ld_out = ld_out;
    const int64_t y = g.r0 - block.r0, x = g.c0 - block.c0;
    const double t0 = pl_now();
    e->failed = pl_entropy_variant_phases(e->ctx, e->rung, e->params, &q, in + y * ld_in + x, out + y * ld_out + x,
                                          NULL);
    e->t.compute += pl_now() - t0;
}

/* This run's local checks: pitches, and every value of the block below bins (the first one
 * that is not, named in the image's coordinates). */
static pl_status check_run(const pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in, const float *out,
                           int64_t ld_out)
{
    const pl_dist_window *win = &e->win;
    if (!in || !out) return pl_fail(PL_ERR_ARG, "entropy: NULL block on rank %d", win->g->rank);
    if (ld_in < win->w || ld_out < win->w)
        return pl_fail(PL_ERR_ARG, "entropy: rank %d: ld_in = %lld / ld_out = %lld, its block has %lld columns",
                       win->g->rank, (long long)ld_in, (long long)ld_out, (long long)win->w);
    for (int64_t y = 0; y < win->h; y++) {
        const uint8_t *row = in + y * ld_in;
        if (pl_entropy_check_values(row, 1, win->w, ld_in, e->p.bins) == PL_OK) continue;
        int64_t x = 0;
        while (row[x] < e->p.bins) x++;
        return pl_fail(PL_ERR_ARG, "entropy: value %d at pixel (row %lld, col %lld) is outside [0, %d)", row[x],
                       (long long)(win->b.y0 + y), (long long)(win->b.x0 + x), e->p.bins);
    }
    return PL_OK;
}

pl_status pl_dist_entropy_run(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out)
{
    e->failed = check_run(e, in, ld_in, out, ld_out);
    if (e->win.gpu) {
        e->loaded = e->failed == PL_OK ? pl_dist_window_gpu_load(&e->win, in, ld_in) : e->failed;
        pl_status s = pl_dist_entropy_run_resident(e);
        return s == PL_OK ? pl_dist_entropy_download(e, out, ld_out) : s;
    }
    /* The interior from the caller's block into its output (no copy of the block into the
     * window, none of the outputs out of a scratch); the window gets the 2r frame the rims and
     * the halo read (conv2d_ranks.c does the same). */
    const int direct = pl_dist_rect_area(e->inner) > 0;
    if (e->failed == PL_OK) {
        if (direct) pl_dist_window_load_frame(&e->win, in, ld_in, 2 * (int64_t)e->win.r, &e->t);
        else pl_dist_window_load(&e->win, in, ld_in, &e->t);
    }
    pl_dist_window_begin(&e->win, &e->t);
    if (direct && e->overlap) run_part_direct(e, e->inner, in, ld_in, out, ld_out);
    pl_dist_window_end(&e->win, &e->t);
    if (direct && !e->overlap) run_part_direct(e, e->inner, in, ld_in, out, ld_out);
    pl_dist_rect parts[4]; /* after the interior: they overwrite its ring */
    const int n = pl_dist_rim_parts(pl_dist_window_block(&e->win), direct ? e->inner : (pl_dist_rect){0, 0, 0, 0},
                                    parts);
    for (int i = 0; i < n; i++) run_part(e, parts[i], out, ld_out);
    return e->failed;
}

/* ---------------------------------------------------------------- the GPU path, resident */

int pl_dist_entropy_on_nccl(const pl_dist_entropy_plan *e) { return e->win.gpu != NULL; }
pl_dist_model pl_dist_entropy_gpu_model(pl_dist_entropy_plan *e) { return pl_dist_window_gpu_model(&e->win); }

static pl_status host_path(const char *what)
{
    return pl_fail(PL_ERR_UNSUPPORTED, "entropy: %s: this plan runs on the host (no GPU path: see "
                   "pl_dist_entropy_on_nccl)", what);
}

pl_status pl_dist_entropy_upload(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in)
{
    if (!e->win.gpu) return host_path("upload");
    e->loaded = check_run(e, in, ld_in, e->d_out, e->win.w);
    if (e->loaded == PL_OK) e->loaded = pl_dist_window_gpu_load(&e->win, in, ld_in);
    return e->loaded;
}

pl_status pl_dist_entropy_run_resident(pl_dist_entropy_plan *e)
{
    if (!e->win.gpu) return host_path("run_resident");
    e->failed = e->loaded;
    pl_dist_window_gpu_begin(&e->win, &e->failed);
    if (e->overlap) run_part_gpu(e, e->inner, 1);
    pl_dist_window_gpu_end(&e->win, &e->failed);
    pl_dist_rect parts[4];
    const int n = pl_dist_rim_parts(pl_dist_window_block(&e->win),
                                    e->overlap ? e->inner : (pl_dist_rect){0, 0, 0, 0}, parts);
    for (int i = 0; i < n; i++) run_part_gpu(e, parts[i], !e->overlap);
    pl_dist_window_gpu_finish(&e->win, &e->t, &e->failed);
    return e->failed;
}

pl_status pl_dist_entropy_download(pl_dist_entropy_plan *e, float *out, int64_t ld_out)
{
    if (!e->win.gpu) return host_path("download");
    const pl_dist_window *w = &e->win;
    if (!out || ld_out < w->w)
        return pl_fail(PL_ERR_ARG, "entropy: rank %d: download into %s (ld_out = %lld, the block has %lld columns)",
                       w->g->rank, out ? "a block" : "NULL", (long long)ld_out, (long long)w->w);
    const size_t pitch = (size_t)w->ld * sizeof(float);
    pl_status s = pl_dev_copy_2d(out, (size_t)ld_out * sizeof(float), e->d_out + (size_t)w->r * (size_t)w->ld + (size_t)w->r,
                                 pitch, (size_t)w->w * sizeof(float), (size_t)w->h, pl_dist_window_stream(w));
    return s == PL_OK ? pl_dev_sync(pl_dist_window_stream(w)) : s;
}

const char *pl_dist_entropy_rung(const pl_dist_entropy_plan *e) { return e->rung; }
pl_dist_times pl_dist_entropy_times(const pl_dist_entropy_plan *e) { return e->t; }
int pl_dist_entropy_overlaps(const pl_dist_entropy_plan *e) { return e->overlap; }

pl_status pl_dist_entropy(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_entropy_problem *p,
                          const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out, pl_dist_times *t)
{
    pl_dist_entropy_plan *e;
    pl_status s = pl_dist_entropy_create(&e, g, ctx, rung, NULL, p, PL_DIST_OVERLAP_AUTO);
    if (s != PL_OK) return s;
    s = pl_dist_entropy_run(e, in, ld_in, out, ld_out);
    if (t) t->compute += e->t.compute, t->exchange += e->t.exchange, t->wait += e->t.wait;
    pl_dist_entropy_destroy(e);
    return s;
}
