/* distributed.h: the distributed layer's face: `mpirun -n P parlab ...` runs one problem on
 * P ranks. A floor between the command (src/cli) and the kernels: it decomposes a problem over
 * a 2D Cartesian grid of ranks, exchanges halos and gathers results with MPI, and has each rank
 * compute its block with its best local rung through the kernels' usual variant API (the
 * kernels stay single-process). This header needs no mpi.h: the command and a build without MPI
 * (standin/no_mpi.c, where every call says "this build has no MPI") include it as it is. Code
 * in src/distributed/ that calls MPI itself takes the grid's communicator from mpi_comm.h.
 *
 * Conventions every distributed kernel follows (docs/architecture.md, "The distributed layer"):
 *   - MPI starts only when the process was launched by mpirun/mpiexec (pl_dist_start); a plain
 *     run never touches MPI.
 *   - Rank 0 reads the inputs, prints and writes the outputs; the other ranks print nothing.
 *   - Fault rule: at every point where a rank may fail (a file read, an allocation, a size
 *     check), EVERY rank calls pl_dist_agree (pl_dist_agree_kept, pl_dist_agree_status) with its own status,
 *     so all stop together with one message (printed by rank 0) and the status the one-process
 *     run gives (2 usage, 1 runtime); no rank is ever left waiting in a collective.
 *   - A 2D array of H x W elements is split in blocks of nearly equal rows and columns
 *     (pl_dist_block_of); sizes need not divide, but every block holds at least one row and
 *     one column: a grid of ranks larger than the array is refused (pl_dist_grid_create).
 *   - Every function that can fail returns a pl_status with its message (pl_last_error); the
 *     layer never prints or exits. */
#ifndef PL_DIST_H
#define PL_DIST_H

#include "parlab.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- the run: start, stop, ranks */

/* 1 when this build has MPI (PARLAB_MPI found it), else 0 (the stub). */
int pl_dist_built(void);
/* "Open MPI v4.1.4, ..." (the library's version line), or "no MPI in this build": for `parlab list`. */
const char *pl_dist_library(void);
/* 1 when the environment says a launcher (mpirun, mpiexec, srun) started this process: Open
 * MPI's OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK or PMI's PMI_SIZE is set. Works without MPI. */
int pl_dist_launched(void);
/* The launcher's rank of this process from the same environment (0 when not launched): lets a
 * build without MPI print its refusal once. */
int pl_dist_launched_rank(void);
/* This process's rank among the ranks of its node (0 when not launched or not said): which of
 * the node's GPUs a rank takes. */
int pl_dist_local_rank(void);
/* MPI_Init (MPI_THREAD_FUNNELED: only the main thread calls MPI; rungs use OpenMP inside) when
 * launched, else nothing. PL_OK, or PL_ERR_UNSUPPORTED from a build without MPI under a
 * launcher ("this build has no MPI"). */
pl_status pl_dist_start(int *argc, char ***argv);
/* MPI_Finalize if pl_dist_start initialised MPI. */
void pl_dist_stop(void);
/* 1 between pl_dist_start and pl_dist_stop under a launcher: the command runs distributed. */
int pl_dist_active(void);
/* This process's rank in the run and the number of ranks (0 and 1 when not active). */
int pl_dist_rank(void);
int pl_dist_size(void);
/* 1 when the command `parlab NAME` runs on the ranks of a run (on_ranks.c), else 0: the others
 * refuse under mpirun on more than one rank. */
int pl_dist_runs_command(const char *name);
/* CPU threads a rank takes by default: the cores here shared by the ranks on this node
 * (OMPI_COMM_WORLD_LOCAL_SIZE, else all ranks), at least 1; OMP_NUM_THREADS wins when set. */
int pl_dist_threads_per_rank(void);

/* The fault rule's step, collective over all ranks of the run: rc is this rank's exit status
 * so far (0 ok, 1 runtime, 2 usage), msg its message (NULL or "" when it has none). Returns the
 * status of the lowest-numbered failing rank (0 when none failed) on every rank; on rank 0,
 * first (n bytes) gets that rank's message and *from its rank (-1 when none failed). Costs one
 * MPI_Allreduce when no rank failed. Outside a run: returns rc. */
int pl_dist_agree(int rc, const char *msg, char *first, size_t n, int *from);

/* The command's side of the fault rule. On every rank but 0 of a run (pl_dist_keep_errors
 * called), a message the command would print is kept instead (pl_dist_keep_error returns 1:
 * the first one is kept), for the next pl_dist_agree_kept: the agree step over the ranks'
 * exit statuses with that kept message, which returns the agreed status on every rank and, on
 * rank 0, the failing rank's message in first when that rank was not rank 0 (rank 0 printed
 * its own already; "" otherwise). The kept message is cleared then. Outside a run: rc. */
void pl_dist_keep_errors(void);
int pl_dist_keep_error(const char *msg);
int pl_dist_agree_kept(int rc, char *first, size_t n);
/* The fault rule on a status: mine is this rank's (its message in pl_last_error()). Returns
 * the status of the lowest-numbered failing rank on every rank (PL_OK when none failed); rank
 * 0 then holds that rank's message as it was (pl_last_error), so the command prints it once.
 * Collective; outside a run: mine. */
pl_status pl_dist_agree_status(pl_status mine);

/* bytes at buf from rank 0 to every rank of the run (what rank 0 alone read: sizes, a rule).
 * Collective; nothing outside a run. */
void pl_dist_bcast(void *buf, size_t bytes);

/* ---- GPUs and NCCL: one rank a GPU, the exchanges between GPUs on NCCL */
/* How many ranks this process's node runs (OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS,
 * SLURM_NTASKS_PER_NODE; 1 when none is set): NCCL needs a GPU for each. Works without MPI. */
int pl_dist_local_size(void);
/* 1 when this build has NCCL (PARLAB_NCCL found it: nccl_*.c), else 0 (no_nccl.c). */
int pl_dist_nccl_built(void);
/* "NCCL 2.28.3" (the library's own version), or "no NCCL in this build": for `parlab list`. */
const char *pl_dist_nccl_library(void);

/* ---------------------------------------------------------------- the process grid */

/* The 8 neighbour directions and the block itself, dir = (dy + 1) * 3 + (dx + 1): dy -1 is the
 * rows above (north), dx -1 the columns to the left (west). PL_DIST_HERE (4) is the block. */
enum { PL_DIST_NW, PL_DIST_N, PL_DIST_NE, PL_DIST_W, PL_DIST_HERE, PL_DIST_E, PL_DIST_SW, PL_DIST_S, PL_DIST_SE,
       PL_DIST_DIRS };
#define PL_DIST_DY(dir) ((dir) / 3 - 1)
#define PL_DIST_DX(dir) ((dir) % 3 - 1)
enum { PL_DIST_NONE = -1 }; /* no neighbour that way (the edge of a grid that is not periodic) */

struct pl_dist_comm; /* the MPI communicator (mpi_comm.h) */

/* A 2D Cartesian grid of ranks (MPI_Cart_create over all ranks of the run, ranks kept in
 * order: grid rank 0 is the run's rank 0). Process row r holds the array's r-th band of rows. */
typedef struct pl_dist_grid {
    int size, rank;           /* ranks in the grid, this one */
    int dims[2];              /* process rows, process columns */
    int coords[2];            /* this rank's (process row, process column) */
    int periodic;             /* 1: both dimensions wrap (a torus), 0: a bounded plane */
    int nbr[PL_DIST_DIRS];    /* the rank in each direction, PL_DIST_NONE past an edge; nbr[HERE] = rank */
    struct pl_dist_comm *comm;
} pl_dist_grid;

/* The grid of all ranks for an H x W array: MPI_Dims_create's near-square factors of P, the
 * larger count along the array's longer side, then MPI_Cart_create. PL_ERR_ARG when the grid
 * has more process rows than the array has rows, or more process columns than columns ("P
 * larger than rows": no block may be empty), decided identically on every rank. Collective. */
pl_status pl_dist_grid_create(pl_dist_grid *g, int64_t H, int64_t W, int periodic);
/* The same with P process rows and one column (each rank a band of whole rows) where P <= H,
 * else as pl_dist_grid_create. A kernel asks for it where a band costs less than a squarer block
 * (Life on the CPU: no halo columns, life_ranks.h). */
pl_status pl_dist_grid_create_bands(pl_dist_grid *g, int64_t H, int64_t W, int periodic);
void pl_dist_grid_destroy(pl_dist_grid *g);

/* A rank's block of an H x W array: rows y0..y1-1, columns x0..x1-1 (global indices). */
typedef struct pl_dist_block {
    int64_t y0, y1, x0, x1;
} pl_dist_block;
/* The block of the rank at grid coordinates (prow, pcol): H split into dims[0] bands whose sizes
 * differ by at most one (the first H % dims[0] bands one row longer), W likewise. */
pl_dist_block pl_dist_block_at(const pl_dist_grid *g, int prow, int pcol, int64_t H, int64_t W);
/* This rank's block. */
pl_dist_block pl_dist_block_of(const pl_dist_grid *g, int64_t H, int64_t W);
/* The smallest block's rows and columns: a halo may be at most this deep (the halo comes from
 * the next rank alone). */
void pl_dist_block_min(const pl_dist_grid *g, int64_t H, int64_t W, int64_t *min_rows, int64_t *min_cols);

/* ---------------------------------------------------------------- time, per rank */

/* Where a rank's time went: compute (its local rung), exchange (packing halos, posting and
 * completing messages), wait (blocked in MPI_Wait*, for the slowest neighbour or the network). */
typedef struct pl_dist_times {
    double compute, exchange, wait; /* seconds */
} pl_dist_times;

/* ---------------------------------------------------------------- scatter and gather */

/* Rank 0's H x W array (row-major, elem bytes an element, rows of W elements) split into the
 * ranks' blocks: each rank receives its block into local (its first element; rows ld elements
 * apart, ld >= the block's columns). global is read on rank 0 only. Collective. */
pl_status pl_dist_scatter(const pl_dist_grid *g, const void *global, int64_t H, int64_t W, size_t elem, void *local,
                          int64_t ld);
/* The reverse: every rank's block (local, rows ld elements apart) into rank 0's global array. */
pl_status pl_dist_gather(const pl_dist_grid *g, const void *local, int64_t ld, void *global, int64_t H, int64_t W,
                         size_t elem);

/* ---------------------------------------------------------------- halo exchange */

/* A planned halo exchange with the 8 neighbours (corners included), built once and started
 * every step (persistent non-blocking requests). Split in begin and end so a rank updates the
 * interior of its block, which needs no halo, while the messages travel:
 *     pl_dist_halo_begin(x, &t);  update the interior;  pl_dist_halo_end(x, &t);  update the rim.
 * Two kinds of plan:
 *   - an array of any element size (pl_dist_halo_create): MPI subarray types, no copies;
 *   - byte buffers the caller packs and unpacks itself (pl_dist_halo_create_buffers), for data
 *     that are not whole elements (Life's bit-packed rows). */
typedef struct pl_dist_halo pl_dist_halo;

/* The halo of depth d of a block of h x w elements of elem bytes: the local array has h + 2d
 * rows of ld >= w + 2d elements from base, the block at row d, column d. Each halo side (and
 * corner) that has a neighbour receives that neighbour's d rows / columns next to it; a side at
 * the edge of a plane is not written (the caller fills it: zero, clamp, reflect). d <= h and
 * d <= w of every block (pl_dist_block_min), else PL_ERR_ARG. Collective only in that all
 * neighbours must plan the same d. */
pl_status pl_dist_halo_create(pl_dist_halo **x, const pl_dist_grid *g, void *base, size_t elem, int64_t ld,
                              int64_t h, int64_t w, int d);
/* A plan over buffers: for each direction dir (not PL_DIST_HERE) with a neighbour, send[dir]
 * (send_bytes[dir]) goes to that neighbour, and recv[dir] (recv_bytes[dir]) receives what it
 * sends this way (its buffer for the opposite direction). Sizes 0 send nothing. */
pl_status pl_dist_halo_create_buffers(pl_dist_halo **x, const pl_dist_grid *g, void *const send[PL_DIST_DIRS],
                                      const size_t send_bytes[PL_DIST_DIRS], void *const recv[PL_DIST_DIRS],
                                      const size_t recv_bytes[PL_DIST_DIRS]);
/* Post every receive and send (time into t->exchange). */
void pl_dist_halo_begin(pl_dist_halo *x, pl_dist_times *t);
/* Wait for them all (time blocked into t->wait): the halo is in place, the sends' data free. */
void pl_dist_halo_end(pl_dist_halo *x, pl_dist_times *t);
void pl_dist_halo_destroy(pl_dist_halo *x);

/* ---------------------------------------------------------------- measuring (mpi-io-bench) */
/* What `parlab bench` and `parlab mem pingpong|halo` need under mpirun (src/distributed/transport/measure.c).
 * Each is collective over all ranks of the run; outside a run each is the one-process answer. */

/* Every rank waits here until all arrive (MPI_Barrier). */
void pl_dist_barrier(void);
/* The largest x of all ranks, on every rank (the slowest rank's time). */
double pl_dist_max(double x);
/* Each part of the ranks' times at its largest over the ranks, on every rank. */
pl_dist_times pl_dist_times_max(const pl_dist_times *mine);
/* The other ranks wait, without spinning on the cores, while rank 0 works alone (a one-rank
 * baseline): rank 0 calls it when done, the others call it at once and return then. */
void pl_dist_idle_until_root(void);

/* Ping-pong between ranks 0 and 1 (the others idle): reps round trips of bytes each way after
 * a warm-up; the median one-way time in seconds on every rank (0 on fewer than 2 ranks). */
double pl_dist_pingpong(size_t bytes, int reps);

/* One N x N float32 block's halo exchange of depth d on every rank of a torus of ranks (the
 * stencils' 8 messages): reps exchanges after two warm-ups, each after a barrier; the slowest
 * rank's median time on every rank (`parlab mem halo`). */
pl_status pl_dist_halo_time(int64_t N, int d, int reps, double *seconds);

/* The network model (docs/scale-out.md): a message of n bytes costs alpha + n / beta. */
typedef struct pl_dist_model {
    double alpha; /* seconds a message (latency) */
    double beta;  /* bytes a second (bandwidth) */
} pl_dist_model;
/* alpha from the ping-pong of 8 bytes, beta from 4 MiB's time less alpha (16 round trips): about 50 ms. */
pl_dist_model pl_dist_model_measure(void);
/* The model's time for msgs messages carrying bytes in all, one after another. */
static inline double pl_dist_model_time(const pl_dist_model *m, double msgs, double bytes)
{
    return msgs * m->alpha + (m->beta > 0 ? bytes / m->beta : 0);
}

#ifdef __cplusplus
}
#endif
#endif
