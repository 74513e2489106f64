/* stencil_window.h: what the distributed stencils (conv2d_ranks.c, entropy_ranks.c) share,
 * inside src/distributed/ only. A rank's block of an H x W array lives in a window with a halo of r elements on every
 * side: (h + 2r) rows of w + 2r elements, the block at (r, r). The halo sides that face a
 * neighbour rank are filled by the exchange (corners included); the sides at the image's edge
 * are left to the kernel (conv2d fills them by its border rule, entropy never reads them).
 * Rectangles are in window coordinates. A stencil run then reads:
 *     load the block; begin the exchange; compute the interior (needs no halo);
 *     end the exchange; compute the rim (the centres the interior left, with the halo). */
#ifndef PL_DIST_WINDOW_H
#define PL_DIST_WINDOW_H

#include "distributed/transport/distributed.h"

/* Rows r0..r1-1, columns c0..c1-1 of the window (empty when r1 <= r0 or c1 <= c0). */
typedef struct pl_dist_rect {
    int64_t r0, r1, c0, c1;
} pl_dist_rect;

static inline int64_t pl_dist_rect_area(pl_dist_rect a)
{
    return a.r1 > a.r0 && a.c1 > a.c0 ? (a.r1 - a.r0) * (a.c1 - a.c0) : 0;
}
/* a less n, s, w, e rows / columns on its north, south, west, east side. */
static inline pl_dist_rect pl_dist_rect_shrink(pl_dist_rect a, int64_t n, int64_t s, int64_t w, int64_t e)
{
    return (pl_dist_rect){a.r0 + n, a.r1 - s, a.c0 + w, a.c1 - e};
}
static inline pl_dist_rect pl_dist_rect_meet(pl_dist_rect a, pl_dist_rect b)
{
    return (pl_dist_rect){a.r0 > b.r0 ? a.r0 : b.r0, a.r1 < b.r1 ? a.r1 : b.r1, a.c0 > b.c0 ? a.c0 : b.c0,
                          a.c1 < b.c1 ? a.c1 : b.c1};
}

enum { PL_DIST_SIDE_N, PL_DIST_SIDE_S, PL_DIST_SIDE_W, PL_DIST_SIDE_E };

typedef struct pl_dist_window {
    const pl_dist_grid *g;
    pl_dist_block b;     /* this rank's block, global */
    int64_t h, w;        /* its rows and columns */
    int r;               /* the halo */
    size_t elem;         /* bytes an element */
    int64_t rows, ld;    /* the window: h + 2r rows of ld = w + 2r elements */
    char *buf;
    int nbr[4];          /* 1 where a neighbour rank faces that side (PL_DIST_SIDE_*) */
    pl_dist_halo *x;     /* the exchange (NULL with no neighbour at all) */
    struct pl_dist_window_gpu *gpu; /* the window on this rank's GPU, halos on NCCL (nccl_window.c); NULL: the host */
} pl_dist_window;

/* The window of this rank's block of an H x W array, halo r, its exchange planned. Refused
 * (PL_ERR_ARG, the same on every rank) when the grid has more than one rank and its smallest
 * block has fewer than r rows or columns: the halo comes from the next rank alone. what names
 * the kernel and its window ("conv2d: K = 7") in messages. Collective. */
pl_status pl_dist_window_init(pl_dist_window *win, const pl_dist_grid *g, int64_t H, int64_t W, size_t elem, int r,
                              const char *what);
void pl_dist_window_free(pl_dist_window *win);

/* The element at window row y, column x. */
static inline void *pl_dist_window_at(const pl_dist_window *win, int64_t y, int64_t x)
{
    return win->buf + ((size_t)y * (size_t)win->ld + (size_t)x) * win->elem;
}
/* The block, and the block grown by r on the sides that face a neighbour (what holds data
 * after the exchange, the border left out). */
pl_dist_rect pl_dist_window_block(const pl_dist_window *win);
pl_dist_rect pl_dist_window_data(const pl_dist_window *win);

/* The caller's block (h x w, rows ld_in elements apart) into the window (time into compute). */
void pl_dist_window_load(pl_dist_window *win, const void *in, int64_t ld_in, pl_dist_times *t);
/* Only the block's frame into the window: its first and last band rows, and the first and last
 * band columns of the rows between (all of the block where it is thinner than 2 band): what a
 * stencil's rims and the halo read when the interior is computed from the caller's block itself. */
void pl_dist_window_load_frame(pl_dist_window *win, const void *in, int64_t ld_in, int64_t band, pl_dist_times *t);
/* The exchange's two halves (nothing without a neighbour). */
void pl_dist_window_begin(pl_dist_window *win, pl_dist_times *t);
void pl_dist_window_end(pl_dist_window *win, pl_dist_times *t);

/* The parts of centres c outside its interior in (in within c): the north and south bands
 * (full width), then the west and east ones between them; parts[] gets the non-empty ones,
 * the count is returned (at most 4). With in empty, c itself is the one part. */
int pl_dist_rim_parts(pl_dist_rect c, pl_dist_rect in, pl_dist_rect parts[4]);

/* Whether a run overlaps its exchange with the interior, for overlap PL_DIST_OVERLAP_* (dist/
 * life.h): never without a neighbour or an interior; ON then always; AUTO where the split's
 * extra work (extra, against the centres' work: work = outputs computed) is at most a tenth,
 * and never on the GPU path: there the interior and the four rims are five launches (each with
 * the rung's own set-up kernel) in a row, against one after the halo; measured on 4 H100s,
 * weak scaling, cuda-tuned (scripts/gpu_stencil_overlap.sh): conv2d 8192^2 a GPU 57.3%
 * overlapped against 77.8% not, 16384^2 71.0% against 90.2%; entropy 8192^2 78.5% against
 * 90.8%. The halo's trip that overlap would hide is ~30 us (NCCL over NVLink). */
int pl_dist_window_overlaps(const pl_dist_window *win, int overlap, pl_dist_rect in, double extra, double work);

/* ---- The GPU path (nccl_window.c with NCCL, no_nccl.c without). The window (same
 * shape, zeroed) lives in device memory; the exchange packs the halo strips on the device into
 * send buffers in one launch, trades them with one grouped ncclSend/ncclRecv on an exchange
 * stream (sends in direction order 0..8, receives in the opposite order, as nccl_life.c), and
 * unpacks them in one launch. The stencils then read as on the host, on device pointers:
 *     load; begin; the interior on the compute stream; end; the rim; finish. */

/* Collective over the grid: ready is whether this rank can take the GPU path (a CUDA rung in a
 * CUDA context, no failure so far). The path is taken when every rank is ready and every node
 * has a GPU for each of its ranks (pl_dist_nccl_usable); else win->gpu stays NULL (PL_OK) and
 * the host path runs. A failure after the choice (NCCL, device memory) is returned. */
pl_status pl_dist_window_gpu_create(pl_dist_window *win, pl_ctx *ctx, int ready);
void pl_dist_window_gpu_destroy(pl_dist_window *win);
/* The network model between the GPUs of ranks 0 and 1 on the window's NCCL communicator
 * (collective); {0, 0} on the host path. */
pl_dist_model pl_dist_window_gpu_model(pl_dist_window *win);
/* The device address of window cell (y, x), and the compute stream (a cudaStream_t). */
void *pl_dist_window_dev_at(const pl_dist_window *win, int64_t y, int64_t x);
void *pl_dist_window_stream(const pl_dist_window *win);
/* The caller's host block (h x w, rows ld_in elements apart) into the device window, waited for. */
pl_status pl_dist_window_gpu_load(pl_dist_window *win, const void *in, int64_t ld_in);
/* A run's exchange, stream-ordered: begin packs and starts NCCL; end makes the compute stream
 * wait for the halo and unpacks it; finish waits for the compute stream and adds the run's
 * times from CUDA events (exchange: packing and unpacking; wait: the compute stream stalled
 * for the halo; compute: the rest). A failure is kept in *failed (the first); the rank still
 * exchanges, so no neighbour waits. */
void pl_dist_window_gpu_begin(pl_dist_window *win, pl_status *failed);
void pl_dist_window_gpu_end(pl_dist_window *win, pl_status *failed);
void pl_dist_window_gpu_finish(pl_dist_window *win, pl_dist_times *t, pl_status *failed);

#endif
