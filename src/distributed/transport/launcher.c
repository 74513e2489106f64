/* launcher.c: what the environment a launcher (mpirun, mpiexec, srun) sets says about this
 * process, read without MPI (built with or without it): whether it was launched, its rank
 * (in the run and on its node), and how many ranks share this node's cores. */
#include "core/core.h"
#include "distributed/transport/distributed.h"

#include <stdlib.h>

/* The first of these variables that is set. Open MPI (mpirun), PMIx (Open MPI 5, srun
 * --mpi=pmix), PMI (MPICH's hydra, srun). */
static const char *first_set(const char *const names[], int n)
{
    for (int i = 0; i < n; i++) {
        const char *v = getenv(names[i]);
        if (v && *v) return v;
    }
    return NULL;
}

int pl_dist_launched(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK"};
    return first_set(names, 4) != NULL;
}

int pl_dist_launched_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
    const char *v = first_set(names, 3);
    return v ? atoi(v) : 0;
}

int pl_dist_threads_per_rank(void)
{
    const char *omp = getenv("OMP_NUM_THREADS");
    if (omp && atoi(omp) > 0) return atoi(omp);
    static const char *const local[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"};
    const char *v = first_set(local, 2);
    const int ranks_here = v && atoi(v) > 0 ? atoi(v) : pl_dist_size();
    const int t = pl_cpu_cores() / (ranks_here > 0 ? ranks_here : 1);
    return t > 0 ? t : 1;
}

int pl_dist_local_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"};
    const char *v = first_set(names, 3);
    return v ? atoi(v) : 0;
}

int pl_dist_local_size(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS_PER_NODE"};
    const char *v = first_set(names, 3);
    return v && atoi(v) > 0 ? atoi(v) : 1;
}
