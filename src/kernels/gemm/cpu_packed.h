/* cpu_packed.h: shared by cpu_packed.c and its micro-kernels (cpu_packed_avx2.c,
 * cpu_packed_avx512.c) only; not part of the library's face.
 *
 * A micro-kernel computes one MR x NR tile of C over k steps:
 *     C[0:mr, 0:nr] = sum_p a(i, p) * b(p, 0:NR)  (+ beta * C when beta != 0)
 * b: a packed B sliver, NR floats per p (row p of the sliver), 64-byte aligned, zero padded
 *    past the last real column; alpha is already folded in by the packing.
 * a: either a packed A sliver (MR floats per p, zero padded past row mr) when lda == 0, or,
 *    when lda > 0, A itself: row i at a + i*lda, element p at a[i*lda + p] (rows >= mr are
 *    never read: the kernel reuses row mr-1 for them and drops their results).
 * c: row-major with ldc; only rows < mr and columns < nr are touched. beta == 0: C is not
 *    read (NaN in C does not propagate); beta == 1: C += tile; else C = tile + beta*C. */
#ifndef PL_GEMM_CPU_PACKED_H
#define PL_GEMM_CPU_PACKED_H

#include <stdint.h>

/* The context's host workspace slot that holds cpu-packed's packing buffers. */
enum { PL_PACKED_HOST_WS = 0 };

typedef void (*pl_packed_ukr_fn)(int64_t k, const float *a, int64_t lda, const float *b,
                                 float *c, int64_t ldc, float beta, int mr, int nr);

/* AVX-512: 12 x 32 (24 zmm accumulators, 2 zmm of B, A as embedded broadcasts). */
enum { PL_PACKED_AVX512_MR = 12, PL_PACKED_AVX512_NR = 32 };
void pl_packed_ukr_avx512(int64_t k, const float *a, int64_t lda, const float *b, float *c,
                          int64_t ldc, float beta, int mr, int nr);

/* AVX2: 6 x 16 (12 ymm accumulators, 2 ymm of B, 1 broadcast of A). */
enum { PL_PACKED_AVX2_MR = 6, PL_PACKED_AVX2_NR = 16 };
void pl_packed_ukr_avx2(int64_t k, const float *a, int64_t lda, const float *b, float *c,
                        int64_t ldc, float beta, int mr, int nr);

#endif
