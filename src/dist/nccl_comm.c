/* nccl_comm.c: NCCL under the distributed layer (issue 24): whether every rank has a GPU of its
 * own, the communicator over a grid's ranks (rank 0's unique id broadcast on MPI), and the
 * library's version for `parlab list`. */
#include "core/core.h"
#include "core/device.h"
#include "dist/dist_mpi.h"
#include "dist/dist_nccl.h"
#include "harness/harness.h"

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

pl_status pl_dist_nccl_comm_create(const pl_dist_grid *g, ncclComm_t *comm)
{
    *comm = NULL;
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* no NVLink multicast (never cuMulticastCreate) unless the user says */
    struct {
        int ok;
        ncclUniqueId id;
    } start = {1, {{0}}};
    if (g->rank == 0) start.ok = ncclGetUniqueId(&start.id) == ncclSuccess;
    MPI_Bcast(&start, (int)sizeof start, MPI_BYTE, 0, pl_dist_comm_of(g));
    if (!start.ok) return pl_fail(PL_ERR_CUDA, "NCCL: rank 0 could not make the communicator's unique id");
    return pl_dist_nccl_status(ncclCommInitRank(comm, g->size, start.id, g->rank), "ncclCommInitRank");
}

void pl_dist_nccl_comm_destroy(ncclComm_t comm)
{
    if (comm) ncclCommDestroy(comm);
}

/* ---------------------------------------------------------------- the model between GPUs */

/* Ranks 0 and 1 bounce bytes between their GPUs (ncclSend then ncclRecv, one group each way, on
 * one stream, the host waiting for each): the median one-way time of reps round trips after a
 * warm-up. Only ranks 0 and 1 call it. */
static pl_status nccl_pingpong(ncclComm_t comm, int rank, void *buf, size_t bytes, int reps, void *stream,
                               double *seconds)
{
    double *t = malloc(sizeof *t * (size_t)reps);
    if (!t) return pl_fail(PL_ERR_NOMEM, "pingpong: out of memory");
    cudaStream_t st = (cudaStream_t)stream;
    pl_status s = PL_OK;
    const int other = 1 - rank, warm = 3;
    for (int i = -warm; i < reps && s == PL_OK; i++) {
        const double t0 = pl_now();
        for (int leg = 0; leg < 2 && s == PL_OK; leg++) {
            const int sending = (leg == 0) == (rank == 0);
            s = pl_dist_nccl_status(sending ? ncclSend(buf, bytes, ncclUint8, other, comm, st)
                                            : ncclRecv(buf, bytes, ncclUint8, other, comm, st),
                                    sending ? "ncclSend" : "ncclRecv");
            if (s == PL_OK) s = pl_dev_sync(stream);
        }
        if (i >= 0) t[i] = (pl_now() - t0) / 2;
    }
    double lo, hi;
    if (s == PL_OK) pl_stats_summary(t, reps, seconds, &lo, &hi);
    free(t);
    return s;
}

pl_status pl_dist_nccl_pingpong(const pl_dist_grid *g, int n, const size_t *bytes, const int *reps, double *seconds)
{
    size_t most = 1;
    for (int i = 0; i < n; i++) most = bytes[i] > most ? bytes[i] : most, seconds[i] = 0;
    ncclComm_t comm = NULL;
    void *stream = NULL, *buf = NULL;
    pl_status s = pl_dist_nccl_comm_create(g, &comm);
    if (s == PL_OK && g->rank <= 1) {
        s = pl_dev_stream_create(&stream);
        if (s == PL_OK) s = pl_dev_malloc(&buf, most);
        if (s == PL_OK) s = pl_dev_memset(buf, 0x5a, most, stream);
        for (int i = 0; i < n && s == PL_OK && g->size > 1; i++)
            s = nccl_pingpong(comm, g->rank, buf, bytes[i], reps[i], stream, &seconds[i]);
    }
    int ok = s == PL_OK, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, pl_dist_comm_of(g));
    MPI_Bcast(seconds, n, MPI_DOUBLE, 0, pl_dist_comm_of(g));
    pl_dev_free(buf);
    if (stream) pl_dev_stream_destroy(stream);
    pl_dist_nccl_comm_destroy(comm);
    if (s == PL_OK && !all) s = pl_fail(PL_ERR_CUDA, "pingpong: another rank failed between the GPUs");
    return s;
}

pl_status pl_dist_nccl_model_measure(const pl_dist_grid *g, pl_dist_model *m)
{
    /* NVLink moves ~100+ GB/s a direction: 4 MiB would be latency-bound, so beta comes from 64 MiB */
    const size_t bytes[2] = {8, (size_t)64 << 20};
    const int reps[2] = {200, 10};
    double t[2];
    m->alpha = m->beta = 0;
    const pl_status s = pl_dist_nccl_pingpong(g, 2, bytes, reps, t);
    if (s == PL_OK && g->size > 1) {
        m->alpha = t[0];
        m->beta = t[1] > t[0] ? (double)bytes[1] / (t[1] - t[0]) : 0;
    }
    return s;
}
