/* cpu-naive: the textbook four loops, one output at a time on one thread. For each output the
 * K x K taps are summed in order; in same mode each tap asks the border rule where it reads
 * (pl_conv2d_border_index), a branch per tap even deep inside the image.
 * Next rung: whole rows of outputs at once in SIMD registers, borders settled once per band. */
#include "core/core.h"
#include "kernels/conv2d/conv2d.h"

/* The same loops for each dtype: T the element type (float sums in float, int32 in int32:
 * the spec keeps int32 sums in range). */
#define CONV2D_NAIVE(T)                                                                                \
    do {                                                                                               \
        const T *img = a->data[0], *w = a->data[1];                                                    \
        T *out = a->data[2];                                                                           \
        for (int64_t y = 0; y < p->OH; y++)                                                            \
            for (int64_t x = 0; x < p->OW; x++) {                                                      \
                T acc = 0;                                                                             \
                for (int i = 0; i < p->K; i++) {                                                       \
                    int64_t row = p->mode == PL_CONV2D_SAME ? pl_conv2d_border_index(p->border, y + i - r, p->H) \
                                                            : y + i;                                   \
                    if (row < 0) continue;                                                             \
                    for (int j = 0; j < p->K; j++) {                                                   \
                        int64_t col = p->mode == PL_CONV2D_SAME                                        \
                                          ? pl_conv2d_border_index(p->border, x + j - r, p->W)         \
                                          : x + j;                                                     \
                        if (col < 0) continue;                                                         \
                        acc += w[pl_conv2d_tap(p->K, p->flip, i, j)] * img[row * p->ld_img + col];     \
                    }                                                                                  \
                }                                                                                      \
                out[y * p->ld_out + x] = acc;                                                          \
            }                                                                                          \
    } while (0)

pl_status pl_conv2d_cpu_naive(const pl_run_args *a)
{
    const pl_conv2d_problem *p = a->problem;
    const int r = p->K / 2;
    if (p->dtype == PL_I32) CONV2D_NAIVE(int32_t);
    else CONV2D_NAIVE(float);
    return PL_OK;
}
