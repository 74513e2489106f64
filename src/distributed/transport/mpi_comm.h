/* mpi_comm.h: what code in src/distributed/ that calls MPI itself shares (never included by the command
 * or a build without MPI): the grid's communicator, and an element of elem bytes as an MPI type. */
#ifndef PL_DIST_MPI_H
#define PL_DIST_MPI_H

#include "distributed/transport/distributed.h"

#include <mpi.h>

struct pl_dist_comm {
    MPI_Comm comm; /* the Cartesian communicator of the grid */
};

/* The grid's communicator. */
static inline MPI_Comm pl_dist_comm_of(const pl_dist_grid *g) { return g->comm->comm; }

/* A committed MPI type of elem bytes (free it with MPI_Type_free). */
MPI_Datatype pl_dist_elem_type(size_t elem);
/* A committed type for rows r0..r0+nr-1, columns c0..c0+nc-1 of a rows x cols array of et
 * (MPI_Type_create_subarray); PL_ERR_OVERFLOW when a size passes MPI's int counts. */
pl_status pl_dist_rect_type(int64_t rows, int64_t cols, int64_t r0, int64_t c0, int64_t nr, int64_t nc,
                            MPI_Datatype et, MPI_Datatype *out);

/* The rows (or columns) of a block of n with a halo d a side, counted from the halo's first
 * index: the part sent toward offset k (-1, 0, 1: the block's first d, all n, or last d) and
 * the part received from that way (the halo before, the block's span, the halo after). */
void pl_dist_halo_send_span(int k, int64_t n, int64_t d, int64_t *lo, int64_t *len);
void pl_dist_halo_recv_span(int k, int64_t n, int64_t d, int64_t *lo, int64_t *len);

#endif
