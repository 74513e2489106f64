/* cpu_histogram_log_table.c: cpu-histogram with every logarithm read from a table made once
 * per call: c log c for c = 0..k^2 (0 log 0 = 0) and log n for the k^2+1 window counts, so no
 * log runs per pixel; the base-2 scale is folded into the table. Rows over OpenMP threads. */
#include "kernels/entropy/cpu_window.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pl_status pl_entropy_cpu_histogram_log_table(const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const uint8_t *v = a->data[0];
    float *out = a->data[1];
    int r = p->k / 2, nmax = p->k * p->k;
    /* clogc[c] = c log c and logn[c] = log c, in the output's base. */
    float *clogc = malloc(sizeof(float) * 2 * (size_t)(nmax + 1));
    if (!clogc) return pl_fail(PL_ERR_NOMEM, "entropy cpu-histogram-log-table: no memory for the log table");
    float *logn = clogc + nmax + 1;
    double to_base = p->base2 ? 1.0 / log(2.0) : 1.0;
    clogc[0] = logn[0] = 0.0f;
    for (int c = 1; c <= nmax; c++) {
        clogc[c] = (float)(c * log((double)c) * to_base);
        logn[c] = (float)(log((double)c) * to_base);
    }
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
            int n = (int)((r1 - r0) * (c1 - c0));
            float s = 0.0f;
            for (int b = 0; b < p->bins; b++) s += clogc[count[b]];
            out[i * p->ld_out + j] = logn[n] - s / (float)n;
        }
    }
    free(clogc);
    return PL_OK;
}
