/* grid_lines.c: a grid's process rows and columns as communicators (see collective.h), for the
 * broadcasts and reductions that run along one dimension of the grid (SUMMA's panels, a
 * reduction's partials). */
#include "distributed/transport/collective.h"

void pl_dist_lines_create(const pl_dist_grid *g, pl_dist_lines *l)
{
    const int keep_columns[2] = {0, 1}, keep_rows[2] = {1, 0};
    MPI_Cart_sub(pl_dist_comm_of(g), keep_columns, &l->row);
    MPI_Cart_sub(pl_dist_comm_of(g), keep_rows, &l->col);
}

void pl_dist_lines_destroy(pl_dist_lines *l)
{
    MPI_Comm_free(&l->row);
    MPI_Comm_free(&l->col);
}
