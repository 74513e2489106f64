/* halo.c: the halo exchange with the 8 neighbours (see distributed.h), planned once as persistent
 * requests (MPI_Send_init / MPI_Recv_init) and started every step (MPI_Startall), so a step
 * costs no type building or matching set-up. A message sent toward direction dir carries tag
 * dir; the one received from the neighbour in direction dir was sent the opposite way, tag
 * 8 - dir. Tags keep apart the messages of two directions that reach the same rank (two
 * ranks along a periodic dimension are each other's north and south; one rank is its own
 * neighbour every way). Receives are started before sends. */
#include "core/core.h"
#include "distributed/transport/mpi_comm.h"

#include <stdlib.h>
#include <string.h>

struct pl_dist_halo {
    int n_req, n_types;
    MPI_Request req[2 * PL_DIST_DIRS];
    MPI_Datatype types[2 * PL_DIST_DIRS];
};

static int opposite(int dir) { return PL_DIST_DIRS - 1 - dir; }

void pl_dist_halo_send_span(int k, int64_t n, int64_t d, int64_t *lo, int64_t *len)
{
    *lo = k < 0 ? d : k == 0 ? d : n; /* the block's first d, all n, or last d (from d + n - d) */
    *len = k == 0 ? n : d;
}
void pl_dist_halo_recv_span(int k, int64_t n, int64_t d, int64_t *lo, int64_t *len)
{
    *lo = k < 0 ? 0 : k == 0 ? d : d + n;
    *len = k == 0 ? n : d;
}

static pl_status halo_alloc(pl_dist_halo **x)
{
    if (!(*x = calloc(1, sizeof **x))) return pl_fail(PL_ERR_NOMEM, "cannot allocate a halo exchange plan");
    return PL_OK;
}

pl_status pl_dist_halo_create(pl_dist_halo **out, const pl_dist_grid *g, void *base, size_t elem, int64_t ld,
                              int64_t h, int64_t w, int d)
{
    *out = NULL;
    if (d < 0 || d > h || d > w || ld < w + 2 * (int64_t)d)
        return pl_fail(PL_ERR_ARG, "halo depth %d for a %lldx%lld block (rows %lld apart): the halo must be 0..%lld",
                       d, (long long)h, (long long)w, (long long)ld, (long long)(h < w ? h : w));
    pl_dist_halo *x;
    pl_status s = halo_alloc(&x);
    if (s != PL_OK || d == 0) return *out = x, s;
    MPI_Comm comm = pl_dist_comm_of(g);
    MPI_Datatype et = pl_dist_elem_type(elem);
    for (int pass = 0; pass < 2 && s == PL_OK; pass++) /* receives, then sends */
        for (int dir = 0; dir < PL_DIST_DIRS && s == PL_OK; dir++) {
            if (dir == PL_DIST_HERE || g->nbr[dir] == PL_DIST_NONE) continue;
            int64_t r0, nr, c0, nc;
            (pass ? pl_dist_halo_send_span : pl_dist_halo_recv_span)(PL_DIST_DY(dir), h, d, &r0, &nr);
            (pass ? pl_dist_halo_send_span : pl_dist_halo_recv_span)(PL_DIST_DX(dir), w, d, &c0, &nc);
            MPI_Datatype t;
            if ((s = pl_dist_rect_type(h + 2 * (int64_t)d, ld, r0, c0, nr, nc, et, &t)) != PL_OK) break;
            x->types[x->n_types++] = t;
            if (pass) MPI_Send_init(base, 1, t, g->nbr[dir], dir, comm, &x->req[x->n_req++]);
            else MPI_Recv_init(base, 1, t, g->nbr[dir], opposite(dir), comm, &x->req[x->n_req++]);
        }
    MPI_Type_free(&et);
    if (s != PL_OK) pl_dist_halo_destroy(x), x = NULL;
    *out = x;
    return s;
}

pl_status pl_dist_halo_create_buffers(pl_dist_halo **out, const pl_dist_grid *g, void *const send[PL_DIST_DIRS],
                                      const size_t send_bytes[PL_DIST_DIRS], void *const recv[PL_DIST_DIRS],
                                      const size_t recv_bytes[PL_DIST_DIRS])
{
    *out = NULL;
    for (int dir = 0; dir < PL_DIST_DIRS; dir++)
        if (send_bytes[dir] > INT32_MAX || recv_bytes[dir] > INT32_MAX)
            return pl_fail(PL_ERR_OVERFLOW, "a halo message of %zu bytes passes MPI's int counts",
                           send_bytes[dir] > recv_bytes[dir] ? send_bytes[dir] : recv_bytes[dir]);
    pl_dist_halo *x;
    pl_status s = halo_alloc(&x);
    if (s != PL_OK) return s;
    MPI_Comm comm = pl_dist_comm_of(g);
    for (int pass = 0; pass < 2; pass++)
        for (int dir = 0; dir < PL_DIST_DIRS; dir++) {
            if (dir == PL_DIST_HERE || g->nbr[dir] == PL_DIST_NONE) continue;
            if (pass && send_bytes[dir])
                MPI_Send_init(send[dir], (int)send_bytes[dir], MPI_BYTE, g->nbr[dir], dir, comm, &x->req[x->n_req++]);
            if (!pass && recv_bytes[dir])
                MPI_Recv_init(recv[dir], (int)recv_bytes[dir], MPI_BYTE, g->nbr[dir], opposite(dir), comm,
                              &x->req[x->n_req++]);
        }
    *out = x;
    return PL_OK;
}

void pl_dist_halo_begin(pl_dist_halo *x, pl_dist_times *t)
{
    const double t0 = pl_now();
    if (x->n_req) MPI_Startall(x->n_req, x->req);
    if (t) t->exchange += pl_now() - t0;
}

void pl_dist_halo_end(pl_dist_halo *x, pl_dist_times *t)
{
    const double t0 = pl_now();
    if (x->n_req) MPI_Waitall(x->n_req, x->req, MPI_STATUSES_IGNORE);
    if (t) t->wait += pl_now() - t0;
}

void pl_dist_halo_destroy(pl_dist_halo *x)
{
    if (!x) return;
    for (int i = 0; i < x->n_req; i++) MPI_Request_free(&x->req[i]);
    for (int i = 0; i < x->n_types; i++) MPI_Type_free(&x->types[i]);
    free(x);
}
