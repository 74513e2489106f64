/* wrong.c: known-wrong user rungs (include/parlab_rung.h), one way of fooling a harness or
 * failing in it each; tests/test_cli_rungs.sh checks that parlab catches every one with its own
 * message. Built as a shared library (tests/CMakeLists.txt). Each is a correct rung but for
 * its one fault, so nothing else could be what fails it. */
#include "parlab_rung.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A correct transpose, the base of the faulty ones. */
int good_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) B[j * ldb + i] = A[i * lda + j];
    return 0;
}

/* Replay: computes the first call's answer, then copies it back on every later call. */
static float *kept;
int replay_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    const size_t n = (size_t)N * (size_t)ldb;
    if (!kept) {
        good_transpose(M, N, A, lda, B, ldb);
        kept = malloc(n * sizeof *kept);
        if (kept) memcpy(kept, B, n * sizeof *kept);
        return 0;
    }
    memcpy(B, kept, n * sizeof *kept);
    return 0;
}

/* Writes into its input: scratch space it does not own. */
int input_write_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    good_transpose(M, N, A, lda, B, ldb);
    ((float *)A)[0] += 1.0f;
    return 0;
}

/* Unwritten tail: the last output row (column N-1 of A) is left as it was. */
int unwritten_tail_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j + 1 < N; j++) B[j * ldb + i] = A[i * lda + j];
    return 0;
}

/* A failure it reports itself: a nonzero return. */
int returns_3_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    good_transpose(M, N, A, lda, B, ldb);
    return 3;
}

/* A crash (SIGSEGV), an abort (SIGABRT) and a hang, after one good call, so that they happen
 * inside the timed runs, not only at the first call. */
static int calls;
int crash_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    if (calls++ > 0) raise(SIGSEGV);
    return good_transpose(M, N, A, lda, B, ldb);
}
int abort_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    if (calls++ > 0) abort();
    return good_transpose(M, N, A, lda, B, ldb);
}
int hang_transpose(int64_t M, int64_t N, const float *A, int64_t lda, float *B, int64_t ldb)
{
    if (calls++ > 0)
        for (;;) pause();
    return good_transpose(M, N, A, lda, B, ldb);
}

/* Off-by-one at the border: a same-mode 2-D convolution (zero border) that leaves out the
 * first row of the image from the windows of the first output row. */
int border_conv2d(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                  const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    if (dtype != PL_F32 || opts->mode != PL_CONV2D_SAME || opts->border != PL_CONV2D_ZERO || opts->flip) return 2;
    const float *img = image, *f = filter;
    float *o = out;
    const int r = K / 2;
    for (int64_t y = 0; y < H; y++)
        for (int64_t x = 0; x < W; x++) {
            float s = 0;
            for (int dy = -r; dy <= r; dy++)
                for (int dx = -r; dx <= r; dx++) {
                    const int64_t yy = y + dy, xx = x + dx;
                    if (yy < (y == 0 ? 1 : 0) || yy >= H || xx < 0 || xx >= W) continue; /* the fault: y == 0 */
                    s += f[(dy + r) * K + dx + r] * img[yy * ld_img + xx];
                }
            o[y * ld_out + x] = s;
        }
    return 0;
}

/* Declared for another kernel, and for a backend the test contradicts. */
PL_RUNG_DECLARE(declared_gemm, "gemm", "cpu", "fp32");
int declared_gemm(void) { return 0; }
PL_RUNG_DECLARE(bad_precision, "transpose", "cpu", "fp16");
int bad_precision(void) { return 0; }
