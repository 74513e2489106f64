/* stream: STREAM by its rules (McCalpin): three arrays of doubles, each at least 4x the
 * last-level cache (so no kernel runs from cache), the four kernels copy c = a, scale b = s c,
 * add c = a + b, triad a = b + s c, bytes counted as STREAM counts them (16, 16, 24, 24 per
 * element: each array read or written once, no write-allocate traffic counted), the best of N
 * repeats reported (and the median beside it). With 1..threads threads (static schedule: each
 * thread touches its part first, so its pages are near it), with normal stores and with
 * streaming (non-temporal) stores, which skip reading the destination line into the cache
 * before writing it. Checksum: after the timed runs, a fresh a = 1, b = 2, c = 0 through one
 * round of the four kernels must give a = 15, b = 3, c = 4 at every element. */
#include "kernels/memory/mem.h"

#include <emmintrin.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

typedef struct stream_args {
    double *a, *b, *c;
    int64_t n;
    int threads, kernel, nt; /* kernel 0 copy, 1 scale, 2 add, 3 triad; nt: streaming stores */
} stream_args;

static const char *const kernel_names[4] = {"copy", "scale", "add", "triad"};
static const double bytes_per_elem[4] = {16, 16, 24, 24};
#define SCALAR 3.0

static void stream_kernel(void *arg)
{
    const stream_args *s = arg;
    double *restrict a = s->a, *restrict b = s->b, *restrict c = s->c;
    const int64_t n = s->n;
    if (!s->nt) {
        switch (s->kernel) {
        case 0:
#pragma omp parallel for schedule(static) num_threads(s->threads)
            for (int64_t i = 0; i < n; i++) c[i] = a[i];
            break;
        case 1:
#pragma omp parallel for schedule(static) num_threads(s->threads)
            for (int64_t i = 0; i < n; i++) b[i] = SCALAR * c[i];
            break;
        case 2:
#pragma omp parallel for schedule(static) num_threads(s->threads)
            for (int64_t i = 0; i < n; i++) c[i] = a[i] + b[i];
            break;
        default:
#pragma omp parallel for schedule(static) num_threads(s->threads)
            for (int64_t i = 0; i < n; i++) a[i] = b[i] + SCALAR * c[i];
        }
        return;
    }
    /* streaming stores: two doubles a store (n even, arrays 64-byte aligned) */
    const __m128d k = _mm_set1_pd(SCALAR);
#pragma omp parallel num_threads(s->threads)
    {
        switch (s->kernel) {
        case 0:
#pragma omp for schedule(static)
            for (int64_t i = 0; i < n; i += 2) _mm_stream_pd(c + i, _mm_load_pd(a + i));
            break;
        case 1:
#pragma omp for schedule(static)
            for (int64_t i = 0; i < n; i += 2) _mm_stream_pd(b + i, _mm_mul_pd(k, _mm_load_pd(c + i)));
            break;
        case 2:
#pragma omp for schedule(static)
            for (int64_t i = 0; i < n; i += 2) _mm_stream_pd(c + i, _mm_add_pd(_mm_load_pd(a + i), _mm_load_pd(b + i)));
            break;
        default:
#pragma omp for schedule(static)
            for (int64_t i = 0; i < n; i += 2)
                _mm_stream_pd(a + i, _mm_add_pd(_mm_load_pd(b + i), _mm_mul_pd(k, _mm_load_pd(c + i))));
        }
        _mm_sfence(); /* the streamed lines are visible before the timer stops */
    }
}

static void init_arrays(stream_args *s)
{
#pragma omp parallel for schedule(static) num_threads(s->threads)
    for (int64_t i = 0; i < s->n; i++) s->a[i] = 1.0, s->b[i] = 2.0, s->c[i] = 0.0;
}

pl_status pl_mem_stream(const mem_opts *o, mem_table *t)
{
    const int64_t llc = pl_cpu_llc_bytes(8 << 20);
    int64_t n = o->quick ? (int64_t)1 << 18 : 4 * llc / 8; /* each array 4x the LLC (STREAM's rule) */
    if (!o->quick && n < ((int64_t)1 << 21)) n = (int64_t)1 << 21;
    n = (n + 7) / 8 * 8;
    double *mem = pl_alloc((size_t)(3 * n) * sizeof(double));
    if (!mem) return pl_fail(PL_ERR_NOMEM, "mem stream: no memory for three arrays of %lld doubles", (long long)n);
    stream_args s = {mem, mem + n, mem + 2 * n, n, o->threads, 0, 0};
    snprintf(t->setup, sizeof t->setup, "3 arrays of %lld doubles (%.1f MiB each; last-level cache %.1f MiB), best "
             "and median of %d repeats", (long long)n, n * 8.0 / 1048576.0, llc / 1048576.0, o->reps);
    double best_triad[2] = {0, 0}, best_triad_1t = 0;
    for (int nt = 0; nt < 2; nt++)
        for (int th = 1; th <= o->threads; th++) {
            s.threads = th, s.nt = nt;
            init_arrays(&s);
            for (int k = 0; k < 4; k++) {
                s.kernel = k;
                mem_row *r = pl_mem_row(t, "GB/s", "%s, %d thread%s, %s stores", kernel_names[k], th, th > 1 ? "s" : "",
                                        nt ? "streaming" : "normal");
                pl_mem_time(stream_kernel, &s, o->reps, bytes_per_elem[k] * (double)n, 1e9, 0, r);
                if (k == 3 && th == o->threads && r->best > best_triad[nt]) best_triad[nt] = r->best;
                if (k == 3 && th == 1 && !nt) best_triad_1t = r->best;
            }
        }
    /* the checksum: one round from the start values */
    s.threads = o->threads, s.nt = 0;
    init_arrays(&s);
    for (int k = 0; k < 4; k++) s.kernel = k, stream_kernel(&s);
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) bad += s.a[i] != 15.0 || s.b[i] != 3.0 || s.c[i] != 4.0;
    s.nt = 1;
    init_arrays(&s);
    for (int k = 0; k < 4; k++) s.kernel = k, stream_kernel(&s);
    for (int64_t i = 0; i < n; i++) bad += s.a[i] != 15.0 || s.b[i] != 3.0 || s.c[i] != 4.0;
    t->checksums_ok = bad == 0;
    pl_free(mem);
    snprintf(t->reading, sizeof t->reading, "triad: %.1f GB/s on %d thread%s with normal stores (%.1f on one), "
             "%.1f with streaming stores: %s", best_triad[0], o->threads, o->threads > 1 ? "s" : "", best_triad_1t,
             best_triad[1],
             best_triad[1] > 1.1 * best_triad[0] ? "skipping the read of the destination line (write-allocate) "
             "saves its traffic" : "streaming stores buy little here: the write-allocate read was hidden or is "
             "not done");
    return PL_OK;
}
