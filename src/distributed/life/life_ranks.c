/* life_ranks.c: Life on a grid of ranks (see life_ranks.h for the idea). Coordinates here are the
 * window's: rows 0..hl-1, cells 0..wl-1; the block sits at (side[W], side[N]). A halo strip is
 * a rectangle of cells at any bit offset, so it is packed into a buffer of its own
 * (pl_life_copy_cells) before it is sent and unpacked after it arrives; the exchange itself
 * is the layer's planned 8-neighbour one (pl_dist_halo_create_buffers). */
#include "distributed/life/life_ranks.h"

#include "core/core.h"
#include "distributed/transport/mpi_comm.h"
#include "distributed/life/life_window.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_SCATTER = 200, TAG_GATHER = 201 };
/* Bands of rows for the CPU path while each keeps this many default halos of rows (the halo
 * rows recomputed each step: 2 d / rows of the work, 1/BAND_DEPTHS at the least height). */
enum { BAND_DEPTHS = 4 };

/* Whether rung v wraps a row's ends itself (the kernel's takes hook on a cylinder, life.h). */
static int takes_cylinder(const pl_variant *v)
{
    const pl_life_problem cylinder = {.topology = PL_LIFE_TOPO_CYLINDER};
    char why[160];
    return pl_life_kernel.takes(&cylinder, v, why, sizeof why);
}

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
int64_t pl_dist_life_default_depth(int cuda, int64_t most)
{
    const int64_t want = cuda ? 32 : 48;
    return most < want ? most : want;
}

void pl_dist_life_share(int *grid_kind, int64_t grid_dims[2], pl_life_rule *rule)
{
    struct {
        int grid_kind;
        int64_t grid_dims[2];
        pl_life_rule rule;
    } said;
    memset(&said, 0, sizeof said);
    said.grid_kind = *grid_kind, said.grid_dims[0] = grid_dims[0], said.grid_dims[1] = grid_dims[1], said.rule = *rule;
    pl_dist_bcast(&said, sizeof said);
    *grid_kind = said.grid_kind, grid_dims[0] = said.grid_dims[0], grid_dims[1] = said.grid_dims[1], *rule = said.rule;
}

pl_status pl_dist_life_depth_of(const pl_dist_grid *g, const pl_life_problem *p, long halo, int cuda, int *depth)
{
    const int64_t most = pl_dist_life_max_depth(g, p);
    if (halo > most)
        return pl_fail(PL_ERR_ARG, "life: --halo %ld: the smallest block of the %lldx%lld grid on %d ranks (a %dx%d "
                       "grid of ranks) allows a halo of at most %lld", halo, (long long)p->W, (long long)p->H, g->size,
                       g->dims[0], g->dims[1], (long long)most);
    *depth = (int)(halo ? halo : pl_dist_life_default_depth(cuda, most));
    return PL_OK;
}

static pl_status plan_halo(pl_dist_life *l)
{
    void *send[PL_DIST_DIRS] = {NULL}, *recv[PL_DIST_DIRS] = {NULL};
    size_t send_bytes[PL_DIST_DIRS] = {0}, recv_bytes[PL_DIST_DIRS] = {0};
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (dir == PL_DIST_HERE || l->g->nbr[dir] == PL_DIST_NONE) continue;
        if ((l->wrap_cols && PL_DIST_DX(dir)) || (l->wrap_rows && PL_DIST_DY(dir))) continue; /* the rung wraps */
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
    const pl_variant *v = pl_variant_find(&pl_life_kernel, rung);
    l->wrap_cols = g->periodic && g->dims[1] == 1 && v && takes_cylinder(v);
    l->wrap_rows = l->wrap_cols && g->dims[0] == 1;
    if (l->wrap_cols) l->side[SIDE_W] = l->side[SIDE_E] = 0;
    if (l->wrap_rows) l->side[SIDE_N] = l->side[SIDE_S] = 0;
    /* The window's rows in whole words: the rungs' word loops take a row's first and last words
     * by vectors only when the row is whole words (W % 64 == 0); otherwise each row's two edge
     * words go by the scalar path, ~60 instructions a word: cpu-bitpacked on a 8288-cell plane
     * ran 16% slower a cell than on 8256 cells (one thread, Zen 4). So the halo on one side
     * grows by up to 63 cells of padding, beyond the d the exchange fills: whatever the padding
     * holds, it is more than d cells from the block and cannot reach it in the k <= d
     * generations of a step, as with the window's own edge. A side at a plane's edge (no
     * neighbour) takes none: its dead cells are the grid's. */
    const int64_t pad = (64 - (l->side[SIDE_W] + l->w + l->side[SIDE_E]) % 64) % 64;
    if (l->side[SIDE_E]) l->side[SIDE_E] += pad;
    else if (l->side[SIDE_W]) l->side[SIDE_W] += pad;
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
    /* A CUDA rung: the window on the GPU, halos on NCCL where the build and the node allow (every
     * rank takes part, even one that failed above: the choice is collective). */
    if (pl_ctx_backend(ctx) == PL_BACKEND_CUDA) {
        const pl_status g = pl_dist_life_gpu_create(l, s == PL_OK);
        if (s == PL_OK) s = g;
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
    pl_dist_life_gpu_destroy(l);
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

/* On the GPU path the window goes to the device after the scatter and comes back before the gather. */
pl_status pl_dist_life_scatter(pl_dist_life *l, const uint64_t *grid)
{
    pl_status s = move_blocks(l, (uint64_t *)grid, 1);
    return s == PL_OK && l->gpu ? pl_dist_life_gpu_upload(l) : s;
}
pl_status pl_dist_life_gather(pl_dist_life *l, uint64_t *grid)
{
    pl_status s = l->gpu ? pl_dist_life_gpu_download(l) : PL_OK;
    return s == PL_OK ? move_blocks(l, grid, 0) : s;
}

int64_t pl_dist_life_census(pl_dist_life *l, int64_t box[4])
{
    if (l->gpu) return pl_dist_life_gpu_census(l, box);
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

/* The rung on a packed W x H window or part of it, k generations (its time into compute): a
 * plane, or where the rank wraps onto itself a cylinder (the window's whole width) or the torus
 * (the whole window). A failure is kept and later steps skip their compute; the rank still
 * exchanges, so no neighbour waits. */
static void run_rung(pl_dist_life *l, uint64_t *bits, int64_t W, int64_t H, int64_t k)
{
    if (l->failed != PL_OK) return;
    pl_life_problem p = l->p;
    p.W = W, p.H = H, p.gens = k, p.topology = PL_LIFE_TOPO_PLANE;
    if (l->wrap_cols && W == l->wl) p.topology = l->wrap_rows && H == l->hl ? PL_LIFE_TOPO_TORUS : PL_LIFE_TOPO_CYLINDER;
    const double t0 = pl_now();
    l->failed = pl_life_variant_problem(l->ctx, l->rung, l->params, &p, bits);
    l->t.compute += pl_now() - t0;
}

/* k generations of target's cells into next: the part of cur they need (rect_grow, within bounds)
 * run as a plane of its own in l->part. Exact wherever part's edge is k cells away or is the
 * grid's own edge (the window's edge at a plane's edge). */
static void run_part(pl_dist_life *l, rect target, int64_t k, rect bounds)
{
    if (rect_rows(target) <= 0 || rect_cells(target) <= 0) return;
    const rect part = rect_grow(target, k, bounds);
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
    if (l->gpu) return pl_dist_life_gpu_run(l, gens);
    for (int64_t done = 0; done < gens;) {
        /* a step k <= d generations; one rank on the torus has no halo to refresh: all at once */
        const int64_t k = gens - done < l->d || l->wrap_rows ? gens - done : l->d;
        if (overlap_step(l, k)) step_overlapped(l, k);
        else step_plain(l, k);
        done += k;
    }
    return l->failed;
}

void pl_dist_life_messages(const pl_dist_life *l, int64_t gens, double *msgs, double *bytes)
{
    const double steps = l->wrap_rows ? 0 : (double)((gens + l->d - 1) / l->d);
    *msgs = *bytes = 0;
    for (int dir = 0; dir < PL_DIST_DIRS; dir++)
        if (l->send_buf[dir]) *msgs += steps, *bytes += steps * (double)rect_words(l->send[dir]) * 8;
}

pl_status pl_dist_life_grid_create(pl_dist_grid *g, const pl_life_problem *p, const pl_variant *variant, int cuda)
{
    const int takes = !cuda && (!variant || takes_cylinder(variant));
    const int64_t rows = p->H / pl_dist_size();
    const int periodic = p->topology == PL_LIFE_TOPO_TORUS;
    if (takes && rows >= BAND_DEPTHS * pl_dist_life_default_depth(0, INT32_MAX))
        return pl_dist_grid_create_bands(g, p->H, p->W, periodic);
    return pl_dist_grid_create(g, p->H, p->W, periodic);
}

pl_dist_times pl_dist_life_times(const pl_dist_life *l) { return l->t; }
int pl_dist_life_overlaps(const pl_dist_life *l) { return l->overlapped; }
int pl_dist_life_on_nccl(const pl_dist_life *l) { return l->gpu != NULL; }

/* ---------------------------------------------------------------- a block alone (mpi-io-bench) */

pl_status pl_dist_life_set_block(pl_dist_life *l, const uint64_t *bits, int64_t wpr)
{
    pl_life_copy_cells(l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], bits, wpr, 0, 0, l->w, l->h);
    return l->gpu ? pl_dist_life_gpu_upload(l) : PL_OK; /* the GPU path's window lives on the device */
}

pl_status pl_dist_life_get_block(pl_dist_life *l, uint64_t *bits, int64_t wpr)
{
    const pl_status s = l->gpu ? pl_dist_life_gpu_download(l) : PL_OK;
    pl_life_copy_cells(bits, wpr, 0, 0, l->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->w, l->h);
    return s;
}
