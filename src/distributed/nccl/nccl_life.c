/* nccl_life.c: distributed Life on GPUs, one rank a GPU. The host path's idea
 * (life_ranks.h: a window of the block and a halo of depth d, k <= d generations a step by the
 * local rung on the window as a plane) with everything on the rank's GPU:
 *   - the window lives in device memory from the scatter to the gather; the census between
 *     is counted there and summed across GPUs by ncclAllReduce (no copies to the host);
 *   - the k generations run through pl_run_device, the CUDA rung (cuda-tuned, cuda-bitpacked)
 *     on device pointers, stream-ordered;
 *   - halo strips are packed and unpacked on the device at any bit offset
 *     (pl_life_copy_cells_device: a strip of a block whose split does not keep 64-cell words
 *     whole needs shifts), into device buffers;
 *   - the strips travel between GPUs with grouped ncclSend/ncclRecv on an exchange stream.
 * Two streams: compute (packing, the rung, unpacking) and exchange (NCCL). With overlap the
 * block's interior runs on the compute stream while NCCL moves the strips; the compute stream
 * then waits (an event) for the exchange and does the rims, as the host path does.
 * Message order: NCCL matches the n-th send from A to B with B's n-th receive from A, so sends
 * go in direction order 0..8 and receives in the opposite directions' order (8..0): the strip
 * a neighbour sends toward me in its direction s arrives in my direction 8 - s. That pairs them
 * right however many directions share one neighbour (two ranks on a torus, one rank alone). */
#include "core/core.h"
#include "core/device.h"
#include "distributed/nccl/nccl_paths.h"
#include "distributed/life/life_window.h"

#include <stdlib.h>

/* The events of a step, on the compute stream: their gaps are the step's compute, exchange and
 * wait (the compute stream stalled until the halo arrived). */
enum { EV_START, EV_PACKED, EV_INNER, EV_ARRIVED, EV_GO, EV_UNPACKED, EV_END, N_EVENTS };

struct pl_dist_life_gpu {
    ncclComm_t comm;
    void *compute, *exchange;   /* streams */
    void *ev[N_EVENTS];
    const pl_variant *rung;
    uint64_t *cur, *next, *part; /* device windows, as the host path's */
    uint64_t *send[PL_DIST_DIRS], *recv[PL_DIST_DIRS];
    int64_t *census;             /* device: population, x0, y0, -x1, -y1 (pl_life_census_device) */
    size_t window_bytes;
};

static void gpu_free(struct pl_dist_life_gpu *G)
{
    if (!G) return;
    for (int i = 0; i < N_EVENTS; i++) pl_dev_event_destroy(G->ev[i]);
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) pl_dev_free(G->send[dir]), pl_dev_free(G->recv[dir]);
    pl_dev_free(G->cur), pl_dev_free(G->next), pl_dev_free(G->part), pl_dev_free(G->census);
    if (G->compute) pl_dev_stream_destroy(G->compute);
    if (G->exchange) pl_dev_stream_destroy(G->exchange);
    pl_dist_nccl_comm_destroy(G->comm);
    free(G);
}

void pl_dist_life_gpu_destroy(pl_dist_life *l)
{
    gpu_free(l->gpu);
    l->gpu = NULL;
}

/* Device buffers of the host path's sizes, zeroed (the strips' padding bits stay defined). */
static pl_status gpu_buffers(pl_dist_life *l, struct pl_dist_life_gpu *G)
{
    G->window_bytes = (size_t)(l->hl * l->wpr) * 8;
    pl_status s = PL_OK;
    uint64_t **win[3] = {&G->cur, &G->next, &G->part};
    for (int i = 0; i < 3 && s == PL_OK; i++)
        if ((s = pl_dev_malloc((void **)win[i], G->window_bytes)) == PL_OK)
            s = pl_dev_memset(*win[i], 0, G->window_bytes, G->compute);
    for (int dir = 0; dir < PL_DIST_DIRS && s == PL_OK; dir++) {
        if (!l->send_buf[dir]) continue;
        const size_t sb = rect_words(l->send[dir]) * 8, rb = rect_words(l->recv[dir]) * 8;
        if ((s = pl_dev_malloc((void **)&G->send[dir], sb)) == PL_OK) s = pl_dev_malloc((void **)&G->recv[dir], rb);
        if (s == PL_OK) s = pl_dev_memset(G->send[dir], 0, sb, G->compute);
    }
    if (s == PL_OK) s = pl_dev_malloc((void **)&G->census, 5 * sizeof(int64_t));
    for (int i = 0; i < N_EVENTS && s == PL_OK; i++) s = pl_dev_event_create(&G->ev[i]);
    if (s == PL_OK) s = pl_dev_sync(G->compute);
    return s;
}

pl_status pl_dist_life_gpu_create(pl_dist_life *l, int ready)
{
    if (!pl_dist_nccl_usable(l->g, ready)) return PL_OK; /* the host path (MPI) */
    struct pl_dist_life_gpu *G = calloc(1, sizeof *G);
    if (!G) { /* the others are on their way into the communicator's start: tell them */
        ncclComm_t none;
        return pl_dist_nccl_comm_create(l->g, pl_fail(PL_ERR_NOMEM, "life: cannot allocate the GPU path's state"), &none);
    }
    l->gpu = G;
    G->rung = pl_variant_find(&pl_life_kernel, l->rung);
    pl_status s = G->rung ? pl_dev_select(pl_ctx_device(l->ctx))
                          : pl_fail(PL_ERR_ARG, "life: unknown variant '%s'", l->rung);
    s = pl_dist_nccl_comm_create(l->g, s, &G->comm); /* collective even when this rank failed */
    if (s == PL_OK) s = pl_dev_stream_create(&G->compute);
    if (s == PL_OK) s = pl_dev_stream_create(&G->exchange);
    if (s == PL_OK) s = gpu_buffers(l, G);
    return s; /* on a failure l->gpu is freed by pl_dist_life_destroy */
}

/* ---------------------------------------------------------------- a step on the device */

/* Note a failure (the first) of this rank's device work; later steps skip their compute, but
 * the rank keeps exchanging so no neighbour waits. */
static void note(pl_dist_life *l, pl_status s)
{
    if (s != PL_OK && l->failed == PL_OK) l->failed = s;
}

/* The strips out of the window into the send buffers (pack), or from the receive buffers into
 * it: all of them in one launch (the receive strips lie apart in the window, the send buffers
 * apart from it). */
static void move_strips(pl_dist_life *l, int pack)
{
    struct pl_dist_life_gpu *G = l->gpu;
    pl_life_cell_copy copies[PL_DIST_DIRS];
    int n = 0;
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        if (!G->send[dir]) continue;
        const rect r = pack ? l->send[dir] : l->recv[dir];
        const int64_t wpr = words(rect_cells(r));
        copies[n++] = pack ? (pl_life_cell_copy){G->send[dir], wpr, 0, 0, G->cur, l->wpr, r.c0, r.r0, rect_cells(r), rect_rows(r)}
                           : (pl_life_cell_copy){G->cur, l->wpr, r.c0, r.r0, G->recv[dir], wpr, 0, 0, rect_cells(r), rect_rows(r)};
    }
    note(l, pl_life_copy_cells_device_batch(copies, n, G->compute));
}

/* Every strip to its neighbour and every halo from it, one NCCL group on the exchange stream
 * (sends in direction order, receives in the opposite order: see the file's comment). */
static void exchange(pl_dist_life *l)
{
    struct pl_dist_life_gpu *G = l->gpu;
    cudaStream_t st = (cudaStream_t)G->exchange;
    note(l, pl_dist_nccl_status(ncclGroupStart(), "ncclGroupStart"));
    for (int dir = 0; dir < PL_DIST_DIRS; dir++)
        if (G->send[dir])
            note(l, pl_dist_nccl_status(ncclSend(G->send[dir], rect_words(l->send[dir]) * 8, ncclUint8,
                                                 l->g->nbr[dir], G->comm, st), "ncclSend"));
    for (int dir = PL_DIST_DIRS - 1; dir >= 0; dir--)
        if (G->recv[dir])
            note(l, pl_dist_nccl_status(ncclRecv(G->recv[dir], rect_words(l->recv[dir]) * 8, ncclUint8,
                                                 l->g->nbr[dir], G->comm, st), "ncclRecv"));
    note(l, pl_dist_nccl_status(ncclGroupEnd(), "ncclGroupEnd"));
}

/* The rung on a packed W x H plane on the device, k generations, on the compute stream. */
static void run_rung(pl_dist_life *l, uint64_t *bits, int64_t W, int64_t H, int64_t k)
{
    if (l->failed != PL_OK) return;
    pl_life_problem p = l->p;
    p.W = W, p.H = H, p.gens = k, p.topology = PL_LIFE_TOPO_PLANE;
    void *dev[1] = {bits};
    note(l, pl_run_device(l->ctx, &pl_life_kernel, l->gpu->rung, l->params, &p, dev, l->gpu->compute));
}

/* k generations of target's cells into next, from the part of cur they need run as a plane of
 * its own (the host path's run_part, on the device). */
static void run_part(pl_dist_life *l, rect target, int64_t k, rect bounds)
{
    if (rect_rows(target) <= 0 || rect_cells(target) <= 0 || l->failed != PL_OK) return;
    struct pl_dist_life_gpu *G = l->gpu;
    const rect part = rect_grow(target, k, bounds);
    const int64_t wpr = words(rect_cells(part));
    note(l, pl_dev_memset(G->part, 0, (size_t)(rect_rows(part) * wpr) * 8, G->compute));
    note(l, pl_life_copy_cells_device(G->part, wpr, 0, 0, G->cur, l->wpr, part.c0, part.r0, rect_cells(part),
                                      rect_rows(part), G->compute));
    run_rung(l, G->part, rect_cells(part), rect_rows(part), k);
    note(l, pl_life_copy_cells_device(G->next, l->wpr, target.c0, target.r0, G->part, wpr, target.c0 - part.c0,
                                      target.r0 - part.r0, rect_cells(target), rect_rows(target), G->compute));
}

static void record(pl_dist_life *l, int ev, void *stream) { note(l, pl_dev_event_record(l->gpu->ev[ev], stream)); }
static double gap(pl_dist_life *l, int from, int to)
{
    double s = 0;
    note(l, pl_dev_event_elapsed(l->gpu->ev[from], l->gpu->ev[to], &s));
    return s;
}

/* One step of k <= d generations: pack, exchange (overlapped with the interior when asked),
 * unpack, then the rims (overlapped) or the whole window. Waits for the step's end, then adds
 * its times: exchange = packing and unpacking, wait = the compute stream stalled for the halo,
 * compute = the rest. */
static void step(pl_dist_life *l, int64_t k, int overlapped)
{
    struct pl_dist_life_gpu *G = l->gpu;
    record(l, EV_START, G->compute);
    move_strips(l, 1);
    record(l, EV_PACKED, G->compute);
    note(l, pl_dev_stream_wait(G->exchange, G->ev[EV_PACKED]));
    exchange(l);
    record(l, EV_ARRIVED, G->exchange);
    const rect block = {l->side[SIDE_N], l->side[SIDE_N] + l->h, l->side[SIDE_W], l->side[SIDE_W] + l->w};
    const rect window = {0, l->hl, 0, l->wl}, in = interior(l, k);
    if (overlapped) run_part(l, in, k, block);
    record(l, EV_INNER, G->compute);
    note(l, pl_dev_stream_wait(G->compute, G->ev[EV_ARRIVED]));
    record(l, EV_GO, G->compute);
    move_strips(l, 0);
    record(l, EV_UNPACKED, G->compute);
    if (overlapped) {
        run_part(l, (rect){block.r0, in.r0, block.c0, block.c1}, k, window); /* top rim, corners too */
        run_part(l, (rect){in.r1, block.r1, block.c0, block.c1}, k, window); /* bottom rim */
        run_part(l, (rect){in.r0, in.r1, block.c0, in.c0}, k, window);       /* left rim */
        run_part(l, (rect){in.r0, in.r1, in.c1, block.c1}, k, window);       /* right rim */
        uint64_t *t = G->cur;
        G->cur = G->next, G->next = t;
        l->overlapped = 1;
    } else {
        run_rung(l, G->cur, l->wl, l->hl, k);
    }
    record(l, EV_END, G->compute);
    note(l, pl_dev_sync(G->compute));
    l->t.exchange += gap(l, EV_START, EV_PACKED) + gap(l, EV_GO, EV_UNPACKED);
    l->t.wait += gap(l, EV_INNER, EV_GO);
    l->t.compute += gap(l, EV_PACKED, EV_INNER) + gap(l, EV_UNPACKED, EV_END);
}

pl_status pl_dist_life_gpu_run(pl_dist_life *l, int64_t gens)
{
    note(l, pl_dev_select(pl_ctx_device(l->ctx)));
    for (int64_t done = 0; done < gens;) {
        const int64_t k = gens - done < l->d ? gens - done : l->d;
        step(l, k, overlap_step(l, k));
        done += k;
    }
    return l->failed;
}

/* ---------------------------------------------------------------- in, out, census */

/* A failure is also kept as the rank's (the next run or the command's agree reports it). */
pl_status pl_dist_life_gpu_upload(pl_dist_life *l)
{
    note(l, pl_dev_h2d(l->gpu->cur, l->cur, l->gpu->window_bytes, l->gpu->compute));
    note(l, pl_dev_sync(l->gpu->compute));
    return l->failed;
}

pl_status pl_dist_life_gpu_download(pl_dist_life *l)
{
    note(l, pl_dev_d2h(l->cur, l->gpu->cur, l->gpu->window_bytes, l->gpu->compute));
    note(l, pl_dev_sync(l->gpu->compute));
    return l->failed;
}

/* Each GPU counts its block (global coordinates), then two NCCL reductions in one group on the
 * compute stream: the populations summed, the box's four minima (x0, y0, -x1, -y1) taken;
 * five numbers come back to the host. */
int64_t pl_dist_life_gpu_census(pl_dist_life *l, int64_t box[4])
{
    struct pl_dist_life_gpu *G = l->gpu;
    int64_t t[5] = {0, 0, 0, 0, 0};
    note(l, pl_life_census_device(G->cur, l->wpr, l->side[SIDE_W], l->side[SIDE_N], l->w, l->h, l->b.x0, l->b.y0,
                                  G->census, G->compute));
    cudaStream_t st = (cudaStream_t)G->compute;
    note(l, pl_dist_nccl_status(ncclGroupStart(), "ncclGroupStart"));
    note(l, pl_dist_nccl_status(ncclAllReduce(G->census, G->census, 1, ncclInt64, ncclSum, G->comm, st), "ncclAllReduce"));
    note(l, pl_dist_nccl_status(ncclAllReduce(G->census + 1, G->census + 1, 4, ncclInt64, ncclMin, G->comm, st),
                                "ncclAllReduce"));
    note(l, pl_dist_nccl_status(ncclGroupEnd(), "ncclGroupEnd"));
    note(l, pl_dev_d2h(t, G->census, sizeof t, G->compute));
    note(l, pl_dev_sync(G->compute));
    if (!t[0]) box[0] = box[1] = box[2] = box[3] = 0;
    else box[0] = t[1], box[1] = t[2], box[2] = -t[3] - t[1] + 1, box[3] = -t[4] - t[2] + 1;
    return t[0];
}

pl_dist_model pl_dist_life_gpu_model(pl_dist_life *l)
{
    return l->gpu ? pl_dist_nccl_model_measure(l->g, l->gpu->comm) : (pl_dist_model){0, 0};
}
