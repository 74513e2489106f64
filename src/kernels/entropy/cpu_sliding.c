/* cpu_sliding.c: the histogram slides along the row. Moving one pixel right adds the column
 * entering the window and drops the one leaving it: O(k) per pixel instead of O(k^2). The sum
 * S = sum_b c_b log c_b follows the counts: a count going c -> c+1 adds f(c+1) - f(c), read
 * from a table. The table holds f(c) = c log c in 32.32 fixed point (int64), so the running S
 * is exact integer arithmetic and does not drift along a 10000-pixel row; E is formed in
 * double. Rows over OpenMP threads.
 * With k <= 7 and bins <= 64 a vector path takes over (cpu_sliding_vector.h): AVX-512 (BW) where
 * the CPU has it, else AVX2 (not at k = 7 with bins > 32, where the general path is as fast). */
#include "core/core.h"
#include "kernels/entropy/cpu_sliding_vector.h"
#include "kernels/entropy/cpu_window.h"
#include "kernels/ladder.h"

#include <math.h>
#include <stdlib.h>

enum { ISA_AUTO, ISA_SCALAR };
static const char *const isa_choices[] = {[ISA_AUTO] = "auto", [ISA_SCALAR] = "scalar", NULL};
const pl_param_def pl_entropy_cpu_sliding_params[] = {
    [PL_ENTROPY_CPU_SLIDING_ISA] =
        {.name = "isa", .help = "auto: the vector path where it applies (k <= 7, bins <= 64; AVX-512, else AVX2, "
                                "which leaves k = 7 with bins > 32 to the general path); scalar: the general path",
         .kind = PL_PARAM_CHOICE, .choices = isa_choices, .def = ISA_AUTO},
};
PL_CHECK_COUNT(pl_entropy_cpu_sliding_params, PL_ENTROPY_CPU_SLIDING_N_PARAMS);

static const double FIX = 4294967296.0; /* 2^32 */

/* The general path: any k and bins, any CPU. */
static pl_status sliding_scalar(const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const uint8_t *v = a->data[0];
    float *out = a->data[1];
    int r = p->k / 2, nmax = p->k * p->k;
    /* step[c] = f(c+1) - f(c) in 32.32 fixed point, f(c) = c log c rounded; logn[c] = log c. */
    int64_t *step = malloc(sizeof(int64_t) * (size_t)(nmax + 1));
    double *logn = malloc(sizeof(double) * (size_t)(nmax + 1));
    if (!step || !logn) {
        free(step), free(logn);
        return pl_fail(PL_ERR_NOMEM, "entropy cpu-sliding: no memory for the tables");
    }
    int64_t prev = 0;
    logn[0] = 0;
    for (int c = 0; c <= nmax; c++) {
        int64_t next = c < nmax ? llround((c + 1) * log((double)(c + 1)) * FIX) : prev;
        step[c] = next - prev, prev = next;
        if (c) logn[c] = log((double)c);
    }
    double to_base = p->base2 ? 1.0 / log(2.0) : 1.0;
#pragma omp parallel for schedule(dynamic, 4) num_threads(pl_ctx_threads(a->ctx))
    for (int64_t i = 0; i < p->H; i++) {
        int count[PL_ENTROPY_MAX_BINS] = {0};
        int64_t r0, r1;
        pl_entropy_clip(i, r, p->H, &r0, &r1);
        int64_t rows = r1 - r0, s = 0;
        const uint8_t *top = v + r0 * p->ld_in;
        /* The window of pixel 0: columns 0..r (clipped). */
        int64_t c1 = r + 1 < p->W ? r + 1 : p->W;
        for (int64_t x = 0; x < c1; x++)
            for (int64_t y = 0; y < rows; y++) {
                int b = top[y * p->ld_in + x];
                s += step[count[b]++];
            }
        int64_t c0 = 0;
        for (int64_t j = 0; j < p->W; j++) {
            int n = (int)(rows * (c1 - c0));
            double e = logn[n] - (double)s / FIX / n; /* >= 0 up to rounding: a constant window gives 0 */
            out[i * p->ld_out + j] = (float)((e > 0 ? e : 0) * to_base);
            if (j - r >= 0) { /* column j-r leaves first: the counts never pass k^2 */
                for (int64_t y = 0; y < rows; y++) {
                    int b = top[y * p->ld_in + j - r];
                    s -= step[--count[b]];
                }
                c0++;
            }
            if (j + r + 1 < p->W) { /* column j+r+1 enters */
                for (int64_t y = 0; y < rows; y++) {
                    int b = top[y * p->ld_in + j + r + 1];
                    s += step[count[b]++];
                }
                c1++;
            }
        }
    }
    free(step), free(logn);
    return PL_OK;
}

pl_status pl_entropy_cpu_sliding(const pl_run_args *a)
{
    const pl_entropy_problem *p = a->problem;
    const sliding_isa *isa = NULL;
    if ((pl_cpu_features() & PL_FEAT_AVX512) && __builtin_cpu_supports("avx512bw")) isa = &pl_entropy_sliding_avx512;
    else if (pl_cpu_features() & PL_FEAT_AVX2) isa = &pl_entropy_sliding_avx2;
    if (a->params[PL_ENTROPY_CPU_SLIDING_ISA] == ISA_AUTO && isa && isa->takes(p))
        return pl_entropy_sliding_bands(a, isa);
    return sliding_scalar(a);
}
