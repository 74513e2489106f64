/* nccl_window.c: the distributed stencils' window on the rank's GPU, halos on NCCL (see
 * stencil_window.h). What conv2d_ranks.c and entropy_ranks.c share on the GPU path, as
 * stencil_window.c is on the host: the device window, the strips' device buffers, the two
 * streams and the run's events.
 * The strips are the host path's (halo.c's spans); a run's exchange reads as nccl_life.c's
 * step: pack (one launch) on the compute stream; the exchange stream waits for it and moves
 * every strip in one NCCL group, sends in direction order 0..8 and receives in the opposite
 * order (NCCL pairs the n-th send from A to B with B's n-th receive from A: the strip a
 * neighbour sends toward me in its direction s arrives in my direction 8 - s); the compute
 * stream computes the interior meanwhile, then waits for the exchange and unpacks (one
 * launch). The compute stream is the context's own (the rungs' stream), the exchange stream
 * the window's. */
#include "core/core.h"
#include "core/device.h"
#include "distributed/transport/mpi_comm.h"
#include "distributed/nccl/nccl_paths.h"
#include "distributed/stencil/stencil_window.h"

#include <stdlib.h>

enum { EV_START, EV_PACKED, EV_INNER, EV_ARRIVED, EV_GO, EV_UNPACKED, EV_END, N_EVENTS };

struct pl_dist_window_gpu {
    ncclComm_t comm;
    int device;               /* the context's GPU */
    void *compute, *exchange; /* streams: compute is the context's own (not owned here), exchange ours */
    void *ev[N_EVENTS];
    char *buf;                /* the window on the device */
    int n;                    /* the strips: one a neighbour direction */
    int dir[PL_DIST_DIRS];
    void *send[PL_DIST_DIRS], *recv[PL_DIST_DIRS];
    size_t bytes[PL_DIST_DIRS];
    pl_dev_rect_copy pack[PL_DEV_MAX_RECTS], unpack[PL_DEV_MAX_RECTS];
};

static void gpu_free(struct pl_dist_window_gpu *G)
{
    if (!G) return;
    for (int i = 0; i < N_EVENTS; i++) pl_dev_event_destroy(G->ev[i]);
    for (int i = 0; i < G->n; i++) pl_dev_free(G->send[i]), pl_dev_free(G->recv[i]);
    pl_dev_free(G->buf);
    if (G->exchange) pl_dev_stream_destroy(G->exchange);
    pl_dist_nccl_comm_destroy(G->comm);
    free(G);
}

void pl_dist_window_gpu_destroy(pl_dist_window *win)
{
    gpu_free(win->gpu);
    win->gpu = NULL;
}

/* The strip toward (or from) each neighbour, its buffers, and the two launches' copies. */
static pl_status plan_strips(pl_dist_window *win, struct pl_dist_window_gpu *G)
{
    const pl_dist_grid *g = win->g;
    if (g->size < 2 || win->r == 0) return PL_OK;
    pl_status s = PL_OK;
    for (int dir = 0; dir < PL_DIST_DIRS && s == PL_OK; dir++) {
        if (dir == PL_DIST_HERE || g->nbr[dir] == PL_DIST_NONE) continue;
        int64_t sr, sc, rr, rc, rows, cols;
        pl_dist_halo_send_span(PL_DIST_DY(dir), win->h, win->r, &sr, &rows);
        pl_dist_halo_send_span(PL_DIST_DX(dir), win->w, win->r, &sc, &cols);
        pl_dist_halo_recv_span(PL_DIST_DY(dir), win->h, win->r, &rr, &rows);
        pl_dist_halo_recv_span(PL_DIST_DX(dir), win->w, win->r, &rc, &cols);
        const int i = G->n++;
        G->dir[i] = dir, G->bytes[i] = (size_t)(rows * cols) * win->elem;
        /* whole 16-byte words: NCCL's copy kernel reads the aligned word around a strip's last
         * bytes (compute-sanitizer flagged a 4-byte read of a 1-byte strip's buffer) */
        const size_t room = (G->bytes[i] + 15) & ~(size_t)15;
        if ((s = pl_dev_malloc(&G->send[i], room)) == PL_OK) s = pl_dev_malloc(&G->recv[i], room);
        G->pack[i] = (pl_dev_rect_copy){G->send[i], G->buf + ((size_t)sr * (size_t)win->ld + (size_t)sc) * win->elem,
                                        cols, win->ld, rows, cols};
        G->unpack[i] = (pl_dev_rect_copy){G->buf + ((size_t)rr * (size_t)win->ld + (size_t)rc) * win->elem, G->recv[i],
                                          win->ld, cols, rows, cols};
    }
    return s;
}

pl_status pl_dist_window_gpu_create(pl_dist_window *win, pl_ctx *ctx, int ready)
{
    if (!pl_dist_nccl_usable(win->g, ready)) return PL_OK; /* the host path (MPI) */
    struct pl_dist_window_gpu *G = calloc(1, sizeof *G);
    if (!G) { /* the others are on their way into the communicator's start: tell them */
        ncclComm_t none;
        return pl_dist_nccl_comm_create(win->g, pl_fail(PL_ERR_NOMEM, "cannot allocate the GPU path's state"), &none);
    }
    win->gpu = G;
    const size_t bytes = (size_t)win->rows * (size_t)win->ld * win->elem;
    G->device = pl_ctx_device(ctx);
    pl_status s = pl_dev_select(G->device);
    s = pl_dist_nccl_comm_create(win->g, s, &G->comm); /* collective even when the select failed */
    /* The compute stream is the context's, where the rungs run: pl_run_device then orders a
     * part after the packing and before the rim with events on one stream, never a hop
     * between two streams (a few microseconds each, ten a run). */
    G->compute = ctx->stream;
    if (s == PL_OK && !G->compute) s = pl_fail(PL_ERR_INTERNAL, "the CUDA context has no stream");
    if (s == PL_OK) s = pl_dev_stream_create(&G->exchange);
    if (s == PL_OK) s = pl_dev_malloc((void **)&G->buf, bytes);
    if (s == PL_OK) s = pl_dev_memset(G->buf, 0, bytes, G->compute); /* the border stays defined */
    if (s == PL_OK) s = plan_strips(win, G);
    for (int i = 0; i < N_EVENTS && s == PL_OK; i++) s = pl_dev_event_create(&G->ev[i]);
    if (s == PL_OK) s = pl_dev_sync(G->compute);
    return s; /* on a failure win->gpu is freed by pl_dist_window_free */
}

void *pl_dist_window_dev_at(const pl_dist_window *win, int64_t y, int64_t x)
{
    return win->gpu->buf + ((size_t)y * (size_t)win->ld + (size_t)x) * win->elem;
}

void *pl_dist_window_stream(const pl_dist_window *win) { return win->gpu->compute; }

pl_status pl_dist_window_gpu_load(pl_dist_window *win, const void *in, int64_t ld_in)
{
    pl_status s = pl_dev_select(win->gpu->device);
    if (s == PL_OK)
        s = pl_dev_copy_2d(pl_dist_window_dev_at(win, win->r, win->r), (size_t)win->ld * win->elem, in,
                           (size_t)ld_in * win->elem, (size_t)win->w * win->elem, (size_t)win->h,
                           win->gpu->compute);
    return s == PL_OK ? pl_dev_sync(win->gpu->compute) : s;
}

static void note(pl_status *failed, pl_status s)
{
    if (s != PL_OK && *failed == PL_OK) *failed = s;
}

static void record(pl_dist_window *win, int ev, void *stream, pl_status *failed)
{
    note(failed, pl_dev_event_record(win->gpu->ev[ev], stream));
}

void pl_dist_window_gpu_begin(pl_dist_window *win, pl_status *failed)
{
    struct pl_dist_window_gpu *G = win->gpu;
    note(failed, pl_dev_select(G->device));
    record(win, EV_START, G->compute, failed);
    note(failed, pl_dev_copy_rects(G->pack, G->n, win->elem, G->compute));
    record(win, EV_PACKED, G->compute, failed);
    note(failed, pl_dev_stream_wait(G->exchange, G->ev[EV_PACKED]));
    if (G->n) {
        cudaStream_t st = (cudaStream_t)G->exchange;
        const pl_dist_grid *g = win->g;
        note(failed, pl_dist_nccl_status(ncclGroupStart(), "ncclGroupStart"));
        for (int i = 0; i < G->n; i++)
            note(failed, pl_dist_nccl_status(ncclSend(G->send[i], G->bytes[i], ncclUint8, g->nbr[G->dir[i]], G->comm,
                                                      st), "ncclSend"));
        for (int i = G->n - 1; i >= 0; i--)
            note(failed, pl_dist_nccl_status(ncclRecv(G->recv[i], G->bytes[i], ncclUint8, g->nbr[G->dir[i]], G->comm,
                                                      st), "ncclRecv"));
        note(failed, pl_dist_nccl_status(ncclGroupEnd(), "ncclGroupEnd"));
    }
    record(win, EV_ARRIVED, G->exchange, failed);
}

void pl_dist_window_gpu_end(pl_dist_window *win, pl_status *failed)
{
    struct pl_dist_window_gpu *G = win->gpu;
    record(win, EV_INNER, G->compute, failed);
    note(failed, pl_dev_stream_wait(G->compute, G->ev[EV_ARRIVED]));
    record(win, EV_GO, G->compute, failed);
    note(failed, pl_dev_copy_rects(G->unpack, G->n, win->elem, G->compute));
    record(win, EV_UNPACKED, G->compute, failed);
}

static double gap(pl_dist_window *win, int from, int to, pl_status *failed)
{
    double s = 0;
    note(failed, pl_dev_event_elapsed(win->gpu->ev[from], win->gpu->ev[to], &s));
    return s;
}

void pl_dist_window_gpu_finish(pl_dist_window *win, pl_dist_times *t, pl_status *failed)
{
    struct pl_dist_window_gpu *G = win->gpu;
    record(win, EV_END, G->compute, failed);
    note(failed, pl_dev_sync(G->compute));
    t->exchange += gap(win, EV_START, EV_PACKED, failed) + gap(win, EV_GO, EV_UNPACKED, failed);
    t->wait += gap(win, EV_INNER, EV_GO, failed);
    t->compute += gap(win, EV_PACKED, EV_INNER, failed) + gap(win, EV_UNPACKED, EV_END, failed);
}

pl_dist_model pl_dist_window_gpu_model(pl_dist_window *win)
{
    return win->gpu ? pl_dist_nccl_model_measure(win->g, win->gpu->comm) : (pl_dist_model){0, 0};
}
