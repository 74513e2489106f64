/* peaks_streams.c: the CPU's memory streams, on all threads, on float arrays far beyond the
 * caches (4x the last-level cache): STREAM triad a[i] = b[i] + s*c[i] (12 bytes an element:
 * read b and c, write a; like STREAM, the write-allocate read of a is not counted), read only
 * (a SIMD sum with eight accumulators), write only and copy (each the faster of plain and
 * non-temporal stores); the read stream on one thread (a sanity check); read and copy on
 * arrays of half the last-level cache, warm (the bound of cache-resident runs). Best of N.
 * The loops are this CPU's widest: peaks_streams_body.h in SSE (below), AVX2 or AVX-512
 * (peaks_avx2.c, peaks_avx512.c). */
#include "harness/peaks_parts.h"
#include "core/core.h"

#include <omp.h>
#include <xmmintrin.h>

/* Where the measurement loops leave their results, so that none can be optimized away. */
static volatile float peaks_sink;

int pl_peaks_triad_mib(int quick)
{
    const int64_t llc_mib = (pl_cpu_llc_bytes(0) + (1 << 20) - 1) >> 20;
    const int floor_mib = quick ? 32 : 64;
    return 4 * llc_mib > floor_mib ? (int)(4 * llc_mib) : floor_mib;
}

/* The baseline (SSE, 4 lanes) streams, for CPUs without AVX2: the body peaks_avx2.c and
 * peaks_avx512.c include, in SSE's vector words (x86-64's baseline: no -m flag needed). */
typedef __m128 vec;
#define VW 4
#define VZERO _mm_setzero_ps
#define VSET1 _mm_set1_ps
#define VLOAD _mm_loadu_ps
#define VSTORE _mm_storeu_ps
#define VADD _mm_add_ps
#define VSTREAM _mm_stream_ps
#define STREAMS_SUFFIX sse
#include "harness/peaks_streams_body.h"
#undef VW
#undef VZERO
#undef VSET1
#undef VLOAD
#undef VSTORE
#undef VADD
#undef VSTREAM
#undef STREAMS_SUFFIX

pl_peaks_stream_fns pl_peaks_best_streams(void)
{
    unsigned f = pl_cpu_features();
    if (f & PL_FEAT_AVX512)
        return (pl_peaks_stream_fns){pl_peaks_read_avx512, pl_peaks_write_avx512, pl_peaks_copy_avx512};
    if (f & PL_FEAT_AVX2) return (pl_peaks_stream_fns){pl_peaks_read_avx2, pl_peaks_write_avx2, pl_peaks_copy_avx2};
    return (pl_peaks_stream_fns){pl_peaks_read_sse, pl_peaks_write_sse, pl_peaks_copy_sse};
}

enum { STREAM_READ, STREAM_WRITE, STREAM_WRITE_NT, STREAM_COPY, STREAM_COPY_NT, STREAM_TRIAD };

/* One stream over arrays of n floats on `threads` threads, `passes` sweeps a repetition,
 * `reps` timed repetitions: the best GB/s, and the median in *median. Each thread sweeps the
 * same chunk every time (a multiple of 64 floats: the non-temporal stores' alignment, and a
 * cache-resident chunk stays in its core's caches). Bytes: the triad 12 an element (read b
 * and c, write a; like STREAM, the write-allocate read of a is not counted), copy 8, read
 * and write 4. */
static double time_stream(int kind, float *a, const float *b, const float *c, long n, int threads,
                          int passes, int reps, double *median, int *team)
{
    const pl_peaks_stream_fns fns = pl_peaks_best_streams();
    const float s = 3.0f;
    double rate[64], best = 0.0;
    int got = 1;
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        float sum = 0.0f;
        double t0 = pl_now();
#pragma omp parallel num_threads(threads) reduction(+ : sum)
        {
            int nt = omp_get_num_threads(), me = omp_get_thread_num();
            if (me == 0) got = nt;
            long per = (n / nt + 63) / 64 * 64;
            long lo = (long)me * per, hi = lo + per < n ? lo + per : n;
            long len = hi > lo ? hi - lo : 0;
            for (int p = 0; p < passes && len > 0; p++) {
                switch (kind) {
                case STREAM_READ: sum += fns.read(b + lo, len); break;
                case STREAM_WRITE: fns.write(a + lo, len, (float)(r + p), 0); break;
                case STREAM_WRITE_NT: fns.write(a + lo, len, (float)(r + p), 1); break;
                case STREAM_COPY: fns.copy(a + lo, b + lo, len, 0); break;
                case STREAM_COPY_NT: fns.copy(a + lo, b + lo, len, 1); break;
                default:
                    for (long i = lo; i < hi; i++) a[i] = b[i] + s * c[i];
                    break;
                }
            }
        }
        double t = pl_now() - t0;
        peaks_sink = sum;
        double per_elem = kind == STREAM_TRIAD ? 12.0 : (kind == STREAM_COPY || kind == STREAM_COPY_NT) ? 8.0 : 4.0;
        rate[r] = t > 0.0 ? per_elem * (double)n * passes / t / 1e9 : 0.0;
        if (rate[r] > best) best = rate[r];
    }
    *median = pl_peaks_median(rate, reps);
    *team = got;
    return best;
}

/* Time one stream, keep the best in *out and note its spread under name. A stream whose
 * readings lie far apart (best over median by more than the sanity limit: a neighbour's burst,
 * the page cache, a cache-resident array evicted now and then) is timed once more, and the
 * try with the narrower spread is kept: one disturbed try does not void the whole set of
 * figures, while a stream that is wide twice in a row is reported as it is (the sanity check
 * then refuses to cache it). */
static void stream_figure(pl_peaks *pk, const char *name, double *out, int kind, float *a, const float *b,
                          const float *c, long n, int threads, int passes, int reps, int *team)
{
    double median, best = time_stream(kind, a, b, c, n, threads, passes, reps, &median, team);
    if (median > 0.0 && best / median - 1.0 > PL_PEAKS_MAX_SPREAD) {
        int team2;
        double median2, best2 = time_stream(kind, a, b, c, n, threads, passes, reps, &median2, &team2);
        if (median2 > 0.0 && best2 / median2 < best / median) {
            best = best2;
            median = median2;
            *team = team2;
        }
    }
    *out = best;
    pl_peaks_note_spread(pk, name, best, median);
}

/* The memory streams on all threads: the triad, read only, write only (plain and
 * non-temporal stores: the faster counts), copy (likewise) on three float arrays of
 * pl_peaks_triad_mib(quick) MiB each, far beyond the last-level cache, first touched by the
 * threads that later use them; the read stream on one thread too (a sanity check); then read
 * and copy on arrays of half the last-level cache together, warm (cache-resident runs). */
pl_status pl_peaks_cpu_streams(pl_peaks *pk, int threads, int quick, int *team)
{
    const long n = (long)pl_peaks_triad_mib(quick) * 1024 * 1024 / (long)sizeof(float);
    float *a = pl_alloc((size_t)n * sizeof(float));
    float *b = pl_alloc((size_t)n * sizeof(float));
    float *c = pl_alloc((size_t)n * sizeof(float));
    if (!a || !b || !c) {
        pl_free(a);
        pl_free(b);
        pl_free(c);
        return pl_fail(PL_ERR_NOMEM, "peaks: cannot allocate 3 x %d MiB for the memory streams",
                       pl_peaks_triad_mib(quick));
    }
#pragma omp parallel num_threads(threads)
    {
        int nt = omp_get_num_threads(), me = omp_get_thread_num();
        long per = (n / nt + 63) / 64 * 64;
        long lo = (long)me * per, hi = lo + per < n ? lo + per : n;
        for (long i = lo; i < hi; i++) {
            a[i] = 0.0f;
            b[i] = 1.0f;
            c[i] = 2.0f;
        }
    }
    const int reps = pl_peaks_triad_reps(quick);
    double plain = 0.0, nt = 0.0, copy_nt = 0.0;
    stream_figure(pk, "cpu_triad_gbps", &pk->cpu_triad_gbps, STREAM_TRIAD, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_read_gbps", &pk->cpu_read_gbps, STREAM_READ, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_write_gbps (plain)", &plain, STREAM_WRITE, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_write_gbps (nt)", &nt, STREAM_WRITE_NT, a, b, c, n, threads, 1, reps, team);
    pk->cpu_write_gbps = nt > plain ? nt : plain;
    pk->cpu_write_nt = nt > plain;
    stream_figure(pk, "cpu_copy_gbps (plain)", &plain, STREAM_COPY, a, b, c, n, threads, 1, reps, team);
    stream_figure(pk, "cpu_copy_gbps (nt)", &copy_nt, STREAM_COPY_NT, a, b, c, n, threads, 1, reps, team);
    pk->cpu_copy_gbps = copy_nt > plain ? copy_nt : plain;
    int one;
    stream_figure(pk, "cpu_read_1thr_gbps", &pk->cpu_read_1thr_gbps, STREAM_READ, a, b, c, n, 1, 1,
                  reps / 2 > 3 ? reps / 2 : 3, &one);
    /* Cache-resident: half the last-level cache in all, warm: one array for the read, two of
     * a quarter each for the copy. The first repetition warms them up and is not timed. */
    const int64_t llc = pl_cpu_llc_bytes(0);
    pk->cpu_cache_bytes = (double)llc;
    if (llc > 0) {
        long half = (long)(llc / 2 / (int64_t)sizeof(float)), quarter = half / 2;
        double ignored;
        time_stream(STREAM_READ, a, b, c, half < n ? half : n, threads, 1, 1, &ignored, &one);
        stream_figure(pk, "cpu_cache_read_gbps", &pk->cpu_cache_read_gbps, STREAM_READ, a, b, c,
                      half < n ? half : n, threads, pl_peaks_cache_passes(), pl_peaks_cache_reps(quick), &one);
        time_stream(STREAM_COPY, a, b, c, quarter < n ? quarter : n, threads, 1, 1, &ignored, &one);
        stream_figure(pk, "cpu_cache_copy_gbps", &pk->cpu_cache_copy_gbps, STREAM_COPY, a, b, c,
                      quarter < n ? quarter : n, threads, pl_peaks_cache_passes(), pl_peaks_cache_reps(quick), &one);
    }
    pl_free(a);
    pl_free(b);
    pl_free(c);
    return PL_OK;
}
