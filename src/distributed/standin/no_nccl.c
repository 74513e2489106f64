/* no_nccl.c: the distributed layer in a build without NCCL (PARLAB_NCCL=OFF, or NCCL, CUDA or MPI
 * not found): a CUDA rung under mpirun keeps its window on the host and exchanges on MPI, as
 * the host path does (life_ranks.c), and `parlab list` says "no NCCL". */
#include "core/core.h"
#include "distributed/transport/distributed.h"
#include "distributed/life/life_window.h"
#include "distributed/stencil/stencil_window.h"

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

pl_dist_model pl_dist_life_gpu_model(pl_dist_life *l)
{
    (void)l;
    return (pl_dist_model){0, 0};
}

/* SUMMA's GPU path (summa.h): none, the host path runs. */
#include "distributed/summa/summa.h"

pl_status pl_dist_gemm_gpu_create(pl_dist_gemm_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                  const int64_t *params, int64_t kb, int64_t M, int64_t N, int64_t K)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)kb, (void)M, (void)N, (void)K;
    *plan = NULL;
    return PL_OK;
}
void pl_dist_gemm_gpu_destroy(pl_dist_gemm_gpu *plan) { (void)plan; }
const char *pl_dist_gemm_gpu_rung(const pl_dist_gemm_gpu *plan)
{
    (void)plan;
    return "";
}
int64_t pl_dist_gemm_gpu_kb(const pl_dist_gemm_gpu *plan)
{
    (void)plan;
    return 0;
}
pl_dist_model pl_dist_gemm_gpu_model(const pl_dist_gemm_gpu *plan)
{
    (void)plan;
    return (pl_dist_model){0, 0};
}
pl_status pl_dist_sgemm_gpu(pl_dist_gemm_gpu *plan, float alpha, const float *A, int64_t lda, const float *B,
                            int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t)
{
    (void)plan, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb, (void)beta, (void)C, (void)ldc, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, "gemm: this build has no NCCL");
}
pl_status pl_dist_sgemm_gpu_host(pl_dist_gemm_gpu *plan, float alpha, const float *A, int64_t lda, const float *B,
                                 int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t)
{
    return pl_dist_sgemm_gpu(plan, alpha, A, lda, B, ldb, beta, C, ldc, t);
}

/* The reductions' GPU path (reduce_ranks.h): none, the host path runs. */
#include "distributed/reduce/reduce_ranks.h"

pl_status pl_dist_reduce_gpu_create(pl_dist_reduce_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                    const int64_t *params, pl_reduce_op op, int axis, int64_t H, int64_t W,
                                    pl_dist_to to)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)op, (void)axis, (void)H, (void)W, (void)to;
    *plan = NULL;
    return PL_OK;
}
void pl_dist_reduce_gpu_destroy(pl_dist_reduce_gpu *plan) { (void)plan; }
const char *pl_dist_reduce_gpu_rung(const pl_dist_reduce_gpu *plan)
{
    (void)plan;
    return "";
}
pl_dist_model pl_dist_reduce_gpu_model(const pl_dist_reduce_gpu *plan)
{
    (void)plan;
    return (pl_dist_model){0, 0};
}
pl_status pl_dist_sreduce_gpu(pl_dist_reduce_gpu *plan, const float *A, int64_t lda, float *r, pl_dist_times *t)
{
    (void)plan, (void)A, (void)lda, (void)r, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, "reduce: this build has no NCCL");
}
pl_status pl_dist_sreduce_gpu_host(pl_dist_reduce_gpu *plan, const float *A, int64_t lda, float *r, pl_dist_times *t)
{
    return pl_dist_sreduce_gpu(plan, A, lda, r, t);
}

/* The stencils' window (stencil_window.h): the host path always. */
pl_status pl_dist_window_gpu_create(pl_dist_window *win, pl_ctx *ctx, int ready)
{
    (void)win, (void)ctx, (void)ready;
    return PL_OK; /* win->gpu stays NULL: the host path */
}
void pl_dist_window_gpu_destroy(pl_dist_window *win) { (void)win; }
pl_dist_model pl_dist_window_gpu_model(pl_dist_window *win)
{
    (void)win;
    return (pl_dist_model){0, 0};
}
void *pl_dist_window_dev_at(const pl_dist_window *win, int64_t y, int64_t x)
{
    (void)win, (void)y, (void)x;
    return NULL;
}
void *pl_dist_window_stream(const pl_dist_window *win)
{
    (void)win;
    return NULL;
}
pl_status pl_dist_window_gpu_load(pl_dist_window *win, const void *in, int64_t ld_in)
{
    (void)win, (void)in, (void)ld_in;
    return pl_fail(PL_ERR_UNSUPPORTED, "this build has no NCCL");
}
void pl_dist_window_gpu_begin(pl_dist_window *win, pl_status *failed) { (void)win, (void)failed; }
void pl_dist_window_gpu_end(pl_dist_window *win, pl_status *failed) { (void)win, (void)failed; }
void pl_dist_window_gpu_finish(pl_dist_window *win, pl_dist_times *t, pl_status *failed)
{
    (void)win, (void)t, (void)failed;
}
