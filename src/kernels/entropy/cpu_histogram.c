/* cpu_histogram.c: one pass over the clipped window fills a histogram of the bins, then one
 * pass over the bins sums c log c: O(k^2 + bins) per pixel instead of O(bins*k^2). Float32
 * logs, E = log n - (1/n) sum c log c; rows over OpenMP threads. */
#include "kernels/entropy/cpu_window.h"

#include <math.h>
#include <string.h>

pl_status pl_entropy_cpu_histogram(const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const uint8_t *v = a->data[0];
    float *out = a->data[1];
    int r = p->k / 2;
    float to_base = p->base2 ? 1.0f / logf(2.0f) : 1.0f;
#pragma omp parallel for schedule(dynamic, 4) num_threads(pl_ctx_threads(a->ctx))
    for (int64_t i = 0; i < p->H; i++) {
        int count[PL_ENTROPY_MAX_BINS];
        int64_t r0, r1;
        pl_entropy_clip(i, r, p->H, &r0, &r1);
        for (int64_t j = 0; j < p->W; j++) {
            int64_t c0, c1;
            pl_entropy_clip(j, r, p->W, &c0, &c1);
            memset(count, 0, sizeof(int) * (size_t)p->bins);
            for (int64_t y = r0; y < r1; y++)
                for (int64_t x = c0; x < c1; x++) count[v[y * p->ld_in + x]]++;
            float n = (float)((r1 - r0) * (c1 - c0)), s = 0.0f;
            for (int b = 0; b < p->bins; b++)
                if (count[b] > 1) s += (float)count[b] * logf((float)count[b]);
            out[i * p->ld_out + j] = (logf(n) - s / n) * to_base;
        }
    }
    return PL_OK;
}
