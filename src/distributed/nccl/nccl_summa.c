/* nccl_summa.c: SUMMA on GPUs, one rank a GPU (summa.h's GPU path). The host
 * path's panels (pl_dist_gemm_panel_at) with the blocks of A, B and C in device memory:
 *   - a panel's owner packs its part (a pitched device copy; none where its line has one rank,
 *     the product then reads the block itself) and ncclBroadcast sends it along the process row
 *     (A) or column (B), on the row and column communicators split from the grid's;
 *   - the product C += A_panel B_panel is the CUDA rung through pl_run_device on the compute
 *     stream (the first panel with the caller's beta, the others with 1);
 *   - two buffers of each panel: panel i + 1's packing and broadcasts run on the exchange stream
 *     while panel i's product runs; the compute stream waits for a panel's arrival by an event,
 *     the exchange stream for the product that last read a buffer before refilling it.
 * Issue order on the host: exchange(0); then for each i, exchange(i + 1), product(i), so every
 * event a stream waits on was recorded before the wait is queued. */
#include "core/core.h"
#include "core/device.h"
#include "distributed/transport/collective.h"
#include "distributed/nccl/nccl_paths.h"
#include "distributed/summa/summa.h"
#include "kernels/gemm/gemm.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

/* A panel's timed events: on the exchange stream its start and end (packed and broadcast), on
 * the compute stream before the wait for it, after the wait, after its product. */
enum { EV_XS, EV_XE, EV_READY, EV_GO, EV_DONE, EV_PER_PANEL };

struct pl_dist_gemm_gpu {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    const pl_variant *rung;
    const int64_t *params;
    int64_t M, N, K, kb;
    pl_dist_block a, b;   /* this rank's blocks of A and B */
    int64_t m, n;         /* its block of C */
    pl_dist_nccl_lines lines;
    void *compute, *exchange;
    float *abuf[2], *bbuf[2]; /* NULL where the line has one rank */
    int panels;
    void **ev;                /* EV_PER_PANEL a panel */
    pl_status failed;
};

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

static void note(pl_dist_gemm_gpu *G, pl_status s)
{
    if (s != PL_OK && G->failed == PL_OK) G->failed = s;
}

static pl_status cuda_status(cudaError_t e, const char *what)
{
    return e == cudaSuccess ? PL_OK : pl_fail(PL_ERR_CUDA, "gemm: %s: %s", what, cudaGetErrorString(e));
}

void pl_dist_gemm_gpu_destroy(pl_dist_gemm_gpu *G)
{
    if (!G) return;
    for (int i = 0; G->ev && i < G->panels * EV_PER_PANEL; i++) pl_dev_event_destroy(G->ev[i]);
    free(G->ev);
    for (int i = 0; i < 2; i++) pl_dev_free(G->abuf[i]), pl_dev_free(G->bbuf[i]);
    if (G->compute) pl_dev_stream_destroy(G->compute);
    if (G->exchange) pl_dev_stream_destroy(G->exchange);
    pl_dist_nccl_lines_destroy(&G->lines);
    free(G);
}

/* The communicators, streams, panel buffers and events of a plan. */
static pl_status gpu_setup(pl_dist_gemm_gpu *G)
{
    const pl_dist_grid *g = G->g;
    pl_status s = pl_dev_select(pl_ctx_device(G->ctx));
    s = pl_dist_nccl_lines_create(g, s, &G->lines); /* collective even when the select failed */
    if (s == PL_OK) s = pl_dev_stream_create(&G->compute);
    if (s == PL_OK) s = pl_dev_stream_create(&G->exchange);
    const int64_t kb = min64(G->kb, G->K);
    for (int i = 0; i < 2 && s == PL_OK; i++) {
        if (g->dims[1] > 1) s = pl_dev_malloc((void **)&G->abuf[i], sizeof(float) * (size_t)(G->m * kb));
        if (s == PL_OK && g->dims[0] > 1) s = pl_dev_malloc((void **)&G->bbuf[i], sizeof(float) * (size_t)(kb * G->n));
    }
    for (int64_t k0 = 0; k0 < G->K; G->panels++) k0 = pl_dist_gemm_panel_at(g, G->M, G->N, G->K, G->kb, k0).k1;
    if (s == PL_OK && !(G->ev = calloc((size_t)G->panels * EV_PER_PANEL, sizeof(void *))))
        s = pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate the GPU path's events");
    for (int i = 0; i < G->panels * EV_PER_PANEL && s == PL_OK; i++) s = pl_dev_event_create(&G->ev[i]);
    return s;
}

pl_status pl_dist_gemm_gpu_create(pl_dist_gemm_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                  const int64_t *params, int64_t kb, int64_t M, int64_t N, int64_t K)
{
    *plan = NULL;
    const pl_variant *v = pl_dist_cuda_rung(ctx, &pl_gemm_kernel, ctx ? pl_best_variant(ctx, &pl_gemm_kernel, NULL) : NULL, rung);
    if (!pl_dist_nccl_usable(g, v != NULL)) return PL_OK; /* the host path */
    pl_dist_gemm_gpu *G = calloc(1, sizeof *G);
    pl_status s = G ? PL_OK : pl_fail(PL_ERR_NOMEM, "gemm: cannot allocate the GPU path's state");
    if (G) {
        *G = (pl_dist_gemm_gpu){.g = g, .ctx = ctx, .rung = v, .params = params, .M = M, .N = N, .K = K};
        G->kb = g->size == 1 ? K : kb ? kb : PL_DIST_GEMM_KB_GPU; /* one rank: one panel */
        G->a = pl_dist_block_of(g, M, K);
        G->b = pl_dist_block_of(g, K, N);
        G->m = G->a.y1 - G->a.y0, G->n = G->b.x1 - G->b.x0;
        s = gpu_setup(G);
    } else { /* the others are on their way into the communicators' start: go with them */
        pl_dist_nccl_lines none;
        pl_dist_nccl_lines_create(g, s, &none);
    }
    if ((s = pl_dist_verdict(s)) != PL_OK) {
        pl_dist_gemm_gpu_destroy(G);
        return s;
    }
    *plan = G;
    return PL_OK;
}

const char *pl_dist_gemm_gpu_rung(const pl_dist_gemm_gpu *G) { return G->rung->name; }
int64_t pl_dist_gemm_gpu_kb(const pl_dist_gemm_gpu *G) { return G->kb; }
pl_dist_model pl_dist_gemm_gpu_model(const pl_dist_gemm_gpu *G) { return pl_dist_nccl_model_measure(G->g, G->lines.grid); }

/* ---------------------------------------------------------------- a call */

/* Where panel p's A and B are for the product: the broadcast buffers, or the blocks themselves
 * where the line has one rank (no broadcast, no copy). */
typedef struct operands {
    const float *A, *B;
    int64_t lda, ldb;
} operands;

/* Panel p into buffer pair i on the exchange stream: wait until the product that last read
 * those buffers is done (panel p_index - 2), the owners pack, then the broadcasts. */
static operands exchange(pl_dist_gemm_gpu *G, int p_index, pl_dist_panel p, const float *A, int64_t lda,
                         const float *B, int64_t ldb)
{
    const int i = p_index & 1, w = (int)(p.k1 - p.k0);
    void **ev = G->ev + p_index * EV_PER_PANEL;
    cudaStream_t st = (cudaStream_t)G->exchange;
    if (p_index >= 2) note(G, pl_dev_stream_wait(G->exchange, G->ev[(p_index - 2) * EV_PER_PANEL + EV_DONE]));
    note(G, pl_dev_event_record(ev[EV_XS], G->exchange));
    const float *a_at = A + (p.k0 - G->a.x0), *b_at = B + (p.k0 - G->b.y0) * ldb; /* owners only */
    operands o = {a_at, b_at, lda, ldb};
    if (G->abuf[i]) {
        if (G->g->coords[1] == p.a_root)
            note(G, cuda_status(cudaMemcpy2DAsync(G->abuf[i], sizeof(float) * (size_t)w, a_at, sizeof(float) * (size_t)lda,
                                                  sizeof(float) * (size_t)w, (size_t)G->m, cudaMemcpyDeviceToDevice, st),
                                "packing A's panel"));
        note(G, pl_dist_nccl_status(ncclBroadcast(G->abuf[i], G->abuf[i], (size_t)(G->m * w), ncclFloat, p.a_root,
                                                  G->lines.row, st), "ncclBroadcast"));
        o.A = G->abuf[i], o.lda = w;
    }
    if (G->bbuf[i]) {
        if (G->g->coords[0] == p.b_root)
            note(G, cuda_status(cudaMemcpy2DAsync(G->bbuf[i], sizeof(float) * (size_t)G->n, b_at,
                                                  sizeof(float) * (size_t)ldb, sizeof(float) * (size_t)G->n, (size_t)w,
                                                  cudaMemcpyDeviceToDevice, st), "packing B's panel"));
        note(G, pl_dist_nccl_status(ncclBroadcast(G->bbuf[i], G->bbuf[i], (size_t)(w * G->n), ncclFloat, p.b_root,
                                                  G->lines.col, st), "ncclBroadcast"));
        o.B = G->bbuf[i], o.ldb = G->n;
    }
    note(G, pl_dev_event_record(ev[EV_XE], G->exchange));
    return o;
}

/* Panel p's product into C on the compute stream, once it has arrived. A rank whose work
 * failed skips its products but keeps exchanging, so no rank waits. */
static void product(pl_dist_gemm_gpu *G, int p_index, pl_dist_panel p, operands o, float alpha, float beta, float *C,
                    int64_t ldc)
{
    void **ev = G->ev + p_index * EV_PER_PANEL;
    note(G, pl_dev_event_record(ev[EV_READY], G->compute));
    note(G, pl_dev_stream_wait(G->compute, ev[EV_XE]));
    note(G, pl_dev_event_record(ev[EV_GO], G->compute));
    if (G->failed == PL_OK) {
        const pl_gemm_problem q = {G->m, G->n, p.k1 - p.k0, o.lda, o.ldb, ldc, alpha, beta, PL_F32};
        void *dev[3] = {(void *)o.A, (void *)o.B, C};
        note(G, pl_run_device(G->ctx, &pl_gemm_kernel, G->rung, G->params, &q, dev, G->compute));
    }
    note(G, pl_dev_event_record(ev[EV_DONE], G->compute));
}

static double gap(pl_dist_gemm_gpu *G, int p_index, int from, int to)
{
    double s = 0;
    note(G, pl_dev_event_elapsed(G->ev[p_index * EV_PER_PANEL + from], G->ev[p_index * EV_PER_PANEL + to], &s));
    return s;
}

pl_status pl_dist_sgemm_gpu(pl_dist_gemm_gpu *G, float alpha, const float *A, int64_t lda, const float *B,
                            int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t)
{
    G->failed = PL_OK;
    if (!A || !B || !C) note(G, pl_fail(PL_ERR_ARG, "gemm: NULL block of %s", !A ? "A" : !B ? "B" : "C"));
    else if (lda < G->a.x1 - G->a.x0 || ldb < G->n || ldc < G->n)
        note(G, pl_fail(PL_ERR_ARG, "gemm: lda %lld, ldb %lld, ldc %lld are too small for this rank's blocks",
                        (long long)lda, (long long)ldb, (long long)ldc));
    pl_status s = pl_dist_verdict(G->failed);
    if (s != PL_OK) return s;
    note(G, pl_dev_select(pl_ctx_device(G->ctx)));
    pl_dist_panel cur = pl_dist_gemm_panel_at(G->g, G->M, G->N, G->K, G->kb, 0);
    operands o = exchange(G, 0, cur, A, lda, B, ldb);
    for (int i = 0; i < G->panels; i++) {
        pl_dist_panel next = cur;
        operands on = o;
        if (i + 1 < G->panels)
            on = exchange(G, i + 1, next = pl_dist_gemm_panel_at(G->g, G->M, G->N, G->K, G->kb, cur.k1), A, lda, B, ldb);
        product(G, i, cur, o, alpha, i == 0 ? beta : 1.0f, C, ldc); /* beta once: C += the rest */
        cur = next, o = on;
    }
    note(G, pl_dev_sync(G->exchange));
    note(G, pl_dev_sync(G->compute));
    pl_dist_times mine = {0, 0, 0};
    for (int i = 0; i < G->panels && G->failed == PL_OK; i++) {
        mine.exchange += gap(G, i, EV_XS, EV_XE);
        mine.wait += gap(G, i, EV_READY, EV_GO);
        mine.compute += gap(G, i, EV_GO, EV_DONE);
    }
    if (t) t->compute += mine.compute, t->exchange += mine.exchange, t->wait += mine.wait;
    return pl_dist_verdict(G->failed);
}

/* ---------------------------------------------------------------- from host blocks */

/* rows x cols floats between host (rows hld apart) and device (dld apart). */
static pl_status copy2d(float *dst, int64_t dld, const float *src, int64_t sld, int64_t rows, int64_t cols,
                        enum cudaMemcpyKind kind)
{
    if (rows <= 0 || cols <= 0) return PL_OK;
    return cuda_status(cudaMemcpy2D(dst, sizeof(float) * (size_t)dld, src, sizeof(float) * (size_t)sld,
                                    sizeof(float) * (size_t)cols, (size_t)rows, kind),
                       kind == cudaMemcpyHostToDevice ? "copying a block to the GPU" : "copying C from the GPU");
}

pl_status pl_dist_sgemm_gpu_host(pl_dist_gemm_gpu *G, float alpha, const float *A, int64_t lda, const float *B,
                                 int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t)
{
    const int64_t ka = G->a.x1 - G->a.x0, kb = G->b.y1 - G->b.y0;
    float *dA = NULL, *dB = NULL, *dC = NULL;
    pl_status s = pl_dev_select(pl_ctx_device(G->ctx));
    if (s == PL_OK && (!A || !B || !C)) s = pl_fail(PL_ERR_ARG, "gemm: NULL block of %s", !A ? "A" : !B ? "B" : "C");
    if (s == PL_OK && (lda < ka || ldb < G->n || ldc < G->n))
        s = pl_fail(PL_ERR_ARG, "gemm: this rank's blocks are %lldx%lld (A), %lldx%lld (B), %lldx%lld (C): lda %lld, "
                    "ldb %lld, ldc %lld are too small", (long long)G->m, (long long)ka, (long long)kb, (long long)G->n,
                    (long long)G->m, (long long)G->n, (long long)lda, (long long)ldb, (long long)ldc);
    if (s == PL_OK) s = pl_dev_malloc((void **)&dA, sizeof(float) * (size_t)(G->m * ka + 1));
    if (s == PL_OK) s = pl_dev_malloc((void **)&dB, sizeof(float) * (size_t)(kb * G->n + 1));
    if (s == PL_OK) s = pl_dev_malloc((void **)&dC, sizeof(float) * (size_t)(G->m * G->n + 1));
    if (s == PL_OK) s = copy2d(dA, ka, A, lda, G->m, ka, cudaMemcpyHostToDevice);
    if (s == PL_OK) s = copy2d(dB, G->n, B, ldb, kb, G->n, cudaMemcpyHostToDevice);
    if (s == PL_OK && beta != 0.0f) s = copy2d(dC, G->n, C, ldc, G->m, G->n, cudaMemcpyHostToDevice);
    if ((s = pl_dist_verdict(s)) == PL_OK) s = pl_dist_sgemm_gpu(G, alpha, dA, ka, dB, G->n, beta, dC, G->n, t);
    if (s == PL_OK) s = pl_dist_verdict(copy2d(C, ldc, dC, G->n, G->m, G->n, cudaMemcpyDeviceToHost));
    pl_dev_free(dA), pl_dev_free(dB), pl_dev_free(dC);
    return s;
}
