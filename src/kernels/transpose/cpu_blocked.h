/* cpu_blocked.h: the in-register block transpose cpu-blocked is built on, once per ISA
 * (cpu_blocked_avx2.c: 8x8, cpu_blocked_avx512.c: 16x16). full_blocks transposes the
 * rows x cols region at A (lda) into B (ldb), rows and cols multiples of width: each block is
 * loaded as `width` vectors (rows of A), shuffled in registers, stored as `width` vectors
 * (rows of B). Streaming stores skip the read-for-ownership of B's lines and keep B out of
 * the caches, where B is larger than they are. */
#ifndef PL_TRANSPOSE_CPU_BLOCKED_H
#define PL_TRANSPOSE_CPU_BLOCKED_H

#include <stdint.h>

typedef struct transpose_simd_isa {
    int width;
    void (*full_blocks)(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols);
    /* The same with non-temporal (streaming) stores, fenced at the end: B and its row pitch
     * (4*ldb bytes) must be multiples of 4*width bytes. */
    void (*full_blocks_stream)(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols);
} transpose_simd_isa;

extern const transpose_simd_isa pl_transpose_simd_avx2, pl_transpose_simd_avx512;

#endif
