/* no_mpi_stencil.c: the distributed stencils (stencil_ranks.h) in a build without MPI: every
 * call that would run distributed says "this build has no MPI", as no_mpi.c does for the rest
 * of the layer. The output's blocks need no MPI and are the real ones. */
#include "core/core.h"
#include "distributed/stencil/stencil_ranks.h"

#define NO_MPI "this build has no MPI (rebuild with -DPARLAB_MPI=ON and MPI installed, e.g. Debian's libopenmpi-dev)"

pl_dist_block pl_dist_conv2d_out_block_at(const pl_dist_grid *g, int prow, int pcol, const pl_conv2d_problem *p)
{
    pl_dist_block b = pl_dist_block_at(g, prow, pcol, p->H, p->W);
    if (p->mode == PL_CONV2D_VALID) b.y1 = p->H - p->K + 1, b.x1 = p->W - p->K + 1; /* one rank holds it all */
    return b;
}
pl_dist_block pl_dist_conv2d_out_block(const pl_dist_grid *g, const pl_conv2d_problem *p)
{
    return pl_dist_conv2d_out_block_at(g, 0, 0, p);
}
pl_status pl_dist_conv2d_create(pl_dist_conv2d_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                const int64_t *params, const pl_conv2d_problem *p, const void *filter, int overlap)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)p, (void)filter, (void)overlap;
    *out = NULL;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_conv2d_run(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in, void *out, int64_t ld_out)
{
    (void)c, (void)in, (void)ld_in, (void)out, (void)ld_out;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
const char *pl_dist_conv2d_rung(const pl_dist_conv2d_plan *c)
{
    (void)c;
    return NULL;
}
pl_dist_times pl_dist_conv2d_times(const pl_dist_conv2d_plan *c)
{
    (void)c;
    pl_dist_times t = {0, 0, 0};
    return t;
}
int pl_dist_conv2d_overlaps(const pl_dist_conv2d_plan *c)
{
    (void)c;
    return 0;
}
void pl_dist_conv2d_destroy(pl_dist_conv2d_plan *c) { (void)c; }
pl_status pl_dist_conv2d(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_conv2d_problem *p,
                         const void *filter, const void *in, int64_t ld_in, void *out, int64_t ld_out,
                         pl_dist_times *t)
{
    (void)g, (void)ctx, (void)rung, (void)p, (void)filter, (void)in, (void)ld_in, (void)out, (void)ld_out, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_conv2d_gather(const pl_dist_grid *g, const pl_conv2d_problem *p, const void *out, int64_t ld,
                                void *global)
{
    (void)g, (void)p, (void)out, (void)ld, (void)global;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}

pl_status pl_dist_entropy_create(pl_dist_entropy_plan **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                 const int64_t *params, const pl_entropy_problem *p, int overlap)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)p, (void)overlap;
    *out = NULL;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_entropy_run(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out)
{
    (void)e, (void)in, (void)ld_in, (void)out, (void)ld_out;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
const char *pl_dist_entropy_rung(const pl_dist_entropy_plan *e)
{
    (void)e;
    return NULL;
}
pl_dist_times pl_dist_entropy_times(const pl_dist_entropy_plan *e)
{
    (void)e;
    pl_dist_times t = {0, 0, 0};
    return t;
}
int pl_dist_entropy_overlaps(const pl_dist_entropy_plan *e)
{
    (void)e;
    return 0;
}
void pl_dist_entropy_destroy(pl_dist_entropy_plan *e) { (void)e; }
pl_status pl_dist_entropy(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const pl_entropy_problem *p,
                          const uint8_t *in, int64_t ld_in, float *out, int64_t ld_out, pl_dist_times *t)
{
    (void)g, (void)ctx, (void)rung, (void)p, (void)in, (void)ld_in, (void)out, (void)ld_out, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}

/* The GPU path: never without MPI. */
int pl_dist_conv2d_on_nccl(const pl_dist_conv2d_plan *c)
{
    (void)c;
    return 0;
}
pl_dist_model pl_dist_conv2d_gpu_model(pl_dist_conv2d_plan *c)
{
    (void)c;
    return (pl_dist_model){0, 0};
}
pl_dist_model pl_dist_entropy_gpu_model(pl_dist_entropy_plan *e)
{
    (void)e;
    return (pl_dist_model){0, 0};
}
pl_status pl_dist_conv2d_upload(pl_dist_conv2d_plan *c, const void *in, int64_t ld_in)
{
    (void)c, (void)in, (void)ld_in;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_conv2d_run_resident(pl_dist_conv2d_plan *c)
{
    (void)c;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_conv2d_download(pl_dist_conv2d_plan *c, void *out, int64_t ld_out)
{
    (void)c, (void)out, (void)ld_out;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
int pl_dist_entropy_on_nccl(const pl_dist_entropy_plan *e)
{
    (void)e;
    return 0;
}
pl_status pl_dist_entropy_upload(pl_dist_entropy_plan *e, const uint8_t *in, int64_t ld_in)
{
    (void)e, (void)in, (void)ld_in;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_entropy_run_resident(pl_dist_entropy_plan *e)
{
    (void)e;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_entropy_download(pl_dist_entropy_plan *e, float *out, int64_t ld_out)
{
    (void)e, (void)out, (void)ld_out;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
