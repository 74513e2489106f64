/* ranks.c: the run (see distributed.h): MPI_Init when a launcher started this process (launcher.c),
 * MPI_Finalize after the command, the ranks, and the fault rule's agree
 * step (one MPI_Allreduce of "the lowest failing rank", then that rank's status and message
 * broadcast, so every rank stops together with one message). */
#include "core/core.h"
#include "distributed/transport/mpi_comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int started; /* pl_dist_start called MPI_Init */
static int world_rank, world_size = 1;

int pl_dist_built(void) { return 1; }

const char *pl_dist_library(void)
{
    static char buf[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    int n = 0;
    MPI_Get_library_version(buf, &n); /* callable before MPI_Init */
    buf[n < (int)sizeof buf ? n : (int)sizeof buf - 1] = '\0';
    char *nl = strpbrk(buf, ",\n"); /* "Open MPI v4.1.4, package: ...": the name and version */
    if (nl) *nl = '\0';
    return buf;
}

pl_status pl_dist_start(int *argc, char ***argv)
{
    if (!pl_dist_launched()) return PL_OK;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    started = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    return PL_OK;
}

void pl_dist_stop(void)
{
    if (started) MPI_Finalize();
    started = 0;
}

int pl_dist_active(void) { return started; }
int pl_dist_rank(void) { return started ? world_rank : 0; }
int pl_dist_size(void) { return started ? world_size : 1; }

int pl_dist_agree(int rc, const char *msg, char *first, size_t n, int *from)
{
    if (first && n) first[0] = '\0';
    if (from) *from = -1;
    if (!started) return rc;
    int candidate = rc ? world_rank : world_size, lowest = world_size;
    MPI_Allreduce(&candidate, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (lowest == world_size) return 0;
    struct {
        int rc;
        char msg[1024];
    } said;
    memset(&said, 0, sizeof said);
    if (world_rank == lowest) {
        said.rc = rc;
        snprintf(said.msg, sizeof said.msg, "%s", msg ? msg : "");
    }
    MPI_Bcast(&said, (int)sizeof said, MPI_BYTE, lowest, MPI_COMM_WORLD);
    if (world_rank == 0) {
        if (first && n) snprintf(first, n, "%s", said.msg);
        if (from) *from = lowest;
    }
    return said.rc;
}

void pl_dist_bcast(void *buf, size_t bytes)
{
    if (started) MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}
