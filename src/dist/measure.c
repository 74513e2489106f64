/* measure.c: what the distributed bench and the network model measure with (see dist.h,
 * "measuring"): a barrier, the slowest rank's time, an idle wait that leaves the cores to rank
 * 0 (a non-blocking barrier tested every 200 us, so waiting ranks do not spin where ranks share
 * cores), and the ping-pong between ranks 0 and 1 that gives the model's latency (alpha) and
 * bandwidth (beta). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "core/core.h"
#include "dist/dist_mpi.h"
#include "harness/harness.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_PING = 300 };

void pl_dist_barrier(void)
{
    if (pl_dist_active()) MPI_Barrier(MPI_COMM_WORLD);
}

double pl_dist_max(double x)
{
    double most = x;
    if (pl_dist_active()) MPI_Allreduce(&x, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return most;
}

pl_dist_times pl_dist_times_max(const pl_dist_times *mine)
{
    double t[3] = {mine->compute, mine->exchange, mine->wait}, most[3] = {t[0], t[1], t[2]};
    if (pl_dist_active()) MPI_Allreduce(t, most, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return (pl_dist_times){most[0], most[1], most[2]};
}

/* Wait for a non-blocking collective, testing it every 200 us in between naps. */
static void idle_wait(MPI_Request *req)
{
    const struct timespec nap = {0, 200000};
    for (int done = 0;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        nanosleep(&nap, NULL);
    }
}

void pl_dist_idle_until_root(void)
{
    if (!pl_dist_active()) return;
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (pl_dist_rank() == 0) MPI_Wait(&req, MPI_STATUS_IGNORE);
    else idle_wait(&req);
}

double pl_dist_pingpong(size_t bytes, int reps)
{
    if (pl_dist_size() < 2 || reps < 1) return 0;
    const int rank = pl_dist_rank();
    double median = 0;
    if (rank <= 1) {
        char *buf = calloc(bytes ? bytes : 1, 1);
        double *t = malloc(sizeof *t * (size_t)reps);
        const int other = 1 - rank, warm = reps < 4 ? reps : 4;
        for (int i = -warm; i < reps && buf && t; i++) {
            const double t0 = pl_now();
            if (rank == 0) {
                MPI_Send(buf, (int)bytes, MPI_BYTE, other, TAG_PING, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)bytes, MPI_BYTE, other, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, (int)bytes, MPI_BYTE, other, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int)bytes, MPI_BYTE, other, TAG_PING, MPI_COMM_WORLD);
            }
            if (i >= 0) t[i] = (pl_now() - t0) / 2;
        }
        double lo, hi;
        if (buf && t) pl_stats_summary(t, reps, &median, &lo, &hi);
        free(buf), free(t);
    }
    MPI_Request req; /* rank 0's answer; the ranks past 1 waited for it idle */
    MPI_Ibcast(&median, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
    idle_wait(&req);
    return median;
}

pl_dist_model pl_dist_model_measure(void)
{
    pl_dist_model m = {0, 0};
    const size_t big = (size_t)4 << 20;
    m.alpha = pl_dist_pingpong(8, 200);
    const double t = pl_dist_pingpong(big, 16);
    m.beta = t > m.alpha ? (double)big / (t - m.alpha) : 0;
    return m;
}
