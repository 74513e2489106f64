/* nccl_comm.c: NCCL under the distributed layer: whether every rank has a GPU of its
 * own, the communicator over a grid's ranks (rank 0's unique id broadcast on MPI), and the
 * library's version for `parlab list`. */
#include "core/core.h"
#include "core/device.h"
#include "distributed/transport/mpi_comm.h"
#include "distributed/nccl/nccl_paths.h"
#include "harness/harness.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int pl_dist_nccl_built(void) { return 1; }

const char *pl_dist_nccl_library(void)
{
    static char buf[32];
    int v = 0;
    ncclGetVersion(&v); /* 22803 for 2.28.3 (versions >= 2.9: major * 10000 + minor * 100 + patch) */
    snprintf(buf, sizeof buf, "NCCL %d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    return buf;
}

pl_status pl_dist_nccl_status(ncclResult_t r, const char *what)
{
    if (r == ncclSuccess) return PL_OK;
    return pl_fail(PL_ERR_CUDA, "%s: NCCL: %s", what, ncclGetErrorString(r));
}

int pl_dist_nccl_usable(const pl_dist_grid *g, int ready)
{
    int mine = ready && pl_dev_count() >= pl_dist_local_size(), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, pl_dist_comm_of(g));
    return all;
}

/* Every rank's ok agreed (MPI_Allreduce): PL_OK when all are, else this rank's own failure or
 * "another rank" (what). */
static pl_status agreed(const pl_dist_grid *g, pl_status mine, const char *what)
{
    int ok = mine == PL_OK, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, pl_dist_comm_of(g));
    if (all) return PL_OK;
    return mine != PL_OK ? mine : pl_fail(PL_ERR_CUDA, "NCCL: another rank %s", what);
}

/* The communicator kept for reuse (one a process): an NCCL start costs 0.1-2 s (more with more
 * ranks), and a grid's plans come and go (every `parlab conv2d` call, each case of a test), all
 * over the same ranks. Kept: the first communicator made while none is kept, with the group of
 * MPI ranks it spans (in the grid's order), the device it was made on and a tag every rank of
 * it shares (from the unique id); destroyed when MPI finalizes (an attribute of MPI_COMM_SELF,
 * whose attributes MPI deletes first in MPI_Finalize). */
static struct {
    ncclComm_t comm;
    MPI_Group group;
    int device;
    long long tag;
} kept_ = {NULL, MPI_GROUP_NULL, -1, -1};

static int drop_kept(MPI_Comm self, int key, void *value, void *extra)
{
    (void)self, (void)key, (void)value, (void)extra;
    if (kept_.comm) ncclCommDestroy(kept_.comm);
    if (kept_.group != MPI_GROUP_NULL) MPI_Group_free(&kept_.group);
    kept_.comm = NULL, kept_.device = -1, kept_.tag = -1;
    return MPI_SUCCESS;
}

/* A tag from the unique id, the same on every rank that received it: 62 bits of FNV-1a. */
static long long id_tag(const ncclUniqueId *id)
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < sizeof id->internal; i++) h = (h ^ (unsigned char)id->internal[i]) * 1099511628211ULL;
    return (long long)(h >> 2);
}

/* Whether every rank of g holds the same kept communicator for g's ranks on its current
 * device: each rank's own look, then one MPI_Allreduce (MIN of the tag and of minus the tag:
 * all alike only when the two meet). Collective over g. */
static int kept_fits(const pl_dist_grid *g)
{
    long long v[2] = {-1, LLONG_MIN + 1};
    int device = -1, same = MPI_UNEQUAL;
    if (kept_.comm && pl_dev_current(&device) == PL_OK && device == kept_.device) {
        MPI_Group mine;
        MPI_Comm_group(pl_dist_comm_of(g), &mine);
        MPI_Group_compare(mine, kept_.group, &same);
        MPI_Group_free(&mine);
    }
    if (same == MPI_IDENT) v[0] = kept_.tag, v[1] = -kept_.tag;
    long long all[2];
    MPI_Allreduce(v, all, 2, MPI_LONG_LONG, MPI_MIN, pl_dist_comm_of(g));
    return all[0] >= 0 && all[0] == -all[1];
}

/* Keep comm (just made over g, tag from its id) when none is kept. Local. */
static void keep(const pl_dist_grid *g, ncclComm_t comm, long long tag)
{
    static int key = MPI_KEYVAL_INVALID;
    if (kept_.comm || pl_dev_current(&kept_.device) != PL_OK) return;
    if (key == MPI_KEYVAL_INVALID &&
        (MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, drop_kept, &key, NULL) != MPI_SUCCESS ||
         MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL) != MPI_SUCCESS))
        return; /* no way to free it at the end: not kept */
    MPI_Comm_group(pl_dist_comm_of(g), &kept_.group);
    kept_.comm = comm, kept_.tag = tag;
}

pl_status pl_dist_nccl_comm_create(const pl_dist_grid *g, pl_status mine, ncclComm_t *comm)
{
    *comm = NULL;
    /* a rank that failed before (its GPU not selected) must not leave the others waiting in the
     * id's broadcast or in ncclCommInitRank: all agree first */
    pl_status s = agreed(g, mine, "could not start its GPU");
    if (s != PL_OK) return s;
    if (kept_fits(g)) {
        *comm = kept_.comm;
        return PL_OK;
    }
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* no NVLink multicast (never cuMulticastCreate) unless the user says */
    struct {
        int ok;
        ncclUniqueId id;
    } start = {1, {{0}}};
    if (g->rank == 0) start.ok = ncclGetUniqueId(&start.id) == ncclSuccess;
    MPI_Bcast(&start, (int)sizeof start, MPI_BYTE, 0, pl_dist_comm_of(g));
    if (!start.ok) return pl_fail(PL_ERR_CUDA, "NCCL: rank 0 could not make the communicator's unique id");
    s = pl_dist_nccl_status(ncclCommInitRank(comm, g->size, start.id, g->rank), "ncclCommInitRank");
    s = agreed(g, s, "failed in ncclCommInitRank"); /* nobody goes on to a collective alone */
    if (s != PL_OK && *comm) ncclCommDestroy(*comm), *comm = NULL;
    if (s == PL_OK) keep(g, *comm, id_tag(&start.id));
    return s;
}

void pl_dist_nccl_comm_destroy(ncclComm_t comm)
{
    if (comm && comm != kept_.comm) ncclCommDestroy(comm); /* the kept one lives until MPI_Finalize */
}

pl_status pl_dist_nccl_lines_create(const pl_dist_grid *g, pl_status mine, pl_dist_nccl_lines *l)
{
    *l = (pl_dist_nccl_lines){NULL, NULL, NULL};
    pl_status s = pl_dist_nccl_comm_create(g, mine, &l->grid);
    if (s == PL_OK)
        s = pl_dist_nccl_status(ncclCommSplit(l->grid, g->coords[0], g->coords[1], &l->row, NULL), "ncclCommSplit");
    if (s == PL_OK)
        s = pl_dist_nccl_status(ncclCommSplit(l->grid, g->coords[1], g->coords[0], &l->col, NULL), "ncclCommSplit");
    if (s != PL_OK) pl_dist_nccl_lines_destroy(l);
    return s;
}

void pl_dist_nccl_lines_destroy(pl_dist_nccl_lines *l)
{
    pl_dist_nccl_comm_destroy(l->row);
    pl_dist_nccl_comm_destroy(l->col);
    pl_dist_nccl_comm_destroy(l->grid);
    *l = (pl_dist_nccl_lines){NULL, NULL, NULL};
}

pl_dist_model pl_dist_nccl_model_measure(const pl_dist_grid *g, ncclComm_t comm)
{
    pl_dist_model m = {0, 0};
    if (g->size < 2) return m;
    enum { SIZES = 2 };
    const size_t bytes[SIZES] = {8, (size_t)64 << 20};
    const int reps[SIZES] = {200, 10};
    double t[SIZES] = {0, 0};
    void *buf = NULL, *stream = NULL;
    int ok = g->rank > 1 || (pl_dev_malloc(&buf, bytes[1]) == PL_OK && pl_dev_stream_create(&stream) == PL_OK), all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, pl_dist_comm_of(g));
    if (all && g->rank < 2) {
        cudaStream_t st = (cudaStream_t)stream;
        const int peer = 1 - g->rank;
        for (int i = 0; i < SIZES; i++) {
            double t0 = 0;
            for (int r = -2; r < reps[i]; r++) { /* two round trips of warm-up */
                if (r == 0) pl_dev_sync(stream), t0 = pl_now();
                if (g->rank == 0) {
                    ncclSend(buf, bytes[i], ncclUint8, peer, comm, st);
                    ncclRecv(buf, bytes[i], ncclUint8, peer, comm, st);
                } else {
                    ncclRecv(buf, bytes[i], ncclUint8, peer, comm, st);
                    ncclSend(buf, bytes[i], ncclUint8, peer, comm, st);
                }
            }
            pl_dev_sync(stream);
            t[i] = (pl_now() - t0) / (2.0 * reps[i]); /* one way */
        }
    }
    if (stream) pl_dev_stream_destroy(stream);
    pl_dev_free(buf);
    MPI_Bcast(t, SIZES, MPI_DOUBLE, 0, pl_dist_comm_of(g));
    m.alpha = t[0];
    m.beta = t[1] > t[0] ? (double)bytes[1] / (t[1] - t[0]) : 0;
    return m;
}
