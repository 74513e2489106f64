/* reduce_ranks.c: reductions and dot on a grid of ranks (see reduce_ranks.h for the idea). A call:
 * the checks every rank makes alike, then (on more than one rank) the process rows and columns
 * as communicators, this rank's checks and buffers agreed by all (pl_dist_verdict), the local
 * partials, their combination along one dimension of the grid and the gather across the other,
 * and the verdict on the local runs. A rank whose rung failed still takes part in every
 * collective (its partials are zeros), so no rank is left waiting. */
#include "distributed/reduce/reduce_ranks.h"

#include "core/core.h"
#include "distributed/transport/collective.h"
#include "kernels/reduce/reduce.h"

#include <stdlib.h>
#include <string.h>

/* min and max as the kernel has them (a NaN wins, as NumPy), as MPI ops over floats: MPI's own
 * MPI_MIN / MPI_MAX say nothing of NaN. */
static void nan_min(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const float *a = in;
    float *b = inout;
    for (int i = 0; i < *len; i++) b[i] = pl_reduce_min2(a[i], b[i]);
}
static void nan_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const float *a = in;
    float *b = inout;
    for (int i = 0; i < *len; i++) b[i] = pl_reduce_max2(a[i], b[i]);
}

/* How partials of op combine: sums for sum, mean (divided at the end) and sumsq. */
static MPI_Op op_create(int op)
{
    MPI_Op o = MPI_SUM;
    if (op == PL_REDUCE_MIN || op == PL_REDUCE_MAX) MPI_Op_create(op == PL_REDUCE_MIN ? nan_min : nan_max, 1, &o);
    return o;
}
static void op_free(MPI_Op *o)
{
    if (*o != MPI_SUM) MPI_Op_free(o);
}

/* One reduction's state. */
typedef struct dreduce {
    const pl_dist_grid *g;
    pl_ctx *ctx;
    const char *rung;
    const int64_t *params;
    pl_reduce_problem local; /* this rank's block, its op (a mean's partials are sums) */
    int op;                  /* the op asked for */
    int64_t outputs;         /* the whole result's: H (axis 1) or W (axis 0) */
    int64_t mine;            /* this rank's partials: its block's rows (axis 1) or columns (axis 0) */
    float *partial;
    int *counts, *displs;    /* each process's band of outputs across the other dimension */
    pl_dist_times t;
} dreduce;

/* Wait for one request (its time into wait). */
static void wait_for(MPI_Request *q, pl_dist_times *t)
{
    const double t0 = pl_now();
    MPI_Wait(q, MPI_STATUS_IGNORE);
    t->wait += pl_now() - t0;
}

void pl_dist_reduce_bands(const pl_dist_grid *g, int axis, int64_t H, int64_t W, int *counts, int *displs)
{
    for (int i = 0; i < g->dims[axis ? 0 : 1]; i++) {
        const pl_dist_block b = axis ? pl_dist_block_at(g, i, 0, H, W) : pl_dist_block_at(g, 0, i, H, W);
        displs[i] = (int)(axis ? b.y0 : b.x0);
        counts[i] = (int)(axis ? b.y1 - b.y0 : b.x1 - b.x0);
    }
}

/* A rank's part of the checks: the rung, its block, its result array. */
static pl_status check_local(dreduce *d, const float *A, const float *r, pl_dist_to to)
{
    pl_status st = pl_dist_rung_check(d->ctx, &pl_reduce_kernel, d->ctx ? pl_best_variant(d->ctx, &pl_reduce_kernel, NULL) : NULL,
                                      &d->rung);
    if (st != PL_OK) return st;
    if (!A) return pl_fail(PL_ERR_ARG, "reduce: NULL block");
    if (!r && (to == PL_DIST_TO_ALL || d->g->rank == 0)) return pl_fail(PL_ERR_ARG, "reduce: NULL result array");
    if (d->local.lda < d->local.N)
        return pl_fail(PL_ERR_ARG, "reduce: lda %lld is smaller than this rank's %lld columns",
                       (long long)d->local.lda, (long long)d->local.N);
    return PL_OK;
}

/* The checks, the partials and the bands of outputs across the other dimension. */
static pl_status setup(dreduce *d, const float *A, const float *r, pl_dist_to to, int64_t H, int64_t W)
{
    pl_status st = check_local(d, A, r, to);
    if (st != PL_OK) return st;
    const int axis = d->local.axis, bands = d->g->dims[axis ? 0 : 1];
    d->partial = calloc((size_t)d->mine, sizeof(float));
    d->counts = malloc(sizeof(int) * (size_t)bands);
    d->displs = malloc(sizeof(int) * (size_t)bands);
    if (!d->partial || !d->counts || !d->displs)
        return pl_fail(PL_ERR_NOMEM, "reduce: cannot allocate this rank's %lld partials", (long long)d->mine);
    pl_dist_reduce_bands(d->g, axis, H, W, d->counts, d->displs);
    return PL_OK;
}

/* The partials of the same outputs combined along the grid (to the first rank of each line,
 * or to all of it), then the bands gathered across it into r (to rank 0, or to every rank). */
static void combine(dreduce *d, const pl_dist_lines *l, float *r, pl_dist_to to)
{
    const int axis = d->local.axis, n = (int)d->mine;
    MPI_Comm along = axis ? l->row : l->col, across = axis ? l->col : l->row;
    const int first = d->g->coords[axis ? 1 : 0] == 0; /* the line's first rank */
    MPI_Op mop = op_create(d->op);
    MPI_Request q;
    double t0 = pl_now();
    if (to == PL_DIST_TO_ALL) MPI_Iallreduce(MPI_IN_PLACE, d->partial, n, MPI_FLOAT, mop, along, &q);
    else MPI_Ireduce(first ? MPI_IN_PLACE : d->partial, first ? d->partial : NULL, n, MPI_FLOAT, mop, 0, along, &q);
    d->t.exchange += pl_now() - t0;
    wait_for(&q, &d->t);
    op_free(&mop);
    if (to == PL_DIST_TO_ROOT && !first) return;
    t0 = pl_now();
    if (to == PL_DIST_TO_ALL)
        MPI_Iallgatherv(d->partial, n, MPI_FLOAT, r, d->counts, d->displs, MPI_FLOAT, across, &q);
    else MPI_Igatherv(d->partial, n, MPI_FLOAT, r, d->counts, d->displs, MPI_FLOAT, 0, across, &q);
    d->t.exchange += pl_now() - t0;
    wait_for(&q, &d->t);
}

/* The local partials, combined and gathered into r, a mean divided once where r lands. */
static pl_status reduce_ranks(dreduce *d, const pl_dist_lines *l, const float *A, float *r, pl_dist_to to,
                              int64_t terms)
{
    double t0 = pl_now();
    const pl_status failed = pl_reduce_variant_problem(d->ctx, d->rung, d->params, &d->local, A, d->partial);
    if (failed != PL_OK) memset(d->partial, 0, sizeof(float) * (size_t)d->mine);
    d->t.compute += pl_now() - t0;
    combine(d, l, r, to);
    if (d->op == PL_REDUCE_MEAN && (to == PL_DIST_TO_ALL || d->g->rank == 0)) {
        t0 = pl_now();
        for (int64_t i = 0; i < d->outputs; i++) r[i] = r[i] / (float)terms; /* as the rungs: the sum, then / n */
        d->t.compute += pl_now() - t0;
    }
    return failed;
}

pl_status pl_dist_sreduce_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                  pl_reduce_op op, int axis, int64_t H, int64_t W, const float *A, int64_t lda, float *r,
                                  pl_dist_to to, pl_dist_times *t)
{
    /* what every rank decides alike, before any message */
    if (axis < -2 || axis > 1)
        return pl_fail(PL_ERR_ARG, "reduce: axis %d is out of range for a 2-D array (0 or 1; -2 or -1 from the end)",
                       axis);
    if (axis < 0) axis += 2;
    const pl_reduce_problem whole = {H, W, W, op, axis, 0};
    pl_status st = pl_reduce_check(&whole);
    if (st != PL_OK) return st;
    if (to != PL_DIST_TO_ROOT && to != PL_DIST_TO_ALL)
        return pl_fail(PL_ERR_ARG, "reduce: the result goes to rank 0 or to every rank (%d)", (int)to);
    if (g->dims[0] > H || g->dims[1] > W || H > INT32_MAX || W > INT32_MAX)
        return pl_fail(PL_ERR_ARG, "reduce: %d ranks (%dx%d) for a %lldx%lld matrix: P larger than rows or columns "
                       "(or a side past MPI's int counts); run on fewer ranks", g->size, g->dims[0], g->dims[1],
                       (long long)H, (long long)W);

    pl_dist_reduce_gpu *gpu = NULL; /* a CUDA rung, NCCL and a GPU a rank: the blocks go to the GPUs */
    if ((st = pl_dist_reduce_gpu_create(&gpu, g, ctx, rung, params, op, axis, H, W, to)) != PL_OK || gpu) {
        if (gpu) st = pl_dist_sreduce_gpu_host(gpu, A, lda, r, t);
        pl_dist_reduce_gpu_destroy(gpu);
        return st;
    }
    const pl_dist_block b = pl_dist_block_of(g, H, W);
    const int64_t h = b.y1 - b.y0, w = b.x1 - b.x0;
    dreduce d = {.g = g, .ctx = ctx, .rung = rung, .params = params, .op = op, .outputs = axis ? H : W,
                 .mine = axis ? h : w};
    d.local = (pl_reduce_problem){h, w, lda, op == PL_REDUCE_MEAN ? PL_REDUCE_SUM : op, axis, lda - w};
    if (g->size == 1) { /* the local call itself */
        if ((st = check_local(&d, A, r, to)) == PL_OK) {
            const double t0 = pl_now();
            d.local.op = op;
            st = pl_reduce_variant_problem(ctx, d.rung, params, &d.local, A, r);
            d.t.compute = pl_now() - t0;
        }
    } else {
        pl_dist_lines l;
        pl_dist_lines_create(g, &l);
        st = pl_dist_verdict(setup(&d, A, r, to, H, W));
        if (st == PL_OK) st = pl_dist_verdict(reduce_ranks(&d, &l, A, r, to, axis ? W : H));
        pl_dist_lines_destroy(&l);
    }
    free(d.partial), free(d.counts), free(d.displs);
    if (t) t->compute += d.t.compute, t->exchange += d.t.exchange, t->wait += d.t.wait;
    return st;
}

pl_status pl_dist_sreduce(const pl_dist_grid *g, pl_ctx *ctx, pl_reduce_op op, int axis, int64_t H, int64_t W,
                          const float *A, int64_t lda, float *r, pl_dist_to to, pl_dist_times *t)
{
    return pl_dist_sreduce_variant(g, ctx, NULL, NULL, op, axis, H, W, A, lda, r, to, t);
}

/* ---------------------------------------------------------------- dot */

pl_status pl_dist_sdot_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params, int64_t N,
                               const float *x, const float *y, float *result, pl_dist_times *t)
{
    const pl_dot_problem whole = {N};
    pl_status st = pl_dot_check(&whole);
    if (st != PL_OK) return st;
    if (g->dims[0] != 1 || g->dims[1] > N)
        return pl_fail(PL_ERR_ARG, "dot: %d ranks (%dx%d) for vectors of %lld: the vectors are split over one process "
                       "row of at most N ranks (a grid made for a 1 x N array)", g->size, g->dims[0], g->dims[1],
                       (long long)N);
    const pl_dist_block b = pl_dist_block_of(g, 1, N);
    const pl_dot_problem mine = {b.x1 - b.x0};
    pl_dist_times tt = {0, 0, 0};
    st = pl_dist_rung_check(ctx, &pl_dot_kernel, ctx ? pl_best_variant(ctx, &pl_dot_kernel, NULL) : NULL, &rung);
    if (st == PL_OK && (!x || !y || !result)) st = pl_fail(PL_ERR_ARG, "dot: NULL vector or result");
    if (g->size > 1) st = pl_dist_verdict(st);
    if (st != PL_OK) return st;
    double t0 = pl_now();
    float partial = 0;
    st = pl_dot_variant_problem(ctx, rung, params, &mine, x, y, &partial);
    if (st != PL_OK) partial = 0;
    tt.compute += pl_now() - t0;
    *result = partial;
    if (g->size > 1) {
        MPI_Request q;
        t0 = pl_now();
        MPI_Iallreduce(&partial, result, 1, MPI_FLOAT, MPI_SUM, pl_dist_comm_of(g), &q);
        tt.exchange += pl_now() - t0;
        wait_for(&q, &tt);
        st = pl_dist_verdict(st);
    }
    if (t) t->compute += tt.compute, t->exchange += tt.exchange, t->wait += tt.wait;
    return st;
}

pl_status pl_dist_sdot(const pl_dist_grid *g, pl_ctx *ctx, int64_t N, const float *x, const float *y, float *result,
                       pl_dist_times *t)
{
    return pl_dist_sdot_variant(g, ctx, NULL, NULL, N, x, y, result, t);
}
