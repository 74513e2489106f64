/* gemm_blocked.c: the same student's second SGEMM, cache-blocked: C is built in blocks of 64
 * rows x 256 columns, k taken 256 at a time, and inside a block the loops run i-k-j, so the
 * innermost loop walks a row of B and a row of C with unit stride (the compiler vectorizes it)
 * while the 256 x 256 panel of B (256 KiB) stays in the L2 cache for all 64 rows of the block.
 * Blocks of rows are shared among OpenMP threads (each thread owns its rows of C: no races).
 * Against gemm_naive.c: `parlab compare old.json new.json` (examples/README.md).
 *
 *   C = alpha * A * B + beta * C, row-major, any M, N, K and leading dimensions; beta == 0:
 *   C is written only, never read.
 *
 * Built by parlab's build as build/examples/libgemm_blocked.so (linked with OpenMP); by hand:
 *   cc -O3 -fopenmp -shared -fPIC gemm_blocked.c -o libgemm_blocked.so -I<parlab>/include */
#include "parlab_rung.h"

PL_RUNG_DECLARE(my_sgemm_blocked, "gemm", "cpu", "fp32");

enum { BLOCK_I = 64, BLOCK_J = 256, BLOCK_K = 256 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int my_sgemm_blocked(int64_t M, int64_t N, int64_t K, float alpha, const float *restrict A, int64_t lda,
                     const float *restrict B, int64_t ldb, float beta, float *restrict C, int64_t ldc)
{
#pragma omp parallel for schedule(dynamic)
    for (int64_t i0 = 0; i0 < M; i0 += BLOCK_I) {
        const int64_t i1 = min64(i0 + BLOCK_I, M);
        /* beta * C first (zero where beta == 0, without reading C): the k blocks then add in. */
        for (int64_t i = i0; i < i1; i++)
            for (int64_t j = 0; j < N; j++) C[i * ldc + j] = beta == 0.0f ? 0.0f : beta * C[i * ldc + j];
        for (int64_t j0 = 0; j0 < N; j0 += BLOCK_J) {
            const int64_t j1 = min64(j0 + BLOCK_J, N);
            for (int64_t k0 = 0; k0 < K; k0 += BLOCK_K) {
                const int64_t k1 = min64(k0 + BLOCK_K, K);
                for (int64_t i = i0; i < i1; i++) {
                    float *restrict c = &C[i * ldc];
                    for (int64_t k = k0; k < k1; k++) {
                        const float a = alpha * A[i * lda + k];
                        const float *restrict b = &B[k * ldb];
                        for (int64_t j = j0; j < j1; j++) c[j] += a * b[j];
                    }
                }
            }
        }
    }
    return 0;
}
