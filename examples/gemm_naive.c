/* gemm_naive.c: a student's first SGEMM as a parlab rung: the textbook triple loop, one dot
 * product per element of C, B read down its columns (a new cache line at every step of k).
 * It is the same loop as parlab's own cpu-naive (src/kernels/gemm/cpu_naive.c), rows shared
 * among OpenMP threads, so the two time alike: what a rung loaded from a library costs beside
 * a built-in one is the difference.
 *
 *   C = alpha * A * B + beta * C, row-major: A is M x K (row pitch lda), B K x N (ldb), C M x N
 *   (ldc); beta == 0: C is written only, never read (parlab fills it with NaNs to catch a read).
 *
 * Built by parlab's build as build/examples/libgemm_naive.so; by hand:
 *   cc -O3 -fopenmp -shared -fPIC gemm_naive.c -o libgemm_naive.so -I<parlab>/include
 * Run it (examples/README.md):
 *   parlab bench gemm --size 1024 --variant cpu-naive --rung build/examples/libgemm_naive.so:my_sgemm_naive */
#include "parlab_rung.h"

PL_RUNG_DECLARE(my_sgemm_naive, "gemm", "cpu", "fp32");

int my_sgemm_naive(int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda, const float *B,
                   int64_t ldb, float beta, float *C, int64_t ldc)
{
    /* The threads: OpenMP's default (OMP_NUM_THREADS, else one per core), as parlab's own
     * rungs take by default; parlab's --threads does not reach a library's own threads. */
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < M; i++) {
        for (int64_t j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int64_t k = 0; k < K; k++) sum += A[i * lda + k] * B[k * ldb + j];
            float *c = &C[i * ldc + j];
            *c = beta == 0.0f ? alpha * sum : alpha * sum + beta * *c;
        }
    }
    return 0;
}
