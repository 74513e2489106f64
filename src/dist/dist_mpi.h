/* dist_mpi.h: what code in src/dist/ that calls MPI itself shares (never included by the command
 * or a build without MPI): the grid's communicator, and an element of elem bytes as an MPI type. */
#ifndef PL_DIST_MPI_H
#define PL_DIST_MPI_H

#include "dist/dist.h"

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

#endif
