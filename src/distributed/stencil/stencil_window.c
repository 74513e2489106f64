/* stencil_window.c: a rank's block in a window with a halo of r on every side, exchanged with the
 * layer's 8-neighbour plan (pl_dist_halo_create: MPI subarray types straight out of the
 * window, no packing), and the rim/interior split the stencils overlap with (see stencil_window.h). */
#include "distributed/stencil/stencil_window.h"

#include "core/core.h"
#include "distributed/life/life_ranks.h" /* PL_DIST_OVERLAP_* */

#include <string.h>

pl_status pl_dist_window_init(pl_dist_window *win, const pl_dist_grid *g, int64_t H, int64_t W, size_t elem, int r,
                              const char *what)
{
    memset(win, 0, sizeof *win);
    if (g->periodic)
        return pl_fail(PL_ERR_ARG, "%s: the image is a bounded plane: the grid of ranks must not be periodic", what);
    int64_t min_rows, min_cols;
    pl_dist_block_min(g, H, W, &min_rows, &min_cols);
    if (g->size > 1 && (r > min_rows || r > min_cols))
        return pl_fail(PL_ERR_ARG,
                       "%s needs a halo of %d rows and columns, but %d ranks (%dx%d) split the %lldx%lld image "
                       "into blocks as thin as %lld rows and %lld columns: use fewer ranks or a smaller window",
                       what, r, g->size, g->dims[0], g->dims[1], (long long)H, (long long)W, (long long)min_rows,
                       (long long)min_cols);
    win->g = g, win->r = r, win->elem = elem;
    win->b = pl_dist_block_of(g, H, W);
    win->h = win->b.y1 - win->b.y0, win->w = win->b.x1 - win->b.x0;
    win->rows = win->h + 2 * (int64_t)r, win->ld = win->w + 2 * (int64_t)r;
    win->nbr[PL_DIST_SIDE_N] = g->nbr[PL_DIST_N] != PL_DIST_NONE;
    win->nbr[PL_DIST_SIDE_S] = g->nbr[PL_DIST_S] != PL_DIST_NONE;
    win->nbr[PL_DIST_SIDE_W] = g->nbr[PL_DIST_W] != PL_DIST_NONE;
    win->nbr[PL_DIST_SIDE_E] = g->nbr[PL_DIST_E] != PL_DIST_NONE;
    const size_t bytes = (size_t)win->rows * (size_t)win->ld * elem;
    if (!(win->buf = pl_alloc(bytes)))
        return pl_fail(PL_ERR_NOMEM, "%s: cannot allocate this rank's %lldx%lld window (%.3g MB)", what,
                       (long long)win->rows, (long long)win->ld, (double)bytes / 1e6);
    memset(win->buf, 0, bytes);
    pl_status s = PL_OK;
    if (g->size > 1 && r > 0) s = pl_dist_halo_create(&win->x, g, win->buf, elem, win->ld, win->h, win->w, r);
    if (s != PL_OK) pl_dist_window_free(win);
    return s;
}

void pl_dist_window_free(pl_dist_window *win)
{
    pl_dist_window_gpu_destroy(win);
    pl_dist_halo_destroy(win->x);
    pl_free(win->buf);
    win->x = NULL, win->buf = NULL;
}

pl_dist_rect pl_dist_window_block(const pl_dist_window *win)
{
    return (pl_dist_rect){win->r, win->r + win->h, win->r, win->r + win->w};
}

pl_dist_rect pl_dist_window_data(const pl_dist_window *win)
{
    const int64_t r = win->r;
    return pl_dist_rect_shrink(pl_dist_window_block(win), win->nbr[PL_DIST_SIDE_N] ? -r : 0,
                               win->nbr[PL_DIST_SIDE_S] ? -r : 0, win->nbr[PL_DIST_SIDE_W] ? -r : 0,
                               win->nbr[PL_DIST_SIDE_E] ? -r : 0);
}

void pl_dist_window_load(pl_dist_window *win, const void *in, int64_t ld_in, pl_dist_times *t)
{
    const double t0 = pl_now();
    const size_t row = (size_t)win->w * win->elem;
    for (int64_t y = 0; y < win->h; y++)
        memcpy(pl_dist_window_at(win, win->r + y, win->r), (const char *)in + (size_t)y * (size_t)ld_in * win->elem,
               row);
    t->compute += pl_now() - t0;
}

void pl_dist_window_load_frame(pl_dist_window *win, const void *in, int64_t ld_in, int64_t band, pl_dist_times *t)
{
    if (2 * band >= win->h || 2 * band >= win->w) {
        pl_dist_window_load(win, in, ld_in, t);
        return;
    }
    const double t0 = pl_now();
    const size_t e = win->elem;
    for (int64_t y = 0; y < win->h; y++) {
        const char *row = (const char *)in + (size_t)y * (size_t)ld_in * e;
        if (y < band || y >= win->h - band) { /* a whole row of the top or bottom band */
            memcpy(pl_dist_window_at(win, win->r + y, win->r), row, (size_t)win->w * e);
        } else { /* the left and right bands */
            memcpy(pl_dist_window_at(win, win->r + y, win->r), row, (size_t)band * e);
            memcpy(pl_dist_window_at(win, win->r + y, win->r + win->w - band), row + (size_t)(win->w - band) * e,
                   (size_t)band * e);
        }
    }
    t->compute += pl_now() - t0;
}

void pl_dist_window_begin(pl_dist_window *win, pl_dist_times *t)
{
    if (win->x) pl_dist_halo_begin(win->x, t);
}

void pl_dist_window_end(pl_dist_window *win, pl_dist_times *t)
{
    if (win->x) pl_dist_halo_end(win->x, t);
}

int pl_dist_rim_parts(pl_dist_rect c, pl_dist_rect in, pl_dist_rect parts[4])
{
    int n = 0;
    if (!pl_dist_rect_area(in)) {
        if (pl_dist_rect_area(c)) parts[n++] = c;
        return n;
    }
    const pl_dist_rect all[4] = {
        {c.r0, in.r0, c.c0, c.c1},  /* north band, corners too */
        {in.r1, c.r1, c.c0, c.c1},  /* south band */
        {in.r0, in.r1, c.c0, in.c0}, /* west, between the bands */
        {in.r0, in.r1, in.c1, c.c1}, /* east */
    };
    for (int i = 0; i < 4; i++)
        if (pl_dist_rect_area(all[i])) parts[n++] = all[i];
    return n;
}

int pl_dist_window_overlaps(const pl_dist_window *win, int overlap, pl_dist_rect in, double extra, double work)
{
    if (!win->x || overlap == PL_DIST_OVERLAP_OFF || !pl_dist_rect_area(in)) return 0;
    if (win->gpu && overlap == PL_DIST_OVERLAP_AUTO) return 0; /* stencil_window.h: measured slower on GPUs */
    return overlap == PL_DIST_OVERLAP_ON || extra * 10.0 <= work;
}
