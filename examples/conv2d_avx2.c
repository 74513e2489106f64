/* conv2d_avx2.c: a 2-D convolution rung with AVX2: eight neighbouring outputs of a row at
 * once, one FMA a filter tap (the tap broadcast, eight image pixels loaded unaligned), the
 * taps' rows that fall outside the image skipped; only the few columns where the window
 * crosses the left or right edge (mode same) are done one output at a time. float32, mode
 * valid, and mode same with the zero border; flip (true convolution) by rotating the filter.
 *
 * What it does not handle it refuses with a nonzero return, which parlab reports as the row's
 * failure ("... returned 10"), that row only:
 *   10  int32 data (--set dtype=i32)
 *   11  mode same with a clamp or reflect border
 *   12  a CPU without AVX2 and FMA
 *
 * Built by parlab's build (x86-64 only) as build/examples/libconv2d_avx2.so; by hand:
 *   cc -O3 -mavx2 -mfma -shared -fPIC conv2d_avx2.c -o libconv2d_avx2.so -I<parlab>/include */
#include "parlab_rung.h"

#include <immintrin.h>

PL_RUNG_DECLARE(my_conv2d_avx2, "conv2d", "cpu", "fp32");

enum { NOT_F32 = 10, BORDER_NOT_ZERO = 11, NO_AVX2 = 12 };
enum { MAX_K = 15 };

/* One output the slow way: every tap checked against the image's edges (zero outside). */
static float one_output(const float *img, int64_t H, int64_t W, int64_t ld_img, const float *f, int K, int64_t top,
                        int64_t left)
{
    float s = 0.0f;
    for (int dy = 0; dy < K; dy++) {
        const int64_t y = top + dy;
        if (y < 0 || y >= H) continue;
        for (int dx = 0; dx < K; dx++) {
            const int64_t x = left + dx;
            if (x >= 0 && x < W) s += f[dy * K + dx] * img[y * ld_img + x];
        }
    }
    return s;
}

int my_conv2d_avx2(int dtype, int64_t H, int64_t W, const void *image, int64_t ld_img, int K, const void *filter,
                   const pl_conv2d_opts *opts, void *out, int64_t ld_out)
{
    if (dtype != PL_F32) return NOT_F32;
    if (opts->mode == PL_CONV2D_SAME && opts->border != PL_CONV2D_ZERO) return BORDER_NOT_ZERO;
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return NO_AVX2;
    const float *img = image;
    float *o = out;
    /* The taps in the order they meet the window: a convolution reads the filter rotated. */
    float f[MAX_K * MAX_K];
    for (int t = 0; t < K * K; t++) f[t] = ((const float *)filter)[opts->flip ? K * K - 1 - t : t];
    /* The window of output (y, x) starts at image (y - off, x - off). */
    const int64_t off = opts->mode == PL_CONV2D_SAME ? K / 2 : 0;
    const int64_t Hout = opts->mode == PL_CONV2D_SAME ? H : H - K + 1;
    const int64_t Wout = opts->mode == PL_CONV2D_SAME ? W : W - K + 1;
    /* Columns whose window lies inside the image's width: [x_lo, x_hi). */
    const int64_t x_lo = off, x_hi = W - K + 1 + off;
    for (int64_t y = 0; y < Hout; y++) {
        const int64_t top = y - off;
        const int dy_lo = top < 0 ? (int)-top : 0;              /* taps' rows above the image: none */
        const int dy_hi = top + K > H ? (int)(H - top) : K;     /* taps' rows below it: none */
        float *orow = &o[y * ld_out];
        int64_t x = 0;
        for (; x < x_lo && x < Wout; x++) orow[x] = one_output(img, H, W, ld_img, f, K, top, x - off);
        for (; x + 8 <= x_hi; x += 8) {
            __m256 acc = _mm256_setzero_ps();
            for (int dy = dy_lo; dy < dy_hi; dy++) {
                const float *irow = &img[(top + dy) * ld_img + x - off];
                for (int dx = 0; dx < K; dx++)
                    acc = _mm256_fmadd_ps(_mm256_set1_ps(f[dy * K + dx]), _mm256_loadu_ps(irow + dx), acc);
            }
            _mm256_storeu_ps(&orow[x], acc);
        }
        for (; x < Wout; x++) orow[x] = one_output(img, H, W, ld_img, f, K, top, x - off);
    }
    return 0;
}
