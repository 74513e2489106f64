/* summa.h: GEMM on a grid of ranks by SUMMA. C = alpha*A*B + beta*C with A
 * (M x K), B (K x N) and C (M x N) each split in the grid's 2D blocks (pl_dist_block_of(g, M, K),
 * (g, K, N), (g, M, N)): a rank holds A's rows of its process row and K-columns of its process
 * column, and so on. K is walked in panels no wider than kb that never cross a block's edge:
 * the process column holding a panel of A broadcasts it along its process row, the process row
 * holding the panel of B along its process column (MPI_Ibcast on the row and column
 * communicators), and every rank adds the product of the two panels to its block of C with its
 * local rung (the first panel with the caller's beta, the others with beta = 1). The next
 * panel's broadcasts are posted before the current panel's product (two buffers each), so they
 * travel while it computes. On one rank there is one panel: the local call itself.
 * Every call is collective over the grid's ranks. */
#ifndef PL_DIST_GEMM_H
#define PL_DIST_GEMM_H

#include "distributed/transport/distributed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The panel width when the caller gives 0: the cpu-packed rung's K block on AVX2 (256), so
 * each panel's product is one pass of its five loops. On the GPU path 4096 (docs/scale-out-nccl.md,
 * "SUMMA on GPUs"): each panel's product also reads and writes the rank's whole block of C once,
 * which at kb = 4096 is ~1% of the product's time on an H100, at 256 ~20%; a panel's broadcast
 * (m x kb floats, 256 MiB at m = 16384) takes ~1 ms on NVLink against ~50 ms of product. */
enum { PL_DIST_GEMM_KB = 256, PL_DIST_GEMM_KB_GPU = 4096 };

/* A panel of K: columns k0..k1-1 of A, held by process column a_root, and the same rows of B,
 * held by process row b_root. */
typedef struct pl_dist_panel {
    int64_t k0, k1;
    int a_root, b_root;
} pl_dist_panel;
/* The panel that starts at k0: at most kb wide, ending at the next edge of A's column blocks or
 * of B's row blocks, whichever comes first (every rank computes the same panels). */
pl_dist_panel pl_dist_gemm_panel_at(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K, int64_t kb, int64_t k0);
/* What this rank receives in one SUMMA call with panels of kb (0: PL_DIST_GEMM_KB; one rank:
 * none): a broadcast of A's panel along its process row and of B's along its process column
 * count one message each (none on a line of one rank), bytes the floats they carry times 4. */
void pl_dist_gemm_traffic(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K, int64_t kb, double *msgs,
                          double *bytes);

/* PL_OK when every rank of g holds a block of each of A, B and C: the grid's process rows at
 * most M and K, its process columns at most N and K. Else PL_ERR_ARG ("P larger than rows"),
 * the same on every rank; no communication. */
pl_status pl_dist_gemm_check(const pl_dist_grid *g, int64_t M, int64_t N, int64_t K);

/* C = alpha*A*B + beta*C on the grid, each rank passing its blocks (A: lda >= its K-columns,
 * B and C: ldb, ldc >= its N-columns), with the best GEMM rung of ctx and panels of
 * PL_DIST_GEMM_KB. beta == 0: C is not read. Where the time went is added into *t (NULL: not
 * kept). Every rank returns the same status: the argument checks of pl_sgemm (sizes, alpha and
 * beta, leading dimensions, NULL blocks) and pl_dist_gemm_check, a failed allocation or a
 * failed local product on any rank (the others keep exchanging to the end, never left
 * waiting); the failing rank keeps its message, rank 0 gets it too ("rank R: ..."). */
pl_status pl_dist_sgemm(const pl_dist_grid *g, pl_ctx *ctx, int64_t M, int64_t N, int64_t K, float alpha,
                        const float *A, int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                        pl_dist_times *t);
/* The same with a named GEMM rung (params may be NULL) and a panel width kb (0: the default). */
pl_status pl_dist_sgemm_variant(const pl_dist_grid *g, pl_ctx *ctx, const char *rung, const int64_t *params,
                                int64_t kb, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
                                int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc,
                                pl_dist_times *t);

/* ---- the GPU path: one rank a GPU, A, B and C resident on it, panels on NCCL
 * (src/distributed/nccl/nccl_summa.c; docs/scale-out-nccl.md "SUMMA on GPUs"). A plan holds the row and
 * column communicators (ncclCommSplit of the grid's), two streams (compute: the products by
 * the CUDA rung through pl_run_device; exchange: packing and ncclBroadcast) and two buffers of
 * each panel, so panel i + 1 travels while panel i is multiplied. pl_dist_sgemm_variant takes
 * this path by itself for a CUDA rung (copying the host blocks in and C out); the bench calls it
 * on device blocks, so repeats time the distributed product alone. */
typedef struct pl_dist_gemm_gpu pl_dist_gemm_gpu;
/* Collective over g. *plan is NULL (and PL_OK) where the GPU path does not apply: the rung
 * (named, or ctx's best) is not a CUDA rung on every rank, the build has no NCCL, or a node runs
 * more ranks than it has GPUs (pl_dist_nccl_usable); the caller takes the host path. kb 0:
 * PL_DIST_GEMM_KB_GPU (one rank: one panel, the local call itself). The caller checked the
 * problem (pl_gemm_check, pl_dist_gemm_check). Else the same status on every rank. */
pl_status pl_dist_gemm_gpu_create(pl_dist_gemm_gpu **plan, const pl_dist_grid *g, pl_ctx *ctx, const char *rung,
                                  const int64_t *params, int64_t kb, int64_t M, int64_t N, int64_t K);
void pl_dist_gemm_gpu_destroy(pl_dist_gemm_gpu *plan);
/* The rung the plan runs, and the panel width it walks K by. */
const char *pl_dist_gemm_gpu_rung(const pl_dist_gemm_gpu *plan);
int64_t pl_dist_gemm_gpu_kb(const pl_dist_gemm_gpu *plan);
/* The network model between the plan's GPUs (NCCL round trips between ranks 0 and 1, as
 * pl_dist_model_measure does on MPI). Collective. */
pl_dist_model pl_dist_gemm_gpu_model(const pl_dist_gemm_gpu *plan);
/* C = alpha*A*B + beta*C on the plan's grid, each rank's blocks in its GPU's memory (device
 * pointers, the blocks of pl_dist_sgemm). Returns when the product is done on every stream;
 * times from CUDA events: compute (the products), exchange (packing and broadcasting, on the
 * exchange stream: overlapped with compute), wait (the compute stream stalled for a panel).
 * The same status on every rank. */
pl_status pl_dist_sgemm_gpu(pl_dist_gemm_gpu *plan, float alpha, const float *A, int64_t lda, const float *B,
                            int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t);
/* The same from host blocks: A and B (and C when beta != 0) copied to the GPU, C copied back;
 * the copies are not in *t. */
pl_status pl_dist_sgemm_gpu_host(pl_dist_gemm_gpu *plan, float alpha, const float *A, int64_t lda, const float *B,
                                 int64_t ldb, float beta, float *C, int64_t ldc, pl_dist_times *t);

#ifdef __cplusplus
}
#endif
#endif
