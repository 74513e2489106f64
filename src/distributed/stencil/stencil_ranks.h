/* stencil_ranks.h: conv2d and entropy on a grid of ranks. The image is split as every
 * 2D array of the layer (pl_dist_block_of over a bounded, non-periodic grid: create it with
 * pl_dist_grid_create(g, H, W, 0)); each rank passes its own block of the input and gets its
 * own block of the output. A rank keeps its block in a window with a halo of r = K/2 (k/2) on
 * every side (stencil_window.h), fills the sides that face a neighbour by one 8-neighbour exchange
 * and computes its outputs with its best local rung (or the one named) through the kernels'
 * variant API on parts of that window. With overlap the block's interior, which needs no halo,
 * is computed while the exchange travels, and the rim (r wide) after it arrived.
 *
 * Borders. A rank whose block touches the image's edge applies the border rule there; an inner
 * side uses its neighbour's real pixels:
 *   - conv2d 'same': the halo past the image's edge is filled by the border rule (zero, clamp,
 *     reflect) from the pixels the window holds (the block and its neighbours' halo: a reflected
 *     or clamped index lands at most r inside the image), then 'valid' runs on the padded
 *     window, which is 'same' with that border exactly.
 *   - conv2d 'valid': no border. The output is (H-K+1) x (W-K+1); output pixel (oy, ox) is
 *     centred on input pixel (oy + r, ox + r), and belongs to the rank whose input block holds
 *     that centre. So a rank's output block is its input block less r rows / columns on each
 *     side at the image's edge (pl_dist_conv2d_out_block): inner ranks keep their block's size,
 *     edge ranks lose r, and a rank at an edge whose block is exactly r thick has no output
 *     (an empty block). The output's blocks therefore differ from pl_dist_block_of(OH, OW):
 *     gather with pl_dist_conv2d_gather (or write each block where out_block says).
 *   - entropy: the window is clipped at the image's edge (the kernel's rule); at an inner side
 *     the halo holds the real pixels, so the rung runs on the block grown by r there and each
 *     output equals the one-process one exactly (its counts are the same; the rung's sum is
 *     exact fixed point). The output's blocks are the input's (pl_dist_gather).
 * A grid too fine for the halo (P > 1 and a block with fewer than r rows or columns) is
 * refused at create, with the same message on every rank; one rank needs no halo at all.
 *
 * Faults: create decides alike on every rank (sizes only). run's checks (conv2d int32 range,
 * entropy's values < bins) and the rung may fail on one rank only: that rank still takes part
 * in the exchange, returns its failure, and the caller agrees (pl_dist_agree_status).
 * GPUs. With a CUDA rung under mpirun, a build with NCCL and a GPU for every rank
 * of each node, a plan keeps its window (and output) on the rank's GPU from upload to
 * download: the halo is packed and unpacked there and travels on NCCL, the parts run through
 * pl_run_device on device pointers (*_on_nccl says 1). Otherwise the host path above runs,
 * the CUDA rung called on the host window. run is the same call on either path; on the GPU
 * path a caller may also keep the input resident across runs: upload once, run_resident as
 * often as wanted (the output stays on the device), download (the bench times it that way).
 *
 * Every call is collective over the grid's ranks unless it says otherwise. */
#ifndef PL_DIST_STENCIL_H
#define PL_DIST_STENCIL_H

#include "distributed/transport/distributed.h"
#include "distributed/life/life_ranks.h" /* PL_DIST_OVERLAP_AUTO, _ON, _OFF */
#include "kernels/conv2d/conv2d.h"
#include "kernels/entropy/entropy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- conv2d */

typedef struct pl_dist_conv2d_plan pl_dist_conv2d_plan;

/* The output block of the rank at grid coordinates (prow, pcol) for problem p (H, W, K, mode;
 * global output coordinates, possibly empty), and this rank's. Local, no messages. */
pl_dist_block pl_dist_conv2d_out_block_at(const pl_dist_grid *g, int prow, int pcol, const pl_conv2d_problem *p);
pl_dist_block pl_dist_conv2d_out_block(const pl_dist_grid *g, const pl_conv2d_problem *p);

/* This rank's share of problem p (H, W, K, dtype, mode, border, flip; its ld_img, ld_out and
 * filter unused) on g. filter: the K x K filter of p's dtype, the same on every rank (copied).
 * rung: the conv2d variant every rank runs, NULL for the best one the context can run (params
 * may be NULL). overlap: PL_DIST_OVERLAP_*. g and ctx must outlive it. */
pl_status pl_dist_conv2d_create(pl_dist_conv2d_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                const int64_t *params, const pl_conv2d_problem *p, const void *filter, int overlap);
/* One convolution: in is this rank's input block (pl_dist_block_of(g, H, W), rows ld_in
 * elements apart), out its output block (pl_dist_conv2d_out_block, rows ld_out apart; not
 * touched when empty). Time adds into the plan's times. */
pl_status pl_dist_conv2d_run(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in, void *out, int64_t ld_out);
/* The rung the ranks run, this rank's time so far, and whether its runs overlap. */
const char *pl_dist_conv2d_rung(const pl_dist_conv2d_plan *c);
pl_dist_times pl_dist_conv2d_times(const pl_dist_conv2d_plan *c);
int pl_dist_conv2d_overlaps(const pl_dist_conv2d_plan *c);
void pl_dist_conv2d_destroy(pl_dist_conv2d_plan *c);
/* 1 when the plan runs on the GPU path (NCCL), 0 on the host path. Local. */
int pl_dist_conv2d_on_nccl(const pl_dist_conv2d_plan *c);
/* On the GPU path, the network model between the GPUs of ranks 0 and 1 on the plan's NCCL
 * communicator (collective); {0, 0} on the host path. */
pl_dist_model pl_dist_conv2d_gpu_model(pl_dist_conv2d_plan *c);
/* The GPU path, resident: this rank's input block to its GPU (checked as run checks it; local),
 * one run on it (collective; the output block stays on the device), and the output block back
 * (local). PL_ERR_UNSUPPORTED on the host path. */
pl_status pl_dist_conv2d_upload(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in);
pl_status pl_dist_conv2d_run_resident(pl_dist_conv2d_plan *c);
pl_status pl_dist_conv2d_download(pl_dist_conv2d_plan *c, void *out, int64_t ld_out);

/* create, run once, destroy, with overlap AUTO; the time adds into *t (may be NULL). */
pl_status pl_dist_conv2d(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_conv2d_problem *p,
                         const void *filter, const void *in, int64_t ld_in, void *out, int64_t ld_out,
                         pl_dist_times *t);

/* Every rank's output block (out, rows ld apart) into rank 0's OH x OW output (global, read
 * there only), for either mode. */
pl_status pl_dist_conv2d_gather(const pl_dist_grid *g, const pl_conv2d_problem *p, const void *out, int64_t ld,
                                void *global);

/* ---------------------------------------------------------------- entropy */

typedef struct pl_dist_entropy_plan pl_dist_entropy_plan;

/* This rank's share of problem p (H, W, k, bins, base2; its pitches unused) on g; rung NULL
 * for the best one; overlap PL_DIST_OVERLAP_*. g and ctx must outlive it. */
pl_status pl_dist_entropy_create(pl_dist_entropy_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                 const int64_t *params, const pl_entropy_problem *p, int overlap);
/* One run: in is this rank's block of values (rows ld_in apart), out its block of entropies
 * (the same block, rows ld_out apart). */
pl_status pl_dist_entropy_run(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out);
const char *pl_dist_entropy_rung(const pl_dist_entropy_plan *e);
pl_dist_times pl_dist_entropy_times(const pl_dist_entropy_plan *e);
int pl_dist_entropy_overlaps(const pl_dist_entropy_plan *e);
void pl_dist_entropy_destroy(pl_dist_entropy_plan *e);
/* As conv2d's: the path, and the GPU path's resident runs. */
int pl_dist_entropy_on_nccl(const pl_dist_entropy_plan *e);
pl_dist_model pl_dist_entropy_gpu_model(pl_dist_entropy_plan *e); /* as conv2d's */
pl_status pl_dist_entropy_upload(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in);
pl_status pl_dist_entropy_run_resident(pl_dist_entropy_plan *e);
pl_status pl_dist_entropy_download(pl_dist_entropy_plan *e, float *out, int64_t ld_out);

/* create, run once, destroy, with overlap AUTO; the time adds into *t (may be NULL). */
pl_status pl_dist_entropy(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_entropy_problem *p,
                          const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out, pl_dist_times *t);

#ifdef __cplusplus
}
#endif
#endif
