/* rank_grid.c: the 2D Cartesian grid of ranks (see distributed.h): its shape (MPI_Dims_create, turned to
 * the array's longer side; another factoring of P only when that one leaves a rank no row or
 * column), its communicator (MPI_Cart_create, rank order kept), each rank's 8 neighbours, the
 * blocks of an array over it, and the ranks' times gathered to rank 0. */
#include "core/core.h"
#include "distributed/transport/mpi_comm.h"

#include <stdlib.h>
#include <string.h>

/* Band i of n of a length: the first len % n bands one longer. */
static void band(int64_t len, int n, int i, int64_t *lo, int64_t *hi)
{
    const int64_t base = len / n, extra = len % n;
    *lo = base * i + (i < extra ? i : extra);
    *hi = *lo + base + (i < extra ? 1 : 0);
}

pl_dist_block pl_dist_block_at(const pl_dist_grid *g, int prow, int pcol, int64_t H, int64_t W)
{
    pl_dist_block b;
    band(H, g->dims[0], prow, &b.y0, &b.y1);
    band(W, g->dims[1], pcol, &b.x0, &b.x1);
    return b;
}

pl_dist_block pl_dist_block_of(const pl_dist_grid *g, int64_t H, int64_t W)
{
    return pl_dist_block_at(g, g->coords[0], g->coords[1], H, W);
}

void pl_dist_block_min(const pl_dist_grid *g, int64_t H, int64_t W, int64_t *min_rows, int64_t *min_cols)
{
    *min_rows = H / g->dims[0]; /* the last bands are the short ones */
    *min_cols = W / g->dims[1];
}

/* The process rows and columns for P ranks on an H x W array: MPI_Dims_create's (the larger
 * along the longer side); if a rank would get no row or column, the factoring of P that fits
 * with the squarest blocks. 0 when none fits (P larger than rows or columns). */
static int choose_dims(int P, int64_t H, int64_t W, int dims[2])
{
    int d[2] = {0, 0};
    MPI_Dims_create(P, 2, d); /* d[0] >= d[1] */
    dims[0] = W > H ? d[1] : d[0];
    dims[1] = W > H ? d[0] : d[1];
    if (dims[0] <= H && dims[1] <= W) return 1;
    double best = -1;
    for (int pr = 1; pr <= P; pr++) {
        if (P % pr || pr > H || P / pr > W) continue;
        const double bh = (double)H / pr, bw = (double)W / (P / pr);
        const double squareness = bh < bw ? bh / bw : bw / bh;
        if (squareness > best) best = squareness, dims[0] = pr, dims[1] = P / pr;
    }
    return best >= 0;
}

/* The grid over dims chosen for the shape, or P x 1 (bands of whole rows) where asked and P <= H. */
static pl_status grid_create(pl_dist_grid *g, int64_t H, int64_t W, int periodic, int bands)
{
    memset(g, 0, sizeof *g);
    int P = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (H < 1 || W < 1)
        return pl_fail(PL_ERR_ARG, "an empty %lldx%lld array cannot be split over ranks", (long long)H, (long long)W);
    if (bands && P <= H) g->dims[0] = P, g->dims[1] = 1;
    else if (!choose_dims(P, H, W, g->dims))
        return pl_fail(PL_ERR_ARG,
                       "%d ranks for a %lldx%lld array (rows x columns): P larger than rows or columns, no grid of "
                       "%d ranks gives each rank at least one row and one column; run on fewer ranks",
                       P, (long long)H, (long long)W, P);
    const int periods[2] = {periodic, periodic};
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, g->dims, periods, 0, &cart); /* collective: before anything may fail */
    if (!(g->comm = malloc(sizeof *g->comm))) {
        MPI_Comm_free(&cart);
        return pl_fail(PL_ERR_NOMEM, "cannot allocate the grid of ranks");
    }
    g->comm->comm = cart;
    g->periodic = periodic;
    MPI_Comm_size(g->comm->comm, &g->size);
    MPI_Comm_rank(g->comm->comm, &g->rank);
    MPI_Cart_coords(g->comm->comm, g->rank, 2, g->coords);
    for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
        int c[2] = {g->coords[0] + PL_DIST_DY(dir), g->coords[1] + PL_DIST_DX(dir)};
        int inside = 1;
        for (int k = 0; k < 2; k++) {
            if (periodic) c[k] = (c[k] + g->dims[k]) % g->dims[k];
            else if (c[k] < 0 || c[k] >= g->dims[k]) inside = 0;
        }
        g->nbr[dir] = PL_DIST_NONE;
        if (inside) MPI_Cart_rank(g->comm->comm, c, &g->nbr[dir]);
    }
    return PL_OK;
}

pl_status pl_dist_grid_create(pl_dist_grid *g, int64_t H, int64_t W, int periodic)
{
    return grid_create(g, H, W, periodic, 0);
}

pl_status pl_dist_grid_create_bands(pl_dist_grid *g, int64_t H, int64_t W, int periodic)
{
    return grid_create(g, H, W, periodic, 1);
}

void pl_dist_grid_destroy(pl_dist_grid *g)
{
    if (!g || !g->comm) return;
    MPI_Comm_free(&g->comm->comm);
    free(g->comm);
    g->comm = NULL;
}

MPI_Datatype pl_dist_elem_type(size_t elem)
{
    MPI_Datatype t;
    MPI_Type_contiguous((int)elem, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    return t;
}

pl_status pl_dist_rect_type(int64_t rows, int64_t cols, int64_t r0, int64_t c0, int64_t nr, int64_t nc,
                            MPI_Datatype et, MPI_Datatype *out)
{
    if (rows > INT32_MAX || cols > INT32_MAX)
        return pl_fail(PL_ERR_OVERFLOW, "a %lldx%lld array passes MPI's int counts", (long long)rows, (long long)cols);
    const int sizes[2] = {(int)rows, (int)cols}, sub[2] = {(int)nr, (int)nc}, starts[2] = {(int)r0, (int)c0};
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, et, out);
    MPI_Type_commit(out);
    return PL_OK;
}
