/* life_window.h: a rank's share of distributed Life (life_ranks.h), as src/distributed/life/life_ranks.c (the
 * host path, halos on MPI) and src/distributed/nccl/nccl_life.c (the GPU path, halos on NCCL) both see it:
 * the window (the block and its halo), its strips, and the shapes of a step (the interior, a
 * part grown by k). Private to src/distributed/. */
#ifndef PL_DIST_LIFE_WINDOW_H
#define PL_DIST_LIFE_WINDOW_H

#include "distributed/life/life_ranks.h"

enum { SIDE_N, SIDE_S, SIDE_W, SIDE_E };

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
    int64_t side[4];            /* the halo on each side: d where a neighbour is (E or W: and the padding to whole
                                 * words), 0 at a plane's edge; N and W are the block's offset in the window */
    int64_t hl, wl, wpr;        /* the window: rows, cells a row, words a row */
    /* On a torus with one process column the rank is its own east and west neighbour: a rung that
     * takes the cylinder (life.h) wraps the rows' ends itself, so the window has no halo columns
     * and nothing travels east or west (wrap_cols); with one process row as well (one rank) it
     * is the torus itself and nothing travels at all (wrap_rows). */
    int wrap_cols, wrap_rows;
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
    struct pl_dist_life_gpu *gpu; /* the window on this rank's GPU, exchanged on NCCL (nccl_life.c); NULL: on the host */
};

static inline int64_t words(int64_t cells) { return pl_life_words_per_row(cells); }
static inline int64_t rect_rows(rect r) { return r.r1 - r.r0; }
static inline int64_t rect_cells(rect r) { return r.c1 - r.c0; }
static inline size_t rect_words(rect r) { return (size_t)(rect_rows(r) * words(rect_cells(r))); }

/* target grown by k on every side, within bounds: the cells target's next k generations need. */
static inline rect rect_grow(rect target, int64_t k, rect bounds)
{
    rect r = {target.r0 - k, target.r1 + k, target.c0 - k, target.c1 + k};
    if (r.r0 < bounds.r0) r.r0 = bounds.r0;
    if (r.r1 > bounds.r1) r.r1 = bounds.r1;
    if (r.c0 < bounds.c0) r.c0 = bounds.c0;
    if (r.c1 > bounds.c1) r.c1 = bounds.c1;
    return r;
}

/* The block's interior for k generations (the cells k or more from every side with a halo):
 * empty when the block is too thin. */
static inline rect interior(const pl_dist_life *l, int64_t k)
{
    const int64_t n = l->side[SIDE_N], w = l->side[SIDE_W];
    return (rect){n + (l->side[SIDE_N] ? k : 0), n + l->h - (l->side[SIDE_S] ? k : 0), w + (l->side[SIDE_W] ? k : 0),
                  w + l->w - (l->side[SIDE_E] ? k : 0)};
}

/* Overlap this step? Only with an interior, and only when asked (--overlap on): auto never
 * overlaps. Measured (callgrind, cpu-bitpacked, one rank, 8192^2 block, halo 48, 96 generations):
 * the overlapped step ran 1.9x the instructions of the plain one (2.37e9 against 1.27e9 in the
 * rung), because each rim is a plane of its own 3k cells wide: a strip 3 words wide takes the
 * rung's scalar edge path for every word, and a band 3k rows tall recomputes its temporal
 * blocking's halo many times. The exchange it would hide is k rows of strips: ~50 us on shared
 * memory, microseconds over NVLink, against ~100 ms of compute. On the GPU the interior's cut
 * out and put back cost two passes over the block besides. */
static inline int overlap_step(const pl_dist_life *l, int64_t k)
{
    const rect in = interior(l, k);
    return l->overlap == PL_DIST_OVERLAP_ON && !l->wrap_rows && rect_rows(in) > 0 && rect_cells(in) > 0;
}

/* The GPU path (nccl_life.c, built with NCCL; no_nccl.c without): the window moved to this
 * rank's GPU (the context's device) and an NCCL communicator over the grid's ranks, in l->gpu;
 * then runs of gens generations there, the window kept on the device between runs. create is collective over the grid: ready is whether
 * this rank got this far; the GPU path is taken when every rank is ready and every node has a
 * GPU for each of its ranks (NCCL takes one GPU a rank), else l->gpu stays NULL and the host
 * path runs (PL_OK). A failure after that choice (NCCL's init, device memory) is returned. */
pl_status pl_dist_life_gpu_create(pl_dist_life *l, int ready);
pl_status pl_dist_life_gpu_run(pl_dist_life *l, int64_t gens);
void pl_dist_life_gpu_destroy(pl_dist_life *l);
/* The window (l->cur) to the GPU after the scatter, and back before the gather. */
pl_status pl_dist_life_gpu_upload(pl_dist_life *l);
pl_status pl_dist_life_gpu_download(pl_dist_life *l);
/* pl_dist_life_census from the GPUs (collective: NCCL reductions). */
int64_t pl_dist_life_gpu_census(pl_dist_life *l, int64_t box[4]);

#endif
