/* conv2d_ranks.c: conv2d on a grid of ranks (see stencil_ranks.h for the idea and the output's blocks).
 * Every part of the output is one 'valid' call of the local rung on the window: centres R need
 * the window's rows R.r0-r .. R.r1+r-1 and columns likewise, and land straight in the caller's
 * output block at R's offset, so a part costs no copy and no recomputation. 'same' is 'valid'
 * on the window padded by the border rule.
 * The GPU path (a CUDA rung under mpirun, a build with NCCL, a GPU a rank) is the
 * same run on the rank's GPU (stencil_window.h, nccl_window.c): the window, the filter and the output
 * block live in device memory, the parts run through pl_run_device on device pointers, the
 * border is filled on the device (pl_conv2d_pad_device; a zero border once, at create: nothing
 * writes there after), and the halo travels on NCCL. */
#include "distributed/stencil/stencil_ranks.h"

#include "core/core.h"
#include "core/device.h"
#include "distributed/transport/mpi_comm.h"
#include "distributed/stencil/stencil_window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_OUT_BLOCK = 300 };

struct pl_dist_conv2d_plan {
    pl_ctx *ctx;
    const char *rung;
    const int64_t *params;
    pl_conv2d_problem p;  /* the whole image */
    char filter[PL_CONV2D_MAX_K * PL_CONV2D_MAX_K * 4];
    pl_dist_window win;
    pl_dist_block out;    /* this rank's output block, global output coordinates */
    pl_dist_rect centres; /* the input pixels its outputs are centred on, window coordinates */
    pl_dist_rect inner;   /* the centres that need no halo */
    int overlap;          /* overlap the interior with the exchange */
    pl_dist_times t;
    pl_status failed;     /* this run's first local failure (the rank goes on exchanging) */
    /* the GPU path (c->win.gpu): the rung, the filter and the output block (rows ow apart) on the device */
    const pl_variant *v;
    void *d_filter, *d_out;
    int64_t ow;
    pl_status loaded;     /* the last upload's status: a resident run starts from it */
};

pl_dist_block pl_dist_conv2d_out_block_at(const pl_dist_grid *g, int prow, int pcol, const pl_conv2d_problem *p)
{
    pl_dist_block b = pl_dist_block_at(g, prow, pcol, p->H, p->W);
    if (p->mode == PL_CONV2D_SAME) return b;
    const int64_t r = p->K / 2;
    /* the centres [r, H-r) x [r, W-r) this block holds, moved up-left by r */
    b.y0 = (b.y0 > r ? b.y0 : r) - r, b.y1 = (b.y1 < p->H - r ? b.y1 : p->H - r) - r;
    b.x0 = (b.x0 > r ? b.x0 : r) - r, b.x1 = (b.x1 < p->W - r ? b.x1 : p->W - r) - r;
    if (b.y1 < b.y0) b.y1 = b.y0;
    if (b.x1 < b.x0) b.x1 = b.x0;
    return b;
}

pl_dist_block pl_dist_conv2d_out_block(const pl_dist_grid *g, const pl_conv2d_problem *p)
{
    return pl_dist_conv2d_out_block_at(g, g->coords[0], g->coords[1], p);
}

void pl_dist_conv2d_destroy(pl_dist_conv2d_plan *c);

/* The GPU path's device state: the filter, the output block; the interior's first input
 * column moved right to a multiple of 4 (the rungs' 16-byte loads need an aligned row start;
 * the rim takes the columns it leaves). */
static pl_status gpu_create(pl_dist_conv2d_plan *c)
{
    const size_t elem = pl_dtype_size(c->p.dtype), fbytes = (size_t)c->p.K * (size_t)c->p.K * elem;
    const int64_t r = c->win.r, oh = c->out.y1 - c->out.y0;
    if (pl_dist_rect_area(c->inner)) c->inner.c0 += (4 - (c->inner.c0 - r) % 4) % 4;
    pl_status s = pl_dev_malloc(&c->d_filter, fbytes);
    if (s == PL_OK) s = pl_dev_h2d(c->d_filter, c->filter, fbytes, pl_dist_window_stream(&c->win));
    if (s == PL_OK && oh * c->ow > 0) s = pl_dev_malloc(&c->d_out, (size_t)(oh * c->ow) * elem);
    return s == PL_OK ? pl_dev_sync(pl_dist_window_stream(&c->win)) : s;
}

pl_status pl_dist_conv2d_create(pl_dist_conv2d_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                const int64_t *params, const pl_conv2d_problem *p, const void *filter, int overlap)
{
    *out = NULL;
    pl_conv2d_problem whole = *p;
    pl_conv2d_set_shape(&whole);
    whole.ld_img = whole.W, whole.ld_out = whole.OW, whole.filter = NULL;
    pl_status s = pl_conv2d_check(&whole);
    if (s != PL_OK) return s;
    if (!filter) return pl_fail(PL_ERR_ARG, "conv2d: NULL filter");
    if (!rung && !(rung = pl_best_variant(ctx, &pl_conv2d_kernel, NULL)))
        return pl_fail(PL_ERR_UNSUPPORTED, "conv2d: no conv2d variant can run in this context");
    pl_dist_conv2d_plan *c = calloc(1, sizeof *c);
    if (!c) return pl_fail(PL_ERR_NOMEM, "conv2d: cannot allocate the distributed plan");
    c->ctx = ctx, c->rung = rung, c->params = params, c->p = whole;
    memcpy(c->filter, filter, (size_t)whole.K * (size_t)whole.K * pl_dtype_size(whole.dtype));
    char what[32];
    snprintf(what, sizeof what, "conv2d: K = %d", whole.K);
    if ((s = pl_dist_window_init(&c->win, g, whole.H, whole.W, pl_dtype_size(whole.dtype), whole.K / 2, what)) !=
        PL_OK) {
        free(c);
        return s;
    }
    const int64_t r = whole.K / 2, shift = whole.mode == PL_CONV2D_VALID ? r : 0; /* output -> centre */
    const pl_dist_block b = c->win.b;
    c->out = pl_dist_conv2d_out_block(g, &whole);
    c->centres = (pl_dist_rect){c->out.y0 + shift - b.y0 + r, c->out.y1 + shift - b.y0 + r,
                                c->out.x0 + shift - b.x0 + r, c->out.x1 + shift - b.x0 + r};
    c->inner = pl_dist_rect_meet(c->centres, pl_dist_rect_shrink(pl_dist_window_block(&c->win), r, r, r, r));
    c->ow = c->out.x1 - c->out.x0;
    /* A CUDA rung: the window on the GPU, halos on NCCL where the build and the node allow (the
     * choice is collective: every rank takes part) */
    if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA) {
        c->v = pl_variant_find(&pl_conv2d_kernel, rung);
        s = pl_dist_window_gpu_create(&c->win, ctx, c->v && c->v->backend == PL_BACKEND_CUDA);
        if (s == PL_OK && c->win.gpu) s = gpu_create(c);
        if (s != PL_OK) {
            pl_dist_conv2d_destroy(c);
            return s;
        }
    }
    /* the split computes each output once: no extra work */
    c->overlap = pl_dist_window_overlaps(&c->win, overlap, c->inner, 0.0, (double)pl_dist_rect_area(c->centres));
    *out = c;
    return PL_OK;
}

void pl_dist_conv2d_destroy(pl_dist_conv2d_plan *c)
{
    if (!c) return;
    pl_dev_free(c->d_filter), pl_dev_free(c->d_out);
    pl_dist_window_free(&c->win);
    free(c);
}

/* 'same': the window's cells past the image's edge, by the border rule, from the cells the
 * window holds (a clamped or reflected index is inside the image, at most r past the block). */
static void fill_border(pl_dist_conv2d_plan *c)
{
    const pl_dist_window *win = &c->win;
    const int64_t r = win->r, H = c->p.H, W = c->p.W, y0 = win->b.y0, x0 = win->b.x0;
    const pl_dist_rect data = pl_dist_window_data(win);
    for (int64_t wy = 0; wy < win->rows; wy++) {
        const int64_t gy = wy - r + y0;
        const int row_out = gy < 0 || gy >= H;
        for (int64_t wx = 0; wx < win->ld; wx++) {
            if (!row_out && wx == r && (wx = win->ld - r) >= win->ld) break; /* a row inside: its bands only */
            const int64_t gx = wx - r + x0;
            if (!row_out && gx >= 0 && gx < W) continue;
            void *cell = pl_dist_window_at(win, wy, wx);
            if (c->p.border == PL_CONV2D_ZERO) {
                memset(cell, 0, win->elem);
                continue;
            }
            const int64_t sy = pl_conv2d_border_index(c->p.border, gy, H) - y0 + r;
            const int64_t sx = pl_conv2d_border_index(c->p.border, gx, W) - x0 + r;
            if (sy < data.r0 || sy >= data.r1 || sx < data.c0 || sx >= data.c1) { /* never, by the halo's depth */
                if (c->failed == PL_OK)
                    c->failed = pl_fail(PL_ERR_INTERNAL, "conv2d: border cell (%lld, %lld) reads outside the window",
                                        (long long)gy, (long long)gx);
                continue;
            }
            memcpy(cell, pl_dist_window_at(win, sy, sx), win->elem);
        }
    }
}

/* The outputs centred on part (window coordinates) by one 'valid' call of the rung, into out
 * (rows ld_out apart): on the host path the caller's block, on the GPU path the device's. The
 * input is the window, or on the host path (in not NULL) the caller's block itself, rows ld_in
 * apart, for a part whose inputs all lie in the block (the interior). */
static void run_part_from(pl_dist_conv2d_plan *c, pl_dist_rect part, void *out, int64_t ld_out, const void *in,
                          int64_t ld_in)
{
    if (c->failed != PL_OK || !pl_dist_rect_area(part)) return;
    const int64_t r = c->win.r;
    pl_conv2d_problem q = c->p;
    q.H = part.r1 - part.r0 + 2 * r, q.W = part.c1 - part.c0 + 2 * r;
    q.mode = PL_CONV2D_VALID, q.ld_img = c->win.ld, q.ld_out = ld_out;
    pl_conv2d_set_shape(&q);
    const size_t at = (size_t)(part.r0 - c->centres.r0) * (size_t)ld_out + (size_t)(part.c0 - c->centres.c0);
    if (c->win.gpu) { /* stream-ordered; timed by the run's events */
        void *dev[3] = {pl_dist_window_dev_at(&c->win, part.r0 - r, part.c0 - r), c->d_filter,
                        (char *)out + at * c->win.elem};
        c->failed = pl_run_device(c->ctx, &pl_conv2d_kernel, c->v, c->params, &q, dev, pl_dist_window_stream(&c->win));
        return;
    }
    /* window (y, x) is the block's (y - r, x - r): the part's first input, (r0 - r, c0 - r), is
     * the block's (r0 - 2r, c0 - 2r) */
    const void *image = in ? (const char *)in + ((size_t)(part.r0 - 2 * r) * (size_t)ld_in + (size_t)(part.c0 - 2 * r)) *
                                                    c->win.elem
                           : pl_dist_window_at(&c->win, part.r0 - r, part.c0 - r);
    if (in) q.ld_img = ld_in;
    const double t0 = pl_now();
    c->failed = pl_conv2d_variant_problem(c->ctx, c->rung, c->params, &q, image, c->filter,
                                          (char *)out + at * c->win.elem);
    c->t.compute += pl_now() - t0;
}

static void run_part(pl_dist_conv2d_plan *c, pl_dist_rect part, void *out, int64_t ld_out)
{
    run_part_from(c, part, out, ld_out, NULL, 0);
}

/* This run's local checks: pitches, and (int32) that no sum can leave int32 over the block. */
static pl_status check_run(const pl_dist_conv2d_plan *c, const void *in, int64_t ld_in, const void *out, int64_t ld_out)
{
    const int64_t ow = c->out.x1 - c->out.x0;
    if (!in || (!out && pl_dist_rect_area(c->centres)))
        return pl_fail(PL_ERR_ARG, "conv2d: NULL block on rank %d", c->win.g->rank);
    if (ld_in < c->win.w || ld_out < ow)
        return pl_fail(PL_ERR_ARG, "conv2d: rank %d: ld_in = %lld / ld_out = %lld, its block has %lld / %lld columns",
                       c->win.g->rank, (long long)ld_in, (long long)ld_out, (long long)c->win.w, (long long)ow);
    pl_conv2d_problem block = c->p;
    block.H = c->win.h, block.W = c->win.w, block.ld_img = ld_in;
    return pl_conv2d_check_i32_range(&block, in, c->filter);
}

pl_status pl_dist_conv2d_run(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in, void *out, int64_t ld_out)
{
    c->failed = check_run(c, in, ld_in, out, ld_out);
    if (c->win.gpu) {
        c->loaded = c->failed == PL_OK ? pl_dist_window_gpu_load(&c->win, in, ld_in) : c->failed;
        pl_status s = pl_dist_conv2d_run_resident(c);
        return s == PL_OK ? pl_dist_conv2d_download(c, out, ld_out) : s;
    }
    /* The interior's inputs all lie in the caller's block: it is computed from there, and the
     * window gets only the frame its rims and the halo read (2r wide), not a copy of the block
     * (a whole copy cost one rank as much as a 5x5 convolution: 47% of the one-process run) */
    const int direct = pl_dist_rect_area(c->inner) > 0;
    if (c->failed == PL_OK) {
        if (direct) pl_dist_window_load_frame(&c->win, in, ld_in, 2 * (int64_t)c->win.r, &c->t);
        else pl_dist_window_load(&c->win, in, ld_in, &c->t);
    }
    pl_dist_window_begin(&c->win, &c->t);
    if (direct && c->overlap) run_part_from(c, c->inner, out, ld_out, in, ld_in);
    pl_dist_window_end(&c->win, &c->t);
    if (c->p.mode == PL_CONV2D_SAME && c->failed == PL_OK) {
        const double t0 = pl_now();
        fill_border(c);
        c->t.compute += pl_now() - t0;
    }
    if (direct && !c->overlap) run_part_from(c, c->inner, out, ld_out, in, ld_in);
    pl_dist_rect parts[4];
    const int n = pl_dist_rim_parts(c->centres, direct ? c->inner : (pl_dist_rect){0, 0, 0, 0}, parts);
    for (int i = 0; i < n; i++) run_part(c, parts[i], out, ld_out);
    return c->failed;
}

/* ---------------------------------------------------------------- the GPU path, resident */

int pl_dist_conv2d_on_nccl(const pl_dist_conv2d_plan *c) { return c->win.gpu != NULL; }
pl_dist_model pl_dist_conv2d_gpu_model(pl_dist_conv2d_plan *c) { return pl_dist_window_gpu_model(&c->win); }

static pl_status host_path(const char *what)
{
    return pl_fail(PL_ERR_UNSUPPORTED, "conv2d: %s: this plan runs on the host (no GPU path: see pl_dist_conv2d_on_nccl)",
                   what);
}

pl_status pl_dist_conv2d_upload(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in)
{
    if (!c->win.gpu) return host_path("upload");
    c->loaded = check_run(c, in, ld_in, c->d_out ? c->d_out : (void *)in, c->ow);
    if (c->loaded == PL_OK) c->loaded = pl_dist_window_gpu_load(&c->win, in, ld_in);
    return c->loaded;
}

#ifdef PL_HAVE_NCCL
/* The band of the window past each image edge this rank's block touches (the whole width or
 * height of the window: its corners too). */
static int border_bands(const pl_dist_conv2d_plan *c, int64_t bands[4][4])
{
    const pl_dist_window *w = &c->win;
    const int64_t r = w->r, R = w->rows, L = w->ld;
    int n = 0;
    if (w->b.y0 == 0) bands[n][0] = 0, bands[n][1] = r, bands[n][2] = 0, bands[n++][3] = L;
    if (w->b.y1 == c->p.H) bands[n][0] = R - r, bands[n][1] = R, bands[n][2] = 0, bands[n++][3] = L;
    if (w->b.x0 == 0) bands[n][0] = 0, bands[n][1] = R, bands[n][2] = 0, bands[n++][3] = r;
    if (w->b.x1 == c->p.W) bands[n][0] = 0, bands[n][1] = R, bands[n][2] = L - r, bands[n++][3] = L;
    return n;
}
#endif

pl_status pl_dist_conv2d_run_resident(pl_dist_conv2d_plan *c)
{
    if (!c->win.gpu) return host_path("run_resident");
    c->failed = c->loaded;
    pl_dist_window_gpu_begin(&c->win, &c->failed);
    if (c->overlap) run_part(c, c->inner, c->d_out, c->ow);
    pl_dist_window_gpu_end(&c->win, &c->failed);
    if (c->p.mode == PL_CONV2D_SAME && c->p.border != PL_CONV2D_ZERO && c->failed == PL_OK) {
#ifdef PL_HAVE_NCCL /* the GPU path exists only then; the kernel only in CUDA builds */
        int64_t bands[4][4];
        const int n = border_bands(c, bands);
        c->failed = pl_conv2d_pad_device(pl_dist_window_dev_at(&c->win, 0, 0), c->p.dtype, c->win.ld,
                                         c->win.b.y0 - c->win.r, c->win.b.x0 - c->win.r, c->p.H, c->p.W, c->p.border,
                                         (const int64_t(*)[4])bands, n, pl_dist_window_stream(&c->win));
#endif
    }
    pl_dist_rect parts[4];
    const int n = pl_dist_rim_parts(c->centres, c->overlap ? c->inner : (pl_dist_rect){0, 0, 0, 0}, parts);
    for (int i = 0; i < n; i++) run_part(c, parts[i], c->d_out, c->ow);
    pl_dist_window_gpu_finish(&c->win, &c->t, &c->failed);
    return c->failed;
}

pl_status pl_dist_conv2d_download(pl_dist_conv2d_plan *c, void *out, int64_t ld_out)
{
    if (!c->win.gpu) return host_path("download");
    const int64_t oh = c->out.y1 - c->out.y0;
    if (oh * c->ow == 0) return PL_OK;
    if (!out || ld_out < c->ow)
        return pl_fail(PL_ERR_ARG, "conv2d: rank %d: download into %s (ld_out = %lld, the block has %lld columns)",
                       c->win.g->rank, out ? "a block" : "NULL", (long long)ld_out, (long long)c->ow);
    const size_t elem = c->win.elem;
    pl_status s = pl_dev_copy_2d(out, (size_t)ld_out * elem, c->d_out, (size_t)c->ow * elem, (size_t)c->ow * elem,
                                 (size_t)oh, pl_dist_window_stream(&c->win));
    return s == PL_OK ? pl_dev_sync(pl_dist_window_stream(&c->win)) : s;
}

const char *pl_dist_conv2d_rung(const pl_dist_conv2d_plan *c) { return c->rung; }
pl_dist_times pl_dist_conv2d_times(const pl_dist_conv2d_plan *c) { return c->t; }
int pl_dist_conv2d_overlaps(const pl_dist_conv2d_plan *c) { return c->overlap; }

pl_status pl_dist_conv2d(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_conv2d_problem *p,
                         const void *filter, const void *in, int64_t ld_in, void *out, int64_t ld_out,
                         pl_dist_times *t)
{
    pl_dist_conv2d_plan *c;
    pl_status s = pl_dist_conv2d_create(&c, g, ctx, rung, NULL, p, filter, PL_DIST_OVERLAP_AUTO);
    if (s != PL_OK) return s;
    s = pl_dist_conv2d_run(c, in, ld_in, out, ld_out);
    if (t) t->compute += c->t.compute, t->exchange += c->t.exchange, t->wait += c->t.wait;
    pl_dist_conv2d_destroy(c);
    return s;
}

/* ---------------------------------------------------------------- the output to rank 0 */

pl_status pl_dist_conv2d_gather(const pl_dist_grid *g, const pl_conv2d_problem *p, const void *out, int64_t ld,
                                void *global)
{
    pl_conv2d_problem whole = *p;
    pl_conv2d_set_shape(&whole);
    const int64_t OH = whole.OH, OW = whole.OW;
    if (OH > INT32_MAX || OW > INT32_MAX || ld > INT32_MAX)
        return pl_fail(PL_ERR_OVERFLOW, "conv2d: a %lldx%lld output passes MPI's int counts", (long long)OH,
                       (long long)OW);
    MPI_Comm comm = pl_dist_comm_of(g);
    MPI_Datatype et = pl_dist_elem_type(pl_dtype_size(whole.dtype));
    const size_t elem = pl_dtype_size(whole.dtype);
    const pl_dist_block mine = pl_dist_conv2d_out_block(g, &whole);
    const int64_t h = mine.y1 - mine.y0, w = mine.x1 - mine.x0;
    pl_status s = PL_OK;
    if (g->rank != 0) {
        if (h > 0 && w > 0) {
            MPI_Datatype t;
            MPI_Type_vector((int)h, (int)w, (int)ld, et, &t);
            MPI_Type_commit(&t);
            MPI_Send(out, 1, t, 0, TAG_OUT_BLOCK, comm);
            MPI_Type_free(&t);
        }
    } else {
        for (int64_t y = 0; y < h; y++) /* rank 0's own block */
            memcpy((char *)global + ((size_t)(mine.y0 + y) * (size_t)OW + (size_t)mine.x0) * elem,
                   (const char *)out + (size_t)y * (size_t)ld * elem, (size_t)w * elem);
        for (int rank = 1; rank < g->size && s == PL_OK; rank++) {
            int co[2];
            MPI_Cart_coords(comm, rank, 2, co);
            const pl_dist_block b = pl_dist_conv2d_out_block_at(g, co[0], co[1], &whole);
            if (b.y1 == b.y0 || b.x1 == b.x0) continue;
            MPI_Datatype t;
            if ((s = pl_dist_rect_type(OH, OW, b.y0, b.x0, b.y1 - b.y0, b.x1 - b.x0, et, &t)) != PL_OK) break;
            MPI_Recv(global, 1, t, rank, TAG_OUT_BLOCK, comm, MPI_STATUS_IGNORE);
            MPI_Type_free(&t);
        }
    }
    MPI_Type_free(&et);
    return s;
}
