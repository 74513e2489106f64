/* life_ranks.h: Life on a grid of ranks. Each rank holds its block of the W x H grid
 * bit-packed (the layout of kernels/life/life.h) inside a local window: the block plus a halo
 * of depth d on every side that has a neighbour (none at a bounded plane's edge, where the
 * window's edge is the grid's). A step of k <= d generations runs the local rung (through
 * pl_life_variant_problem, as a bounded plane of the window's size) after the halo exchange:
 * what the window's edge gets wrong travels one cell a generation, so after k generations
 * the block, d cells in, is exact. A halo of depth d thus buys d generations a message (the
 * temporal blocking of cpu-bitpacked, across ranks), at the price of recomputing the halo.
 * With overlap, the block's interior (which needs no halo for k generations) is computed
 * while the messages travel, and the block's rim (k cells wide) after they arrive.
 * Every call is collective over the grid's ranks. */
#ifndef PL_DIST_LIFE_H
#define PL_DIST_LIFE_H

#include "distributed/transport/distributed.h"
#include "kernels/life/life.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pl_dist_life pl_dist_life;

/* How a step meets its messages: ON overlaps the interior with the exchange wherever the block
 * has one, OFF never. For Life AUTO is OFF (life_window.h, overlap_step: the rims cost more
 * than the exchange they hide); the stencils decide AUTO their own way (stencil_ranks.h). */
enum { PL_DIST_OVERLAP_AUTO, PL_DIST_OVERLAP_ON, PL_DIST_OVERLAP_OFF };

/* The deepest halo the grid allows for a W x H problem: the smallest block's rows (where a
 * dimension has a neighbour: more than one process row, or a torus) and columns; INT32_MAX
 * when no side has a neighbour (one rank on a plane). */
int64_t pl_dist_life_max_depth(const pl_dist_grid *g, const pl_life_problem *p);
/* The halo depth a run takes unless told: 48 generations a message for a CPU rung (three passes
 * of cpu-bitpacked's temporal blocking of 16: at 16, one pass a call, a rank ran at half the
 * rung's rate, `mpirun -n 1 parlab bench life 2048 --halo 16|32|48`: 57% / 101%, and on 2 ranks
 * 50% / 86% / 98%, 64: 94%), 32 for a CUDA rung (two passes of cuda-tuned's 16: an even count
 * leaves the result in place), at most `most` (pl_dist_life_max_depth). */
int64_t pl_dist_life_default_depth(int cuda, int64_t most);
/* The halo depth of a run: halo (0: pl_dist_life_default_depth), at most what the smallest
 * block allows (PL_ERR_ARG naming the grid and the most it allows). */
/* Rank 0's grid (kind and W x H) and rule told to every rank (collective). */
void pl_dist_life_share(int *grid_kind, int64_t grid_dims[2], pl_life_rule *rule);
pl_status pl_dist_life_depth_of(const pl_dist_grid *g, const pl_life_problem *p, long halo, int cuda, int *depth);

/* This rank's share of problem p (W, H, rule, topology; its gens unused) on g: the window and
 * its buffers, the halo plan. rung: the life variant each rank runs (its params may be NULL).
 * depth 1..pl_dist_life_max_depth. g and ctx must outlive it. */
pl_status pl_dist_life_create(pl_dist_life **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                              const int64_t *params, const pl_life_problem *p, int depth, int overlap);
/* Rank 0's packed W x H grid (read there only) into the ranks' blocks. */
pl_status pl_dist_life_scatter(pl_dist_life *l, const uint64_t *grid);
/* gens generations on every rank. A rank whose rung fails keeps exchanging to the end (no rank
 * waits for it), and returns the failure: call pl_dist_agree_status next. */
pl_status pl_dist_life_run(pl_dist_life *l, int64_t gens);
/* The whole grid's population and the box of its live cells (x, y, w, h; zeros when empty), on
 * every rank. */
int64_t pl_dist_life_census(pl_dist_life *l, int64_t box[4]);
/* The ranks' blocks into rank 0's packed W x H grid (written there only). */
pl_status pl_dist_life_gather(pl_dist_life *l, uint64_t *grid);
/* The grid of ranks for Life on p (a torus or a plane): bands of whole rows (P x 1) where the
 * run is on the CPU, the rung (NULL: the best one) takes the cylinder and each band keeps a few
 * default halos of rows; else pl_dist_grid_create's. A band has no halo columns (on the torus
 * the rung wraps the rows' ends, on the plane they are the grid's edge): the window is the
 * block's own width, in the rung's fast path wherever the block's is, and only 2 messages a
 * step travel (north, south) instead of 8. Collective. */
pl_status pl_dist_life_grid_create(pl_dist_grid *g, const pl_life_problem *p, const pl_variant *variant, int cuda);
/* The messages this rank sends in a run of gens generations and their bytes (the model's). */
void pl_dist_life_messages(const pl_dist_life *l, int64_t gens, double *msgs, double *bytes);
/* This rank's time so far, and whether its steps overlap. */
pl_dist_times pl_dist_life_times(const pl_dist_life *l);
int pl_dist_life_overlaps(const pl_dist_life *l);
/* 1 when each rank's window lives on its GPU and the halos travel on NCCL (a CUDA
 * rung, a build with NCCL, a GPU for every rank of each node), 0 when on the host and MPI. */
int pl_dist_life_on_nccl(const pl_dist_life *l);
/* On the GPU path, the network model between the GPUs of ranks 0 and 1 on the path's own NCCL
 * communicator (collective); {0, 0} on the host path or one rank. */
pl_dist_model pl_dist_life_gpu_model(pl_dist_life *l);
void pl_dist_life_destroy(pl_dist_life *l);
/* (mpi-io-bench) This rank's block alone, packed (rows wpr words apart, cell 0 at bit 0),
 * into the window, or out of it: for a caller that makes and checks each block where it lives
 * (the distributed bench) with no rank holding the whole grid. Local, no messages; on the GPU
 * path the window goes to the device after set and comes back before get (a failed copy is
 * the status, and the rank's too). */
pl_status pl_dist_life_set_block(pl_dist_life *l, const uint64_t *bits, int64_t wpr);
pl_status pl_dist_life_get_block(pl_dist_life *l, uint64_t *bits, int64_t wpr);

#ifdef __cplusplus
}
#endif
#endif
