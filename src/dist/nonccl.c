/* nonccl.c: the distributed layer in a build without NCCL (PARLAB_NCCL=OFF, or NCCL, CUDA or MPI
 * not found): a CUDA rung under mpirun keeps its window on the host and exchanges on MPI, as
 * the host path does (life.c), and `parlab list` says "no NCCL". */
#include "core/core.h"
#include "dist/dist.h"
#include "dist/life_window.h"

int pl_dist_nccl_built(void) { return 0; }
const char *pl_dist_nccl_library(void) { return "no NCCL in this build"; }

pl_status pl_dist_life_gpu_create(pl_dist_life *l, int ready)
{
    (void)l, (void)ready;
    return PL_OK; /* l->gpu stays NULL: the host path */
}
pl_status pl_dist_life_gpu_run(pl_dist_life *l, int64_t gens)
{
    (void)l, (void)gens;
    return pl_fail(PL_ERR_UNSUPPORTED, "life: this build has no NCCL");
}
void pl_dist_life_gpu_destroy(pl_dist_life *l) { (void)l; }
pl_status pl_dist_life_gpu_upload(pl_dist_life *l) { return pl_dist_life_gpu_run(l, 0); }
pl_status pl_dist_life_gpu_download(pl_dist_life *l) { return pl_dist_life_gpu_run(l, 0); }
int64_t pl_dist_life_gpu_census(pl_dist_life *l, int64_t box[4])
{
    (void)l;
    box[0] = box[1] = box[2] = box[3] = 0;
    return 0;
}

pl_status pl_dist_nccl_model_measure(const pl_dist_grid *g, pl_dist_model *m)
{
    (void)g;
    m->alpha = m->beta = 0;
    return pl_fail(PL_ERR_UNSUPPORTED, "this build has no NCCL");
}
pl_status pl_dist_nccl_pingpong(const pl_dist_grid *g, int n, const size_t *bytes, const int *reps, double *seconds)
{
    (void)g, (void)bytes, (void)reps;
    for (int i = 0; i < n; i++) seconds[i] = 0;
    return pl_fail(PL_ERR_UNSUPPORTED, "this build has no NCCL");
}
