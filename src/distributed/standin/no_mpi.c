/* no_mpi.c: the distributed layer in a build without MPI (PARLAB_MPI=OFF, or none found): a
 * plain run is as it always was; a process started by mpirun is told "this build has no MPI"
 * (pl_dist_start), and every call that would need MPI says so. */
#include "core/core.h"
#include "distributed/transport/distributed.h"
#include "distributed/life/life_ranks.h"
#include "distributed/bench/bench_ranks.h"
#include "distributed/npy/npy_tools.h"

#include <stdio.h>
#include <string.h>

#define NO_MPI "this build has no MPI (rebuild with -DPARLAB_MPI=ON and MPI installed, e.g. Debian's libopenmpi-dev)"

int pl_dist_built(void) { return 0; }
const char *pl_dist_library(void) { return "no MPI in this build"; }

pl_status pl_dist_start(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (pl_dist_launched()) return pl_fail(PL_ERR_UNSUPPORTED, "launched by mpirun, but " NO_MPI);
    return PL_OK;
}

void pl_dist_stop(void) {}
int pl_dist_active(void) { return 0; }
int pl_dist_rank(void) { return 0; }
int pl_dist_size(void) { return 1; }

int pl_dist_agree(int rc, const char *msg, char *first, size_t n, int *from)
{
    (void)msg;
    if (first && n) first[0] = '\0';
    if (from) *from = -1;
    return rc;
}

/* No run, so no rank keeps a message and nothing runs on ranks. */
void pl_dist_keep_errors(void) {}
int pl_dist_keep_error(const char *msg)
{
    (void)msg;
    return 0;
}
int pl_dist_agree_kept(int rc, char *first, size_t n)
{
    if (first && n) first[0] = '\0';
    return rc;
}
pl_status pl_dist_agree_status(pl_status mine) { return mine; }
int pl_dist_runs_command(const char *name)
{
    (void)name;
    return 0;
}

pl_status pl_dist_grid_create(pl_dist_grid *g, int64_t H, int64_t W, int periodic)
{
    (void)H, (void)W, (void)periodic;
    memset(g, 0, sizeof *g);
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_grid_create_bands(pl_dist_grid *g, int64_t H, int64_t W, int periodic)
{
    return pl_dist_grid_create(g, H, W, periodic);
}
void pl_dist_grid_destroy(pl_dist_grid *g) { (void)g; }

pl_dist_block pl_dist_block_at(const pl_dist_grid *g, int prow, int pcol, int64_t H, int64_t W)
{
    (void)g, (void)prow, (void)pcol;
    pl_dist_block b = {0, H, 0, W};
    return b;
}
pl_dist_block pl_dist_block_of(const pl_dist_grid *g, int64_t H, int64_t W) { return pl_dist_block_at(g, 0, 0, H, W); }
void pl_dist_block_min(const pl_dist_grid *g, int64_t H, int64_t W, int64_t *min_rows, int64_t *min_cols)
{
    (void)g;
    *min_rows = H, *min_cols = W;
}

pl_status pl_dist_scatter(const pl_dist_grid *g, const void *global, int64_t H, int64_t W, size_t elem, void *local,
                          int64_t ld)
{
    (void)g, (void)global, (void)H, (void)W, (void)elem, (void)local, (void)ld;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_gather(const pl_dist_grid *g, const void *local, int64_t ld, void *global, int64_t H, int64_t W,
                         size_t elem)
{
    (void)g, (void)global, (void)H, (void)W, (void)elem, (void)local, (void)ld;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}

pl_status pl_dist_halo_create(pl_dist_halo **x, const pl_dist_grid *g, void *base, size_t elem, int64_t ld,
                              int64_t h, int64_t w, int d)
{
    (void)g, (void)base, (void)elem, (void)ld, (void)h, (void)w, (void)d;
    *x = NULL;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_halo_create_buffers(pl_dist_halo **x, const pl_dist_grid *g, void *const send[PL_DIST_DIRS],
                                      const size_t send_bytes[PL_DIST_DIRS], void *const recv[PL_DIST_DIRS],
                                      const size_t recv_bytes[PL_DIST_DIRS])
{
    (void)g, (void)send, (void)send_bytes, (void)recv, (void)recv_bytes;
    *x = NULL;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
void pl_dist_halo_begin(pl_dist_halo *x, pl_dist_times *t) { (void)x, (void)t; }
void pl_dist_halo_end(pl_dist_halo *x, pl_dist_times *t) { (void)x, (void)t; }
void pl_dist_halo_destroy(pl_dist_halo *x) { (void)x; }

void pl_dist_bcast(void *buf, size_t bytes) { (void)buf, (void)bytes; }

pl_status pl_dist_life_grid_create(pl_dist_grid *g, const pl_life_problem *p, const pl_variant *variant, int cuda)
{
    (void)variant, (void)cuda;
    return pl_dist_grid_create(g, p->H, p->W, p->topology == PL_LIFE_TOPO_TORUS);
}
void pl_dist_life_messages(const pl_dist_life *l, int64_t gens, double *msgs, double *bytes)
{
    (void)l, (void)gens;
    *msgs = *bytes = 0;
}
int64_t pl_dist_life_max_depth(const pl_dist_grid *g, const pl_life_problem *p)
{
    (void)g, (void)p;
    return 0;
}
int64_t pl_dist_life_default_depth(int cuda, int64_t most)
{
    (void)cuda;
    return most;
}
pl_status pl_dist_life_depth_of(const pl_dist_grid *g, const pl_life_problem *p, long halo, int cuda, int *depth)
{
    (void)g, (void)p, (void)halo, (void)cuda;
    *depth = 0;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
void pl_dist_life_share(int *grid_kind, int64_t grid_dims[2], pl_life_rule *rule)
{
    (void)grid_kind, (void)grid_dims, (void)rule; /* one process: nothing to tell */
}
pl_status pl_dist_life_create(pl_dist_life **out, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                              const int64_t *params, const pl_life_problem *p, int depth, int overlap)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)p, (void)depth, (void)overlap;
    *out = NULL;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_life_scatter(pl_dist_life *l, const uint64_t *grid)
{
    (void)l, (void)grid;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_life_run(pl_dist_life *l, int64_t gens)
{
    (void)l, (void)gens;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
int64_t pl_dist_life_census(pl_dist_life *l, int64_t box[4])
{
    (void)l;
    box[0] = box[1] = box[2] = box[3] = 0;
    return 0;
}
pl_status pl_dist_life_gather(pl_dist_life *l, uint64_t *grid)
{
    (void)l, (void)grid;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_dist_times pl_dist_life_times(const pl_dist_life *l)
{
    (void)l;
    pl_dist_times t = {0, 0, 0};
    return t;
}
int pl_dist_life_overlaps(const pl_dist_life *l)
{
    (void)l;
    return 0;
}
int pl_dist_life_on_nccl(const pl_dist_life *l)
{
    (void)l;
    return 0;
}
void pl_dist_life_destroy(pl_dist_life *l) { (void)l; }

/* ---------------------------------------------------------------- SUMMA GEMM, reductions, dot
 * (summa.h, reduce_ranks.h: helper mpi-gemm's block) */
#include "distributed/summa/summa.h"
#include "distributed/reduce/reduce_ranks.h"

pl_status pl_dist_gemm_check(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K)
{
    (void)g, (void)M, (void)N, (void)K;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
void pl_dist_gemm_traffic(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K, int64_t kb, double *msgs,
                          double *bytes)
{
    (void)g, (void)M, (void)N, (void)K, (void)kb;
    *msgs = *bytes = 0;
}
pl_status pl_dist_sgemm_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                int64_t kb, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                                int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                                pl_dist_times *t)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)kb, (void)M, (void)N, (void)K, (void)alpha, (void)A;
    (void)lda, (void)B, (void)ldb, (void)beta, (void)C, (void)ldc, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_sgemm(const pl_dist_grid *g, pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha,
                        const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                        pl_dist_times *t)
{
    return pl_dist_sgemm_variant(g, ctx, NULL, NULL, 0, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, t);
}
pl_status pl_dist_sreduce_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                  pl_reduce_op op, int axis, int64_t H, int64_t W, const float *A, int64_t lda, float *r,
                                  pl_dist_to to, pl_dist_times *t)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)op, (void)axis, (void)H, (void)W, (void)A, (void)lda;
    (void)r, (void)to, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_sreduce(const pl_dist_grid *g, pl_ctx *ctx, pl_reduce_op op, int axis, int64_t H, int64_t W,
                          const float *A, int64_t lda, float *r, pl_dist_to to, pl_dist_times *t)
{
    return pl_dist_sreduce_variant(g, ctx, NULL, NULL, op, axis, H, W, A, lda, r, to, t);
}
pl_status pl_dist_sdot_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params, int64_t N,
                               const float *x, const float *y, float *result, pl_dist_times *t)
{
    (void)g, (void)ctx, (void)rung, (void)params, (void)N, (void)x, (void)y, (void)result, (void)t;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_sdot(const pl_dist_grid *g, pl_ctx *ctx, int64_t N, const float *x, const float *y, float *result,
                       pl_dist_times *t)
{
    return pl_dist_sdot_variant(g, ctx, NULL, NULL, N, x, y, result, t);
}

/* ---------------------------------------------------------------- npy_ranks.h (mpi-io-bench) */
pl_status pl_dist_npy_header(const char *path, pl_dist_npy *h)
{
    (void)path;
    memset(h, 0, sizeof *h);
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_read_block(const pl_dist_grid *g, const char *path, const pl_dist_npy *h, void *local,
                                 int64_t ld)
{
    (void)g, (void)path, (void)h, (void)local, (void)ld;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_write(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                            const void *local, int64_t ld)
{
    (void)g, (void)path, (void)dtype, (void)H, (void)W, (void)local, (void)ld;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_write_block(const pl_dist_grid *g, const char *path, pl_dtype dtype, int64_t H, int64_t W,
                                  const pl_dist_block *b, const void *local, int64_t ld)
{
    (void)g, (void)path, (void)dtype, (void)H, (void)W, (void)b, (void)local, (void)ld;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}

/* ---------------------------------------------------------------- measuring (mpi-io-bench) */
void pl_dist_barrier(void) {}
double pl_dist_max(double x) { return x; }
pl_dist_times pl_dist_times_max(const pl_dist_times *mine) { return *mine; }
void pl_dist_idle_until_root(void) {}
double pl_dist_pingpong(size_t bytes, int reps)
{
    (void)bytes, (void)reps;
    return 0;
}
pl_dist_model pl_dist_model_measure(void)
{
    pl_dist_model m = {0, 0};
    return m;
}
pl_status pl_dist_life_set_block(pl_dist_life *l, const uint64_t *bits, int64_t wpr)
{
    (void)l, (void)bits, (void)wpr;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_life_get_block(pl_dist_life *l, uint64_t *bits, int64_t wpr)
{
    (void)l, (void)bits, (void)wpr;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}

/* The command's steps on ranks (bench/, npy/npy_tools.c, the halo's time): never reached
 * without a run, each says so. */
const pl_dist_bench_kernel *pl_dist_bench_find(const char *name)
{
    (void)name;
    return NULL;
}
void pl_dist_bench_names(char *names, size_t n)
{
    if (n) snprintf(names, n, "nothing, no MPI");
}
pl_status pl_dist_bench_run(const pl_dist_bench_kernel *k, const pl_dist_bench_args *a, pl_ctx *ctx,
                            pl_dist_bench_result *r)
{
    (void)k, (void)a, (void)ctx, (void)r;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_only(const char *cmd, const char *const *inputs, int n_inputs, const char *out)
{
    (void)cmd, (void)inputs, (void)n_inputs, (void)out;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_header_of(const char *cmd, const char *path, const pl_dtype *types, int n, pl_dist_npy *h)
{
    (void)cmd, (void)path, (void)types, (void)n, (void)h;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
pl_status pl_dist_npy_read_mine(const char *cmd, const pl_dist_grid *g, const char *path, const pl_dist_npy *h,
                                void **block)
{
    (void)cmd, (void)g, (void)path, (void)h, (void)block;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
void pl_dist_share_node(long *threads, long *device) { (void)threads, (void)device; }
pl_status pl_dist_halo_time(int64_t N, int d, int reps, double *seconds)
{
    (void)N, (void)d, (void)reps, (void)seconds;
    return pl_fail(PL_ERR_UNSUPPORTED, NO_MPI);
}
