/* scatter.c: rank 0's whole 2D array to the ranks' blocks and back (see distributed.h). Rank 0 sends
 * each rank its block straight out of the array (a subarray type: no copy), every rank receives
 * into its own rows ld apart (a vector type), rank 0 copies its own block; gather is the
 * mirror. A block always has a row and a column (pl_dist_grid_create). */
#include "core/core.h"
#include "distributed/transport/mpi_comm.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_BLOCK = 100 };

/* The rows of a block, ld elements apart, as one type. */
static MPI_Datatype block_rows_type(const pl_dist_block *b, int64_t ld, MPI_Datatype et)
{
    MPI_Datatype t;
    MPI_Type_vector((int)(b->y1 - b->y0), (int)(b->x1 - b->x0), (int)ld, et, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Rank 0's own block between the global array and its local rows. */
static void copy_own(const pl_dist_block *b, int64_t W, size_t elem, void *global, void *local, int64_t ld,
                     int to_local)
{
    const size_t row = (size_t)(b->x1 - b->x0) * elem;
    for (int64_t y = b->y0; y < b->y1; y++) {
        char *gl = (char *)global + ((size_t)y * (size_t)W + (size_t)b->x0) * elem;
        char *lo = (char *)local + (size_t)(y - b->y0) * (size_t)ld * elem;
        if (to_local) memcpy(lo, gl, row);
        else memcpy(gl, lo, row);
    }
}

/* Scatter (to_local) or gather: rank 0 exchanges a block with every other rank. */
static pl_status move_blocks(const pl_dist_grid *g, void *global, int64_t H, int64_t W, size_t elem, void *local,
                             int64_t ld, int to_local)
{
    if (H > INT32_MAX || W > INT32_MAX || ld > INT32_MAX)
        return pl_fail(PL_ERR_OVERFLOW, "a %lldx%lld array passes MPI's int counts", (long long)H, (long long)W);
    MPI_Comm comm = pl_dist_comm_of(g);
    MPI_Datatype et = pl_dist_elem_type(elem);
    const pl_dist_block mine = pl_dist_block_of(g, H, W);
    pl_status s = PL_OK;
    if (g->rank != 0) {
        MPI_Datatype t = block_rows_type(&mine, ld, et);
        if (to_local) MPI_Recv(local, 1, t, 0, TAG_BLOCK, comm, MPI_STATUS_IGNORE);
        else MPI_Send(local, 1, t, 0, TAG_BLOCK, comm);
        MPI_Type_free(&t);
    } else {
        MPI_Request *req = malloc(sizeof *req * (size_t)g->size);
        MPI_Datatype *types = malloc(sizeof *types * (size_t)g->size);
        if (!req || !types) {
            /* the others are already waiting on rank 0: serve them one at a time instead */
            free(req), free(types), req = NULL, types = NULL;
        }
        int n = 0;
        for (int r = 1; r < g->size; r++) {
            int c[2];
            MPI_Cart_coords(comm, r, 2, c);
            const pl_dist_block b = pl_dist_block_at(g, c[0], c[1], H, W);
            MPI_Datatype t;
            pl_dist_rect_type(H, W, b.y0, b.x0, b.y1 - b.y0, b.x1 - b.x0, et, &t);
            if (req) {
                if (to_local) MPI_Isend(global, 1, t, r, TAG_BLOCK, comm, &req[n]);
                else MPI_Irecv(global, 1, t, r, TAG_BLOCK, comm, &req[n]);
                types[n++] = t;
            } else {
                if (to_local) MPI_Send(global, 1, t, r, TAG_BLOCK, comm);
                else MPI_Recv(global, 1, t, r, TAG_BLOCK, comm, MPI_STATUS_IGNORE);
                MPI_Type_free(&t);
            }
        }
        copy_own(&mine, W, elem, global, local, ld, to_local);
        if (req) {
            MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
            for (int i = 0; i < n; i++) MPI_Type_free(&types[i]);
        }
        free(req), free(types);
    }
    MPI_Type_free(&et);
    return s;
}

pl_status pl_dist_scatter(const pl_dist_grid *g, const void *global, int64_t H, int64_t W, size_t elem, void *local,
                          int64_t ld)
{
    return move_blocks(g, (void *)global, H, W, elem, local, ld, 1);
}

pl_status pl_dist_gather(const pl_dist_grid *g, const void *local, int64_t ld, void *global, int64_t H, int64_t W,
                         size_t elem)
{
    return move_blocks(g, global, H, W, elem, (void *)local, ld, 0);
}
