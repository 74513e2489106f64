/* dist/gemm.h: GEMM on a grid of ranks by SUMMA (issue 22). C = alpha*A*B + beta*C with A
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

#include "dist/dist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The panel width when the caller gives 0: the cpu-packed rung's K block on AVX2 (256), so
 * each panel's product is one pass of its five loops. */
enum { PL_DIST_GEMM_KB = 256 };

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

#ifdef __cplusplus
}
#endif
#endif
