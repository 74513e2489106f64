/* write-read: the same array (4x the last-level cache) read (a sum), written with normal stores
 * (each line first read into the cache: write-allocate), and written with streaming stores
 * (the line goes straight to memory), on all threads. Bytes: the array's size each way.
 * Checksum: the sum after a write of 1.0 everywhere is the element count; after a streaming
 * write of 2.0, twice that. */
#include "kernels/memory/mem.h"

#include <emmintrin.h>
#include <stdio.h>

typedef struct wr_args {
    double *x;
    int64_t n;
    int threads, mode; /* 0 read, 1 write, 2 streaming write */
    double value, sum;
} wr_args;

static void wr_kernel(void *arg)
{
    wr_args *w = arg;
    double *restrict x = w->x;
    const int64_t n = w->n;
    if (w->mode == 0) {
        double sum = 0;
#pragma omp parallel for schedule(static) num_threads(w->threads) reduction(+ : sum)
        for (int64_t i = 0; i < n; i++) sum += x[i];
        w->sum = sum;
    } else if (w->mode == 1) {
        const double v = w->value;
#pragma omp parallel for schedule(static) num_threads(w->threads)
        for (int64_t i = 0; i < n; i++) x[i] = v;
    } else {
        const __m128d v = _mm_set1_pd(w->value);
#pragma omp parallel num_threads(w->threads)
        {
#pragma omp for schedule(static)
            for (int64_t i = 0; i < n; i += 2) _mm_stream_pd(x + i, v);
            _mm_sfence();
        }
    }
}

pl_status pl_mem_write_read(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    int64_t n = o->quick ? (int64_t)1 << 18 : 4 * llc / 8;
    n = (n + 7) / 8 * 8;
    double *x = pl_alloc((size_t)n * sizeof(double));
    if (!x) return pl_fail(PL_ERR_NOMEM, "mem write-read: no memory for %lld doubles", (long long)n);
    snprintf(t->setup, sizeof t->setup, "one array of %.1f MiB, %d threads", n * 8.0 / 1048576.0, o->threads);
    wr_args w = {x, n, o->threads, 1, 1.0, 0};
    wr_kernel(&w);
    static const char *const names[3] = {"read (sum)", "write, normal stores", "write, streaming stores"};
    double gbps[3];
    for (int m = 0; m < 3; m++) {
        w.mode = m;
        mem_row *r = pl_mem_row(t, "GB/s", "%s", names[m]);
        pl_mem_time(wr_kernel, &w, o->reps, 8.0 * (double)n, 1e9, 0, r);
        gbps[m] = r->best;
    }
    w.mode = 1, w.value = 1.0, wr_kernel(&w);
    w.mode = 0, wr_kernel(&w);
    int ok = w.sum == (double)n;
    w.mode = 2, w.value = 2.0, wr_kernel(&w);
    w.mode = 0, wr_kernel(&w);
    t->checksums_ok = ok && w.sum == 2.0 * (double)n;
    pl_free(x);
    snprintf(t->reading, sizeof t->reading, "reads %.1f GB/s, normal writes %.1f (each line read before it is "
             "written: the bus carries twice the bytes counted), streaming writes %.1f GB/s (%.2fx the normal ones)",
             gbps[0], gbps[1], gbps[2], gbps[1] > 0 ? gbps[2] / gbps[1] : 0);
    return PL_OK;
}
