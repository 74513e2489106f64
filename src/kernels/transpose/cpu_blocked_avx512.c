/* cpu_blocked_avx512.c: a 16x16 block transposed in AVX-512 registers: 16 row loads,
 * unpacks of pairs of rows (32-bit, then 64-bit), two rounds of 128-bit lane shuffles,
 * 16 row stores. */
#include "kernels/transpose/cpu_blocked.h"

#include <immintrin.h>

static inline void put(float *p, __m512 v, int stream)
{
    if (stream) _mm512_stream_ps(p, v);
    else _mm512_storeu_ps(p, v);
}

static inline void block16(const float *A, int64_t lda, float *B, int64_t ldb, int stream)
{
    __m512 r[16], t[16];
    for (int k = 0; k < 16; k++) r[k] = _mm512_loadu_ps(A + k * lda);
    for (int k = 0; k < 8; k++) {
        t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
    }
    /* r[4g + c], 128-bit lane L: column 4L + c of rows 4g..4g+3. */
    for (int g = 0; g < 4; g++) {
        const __m512d *x = (const __m512d *)(t + 4 * g);
        r[4 * g + 0] = _mm512_castpd_ps(_mm512_unpacklo_pd(x[0], x[2]));
        r[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(x[0], x[2]));
        r[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(x[1], x[3]));
        r[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(x[1], x[3]));
    }
    /* Gather lane L of the four row groups: 0x88 takes lanes 0 and 2, 0xdd lanes 1 and 3. */
    for (int c = 0; c < 4; c++) {
        __m512 e01 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0x88), e23 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0x88);
        __m512 o01 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0xdd), o23 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0xdd);
        put(B + c * ldb, _mm512_shuffle_f32x4(e01, e23, 0x88), stream);
        put(B + (8 + c) * ldb, _mm512_shuffle_f32x4(e01, e23, 0xdd), stream);
        put(B + (4 + c) * ldb, _mm512_shuffle_f32x4(o01, o23, 0x88), stream);
        put(B + (12 + c) * ldb, _mm512_shuffle_f32x4(o01, o23, 0xdd), stream);
    }
}

static inline void blocks(const float *A, int64_t lda, float *B, int64_t ldb, int64_t rows, int64_t cols, int stream)
{
    for (int64_t i = 0; i < rows; i += 16)
        for (int64_t j = 0; j < cols; j += 16) block16(A + i * lda + j, lda, B + j * ldb + i, ldb, stream);
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

const transpose_simd_isa pl_transpose_simd_avx512 = {16, full_blocks, full_blocks_stream};
