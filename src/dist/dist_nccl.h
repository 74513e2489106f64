/* dist_nccl.h: what code in src/dist/ that calls NCCL shares (issue 24; built with NCCL only,
 * never included by the command): the communicator over a grid's ranks, one GPU a rank, and
 * NCCL's status as a pl_status. */
#ifndef PL_DIST_NCCL_H
#define PL_DIST_NCCL_H

#include "dist/dist.h"

#include <nccl.h>

/* Whether every rank of g can take the GPU path: ready on every rank (this rank's own state so
 * far), and on every node no more ranks than GPUs (NCCL refuses two ranks on one GPU).
 * Collective over g (one MPI_Allreduce); the same answer on every rank. */
int pl_dist_nccl_usable(const pl_dist_grid *g, int ready);
/* An NCCL communicator over g's ranks (NCCL rank = grid rank) on the calling thread's current
 * device: rank 0's ncclGetUniqueId broadcast over MPI, then ncclCommInitRank. NVLink
 * multicast (NVLS) is kept off: NCCL_NVLS_ENABLE=0 is set in the environment first unless the
 * user set it. Collective over g. */
pl_status pl_dist_nccl_comm_create(const pl_dist_grid *g, ncclComm_t *comm);
void pl_dist_nccl_comm_destroy(ncclComm_t comm);
/* PL_OK for ncclSuccess, else PL_ERR_CUDA with what and NCCL's message. */
pl_status pl_dist_nccl_status(ncclResult_t r, const char *what);

#endif
