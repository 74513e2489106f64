/* cpu_sliding_bands.c: the frame of cpu-sliding's vector paths (cpu_sliding_vector.h), written once
 * for AVX2 and AVX-512. The rows are split into bands, about BANDS_PER_THREAD a thread, which the
 * threads take in turn as they finish (a core that runs slower, or is shared, takes fewer); each
 * thread has its own column counters and, for each band it takes, clears them, counts the k rows
 * around the band's first row, then walks down the band, a step a row: the entering row added
 * and the leaving one dropped, and the output row. The outputs do not depend on the cut (the
 * counts are exact). log n, the sum's scale over n and its missing terms, per column where the
 * window is clipped, are remade only when the row's clipped height changes (the first and last
 * r rows of the image): a thread keeps them from one band to its next. */
#include "core/core.h"
#include "kernels/entropy/cpu_sliding_vector.h"
#include "kernels/entropy/cpu_window.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* log n (in the base), sum_unit / n and per_value n + constant for the windows of a row `rows`
 * high; the arrays are rw's. */
static void row_scales(const sliding_plan *pl, int64_t rows, float *logn, float *inv, int32_t *add, sliding_row *rw)
{
    const int64_t W = pl->p->W;
    for (int64_t x = 0; x < W; x++) {
        int64_t c0, c1;
        pl_entropy_clip(x, pl->r, W, &c0, &c1);
        int64_t n = rows * (c1 - c0);
        logn[x] = (float)(log((double)n) * pl->to_base);
        inv[x] = (float)(pl->sum_unit / (double)n);
        add[x] = (int32_t)(pl->per_value * n + pl->constant);
    }
    int64_t n = rows * pl->p->k;
    rw->logn_in = (float)(log((double)n) * pl->to_base);
    rw->inv_in = (float)(pl->sum_unit / (double)n);
    rw->add_in = (int32_t)(pl->per_value * n + pl->constant);
}

/* Bands a thread (dynamic: cores that run at different speeds share the rows by what they do). A
 * band costs its k first rows counted again and its counters cleared: at 2560 rows and 2
 * threads, 8 bands of 320 rows add about 1% (docs/entropy.md). */
enum { BANDS_PER_THREAD = 4, MIN_BAND_ROWS = 64 };

/* A thread's scale arrays (log n, inv, add: W each) and the row height they were made for. */
typedef struct thread_scales {
    float *logn;
    int64_t rows; /* -1: not made yet */
    float in[2];  /* rw's logn_in, inv_in */
    int32_t add_in;
} thread_scales;

/* Rows y0..y1-1 of the output, on this thread's counters (cleared here). */
static void band(const sliding_plan *pl, const sliding_isa *isa, const uint8_t *v, float *outp, int64_t y0,
                 int64_t y1, unsigned char *counters, size_t counter_bytes, thread_scales *ts)
{
    const pl_entropy_problem *p = pl->p;
    const int64_t H = p->H;
    const int r = pl->r;
    float *logn = ts->logn, *inv = logn + p->W;
    int32_t *add = (int32_t *)(inv + p->W);
    sliding_row rw = {logn, inv, add, ts->in[0], ts->in[1], ts->add_in};
    int64_t rows_prev = ts->rows;
    memset(counters, pl->counter_fill, counter_bytes);
    for (int64_t yy = y0 - r < 0 ? 0 : y0 - r; yy < H && yy <= y0 + r; yy++)
        isa->step(pl, counters, v + yy * p->ld_in, NULL, NULL, NULL);
    for (int64_t y = y0; y < y1; y++) {
        const uint8_t *enter = NULL, *leave = NULL;
        if (y > y0) {
            enter = y + r < H ? v + (y + r) * p->ld_in : NULL;
            leave = y - r - 1 >= 0 ? v + (y - r - 1) * p->ld_in : NULL;
        }
        int64_t r0, r1;
        pl_entropy_clip(y, r, H, &r0, &r1);
        if (r1 - r0 != rows_prev) row_scales(pl, rows_prev = r1 - r0, logn, inv, add, &rw);
        isa->step(pl, counters, enter, leave, &rw, outp + y * p->ld_out);
    }
    ts->rows = rows_prev, ts->in[0] = rw.logn_in, ts->in[1] = rw.inv_in, ts->add_in = rw.add_in;
}

pl_status pl_entropy_sliding_bands(const pl_run_args *a, const sliding_isa *isa)
{
    const pl_entropy_problem *p = a->problem;
    sliding_plan pl = {.p = p, .r = p->k / 2, .to_base = p->base2 ? 1.0 / log(2.0) : 1.0};
    isa->plan(&pl);
    const size_t counter_bytes = (size_t)(pl.counter_bytes + 63) / 64 * 64;
    int T = pl_ctx_threads(a->ctx);
    if (T > p->H) T = (int)p->H;
    if (T < 1) T = 1;
    const int64_t bands = pl_dynamic_bands(p->H, T, BANDS_PER_THREAD, MIN_BAND_ROWS);
    int failed = 0;
#pragma omp parallel num_threads(T) reduction(| : failed)
    {
        unsigned char *counters = aligned_alloc(64, counter_bytes);
        thread_scales ts = {malloc(sizeof(float) * 3 * (size_t)p->W), -1, {0, 0}, 0}; /* log n, inv, add */
        const int ok = counters && ts.logn;
        if (!ok) failed = 1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < bands; b++) /* every thread meets the loop; one without memory skips */
            if (ok) band(&pl, isa, a->data[0], a->data[1], p->H * b / bands, p->H * (b + 1) / bands, counters,
                         counter_bytes, &ts);
        free(counters), free(ts.logn);
    }
    if (failed) return pl_fail(PL_ERR_NOMEM, "entropy cpu-sliding: no memory for the column counters");
    return PL_OK;
}
