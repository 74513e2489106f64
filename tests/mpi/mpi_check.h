/* mpi_check.h: what the MPI check drivers of the linear-algebra calls share (gemm_check.c,
 * reduce_check.c): start under mpirun, a CHECK that names the rank, each rank's context (the
 * threads a rank takes), a problem's float arrays on rank 0, and the run's verdict (a failure
 * on any rank fails the run). */
#ifndef PL_TEST_MPI_CHECK_H
#define PL_TEST_MPI_CHECK_H

#include "core/core.h"
#include "distributed/transport/distributed.h"
#include "harness/harness.h"

#include "check.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int rank_;
static pl_ctx *ctx_;

#define RCHECK(cond, fmt, ...) CHECK(cond, "rank %d: " fmt, rank_, ##__VA_ARGS__)

/* MPI and a CPU context, or exit 2 when not launched by mpirun. */
static void mpi_check_start(int *argc, char ***argv, const char *name)
{
    if (pl_dist_start(argc, argv) != PL_OK || !pl_dist_active()) {
        fprintf(stderr, "%s: run me under mpirun\n", name);
        exit(2);
    }
    rank_ = pl_dist_rank();
    if (pl_ctx_create(&ctx_, PL_BACKEND_CPU, 0, pl_dist_threads_per_rank()) != PL_OK) {
        fprintf(stderr, "%s: rank %d: no CPU context: %s\n", name, rank_, pl_last_error());
        exit(1);
    }
}

/* Every rank's verdict: prints the counts (rank 0, and any rank that failed), stops MPI, and
 * gives the exit status (1 when a check failed on any rank). */
static int mpi_check_finish(const char *name)
{
    int failed = check_failed, any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char label[96];
    snprintf(label, sizeof label, "%s rank %d of %d", name, rank_, pl_dist_size());
    if (rank_ == 0 || check_failed) check_summary(label);
    pl_ctx_destroy(ctx_);
    pl_dist_stop();
    return any ? 1 : 0;
}

/* After a call that failed on the last rank alone: rank 0's message names it ("rank R: ...")
 * and holds also (when not NULL). */
static void check_last_rank_named(const char *also, const char *what)
{
    const int P = pl_dist_size();
    if (rank_ != 0 || P == 1) return;
    char want[32];
    snprintf(want, sizeof want, "rank %d: ", P - 1);
    RCHECK(strstr(pl_last_error(), want) && (!also || strstr(pl_last_error(), also)), "%s: rank 0's message: %s",
           what, pl_last_error());
}

/* Storage for a kernel's operands t[0..n) (their spans; only on rank 0 in the drivers) and
 * for float64 reference and scale arrays of the same shapes. */
static int alloc_operands(pl_tensor *t, int n)
{
    for (int i = 0; i < n; i++)
        if (!(t[i].host = calloc((size_t)pl_tensor_span(&t[i]), pl_dtype_size(t[i].dtype)))) return 0;
    return 1;
}
static int alloc_reference(const pl_tensor *t, int n, pl_tensor *ref, pl_tensor *scale)
{
    for (int i = 0; i < n; i++) {
        ref[i] = scale[i] = (pl_tensor){t[i].name, PL_F64, PL_OUT, t[i].rows, t[i].cols, t[i].cols, NULL};
        if (t[i].role == PL_IN) continue;
        ref[i].host = calloc((size_t)(t[i].rows * t[i].cols), sizeof(double));
        scale[i].host = calloc((size_t)(t[i].rows * t[i].cols), sizeof(double));
        if (!ref[i].host || !scale[i].host) return 0;
    }
    return 1;
}
static void free_tensors(pl_tensor *t, int n)
{
    for (int i = 0; i < n; i++) free(t[i].host), t[i].host = NULL;
}

#endif
