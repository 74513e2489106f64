/* reduce_ranks.h: reductions and dot on a grid of ranks. A reduction of an H x W
 * matrix held in the grid's 2D blocks (pl_dist_block_of(g, H, W)): each rank reduces its block
 * with its local rung into partials (one per row of its block for axis 1, per column for axis
 * 0; a mean's are sums), the partials of the same outputs are combined along the process row
 * (axis 1) or column (axis 0) with MPI_Ireduce / MPI_Iallreduce (min and max by NaN-propagating
 * ops of their own, as the kernel has them), and the bands of outputs are gathered across the
 * other dimension, to rank 0 or to every rank; a mean is divided last, once. Dot: two vectors
 * split over one process row, a local dot per rank, one MPI_Iallreduce.
 * A float sum's order differs from one process's: the result is within the kernel's bound
 * (any summation order), exactly equal only where every partial sum is exact; min and max are
 * exact. On one rank: the local call itself. Every call is collective over the grid's ranks;
 * every rank returns the same status (the failing rank keeps its message, rank 0 gets it). */
#ifndef PL_DIST_REDUCE_H
#define PL_DIST_REDUCE_H

#include "distributed/transport/distributed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a distributed result goes: rank 0 alone, or every rank. */
typedef enum pl_dist_to { PL_DIST_TO_ROOT = 0, PL_DIST_TO_ALL } pl_dist_to;

/* r = op over each row (axis 1: H outputs) or column (axis 0: W outputs) of the H x W matrix,
 * each rank passing its block A (lda >= its columns); the whole r lands on rank 0 (to ROOT: r
 * read nowhere else, may be NULL there) or on every rank (ALL). The best reduce rung of ctx.
 * Refuses what pl_sreduce refuses, and a grid with more process rows than H or columns than W
 * ("P larger than rows", alike on every rank). Where the time went is added into *t (NULL: not
 * kept). */
pl_status pl_dist_sreduce(const pl_dist_grid *g, pl_ctx *ctx, pl_reduce_op op, int axis, int64_t H, int64_t W,
                          const float *A, int64_t lda, float *r, pl_dist_to to, pl_dist_times *t);
/* The same with a named reduce rung (params may be NULL). */
pl_status pl_dist_sreduce_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                  pl_reduce_op op, int axis, int64_t H, int64_t W, const float *A, int64_t lda, float *r,
                                  pl_dist_to to, pl_dist_times *t);

/* ---- the GPU path: one rank a GPU, the block resident on it (src/distributed/nccl_reduce.c;
 * docs/scale-out-nccl.md "Reductions on GPUs"). The local rung through pl_run_device writes
 * the partials on the device; ncclReduce (to ROOT) or ncclAllReduce (ALL) combines them along
 * the grid's row or column communicator (sum for sum, mean, sumsq; min and max as int32 keys
 * that keep a NaN: nccl_keys.cu), the bands are gathered across the other one (ncclSend/Recv
 * to rank 0, or one ncclBroadcast a band to all), and a mean is divided on the device where r
 * lands. pl_dist_sreduce_variant takes this path by itself for a CUDA rung (copying the block
 * in and r out); the bench calls it on device arrays. A plan holds the communicators, a stream
 * and the partials. */
typedef struct pl_dist_reduce_gpu pl_dist_reduce_gpu;
/* Collective over g; *plan NULL (PL_OK) where the GPU path does not apply (as
 * pl_dist_gemm_gpu_create). axis 0 or 1; the caller checked the problem. */
pl_status pl_dist_reduce_gpu_create(pl_dist_reduce_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                    const int64_t *params, pl_reduce_op op, int axis, int64_t H, int64_t W,
                                    pl_dist_to to);
void pl_dist_reduce_gpu_destroy(pl_dist_reduce_gpu *plan);
const char *pl_dist_reduce_gpu_rung(const pl_dist_reduce_gpu *plan);
/* The network model between the plan's GPUs (as pl_dist_gemm_gpu_model). Collective. */
pl_dist_model pl_dist_reduce_gpu_model(const pl_dist_reduce_gpu *plan);
/* The reduction of this rank's block A (device, lda >= its columns) into r (device: all H or W
 * outputs, on rank 0 or every rank as the plan's `to` says; NULL elsewhere). Returns when done;
 * the same status on every rank. */
pl_status pl_dist_sreduce_gpu(pl_dist_reduce_gpu *plan, const float *A, int64_t lda, float *r, pl_dist_times *t);
/* The same from a host block into a host r (the copies not in *t). */
pl_status pl_dist_sreduce_gpu_host(pl_dist_reduce_gpu *plan, const float *A, int64_t lda, float *r, pl_dist_times *t);

/* *result = sum_i x_i y_i on every rank, the vectors of length N split as a 1 x N array over
 * a grid of one process row (pl_dist_grid_create(g, 1, N, 0) makes one): each rank passes its
 * part, pl_dist_block_of(g, 1, N)'s columns. Refuses what pl_sdot refuses, and a grid of more
 * than one process row. The best dot rung of ctx; _variant names one. */
pl_status pl_dist_sdot(const pl_dist_grid *g, pl_ctx *ctx, int64_t N, const float *x, const float *y, float *result,
                       pl_dist_times *t);
pl_status pl_dist_sdot_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params, int64_t N,
                               const float *x, const float *y, float *result, pl_dist_times *t);

#ifdef __cplusplus
}
#endif
#endif
