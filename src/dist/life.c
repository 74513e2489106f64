/* life.c: Life on a grid of ranks (see dist/life.h for the idea). Coordinates here are the
 * window's: rows 0..hl-1, cells 0..wl-1; the block sits at (side[W], side[N]). A halo strip is
 * a rectangle of cells at any bit offset, so it is packed into a buffer of its own
 * (pl_life_copy_cells) before it is sent and unpacked after it arrives; the exchange itself
 * is the layer's planned 8-neighbour one (pl_dist_halo_create_buffers). */
#include "dist/life.h"

#include "core/core.h"
#include "dist/dist_mpi.h"

#include <stdlib.h>
#include <string.h>

enum { SIDE_N, SIDE_S, SIDE_W, SIDE_E };
enum { TAG_SCATTER = 200, TAG_GATHER = 201 };

/* A rectangle of cells: rows r0..r1-1, cells c0..c1-1. */
typedef struct rect {
    int64_t r0, r1, c0, c1;
} rect;

struct pl_dist_life {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    const char *rung;
    const int64_t *params;
    pl_life_problem p;          /* the whole grid */
    pl_dist_block b;            /* this rank's block, global */
    int64_t h, w;               /* its rows and cells a row */
    int d;                      /* the halo depth */
    int64_t side[4];            /* the halo on each side: d where a neighbour is, 0 at a plane's edge */
    int64_t hl, wl, wpr;        /* the window: rows, cells a row, words a row */
    uint64_t *cur, *next;       /* the window now, and the next step's (overlap) */
    uint64_t *part;             /* a part of the window run as a plane of its own (overlap) */
    uint64_t *block_buf;        /* a block packed alone (scatter, gather): the largest block's words */
    rect send[PL_DIST_DIRS], recv[PL_DIST_DIRS]; /* each strip, in window coordinates */
    uint64_t *send_buf[PL_DIST_DIRS], *recv_buf[PL_DIST_DIRS];
    pl_dist_halo *x;
    pl_dist_times t;
    int overlap;                /* PL_DIST_OVERLAP_*, as asked */
    int overlapped;             /* a step overlapped */
    pl_status failed;           /* the first local failure (the rank goes on exchanging) */
};

static int64_t words(int64_t cells) { return pl_life_words_per_row(cells); }
static int64_t rect_rows(rect r) { return r.r1 - r.r0; }
static int64_t rect_cells(rect r) { return r.c1 - r.c0; }
static size_t rect_words(rect r) { return (size_t)(rect_rows(r) * words(rect_cells(r))); }

/* The part of a block of n sent toward offset k (-1, 0, 1) and the halo received from there,
 * along one dimension, from the window's first index; lo is the halo before the block. */
static void strip_span(int k, int64_t lo, int64_t n, int64_t d, int64_t s[2], int64_t r[2])
{
    if (k < 0) s[0] = lo, s[1] = lo + d, r[0] = lo - d, r[1] = lo;
    else if (k == 0) s[0] = r[0] = lo, s[1] = r[1] = lo + n;
    else s[0] = lo + n - d, s[1] = lo + n, r[0] = lo + n, r[1] = lo + n + d;
}

int64_t pl_dist_life_max_depth(const pl_dist_grid *g, const pl_life_problem *p)
{
    int64_t rows, cols, most = INT32_MAX;
    pl_dist_block_min(g, p->H, p->W, &rows, &cols);
    if (g->periodic || g->dims[0] > 1) most = rows < most ? rows : most;
    if (g->periodic || g->dims[1] > 1) most = cols < most ? cols : most;
    return most;
}

/* The strips and their buffers, then the plan over them. */
static pl_status plan_halo(pl_dist_life *l)
{
    void *send[PL_DIST_DIRS] = {NULL}, *recv[PL_DIST_DIRS] = {NULL};
    size_t send_bytes[PL_DIST_DIRS] = {0}, recv_bytes[PL_DIST_DIRS] = {0};
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (dir == PL_DIST_HERE || l->g->nbr[dir] == PL_DIST_NONE) continue;
        int64_t sr[2], rr[2], sc[2], rc[2];
        strip_span(PL_DIST_DY(dir), l->side[SIDE_N], l->h, l->d, sr, rr);
        strip_span(PL_DIST_DX(dir), l->side[SIDE_W], l->w, l->d, sc, rc);
        l->send[dir] = (rect){sr[0], sr[1], sc[0], sc[1]};
        l->recv[dir] = (rect){rr[0], rr[1], rc[0], rc[1]};
        send_bytes[dir] = rect_words(l->send[dir]) * 8;
        recv_bytes[dir] = rect_words(l->recv[dir]) * 8;
        if (!(l->send_buf[dir] = pl_alloc(send_bytes[dir])) || !(l->recv_buf[dir] = pl_alloc(recv_bytes[dir])))
            return pl_fail(PL_ERR_NOMEM, "life: cannot allocate the halo buffers");
        send[dir] = l->send_buf[dir], recv[dir] = l->recv_buf[dir];
    }
    return pl_dist_halo_create_buffers(&l->x, l->g, send, send_bytes, recv, recv_bytes);
}

pl_status pl_dist_life_create(pl_dist_life **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                              const int64_t *params, const pl_life_problem *p, int depth, int overlap)
{
    *out = NULL;
    const int64_t most = pl_dist_life_max_depth(g, p);
    if (depth < 1 || depth > most)
        return pl_fail(PL_ERR_ARG, "life: halo depth %d on %d ranks (%dx%d) for a %lldx%lld grid: it must be 1..%lld "
                       "(the smallest block's rows and columns)", depth, g->size, g->dims[0], g->dims[1],
                       (long long)p->W, (long long)p->H, (long long)most);
    pl_dist_life *l = calloc(1, sizeof *l);
    if (!l) return pl_fail(PL_ERR_NOMEM, "life: cannot allocate the distributed grid");
    l->g = g, l->ctx = ctx, l->rung = rung, l->params = params, l->p = *p, l->d = depth, l->overlap = overlap;
    l->b = pl_dist_block_of(g, p->H, p->W);
    l->h = l->b.y1 - l->b.y0, l->w = l->b.x1 - l->b.x0;
    l->side[SIDE_N] = g->nbr[PL_DIST_N] != PL_DIST_NONE ? depth : 0;
    l->side[SIDE_S] = g->nbr[PL_DIST_S] != PL_DIST_NONE ? depth : 0;
    l->side[SIDE_W] = g->nbr[PL_DIST_W] != PL_DIST_NONE ? depth : 0;
    l->side[SIDE_E] = g->nbr[PL_DIST_E] != PL_DIST_NONE ? depth : 0;
    l->hl = l->side[SIDE_N] + l->h + l->side[SIDE_S];
    l->wl = l->side[SIDE_W] + l->w + l->side[SIDE_E];
    l->wpr = words(l->wl);
    const pl_dist_block largest = pl_dist_block_at(g, 0, 0, p->H, p->W); /* the first bands are the longest */
    const size_t window = (size_t)(l->hl * l->wpr) * 8;
    const size_t block = (size_t)((largest.y1 - largest.y0) * words(largest.x1 - largest.x0)) * 8;
    pl_status s = PL_OK;
    if (!(l->cur = pl_alloc(window)) || !(l->next = pl_alloc(window)) || !(l->part = pl_alloc(window)) ||
        !(l->block_buf = pl_alloc(block)))
        s = pl_fail(PL_ERR_NOMEM, "life: cannot allocate this rank's %lldx%lld window (%.3g MB, three copies)",
                    (long long)l->wl, (long long)l->hl, 3.0 * (double)window / 1e6);
    if (s == PL_OK) {
        memset(l->cur, 0, window);
        memset(l->next, 0, window);
        s = plan_halo(l);
    }
    if (s != PL_OK) {
        pl_dist_life_destroy(l);
        return s;
    }
    *out = l;
    return PL_OK;
}

void pl_dist_life_destroy(pl_dist_life *l)
{
    if (!l) return;
    pl_dist_halo_destroy(l->x);
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) pl_free(l->send_buf[dir]), pl_free(l->recv_buf[dir]);
    pl_free(l->cur), pl_free(l->next), pl_free(l->part), pl_free(l->block_buf);
    free(l);
}

/* ---------------------------------------------------------------- scatter, gather, census */

/* Rank 0 and every other rank trade blocks packed alone (block_buf): to_ranks scatters. */
static pl_status move_blocks(pl_dist_life *l, uint64_t *grid, int to_ranks)
{
    MPI_Comm comm = pl_dist_comm_of(l->g);
    const int64_t gwpr = words(l->p.W), bwpr = words(l->w);
    const int count = (int)(l->h * bwpr);
    if (l->g->rank != 0) {
        if (to_ranks) {
            MPI_Recv(l->block_buf, count, MPI_UINT64_T, 0, TAG_SCATTER, comm, MPI_STATUS_IGNORE);
            pl_life_copy_cells(l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->block_buf, bwpr, 0, 0, l->w, l->h);
        } else {
            memset(l->block_buf, 0, (size_t)count * 8);
            pl_life_copy_cells(l->block_buf, bwpr, 0, 0, l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->w, l->h);
            MPI_Send(l->block_buf, count, MPI_UINT64_T, 0, TAG_GATHER, comm);
        }
        return PL_OK;
    }
    for (int r = 0; r < l->g->size; r++) {
        int c[2];
        MPI_Cart_coords(comm, r, 2, c);
        const pl_dist_block b = pl_dist_block_at(l->g, c[0], c[1], l->p.H, l->p.W);
        const int64_t h = b.y1 - b.y0, w = b.x1 - b.x0, wpr = words(w);
        if (r == 0) { /* rank 0's own block, straight between the grid and its window */
            if (to_ranks) pl_life_copy_cells(l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], grid, gwpr, b.x0, b.y0, w, h);
            else pl_life_copy_cells(grid, gwpr, b.x0, b.y0, l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], w, h);
            continue;
        }
        if (to_ranks) {
            memset(l->block_buf, 0, (size_t)(h * wpr) * 8);
            pl_life_copy_cells(l->block_buf, wpr, 0, 0, grid, gwpr, b.x0, b.y0, w, h);
            MPI_Send(l->block_buf, (int)(h * wpr), MPI_UINT64_T, r, TAG_SCATTER, comm);
        } else {
            MPI_Recv(l->block_buf, (int)(h * wpr), MPI_UINT64_T, r, TAG_GATHER, comm, MPI_STATUS_IGNORE);
            pl_life_copy_cells(grid, gwpr, b.x0, b.y0, l->block_buf, wpr, 0, 0, w, h);
        }
    }
    return PL_OK;
}

pl_status pl_dist_life_scatter(pl_dist_life *l, const uint64_t *grid) { return move_blocks(l, (uint64_t *)grid, 1); }
pl_status pl_dist_life_gather(pl_dist_life *l, uint64_t *grid) { return move_blocks(l, grid, 0); }

int64_t pl_dist_life_census(pl_dist_life *l, int64_t box[4])
{
    int64_t mine[4], pop = pl_life_census(l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->w, l->h, mine), total = 0;
    /* the box as minima: x0, y0, -x1, -y1 (none alive: the neutral INT64_MAX) */
    int64_t lo[4] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX}, all[4];
    if (pop)
        lo[0] = l->b.x0 + mine[0], lo[1] = l->b.y0 + mine[1], lo[2] = -(lo[0] + mine[2]), lo[3] = -(lo[1] + mine[3]);
    MPI_Comm comm = pl_dist_comm_of(l->g);
    MPI_Allreduce(&pop, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    MPI_Allreduce(lo, all, 4, MPI_INT64_T, MPI_MIN, comm);
    if (!total) box[0] = box[1] = box[2] = box[3] = 0;
    else box[0] = all[0], box[1] = all[1], box[2] = -all[2] - all[0], box[3] = -all[3] - all[1];
    return total;
}

/* ---------------------------------------------------------------- a step */

/* The halo strips out of the window (the block's edges) into the send buffers, and back. */
static void pack_strips(pl_dist_life *l)
{
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (!l->send_buf[dir]) continue;
        const rect r = l->send[dir];
        memset(l->send_buf[dir], 0, rect_words(r) * 8);
        pl_life_copy_cells(l->send_buf[dir], words(rect_cells(r)), 0, 0, l->cur, l->wpr, r.c0, r.r0, rect_cells(r),
                           rect_rows(r));
    }
}
static void unpack_strips(pl_dist_life *l)
{
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (!l->recv_buf[dir]) continue;
        const rect r = l->recv[dir];
        pl_life_copy_cells(l->cur, l->wpr, r.c0, r.r0, l->recv_buf[dir], words(rect_cells(r)), 0, 0, rect_cells(r),
                           rect_rows(r));
    }
}

/* The rung on a packed W x H plane, k generations (its time into compute). A failure is kept
 * and later steps skip their compute; the rank still exchanges, so no neighbour waits. */
static void run_rung(pl_dist_life *l, uint64_t *bits, int64_t W, int64_t H, int64_t k)
{
    if (l->failed != PL_OK) return;
    pl_life_problem p = l->p;
    p.W = W, p.H = H, p.gens = k, p.topology = PL_LIFE_TOPO_PLANE;
    const double t0 = pl_now();
    l->failed = pl_life_variant_problem(l->ctx, l->rung, l->params, &p, bits);
    l->t.compute += pl_now() - t0;
}

/* target grown by k on every side, within bounds: the cells target's next k generations need. */
static rect grow(rect target, int64_t k, rect bounds)
{
    rect r = {target.r0 - k, target.r1 + k, target.c0 - k, target.c1 + k};
    if (r.r0 < bounds.r0) r.r0 = bounds.r0;
    if (r.r1 > bounds.r1) r.r1 = bounds.r1;
    if (r.c0 < bounds.c0) r.c0 = bounds.c0;
    if (r.c1 > bounds.c1) r.c1 = bounds.c1;
    return r;
}

/* k generations of target's cells into next: the part of cur they need (grow, within bounds)
 * run as a plane of its own in l->part. Exact wherever part's edge is k cells away or is the
 * grid's own edge (the window's edge at a plane's edge). */
static void run_part(pl_dist_life *l, rect target, int64_t k, rect bounds)
{
    if (rect_rows(target) <= 0 || rect_cells(target) <= 0) return;
    const rect part = grow(target, k, bounds);
    const int64_t wpr = words(rect_cells(part));
    const double t0 = pl_now();
    memset(l->part, 0, (size_t)(rect_rows(part) * wpr) * 8);
    pl_life_copy_cells(l->part, wpr, 0, 0, l->cur, l->wpr, part.c0, part.r0, rect_cells(part), rect_rows(part));
    l->t.compute += pl_now() - t0;
    run_rung(l, l->part, rect_cells(part), rect_rows(part), k);
    const double t1 = pl_now();
    pl_life_copy_cells(l->next, l->wpr, target.c0, target.r0, l->part, wpr, target.c0 - part.c0,
                       target.r0 - part.r0, rect_cells(target), rect_rows(target));
    l->t.compute += pl_now() - t1;
}

/* The block's interior for k generations (the cells k or more from every side with a halo):
 * empty when the block is too thin. */
static rect interior(const pl_dist_life *l, int64_t k)
{
    const int64_t n = l->side[SIDE_N], w = l->side[SIDE_W];
    return (rect){n + (l->side[SIDE_N] ? k : 0), n + l->h - (l->side[SIDE_S] ? k : 0), w + (l->side[SIDE_W] ? k : 0),
                  w + l->w - (l->side[SIDE_E] ? k : 0)};
}

/* Overlap this step? Only with an interior, and (auto) where the rim's parts, each 3k wide,
 * cost at most a tenth of the block. */
static int overlap_step(const pl_dist_life *l, int64_t k)
{
    const rect in = interior(l, k);
    if (l->overlap == PL_DIST_OVERLAP_OFF || rect_rows(in) <= 0 || rect_cells(in) <= 0) return 0;
    const double rim = 3.0 * (double)k * 2.0 * (double)(l->wl + l->hl);
    return l->overlap == PL_DIST_OVERLAP_ON || rim * 10.0 <= (double)l->h * (double)l->w;
}

/* One step of k <= d generations with the exchange first, then the whole window as a plane. */
static void step_plain(pl_dist_life *l, int64_t k)
{
    const double t0 = pl_now();
    pack_strips(l);
    l->t.exchange += pl_now() - t0;
    pl_dist_halo_begin(l->x, &l->t);
    pl_dist_halo_end(l->x, &l->t);
    const double t1 = pl_now();
    unpack_strips(l);
    l->t.exchange += pl_now() - t1;
    run_rung(l, l->cur, l->wl, l->hl, k);
}

/* One step of k <= d generations overlapped: the interior (from the block alone) while the
 * messages travel, then the four rims k wide (with the halo) into next, which becomes cur. */
static void step_overlapped(pl_dist_life *l, int64_t k)
{
    const double t0 = pl_now();
    pack_strips(l);
    l->t.exchange += pl_now() - t0;
    pl_dist_halo_begin(l->x, &l->t);
    const rect block = {l->side[SIDE_N], l->side[SIDE_N] + l->h, l->side[SIDE_W], l->side[SIDE_W] + l->w};
    const rect window = {0, l->hl, 0, l->wl}, in = interior(l, k);
    run_part(l, in, k, block);
    pl_dist_halo_end(l->x, &l->t);
    const double t1 = pl_now();
    unpack_strips(l);
    l->t.exchange += pl_now() - t1;
    run_part(l, (rect){block.r0, in.r0, block.c0, block.c1}, k, window); /* top rim, corners too */
    run_part(l, (rect){in.r1, block.r1, block.c0, block.c1}, k, window); /* bottom rim */
    run_part(l, (rect){in.r0, in.r1, block.c0, in.c0}, k, window);       /* left rim */
    run_part(l, (rect){in.r0, in.r1, in.c1, block.c1}, k, window);       /* right rim */
    uint64_t *t = l->cur;
    l->cur = l->next, l->next = t;
    l->overlapped = 1;
}

pl_status pl_dist_life_run(pl_dist_life *l, int64_t gens)
{
    for (int64_t done = 0; done < gens;) {
        const int64_t k = gens - done < l->d ? gens - done : l->d;
        if (overlap_step(l, k)) step_overlapped(l, k);
        else step_plain(l, k);
        done += k;
    }
    return l->failed;
}

pl_dist_times pl_dist_life_times(const pl_dist_life *l) { return l->t; }
int pl_dist_life_overlaps(const pl_dist_life *l) { return l->overlapped; }

/* ---------------------------------------------------------------- a block alone (mpi-io-bench) */

void pl_dist_life_set_block(pl_dist_life *l, const uint64_t *bits, int64_t wpr)
{
    pl_life_copy_cells(l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], bits, wpr, 0, 0, l->w, l->h);
}

void pl_dist_life_get_block(const pl_dist_life *l, uint64_t *bits, int64_t wpr)
{
    pl_life_copy_cells(bits, wpr, 0, 0, l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->w, l->h);
}
