/* measure.c: what the distributed bench and the network model measure with (see distributed.h,
 * "measuring"): a barrier, the slowest rank's time, an idle wait that leaves the cores to rank
 * 0 (a non-blocking barrier tested every 200 us, so waiting ranks do not spin where ranks share
 * cores), and the ping-pong between ranks 0 and 1 that gives the model's latency (alpha) and
 * bandwidth (beta). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "core/core.h"
#include "distributed/transport/mpi_comm.h"
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

/* One exchange of the plan, collective: after a barrier (pl_time_calls' before), the slowest
 * rank's time (its elapsed). */
static pl_status exchange_once(void *user)
{
    pl_dist_times pt = {0, 0, 0};
    pl_dist_halo_begin(user, &pt);
    pl_dist_halo_end(user, &pt);
    return PL_OK;
}

static void barrier_before(void *user)
{
    (void)user;
    pl_dist_barrier();
}

static double slowest(void *user, double seconds)
{
    (void)user;
    return pl_dist_max(seconds);
}

pl_status pl_dist_halo_time(int64_t N, int d, int reps, double *seconds)
{
    const int P = pl_dist_size();
    pl_dist_grid g;
    /* a torus of ranks whose blocks are N x N: the problem is the grid's shape times N */
    pl_status s = pl_dist_grid_create(&g, N * P, N * P, 1);
    if (s != PL_OK) return s;
    const int64_t H = N * g.dims[0], W = N * g.dims[1];
    pl_dist_grid_destroy(&g);
    if ((s = pl_dist_grid_create(&g, H, W, 1)) != PL_OK) return s;
    const int64_t ld = N + 2 * d;
    float *base = pl_alloc(sizeof(float) * (size_t)(ld * ld));
    double *t = malloc(sizeof *t * (size_t)reps);
    pl_dist_halo *x = NULL;
    if (!base || !t) s = pl_fail(PL_ERR_NOMEM, "mem halo: cannot allocate a %lldx%lld block", (long long)N, (long long)N);
    else memset(base, 0, sizeof(float) * (size_t)(ld * ld)), s = pl_dist_halo_create(&x, &g, base, sizeof(float), ld, N, N, d);
    if (s == PL_OK) {
        const pl_timed_calls calls = {exchange_once, barrier_before, slowest, x, 1};
        s = pl_time_calls(&calls, 2, reps, t); /* two warm-ups */
    }
    if (s == PL_OK) {
        double lo, hi;
        pl_stats_summary(t, reps, seconds, &lo, &hi);
    }
    pl_dist_halo_destroy(x);
    pl_free(base);
    free(t);
    pl_dist_grid_destroy(&g);
    return s;
}
