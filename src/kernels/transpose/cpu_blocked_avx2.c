/* cpu_blocked_avx2.c: an 8x8 block transposed in AVX2 registers: 8 row loads, 24 shuffles
 * (unpack pairs of rows, then pairs of pairs, then swap 128-bit halves), 8 row stores. */
#include "kernels/transpose/cpu_blocked.h"

#include <immintrin.h>

static inline void put(float *p, __m256 v, int stream)
{
    if (stream) _mm256_stream_ps(p, v);
    else _mm256_storeu_ps(p, v);
}

static inline void block8(const float *A, int64_t lda, float *B, int64_t ldb, int stream)
{
    __m256 r[8], t[8], u[8];
    for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_ps(A + k * lda);
    /* t[2k], t[2k+1]: rows 2k and 2k+1 interleaved. */
    for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm256_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm256_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    /* u[4g + c], 128-bit lane L: column 4L + c of rows 4g..4g+3. */
    for (int g = 0; g < 2; g++) {
        const __m256 *x = t + 4 * g;
        u[4 * g + 0] = _mm256_shuffle_ps(x[0], x[2], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * g + 1] = _mm256_shuffle_ps(x[0], x[2], _MM_SHUFFLE(3, 2, 3, 2));
        u[4 * g + 2] = _mm256_shuffle_ps(x[1], x[3], _MM_SHUFFLE(1, 0, 1, 0));
        u[4 * g + 3] = _mm256_shuffle_ps(x[1], x[3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int c = 0; c < 4; c++) {
        put(B + c * ldb, _mm256_permute2f128_ps(u[c], u[4 + c], 0x20), stream);
        put(B + (4 + c) * ldb, _mm256_permute2f128_ps(u[c], u[4 + c], 0x31), stream);
    }
}

static inline void blocks(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols, int stream)
{
    for (int64_t i = 0; i < rows; i += 8)
        for (int64_t j = 0; j < cols; j += 8) block8(A + i * lda + j, lda, B + j * ldb + i, ldb, stream);
}

static void full_blocks(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols)
{
    blocks(A, lda, B, ldb, rows, cols, 0);
}

static void full_blocks_stream(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols)
{
    blocks(A, lda, B, ldb, rows, cols, 1);
    _mm_sfence(); /* the streamed lines are visible before the tile is counted done */
}

const transpose_simd_isa pl_transpose_simd_avx2 = {8, full_blocks, full_blocks_stream};
