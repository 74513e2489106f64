/* nccl_reduce.c: reductions on GPUs, one rank a GPU (reduce_ranks.h's GPU path). The
 * host path's steps (reduce_ranks.c) with the block, the partials and the result in device memory,
 * all on one stream: the local rung's partials (pl_run_device), combined along the grid with
 * ncclReduce / ncclAllReduce, gathered across it with ncclSend/ncclRecv (to rank 0) or one
 * ncclBroadcast a band (to every rank), a mean divided last where the result lands. min and max
 * travel as int32 keys that keep a NaN (nccl_keys.cu). Times (CUDA events): compute, the local
 * rung and the division; exchange, the collectives (their waiting for the slowest rank is inside
 * NCCL: wait stays 0). */
#include "core/core.h"
#include "core/device.h"
#include "distributed/transport/collective.h"
#include "distributed/nccl/nccl_paths.h"
#include "distributed/reduce/reduce_ranks.h"
#include "kernels/reduce/reduce.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>

enum { EV_START, EV_LOCAL, EV_COMBINED, EV_END, N_EVENTS };

struct pl_dist_reduce_gpu {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    const pl_variant *rung;
    const int64_t *params;
    int op, axis;
    pl_dist_to to;
    int64_t H, W, h, w, mine; /* the matrix, this rank's block, its partials */
    pl_dist_nccl_lines lines;
    void *stream, *ev[N_EVENTS];
    float *partial;
    int *counts, *displs;     /* the bands across the other dimension */
    pl_status failed;
};

static void note(pl_dist_reduce_gpu *R, pl_status s)
{
    if (s != PL_OK && R->failed == PL_OK) R->failed = s;
}

void pl_dist_reduce_gpu_destroy(pl_dist_reduce_gpu *R)
{
    if (!R) return;
    for (int i = 0; i < N_EVENTS; i++) pl_dev_event_destroy(R->ev[i]);
    pl_dev_free(R->partial);
    if (R->stream) pl_dev_stream_destroy(R->stream);
    pl_dist_nccl_lines_destroy(&R->lines);
    free(R->counts), free(R->displs);
    free(R);
}

static pl_status gpu_setup(pl_dist_reduce_gpu *R)
{
    const int bands = R->g->dims[R->axis ? 0 : 1];
    pl_status s = pl_dev_select(pl_ctx_device(R->ctx));
    s = pl_dist_nccl_lines_create(R->g, s, &R->lines); /* collective even when the select failed */
    if (s == PL_OK) s = pl_dev_stream_create(&R->stream);
    if (s == PL_OK) s = pl_dev_malloc((void **)&R->partial, sizeof(float) * (size_t)R->mine);
    for (int i = 0; i < N_EVENTS && s == PL_OK; i++) s = pl_dev_event_create(&R->ev[i]);
    R->counts = malloc(sizeof(int) * (size_t)bands), R->displs = malloc(sizeof(int) * (size_t)bands);
    if (s == PL_OK && (!R->counts || !R->displs)) s = pl_fail(PL_ERR_NOMEM, "reduce: out of host memory");
    if (s == PL_OK) pl_dist_reduce_bands(R->g, R->axis, R->H, R->W, R->counts, R->displs);
    return s;
}

pl_status pl_dist_reduce_gpu_create(pl_dist_reduce_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                    const int64_t *params, pl_reduce_op op, int axis, int64_t H, int64_t W,
                                    pl_dist_to to)
{
    *plan = NULL;
    const pl_variant *v = pl_dist_cuda_rung(ctx, &pl_reduce_kernel, ctx ? pl_best_variant(ctx, &pl_reduce_kernel, NULL) : NULL, rung);
    if (!pl_dist_nccl_usable(g, v != NULL)) return PL_OK; /* the host path */
    pl_dist_reduce_gpu *R = calloc(1, sizeof *R);
    pl_status s = R ? PL_OK : pl_fail(PL_ERR_NOMEM, "reduce: cannot allocate the GPU path's state");
    if (R) {
        const pl_dist_block b = pl_dist_block_of(g, H, W);
        *R = (pl_dist_reduce_gpu){.g = g, .ctx = ctx, .rung = v, .params = params, .op = (int)op, .axis = axis,
                                  .to = to, .H = H, .W = W, .h = b.y1 - b.y0, .w = b.x1 - b.x0};
        R->mine = axis ? R->h : R->w;
        s = gpu_setup(R);
    } else { /* the others are on their way into the communicators' start: go with them */
        pl_dist_nccl_lines none;
        pl_dist_nccl_lines_create(g, s, &none);
    }
    if ((s = pl_dist_verdict(s)) != PL_OK) {
        pl_dist_reduce_gpu_destroy(R);
        return s;
    }
    *plan = R;
    return PL_OK;
}

const char *pl_dist_reduce_gpu_rung(const pl_dist_reduce_gpu *R) { return R->rung->name; }
pl_dist_model pl_dist_reduce_gpu_model(const pl_dist_reduce_gpu *R)
{
    return pl_dist_nccl_model_measure(R->g, R->lines.grid);
}

/* Whether this rank receives the result. */
static int lands_here(const pl_dist_reduce_gpu *R) { return R->to == PL_DIST_TO_ALL || R->g->rank == 0; }

/* The partials combined along the grid, then the bands gathered across it into r. */
static void combine(pl_dist_reduce_gpu *R, float *r)
{
    const int minmax = R->op == PL_REDUCE_MIN || R->op == PL_REDUCE_MAX, max = R->op == PL_REDUCE_MAX;
    const ncclDataType_t type = minmax ? ncclInt32 : ncclFloat;
    const ncclRedOp_t nop = !minmax ? ncclSum : max ? ncclMax : ncclMin;
    ncclComm_t along = R->axis ? R->lines.row : R->lines.col, across = R->axis ? R->lines.col : R->lines.row;
    const int first = R->g->coords[R->axis ? 1 : 0] == 0, me = R->g->coords[R->axis ? 0 : 1];
    const int bands = R->g->dims[R->axis ? 0 : 1];
    cudaStream_t st = (cudaStream_t)R->stream;
    const size_t n = (size_t)R->mine;
    if (minmax) note(R, pl_dist_minmax_keys(R->partial, R->mine, max, 0, R->stream));
    if (R->to == PL_DIST_TO_ALL)
        note(R, pl_dist_nccl_status(ncclAllReduce(R->partial, R->partial, n, type, nop, along, st), "ncclAllReduce"));
    else note(R, pl_dist_nccl_status(ncclReduce(R->partial, R->partial, n, type, nop, 0, along, st), "ncclReduce"));
    if (R->to == PL_DIST_TO_ROOT && !first) return;
    if (minmax) note(R, pl_dist_minmax_keys(R->partial, R->mine, max, 1, R->stream));
    note(R, pl_dist_nccl_status(ncclGroupStart(), "ncclGroupStart"));
    if (R->to == PL_DIST_TO_ALL) {
        for (int i = 0; i < bands; i++)
            note(R, pl_dist_nccl_status(ncclBroadcast(i == me ? (const void *)R->partial : r + R->displs[i],
                                                      r + R->displs[i], (size_t)R->counts[i], ncclFloat, i, across, st),
                                        "ncclBroadcast"));
    } else if (me != 0) {
        note(R, pl_dist_nccl_status(ncclSend(R->partial, n, ncclFloat, 0, across, st), "ncclSend"));
    } else {
        for (int i = 1; i < bands; i++)
            note(R, pl_dist_nccl_status(ncclRecv(r + R->displs[i], (size_t)R->counts[i], ncclFloat, i, across, st),
                                        "ncclRecv"));
    }
    note(R, pl_dist_nccl_status(ncclGroupEnd(), "ncclGroupEnd"));
    if (R->to == PL_DIST_TO_ROOT && me == 0) note(R, pl_dev_d2d(r, R->partial, sizeof(float) * n, R->stream));
}

pl_status pl_dist_sreduce_gpu(pl_dist_reduce_gpu *R, const float *A, int64_t lda, float *r, pl_dist_times *t)
{
    R->failed = PL_OK;
    if (!A) note(R, pl_fail(PL_ERR_ARG, "reduce: NULL block"));
    else if (!r && lands_here(R)) note(R, pl_fail(PL_ERR_ARG, "reduce: NULL result array"));
    else if (lda < R->w)
        note(R, pl_fail(PL_ERR_ARG, "reduce: lda %lld is smaller than this rank's %lld columns", (long long)lda,
                        (long long)R->w));
    pl_status s = pl_dist_verdict(R->failed);
    if (s != PL_OK) return s;
    note(R, pl_dev_select(pl_ctx_device(R->ctx)));
    const int one = R->g->size == 1; /* the local call itself, the op as asked (a mean divided by the rung) */
    const pl_reduce_problem q = {R->h, R->w, lda, one || R->op != PL_REDUCE_MEAN ? R->op : PL_REDUCE_SUM, R->axis,
                                 lda - R->w};
    void *dev[2] = {(void *)A, one ? r : R->partial};
    note(R, pl_dev_event_record(R->ev[EV_START], R->stream));
    note(R, pl_run_device(R->ctx, &pl_reduce_kernel, R->rung, R->params, &q, dev, R->stream));
    if (R->failed != PL_OK) note(R, pl_dev_memset(R->partial, 0, sizeof(float) * (size_t)R->mine, R->stream));
    note(R, pl_dev_event_record(R->ev[EV_LOCAL], R->stream));
    if (!one) combine(R, r); /* a failed rank still takes part: no rank waits */
    note(R, pl_dev_event_record(R->ev[EV_COMBINED], R->stream));
    if (!one && R->op == PL_REDUCE_MEAN && lands_here(R)) /* as the rungs: the sum, then / n */
        note(R, pl_dist_divide_device(r, R->axis ? R->H : R->W, (float)(R->axis ? R->W : R->H), R->stream));
    note(R, pl_dev_event_record(R->ev[EV_END], R->stream));
    note(R, pl_dev_sync(R->stream));
    double local = 0, comb = 0, div = 0;
    note(R, pl_dev_event_elapsed(R->ev[EV_START], R->ev[EV_LOCAL], &local));
    note(R, pl_dev_event_elapsed(R->ev[EV_LOCAL], R->ev[EV_COMBINED], &comb));
    note(R, pl_dev_event_elapsed(R->ev[EV_COMBINED], R->ev[EV_END], &div));
    if (t) t->compute += local + div, t->exchange += comb;
    return pl_dist_verdict(R->failed);
}

pl_status pl_dist_sreduce_gpu_host(pl_dist_reduce_gpu *R, const float *A, int64_t lda, float *r, pl_dist_times *t)
{
    const int64_t outputs = R->axis ? R->H : R->W;
    float *dA = NULL, *dr = NULL;
    pl_status s = pl_dev_select(pl_ctx_device(R->ctx));
    if (s == PL_OK && !A) s = pl_fail(PL_ERR_ARG, "reduce: NULL block");
    if (s == PL_OK && !r && lands_here(R)) s = pl_fail(PL_ERR_ARG, "reduce: NULL result array");
    if (s == PL_OK && lda < R->w)
        s = pl_fail(PL_ERR_ARG, "reduce: lda %lld is smaller than this rank's %lld columns", (long long)lda,
                    (long long)R->w);
    if (s == PL_OK) s = pl_dev_malloc((void **)&dA, sizeof(float) * (size_t)(R->h * R->w + 1));
    if (s == PL_OK && lands_here(R)) s = pl_dev_malloc((void **)&dr, sizeof(float) * (size_t)outputs);
    if (s == PL_OK && cudaMemcpy2D(dA, sizeof(float) * (size_t)R->w, A, sizeof(float) * (size_t)lda,
                                   sizeof(float) * (size_t)R->w, (size_t)R->h, cudaMemcpyHostToDevice) != cudaSuccess)
        s = pl_fail(PL_ERR_CUDA, "reduce: copying the block to the GPU failed");
    if ((s = pl_dist_verdict(s)) == PL_OK) s = pl_dist_sreduce_gpu(R, dA, R->w, dr, t);
    if (s == PL_OK && dr) s = pl_dev_d2h(r, dr, sizeof(float) * (size_t)outputs, NULL);
    if (s == PL_OK && dr) s = pl_dev_sync(NULL);
    s = pl_dist_verdict(s);
    pl_dev_free(dA), pl_dev_free(dr);
    return s;
}
