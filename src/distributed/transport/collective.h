/* collective.h: what the layer's collective library calls (summa.h, reduce_ranks.h) share,
 * inside src/distributed/ only (it needs mpi.h): the grid's process rows and columns as
 * communicators (grid_lines.c), one verdict for every rank of a call (fault_rule.c), the local
 * rung a rank runs (local_rung.c). */
#ifndef PL_DIST_CALLS_H
#define PL_DIST_CALLS_H

#include "distributed/transport/mpi_comm.h"

/* A rank's process row and process column as communicators (MPI_Cart_sub of the grid's): in
 * row, ranks are numbered by process column (a rank's number there is its coords[1]); in col,
 * by process row (coords[0]). */
typedef struct pl_dist_lines {
    MPI_Comm row, col;
} pl_dist_lines;
/* Collective over the grid. */
void pl_dist_lines_create(const pl_dist_grid *g, pl_dist_lines *l);
void pl_dist_lines_destroy(pl_dist_lines *l);

/* The fault rule inside a library call (pl_dist_agree over the run's ranks, which the grid
 * holds all of): mine is this rank's status so far (its message in pl_last_error()). Returns
 * the status of the lowest-numbered failing rank on every rank (PL_OK when none failed); the
 * failing rank keeps its own message, rank 0 gets that rank's ("rank R: ..."), the others say
 * another rank failed. Collective. */
pl_status pl_dist_verdict(pl_status mine);

/* The local rung of kernel k a rank runs: *name, or best (the kernel's best rung for ctx, NULL
 * when none) when *name is NULL. PL_OK when ctx can run it, else why not (every rank's own
 * check, for pl_dist_verdict). */
pl_status pl_dist_rung_check(pl_ctx *ctx, const pl_kernel *k, const char *best, const char **name);
/* The rung as pl_dist_rung_check resolves it when it is a CUDA rung ctx (a CUDA context) can
 * run, else NULL: whether this rank can take a GPU path (nccl_*.c). */
const pl_variant *pl_dist_cuda_rung(pl_ctx *ctx, const pl_kernel *k, const char *best, const char *name);

/* The bands of a distributed reduction's outputs across the other dimension of the grid (axis
 * 1: one a process row, its rows of H; axis 0: one a process column, its columns of W): the
 * outputs' count and first index of each (reduce_ranks.c; the host and the NCCL paths). */
void pl_dist_reduce_bands(const pl_dist_grid *g, int axis, int64_t H, int64_t W, int *counts, int *displs);

#endif
