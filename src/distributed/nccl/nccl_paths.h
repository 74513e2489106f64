/* nccl_paths.h: what code in src/distributed/ that calls NCCL shares (built with NCCL only,
 * never included by the command): the communicator over a grid's ranks, one GPU a rank, and
 * NCCL's status as a pl_status. */
#ifndef PL_DIST_NCCL_H
#define PL_DIST_NCCL_H

#include "distributed/transport/distributed.h"

#include <nccl.h>

/* Whether every rank of g can take the GPU path: ready on every rank (this rank's own state so
 * far), and on every node no more ranks than GPUs (NCCL refuses two ranks on one GPU).
 * Collective over g (one MPI_Allreduce); the same answer on every rank. */
int pl_dist_nccl_usable(const pl_dist_grid *g, int ready);
/* An NCCL communicator over g's ranks (NCCL rank = grid rank) on the calling thread's current
 * device: rank 0's ncclGetUniqueId broadcast over MPI, then ncclCommInitRank. NVLink
 * multicast (NVLS) is kept off: NCCL_NVLS_ENABLE=0 is set in the environment first unless the
 * user set it. Collective over g: mine is this rank's status so far (its GPU selected); all
 * ranks agree on it first, and on ncclCommInitRank's outcome after, so a rank that failed
 * leaves none of the others waiting (every rank returns a failure then). The first communicator
 * made is kept for the process and handed out again to later grids over the same ranks, in the
 * same order, on the same device (all ranks agree first; an NCCL start costs 0.1-2 s, and a
 * plan a call is the CLI's and the tests' pattern); it is destroyed in MPI_Finalize, and
 * pl_dist_nccl_comm_destroy leaves it alone. */
pl_status pl_dist_nccl_comm_create(const pl_dist_grid *g, pl_status mine, ncclComm_t *comm);
void pl_dist_nccl_comm_destroy(ncclComm_t comm);
/* The grid's communicator and, split from it (ncclCommSplit), the process row's (NCCL ranks by
 * process column) and the process column's (by process row): SUMMA's broadcasts and the
 * reductions' combining along one dimension and gathering across the other. Collective over g;
 * on a failure what was made is destroyed and set NULL. */
typedef struct pl_dist_nccl_lines {
    ncclComm_t grid, row, col;
} pl_dist_nccl_lines;
pl_status pl_dist_nccl_lines_create(const pl_dist_grid *g, pl_status mine, pl_dist_nccl_lines *l);
void pl_dist_nccl_lines_destroy(pl_dist_nccl_lines *l);
/* The network model between GPUs (distributed.h's alpha + n/beta) on NCCL: ncclSend/ncclRecv round
 * trips between the GPUs of grid ranks 0 and 1 on comm (the others idle), alpha from 8 bytes,
 * beta from 64 MiB less alpha; the same on every rank ({0, 0} on one rank). Collective over g. */
pl_dist_model pl_dist_nccl_model_measure(const pl_dist_grid *g, ncclComm_t comm);
/* PL_OK for ncclSuccess, else PL_ERR_CUDA with what and NCCL's message. */
pl_status pl_dist_nccl_status(ncclResult_t r, const char *what);


#ifdef __cplusplus
extern "C" {
#endif
/* nccl_keys.cu, on a stream: n floats at x to int32 keys ordered as the floats, a NaN the
 * largest key (max) or the smallest (min), or back (decode); and x[i] = x[i] / d. */
pl_status pl_dist_minmax_keys(void *x, int64_t n, int max, int decode, void *stream);
pl_status pl_dist_divide_device(float *x, int64_t n, float d, void *stream);
#ifdef __cplusplus
}
#endif

#endif
