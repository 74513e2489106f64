/* cpu_naive.c: the textbook rung. For each pixel and each value b in [0, bins), walk the
 * whole clipped window counting the values equal to b, then add -(c/n) log(c/n): O(bins*k^2)
 * per pixel, one thread, float32 logs (as the classic lab's baseline). */
#include "kernels/entropy/cpu_window.h"

#include <math.h>

pl_status pl_entropy_cpu_naive(const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const uint8_t *v = a->data[0];
    float *out = a->data[1];
    int r = p->k / 2;
    float to_base = p->base2 ? 1.0f / logf(2.0f) : 1.0f;
    for (int64_t i = 0; i < p->H; i++) {
        int64_t r0, r1;
        pl_entropy_clip(i, r, p->H, &r0, &r1);
        for (int64_t j = 0; j < p->W; j++) {
            int64_t c0, c1;
            pl_entropy_clip(j, r, p->W, &c0, &c1);
            float n = (float)((r1 - r0) * (c1 - c0)), e = 0.0f;
            for (int b = 0; b < p->bins; b++) {
                int count = 0;
                for (int64_t y = r0; y < r1; y++)
                    for (int64_t x = c0; x < c1; x++) count += v[y * p->ld_in + x] == b;
                if (count) {
                    float prob = (float)count / n;
                    e -= prob * logf(prob);
                }
            }
            out[i * p->ld_out + j] = e * to_base;
        }
    }
    return PL_OK;
}
